//! A view's geometry as the GPU draws it: triangles' vertices in the view's
//! pixels (points, from its top-left) with a depth and a premultiplied
//! colour, and round points as one instance each (centre, depth, colour,
//! radii), expanded to a quad and cut round on the GPU.
//!
//! Everything arrives here already clipped in f64 ([`clip`](super::clip)),
//! so the GPU never sees a coordinate 10¹¹ pixels away: it only tests depth,
//! blends and rasterises. Depth is a *key* that is affine in screen space
//! (`near / z` in perspective, `−z` in orthographic), so interpolating it
//! across a clipped polygon or a screen-space line quad is exact; [`Geometry`]
//! maps keys to the depth buffer's `[0, 1]` (larger is nearer) when built.
//!
//! Three layers, drawn in this order: `solid` (lines, points, outlines:
//! depth-tested and depth-written), `fills` (surfaces and recorded triangles,
//! translucent, sorted back to front and depth-tested against the solid
//! layer, not written, so a line behind a surface shows through it dimmed
//! and a line in front stays crisp) and `overlay` (the answer and the hovered
//! point: never hidden). A large recording's bulk of points is stamped on
//! the CPU ([`splat`](super::splat)) and composited into the solid layer.

use super::splat::{Dots, Splat, Stamp, splat};
use egui::{Color32, Pos2, vec2};

/// One triangle vertex: x, y (view points), depth, RGBA8 (premultiplied).
/// Words of 4 bytes, as the GPU reads them.
pub type Vertex = [u32; 4];

/// One round point: centre x, y (view points), depth, RGBA8
/// (premultiplied), outer and inner radius in points (inner 0: a disc).
pub type Dot = [u32; 6];

/// A position in the view (points from its top-left) and its depth key.
pub type At = [f64; 3];

/// How much nearer the solid layer is drawn than a surface at the same
/// depth (relative in perspective, of the depth range in orthographic): a
/// simplex vertex or an edge lying on a surface is never covered by it.
const SOLID_BIAS: f64 = 2e-5;

/// The radius in points of a point in a recording's bulk (many drawables).
pub const BULK_RADIUS: f32 = 2.0;

/// A view's pixels: its size and how many pixels make a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pixels {
    /// Width and height in pixels (at least 1).
    pub size: [u32; 2],
    /// Pixels per point.
    pub per_point: f32,
    /// Pixels per point of positions, per axis: `size` (rounded) over the
    /// view's size in points, which is how the GPU maps a vertex.
    pub scale: [f32; 2],
}

impl Pixels {
    /// The pixels of a view `size` points large at `per_point`.
    #[must_use]
    pub fn of(size: [f32; 2], per_point: f32) -> Self {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a view's size in pixels, at least 1"
        )]
        let px = size.map(|s| (s * per_point).round().max(1.0) as u32);
        #[expect(clippy::cast_precision_loss, reason = "a view's size in pixels")]
        let scale = [0, 1].map(|k| {
            if size[k] > 0.0 {
                px[k] as f32 / size[k]
            } else {
                per_point
            }
        });
        Self {
            size: px,
            per_point,
            scale,
        }
    }
}

/// The layer an item is drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Depth-tested and written: lines, points, outlines.
    Solid,
    /// Drawn last, over everything: the answer, the hovered point.
    Overlay,
}

/// The built geometry of one view, ready for the GPU.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    /// Depth-tested and written: lines' and outlines' triangles.
    pub solid: Vec<Vertex>,
    /// Depth-tested and written: round points, drawn after `solid`.
    pub solid_dots: Vec<Dot>,
    /// Translucent, back to front; depth-tested, not written.
    pub fills: Vec<Vertex>,
    /// Over everything, in order: triangles, then `overlay_dots`.
    pub overlay: Vec<Vertex>,
    /// Over everything, last.
    pub overlay_dots: Vec<Dot>,
    /// The bulk of points, stamped into an image with depth: composited
    /// into the solid layer after its triangles.
    pub splat: Option<Splat>,
}

