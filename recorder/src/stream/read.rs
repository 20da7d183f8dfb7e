//! A direct reader for the payloads of the frequent events: the bytes bincode
//! reads, read field by field without serde.
//!
//! It accepts only the canonical encoding (shortest varints, option and
//! enum tags in range, UTF-8 strings) and a payload that ends exactly where
//! its event does, which is what bincode plus the frame's length check
//! accept, so the event it returns is the one bincode returns. Anything else
//! — the rare kinds (shapes, answers), a damaged field, trailing bytes — is
//! `None`, and the frame goes through bincode, which decodes it or names
//! what is wrong: errors and their messages stay bincode's.

use crate::event::{CsoVertex, Event, Rgba, Scalar, SiteDef, Space, Vec3Data};

/// The smallest encoding of a [`Vec3Data`]: a tag and three f32.
const MIN_VEC3: usize = 1 + 3 * 4;

/// A cursor over one frame's payload.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.pos.checked_add(N)?;
        let out = self.bytes.get(self.pos..end)?.try_into().ok()?;
        self.pos = end;
        Some(out)
    }

    fn byte(&mut self) -> Option<u8> {
        let [b] = self.take::<1>()?;
        Some(b)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// A varint in its shortest form (bincode reads longer ones too, but the
    /// frame's length check then refuses them).
    fn varint(&mut self) -> Option<u64> {
        match self.byte()? {
            b @ 0..=250 => Some(u64::from(b)),
            251 => Some(u64::from(u16::from_le_bytes(self.take()?))).filter(|&v| v > 250),
            252 => Some(u64::from(u32::from_le_bytes(self.take()?))).filter(|&v| v > 0xFFFF),
            253 => Some(u64::from_le_bytes(self.take()?)).filter(|&v| v > 0xFFFF_FFFF),
            _ => None,
        }
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.varint()?).ok()
    }

    /// A length whose elements (at least `min_size` bytes each) fit in what is left.
    fn count(&mut self, min_size: usize) -> Option<usize> {
        let n = usize::try_from(self.varint()?).ok()?;
        (n.checked_mul(min_size)? <= self.remaining()).then_some(n)
    }

    fn f32(&mut self) -> Option<f32> {
        Some(f32::from_le_bytes(self.take()?))
    }

    fn f64(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.take()?))
    }

    fn string(&mut self) -> Option<String> {
        let n = self.count(1)?;
        let bytes = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        std::str::from_utf8(bytes).ok().map(str::to_owned)
    }

    fn vec3(&mut self) -> Option<Vec3Data> {
        match self.varint()? {
            0 => Some(Vec3Data::F32([self.f32()?, self.f32()?, self.f32()?])),
            1 => Some(Vec3Data::F64([self.f64()?, self.f64()?, self.f64()?])),
            _ => None,
        }
    }

    fn scalar(&mut self) -> Option<Scalar> {
        match self.varint()? {
            0 => Some(Scalar::F32(self.f32()?)),
            1 => Some(Scalar::F64(self.f64()?)),
            _ => None,
        }
    }

    fn space(&mut self) -> Option<Space> {
        match self.varint()? {
            0 => Some(Space::Object),
            1 => Some(Space::Config),
            _ => None,
        }
    }

    /// `None`: not a valid option; `Some(None)`: no colour recorded.
    #[allow(clippy::option_option)] // the field itself is an `Option`
    fn color(&mut self) -> Option<Option<Rgba>> {
        match self.byte()? {
            0 => Some(None),
            1 => Some(Some(Rgba(self.take()?))),
            _ => None,
        }
    }

    fn vertex(&mut self) -> Option<CsoVertex> {
        let w = self.vec3()?;
        let a = self.vec3()?;
        let b = self.vec3()?;
        Some(CsoVertex { w, a, b })
    }
}

