//! Many round points drawn on the CPU into an image with a depth per pixel,
//! which the GPU then composites into the view's solid layer (depth-tested
//! and written like the points it replaces).
//!
//! Why: a software rasteriser (Mesa's llvmpipe in CI and on machines
//! without a GPU) spends ~300 ns setting up each triangle, so 100 k points
//! as instanced quads take ~70 ms before a pixel is shaded. Here a point
//! costs a table lookup and a blend per pixel of its disc: the discs'
//! coverage is tabulated once per frame for centres on a 1/8-pixel grid,
//! the points are sorted into 64-pixel tiles (in their order, so each
//! tile's pixels stay in cache while its points are stamped) and the rows
//! of tiles are split across cores. The working buffers are kept from frame
//! to frame (the image itself goes to the GPU with the frame).
//!
//! The rule per pixel: coverage `clamp(r + ½ − d, 0, 1)` with `d` in
//! points from the (grid-rounded) centre; where the point's depth is at
//! least the stored one (larger is nearer; of equal depths the later point)
//! it is blended premultiplied over what is there and its depth written,
//! as the GPU's depth test would; where it is farther but what is there is
//! not opaque (a nearer disc's soft edge), it is blended under it. Without
//! that second case, a curve of points going away from the viewer keeps
//! the nearer discs' half-transparent edges and looks dark and speckled.

use egui::Color32;
use rayon::prelude::*;
use std::cell::RefCell;

/// A point waiting to be stamped: centre in view points, depth key (mapped
/// to the depth buffer's `[0, 1]` when stamped) and a premultiplied colour.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    /// Centre, in points from the view's top-left.
    pub at: [f32; 2],
    /// Depth key (see [`geometry`](super::geometry)).
    pub key: f64,
    /// Premultiplied colour.
    pub color: Color32,
}

/// Stamped points: the rectangle of the view's pixels they cover, with a
/// premultiplied RGBA8 colour and a depth per pixel (0 and transparent where
/// no point is).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Splat {
    /// The rectangle's top-left pixel.
    pub origin: [u32; 2],
    /// The rectangle's size in pixels.
    pub size: [u32; 2],
    /// Colours, row by row (RGBA bytes, premultiplied, little-endian).
    pub color: Vec<u32>,
    /// Depths, row by row.
    pub depth: Vec<f32>,
    /// Number of points stamped.
    pub points: usize,
}

/// Side of the square tiles the points are sorted into, in pixels: a
/// tile's colours and depths (32 KiB) stay in cache while its points are
/// stamped, where points in recording order would touch the whole image.
const TILE: usize = 64;

/// Centres are rounded to `1 / GRID` of a pixel (the coverage table has a
/// disc for each of `GRID²` sub-pixel positions).
const GRID: usize = 8;

/// Full coverage in the table's fixed point.
const FULL: u16 = 256;

/// The disc of a point: its radius in points, the view's size in pixels,
/// pixels per point, and how positions map to pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dots {
    /// Radius of every point, in points.
    pub radius: f32,
    /// The view's size in pixels.
    pub pixels: [u32; 2],
    /// Pixels per point (of the discs' size).
    pub per_point: f32,
    /// Pixels per point of positions, per axis: the target's rounded size
    /// over the view's size in points, as the GPU maps its vertices.
    pub scale: [f32; 2],
}

/// Buffers one frame leaves for the next: the bulk is about the same size
/// frame after frame, and allocating its ~5 MB anew each time costs the
/// allocator page faults and trims (a third of a frame, measured).
#[derive(Default)]
struct Scratch {
    placed: Vec<Placed>,
    start: Vec<u32>,
    next: Vec<u32>,
    items: Vec<u32>,
}

thread_local! {
    /// The painting thread's [`Scratch`].
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Stamps `points` as `dots` (depth keys mapped by `depth`); `None` when
/// none lands in the view.
#[must_use]
pub fn splat(points: &[Stamp], dots: Dots, depth: &dyn Fn(f64) -> f32) -> Option<Splat> {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut kept) => splat_with(points, dots, depth, &mut kept),
        // Called again while stamping on this thread (a rayon worker
        // stealing another view's work): fresh buffers.
        Err(_) => splat_with(points, dots, depth, &mut Scratch::default()),
    })
}

