// The 3D views' shaders (paint/gpu.rs).
//
// `vs` (triangles) and `dot_vs` (round points, one instance each) with `fs`
// draw a view's geometry into its offscreen target: positions arrive in view
// points from the top-left, already clipped in f64 on the CPU, with a depth
// in [0, 1] (larger is nearer) and a premultiplied colour. Round points are
// cut with a one-point soft edge.
//
// `blit_vs` with `splat_fs` composites points stamped on the CPU (colour
// and depth per pixel, paint/splat.rs) into the solid layer.
//
// `blit_vs`/`blit_fs*` copy a view's resolved target into egui's pass.

struct View {
    // The view's size in points.
    size: vec2<f32>,
    // Unused: uniform buffers are 16-byte aligned.
    pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> view: View;

struct VertexIn {
    @location(0) pos: vec2<f32>,
    @location(1) depth: f32,
    @location(2) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    // Offset from a round point's centre (x, y), outer and inner radius;
    // outer 0 for triangles.
    @location(1) round: vec4<f32>,
};

fn clip_of(pos: vec2<f32>, depth: f32) -> vec4<f32> {
    let ndc = vec2<f32>(pos.x / view.size.x * 2.0 - 1.0, 1.0 - pos.y / view.size.y * 2.0);
    return vec4<f32>(ndc, depth, 1.0);
}

@vertex
fn vs(v: VertexIn) -> VertexOut {
    var out: VertexOut;
    out.clip = clip_of(v.pos, v.depth);
    out.color = v.color;
    out.round = vec4<f32>(0.0);
    return out;
}

struct DotIn {
    @location(0) centre: vec2<f32>,
    @location(1) depth: f32,
    @location(2) color: vec4<f32>,
    @location(3) radii: vec2<f32>,
};

// A round point: one instance, six vertices of a quad one point wider than it.
@vertex
fn dot_vs(@builtin(vertex_index) k: u32, d: DotIn) -> VertexOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let offset = corners[k] * (d.radii.x + 1.0);
    var out: VertexOut;
    out.clip = clip_of(d.centre + offset, d.depth);
    out.color = d.color;
    out.round = vec4<f32>(offset, d.radii);
    return out;
}

@fragment
fn fs(i: VertexOut) -> @location(0) vec4<f32> {
    var cover = 1.0;
    if (i.round.z > 0.0) {
        let d = length(i.round.xy);
        cover = clamp(i.round.z + 0.5 - d, 0.0, 1.0);
        if (i.round.w > 0.0) {
            cover = cover * clamp(d - i.round.w + 0.5, 0.0, 1.0);
        }
        if (cover <= 0.0) {
            discard;
        }
    }
    return i.color * cover;
}

@group(0) @binding(1) var target_texture: texture_2d<f32>;
@group(0) @binding(2) var target_sampler: sampler;

struct BlitOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

// One triangle covering the viewport egui set for the callback.
@vertex
fn blit_vs(@builtin(vertex_index) k: u32) -> BlitOut {
    var out: BlitOut;
    let uv = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u));
    out.clip = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    out.uv = uv;
    return out;
}

// egui blends in gamma space on a non-sRGB target, as the views do.
@fragment
fn blit_fs_gamma(i: BlitOut) -> @location(0) vec4<f32> {
    return textureSample(target_texture, target_sampler, i.uv);
}

fn linear_from_gamma(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(high, low, c < vec3<f32>(0.04045));
}

// On an sRGB target, as egui does for its own colours.
@fragment
fn blit_fs_linear(i: BlitOut) -> @location(0) vec4<f32> {
    let c = textureSample(target_texture, target_sampler, i.uv);
    return vec4<f32>(linear_from_gamma(c.rgb), c.a);
}

@group(0) @binding(3) var splat_color: texture_2d<f32>;
@group(0) @binding(4) var splat_depth: texture_2d<f32>;

struct SplatOut {
    @location(0) color: vec4<f32>,
    @builtin(frag_depth) depth: f32,
};

// One stamped pixel (the pass is cut to the stamped rectangle): its colour
// and depth, nothing where no point was stamped.
@fragment
fn splat_fs(@builtin(position) p: vec4<f32>) -> SplatOut {
    let at = vec2<i32>(p.xy);
    let c = textureLoad(splat_color, at, 0);
    if (c.a <= 0.0) {
        discard;
    }
    var out: SplatOut;
    out.color = c;
    out.depth = textureLoad(splat_depth, at, 0).r;
    return out;
}
