//! The recorded points, lines and triangles in two compact columns: a
//! 16-byte head per drawable and 24 bytes per vertex. A [`Drawable`] as a
//! plain value takes 120 bytes whatever its kind; a 10 M-event recording
//! holds millions of them, and their pages are much of what opening it costs.

use super::{Drawable, Prim};
use cspace_recorder::{Rgba, Space, Vec3Data};

/// Bits of [`Head::flags`]: the primitive kind (0 point, 1 line, 2 triangle).
const KIND: u8 = 0b11;
/// Set for configuration space.
const CONFIG: u8 = 1 << 2;
/// Set when the drawable has its own colour.
const COLORED: u8 = 1 << 3;
/// Vertex `i` is f32 when bit `F32 + i` is set.
const F32: u8 = 4;

/// What one drawable holds besides its vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    site: u32,
    /// Index of its first vertex in [`Drawables::vertices`].
    first: u32,
    color: [u8; 4],
    flags: u8,
}

/// Points, lines and triangles, indexed as [`Entry::Draw`](super::Entry::Draw) says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawables {
    heads: Vec<Head>,
    /// Coordinates as raw bits (f32 bits zero-extended), three per vertex.
    vertices: Vec<[u64; 3]>,
}

impl Drawables {
    /// Number of drawables.
    #[must_use]
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// Drawable `k`, rebuilt with the exact bits it was recorded with.
    #[must_use]
    pub fn get(&self, k: usize) -> Option<Drawable> {
        let head = self.heads.get(k)?;
        let first = head.first as usize;
        let vertex = |i: u8| -> Option<Vec3Data> {
            let raw = self.vertices.get(first + usize::from(i))?;
            Some(if head.flags & (1 << (F32 + i)) != 0 {
                Vec3Data::F32(raw.map(|b| f32::from_bits(b as u32)))
            } else {
                Vec3Data::F64(raw.map(f64::from_bits))
            })
        };
        let prim = match head.flags & KIND {
            0 => Prim::Point(vertex(0)?),
            1 => Prim::Line(vertex(0)?, vertex(1)?),
            _ => Prim::Triangle([vertex(0)?, vertex(1)?, vertex(2)?]),
        };
        Some(Drawable {
            site: head.site,
            space: if head.flags & CONFIG != 0 {
                Space::Config
            } else {
                Space::Object
            },
            color: (head.flags & COLORED != 0).then_some(Rgba(head.color)),
            prim,
        })
    }

    /// Drawable `k` if it is a point: its coordinates, colour and call
    /// site (what a view draws of the many points of a large recording,
    /// without building the whole [`Drawable`]).
    #[must_use]
    pub fn point(&self, k: usize) -> Option<([f64; 3], Option<Rgba>, u32)> {
        let head = self.heads.get(k)?;
        if head.flags & KIND != 0 {
            return None;
        }
        let raw = self.vertices.get(head.first as usize)?;
        let at = if head.flags & (1 << F32) != 0 {
            raw.map(|b| f64::from(f32::from_bits(b as u32)))
        } else {
            raw.map(f64::from_bits)
        };
        let color = (head.flags & COLORED != 0).then_some(Rgba(head.color));
        Some((at, color, head.site))
    }

    /// Every drawable in order.
    pub fn iter(&self) -> impl Iterator<Item = Drawable> + '_ {
        (0..self.len()).filter_map(|k| self.get(k))
    }

    /// Appends a drawable and returns its index, or `None` when the tables
    /// cannot index more (over 4 billion vertices).
    pub fn push(
        &mut self,
        site: u32,
        space: Space,
        color: Option<Rgba>,
        prim: &Prim,
    ) -> Option<u32> {
        let k = u32::try_from(self.heads.len()).ok()?;
        let first = u32::try_from(self.vertices.len()).ok()?;
        let (kind, vertices, n) = match *prim {
            Prim::Point(p) => (0, [p; 3], 1),
            Prim::Line(a, b) => (1, [a, b, b], 2),
            Prim::Triangle(v) => (2, v, 3),
        };
        let mut flags = kind;
        let mut f32_bit = 1 << F32;
        for v in &vertices[..n] {
            self.vertices.push(match *v {
                Vec3Data::F32(c) => {
                    flags |= f32_bit;
                    c.map(|x| u64::from(x.to_bits()))
                }
                Vec3Data::F64(c) => c.map(f64::to_bits),
            });
            f32_bit <<= 1;
        }
        if space == Space::Config {
            flags |= CONFIG;
        }
        if color.is_some() {
            flags |= COLORED;
        }
        self.heads.push(Head {
            site,
            first,
            color: color.map_or([0; 4], |c| c.0),
            flags,
        });
        Some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_comes_back_with_its_bits_space_and_colour() {
        let nan = f32::from_bits(0x7fc0_0001);
        let items = [
            Drawable {
                site: 3,
                space: Space::Config,
                color: Some(Rgba([1, 2, 3, 4])),
                prim: Prim::Point(Vec3Data::F32([nan, -0.0, 1e-45])),
            },
            Drawable {
                site: u32::MAX,
                space: Space::Object,
                color: None,
                prim: Prim::Line(
                    Vec3Data::F64([f64::MIN_POSITIVE, -1e300, f64::from_bits(1)]),
                    Vec3Data::F32([1.0, 2.0, 3.0]),
                ),
            },
            Drawable {
                site: 0,
                space: Space::Object,
                color: Some(Rgba([0; 4])),
                prim: Prim::Triangle([
                    Vec3Data::F32([1.0, 0.0, 0.0]),
                    Vec3Data::F64([0.0, 1.0, 0.0]),
                    Vec3Data::F32([0.0, 0.0, f32::MAX]),
                ]),
            },
        ];
        let mut d = Drawables::default();
        for (k, item) in items.iter().enumerate() {
            assert_eq!(
                d.push(item.site, item.space, item.color, &item.prim),
                Some(k as u32)
            );
        }
        assert_eq!(d.len(), 3);
        for (k, item) in items.iter().enumerate() {
            let got = d.get(k).expect("pushed");
            assert_eq!(
                (got.site, got.space, got.color),
                (item.site, item.space, item.color)
            );
            let bits = |p: &Prim| -> Vec<(bool, [u64; 3])> {
                p.vertices()
                    .iter()
                    .map(|v| match *v {
                        Vec3Data::F32(c) => (true, c.map(|x| u64::from(x.to_bits()))),
                        Vec3Data::F64(c) => (false, c.map(f64::to_bits)),
                    })
                    .collect()
            };
            assert_eq!(bits(&got.prim), bits(&item.prim), "drawable {k}");
            assert_eq!(
                std::mem::discriminant(&got.prim),
                std::mem::discriminant(&item.prim)
            );
        }
        assert!(d.get(3).is_none());
        assert_eq!(d.iter().count(), 3);
    }
}