fn splat_with(
    points: &[Stamp],
    dots: Dots,
    depth_of: &dyn Fn(f64) -> f32,
    scratch: &mut Scratch,
) -> Option<Splat> {
    let discs = Discs::new(dots.radius, dots.per_point);
    // The rectangle the discs reach, in the view's pixels.
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p.at[k] * dots.scale[k]);
            hi[k] = hi[k].max(p.at[k] * dots.scale[k]);
        }
    }
    let reach = discs.reach as f32;
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to the view's pixels"
    )]
    let clamp = |v: f32, n: u32| v.clamp(0.0, n as f32) as u32;
    let origin = [0, 1].map(|k| clamp((lo[k] - reach).floor(), dots.pixels[k]));
    let end = [0, 1].map(|k| clamp((hi[k] + reach + 1.0).ceil(), dots.pixels[k]));
    if end[0] <= origin[0] || end[1] <= origin[1] {
        return None;
    }
    let size = [end[0] - origin[0], end[1] - origin[1]];
    let area = Area {
        origin,
        size: size.map(|s| s as usize),
    };
    scratch.placed.clear();
    scratch.placed.extend(
        points
            .iter()
            .map(|p| discs.place(p, dots.scale, depth_of(p.key), &area)),
    );
    let tiles = bin(&discs, &area, scratch);
    let width = area.size[0];
    let mut color = vec![0u32; width * area.size[1]];
    let mut depth = vec![0f32; color.len()];
    let job = Job {
        discs: &discs,
        placed: &scratch.placed,
        start: &scratch.start,
        items: &scratch.items,
        tiles,
        width,
    };
    // One tile row at a time on each core.
    let row = TILE * width;
    color
        .par_chunks_mut(row)
        .zip(depth.par_chunks_mut(row))
        .enumerate()
        .for_each(|(ty, (c, d))| job.row(ty, c, d));
    Some(Splat {
        origin,
        size,
        color,
        depth,
        points: points.len(),
    })
}

/// The rectangle stamped into: its top-left pixel in the view and its size.
struct Area {
    origin: [u32; 2],
    size: [usize; 2],
}

/// The coverage of a disc for each centre on the sub-pixel grid: square
/// tables of `side × side` weights (0 to [`FULL`]), the pixel at (u, v)
/// being `u − reach`, `v − reach` from the pixel holding the centre.
struct Discs {
    /// Pixels the soft edge reaches beyond the centre's pixel.
    reach: usize,
    side: usize,
    weights: Vec<u16>,
    /// Each table row's pixels with a weight (from, to).
    spans: Vec<(u8, u8)>,
}

impl Discs {
    fn new(radius: f32, per_point: f32) -> Self {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a few pixels"
        )]
        let reach = ((radius + 0.5) * per_point).ceil().clamp(1.0, 100.0) as usize;
        let side = 2 * reach + 1;
        let mut weights = vec![0u16; GRID * GRID * side * side];
        let mut spans = vec![(0u8, 0u8); GRID * GRID * side];
        for sub in 0..GRID * GRID {
            for v in 0..side {
                let row = (sub * side + v) * side;
                for u in 0..side {
                    weights[row + u] = weight(radius, per_point, sub, [u, v], reach);
                }
                let cells = &weights[row..row + side];
                let from = cells.iter().position(|&w| w > 0).unwrap_or(side);
                let to = cells.iter().rposition(|&w| w > 0).map_or(from, |t| t + 1);
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "a disc is at most 201 pixels wide"
                )]
                let span = (from as u8, to as u8);
                spans[sub * side + v] = span;
            }
        }
        Self {
            reach,
            side,
            weights,
            spans,
        }
    }

    /// Where `p`'s disc lands in `area` (positions scaled by `scale` to
    /// pixels): its table and top-left pixel.
    fn place(&self, p: &Stamp, scale: [f32; 2], depth: f32, area: &Area) -> Placed {
        // In the view's pixels, so the sub-pixel position does not depend
        // on the area.
        let c = [p.at[0] * scale[0], p.at[1] * scale[1]];
        let cell = c.map(floor);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a fraction of a pixel times the grid"
        )]
        let sub = [0, 1].map(|k| (((c[k] - cell[k]) * GRID as f32) as usize).min(GRID - 1));
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "pixels of a view"
        )]
        let corner = [0, 1].map(|k| cell[k] as i32 - area.origin[k] as i32 - self.reach as i32);
        #[expect(clippy::cast_possible_truncation, reason = "GRID² tables")]
        let table = (sub[1] * GRID + sub[0]) as u16;
        // A premultiplied channel above its alpha would carry into the next
        // channel in the fixed-point blends: clamp it.
        let [r, g, b, a] = p.color.to_array();
        Placed {
            corner,
            table,
            depth,
            color: u32::from_le_bytes([r.min(a), g.min(a), b.min(a), a]),
        }
    }
}

