/* cspace_record.h — record the steps of a C or C++ collision algorithm for
 * the cspace viewer. One header, C99 or C++11 and later, libc only.
 *
 * Writes the same bytes as the Rust crate cspace-recorder (stream format
 * version 3, see ARCHITECTURE.md "Stream format"), so `cspace-viewer`,
 * `cspace dump/stats/diff` and live attach (`CSPACE_LIVE`) work unchanged.
 *
 * USE
 *   In exactly one C or C++ file:
 *       #define CSPACE_RECORD_IMPLEMENTATION
 *       #include "cspace_record.h"
 *   Everywhere else just #include "cspace_record.h".
 *   Compile every file with -DCSPACE_RECORD to turn the macros on. Without
 *   it every macro expands to `(void)sizeof(...)`: arguments are type-checked
 *   but never evaluated, the control functions are inline stubs returning
 *   CSPACE_ERR_OFF, and the implementation compiles to nothing.
 *
 *       cspace_begin();                                 // this thread records (to memory)
 *       CSPACE_SHAPES(cspace_hull(pa, na), cspace_hull(pb, nb));
 *       CSPACE_PUSH("iteration");
 *       CSPACE_POINT("w", CSPACE_CSO, CSPACE_RED, w);   // w: const double[3]
 *       CSPACE_SIMPLEX("reduced", n, s[0].w, s[0].a, s[0].b, sizeof s[0]);
 *       CSPACE_VALUE("upper bound", upper);
 *       CSPACE_TEXT("iteration %d: |v| = %.17g", i, len);
 *       CSPACE_PAUSE("closest point");
 *       CSPACE_POP();
 *       CSPACE_ANSWER_DISTANCE(dist, on_a, on_b, normal); // what the query answered
 *       CSPACE_CERTIFICATE("converged", iters, bounds, "unique", NULL); // how far it is proven
 *       cspace_end_save("my-gjk.cspace");             // or cspace_end(&buffer)
 *
 *   C++ also has CSPACE_SCOPE("iteration"): a push now and its pop when the
 *   enclosing block exits (early returns and exceptions included).
 *
 * MACROS (each records one event; LABEL is a string literal or NULL)
 *   CSPACE_SHAPES(a, b)            the query's two shapes (cspace_shape values)
 *   CSPACE_SHAPES_SWEEP(a, b, m)   ... and A's translation m (const double[3]) for sweeps
 *   CSPACE_PUSH(label) / CSPACE_POP() / CSPACE_POP_NAMED(label)   a scope
 *   CSPACE_PAUSE(label)            a step: the viewer stops here
 *   CSPACE_TEXT(fmt, ...)          a log line, printf-formatted only while recording
 *                                  (the format string is the call site's label)
 *   CSPACE_POINT(label, space, color, p)          p: const double[3]
 *   CSPACE_LINE(label, space, color, a, b)
 *   CSPACE_TRIANGLE(label, space, color, a, b, c)
 *   CSPACE_POINTF / CSPACE_LINEF / CSPACE_TRIANGLEF: the same with const float[3]
 *                                  (recorded as f32, bit for bit)
 *   CSPACE_SIMPLEX(label, n, w, a, b, stride)     n vertices: w = a - b and the
 *       support points behind it; w, a, b point at vertex 0's three components,
 *       vertex i's are `stride` bytes further (CSPACE_SIMPLEXF for floats)
 *   CSPACE_VALUE(label, x) / CSPACE_VALUEF(label, x)   one sample of a series (f64 / f32)
 *   What the query answered (Rust: answer!, site label "answer"; the viewer
 *   draws it until the next query's shapes). Scalars are double and vectors
 *   const double[3]; the F forms take float and const float[3] (recorded as
 *   f32, bit for bit); hit and intersecting are ints (nonzero: true):
 *   CSPACE_ANSWER_DISTANCE(distance, point_a, point_b, normal)     closest points, unit A->B
 *   CSPACE_ANSWER_PENETRATION(depth, normal, point_a, point_b)     deepest points
 *   CSPACE_ANSWER_SWEEP(hit, toi, normal, point, position_a)       time of impact, A there
 *   CSPACE_ANSWER_INTERSECT(intersecting, axis)   axis: a separating axis A->B, or NULL
 *   CSPACE_ANSWER_DISTANCEF / CSPACE_ANSWER_PENETRATIONF / CSPACE_ANSWER_SWEEPF /
 *   CSPACE_ANSWER_INTERSECTF: the same in float
 *   How far the answer is proven (Rust: certificate!, label "certificate"; the
 *   viewer shows it with the answer before it, version 3):
 *   CSPACE_CERTIFICATE(status, iterations, bounds, witness, normal_within)
 *       status: a string, e.g. "converged" (NULL: ""); iterations: support
 *       evaluations (unsigned long long, above 2^32 - 1 recorded as 2^32 - 1);
 *       bounds: const double[2], the proven interval of the answer's number
 *       (lower, upper), or NULL; witness: a string saying what the points are
 *       worth ("unique", "not_unique", "approximate") or NULL; normal_within:
 *       const double *, a proven bound in radians on the normal's angle, or NULL.
 *       Strings are cut at CSPACE_MAX_NAME bytes.
 *   CSPACE_CERTIFICATEF: the same with const float *bounds and normal_within
 *   CSPACE_ON()                    whether this thread records (0 when compiled out):
 *                                  guard work done only for the macros, once per query
 *   space: CSPACE_OBJECT (world) or CSPACE_CSO (configuration space, A - B)
 *   color: CSPACE_DEFAULT_COLOR, CSPACE_RGBA(r, g, b, a), CSPACE_RED, ...
 *
 * COST
 *   Compiled out: nothing. Compiled in, a macro on a thread that is not
 *   recording costs one relaxed load of a process-wide count and a branch
 *   (plus a thread-local read when some other thread records). See
 *   examples/c-gjk/README.md for measured numbers.
 *
 * RECORDING
 *   Per thread: cspace_begin() starts recording on the calling thread only.
 *   Call sites are interned per recording: a site's file, line and label are
 *   written once (an Event::Site) before its first event, as in Rust.
 *   Nested begin/end pairs record separately; the inner end restores the
 *   outer recording (events in between go to the inner one only).
 *   Sinks: memory (always, complete even when a sink fails), a file written
 *   frame by frame as events happen (cspace_begin_file: a crash keeps every
 *   complete event), and, for cspace_begin() with CSPACE_LIVE=HOST:PORT set,
 *   a live TCP connection to `cspace listen` or `cspace-viewer --listen` with
 *   the Rust sink's rules (POSIX only; define CSPACE_NO_LIVE to leave it out).
 *
 * BAD INPUT (every case leaves a stream the Rust reader decodes fully)
 *   - NULL label or format: recorded as "" (CSPACE_TEXT(NULL) records "").
 *   - Labels and file names longer than CSPACE_MAX_NAME bytes are cut there
 *     (at a character boundary). Bytes that are not UTF-8 in labels, file
 *     names and texts are each replaced by U+FFFD.
 *   - An event whose frame would exceed 16 MiB (megabytes of text, a hull of
 *     millions of points) is replaced by a Text event at the same site, as in
 *     Rust: "<kind> event left out: its frame of N bytes exceeds the stream's
 *     limit of 16777216 bytes".
 *   - A NULL vector argument: the event is replaced by a Text event
 *     "<kind> event left out: a vector argument is NULL" ("answer event ..."
 *     for the answer macros). The exceptions say "none" with NULL: the axis
 *     of CSPACE_ANSWER_INTERSECT(F) (an intersect answer without an axis),
 *     and every pointer of CSPACE_CERTIFICATE(F) (no bounds, no witness, no
 *     normal bound; a NULL status records "").
 *   - A hull (or mesh) with 0 points, or NULL points: recorded with 0 points.
 *   - CSPACE_POP() without a push: recorded; the viewer shows a stray end.
 *   - cspace_begin inside a recording: a separate nested recording.
 *   - cspace_end with no recording on this thread: CSPACE_ERR_NOT_RECORDING.
 *   - Out of memory while recording: events from then on are dropped whole,
 *     the stream so far stays valid, cspace_end returns CSPACE_ERR_NOMEM.
 *   - A thread that exits without cspace_end leaks its recording.
 *   - Labels must be string literals in C (a static initialiser); in C++ a
 *     runtime string compiles and the first one seen at the call site is kept.
 *
 * ADDING AN EVENT KIND (when the Rust format gains one, as version 2 did Answer
 * and version 3 Certificate)
 *   1. Bump CSPACE_FORMAT_VERSION to the Rust stream::VERSION.
 *   2. Add its tag to `enum cspace__tag` (same index as the Rust Event variant).
 *   3. Write a cspace__<kind>() emitter like cspace__value_d below: compute the
 *      payload with the cspace__enc functions (bincode 1: varints, raw LE
 *      floats, length-prefixed strings/vectors), wrap it with cspace__frame.
 *   4. Add its macro in both the CSPACE_RECORD and the compiled-out section.
 *   5. Extend recorder/tests/c/same_events.c and recorder/tests/c_header.rs.
 */
#ifndef CSPACE_RECORD_H
#define CSPACE_RECORD_H

/* The implementation's live sink needs POSIX sockets and clocks, which glibc
 * hides under -std=c99 unless asked for before the first libc header: include
 * this header first in the implementation file (or use -std=gnu99). */
#if defined(CSPACE_RECORD_IMPLEMENTATION) && defined(CSPACE_RECORD) && !defined(_DEFAULT_SOURCE) && !defined(_GNU_SOURCE)
#define _DEFAULT_SOURCE 1
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants ---------------------------------------------------------- */

/** The stream format version written (Rust: cspace_recorder::stream::VERSION). */
#define CSPACE_FORMAT_VERSION 3
/** Largest frame payload in bytes (Rust: stream::MAX_FRAME_LEN). */
#define CSPACE_MAX_FRAME_LEN (16u << 20)
/** Labels and file names are cut to this many bytes. */
#define CSPACE_MAX_NAME 4096

/* Spaces. */
#define CSPACE_OBJECT 0
#define CSPACE_CSO 1

