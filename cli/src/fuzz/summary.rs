//! The campaign summary: checked, failed, limits and worst error per family
//! and kind; the table on stdout, JSON lines, the summary file and `merge`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

/// How many limits a summary keeps (failures are kept to the same count).
pub const LISTED: usize = 1000;

/// How many limits the table prints.
pub const SHOWN: usize = 20;

/// One row: a family and a query kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The family's name.
    pub family: String,
    /// The query kind (`distance`, …).
    pub kind: String,
    /// Cases judged.
    pub checked: u64,
    /// Cases with a failed check.
    pub failed: u64,
    /// Cases with a check outside tolerance that is a documented limit.
    pub limits: u64,
    /// Engine answers that declined the query (`"ok": false`).
    #[serde(default)]
    pub skipped: u64,
    /// The worst error over its tolerance (≤ 1 passes).
    pub worst: f64,
}

/// One failure (or documented limit), as listed in the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureLine {
    /// The case's index in the campaign.
    pub case: u64,
    /// Family name.
    pub family: String,
    /// Query kind.
    pub kind: String,
    /// The check that failed (or met its documented limit).
    pub check: String,
    /// What is wrong.
    pub message: String,
    /// The error over its tolerance.
    pub ratio: f64,
    /// The failing query as a `cspace eval` line (its algorithm set).
    pub query: String,
    /// The fixture folder, when one was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixture: Option<String>,
}

/// A campaign's (or a merge's) summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The campaign seed.
    pub seed: u64,
    /// The shards covered, as `i/n` each.
    pub shards: Vec<String>,
    /// Rows by family and kind.
    pub rows: Vec<Row>,
    /// Failures (at most the ones the campaign kept).
    pub failures: Vec<FailureLine>,
    /// Checks outside tolerance that are a documented limit: reported so
    /// each can be reproduced (`--case`), not counted as failures.
    #[serde(default)]
    pub limits: Vec<FailureLine>,
    /// Seconds spent judging.
    pub seconds: f64,
}

/// Accumulates rows while a campaign runs.
#[derive(Default, Debug)]
pub struct Table {
    rows: BTreeMap<(String, String), Row>,
}

impl Table {
    /// Counts one judged case.
    pub fn add(&mut self, family: &str, kind: &str, failed: bool, limit: bool, worst: f64) {
        let row = self.row(family, kind);
        row.checked += 1;
        row.failed += u64::from(failed);
        row.limits += u64::from(limit && !failed);
        row.worst = row.worst.max(worst);
    }

    /// Counts one case an engine declined.
    pub fn skip(&mut self, family: &str, kind: &str) {
        self.row(family, kind).skipped += 1;
    }

    fn row(&mut self, family: &str, kind: &str) -> &mut Row {
        self.rows
            .entry((family.to_owned(), kind.to_owned()))
            .or_insert_with(|| Row {
                family: family.to_owned(),
                kind: kind.to_owned(),
                ..Row::default()
            })
    }

    /// The rows, sorted by family and kind.
    #[must_use]
    pub fn rows(self) -> Vec<Row> {
        self.rows.into_values().collect()
    }
}

impl Summary {
    /// Total cases checked.
    #[must_use]
    pub fn checked(&self) -> u64 {
        self.rows.iter().map(|r| r.checked).sum()
    }

    /// Total cases failed.
    #[must_use]
    pub fn failed(&self) -> u64 {
        self.rows.iter().map(|r| r.failed).sum()
    }

    /// Combines summaries of shards of one campaign (rows added, worst kept).
    #[must_use]
    pub fn merge(parts: &[Self]) -> Self {
        let mut table = Table::default();
        let mut out = Self::default();
        for p in parts {
            out.seed = p.seed;
            out.shards.extend(p.shards.iter().cloned());
            out.failures.extend(p.failures.iter().cloned());
            out.limits.extend(p.limits.iter().cloned());
            out.seconds = out.seconds.max(p.seconds);
            for r in &p.rows {
                let row = table.row(&r.family, &r.kind);
                row.checked += r.checked;
                row.failed += r.failed;
                row.limits += r.limits;
                row.skipped += r.skipped;
                row.worst = row.worst.max(r.worst);
            }
        }
        out.rows = table.rows();
        out.failures.sort_by_key(|f| f.case);
        out.limits.sort_by_key(|f| f.case);
        out.limits.truncate(LISTED);
        out
    }