impl Geometry {
    /// How many triangles all layers hold (two per round point).
    pub fn triangles(&self) -> usize {
        (self.solid.len() + self.fills.len() + self.overlay.len()) / 3
            + 2 * (self.solid_dots.len() + self.overlay_dots.len())
    }

    /// How many points were stamped into [`Geometry::splat`].
    pub fn splatted(&self) -> usize {
        self.splat.as_ref().map_or(0, |s| s.points)
    }

    /// Every vertex's and point's position (points from the view's
    /// top-left), all layers.
    pub fn positions(&self) -> impl Iterator<Item = Pos2> + '_ {
        self.solid
            .iter()
            .chain(&self.fills)
            .chain(&self.overlay)
            .map(|v| [v[0], v[1]])
            .chain(
                self.solid_dots
                    .iter()
                    .chain(&self.overlay_dots)
                    .map(|d| [d[0], d[1]]),
            )
            .map(|[x, y]| Pos2::new(f32::from_bits(x), f32::from_bits(y)))
    }

    /// The fills' positions only (surfaces and filled triangles).
    pub fn fill_positions(&self) -> impl Iterator<Item = Pos2> + '_ {
        self.fills
            .iter()
            .map(|v| Pos2::new(f32::from_bits(v[0]), f32::from_bits(v[1])))
    }
}

/// A translucent polygon waiting to be sorted.
struct Fill {
    /// Its mean depth key (larger is nearer).
    key: f64,
    /// First corner in `Builder::corners`.
    start: u32,
    /// Number of corners.
    len: u32,
}

/// A corner or a point before depth keys are mapped: position, key, colour.
type Corner = (Pos2, f64, Color32);

/// Collects a view's items, then sorts the fills and maps depth keys.
pub struct Builder {
    ortho: bool,
    pixels: Pixels,
    bulk: Vec<Stamp>,
    solid: Vec<Corner>,
    overlay: Vec<Corner>,
    solid_dots: Vec<(Corner, [f32; 2])>,
    overlay_dots: Vec<(Corner, [f32; 2])>,
    fills: Vec<Fill>,
    corners: Vec<Corner>,
}

/// A position as an egui point (f32, after clipping in f64).
#[expect(
    clippy::cast_possible_truncation,
    reason = "clipped to the view before narrowing"
)]
fn pos(p: At) -> Pos2 {
    Pos2::new(p[0] as f32, p[1] as f32)
}

impl Builder {
    /// An empty view of `pixels`; `ortho` says how depth keys map to depth.
    pub fn new(ortho: bool, pixels: Pixels) -> Self {
        Self {
            ortho,
            pixels,
            bulk: Vec::new(),
            solid: Vec::new(),
            overlay: Vec::new(),
            solid_dots: Vec::new(),
            overlay_dots: Vec::new(),
            fills: Vec::new(),
            corners: Vec::new(),
        }
    }

    /// Room for `n` more points in the bulk.
    pub fn reserve_bulk(&mut self, n: usize) {
        self.bulk.reserve(n);
    }

    /// A point of the bulk: a disc of [`BULK_RADIUS`] in the solid layer,
    /// stamped on the CPU.
    pub fn bulk(&mut self, at: At, color: Color32) {
        let p = pos(at);
        self.bulk.push(Stamp {
            at: [p.x, p.y],
            key: at[2],
            color,
        });
    }

    fn layer(&mut self, layer: Layer) -> &mut Vec<Corner> {
        match layer {
            Layer::Solid => &mut self.solid,
            Layer::Overlay => &mut self.overlay,
        }
    }

    /// A filled round point of `radius` points at `at`.
    pub fn disc(&mut self, layer: Layer, at: At, radius: f32, color: Color32) {
        self.round(layer, at, radius, 0.0, color);
    }

    /// A circle of `radius` points, `width` wide.
    pub fn ring(&mut self, layer: Layer, at: At, radius: f32, width: f32, color: Color32) {
        self.round(layer, at, radius + width / 2.0, radius - width / 2.0, color);
    }