/* Colours: an sRGBA value, or CSPACE_DEFAULT_COLOR for the viewer's default.
 * Any negative value means the default; otherwise the low 32 bits are RRGGBBAA. */
#define CSPACE_DEFAULT_COLOR (-1LL)
#define CSPACE_RGBA(r, g, b, a)                                                                  \
    ((long long)((((unsigned long)(r) & 0xffu) << 24) | (((unsigned long)(g) & 0xffu) << 16) | \
                 (((unsigned long)(b) & 0xffu) << 8) | ((unsigned long)(a) & 0xffu)))
#define CSPACE_RED CSPACE_RGBA(230, 60, 50, 255)
#define CSPACE_GREEN CSPACE_RGBA(60, 190, 80, 255)
#define CSPACE_BLUE CSPACE_RGBA(70, 120, 240, 255)
#define CSPACE_YELLOW CSPACE_RGBA(240, 200, 40, 255)
#define CSPACE_ORANGE CSPACE_RGBA(245, 140, 30, 255)
#define CSPACE_PURPLE CSPACE_RGBA(170, 90, 220, 255)
#define CSPACE_GREY CSPACE_RGBA(150, 150, 150, 255)
#define CSPACE_WHITE CSPACE_RGBA(255, 255, 255, 255)

/* Results of the control functions. */
#define CSPACE_OK 0
#define CSPACE_ERR_OFF 1           /* compiled without CSPACE_RECORD: nothing recorded */
#define CSPACE_ERR_IO 2            /* a file could not be opened or written */
#define CSPACE_ERR_NOMEM 3         /* memory ran out; the recording stops at that event */
#define CSPACE_ERR_NOT_RECORDING 4 /* cspace_end without cspace_begin on this thread */
/* A live receiver that fails is not an error of the recording (as in Rust): it
 * is counted by cspace_live_dropped() and the memory/file copy is complete. */

/* ---- shapes ------------------------------------------------------------- */

/* Shape kinds, in the order of the Rust ShapeGeom variants (their stream tags). */
enum cspace_shape_kind {
    CSPACE_SHAPE_POINT = 0,
    CSPACE_SHAPE_SPHERE = 1,
    CSPACE_SHAPE_BOX = 2,
    CSPACE_SHAPE_CAPSULE = 3,
    CSPACE_SHAPE_CYLINDER = 4,
    CSPACE_SHAPE_CONE = 5,
    CSPACE_SHAPE_HULL = 6,
    CSPACE_SHAPE_MESH = 7
};

/** A shape placed in the world (Rust: ShapeDecl). Build it with the functions
 * below; hull and mesh data are borrowed, not copied, until CSPACE_SHAPES. */
typedef struct cspace_shape {
    int kind;
    double size[3];           /* sphere: radius; box: half extents; capsule/cylinder/cone: half height, radius */
    const double *points;     /* hull points or mesh vertices, xyz xyz ... (f64) */
    const float *points_f32;  /* the same in f32 (widened exactly), if points is NULL */
    size_t count;             /* number of points / vertices */
    const unsigned int *triangles; /* mesh: 3 indices per triangle */
    size_t triangle_count;
    double margin;            /* radius of the rounding sphere */
    double position[3];       /* world position of the local origin */
    double rotation[4];       /* unit quaternion x, y, z, w */
} cspace_shape;

static inline cspace_shape cspace__shape(int kind, double s0, double s1, double s2) {
    cspace_shape s;
    s.kind = kind;
    s.size[0] = s0;
    s.size[1] = s1;
    s.size[2] = s2;
    s.points = 0;
    s.points_f32 = 0;
    s.count = 0;
    s.triangles = 0;
    s.triangle_count = 0;
    s.margin = 0.0;
    s.position[0] = s.position[1] = s.position[2] = 0.0;
    s.rotation[0] = s.rotation[1] = s.rotation[2] = 0.0;
    s.rotation[3] = 1.0;
    return s;
}
/** A single point at the local origin. */
static inline cspace_shape cspace_point_shape(void) { return cspace__shape(CSPACE_SHAPE_POINT, 0, 0, 0); }
/** A sphere of `radius`. */
static inline cspace_shape cspace_sphere(double radius) { return cspace__shape(CSPACE_SHAPE_SPHERE, radius, 0, 0); }
/** An axis-aligned box with half extents hx, hy, hz. */
static inline cspace_shape cspace_box(double hx, double hy, double hz) { return cspace__shape(CSPACE_SHAPE_BOX, hx, hy, hz); }
/** A capsule along local Y. */
static inline cspace_shape cspace_capsule(double half_height, double radius) { return cspace__shape(CSPACE_SHAPE_CAPSULE, half_height, radius, 0); }
/** A cylinder along local Y. */
static inline cspace_shape cspace_cylinder(double half_height, double radius) { return cspace__shape(CSPACE_SHAPE_CYLINDER, half_height, radius, 0); }
/** A cone along local Y, apex at +half_height. */
static inline cspace_shape cspace_cone(double half_height, double radius) { return cspace__shape(CSPACE_SHAPE_CONE, half_height, radius, 0); }
/** The convex hull of `count` points (xyz xyz ..., f64). */
static inline cspace_shape cspace_hull(const double *xyz, size_t count) {
    cspace_shape s = cspace__shape(CSPACE_SHAPE_HULL, 0, 0, 0);
    s.points = xyz;
    s.count = xyz ? count : 0;
    return s;
}
/** The convex hull of `count` f32 points (widened to f64 exactly). */
static inline cspace_shape cspace_hull_f32(const float *xyz, size_t count) {
    cspace_shape s = cspace__shape(CSPACE_SHAPE_HULL, 0, 0, 0);
    s.points_f32 = xyz;
    s.count = xyz ? count : 0;
    return s;
}
/** A triangle mesh (its convex hull is the shape): f64 vertices and index triples. */
static inline cspace_shape cspace_mesh(const double *xyz, size_t vertex_count, const unsigned int *triangles,
                                       size_t triangle_count) {
    cspace_shape s = cspace__shape(CSPACE_SHAPE_MESH, 0, 0, 0);
    s.points = xyz;
    s.count = xyz ? vertex_count : 0;
    s.triangles = triangles;
    s.triangle_count = triangles ? triangle_count : 0;
    return s;
}
/** The same shape placed at `position` (NULL: origin) rotated by the unit
 * quaternion `rotation` x, y, z, w (NULL: identity). */
static inline cspace_shape cspace_at(cspace_shape s, const double *position, const double *rotation) {
    int i;
    for (i = 0; i < 3; ++i) s.position[i] = position ? position[i] : 0.0;
    for (i = 0; i < 4; ++i) s.rotation[i] = rotation ? rotation[i] : (i == 3 ? 1.0 : 0.0);
    return s;
}
/** The same shape Minkowski-summed with a sphere of radius `margin`. */
static inline cspace_shape cspace_with_margin(cspace_shape s, double margin) {
    s.margin = margin;
    return s;
}

/* ---- recording control -------------------------------------------------- */

/** The bytes of a finished recording (header included): write them to a
 * `.cspace` file. Free with cspace_buffer_free. */
typedef struct cspace_buffer {
    unsigned char *data;
    size_t len;
} cspace_buffer;

/** A call site (one static per macro expansion). */
typedef struct cspace_site {
    const char *file;
    int line;
    const char *label;
} cspace_site;

#ifdef CSPACE_RECORD

/** Starts recording on this thread, to memory (and to CSPACE_LIVE if set). */
int cspace_begin(void);
/** Starts recording on this thread to memory and to the file at `path`, frame
 * by frame. The recording starts even if the file cannot be created (memory
 * only); then CSPACE_ERR_IO is returned. */
int cspace_begin_file(const char *path);
/** Ends this thread's innermost recording. `out` (may be NULL) receives its
 * bytes. Returns the file sink's first error, CSPACE_ERR_NOMEM, or CSPACE_OK. */
int cspace_end(cspace_buffer *out);
/** cspace_end, then writes the bytes to `path` atomically (temporary file, rename). */
int cspace_end_save(const char *path);
/** Writes `buffer` to `path` atomically (a temporary file next to it, then rename). */
int cspace_save(const cspace_buffer *buffer, const char *path);
/** Frees a buffer from cspace_end (safe on an empty one). */
void cspace_buffer_free(cspace_buffer *buffer);
/** Whether this thread is recording. */
int cspace_is_recording(void);
/** Recordings that could not be streamed live (no receiver, failure, back-off). */
unsigned long cspace_live_dropped(void);
/** A sentence for a result code. */
const char *cspace_error_text(int code);

/* Internals used by the macros. */
struct cspace__recorder;
#if defined(__GNUC__) || defined(__clang__)
#define CSPACE__TLS __thread
#define CSPACE__ACTIVE() __atomic_load_n(&cspace__active, __ATOMIC_RELAXED)
#define CSPACE__PRINTF(f, a) __attribute__((format(printf, f, a)))
extern int cspace__active;
#elif defined(_MSC_VER)
#define CSPACE__TLS __declspec(thread)
#define CSPACE__ACTIVE() (*(volatile long *)&cspace__active)
#define CSPACE__PRINTF(f, a)
extern long cspace__active;
#elif defined(__cplusplus)
#define CSPACE__TLS thread_local
#define CSPACE__ACTIVE() (*(volatile int *)&cspace__active)
#define CSPACE__PRINTF(f, a)
extern int cspace__active;
#else
#define CSPACE__TLS _Thread_local
#define CSPACE__ACTIVE() (*(volatile int *)&cspace__active)
#define CSPACE__PRINTF(f, a)
extern int cspace__active;
#endif
extern CSPACE__TLS struct cspace__recorder *cspace__current;

/** Whether this thread records: the check every macro makes. */
#define CSPACE_ON() (CSPACE__ACTIVE() != 0 && cspace__current != 0)

