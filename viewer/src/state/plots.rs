//! What the plots panel shows, computed from a trace: one plot per `value!`
//! series on a shared step axis, a series with a single sample as a number,
//! and for each pair of distance bounds (`upper bound` / `lower bound`, or
//! with a prefix such as `epa `) their gap on a log scale with the stopping
//! tolerance the algorithm recorded (`gap tolerance`), so convergence and the
//! stop are visible where a linear plot is flat.

use crate::state::trace::Trace;

/// One line of a plot: its name and its (step, value) points.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotLine {
    /// The series name.
    pub name: String,
    /// (step, value) points; on a log plot the value is its log10.
    pub points: Vec<[f64; 2]>,
    /// Whether the line is the other recording's of a comparison (drawn dashed).
    pub other: bool,
}

/// What one cell of the plots panel shows.
#[derive(Clone, Debug, PartialEq)]
pub enum PlotModel {
    /// A series over the steps (several lines share a plot).
    Lines {
        /// The plot's title.
        title: String,
        /// Its lines.
        lines: Vec<PlotLine>,
        /// Whether values are log10 (the axis reads powers of ten).
        log: bool,
        /// On a log plot, the log10 where gaps of zero or less (met
        /// exactly) are drawn, if any are.
        met: Option<f64>,
    },
    /// A series with one sample (a depth, a time of impact): the number itself.
    Value {
        /// The series name.
        name: String,
        /// Its sample.
        value: f64,
    },
}

/// The suffixes that make a bounds pair and its tolerance.
const UPPER: &str = "upper bound";
const LOWER: &str = "lower bound";
const TOLERANCE: &str = "gap tolerance";

/// The plots of `trace`, in the order the series first appear, each bounds
/// pair's gap plot right after its lower bound.
#[must_use]
pub fn plot_models(trace: &Trace) -> Vec<PlotModel> {
    let by_name = |name: &str| trace.series.iter().find(|s| s.name == name);
    let mut out = Vec::new();
    for s in &trace.series {
        if s.name.ends_with(TOLERANCE) && by_name(&s.name.replace(TOLERANCE, UPPER)).is_some() {
            continue; // drawn on its gap plot
        }
        if s.points.len() == 1 {
            out.push(PlotModel::Value {
                name: s.name.clone(),
                value: s.points[0][1],
            });
            continue;
        }
        out.push(PlotModel::Lines {
            title: s.name.clone(),
            lines: vec![PlotLine {
                name: s.name.clone(),
                points: finite(&s.points),
                other: false,
            }],
            log: false,
            met: None,
        });
        let Some(prefix) = s.name.strip_suffix(LOWER) else {
            continue;
        };
        let Some(upper) = by_name(&format!("{prefix}{UPPER}")) else {
            continue;
        };
        let gap: Vec<[f64; 2]> = upper
            .points
            .iter()
            .zip(&s.points)
            .map(|(u, l)| [u[0], log10(u[1] - l[1])])
            .filter(|p| p[1] == MET || p[1].is_finite())
            .collect();
        let mut lines = vec![PlotLine {
            name: format!("{prefix}bound gap"),
            points: gap,
            other: false,
        }];
        if let Some(tol) = by_name(&format!("{prefix}{TOLERANCE}")) {
            lines.push(PlotLine {
                name: tol.name.clone(),
                points: tol
                    .points
                    .iter()
                    .map(|p| [p[0], log10(p[1])])
                    .filter(|p| p[1] == MET || p[1].is_finite())
                    .collect(),
                other: false,
            });
        }
        let met = floor_met(&mut lines);
        out.push(PlotModel::Lines {
            title: format!("{prefix}bound gap (log)"),
            lines,
            log: true,
            met,
        });
    }
    out
}

