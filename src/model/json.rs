//! Queries as JSON: parsing with field paths in every error, and the JSON
//! form of a placed shape.
//!
//! A placed shape is the recorder's [`ShapeDecl`]; in JSON it reads
//! `{"shape": {"type": "box", "half_extents": [1, 2, 3], "margin": 0.1},
//! "position": [0, 0, 0], "rotation": [0, 0, 0, 1]}`: the geometry's own
//! field names under a `"type"` tag (its serde names), the margin inside the
//! shape (omitted when +0), position and rotation defaulting to the origin and
//! the identity. Queries round-trip exactly (`serde_json`'s `float_roundtrip`).

use super::query::{Algorithm, Query, QueryError, QueryKind};
use cspace_recorder::{Precision, ShapeDecl, ShapeGeom};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The shape object's entries in order: `"type"`, the geometry's fields,
/// then `"margin"` unless it is +0.
struct ShapeEntries(Vec<(String, Value)>);

impl ShapeEntries {
    fn new(geom: &ShapeGeom, margin: f64) -> Result<Self, serde_json::Error> {
        let mut out = vec![("type".to_owned(), Value::from(geom.kind()))];
        // Externally tagged as serde derives it: `"point"` or `{"box": {fields}}`.
        if let Value::Object(outer) = serde_json::to_value(geom)? {
            for (_, fields) in outer {
                if let Value::Object(fields) = fields {
                    out.extend(fields);
                }
            }
        }
        if margin.to_bits() != 0 {
            out.push(("margin".to_owned(), serde_json::to_value(margin)?));
        }
        Ok(Self(out))
    }
}

impl Serialize for ShapeEntries {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The geometry and margin of a shape object (the inverse of [`ShapeEntries`]).
fn shape_from_value(value: Value) -> Result<(ShapeGeom, f64), serde_json::Error> {
    let Value::Object(mut fields) = value else {
        return Err(serde_json::Error::custom(
            "expected an object with a `type`",
        ));
    };
    let kind = match fields.remove("type") {
        Some(Value::String(kind)) => kind,
        Some(_) => return Err(serde_json::Error::custom("`type` must be a string")),
        None => return Err(serde_json::Error::missing_field("type")),
    };
    let margin = match fields.remove("margin") {
        None | Some(Value::Null) => 0.0,
        Some(m) => f64::deserialize(m)?,
    };
    let tagged = if fields.is_empty() && kind == "point" {
        Value::String(kind)
    } else {
        Value::Object(Map::from_iter([(kind, Value::Object(fields))]))
    };
    Ok((ShapeGeom::deserialize(tagged)?, margin))
}

/// A placed shape from its JSON body form.
///
/// # Errors
/// The value is not a body; the message names the field.
pub fn body_from_value(value: &Value) -> Result<ShapeDecl, serde_json::Error> {
    body::deserialize(value)
}

/// The JSON body form of a placed shape.
///
/// # Errors
/// Never for finite numbers; a non-finite one is written as `null`.
pub fn body_to_value(decl: &ShapeDecl) -> Result<Value, serde_json::Error> {
    body::serialize(decl, serde_json::value::Serializer)
}

/// Serde glue for a [`ShapeDecl`] in the JSON body form (`#[serde(with)]`).
pub(crate) mod body {
    use super::{
        Deserialize, Deserializer, Serialize, Serializer, ShapeDecl, ShapeEntries, Value,
        shape_from_value,
    };
    use serde::de::Error as _;
    use serde::ser::Error as _;

    #[derive(Serialize)]
    struct BodyOut<'a> {
        shape: ShapeEntries,
        position: &'a [f64; 3],
        rotation: &'a [f64; 4],
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Body {
        shape: Value,
        #[serde(default)]
        position: [f64; 3],
        #[serde(default = "identity")]
        rotation: [f64; 4],
    }

    fn identity() -> [f64; 4] {
        ShapeDecl::IDENTITY
    }

    /// Writes `decl` as a JSON body.
    pub(crate) fn serialize<S: Serializer>(decl: &ShapeDecl, s: S) -> Result<S::Ok, S::Error> {
        BodyOut {
            shape: ShapeEntries::new(&decl.geom, decl.margin).map_err(S::Error::custom)?,
            position: &decl.position,
            rotation: &decl.rotation,
        }
        .serialize(s)
    }

    /// Reads a JSON body.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ShapeDecl, D::Error> {
        let body = Body::deserialize(d)?;
        let (geom, margin) = shape_from_value(body.shape).map_err(D::Error::custom)?;
        Ok(ShapeDecl {
            geom,
            margin,
            position: body.position,
            rotation: body.rotation,
        })
    }
}

/// Parses one query from JSON, naming the field path of the first problem
/// (`a.shape.type`, `b.rotation`, …) where serde alone would not.
///
/// # Errors
/// [`QueryError::Parse`] for malformed JSON or a value of the wrong type,
/// [`QueryError::NotFinite`] for `NaN`/`Infinity` literals.
pub fn parse(line: &str) -> Result<Query, QueryError> {
    let value = parse_value(line)?;
    from_value(&value)
}

/// The JSON value of a line; `NaN` and `Infinity` literals (not JSON) are
/// reported with their field path.
///
/// # Errors
/// [`QueryError::Parse`] for malformed JSON, [`QueryError::NotFinite`] for
/// `NaN`/`Infinity` literals.
pub fn parse_value(line: &str) -> Result<serde_json::Value, QueryError> {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(v) => Ok(v),
        Err(e) => {
            if let Some(err) = non_finite_literal(line) {
                return Err(err);
            }
            Err(QueryError::Parse {
                path: "json".to_owned(),
                message: e.to_string(),
            })
        }
    }
}