/// The event `payload` holds, or `None` when it is not a frequent kind in
/// canonical form ending exactly at the payload's end (bincode decides then).
pub(super) fn event(payload: &[u8]) -> Option<Event> {
    let mut r = Reader {
        bytes: payload,
        pos: 0,
    };
    let event = match r.u32()? {
        0 => {
            let id = r.u32()?;
            let file = r.string()?;
            let line = r.u32()?;
            let label = r.string()?;
            Event::Site(SiteDef {
                id,
                file,
                line,
                label,
            })
        }
        1 => Event::Push { site: r.u32()? },
        2 => Event::Pop { site: r.u32()? },
        3 => Event::Pause { site: r.u32()? },
        4 => {
            let site = r.u32()?;
            Event::Text {
                site,
                text: r.string()?,
            }
        }
        5 => {
            let (site, space, color) = (r.u32()?, r.space()?, r.color()?);
            Event::Point {
                site,
                space,
                color,
                p: r.vec3()?,
            }
        }
        6 => {
            let (site, space, color) = (r.u32()?, r.space()?, r.color()?);
            let a = r.vec3()?;
            Event::Line {
                site,
                space,
                color,
                a,
                b: r.vec3()?,
            }
        }
        7 => {
            let (site, space, color) = (r.u32()?, r.space()?, r.color()?);
            let v = [r.vec3()?, r.vec3()?, r.vec3()?];
            Event::Triangle {
                site,
                space,
                color,
                v,
            }
        }
        8 => {
            let site = r.u32()?;
            let n = r.count(3 * MIN_VEC3)?;
            let mut vertices = Vec::with_capacity(n);
            for _ in 0..n {
                vertices.push(r.vertex()?);
            }
            Event::Simplex { site, vertices }
        }
        9 => {
            let site = r.u32()?;
            Event::Value {
                site,
                value: r.scalar()?,
            }
        }
        _ => return None,
    };
    (r.pos == payload.len()).then_some(event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bincode::Options as _;

    fn bincode_event(payload: &[u8]) -> Option<Event> {
        let options = bincode::DefaultOptions::new()
            .with_varint_encoding()
            .with_little_endian();
        let event: Event = options
            .with_limit(payload.len() as u64)
            .deserialize(payload)
            .ok()?;
        (options.serialized_size(&event).ok()? == payload.len() as u64).then_some(event)
    }

    fn frequent() -> Vec<Event> {
        let v32 = Vec3Data::F32([1.5, f32::NAN, -0.0]);
        let v64 = Vec3Data::F64([f64::MIN_POSITIVE, 1e300, -2.0]);
        let vertex = CsoVertex {
            w: v32,
            a: v64,
            b: v32,
        };
        vec![
            Event::Site(SiteDef {
                id: 70_000,
                file: "é/x.rs".into(),
                line: 300,
                label: "l".repeat(300),
            }),
            Event::Push { site: 250 },
            Event::Pop { site: 251 },
            Event::Pause { site: 65_536 },
            Event::Text {
                site: 0,
                text: "two\nlines ∆".into(),
            },
            Event::Point {
                site: 1,
                space: Space::Config,
                color: Some(Rgba::RED),
                p: v64,
            },
            Event::Line {
                site: 2,
                space: Space::Object,
                color: None,
                a: v32,
                b: v64,
            },
            Event::Triangle {
                site: 3,
                space: Space::Config,
                color: None,
                v: [v32, v64, v32],
            },
            Event::Simplex {
                site: 4,
                vertices: vec![vertex; 4],
            },
            Event::Simplex {
                site: 4,
                vertices: Vec::new(),
            },
            Event::Value {
                site: 5,
                value: Scalar::F32(f32::from_bits(0x7fc0_0001)),
            },
            Event::Value {
                site: 5,
                value: Scalar::F64(-0.0),
            },
        ]
    }

    fn payload(event: &Event) -> Vec<u8> {
        bincode::DefaultOptions::new()
            .with_varint_encoding()
            .with_little_endian()
            .serialize(event)
            .expect("serialising into a Vec cannot fail")
    }

    /// The same event as bincode's, bit for bit (NaN payloads included).
    fn same(a: &Event, b: &Event) -> bool {
        payload(a) == payload(b)
    }

    #[test]
    fn reads_what_bincode_reads() {
        for e in frequent() {
            let bytes = payload(&e);
            let read = event_or_panic(&bytes);
            assert!(same(&read, &e), "{e:?}");
        }
    }

    fn event_or_panic(bytes: &[u8]) -> Event {
        match event(bytes) {
            Some(e) => e,
            None => panic!("the direct reader refused {bytes:?}"),
        }
    }

    #[test]
    fn never_accepts_what_bincode_refuses_or_reads_differently() {
        // Every single-byte change and every cut of every frequent event's
        // payload, plus a pseudo-random stream of mutations: whenever the
        // direct reader accepts, bincode accepts the same event.
        let mut x: u64 = 0x853c_49e6_748f_ea9b;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut accepted = 0;
        for e in frequent() {
            let bytes = payload(&e);
            for cut in 0..bytes.len() {
                assert!(event(&bytes[..cut]).is_none() || bincode_event(&bytes[..cut]).is_some());
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert!(event(&longer).is_none(), "trailing byte accepted");
            for i in 0..bytes.len() {
                for value in [0u8, 1, 2, 250, 251, 252, 253, 254, 255, next() as u8] {
                    let mut m = bytes.clone();
                    m[i] = value;
                    if let Some(direct) = event(&m) {
                        accepted += 1;
                        let reference = bincode_event(&m);
                        assert!(
                            reference.as_ref().is_some_and(|r| same(r, &direct)),
                            "{m:?}: direct {direct:?}, bincode {reference:?}"
                        );
                    }
                }
            }
        }
        assert!(
            accepted > 100,
            "the mutations hardly ever decoded: {accepted}"
        );
    }

    #[test]
    fn non_canonical_varints_and_rare_kinds_go_to_bincode() {
        // Push at site 5 with the site as a 3-byte varint: bincode reads it,
        // the frame's length check refuses it; the direct reader never takes it.
        assert!(event(&[1, 251, 5, 0]).is_none());
        assert!(event(&[1, 252, 5, 0, 0, 0]).is_none());
        assert!(event(&[1, 5]).is_some());
        // Option tag 2, space 2, bad UTF-8.
        assert!(event(&[5, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
        assert!(event(&[5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
        assert!(event(&[4, 0, 2, 0xc3, 0x28]).is_none());
        // A simplex claiming more vertices than its bytes hold is refused
        // before anything is reserved.
        assert!(event(&[8, 0, 253, 0, 0, 0, 0, 0, 1, 0, 0]).is_none());
        // Shapes and answers are bincode's.
        let shapes = Event::Shapes {
            site: 0,
            a: Box::new(crate::ShapeDecl {
                geom: crate::ShapeGeom::Point,
                margin: 0.0,
                position: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }),
            b: Box::new(crate::ShapeDecl {
                geom: crate::ShapeGeom::Sphere { radius: 1.0 },
                margin: 0.0,
                position: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }),
            motion: None,
        };
        assert!(event(&payload(&shapes)).is_none());
        assert!(bincode_event(&payload(&shapes)).is_some());
    }
}