/// The plots of a comparison: each of `shown`'s plots with `other`'s plot of
/// the same title overlaid (its lines marked [`PlotLine::other`]), every
/// line named after its recording; a single sample of each side as two
/// numbers; plots only `other` has at the end.
#[must_use]
pub fn overlay(shown: Vec<PlotModel>, other: Vec<PlotModel>, names: [&str; 2]) -> Vec<PlotModel> {
    let mut other: Vec<Option<PlotModel>> = other.into_iter().map(Some).collect();
    let title = |m: &PlotModel| match m {
        PlotModel::Lines { title, .. } => title.clone(),
        PlotModel::Value { name, .. } => name.clone(),
    };
    let rename = |m: PlotModel, name: &str, is_other: bool| match m {
        PlotModel::Lines {
            title,
            lines,
            log,
            met,
        } => PlotModel::Lines {
            title,
            lines: lines
                .into_iter()
                .map(|l| PlotLine {
                    name: format!("{name}: {}", l.name),
                    other: is_other,
                    ..l
                })
                .collect(),
            log,
            met,
        },
        PlotModel::Value { name: n, value } => PlotModel::Value {
            name: format!("{name}: {n}"),
            value,
        },
    };
    let mut out = Vec::new();
    for m in shown {
        let t = title(&m);
        let twin = other
            .iter_mut()
            .find(|o| o.as_ref().is_some_and(|o| title(o) == t))
            .and_then(Option::take);
        let m = rename(m, names[0], false);
        match (m, twin.map(|o| rename(o, names[1], true))) {
            (
                PlotModel::Lines {
                    title,
                    mut lines,
                    log,
                    met,
                },
                Some(PlotModel::Lines {
                    lines: mut more,
                    met: more_met,
                    ..
                }),
            ) => {
                // One floor for the met gaps of both.
                let floor = met.into_iter().chain(more_met).reduce(f64::min);
                if let Some(f) = floor {
                    move_floor(&mut lines, met, f);
                    move_floor(&mut more, more_met, f);
                }
                lines.extend(more);
                out.push(PlotModel::Lines {
                    title,
                    lines,
                    log,
                    met: floor,
                });
            }
            (m, twin) => out.extend(std::iter::once(m).chain(twin)),
        }
    }
    out.extend(
        other
            .into_iter()
            .flatten()
            .map(|o| rename(o, names[1], true)),
    );
    out
}

/// The last step any series can be at: the shared x-axis runs from 0 to it.
#[must_use]
pub fn last_step(trace: &Trace) -> f64 {
    trace.pauses.len() as f64
}

/// log10 of a gap; a gap of zero or less (met exactly) is [`MET`] until
/// [`floor_met`] moves it just under the plot's smallest positive value.
fn log10(v: f64) -> f64 {
    if v > 0.0 { v.log10() } else { MET }
}

/// The placeholder log10 of a gap of zero or less.
const MET: f64 = f64::NEG_INFINITY;

/// Puts gaps of zero or less two decades below the smallest positive value
/// of the plot (1e-20 if there is none), so they show at the bottom
/// without squashing the axis down to 1e-300; returns where, if any were.
fn floor_met(lines: &mut [PlotLine]) -> Option<f64> {
    let lowest = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p[1]))
        .filter(|y| y.is_finite())
        .fold(f64::INFINITY, f64::min);
    let floor = if lowest.is_finite() {
        lowest.floor() - 2.0
    } else {
        -20.0
    };
    let mut any = false;
    for p in lines.iter_mut().flat_map(|l| l.points.iter_mut()) {
        if p[1] == MET {
            p[1] = floor;
            any = true;
        }
    }
    any.then_some(floor)
}

/// Moves the points of `lines` at `from` (a floor of met gaps) to `to`.
fn move_floor(lines: &mut [PlotLine], from: Option<f64>, to: f64) {
    if let Some(from) = from {
        for p in lines.iter_mut().flat_map(|l| l.points.iter_mut()) {
            if p[1] == from {
                p[1] = to;
            }
        }
    }
}