/// `v` rounded down (`f32::floor` is a library call on baseline x86-64);
/// exact for the views' pixel coordinates.
fn floor(v: f32) -> f32 {
    #[expect(clippy::cast_possible_truncation, reason = "pixels of a view")]
    let t = v as i32 as f32;
    if t > v { t - 1.0 } else { t }
}

/// The coverage (0 to [`FULL`]) of the pixel at `[u, v]` of the table for
/// sub-pixel position `sub`: `clamp(r + ½ − d, 0, 1)`, `d` in points from
/// the centre at the middle of its 1/[`GRID`] cell.
fn weight(radius: f32, per_point: f32, sub: usize, [u, v]: [usize; 2], reach: usize) -> u16 {
    let offset =
        |i: usize, s: usize| (i as f32 + 0.5) - reach as f32 - (s as f32 + 0.5) / GRID as f32;
    let (dx, dy) = (offset(u, sub % GRID), offset(v, sub / GRID));
    let cover = (radius + 0.5 - (dx * dx + dy * dy).sqrt() / per_point).clamp(0.0, 1.0);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "in [0, FULL]"
    )]
    let w = (cover * f32::from(FULL) + 0.5) as u16;
    w
}

/// A point ready to stamp: its table's top-left pixel in the area, which
/// table, depth and premultiplied colour.
#[derive(Clone, Copy)]
struct Placed {
    corner: [i32; 2],
    table: u16,
    depth: f32,
    color: u32,
}

/// Sorts the placed points into the tiles their squares overlap, keeping
/// their order (a counting sort into `scratch.start` and `scratch.items`);
/// returns the tiles across and down.
fn bin(discs: &Discs, area: &Area, scratch: &mut Scratch) -> [usize; 2] {
    let tiles = area.size.map(|s| s.div_ceil(TILE));
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        reason = "a disc is at most 201 pixels wide"
    )]
    let side = discs.side as i32;
    let range = |p: &Placed| {
        let span = |k: usize| {
            let a = usize::try_from(p.corner[k].max(0)).unwrap_or(0);
            let b = usize::try_from(p.corner[k] + side)
                .unwrap_or(0)
                .min(area.size[k]);
            (a, b)
        };
        let ((xa, xb), (ya, yb)) = (span(0), span(1));
        (xa < xb && ya < yb).then(|| [xa / TILE, (xb - 1) / TILE, ya / TILE, (yb - 1) / TILE])
    };
    let Scratch {
        placed,
        start,
        next,
        items,
    } = scratch;
    start.clear();
    start.resize(tiles[0] * tiles[1] + 1, 0);
    for p in placed.iter() {
        if let Some([x0, x1, y0, y1]) = range(p) {
            for ty in y0..=y1 {
                for tx in x0..=x1 {
                    start[ty * tiles[0] + tx + 1] += 1;
                }
            }
        }
    }
    for t in 1..start.len() {
        start[t] += start[t - 1];
    }
    next.clear();
    next.extend_from_slice(start);
    items.clear();
    items.resize(start[start.len() - 1] as usize, 0);
    for (i, p) in placed.iter().enumerate() {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "fewer than 4 billion points"
        )]
        let i = i as u32;
        if let Some([x0, x1, y0, y1]) = range(p) {
            for ty in y0..=y1 {
                for tx in x0..=x1 {
                    let t = ty * tiles[0] + tx;
                    items[next[t] as usize] = i;
                    next[t] += 1;
                }
            }
        }
    }
    tiles
}

/// What every core reads.
struct Job<'a> {
    discs: &'a Discs,
    placed: &'a [Placed],
    start: &'a [u32],
    items: &'a [u32],
    tiles: [usize; 2],
    width: usize,
}