    /// Prints the table (or JSON lines: one per row, one per failure, one
    /// per limit, then a total). The table lists the first [`SHOWN`]
    /// limits and says how many more there are.
    ///
    /// # Errors
    /// Writing failed.
    pub fn print(&self, json: bool, out: &mut impl Write) -> io::Result<()> {
        if json {
            for r in &self.rows {
                serde_json::to_writer(&mut *out, &serde_json::json!({"row": r}))?;
                writeln!(out)?;
            }
            for f in &self.failures {
                serde_json::to_writer(&mut *out, &serde_json::json!({"failure": f}))?;
                writeln!(out)?;
            }
            for f in &self.limits {
                serde_json::to_writer(&mut *out, &serde_json::json!({"limit": f}))?;
                writeln!(out)?;
            }
            let total = serde_json::json!({"total": {
                "checked": self.checked(), "failed": self.failed(),
                "seconds": self.seconds, "shards": self.shards, "seed": self.seed,
            }});
            serde_json::to_writer(&mut *out, &total)?;
            return writeln!(out);
        }
        // The kind column fits the longest kind shown (`signed_distance`).
        let kw = self
            .rows
            .iter()
            .map(|r| r.kind.len())
            .max()
            .unwrap_or(0)
            .max(12);
        writeln!(
            out,
            "{:<11} {:<kw$} {:>10} {:>7} {:>7} {:>8} {:>10}",
            "family", "kind", "checked", "failed", "limits", "skipped", "worst"
        )?;
        for r in &self.rows {
            writeln!(
                out,
                "{:<11} {:<kw$} {:>10} {:>7} {:>7} {:>8} {:>10.3e}",
                r.family, r.kind, r.checked, r.failed, r.limits, r.skipped, r.worst
            )?;
        }
        let rate = if self.seconds > 0.0 {
            self.checked() as f64 / self.seconds * 60.0
        } else {
            0.0
        };
        writeln!(
            out,
            "total: {} checked, {} failed in {:.1} s ({:.0} per minute); worst = error / tolerance",
            self.checked(),
            self.failed(),
            self.seconds,
            rate
        )?;
        for f in &self.failures {
            writeln!(
                out,
                "FAIL case {} [{} {}] {}: {}{}",
                f.case,
                f.family,
                f.kind,
                f.check,
                f.message,
                f.fixture
                    .as_ref()
                    .map(|p| format!("\n  fixture: {p}"))
                    .unwrap_or_default()
            )?;
        }
        for f in self.limits.iter().take(SHOWN) {
            writeln!(
                out,
                "limit case {} [{} {}] {}: {}",
                f.case, f.family, f.kind, f.check, f.message
            )?;
        }
        let limits: u64 = self.rows.iter().map(|r| r.limits).sum();
        if limits > SHOWN as u64 {
            writeln!(
                out,
                "… {} more limits (`--json` lists up to {LISTED})",
                limits - SHOWN as u64
            )?;
        }
        Ok(())
    }

    /// Writes the summary as one JSON file.
    ///
    /// # Errors
    /// Writing failed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        std::fs::write(path, text + "\n")
    }

    /// Reads a summary file.
    ///
    /// # Errors
    /// Reading or parsing failed (the message names the file).
    pub fn load(path: &Path) -> io::Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        serde_json::from_str(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: not a fuzz summary: {e}", path.display()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_rows_and_keeps_the_worst() {
        let mut t = Table::default();
        t.add("random", "distance", false, false, 0.5);
        let a = Summary {
            rows: t.rows(),
            shards: vec!["0/2".into()],
            ..Summary::default()
        };
        let mut t = Table::default();
        t.add("random", "distance", true, false, 3.0);
        t.add("far", "sweep", false, false, 0.1);
        let b = Summary {
            rows: t.rows(),
            shards: vec!["1/2".into()],
            ..Summary::default()
        };
        let m = Summary::merge(&[a, b]);
        assert_eq!(m.checked(), 3);
        assert_eq!(m.failed(), 1);
        assert_eq!(m.shards, ["0/2", "1/2"]);
        let r = m.rows.iter().find(|r| r.family == "random").unwrap();
        assert_eq!((r.checked, r.worst), (2, 3.0));
    }

    fn line(case: u64) -> FailureLine {
        FailureLine {
            case,
            family: "thin".into(),
            kind: "sweep".into(),
            check: "unique-contact".into(),
            message: format!("case {case} off"),
            ratio: 2.0,
            query: String::new(),
            fixture: None,
        }
    }

    #[test]
    fn limits_are_listed_by_case_and_merged() {
        let mut t = Table::default();
        for _ in 0..SHOWN + 3 {
            t.add("thin", "sweep", false, true, 0.5);
        }
        let s = Summary {
            rows: t.rows(),
            limits: (0..SHOWN as u64 + 3).rev().map(line).collect(),
            ..Summary::default()
        };
        let m = Summary::merge(&[s]);
        assert_eq!(m.limits[0].case, 0, "merged limits are sorted by case");
        let mut text = Vec::new();
        m.print(false, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("limit case 0 [thin sweep] unique-contact: case 0 off"));
        assert_eq!(text.matches("limit case").count(), SHOWN);
        assert!(text.contains("… 3 more limits"), "{text}");
        let mut json = Vec::new();
        m.print(true, &mut json).unwrap();
        let json = String::from_utf8(json).unwrap();
        assert_eq!(json.matches(r#"{"limit":"#).count(), SHOWN + 3);
    }

    #[test]
    fn a_summary_without_limits_still_loads() {
        let old = r#"{"seed":1,"shards":["0/1"],"rows":[],"failures":[],"seconds":1.0}"#;
        let s: Summary = serde_json::from_str(old).unwrap();
        assert!(s.limits.is_empty());
    }
}