fn finite(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    points
        .iter()
        .filter(|p| p[1].is_finite())
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder as rec;

    #[test]
    fn bounds_get_a_log_gap_plot_with_their_tolerance_and_single_samples_are_values() {
        let ((), r) = rec::record(|| {
            for (u, l) in [
                (1.0f64, 0.0f64),
                (0.1, 0.09),
                (1e-6, 1e-6 - 1e-9),
                (0.5, 0.5),
            ] {
                rec::value!("upper bound", u);
                rec::value!("lower bound", l);
                rec::value!("gap tolerance", 1e-8);
                rec::pause!("step");
            }
            rec::value!("depth", 0.25f64);
        });
        let t = Trace::from_decoded(rec::decode(&r.bytes));
        let models = plot_models(&t);
        let titles: Vec<String> = models
            .iter()
            .map(|m| match m {
                PlotModel::Lines { title, .. } => title.clone(),
                PlotModel::Value { name, .. } => format!("value {name}"),
            })
            .collect();
        assert_eq!(
            titles,
            [
                "upper bound",
                "lower bound",
                "bound gap (log)",
                "value depth"
            ]
        );
        let PlotModel::Lines { lines, log, .. } = &models[2] else {
            panic!("a gap plot");
        };
        assert!(*log);
        assert_eq!(lines[0].points.len(), 4);
        assert!((lines[0].points[0][1] - 0.0).abs() < 1e-12, "gap 1 → 10^0");
        assert!((lines[0].points[2][1] - (-9.0)).abs() < 1e-6, "gap 1e-9");
        assert_eq!(
            lines[0].points[3][1], -11.0,
            "met exactly: two decades under 1e-9"
        );
        let PlotModel::Lines { met, .. } = &models[2] else {
            unreachable!()
        };
        assert_eq!(*met, Some(-11.0));
        assert_eq!(lines[1].name, "gap tolerance");
        assert!((lines[1].points[0][1] - (-8.0)).abs() < 1e-12);
        assert_eq!(
            models[3],
            PlotModel::Value {
                name: "depth".into(),
                value: 0.25
            }
        );
        assert!((last_step(&t) - 4.0).abs() < f64::EPSILON);
    }

    fn models(scale: f64, extra: bool) -> Vec<PlotModel> {
        let ((), r) = rec::record(|| {
            for u in [1.0f64, 0.5] {
                rec::value!("upper bound", u * scale);
                rec::pause!("step");
            }
            rec::value!("depth", 0.25f64 * scale);
            if extra {
                for v in [1.0f64, 2.0] {
                    rec::value!("only here", v);
                }
            }
        });
        plot_models(&Trace::from_decoded(rec::decode(&r.bytes)))
    }

    #[test]
    fn a_comparison_overlays_the_same_plots() {
        let both = overlay(models(1.0, false), models(2.0, true), ["f64", "f32"]);
        let PlotModel::Lines { title, lines, .. } = &both[0] else {
            panic!("a plot first: {both:?}");
        };
        assert_eq!(title, "upper bound");
        let names: Vec<(&str, bool)> = lines.iter().map(|l| (l.name.as_str(), l.other)).collect();
        assert_eq!(
            names,
            [("f64: upper bound", false), ("f32: upper bound", true)]
        );
        assert_eq!(lines[1].points, vec![[0.0, 2.0], [1.0, 1.0]]);
        assert_eq!(
            both[1..3],
            [
                PlotModel::Value {
                    name: "f64: depth".into(),
                    value: 0.25
                },
                PlotModel::Value {
                    name: "f32: depth".into(),
                    value: 0.5
                }
            ]
        );
        let PlotModel::Lines { title, lines, .. } = &both[3] else {
            panic!("the other's own plot last: {both:?}");
        };
        assert_eq!((title.as_str(), lines[0].other), ("only here", true));
        assert_eq!(both.len(), 4);
    }

    fn gap_plot(gaps: &[f64]) -> PlotModel {
        let ((), r) = rec::record(|| {
            for g in gaps {
                rec::value!("upper bound", 1.0 + g);
                rec::value!("lower bound", 1.0f64);
                rec::pause!("step");
            }
        });
        plot_models(&Trace::from_decoded(rec::decode(&r.bytes))).remove(2)
    }

    #[test]
    fn overlaid_gap_plots_share_one_floor_for_met_gaps() {
        // A meets its gap below 1e-2, B below 1e-6 (1 + 1e-6 − 1 is just
        // under 1e-6: two decades under 1e-7 is 1e-9); both at B's floor.
        let both = overlay(
            vec![gap_plot(&[1e-2, 0.0])],
            vec![gap_plot(&[1e-6, 0.0])],
            ["A", "B"],
        );
        let PlotModel::Lines { lines, met, .. } = &both[0] else {
            panic!("one gap plot: {both:?}");
        };
        let floor = met.expect("met gaps");
        assert_eq!(floor, -9.0);
        assert_eq!(lines[0].points[1][1], floor);
        assert_eq!(lines[1].points[1][1], floor);
    }
}