impl Job<'_> {
    /// Stamps the tiles of tile row `ty`, whose pixels `color` and `depth`
    /// hold.
    fn row(&self, ty: usize, color: &mut [u32], depth: &mut [f32]) {
        let rows = color.len() / self.width;
        for tx in 0..self.tiles[0] {
            let t = ty * self.tiles[0] + tx;
            let x = tx * TILE;
            let cut = [x, (x + TILE).min(self.width), 0, rows];
            let list = &self.items[self.start[t] as usize..self.start[t + 1] as usize];
            for &i in list {
                self.stamp(&self.placed[i as usize], cut, ty * TILE, (color, depth));
            }
        }
    }

    /// Stamps one point into the pixels `cut` (x from, x to, y from, y to,
    /// in the tile row) of the tile row starting at row `top` of the area.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "pixel indices of a view"
    )]
    fn stamp(
        &self,
        p: &Placed,
        cut: [usize; 4],
        top: usize,
        (color, depth): (&mut [u32], &mut [f32]),
    ) {
        let side = self.discs.side;
        let [x0, y0] = [p.corner[0], p.corner[1] - top as i32];
        let alpha = p.color >> 24;
        let opaque = alpha == 255;
        let table = usize::from(p.table) * side;
        // The table's rows and columns inside the cut.
        let from = |a: i32, c: usize| (c as i32 - a).max(0) as usize;
        let to = |a: i32, c: usize| (c as i32 - a).clamp(0, side as i32) as usize;
        for v in from(y0, cut[2])..to(y0, cut[3]) {
            let (a, b) = self.discs.spans[table + v];
            let ua = usize::from(a).max(from(x0, cut[0]));
            let ub = usize::from(b).min(to(x0, cut[1]));
            if ua >= ub {
                continue;
            }
            let w = (table + v) * side;
            let weights = &self.discs.weights[w + ua..w + ub];
            let first = (y0 + v as i32) as usize * self.width + (x0 + ua as i32) as usize;
            let n = ub - ua;
            let cells = color[first..first + n]
                .iter_mut()
                .zip(&mut depth[first..first + n]);
            for ((c, d), &w) in cells.zip(weights) {
                if p.depth >= *d {
                    *d = p.depth;
                    *c = if w == FULL && opaque {
                        p.color
                    } else {
                        over(p.color, alpha, u32::from(w), *c)
                    };
                } else if *c >> 24 != 255 {
                    // Behind a nearer disc's soft edge: it shows through.
                    *c = under(*c, p.color, u32::from(w));
                }
            }
        }
    }
}

/// `src` at `weight` (of [`FULL`]) over `dst`, premultiplied RGBA8 with
/// `alpha` the source's, as the GPU's blend state does: two channels at a
/// time in fixed point.
fn over(src: u32, alpha: u32, weight: u32, dst: u32) -> u32 {
    // The destination's weight, 1 − alpha × cover; a premultiplied channel
    // is at most its alpha, so no channel's sum passes 255 × 256.
    let keep = 256 - (alpha * weight + 127) / 255;
    let lanes = |v: u32| v & 0x00ff_00ff;
    let rb = (lanes(src) * weight + lanes(dst) * keep + 0x0080_0080) >> 8;
    let ag = lanes(src >> 8) * weight + lanes(dst >> 8) * keep + 0x0080_0080;
    lanes(rb) | (ag & 0xff00_ff00)
}

/// `src` at `weight` under `dst` (premultiplied RGBA8): `dst + src × weight
/// × (1 − dst.alpha)`. No channel passes 255: a premultiplied channel is at
/// most its alpha.
fn under(dst: u32, src: u32, weight: u32) -> u32 {
    let f = (weight * (255 - (dst >> 24)) + 127) / 255;
    let lanes = |v: u32| v & 0x00ff_00ff;
    let rb = lanes((lanes(src) * f + 0x0080_0080) >> 8);
    let ag = (lanes(src >> 8) * f + 0x0080_0080) & 0xff00_ff00;
    dst + (rb | ag)
}

#[cfg(test)]
#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    reason = "pixel indices and colours of small test images"
)]
mod tests {
    use super::*;

    fn dots(pixels: [u32; 2], per_point: f32) -> Dots {
        Dots {
            radius: 2.0,
            pixels,
            per_point,
            scale: [per_point; 2],
        }
    }

