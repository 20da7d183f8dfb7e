//! The instrumentation macros. Each expands to `if <guard> { record }`.
//!
//! The guard is [`__guard!`](crate::__guard), defined twice below with the
//! `cfg(feature = "enabled")` on the definitions themselves, so the feature of
//! *this* crate decides (a `cfg` inside a macro body would be read in the
//! calling crate). Compiled out, the guard is the literal `false`: arguments
//! are still type-checked but never evaluated, and the optimiser removes the
//! branch. Compiled in, the guard is [`is_on`](crate::is_on): one relaxed
//! atomic load while no thread records.
//!
//! Every macro takes a string literal label first; the label, file and line
//! are interned per call site. A leading `cso` puts a drawable in
//! configuration space instead of object space; an optional last argument
//! gives its [`Rgba`](crate::Rgba) colour.

/// Whether macros record: `is_on()` when compiled in.
#[cfg(feature = "enabled")]
#[doc(hidden)]
#[macro_export]
macro_rules! __guard {
    () => {
        $crate::is_on()
    };
}

/// Whether macros record: always `false` when compiled out.
#[cfg(not(feature = "enabled"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __guard {
    () => {
        false
    };
}

/// A `&'static Site` for this call site.
#[doc(hidden)]
#[macro_export]
macro_rules! __site {
    ($label:literal) => {{
        static SITE: $crate::Site = $crate::Site::in_package(
            ::core::env!("CARGO_PKG_NAME"),
            ::core::env!("CARGO_MANIFEST_DIR"),
            ::core::file!(),
            ::core::line!(),
            $label,
        );
        &SITE
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __color {
    () => {
        ::core::option::Option::None
    };
    ($c:expr) => {
        ::core::option::Option::Some($c)
    };
}

/// Opens a scope: everything drawn until the matching [`pop!`](crate::pop!) disappears there.
///
/// `push!("iteration")`
#[macro_export]
macro_rules! push {
    ($label:literal) => {
        if $crate::__guard!() {
            $crate::emit($crate::__site!($label), |site| $crate::Event::Push { site });
        }
    };
}

/// Closes the innermost scope opened by [`push!`](crate::push!).
#[macro_export]
macro_rules! pop {
    () => {
        $crate::pop!("")
    };
    ($label:literal) => {
        if $crate::__guard!() {
            $crate::emit($crate::__site!($label), |site| $crate::Event::Pop { site });
        }
    };
}

/// Opens a scope that closes when the returned [`Scope`](crate::Scope) is
/// dropped, so it opens and closes in the same function and early returns or
/// panics cannot leave it open.
///
/// `let _iteration = scope!("iteration");`, or `scope!("iteration", on)` in a
/// hot loop that read [`is_on`](crate::is_on) once before it into `on`.
#[macro_export]
macro_rules! scope {
    ($label:literal) => {
        $crate::scope!($label, $crate::__guard!())
    };
    ($label:literal, $on:expr) => {
        $crate::Scope::open(if $crate::ENABLED && $on {
            ::core::option::Option::Some(($crate::__site!($label), $crate::__site!("")))
        } else {
            ::core::option::Option::None
        })
    };
}

/// A step: the viewer stops here. `pause!()` or `pause!("after reduce")`.
#[macro_export]
macro_rules! pause {
    () => {
        $crate::pause!("")
    };
    ($label:literal) => {
        if $crate::__guard!() {
            $crate::emit($crate::__site!($label), |site| $crate::Event::Pause {
                site,
            });
        }
    };
}

/// A line of text for the log, formatted like `format!` (only when recording).
///
/// `text!("iteration {i}: |v| = {}", v.length())`
#[macro_export]
macro_rules! text {
    ($fmt:literal $($arg:tt)*) => {
        if $crate::__guard!() {
            let text = ::std::format!($fmt $($arg)*);
            $crate::emit($crate::__site!($fmt), move |site| $crate::Event::Text { site, text });
        }
    };
}

/// A point. `point!("support", p)`, `point!(cso "w", w, Rgba::RED)`.
#[macro_export]
macro_rules! point {
    (cso $label:literal, $p:expr $(, $color:expr)? $(,)?) => {
        $crate::point!(@ $crate::Space::Config, $label, $p $(, $color)?)
    };
    (@ $space:expr, $label:literal, $p:expr $(, $color:expr)?) => {
        if $crate::__guard!() {
            let p = $crate::IntoVec3::into_vec3($p);
            let color = $crate::__color!($($color)?);
            $crate::emit($crate::__site!($label), move |site| $crate::Event::Point {
                site,
                space: $space,
                color,
                p,
            });
        }
    };
    ($label:literal, $p:expr $(, $color:expr)? $(,)?) => {
        $crate::point!(@ $crate::Space::Object, $label, $p $(, $color)?)
    };
}

/// A line segment from `a` to `b`. `line!(cso "v", origin, v, Rgba::BLUE)`.
#[macro_export]
macro_rules! line {
    (cso $label:literal, $a:expr, $b:expr $(, $color:expr)? $(,)?) => {
        $crate::line!(@ $crate::Space::Config, $label, $a, $b $(, $color)?)
    };
    (@ $space:expr, $label:literal, $a:expr, $b:expr $(, $color:expr)?) => {
        if $crate::__guard!() {
            let a = $crate::IntoVec3::into_vec3($a);
            let b = $crate::IntoVec3::into_vec3($b);
            let color = $crate::__color!($($color)?);
            $crate::emit($crate::__site!($label), move |site| $crate::Event::Line {
                site,
                space: $space,
                color,
                a,
                b,
            });
        }
    };
    ($label:literal, $a:expr, $b:expr $(, $color:expr)? $(,)?) => {
        $crate::line!(@ $crate::Space::Object, $label, $a, $b $(, $color)?)
    };
}

/// A triangle. `triangle!(cso "face", a, b, c, Rgba::RED)`.
#[macro_export]
macro_rules! triangle {
    (cso $label:literal, $a:expr, $b:expr, $c:expr $(, $color:expr)? $(,)?) => {
        $crate::triangle!(@ $crate::Space::Config, $label, $a, $b, $c $(, $color)?)
    };
    (@ $space:expr, $label:literal, $a:expr, $b:expr, $c:expr $(, $color:expr)?) => {
        if $crate::__guard!() {
            let v = [
                $crate::IntoVec3::into_vec3($a),
                $crate::IntoVec3::into_vec3($b),
                $crate::IntoVec3::into_vec3($c),
            ];
            let color = $crate::__color!($($color)?);
            $crate::emit($crate::__site!($label), move |site| $crate::Event::Triangle {
                site,
                space: $space,
                color,
                v,
            });
        }
    };
    ($label:literal, $a:expr, $b:expr, $c:expr $(, $color:expr)? $(,)?) => {
        $crate::triangle!(@ $crate::Space::Object, $label, $a, $b, $c $(, $color)?)
    };
}

/// The configuration-space simplex: an iterator of `(w, a, b)` triples, the
/// difference point and the support points on A and B behind it.
///
/// `simplex!("after reduce", s.iter().map(|v| (v.w, v.a, v.b)))`
#[macro_export]
macro_rules! simplex {
    ($label:literal, $vertices:expr $(,)?) => {
        if $crate::__guard!() {
            let vertices = $crate::cso_vertices($vertices);
            $crate::emit($crate::__site!($label), move |site| {
                $crate::Event::Simplex { site, vertices }
            });
        }
    };
}

/// One sample of a named scalar series, plotted per step. `value!("upper", d)`.
#[macro_export]
macro_rules! value {
    ($label:literal, $v:expr $(,)?) => {
        if $crate::__guard!() {
            let value = $crate::IntoScalar::into_scalar($v);
            $crate::emit($crate::__site!($label), move |site| $crate::Event::Value {
                site,
                value,
            });
        }
    };
}

/// Declares the query's shapes: `shapes!(a, b)` or, for a sweep of A,
/// `shapes!(a, b, motion)`, where `a` and `b` convert into
/// [`ShapeDecl`](crate::ShapeDecl).
#[macro_export]
macro_rules! shapes {
    ($a:expr, $b:expr $(,)?) => {
        if $crate::__guard!() {
            let a = ::std::boxed::Box::new(::core::convert::Into::into($a));
            let b = ::std::boxed::Box::new(::core::convert::Into::into($b));
            $crate::emit($crate::__site!("shapes"), move |site| {
                $crate::Event::Shapes {
                    site,
                    a,
                    b,
                    motion: ::core::option::Option::None,
                }
            });
        }
    };
    ($a:expr, $b:expr, $motion:expr $(,)?) => {
        if $crate::__guard!() {
            let a = ::std::boxed::Box::new(::core::convert::Into::into($a));
            let b = ::std::boxed::Box::new(::core::convert::Into::into($b));
            let motion =
                ::core::option::Option::Some($crate::IntoVec3::into_vec3($motion).to_f64());
            $crate::emit($crate::__site!("shapes"), move |site| {
                $crate::Event::Shapes { site, a, b, motion }
            });
        }
    };
}

/// Records what the query answered, an [`Answer`](crate::Answer):
/// `answer!(Answer::Distance { distance, point_a, point_b, normal })`. The
/// viewer draws it from here on (closest points, normal, depth, A at
/// impact) until the next query's shapes.
#[macro_export]
macro_rules! answer {
    ($answer:expr $(,)?) => {
        if $crate::__guard!() {
            let answer: ::std::boxed::Box<$crate::Answer> = ::std::boxed::Box::new($answer);
            $crate::emit($crate::__site!("answer"), move |site| {
                $crate::Event::Answer { site, answer }
            });
        }
    };
}

/// Records how far the query's answer is proven, a
/// [`Certificate`](crate::Certificate), right after its [`answer!`]. The
/// expression is evaluated only while recording.
#[macro_export]
macro_rules! certificate {
    ($certificate:expr $(,)?) => {
        if $crate::__guard!() {
            let certificate: ::std::boxed::Box<$crate::Certificate> =
                ::std::boxed::Box::new($certificate);
            $crate::emit($crate::__site!("certificate"), move |site| {
                $crate::Event::Certificate { site, certificate }
            });
        }
    };
}