void cspace__push(const cspace_site *s);
void cspace__pop(const cspace_site *s);
void cspace__pause(const cspace_site *s);
void cspace__text(const cspace_site *s, const char *fmt, ...) CSPACE__PRINTF(2, 3);
void cspace__point_d(const cspace_site *s, int space, long long color, const double *p);
void cspace__point_f(const cspace_site *s, int space, long long color, const float *p);
void cspace__line_d(const cspace_site *s, int space, long long color, const double *a, const double *b);
void cspace__line_f(const cspace_site *s, int space, long long color, const float *a, const float *b);
void cspace__triangle_d(const cspace_site *s, int space, long long color, const double *a, const double *b,
                        const double *c);
void cspace__triangle_f(const cspace_site *s, int space, long long color, const float *a, const float *b,
                        const float *c);
void cspace__simplex_d(const cspace_site *s, size_t n, const double *w, const double *a, const double *b,
                       size_t stride);
void cspace__simplex_f(const cspace_site *s, size_t n, const float *w, const float *a, const float *b,
                       size_t stride);
void cspace__value_d(const cspace_site *s, double x);
void cspace__value_f(const cspace_site *s, float x);
void cspace__shapes(const cspace_site *s, const cspace_shape *a, const cspace_shape *b, const double *motion);
void cspace__answer_distance_d(const cspace_site *s, double distance, const double *point_a, const double *point_b,
                               const double *normal);
void cspace__answer_distance_f(const cspace_site *s, float distance, const float *point_a, const float *point_b,
                               const float *normal);
void cspace__answer_penetration_d(const cspace_site *s, double depth, const double *normal, const double *point_a,
                                  const double *point_b);
void cspace__answer_penetration_f(const cspace_site *s, float depth, const float *normal, const float *point_a,
                                  const float *point_b);
void cspace__answer_sweep_d(const cspace_site *s, int hit, double toi, const double *normal, const double *point,
                            const double *position_a);
void cspace__answer_sweep_f(const cspace_site *s, int hit, float toi, const float *normal, const float *point,
                            const float *position_a);
void cspace__answer_intersect_d(const cspace_site *s, int intersecting, const double *axis);
void cspace__answer_intersect_f(const cspace_site *s, int intersecting, const float *axis);
void cspace__certificate_d(const cspace_site *s, const char *status, unsigned long long iterations, const double *bounds,
                           const char *witness, const double *normal_within);
void cspace__certificate_f(const cspace_site *s, const char *status, unsigned long long iterations, const float *bounds,
                           const char *witness, const float *normal_within);

#define CSPACE__DO(label, call)                                                   \
    do {                                                                          \
        if (CSPACE_ON()) {                                                        \
            static const cspace_site cspace__site_ = {__FILE__, __LINE__, label}; \
            call;                                                                 \
        }                                                                         \
    } while (0)

#define CSPACE_PUSH(label) CSPACE__DO(label, cspace__push(&cspace__site_))
#define CSPACE_POP() CSPACE__DO("", cspace__pop(&cspace__site_))
#define CSPACE_POP_NAMED(label) CSPACE__DO(label, cspace__pop(&cspace__site_))
#define CSPACE_PAUSE(label) CSPACE__DO(label, cspace__pause(&cspace__site_))
#define CSPACE__FIRST(first, ...) first
#define CSPACE_TEXT(...) CSPACE__DO(CSPACE__FIRST(__VA_ARGS__, 0), cspace__text(&cspace__site_, __VA_ARGS__))
#define CSPACE_POINT(label, space, color, p) CSPACE__DO(label, cspace__point_d(&cspace__site_, space, color, p))
#define CSPACE_POINTF(label, space, color, p) CSPACE__DO(label, cspace__point_f(&cspace__site_, space, color, p))
#define CSPACE_LINE(label, space, color, a, b) \
    CSPACE__DO(label, cspace__line_d(&cspace__site_, space, color, a, b))
#define CSPACE_LINEF(label, space, color, a, b) \
    CSPACE__DO(label, cspace__line_f(&cspace__site_, space, color, a, b))
#define CSPACE_TRIANGLE(label, space, color, a, b, c) \
    CSPACE__DO(label, cspace__triangle_d(&cspace__site_, space, color, a, b, c))
#define CSPACE_TRIANGLEF(label, space, color, a, b, c) \
    CSPACE__DO(label, cspace__triangle_f(&cspace__site_, space, color, a, b, c))
#define CSPACE_SIMPLEX(label, n, w, a, b, stride) \
    CSPACE__DO(label, cspace__simplex_d(&cspace__site_, n, w, a, b, stride))
#define CSPACE_SIMPLEXF(label, n, w, a, b, stride) \
    CSPACE__DO(label, cspace__simplex_f(&cspace__site_, n, w, a, b, stride))
#define CSPACE_VALUE(label, x) CSPACE__DO(label, cspace__value_d(&cspace__site_, x))
#define CSPACE_VALUEF(label, x) CSPACE__DO(label, cspace__value_f(&cspace__site_, x))
#define CSPACE_SHAPES(a, b) CSPACE_SHAPES_SWEEP(a, b, 0)
#define CSPACE_SHAPES_SWEEP(a, b, motion)                                              \
    do {                                                                               \
        if (CSPACE_ON()) {                                                             \
            static const cspace_site cspace__site_ = {__FILE__, __LINE__, "shapes"};   \
            const cspace_shape cspace__a_ = (a);                                       \
            const cspace_shape cspace__b_ = (b);                                       \
            cspace__shapes(&cspace__site_, &cspace__a_, &cspace__b_, motion);          \
        }                                                                              \
    } while (0)
#define CSPACE_ANSWER_DISTANCE(distance, point_a, point_b, normal) \
    CSPACE__DO("answer", cspace__answer_distance_d(&cspace__site_, distance, point_a, point_b, normal))
#define CSPACE_ANSWER_DISTANCEF(distance, point_a, point_b, normal) \
    CSPACE__DO("answer", cspace__answer_distance_f(&cspace__site_, distance, point_a, point_b, normal))
#define CSPACE_ANSWER_PENETRATION(depth, normal, point_a, point_b) \
    CSPACE__DO("answer", cspace__answer_penetration_d(&cspace__site_, depth, normal, point_a, point_b))
#define CSPACE_ANSWER_PENETRATIONF(depth, normal, point_a, point_b) \
    CSPACE__DO("answer", cspace__answer_penetration_f(&cspace__site_, depth, normal, point_a, point_b))
#define CSPACE_ANSWER_SWEEP(hit, toi, normal, point, position_a) \
    CSPACE__DO("answer", cspace__answer_sweep_d(&cspace__site_, hit, toi, normal, point, position_a))
#define CSPACE_ANSWER_SWEEPF(hit, toi, normal, point, position_a) \
    CSPACE__DO("answer", cspace__answer_sweep_f(&cspace__site_, hit, toi, normal, point, position_a))
#define CSPACE_ANSWER_INTERSECT(intersecting, axis) \
    CSPACE__DO("answer", cspace__answer_intersect_d(&cspace__site_, intersecting, axis))
#define CSPACE_ANSWER_INTERSECTF(intersecting, axis) \
    CSPACE__DO("answer", cspace__answer_intersect_f(&cspace__site_, intersecting, axis))
#define CSPACE_CERTIFICATE(status, iterations, bounds, witness, normal_within) \
    CSPACE__DO("certificate",                                                 \
               cspace__certificate_d(&cspace__site_, status, iterations, bounds, witness, normal_within))
#define CSPACE_CERTIFICATEF(status, iterations, bounds, witness, normal_within) \
    CSPACE__DO("certificate",                                                  \
               cspace__certificate_f(&cspace__site_, status, iterations, bounds, witness, normal_within))

#else /* !CSPACE_RECORD: every macro type-checks its arguments and evaluates none */

static inline int cspace_begin(void) { return CSPACE_ERR_OFF; }
static inline int cspace_begin_file(const char *path) { (void)path; return CSPACE_ERR_OFF; }
static inline int cspace_end(cspace_buffer *out) {
    if (out) { out->data = 0; out->len = 0; }
    return CSPACE_ERR_OFF;
}
static inline int cspace_end_save(const char *path) { (void)path; return CSPACE_ERR_OFF; }
static inline int cspace_save(const cspace_buffer *buffer, const char *path) { (void)buffer; (void)path; return CSPACE_ERR_OFF; }
static inline void cspace_buffer_free(cspace_buffer *buffer) { (void)buffer; }
static inline int cspace_is_recording(void) { return 0; }
static inline unsigned long cspace_live_dropped(void) { return 0; }
static inline const char *cspace_error_text(int code) {
    return code == CSPACE_OK ? "ok" : "recording is compiled out (define CSPACE_RECORD to turn it on)";
}
#define CSPACE_ON() 0