    /// Depth keys are depths in these tests.
    fn same(k: f64) -> f32 {
        k as f32
    }

    fn point(at: [f32; 2], key: f64, color: Color32) -> Stamp {
        Stamp { at, key, color }
    }

    fn at(s: &Splat, x: u32, y: u32) -> (Color32, f32) {
        let i = ((y - s.origin[1]) * s.size[0] + x - s.origin[0]) as usize;
        let [r, g, b, a] = s.color[i].to_le_bytes();
        (Color32::from_rgba_premultiplied(r, g, b, a), s.depth[i])
    }

    #[test]
    fn a_disc_covers_its_centre_fully_and_fades_at_its_edge() {
        let p = point([10.0, 10.0], 0.5, Color32::RED);
        let s = splat(&[p], dots([40, 30], 1.0), &same).expect("in the view");
        assert_eq!(at(&s, 9, 9), (Color32::RED, 0.5));
        assert_eq!(at(&s, 10, 10), (Color32::RED, 0.5));
        // Pixel (11, 8)'s centre is 2.12 points away: 0.38 covered.
        let (edge, _) = at(&s, 11, 8);
        assert!(
            (85..=110).contains(&edge.r()) && edge.a() == edge.r(),
            "{edge:?}"
        );
        // Beyond the soft edge nothing is drawn, and no depth is written.
        assert_eq!(at(&s, 7, 7), (Color32::TRANSPARENT, 0.0));
        assert_eq!(at(&s, 12, 12), (Color32::TRANSPARENT, 0.0));
    }