    fn round(&mut self, layer: Layer, at: At, outer: f32, inner: f32, color: Color32) {
        let dot = ((pos(at), at[2], color), [outer, inner.max(0.0)]);
        match layer {
            Layer::Solid => self.solid_dots.push(dot),
            Layer::Overlay => self.overlay_dots.push(dot),
        }
    }

    /// A line `width` points wide from `a` to `b` (depth interpolated).
    pub fn segment(&mut self, layer: Layer, [a, b]: [At; 2], width: f32, color: Color32) {
        let (pa, pb) = (pos(a), pos(b));
        let dir = pb - pa;
        let len = dir.length();
        let (along, side) = if len > 1e-6 {
            let u = dir / len;
            (u * 0.5, vec2(-u.y, u.x) * (width / 2.0))
        } else {
            (vec2(0.5, 0.0), vec2(0.0, width / 2.0))
        };
        let quad = [
            (pa - along - side, a[2], color),
            (pb + along - side, b[2], color),
            (pb + along + side, b[2], color),
            (pa - along + side, a[2], color),
        ];
        let out = self.layer(layer);
        for k in [0, 1, 2, 0, 2, 3] {
            out.push(quad[k]);
        }
    }

    /// A dashed line: `dash` points drawn, `gap` points left out.
    pub fn dashed(
        &mut self,
        layer: Layer,
        [a, b]: [At; 2],
        width: f32,
        color: Color32,
        dash: f64,
        gap: f64,
    ) {
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        if len <= dash {
            self.segment(layer, [a, b], width, color);
            return;
        }
        let at = |t: f64| std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t);
        let mut s = 0.0;
        // Bounded: a dash per `dash + gap` points of a line clipped to the view.
        while s < len {
            let e = (s + dash).min(len);
            self.segment(layer, [at(s / len), at(e / len)], width, color);
            s = e + gap;
        }
    }

    /// A translucent convex polygon (one colour per corner, or one for all),
    /// sorted back to front with the other fills when built.
    pub fn fill(&mut self, poly: &[At], colors: &[Color32]) {
        if poly.len() < 3 || colors.is_empty() {
            return;
        }
        let key = poly.iter().map(|p| p[2]).sum::<f64>() / poly.len() as f64;
        let start = self.corners.len() as u32;
        for (k, p) in poly.iter().enumerate() {
            self.corners
                .push((pos(*p), p[2], colors[k.min(colors.len() - 1)]));
        }
        self.fills.push(Fill {
            key,
            start,
            len: poly.len() as u32,
        });
    }

    /// The geometry: fills sorted back to front, depth keys mapped to
    /// `[0, 1]` (larger is nearer), the solid layer biased forward.
    pub fn build(mut self) -> Geometry {
        let depth = self.depth_map();
        let vertex = |(p, k, c): Corner, bias| -> Vertex {
            [
                p.x.to_bits(),
                p.y.to_bits(),
                depth(k, bias).to_bits(),
                u32::from_le_bytes(c.to_array()),
            ]
        };
        let dot = |((p, k, c), [outer, inner]): (Corner, [f32; 2]), bias| -> Dot {
            [
                p.x.to_bits(),
                p.y.to_bits(),
                depth(k, bias).to_bits(),
                u32::from_le_bytes(c.to_array()),
                outer.to_bits(),
                inner.to_bits(),
            ]
        };
        self.fills.sort_by(|a, b| a.key.total_cmp(&b.key));
        let mut fills = Vec::with_capacity(self.corners.len() * 3);
        for f in &self.fills {
            let (s, n) = (f.start as usize, f.len as usize);
            let c = &self.corners[s..s + n];
            for k in 1..n - 1 {
                for corner in [c[0], c[k], c[k + 1]] {
                    fills.push(vertex(corner, 0.0));
                }
            }
        }
        let dots = Dots {
            radius: BULK_RADIUS,
            pixels: self.pixels.size,
            per_point: self.pixels.per_point,
            scale: self.pixels.scale,
        };
        let splat = splat(&self.bulk, dots, &|k| depth(k, SOLID_BIAS));
        Geometry {
            splat,
            solid: self.solid.iter().map(|v| vertex(*v, SOLID_BIAS)).collect(),
            solid_dots: self
                .solid_dots
                .iter()
                .map(|d| dot(*d, SOLID_BIAS))
                .collect(),
            fills,
            overlay: self.overlay.iter().map(|v| vertex(*v, 0.0)).collect(),
            overlay_dots: self.overlay_dots.iter().map(|d| dot(*d, 0.0)).collect(),
        }
    }

    /// Maps a depth key and a bias to the depth buffer's `[0, 1]`.
    fn depth_map(&self) -> impl Fn(f64, f64) -> f32 + use<> {
        let (lo, span) = if self.ortho {
            // −z is affine: map the range present to [0.05, 0.95].
            let keys = self
                .solid
                .iter()
                .chain(&self.overlay)
                .chain(&self.corners)
                .map(|v| v.1)
                .chain(self.bulk.iter().map(|s| s.key))
                .chain(
                    self.solid_dots
                        .iter()
                        .chain(&self.overlay_dots)
                        .map(|d| d.0.1),
                );
            let (lo, hi) = keys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), k| {
                (lo.min(k), hi.max(k))
            });
            (lo, (hi - lo).max(f64::MIN_POSITIVE))
        } else {
            (f64::NAN, f64::NAN)
        };
        let ortho = self.ortho;
        move |k, bias| {
            // In perspective near / z is in (0, 1] already.
            let d = if ortho {
                0.05 + 0.9 * (k - lo) / span + bias * 0.9
            } else {
                k * (1.0 + bias)
            };
            #[expect(clippy::cast_possible_truncation, reason = "clamped to [0, 1]")]
            let d = d.clamp(0.0, 1.0) as f32;
            d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIXELS: Pixels = Pixels {
        size: [100, 100],
        per_point: 1.0,
        scale: [1.0, 1.0],
    };

    fn depth(v: &Vertex) -> f32 {
        f32::from_bits(v[2])
    }

    #[test]
    fn fills_come_back_to_front_and_the_solid_layer_is_nudged_forward() {
        let mut b = Builder::new(false, PIXELS);
        let tri = |k: f64| [[0.0, 0.0, k], [10.0, 0.0, k], [0.0, 10.0, k]];
        b.fill(&tri(0.5), &[Color32::RED]);
        b.fill(&tri(0.1), &[Color32::GREEN]);
        b.fill(&tri(0.9), &[Color32::BLUE]);
        b.segment(
            Layer::Solid,
            [[0.0, 0.0, 0.5], [5.0, 5.0, 0.5]],
            1.0,
            Color32::WHITE,
        );
        let g = b.build();
        let order: Vec<f32> = g.fills.iter().step_by(3).map(depth).collect();
        assert_eq!(order, [0.1, 0.5, 0.9]);
        assert!(g.solid.iter().all(|v| depth(v) > 0.5));
        assert_eq!(g.triangles(), 5);
    }

    #[test]
    fn orthographic_keys_map_into_the_unit_range() {
        let mut b = Builder::new(true, PIXELS);
        b.disc(Layer::Solid, [1.0, 1.0, -1e6], 3.0, Color32::WHITE);
        b.disc(Layer::Solid, [1.0, 1.0, 1e6], 3.0, Color32::WHITE);
        let g = b.build();
        let d: Vec<f32> = g.solid_dots.iter().map(|v| f32::from_bits(v[2])).collect();
        assert!(d.iter().all(|d| (0.0..=1.0).contains(d)));
        assert!(d[0] < d[1], "{d:?}");
    }

    #[test]
    fn a_dashed_line_is_cut_into_dashes_along_it() {
        let mut b = Builder::new(false, PIXELS);
        b.dashed(
            Layer::Solid,
            [[0.0, 0.0, 0.5], [70.0, 0.0, 0.5]],
            1.0,
            Color32::WHITE,
            4.0,
            3.0,
        );
        assert_eq!(b.build().solid.len(), 6 * 10);
    }
}