/* Declared, never defined: used only inside sizeof, so never called or linked. */
int cspace__chk_label(const char *label);
int cspace__chk_text(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
int cspace__chk_d(const char *label, int space, long long color, const double *a, const double *b, const double *c);
int cspace__chk_f(const char *label, int space, long long color, const float *a, const float *b, const float *c);
int cspace__chk_sd(const char *label, size_t n, const double *w, const double *a, const double *b, size_t stride);
int cspace__chk_sf(const char *label, size_t n, const float *w, const float *a, const float *b, size_t stride);
int cspace__chk_vd(const char *label, double x);
int cspace__chk_vf(const char *label, float x);
int cspace__chk_shapes(cspace_shape a, cspace_shape b, const double *motion);
int cspace__chk_ad(double x, const double *a, const double *b, const double *c);
int cspace__chk_af(float x, const float *a, const float *b, const float *c);
int cspace__chk_sweep_d(int hit, double toi, const double *a, const double *b, const double *c);
int cspace__chk_sweep_f(int hit, float toi, const float *a, const float *b, const float *c);
int cspace__chk_xd(int intersecting, const double *axis);
int cspace__chk_xf(int intersecting, const float *axis);
int cspace__chk_cd(const char *status, unsigned long long iterations, const double *bounds, const char *witness,
                   const double *normal_within);
int cspace__chk_cf(const char *status, unsigned long long iterations, const float *bounds, const char *witness,
                   const float *normal_within);

#define CSPACE__OFF(check) ((void)sizeof(check))
#define CSPACE_PUSH(label) CSPACE__OFF(cspace__chk_label(label))
#define CSPACE_POP() ((void)0)
#define CSPACE_POP_NAMED(label) CSPACE__OFF(cspace__chk_label(label))
#define CSPACE_PAUSE(label) CSPACE__OFF(cspace__chk_label(label))
#define CSPACE_TEXT(...) CSPACE__OFF(cspace__chk_text(__VA_ARGS__))
#define CSPACE_POINT(label, space, color, p) CSPACE__OFF(cspace__chk_d(label, space, color, p, p, p))
#define CSPACE_POINTF(label, space, color, p) CSPACE__OFF(cspace__chk_f(label, space, color, p, p, p))
#define CSPACE_LINE(label, space, color, a, b) CSPACE__OFF(cspace__chk_d(label, space, color, a, b, b))
#define CSPACE_LINEF(label, space, color, a, b) CSPACE__OFF(cspace__chk_f(label, space, color, a, b, b))
#define CSPACE_TRIANGLE(label, space, color, a, b, c) CSPACE__OFF(cspace__chk_d(label, space, color, a, b, c))
#define CSPACE_TRIANGLEF(label, space, color, a, b, c) CSPACE__OFF(cspace__chk_f(label, space, color, a, b, c))
#define CSPACE_SIMPLEX(label, n, w, a, b, stride) CSPACE__OFF(cspace__chk_sd(label, n, w, a, b, stride))
#define CSPACE_SIMPLEXF(label, n, w, a, b, stride) CSPACE__OFF(cspace__chk_sf(label, n, w, a, b, stride))
#define CSPACE_VALUE(label, x) CSPACE__OFF(cspace__chk_vd(label, x))
#define CSPACE_VALUEF(label, x) CSPACE__OFF(cspace__chk_vf(label, x))
#define CSPACE_SHAPES(a, b) CSPACE__OFF(cspace__chk_shapes(a, b, 0))
#define CSPACE_SHAPES_SWEEP(a, b, motion) CSPACE__OFF(cspace__chk_shapes(a, b, motion))
#define CSPACE_ANSWER_DISTANCE(distance, point_a, point_b, normal) \
    CSPACE__OFF(cspace__chk_ad(distance, point_a, point_b, normal))
#define CSPACE_ANSWER_DISTANCEF(distance, point_a, point_b, normal) \
    CSPACE__OFF(cspace__chk_af(distance, point_a, point_b, normal))
#define CSPACE_ANSWER_PENETRATION(depth, normal, point_a, point_b) \
    CSPACE__OFF(cspace__chk_ad(depth, normal, point_a, point_b))
#define CSPACE_ANSWER_PENETRATIONF(depth, normal, point_a, point_b) \
    CSPACE__OFF(cspace__chk_af(depth, normal, point_a, point_b))
#define CSPACE_ANSWER_SWEEP(hit, toi, normal, point, position_a) \
    CSPACE__OFF(cspace__chk_sweep_d(hit, toi, normal, point, position_a))
#define CSPACE_ANSWER_SWEEPF(hit, toi, normal, point, position_a) \
    CSPACE__OFF(cspace__chk_sweep_f(hit, toi, normal, point, position_a))
#define CSPACE_ANSWER_INTERSECT(intersecting, axis) CSPACE__OFF(cspace__chk_xd(intersecting, axis))
#define CSPACE_ANSWER_INTERSECTF(intersecting, axis) CSPACE__OFF(cspace__chk_xf(intersecting, axis))
#define CSPACE_CERTIFICATE(status, iterations, bounds, witness, normal_within) \
    CSPACE__OFF(cspace__chk_cd(status, iterations, bounds, witness, normal_within))
#define CSPACE_CERTIFICATEF(status, iterations, bounds, witness, normal_within) \
    CSPACE__OFF(cspace__chk_cf(status, iterations, bounds, witness, normal_within))

#endif /* CSPACE_RECORD */

#ifdef __cplusplus
} /* extern "C" */

/* ---- C++: a scope that closes itself ------------------------------------ */
#define CSPACE__CAT2(a, b) a##b
#define CSPACE__CAT(a, b) CSPACE__CAT2(a, b)
#ifdef CSPACE_RECORD
namespace cspace {
/** Records a push when made (if this thread records) and the matching pop when
 * destroyed. Made by CSPACE_SCOPE. */
class scope {
  public:
    scope(const cspace_site *push, const cspace_site *pop) : pop_(0) {
        if (CSPACE_ON()) {
            cspace__push(push);
            pop_ = pop;
        }
    }
    ~scope() {
        if (pop_ && cspace__current) cspace__pop(pop_);
    }
    scope(const scope &) = delete;
    scope &operator=(const scope &) = delete;

  private:
    const cspace_site *pop_;
};
} // namespace cspace
/** Opens a scope until the end of the enclosing block (one per line). */
#define CSPACE_SCOPE(label)                                                                       \
    static const cspace_site CSPACE__CAT(cspace__push_site_, __LINE__) = {__FILE__, __LINE__, label}; \
    static const cspace_site CSPACE__CAT(cspace__pop_site_, __LINE__) = {__FILE__, __LINE__, ""};     \
    ::cspace::scope CSPACE__CAT(cspace__scope_, __LINE__)(&CSPACE__CAT(cspace__push_site_, __LINE__), \
                                                         &CSPACE__CAT(cspace__pop_site_, __LINE__))
#else
#define CSPACE_SCOPE(label) CSPACE__OFF(cspace__chk_label(label))
#endif
#endif /* __cplusplus */

#endif /* CSPACE_RECORD_H */

/* ======================================================================== */
/* Implementation                                                            */
/* ======================================================================== */
#if defined(CSPACE_RECORD_IMPLEMENTATION) && defined(CSPACE_RECORD) && !defined(CSPACE_RECORD_IMPLEMENTED)
#define CSPACE_RECORD_IMPLEMENTED

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(CSPACE_NO_LIVE) && (defined(__unix__) || defined(__APPLE__))
#define CSPACE__LIVE 1
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__) && !defined(__USE_XOPEN2K)
#error "cspace_record.h: the live sink needs POSIX (include cspace_record.h before any libc header in the implementation file, compile with -std=gnu99 or -D_DEFAULT_SOURCE, or define CSPACE_NO_LIVE)"
#endif
#else
#define CSPACE__LIVE 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
long cspace__active = 0;
#define CSPACE__ADD_ACTIVE(d) _InterlockedExchangeAdd(&cspace__active, (d))
#elif defined(__GNUC__) || defined(__clang__)
int cspace__active = 0;
#define CSPACE__ADD_ACTIVE(d) __atomic_fetch_add(&cspace__active, (d), __ATOMIC_RELAXED)
#else
int cspace__active = 0; /* no atomics known for this compiler: record from one thread at a time */
#define CSPACE__ADD_ACTIVE(d) (cspace__active += (d))
#endif