    #[test]
    fn the_tabulated_coverage_is_the_exact_one_within_the_grid_rounding() {
        for per_point in [1.0f32, 1.5, 2.0] {
            let discs = Discs::new(2.0, per_point);
            // The exact coverage for any centre in a grid cell is within
            // half the cell's diagonal (in points) of the tabulated one.
            let slack = 0.5 * std::f32::consts::SQRT_2 / GRID as f32 / per_point;
            for sub in [0, 9, GRID * GRID - 1] {
                for v in 0..discs.side {
                    for u in 0..discs.side {
                        let w = discs.weights[(sub * discs.side + v) * discs.side + u];
                        let offset = |i: usize, s: usize| {
                            i as f32 + 0.5 - discs.reach as f32 - (s as f32 + 0.5) / GRID as f32
                        };
                        let (ox, oy) = (offset(u, sub % GRID), offset(v, sub / GRID));
                        let d = (ox * ox + oy * oy).sqrt() / per_point;
                        let exact = |e: f32| (2.5 - d + e).clamp(0.0, 1.0);
                        let cover = f32::from(w) / f32::from(FULL);
                        assert!(
                            cover >= exact(-slack) - 0.003 && cover <= exact(slack) + 0.003,
                            "{per_point} px/pt, table {sub}, pixel ({u}, {v}): {cover}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_nearer_point_wins_whatever_the_order_and_ties_go_to_the_later() {
        for order in [[0, 1], [1, 0]] {
            let both = [
                point([5.0, 5.0], 0.9, Color32::GREEN),
                point([5.5, 5.0], 0.2, Color32::BLUE),
            ];
            let s = splat(&order.map(|k| both[k]), dots([20, 20], 1.0), &same).expect("drawn");
            assert_eq!(at(&s, 5, 4), (Color32::GREEN, 0.9), "order {order:?}");
        }
        let tie = [
            point([5.0, 5.0], 0.5, Color32::GREEN),
            point([5.0, 5.0], 0.5, Color32::BLUE),
        ];
        let s = splat(&tie, dots([20, 20], 1.0), &same).expect("drawn");
        assert_eq!(at(&s, 4, 4).0, Color32::BLUE);
    }

    #[test]
    fn a_translucent_point_in_front_shows_the_one_behind_in_either_order() {
        let half = Color32::from_rgba_premultiplied(0, 0, 100, 128);
        let both = [
            point([5.0, 5.0], 0.2, Color32::RED),
            point([5.0, 5.0], 0.8, half),
        ];
        for order in [[0, 1], [1, 0]] {
            let s = splat(&order.map(|k| both[k]), dots([20, 20], 1.0), &same).expect("drawn");
            let (c, d) = at(&s, 4, 4);
            assert_eq!(d, 0.8);
            assert_eq!(
                (c.g(), c.b(), c.a()),
                (0, 100, 255),
                "{c:?}, order {order:?}"
            );
            assert!((126..=128).contains(&c.r()), "{c:?}, order {order:?}");
        }
    }

    #[test]
    fn a_line_of_points_going_away_is_as_solid_as_one_coming_closer() {
        for away in [true, false] {
            let points: Vec<Stamp> = (0..21)
                .map(|k| {
                    let t = f64::from(k) / 20.0;
                    let depth = if away { 0.9 - 0.5 * t } else { 0.4 + 0.5 * t };
                    point([5.0 + 10.0 * t as f32, 5.0], depth, Color32::RED)
                })
                .collect();
            let s = splat(&points, dots([20, 12], 1.0), &same).expect("drawn");
            // Rows 3 to 6 are at most 1.5 points from the line's axis.
            for y in 3..=6 {
                for x in 5..15 {
                    let (c, _) = at(&s, x, y);
                    assert_eq!(c, Color32::RED, "pixel ({x}, {y}), away {away}");
                }
            }
        }
    }

    /// Each point stamped over the whole image in order, by the rule
    /// itself: what tiles and cores must reproduce exactly.
    fn reference(points: &[Stamp], dots: Dots) -> Vec<(u32, f32)> {
        let discs = Discs::new(dots.radius, dots.per_point);
        let [w, h] = dots.pixels.map(|n| n as i32);
        let mut image = vec![(0u32, 0f32); (w * h) as usize];
        let whole = Area {
            origin: [0, 0],
            size: [w as usize, h as usize],
        };
        let side = discs.side as i32;
        for p in points {
            let placed = discs.place(p, dots.scale, same(p.key), &whole);
            let sub = usize::from(placed.table);
            for y in 0..h {
                for x in 0..w {
                    let (u, v) = (x - placed.corner[0], y - placed.corner[1]);
                    if !(0..side).contains(&u) || !(0..side).contains(&v) {
                        continue;
                    }
                    let uv = [u as usize, v as usize];
                    let wt = weight(dots.radius, dots.per_point, sub, uv, discs.reach);
                    let cell = &mut image[(y * w + x) as usize];
                    if wt > 0 && placed.depth >= cell.1 {
                        cell.0 = over(placed.color, placed.color >> 24, u32::from(wt), cell.0);
                        cell.1 = placed.depth;
                    } else if wt > 0 && cell.0 >> 24 != 255 {
                        cell.0 = under(cell.0, placed.color, u32::from(wt));
                    }
                }
            }
        }
        image
    }

    #[test]
    fn tiles_and_cores_draw_what_stamping_each_point_in_order_does() {
        let dots = dots([150, 140], 1.5);
        let points: Vec<Stamp> = (0..400)
            .map(|k| {
                let f = k as f32;
                let depth = f64::from((f * 0.618).fract()).min(0.3 + f64::from(k % 3) * 0.1);
                let alpha = 200 + (k % 56) as u8;
                let color = Color32::from_rgba_premultiplied(100, (k % 200) as u8, 50, alpha);
                point([(f * 7.31) % 110.0 - 5.0, (f * 3.17) % 100.0], depth, color)
            })
            .collect();
        let expected = reference(&points, dots);
        let s = splat(&points, dots, &same).expect("drawn");
        assert!(
            s.size[0] as usize > TILE && s.size[1] as usize > TILE,
            "several tiles"
        );
        // Twice: the second time with the first frame's buffers.
        let again = splat(&points, dots, &same).expect("drawn");
        assert_eq!(again, s);
        for y in 0..dots.pixels[1] {
            for x in 0..dots.pixels[0] {
                let inside = (s.origin[0]..s.origin[0] + s.size[0]).contains(&x)
                    && (s.origin[1]..s.origin[1] + s.size[1]).contains(&y);
                let got = if inside {
                    let i = ((y - s.origin[1]) * s.size[0] + x - s.origin[0]) as usize;
                    (s.color[i], s.depth[i])
                } else {
                    (0, 0.0)
                };
                let want = expected[(y * dots.pixels[0] + x) as usize];
                assert_eq!(got, want, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn points_off_the_view_draw_nothing() {
        let p = point([-50.0, 10.0], 0.5, Color32::RED);
        assert_eq!(splat(&[p], dots([40, 30], 1.0), &same), None);
    }
}