/// The marker string (as JSON) that stands in for a non-finite literal.
const MARK: &str = "\"\\u0001nonfinite\"";

/// `line` with every bare `NaN`/`Infinity` literal and every number too large
/// for an f64 (`1e309`) outside strings replaced by [`MARK`], and the first
/// one replaced.
fn mark_non_finite(line: &str) -> (String, Option<String>) {
    const LITERALS: [&str; 7] = ["-Infinity", "Infinity", "-NaN", "NaN", "-inf", "inf", "nan"];
    let mut out = String::with_capacity(line.len());
    let mut first = None;
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(lit) = LITERALS.iter().find(|l| rest.starts_with(**l)) {
            out.push_str(MARK);
            first = first.or_else(|| Some((*lit).to_owned()));
            i += lit.len();
            continue;
        } else if c == '-' || c.is_ascii_digit() {
            let len = rest
                .find(|ch: char| {
                    !(ch.is_ascii_digit() || matches!(ch, '-' | '+' | '.' | 'e' | 'E'))
                })
                .unwrap_or(rest.len());
            let number = &rest[..len];
            if number.parse::<f64>().is_ok_and(f64::is_infinite) {
                out.push_str(MARK);
                first = first.or_else(|| Some(number.to_owned()));
            } else {
                out.push_str(number);
            }
            i += len.max(1);
            continue;
        }
        out.push(c);
        i += c.len_utf8();
    }
    (out, first)
}

/// Finds a bare `NaN`/`Infinity` literal and its field path, by replacing
/// it with a marker string and parsing again.
fn non_finite_literal(line: &str) -> Option<QueryError> {
    let (patched, first) = mark_non_finite(line);
    let lit = first?;
    let value: serde_json::Value = serde_json::from_str(&patched).ok()?;
    let path = find_marker(&value, "")?;
    Some(QueryError::NotFinite { path, value: lit })
}

/// The `id` of a line that does not parse, if it can be recovered (the line
/// is JSON once `NaN`/`Infinity` literals are set aside).
pub fn salvage_id(line: &str) -> Option<serde_json::Value> {
    let (patched, _) = mark_non_finite(line);
    let value: serde_json::Value = serde_json::from_str(&patched).ok()?;
    value.get("id").cloned()
}

fn find_marker(v: &serde_json::Value, path: &str) -> Option<String> {
    match v {
        serde_json::Value::String(s) if s == "\u{1}nonfinite" => Some(path.to_owned()),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| find_marker(x, &format!("{path}[{i}]"))),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, x)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            find_marker(x, &p)
        }),
        _ => None,
    }
}

/// Checks one top-level field's type, for [`from_value`].
type FieldCheck = fn(&serde_json::Value) -> Option<serde_json::Error>;

/// A query from a JSON value, naming the field path of the first problem.
///
/// # Errors
/// [`QueryError::Parse`] with the path of the offending field.
pub fn from_value(value: &serde_json::Value) -> Result<Query, QueryError> {
    if let Ok(q) = Query::deserialize(value) {
        return Ok(q);
    }
    // Locate the problem field by field, for a message that names it.
    let parse_err = |path: &str, e: &serde_json::Error| QueryError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let obj = value.as_object().ok_or_else(|| QueryError::Parse {
        path: "query".to_owned(),
        message: "expected a JSON object".to_owned(),
    })?;
    for body in ["a", "b"] {
        let Some(b) = obj.get(body) else { continue };
        let Some(bo) = b.as_object() else {
            return Err(QueryError::Parse {
                path: body.to_owned(),
                message: "expected an object with shape, position, rotation".to_owned(),
            });
        };
        if let Some(shape) = bo.get("shape") {
            if let Some(t) = shape.get("type")
                && let Some(name) = t.as_str()
                && !ShapeGeom::KINDS.contains(&name)
            {
                return Err(QueryError::Parse {
                    path: format!("{body}.shape.type"),
                    message: format!(
                        "unknown shape `{name}` (expected one of {})",
                        ShapeGeom::KINDS.join(", ")
                    ),
                });
            }
            if let Err(e) = shape_from_value(shape.clone()) {
                return Err(parse_err(&format!("{body}.shape"), &e));
            }
        }
        if let Some(x) = bo.get("position")
            && let Err(e) = <[f64; 3]>::deserialize(x)
        {
            return Err(parse_err(&format!("{body}.position"), &e));
        }
        if let Some(x) = bo.get("rotation")
            && let Err(e) = <[f64; 4]>::deserialize(x)
        {
            return Err(parse_err(&format!("{body}.rotation"), &e));
        }
        if let Err(e) = body::deserialize(b) {
            return Err(parse_err(body, &e));
        }
    }
    let fields: [(&str, FieldCheck); 5] = [
        ("query", |x| QueryKind::deserialize(x).err()),
        ("precision", |x| Precision::deserialize(x).err()),
        ("algorithm", |x| Algorithm::deserialize(x).err()),
        ("translation", |x| <[f64; 3]>::deserialize(x).err()),
        ("id", |x| String::deserialize(x).err()),
    ];
    for (field, check) in fields {
        if let Some(x) = obj.get(field)
            && !x.is_null()
            && let Some(e) = check(x)
        {
            return Err(parse_err(field, &e));
        }
    }
    match Query::deserialize(value) {
        Ok(q) => Ok(q),
        Err(e) => Err(parse_err("query", &e)),
    }
}