#ifdef __cplusplus
extern "C" {
#endif

CSPACE__TLS struct cspace__recorder *cspace__current = 0;

/* Event tags: the index of each variant of the Rust `Event` enum. */
enum cspace__tag {
    CSPACE__SITE = 0,
    CSPACE__PUSH = 1,
    CSPACE__POP = 2,
    CSPACE__PAUSE = 3,
    CSPACE__TEXT = 4,
    CSPACE__POINT = 5,
    CSPACE__LINE = 6,
    CSPACE__TRIANGLE = 7,
    CSPACE__SIMPLEX = 8,
    CSPACE__VALUE = 9,
    CSPACE__SHAPES = 10,
    CSPACE__ANSWER = 11,
    CSPACE__CERTIFICATE = 12
};

typedef struct cspace__live cspace__live;

struct cspace__recorder {
    unsigned char *buf; /* header and frames so far */
    size_t len, cap;
    size_t sent;        /* bytes handed to the sinks */
    FILE *file;         /* file sink, unbuffered */
    cspace__live *live; /* live sink */
    int error;          /* first sink error */
    int nomem;          /* an allocation failed: record nothing more */
    /* call sites of this stream: open addressing, site pointer -> local id + 1 */
    const cspace_site **keys;
    unsigned int *ids;
    size_t map_cap, map_len;
    unsigned int next_id;
    char *scratch; /* formatted text */
    size_t scratch_cap;
    struct cspace__recorder *prev; /* the recording this one is nested in */
};

/* ---- byte output ---------------------------------------------------------- */

static int cspace__grow(struct cspace__recorder *r, size_t extra) {
    size_t need, cap;
    unsigned char *p;
    if (extra > (size_t)-1 - r->len) { r->nomem = 1; return 0; }
    need = r->len + extra;
    cap = r->cap ? r->cap : 256;
    while (cap < need) cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    p = (unsigned char *)realloc(r->buf, cap);
    if (!p) { r->nomem = 1; return 0; }
    r->buf = p;
    r->cap = cap;
    return 1;
}
/* Room for `extra` more bytes (0 once memory ran out: the frame is dropped whole). */
static inline int cspace__reserve(struct cspace__recorder *r, size_t extra) {
    if (r->nomem) return 0;
    if (extra <= r->cap - r->len) return 1;
    return cspace__grow(r, extra);
}
static void cspace__put(struct cspace__recorder *r, const void *bytes, size_t n) {
    if (!cspace__reserve(r, n)) return;
    memcpy(r->buf + r->len, bytes, n);
    r->len += n;
}
static inline void cspace__u8(struct cspace__recorder *r, unsigned v) {
    if (!cspace__reserve(r, 1)) return;
    r->buf[r->len++] = (unsigned char)v;
}
static inline void cspace__le(struct cspace__recorder *r, unsigned long long v, int n) {
    int i;
    if (!cspace__reserve(r, (size_t)n)) return;
    for (i = 0; i < n; ++i) r->buf[r->len++] = (unsigned char)(v >> (8 * i));
}
/* bincode 1 varint: < 251 one byte; 251 + u16; 252 + u32; 253 + u64 (little endian). */
static inline void cspace__varint(struct cspace__recorder *r, unsigned long long v) {
    if (v < 251) cspace__u8(r, (unsigned)v);
    else if (v <= 0xffffu) { cspace__u8(r, 251); cspace__le(r, v, 2); }
    else if (v <= 0xffffffffu) { cspace__u8(r, 252); cspace__le(r, v, 4); }
    else { cspace__u8(r, 253); cspace__le(r, v, 8); }
}
static unsigned long long cspace__varint_len(unsigned long long v) {
    return v < 251 ? 1 : v <= 0xffffu ? 3 : v <= 0xffffffffu ? 5 : 9;
}
static inline void cspace__f64(struct cspace__recorder *r, double x) {
    unsigned long long bits;
    memcpy(&bits, &x, 8);
    cspace__le(r, bits, 8);
}
static inline void cspace__f32(struct cspace__recorder *r, float x) {
    unsigned int bits;
    memcpy(&bits, &x, 4);
    cspace__le(r, bits, 4);
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if invalid (Rust's str rules). */
static size_t cspace__utf8_seq(const unsigned char *s, size_t n) {
    unsigned char b = s[0];
    size_t need, i;
    unsigned char lo = 0x80, hi = 0xbf;
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) need = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        need = 3;
        if (b == 0xe0) lo = 0xa0;
        if (b == 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        need = 4;
        if (b == 0xf0) lo = 0x90;
        if (b == 0xf4) hi = 0x8f;
    } else return 0;
    if (n < need) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (i = 2; i < need; ++i)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return need;
}
/* Bytes of s[0..n) once every invalid byte became U+FFFD (3 bytes), cut to at
 * most `max` at a character boundary; written to `out` unless NULL. */
static size_t cspace__utf8(const unsigned char *s, size_t n, size_t max, unsigned char *out) {
    static const unsigned char repl[3] = {0xef, 0xbf, 0xbd};
    size_t i = 0, len = 0;
    while (i < n) {
        size_t k = cspace__utf8_seq(s + i, n - i);
        const unsigned char *src = k ? s + i : repl;
        size_t w = k ? k : 3;
        if (len + w > max) break;
        if (out) memcpy(out + len, src, w);
        len += w;
        i += k ? k : 1;
    }
    return len;
}
static void cspace__str(struct cspace__recorder *r, const char *s, size_t n, size_t max) {
    size_t len = cspace__utf8((const unsigned char *)s, n, max, 0);
    cspace__varint(r, len);
    if (!cspace__reserve(r, len)) return;
    cspace__utf8((const unsigned char *)s, n, max, r->buf + r->len);
    r->len += len;
}

/* ---- frames and sinks ----------------------------------------------------- */

static void cspace__live_write(cspace__live *l, const unsigned char *bytes, size_t n);
static void cspace__live_after_pause(cspace__live *l);
static int cspace__live_close(cspace__live *l);
static cspace__live *cspace__live_from_env(void);

static void cspace__flush(struct cspace__recorder *r, int pause) {
    if (r->sent >= r->len) return;
    if (r->file && !r->error) {
        if (fwrite(r->buf + r->sent, 1, r->len - r->sent, r->file) != r->len - r->sent) {
            r->error = CSPACE_ERR_IO;
            fclose(r->file);
            r->file = 0;
        }
    }
    if (r->live) {
        cspace__live_write(r->live, r->buf + r->sent, r->len - r->sent);
        if (pause) cspace__live_after_pause(r->live);
    }
    r->sent = r->len;
}

/* Starts a frame: one length byte now, widened by cspace__end_frame. */
static size_t cspace__begin_frame(struct cspace__recorder *r) {
    size_t start = r->len;
    cspace__u8(r, 0);
    return start;
}
/* Completes the frame begun at `start` (or drops it whole after an allocation failure). */
static void cspace__end_frame(struct cspace__recorder *r, size_t start) {
    size_t len, n = 0;
    unsigned char prefix[5];
    unsigned long long v;
    if (r->nomem) { if (r->len > start) r->len = start; return; }
    len = r->len - start - 1;
    if (len < 0x80) { r->buf[start] = (unsigned char)len; return; }
    v = len;
    do {
        prefix[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v) prefix[n] |= 0x80;
        ++n;
    } while (v);
    if (!cspace__reserve(r, n - 1)) { r->len = start; return; }
    memmove(r->buf + start + n, r->buf + start + 1, len);
    memcpy(r->buf + start, prefix, n);
    r->len += n - 1;
}

static int cspace__map_grow(struct cspace__recorder *r) {
    size_t cap = r->map_cap ? r->map_cap * 2 : 64, i;
    const cspace_site **keys = (const cspace_site **)calloc(cap, sizeof *keys);
    unsigned int *ids = (unsigned int *)calloc(cap, sizeof *ids);
    if (!keys || !ids) { free(keys); free(ids); r->nomem = 1; return 0; }
    for (i = 0; i < r->map_cap; ++i) {
        if (r->keys[i]) {
            size_t h = ((size_t)r->keys[i] >> 4) * 2654435761u & (cap - 1);
            while (keys[h]) h = (h + 1) & (cap - 1);
            keys[h] = r->keys[i];
            ids[h] = r->ids[i];
        }
    }
    free(r->keys);
    free(r->ids);
    r->keys = keys;
    r->ids = ids;
    r->map_cap = cap;
    return 1;
}

/* The stream-local id of `s`, writing its Site event the first time; -1 after OOM. */
static long cspace__site_id(struct cspace__recorder *r, const cspace_site *s) {
    size_t h, start;
    const char *file, *label;
    unsigned int id;
    if (r->nomem) return -1;
    if (r->map_cap) {
        h = ((size_t)s >> 4) * 2654435761u & (r->map_cap - 1);
        while (r->keys[h]) {
            if (r->keys[h] == s) return (long)(r->ids[h] - 1);
            h = (h + 1) & (r->map_cap - 1);
        }
    }
    if ((r->map_len + 1) * 2 > r->map_cap && !cspace__map_grow(r)) return -1;
    h = ((size_t)s >> 4) * 2654435761u & (r->map_cap - 1);
    while (r->keys[h]) h = (h + 1) & (r->map_cap - 1);
    id = r->next_id;
    start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__SITE);
    cspace__varint(r, id);
    file = s->file ? s->file : "";
    cspace__str(r, file, strlen(file), CSPACE_MAX_NAME);
    cspace__varint(r, (unsigned long long)(s->line < 0 ? 0 : s->line));
    label = s->label ? s->label : "";
    cspace__str(r, label, strlen(label), CSPACE_MAX_NAME);
    cspace__end_frame(r, start);
    if (r->nomem) return -1;
    r->keys[h] = s;
    r->ids[h] = id + 1;
    r->map_len++;
    r->next_id++;
    return (long)id;
}

/* Writes the Text event that stands for a left-out event. */
static void cspace__note(struct cspace__recorder *r, long site, const char *text) {
    size_t start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__TEXT);
    cspace__varint(r, (unsigned long long)site);
    cspace__str(r, text, strlen(text), (size_t)-1);
    cspace__end_frame(r, start);
}
static void cspace__too_big(struct cspace__recorder *r, long site, const char *kind, unsigned long long len) {
    char text[160];
    snprintf(text, sizeof text,
             "%s event left out: its frame of %llu bytes exceeds the stream's limit of %u bytes", kind, len,
             CSPACE_MAX_FRAME_LEN);
    cspace__note(r, site, text);
}
static void cspace__null_vector(struct cspace__recorder *r, long site, const char *kind) {
    char text[96];
    snprintf(text, sizeof text, "%s event left out: a vector argument is NULL", kind);
    cspace__note(r, site, text);
}

/* The recorder of this thread and the site id, or NULL (not recording / OOM). */
static struct cspace__recorder *cspace__rec(const cspace_site *s, long *site) {
    struct cspace__recorder *r = cspace__current;
    if (!r) return 0;
    *site = cspace__site_id(r, s);
    if (*site < 0) return 0;
    return r;
}
static void cspace__done(struct cspace__recorder *r, int pause) {
    if (r->file || r->live) cspace__flush(r, pause);
    else r->sent = r->len;
}

static void cspace__site_only(const cspace_site *s, unsigned tag) {
    long site;
    struct cspace__recorder *r = cspace__rec(s, &site);
    size_t start;
    if (!r) return;
    start = cspace__begin_frame(r);
    cspace__varint(r, tag);
    cspace__varint(r, (unsigned long long)site);
    cspace__end_frame(r, start);
    cspace__done(r, tag == CSPACE__PAUSE);
}
void cspace__push(const cspace_site *s) { cspace__site_only(s, CSPACE__PUSH); }
void cspace__pop(const cspace_site *s) { cspace__site_only(s, CSPACE__POP); }
void cspace__pause(const cspace_site *s) { cspace__site_only(s, CSPACE__PAUSE); }

void cspace__text(const cspace_site *s, const char *fmt, ...) {
    long site;
    struct cspace__recorder *r = cspace__rec(s, &site);
    va_list args;
    int n;
    size_t len, text_len = 0, start;
    unsigned long long frame;
    const char *text = "";
    if (!r) return;
    if (fmt) {
        va_start(args, fmt);
        n = vsnprintf(r->scratch, r->scratch_cap, fmt, args);
        va_end(args);
        if (n >= 0 && (size_t)n >= r->scratch_cap) {
            char *p = (char *)realloc(r->scratch, (size_t)n + 1);
            if (!p) { r->nomem = 1; return; }
            r->scratch = p;
            r->scratch_cap = (size_t)n + 1;
            va_start(args, fmt);
            n = vsnprintf(r->scratch, r->scratch_cap, fmt, args);
            va_end(args);
        }
        if (n >= 0) { text = r->scratch; text_len = (size_t)n; }
        else { text = fmt; text_len = strlen(fmt); } /* a format error records the format itself */
    }
    len = cspace__utf8((const unsigned char *)text, text_len, (size_t)-1, 0);
    frame = 1 + cspace__varint_len((unsigned long long)site) + cspace__varint_len(len) + len;
    if (frame > CSPACE_MAX_FRAME_LEN) {
        cspace__too_big(r, site, "text", frame);
    } else {
        start = cspace__begin_frame(r);
        cspace__varint(r, CSPACE__TEXT);
        cspace__varint(r, (unsigned long long)site);
        cspace__str(r, text, text_len, (size_t)-1);
        cspace__end_frame(r, start);
    }
    if (r->scratch_cap > (1u << 20)) { free(r->scratch); r->scratch = 0; r->scratch_cap = 0; }
    cspace__done(r, 0);
}

