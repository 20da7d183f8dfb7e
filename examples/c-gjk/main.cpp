// The same GJK (gjk.c compiled as C++) driven from C++: the recording is an
// RAII object and each query sits in a CSPACE_SCOPE that closes itself.
//
//   c++ -std=c++17 -O2 -DCSPACE_RECORD -I../../recorder/c -x c++ main.cpp gjk.c -o c-gjk-cpp
//   ./c-gjk-cpp [OUT.cspace]        # default c-gjk-cpp.cspace
#define CSPACE_RECORD_IMPLEMENTATION
#include "cspace_record.h"

#include "cases.h"
#include "gjk.h"

#include <cstdio>
#include <string>

namespace {

// Records this thread's macros from construction to save() or destruction.
class Recording {
  public:
    Recording() { cspace_begin(); }
    ~Recording() {
        if (open_) cspace_end(nullptr);
    }
    Recording(const Recording &) = delete;
    Recording &operator=(const Recording &) = delete;
    // Ends the recording and writes it to `path`.
    int save(const std::string &path) {
        open_ = false;
        return cspace_end_save(path.c_str());
    }

  private:
    bool open_ = true;
};

gjk_result query(const gjk_case &t) {
    CSPACE_SCOPE("query");  // popped when this function returns
    vec3 pa[8], pb[8];
    box_corners(t.center_a, t.half_a, pa);
    box_corners(t.center_b, t.half_b, pb);
    const hull a{pa, 8}, b{pb, 8};
    CSPACE_TEXT("case %s", t.name);
    return gjk_distance(&a, &b);
}

}  // namespace

int main(int argc, char **argv) {
    const std::string path = argc > 1 ? argv[1] : "c-gjk-cpp.cspace";
    int failed = 0;
    for (const gjk_case &t : gjk_cases) {
        Recording recording;
        const gjk_result r = query(t);
        const double expected = box_distance(&t);
        if (distance_ok(r.distance, expected)) {
            std::printf("ok    %-20s distance %.9g after %d iterations\n", t.name, r.distance, r.iterations);
            continue;
        }
        failed = 1;
        std::printf("FAIL  %-20s distance %.9g, expected %.9g\n", t.name, r.distance, expected);
        const int result = recording.save(path);
        if (result == CSPACE_OK)
            std::printf("      recording: %s (open it: cargo run -p cspace-viewer -- %s)\n", path.c_str(), path.c_str());
        else
            std::printf("      recording not saved: %s\n", cspace_error_text(result));
    }
    return failed;
}