/* Vec3Data: tag 0 + three f32, or tag 1 + three f64. */
static void cspace__vec_d(struct cspace__recorder *r, const double *v) {
    unsigned char *out;
    unsigned long long bits;
    int i, k;
    if (!cspace__reserve(r, 25)) return;
    out = r->buf + r->len;
    *out++ = 1;
    for (k = 0; k < 3; ++k) {
        memcpy(&bits, &v[k], 8);
        for (i = 0; i < 8; ++i) *out++ = (unsigned char)(bits >> (8 * i));
    }
    r->len += 25;
}
static void cspace__vec_f(struct cspace__recorder *r, const float *v) {
    unsigned char *out;
    unsigned int bits;
    int i, k;
    if (!cspace__reserve(r, 13)) return;
    out = r->buf + r->len;
    *out++ = 0;
    for (k = 0; k < 3; ++k) {
        memcpy(&bits, &v[k], 4);
        for (i = 0; i < 4; ++i) *out++ = (unsigned char)(bits >> (8 * i));
    }
    r->len += 13;
}
/* site, space, Option<Rgba> of Point/Line/Triangle. */
static void cspace__draw_head(struct cspace__recorder *r, unsigned tag, long site, int space, long long color) {
    cspace__varint(r, tag);
    cspace__varint(r, (unsigned long long)site);
    cspace__u8(r, space == CSPACE_CSO ? 1 : 0);
    if (color < 0) cspace__u8(r, 0);
    else {
        cspace__u8(r, 1);
        cspace__u8(r, (unsigned)((unsigned long long)color >> 24) & 0xffu);
        cspace__u8(r, (unsigned)((unsigned long long)color >> 16) & 0xffu);
        cspace__u8(r, (unsigned)((unsigned long long)color >> 8) & 0xffu);
        cspace__u8(r, (unsigned)color & 0xffu);
    }
}

#define CSPACE__DRAW(name, T, vec, tag, kind, nv)                                                     \
    static void name(const cspace_site *s, int space, long long color, const T *a, const T *b,          \
                     const T *c) {                                                                      \
        long site;                                                                                      \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        size_t start;                                                                                   \
        if (!r) return;                                                                                 \
        if (!a || (nv > 1 && !b) || (nv > 2 && !c)) {                                                   \
            cspace__null_vector(r, site, kind);                                                         \
        } else {                                                                                        \
            start = cspace__begin_frame(r);                                                             \
            cspace__draw_head(r, tag, site, space, color);                                              \
            vec(r, a);                                                                                  \
            if (nv > 1) vec(r, b);                                                                      \
            if (nv > 2) vec(r, c);                                                                      \
            cspace__end_frame(r, start);                                                                \
        }                                                                                               \
        cspace__done(r, 0);                                                                             \
    }
CSPACE__DRAW(cspace__point_d3, double, cspace__vec_d, CSPACE__POINT, "point", 1)
CSPACE__DRAW(cspace__point_f3, float, cspace__vec_f, CSPACE__POINT, "point", 1)
CSPACE__DRAW(cspace__line_d3, double, cspace__vec_d, CSPACE__LINE, "line", 2)
CSPACE__DRAW(cspace__line_f3, float, cspace__vec_f, CSPACE__LINE, "line", 2)
CSPACE__DRAW(cspace__triangle_d3, double, cspace__vec_d, CSPACE__TRIANGLE, "triangle", 3)
CSPACE__DRAW(cspace__triangle_f3, float, cspace__vec_f, CSPACE__TRIANGLE, "triangle", 3)

void cspace__point_d(const cspace_site *s, int space, long long color, const double *p) {
    cspace__point_d3(s, space, color, p, 0, 0);
}
void cspace__point_f(const cspace_site *s, int space, long long color, const float *p) {
    cspace__point_f3(s, space, color, p, 0, 0);
}
void cspace__line_d(const cspace_site *s, int space, long long color, const double *a, const double *b) {
    cspace__line_d3(s, space, color, a, b, 0);
}
void cspace__line_f(const cspace_site *s, int space, long long color, const float *a, const float *b) {
    cspace__line_f3(s, space, color, a, b, 0);
}
void cspace__triangle_d(const cspace_site *s, int space, long long color, const double *a, const double *b,
                        const double *c) {
    cspace__triangle_d3(s, space, color, a, b, c);
}
void cspace__triangle_f(const cspace_site *s, int space, long long color, const float *a, const float *b,
                        const float *c) {
    cspace__triangle_f3(s, space, color, a, b, c);
}

#define CSPACE__SIMPLEX(name, T, vec, vec_bytes)                                                        \
    void name(const cspace_site *s, size_t n, const T *w, const T *a, const T *b, size_t stride) {      \
        long site;                                                                                      \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        size_t i, start;                                                                                \
        unsigned long long frame, per = 3 * (1 + (vec_bytes));                                          \
        if (!r) return;                                                                                 \
        if (n > 0 && (!w || !a || !b)) {                                                                \
            cspace__null_vector(r, site, "simplex");                                                    \
            cspace__done(r, 0);                                                                         \
            return;                                                                                     \
        }                                                                                               \
        frame = (unsigned long long)n > (1ull << 40) ? (unsigned long long)-1                           \
                : 1 + cspace__varint_len((unsigned long long)site) + cspace__varint_len(n) + per * n;  \
        if (frame > CSPACE_MAX_FRAME_LEN) {                                                             \
            cspace__too_big(r, site, "simplex", frame);                                                 \
        } else {                                                                                        \
            start = cspace__begin_frame(r);                                                             \
            cspace__varint(r, CSPACE__SIMPLEX);                                                         \
            cspace__varint(r, (unsigned long long)site);                                                \
            cspace__varint(r, n);                                                                       \
            for (i = 0; i < n; ++i) {                                                                   \
                vec(r, (const T *)((const char *)w + i * stride));                                      \
                vec(r, (const T *)((const char *)a + i * stride));                                      \
                vec(r, (const T *)((const char *)b + i * stride));                                      \
            }                                                                                           \
            cspace__end_frame(r, start);                                                                \
        }                                                                                               \
        cspace__done(r, 0);                                                                             \
    }
CSPACE__SIMPLEX(cspace__simplex_d, double, cspace__vec_d, 24)
CSPACE__SIMPLEX(cspace__simplex_f, float, cspace__vec_f, 12)

void cspace__value_d(const cspace_site *s, double x) {
    long site;
    struct cspace__recorder *r = cspace__rec(s, &site);
    size_t start;
    if (!r) return;
    start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__VALUE);
    cspace__varint(r, (unsigned long long)site);
    cspace__u8(r, 1); /* Scalar::F64 */
    cspace__f64(r, x);
    cspace__end_frame(r, start);
    cspace__done(r, 0);
}
void cspace__value_f(const cspace_site *s, float x) {
    long site;
    struct cspace__recorder *r = cspace__rec(s, &site);
    size_t start;
    if (!r) return;
    start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__VALUE);
    cspace__varint(r, (unsigned long long)site);
    cspace__u8(r, 0); /* Scalar::F32 */
    cspace__f32(r, x);
    cspace__end_frame(r, start);
    cspace__done(r, 0);
}

/* Points and triangles actually present (NULL data counts as none). */
static unsigned long long cspace__npoints(const cspace_shape *s) {
    return (s->points || s->points_f32) ? (unsigned long long)s->count : 0;
}
static unsigned long long cspace__ntriangles(const cspace_shape *s) {
    return s->triangles ? (unsigned long long)s->triangle_count : 0;
}
/* Encoded size of a ShapeDecl (saturating far above the frame limit). */
static unsigned long long cspace__decl_len(const cspace_shape *s) {
    unsigned long long len = 1 + 8 + 24 + 32, i;
    switch (s->kind) {
    case CSPACE_SHAPE_SPHERE: return len + 8;
    case CSPACE_SHAPE_BOX: return len + 24;
    case CSPACE_SHAPE_CAPSULE:
    case CSPACE_SHAPE_CYLINDER:
    case CSPACE_SHAPE_CONE: return len + 16;
    case CSPACE_SHAPE_HULL:
    case CSPACE_SHAPE_MESH:
        if (cspace__npoints(s) > (1ull << 40) || cspace__ntriangles(s) > (1ull << 40))
            return (unsigned long long)-1 / 4;
        len += cspace__varint_len(cspace__npoints(s)) + 24ull * cspace__npoints(s);
        if (s->kind == CSPACE_SHAPE_MESH) {
            len += cspace__varint_len(cspace__ntriangles(s));
            if (3ull * cspace__ntriangles(s) > CSPACE_MAX_FRAME_LEN) return len + 3ull * cspace__ntriangles(s);
            for (i = 0; i < 3ull * cspace__ntriangles(s); ++i) len += cspace__varint_len(s->triangles[i]);
        }
        return len;
    default: return len; /* point (and unknown kinds, recorded as a point) */
    }
}
static void cspace__points(struct cspace__recorder *r, const cspace_shape *s) {
    size_t i, n = (size_t)cspace__npoints(s);
    cspace__varint(r, n);
    for (i = 0; i < 3 * n; ++i) cspace__f64(r, s->points ? s->points[i] : (double)s->points_f32[i]);
}
static void cspace__decl(struct cspace__recorder *r, const cspace_shape *s) {
    size_t i;
    switch (s->kind) {
    case CSPACE_SHAPE_SPHERE:
        cspace__u8(r, 1);
        cspace__f64(r, s->size[0]);
        break;
    case CSPACE_SHAPE_BOX:
        cspace__u8(r, 2);
        for (i = 0; i < 3; ++i) cspace__f64(r, s->size[i]);
        break;
    case CSPACE_SHAPE_CAPSULE:
    case CSPACE_SHAPE_CYLINDER:
    case CSPACE_SHAPE_CONE:
        cspace__u8(r, (unsigned)s->kind);
        cspace__f64(r, s->size[0]);
        cspace__f64(r, s->size[1]);
        break;
    case CSPACE_SHAPE_HULL:
        cspace__u8(r, 6);
        cspace__points(r, s);
        break;
    case CSPACE_SHAPE_MESH:
        cspace__u8(r, 7);
        cspace__points(r, s);
        cspace__varint(r, cspace__ntriangles(s));
        for (i = 0; i < 3 * (size_t)cspace__ntriangles(s); ++i) cspace__varint(r, s->triangles[i]);
        break;
    default: cspace__u8(r, 0); break;
    }
    cspace__f64(r, s->margin);
    for (i = 0; i < 3; ++i) cspace__f64(r, s->position[i]);
    for (i = 0; i < 4; ++i) cspace__f64(r, s->rotation[i]);
}
void cspace__shapes(const cspace_site *s, const cspace_shape *a, const cspace_shape *b, const double *motion) {
    long site;
    struct cspace__recorder *r = cspace__rec(s, &site);
    size_t start, i;
    unsigned long long frame;
    if (!r) return;
    frame = 1 + cspace__varint_len((unsigned long long)site) + cspace__decl_len(a) + cspace__decl_len(b) +
            (motion ? 25 : 1);
    if (frame > CSPACE_MAX_FRAME_LEN) {
        cspace__too_big(r, site, "shapes", frame);
    } else {
        start = cspace__begin_frame(r);
        cspace__varint(r, CSPACE__SHAPES);
        cspace__varint(r, (unsigned long long)site);
        cspace__decl(r, a);
        cspace__decl(r, b);
        if (motion) {
            cspace__u8(r, 1);
            for (i = 0; i < 3; ++i) cspace__f64(r, motion[i]);
        } else cspace__u8(r, 0);
        cspace__end_frame(r, start);
    }
    cspace__done(r, 0);
}

/* Event::Answer: tag, site, then the Answer (Box<Answer> encodes as Answer):
 * its variant (Distance 0, Penetration 1, Sweep 2, Intersect 3) and fields in
 * declaration order; Scalar is tag 0 + f32 or tag 1 + f64, bool one byte,
 * Option<Vec3Data> a byte 0 or 1 then the vector. A frame holds at most 92
 * bytes (a 5-byte site id and a sweep in f64): no size check. */
static void cspace__scalar_d(struct cspace__recorder *r, double x) {
    cspace__u8(r, 1); /* Scalar::F64 */
    cspace__f64(r, x);
}
static void cspace__scalar_f(struct cspace__recorder *r, float x) {
    cspace__u8(r, 0); /* Scalar::F32 */
    cspace__f32(r, x);
}
/* Begins the frame of answer `variant` (1), or writes the NULL-vector note (0). */
static int cspace__answer_head(struct cspace__recorder *r, long site, int vectors_ok, unsigned variant,
                               size_t *start) {
    if (!vectors_ok) {
        cspace__null_vector(r, site, "answer");
        return 0;
    }
    *start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__ANSWER);
    cspace__varint(r, (unsigned long long)site);
    cspace__varint(r, variant);
    return 1;
}
/* cspace__answer_{distance,penetration,sweep,intersect}_<sfx> for T = double (d) or float (f). */
#define CSPACE__ANSWERS(sfx, T, vec, scalar)                                                            \
    void cspace__answer_distance_##sfx(const cspace_site *s, T distance, const T *point_a, const T *point_b, \
                                       const T *normal) {                                               \
        long site;                                                                                      \
        size_t start = 0;                                                                               \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        if (!r) return;                                                                                 \
        if (cspace__answer_head(r, site, point_a && point_b && normal, 0, &start)) {                     \
            scalar(r, distance);                                                                        \
            vec(r, point_a);                                                                            \
            vec(r, point_b);                                                                            \
            vec(r, normal);                                                                             \
            cspace__end_frame(r, start);                                                                \
        }                                                                                               \
        cspace__done(r, 0);                                                                             \
    }                                                                                                   \
    void cspace__answer_penetration_##sfx(const cspace_site *s, T depth, const T *normal, const T *point_a, \
                                          const T *point_b) {                                           \
        long site;                                                                                      \
        size_t start = 0;                                                                               \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        if (!r) return;                                                                                 \
        if (cspace__answer_head(r, site, normal && point_a && point_b, 1, &start)) {                    \
            scalar(r, depth);                                                                           \
            vec(r, normal);                                                                             \
            vec(r, point_a);                                                                            \
            vec(r, point_b);                                                                            \
            cspace__end_frame(r, start);                                                                \
        }                                                                                               \
        cspace__done(r, 0);                                                                             \
    }                                                                                                   \
    void cspace__answer_sweep_##sfx(const cspace_site *s, int hit, T toi, const T *normal, const T *point,  \
                                    const T *position_a) {                                              \
        long site;                                                                                      \
        size_t start = 0;                                                                               \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        if (!r) return;                                                                                 \
        if (cspace__answer_head(r, site, normal && point && position_a, 2, &start)) {                   \
            cspace__u8(r, hit ? 1 : 0);                                                                 \
            scalar(r, toi);                                                                             \
            vec(r, normal);                                                                             \
            vec(r, point);                                                                              \
            vec(r, position_a);                                                                         \
            cspace__end_frame(r, start);                                                                \
        }                                                                                               \
        cspace__done(r, 0);                                                                             \
    }                                                                                                   \
    void cspace__answer_intersect_##sfx(const cspace_site *s, int intersecting, const T *axis) {        \
        long site;                                                                                      \
        size_t start = 0;                                                                               \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        if (!r) return;                                                                                 \
        cspace__answer_head(r, site, 1, 3, &start);                                                     \
        cspace__u8(r, intersecting ? 1 : 0);                                                            \
        if (axis) {                                                                                     \
            cspace__u8(r, 1);                                                                           \
            vec(r, axis);                                                                               \
        } else cspace__u8(r, 0); /* NULL: no axis */                                                    \
        cspace__end_frame(r, start);                                                                    \
        cspace__done(r, 0);                                                                             \
    }
CSPACE__ANSWERS(d, double, cspace__vec_d, cspace__scalar_d)
CSPACE__ANSWERS(f, float, cspace__vec_f, cspace__scalar_f)

/* Event::Certificate (version 3): tag, site, then the Certificate's fields in
 * declaration order: status string, iterations varint (u32), bounds
 * Option<[Scalar; 2]>, witness Option<String>, normal_within Option<Scalar>.
 * Strings are cut at CSPACE_MAX_NAME, so a frame holds at most ~8.3 KB: no
 * size check. */
static void cspace__opt_str(struct cspace__recorder *r, const char *s) {
    if (!s) {
        cspace__u8(r, 0);
        return;
    }
    cspace__u8(r, 1);
    cspace__str(r, s, strlen(s), CSPACE_MAX_NAME);
}
static void cspace__certificate_head(struct cspace__recorder *r, long site, const char *status,
                                     unsigned long long iterations, size_t *start) {
    *start = cspace__begin_frame(r);
    cspace__varint(r, CSPACE__CERTIFICATE);
    cspace__varint(r, (unsigned long long)site);
    if (!status) status = "";
    cspace__str(r, status, strlen(status), CSPACE_MAX_NAME);
    cspace__varint(r, iterations > 0xffffffffULL ? 0xffffffffULL : iterations);
}
#define CSPACE__CERTIFICATE(sfx, T, scalar)                                                              \
    void cspace__certificate_##sfx(const cspace_site *s, const char *status, unsigned long long iterations,  \
                                   const T *bounds, const char *witness, const T *normal_within) {      \
        long site;                                                                                      \
        size_t start = 0;                                                                               \
        struct cspace__recorder *r = cspace__rec(s, &site);                                             \
        if (!r) return;                                                                                 \
        cspace__certificate_head(r, site, status, iterations, &start);                                  \
        if (bounds) {                                                                                   \
            cspace__u8(r, 1);                                                                           \
            scalar(r, bounds[0]);                                                                       \
            scalar(r, bounds[1]);                                                                       \
        } else cspace__u8(r, 0);                                                                        \
        cspace__opt_str(r, witness);                                                                    \
        if (normal_within) {                                                                            \
            cspace__u8(r, 1);                                                                           \
            scalar(r, *normal_within);                                                                  \
        } else cspace__u8(r, 0);                                                                        \
        cspace__end_frame(r, start);                                                                    \
        cspace__done(r, 0);                                                                             \
    }
CSPACE__CERTIFICATE(d, double, cspace__scalar_d)
CSPACE__CERTIFICATE(f, float, cspace__scalar_f)

/* ---- control -------------------------------------------------------------- */

static int cspace__begin(FILE *file, int want_live, int result) {
    struct cspace__recorder *r = (struct cspace__recorder *)calloc(1, sizeof *r);
    static const unsigned char header[8] = {'C', 'S', 'P', 'C', CSPACE_FORMAT_VERSION & 0xff,
                                            (CSPACE_FORMAT_VERSION >> 8) & 0xff, 0, 0};
    if (!r) {
        if (file) fclose(file);
        return CSPACE_ERR_NOMEM;
    }
    r->file = file;
    r->error = result == CSPACE_ERR_IO ? CSPACE_ERR_IO : CSPACE_OK;
    if (file) setvbuf(file, 0, _IONBF, 0); /* every frame reaches the kernel as it is written */
    if (want_live) r->live = cspace__live_from_env();
    cspace__put(r, header, sizeof header);
    cspace__flush(r, 0);
    r->prev = cspace__current;
    if (!r->prev) CSPACE__ADD_ACTIVE(1);
    cspace__current = r;
    return result;
}
int cspace_begin(void) { return cspace__begin(0, 1, CSPACE_OK); }
int cspace_begin_file(const char *path) {
    FILE *f = path ? fopen(path, "wb") : 0;
    return cspace__begin(f, 0, f ? CSPACE_OK : CSPACE_ERR_IO);
}
int cspace_end(cspace_buffer *out) {
    struct cspace__recorder *r = cspace__current;
    int result;
    if (out) { out->data = 0; out->len = 0; }
    if (!r) return CSPACE_ERR_NOT_RECORDING;
    cspace__flush(r, 0);
    result = r->error;
    if (r->file && fclose(r->file) != 0 && !result) result = CSPACE_ERR_IO;
    if (r->live) cspace__live_close(r->live); /* a failure is counted, not returned */
    if (r->nomem && !result) result = CSPACE_ERR_NOMEM;
    cspace__current = r->prev;
    if (!r->prev) CSPACE__ADD_ACTIVE(-1);
    if (out) { out->data = r->buf; out->len = r->len; }
    else free(r->buf);
    free(r->keys);
    free(r->ids);
    free(r->scratch);
    free(r);
    return result;
}
int cspace_save(const cspace_buffer *buffer, const char *path) {
    static unsigned long counter = 0;
    char *tmp;
    size_t n;
    FILE *f;
    int ok;
    if (!buffer || !path) return CSPACE_ERR_IO;
    n = strlen(path) + 48;
    tmp = (char *)malloc(n);
    if (!tmp) return CSPACE_ERR_NOMEM;
    snprintf(tmp, n, "%s.%lu.%p.tmp", path, counter++, (void *)&tmp);
    f = fopen(tmp, "wb");
    if (!f) { free(tmp); return CSPACE_ERR_IO; }
    ok = fwrite(buffer->data, 1, buffer->len, f) == buffer->len;
    ok = (fclose(f) == 0) && ok;
#ifdef _WIN32
    if (ok) remove(path);
#endif
    ok = ok && rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    free(tmp);
    return ok ? CSPACE_OK : CSPACE_ERR_IO;
}
int cspace_end_save(const char *path) {
    cspace_buffer b;
    int result = cspace_end(&b), saved;
    if (result == CSPACE_ERR_NOT_RECORDING) return result;
    saved = cspace_save(&b, path);
    cspace_buffer_free(&b);
    return saved != CSPACE_OK ? saved : result;
}
void cspace_buffer_free(cspace_buffer *buffer) {
    if (!buffer) return;
    free(buffer->data);
    buffer->data = 0;
    buffer->len = 0;
}
int cspace_is_recording(void) { return cspace__current != 0; }
const char *cspace_error_text(int code) {
    switch (code) {
    case CSPACE_OK: return "ok";
    case CSPACE_ERR_OFF: return "recording is compiled out (define CSPACE_RECORD to turn it on)";
    case CSPACE_ERR_IO: return "a file could not be created or written (the recording in memory is complete)";
    case CSPACE_ERR_NOMEM: return "memory ran out: the recording stops at the event that needed more";
    case CSPACE_ERR_NOT_RECORDING: return "cspace_end without a matching cspace_begin on this thread";
    default: return "unknown cspace result code";
    }
}

/* ---- live sink (CSPACE_LIVE), the Rust LiveSink's rules ------------------- */
#if CSPACE__LIVE

#define CSPACE__CONNECT_MS 250   /* live::CONNECT_TIMEOUT */
#define CSPACE__WRITE_MS 2000    /* live::WRITE_TIMEOUT */
#define CSPACE__CLOSE_MS 1000    /* live::CLOSE_TIMEOUT */
#define CSPACE__ANNOUNCE_MS 250  /* live::ANNOUNCE_TIMEOUT */
#define CSPACE__RETRY_MS 1000    /* live::RETRY_AFTER */
#define CSPACE__MAX_RETRY_MS 60000 /* live::MAX_RETRY_AFTER */
#define CSPACE__ANNOUNCE 'S'     /* live::ANNOUNCE_STEPS */
#define CSPACE__STEP 'n'         /* live::STEP */

struct cspace__live {
    int fd;
    int block;    /* CSPACE_LIVE_BLOCK=1 */
    int stepping; /* -1 unknown, 0 no, 1 yes */
    int failed;
};

/* Process-wide back-off (benign races: both values are hints). */
static long long cspace__retry_at = 0;
static long long cspace__backoff = CSPACE__RETRY_MS;
static unsigned long cspace__dropped = 0;

static long long cspace__now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
static void cspace__target_failed(void) {
    cspace__retry_at = cspace__now_ms() + cspace__backoff;
    cspace__backoff = cspace__backoff * 2 > CSPACE__MAX_RETRY_MS ? CSPACE__MAX_RETRY_MS : cspace__backoff * 2;
}
static void cspace__live_fail(cspace__live *l) {
    if (l->failed) return;
    l->failed = 1;
    cspace__dropped++;
    shutdown(l->fd, SHUT_RDWR);
    cspace__target_failed();
}
unsigned long cspace_live_dropped(void) { return cspace__dropped; }

/* Waits for `events` on l->fd at most `ms` (negative: forever); 1 when ready. */
static int cspace__wait(int fd, short events, long long ms) {
    struct pollfd p;
    int n;
    p.fd = fd;
    p.events = events;
    p.revents = 0;
    do n = poll(&p, 1, ms < 0 ? -1 : (int)ms);
    while (n < 0 && errno == EINTR);
    return n > 0;
}
static int cspace__read_byte(int fd, long long ms) {
    unsigned char b;
    ssize_t n;
    if (!cspace__wait(fd, POLLIN, ms)) return -1;
    do n = recv(fd, &b, 1, 0);
    while (n < 0 && errno == EINTR);
    return n == 1 ? b : -1;
}

static cspace__live *cspace__live_from_env(void) {
    const char *addr = getenv("CSPACE_LIVE"), *block = getenv("CSPACE_LIVE_BLOCK"), *colon;
    char host[256], port[16];
    size_t hl;
    struct addrinfo hints, *res = 0, *ai;
    cspace__live *l;
    int fd = -1;
    if (!addr || !*addr) return 0;
    if (cspace__retry_at && cspace__now_ms() < cspace__retry_at) { cspace__dropped++; return 0; }
    colon = strrchr(addr, ':');
    if (!colon || (size_t)(colon - addr) >= sizeof host || strlen(colon + 1) >= sizeof port) {
        cspace__dropped++;
        cspace__target_failed();
        return 0;
    }
    hl = (size_t)(colon - addr);
    if (hl >= 2 && addr[0] == '[' && addr[hl - 1] == ']') { memcpy(host, addr + 1, hl - 2); host[hl - 2] = 0; }
    else { memcpy(host, addr, hl); host[hl] = 0; }
    strcpy(port, colon + 1);
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) == 0) {
        for (ai = res; ai && fd < 0; ai = ai->ai_next) {
            int err = 0;
            socklen_t el = sizeof err;
            fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
            if (fd < 0) continue;
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
            if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 &&
                (errno != EINPROGRESS || !cspace__wait(fd, POLLOUT, CSPACE__CONNECT_MS) ||
                 getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 || err != 0)) {
                close(fd);
                fd = -1;
            }
        }
        freeaddrinfo(res);
    }
    l = fd >= 0 ? (cspace__live *)calloc(1, sizeof *l) : 0;
    if (!l) {
        if (fd >= 0) close(fd);
        cspace__dropped++;
        cspace__target_failed();
        return 0;
    }
    {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    }
    l->fd = fd;
    l->block = block && strcmp(block, "1") == 0;
    l->stepping = -1;
    return l;
}

static void cspace__live_write(cspace__live *l, const unsigned char *bytes, size_t n) {
    long long deadline = cspace__now_ms() + CSPACE__WRITE_MS;
#ifdef MSG_NOSIGNAL
    const int flags = MSG_NOSIGNAL;
#else
    const int flags = 0;
#endif
    while (n > 0 && !l->failed) {
        ssize_t w;
        long long left = deadline - cspace__now_ms();
        if (left <= 0 || !cspace__wait(l->fd, POLLOUT, left)) { cspace__live_fail(l); return; }
        w = send(l->fd, bytes, n, flags);
        if (w < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (w <= 0) { cspace__live_fail(l); return; }
        bytes += w;
        n -= (size_t)w;
    }
}
static void cspace__live_after_pause(cspace__live *l) {
    if (!l->block || l->failed) return;
    if (l->stepping < 0) l->stepping = cspace__read_byte(l->fd, CSPACE__ANNOUNCE_MS) == CSPACE__ANNOUNCE;
    if (!l->stepping) return;
    /* The user decides when to step: no timeout; a closed connection releases us. */
    if (cspace__read_byte(l->fd, -1) != CSPACE__STEP) cspace__live_fail(l);
}
/* Ends the stream and waits for the receiver to close its side; 1 if it confirmed. */
static int cspace__live_close(cspace__live *l) {
    int ok = 0;
    if (!l->failed && shutdown(l->fd, SHUT_WR) == 0) {
        long long deadline = cspace__now_ms() + CSPACE__CLOSE_MS;
        for (;;) {
            unsigned char buf[64];
            ssize_t n;
            long long left = deadline - cspace__now_ms();
            if (left <= 0 || !cspace__wait(l->fd, POLLIN, left)) break;
            n = recv(l->fd, buf, sizeof buf, 0);
            if (n == 0) { ok = 1; break; }
            if (n < 0 && errno != EINTR && errno != EAGAIN) break;
        }
    }
    if (ok) { cspace__retry_at = 0; cspace__backoff = CSPACE__RETRY_MS; }
    else cspace__live_fail(l);
    close(l->fd);
    free(l);
    return ok;
}
#else
struct cspace__live { int unused; };
static cspace__live *cspace__live_from_env(void) { return 0; }
static void cspace__live_write(cspace__live *l, const unsigned char *bytes, size_t n) { (void)l; (void)bytes; (void)n; }
static void cspace__live_after_pause(cspace__live *l) { (void)l; }
static int cspace__live_close(cspace__live *l) { (void)l; return 1; }
unsigned long cspace_live_dropped(void) { return 0; }
#endif /* CSPACE__LIVE */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CSPACE_RECORD_IMPLEMENTATION */
