//! `cspace fuzz`: a differential fuzzer for cspace's algorithms and for any
//! engine. Generates query families ([`generate`]), judges each case
//! ([`judge`]), shrinks failures ([`shrink`]) and saves them as fixture
//! pairs ([`save`]); `--engine` judges a user's program ([`engine`]);
//! [`summary`] prints the table and merges shards.

pub mod engine;
pub mod generate;
pub mod geom;
pub mod judge;
pub mod save;
pub mod shrink;
pub mod summary;

use cspace::model::{Precision, QueryKind};
use generate::{Case, Family, Kind, Prec, Space};
use judge::{Finding, Verdict};
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use summary::{FailureLine, Summary, Table};

/// `cspace fuzz` and `cspace fuzz merge`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct FuzzArgs {
    /// `merge`: combine shard summaries.
    #[command(subcommand)]
    pub merge: Option<MergeCommand>,
    /// The campaign.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cspace fuzz merge`.
#[derive(clap::Subcommand, Debug)]
pub enum MergeCommand {
    /// Combine the `--summary` files of shards into one table (exit 1 on any failure).
    Merge {
        /// Summary files written with `--summary`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// JSON lines instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// The options of a campaign.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// The campaign's seed: case i of seed s is always the same query.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Cases in the whole campaign (over all shards).
    #[arg(long, default_value_t = 10_000)]
    pub count: u64,
    /// Stop after this many seconds (the cases judged so far are reported).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Families to draw from (comma separated; all by default).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub families: Vec<Family>,
    /// Query kinds (comma separated; all by default).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub kinds: Vec<Kind>,
    /// Precisions (comma separated; both by default).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub precision: Vec<Prec>,
    /// Run shard I of N: the cases whose index is I modulo N.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, default_value = "0/1")]
    pub shard: (u64, u64),
    /// JSON lines on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write the summary as JSON here (for `cspace fuzz merge`).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Save failure fixtures under this folder (default: the fixture folder's `fuzz/`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Save (and shrink) at most this many failures; the rest are counted.
    #[arg(long, default_value_t = 10)]
    pub max_saved: usize,
    /// Do not shrink failures before saving them.
    #[arg(long)]
    pub no_shrink: bool,
    /// Judge this program's answers: "CMD ARGS" (split at spaces), one query
    /// line in, one answer line out (see README, "Fuzz an engine").
    #[arg(long, value_name = "CMD ARGS")]
    pub engine: Option<String>,
    /// Seconds an engine may take per query before it is killed and restarted.
    #[arg(long, default_value = "5", value_parser = crate::seconds)]
    pub timeout: Duration,
    /// Relative tolerance of an engine's distances, depths and contacts.
    #[arg(long, default_value_t = 1e-6)]
    pub engine_tol: f64,
    /// Judge only case INDEX of the campaign (to reproduce one failure).
    #[arg(long, value_name = "INDEX")]
    pub case: Option<u64>,
    /// Judge the queries in this file (`cspace eval` lines) instead of generated ones.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// Never draw a progress bar (it is drawn only on a terminal anyway).
    #[arg(long)]
    pub quiet: bool,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N, got {s:?}"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|e| format!("shard index {i:?}: {e}"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|e| format!("shard count {n:?}: {e}"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 ≤ I < N"));
    }
    Ok((i, n))
}

impl RunArgs {
    /// What the campaign draws from.
    #[must_use]
    pub fn space(&self) -> Space {
        let mut families = self.families.clone();
        if families.is_empty() {
            families = Family::ALL.to_vec();
        }
        families.sort();
        families.dedup();
        let mut kinds: Vec<QueryKind> = self.kinds.iter().map(|k| k.query()).collect();
        if kinds.is_empty() {
            kinds = vec![
                QueryKind::Distance,
                QueryKind::Intersect,
                QueryKind::Penetration,
                QueryKind::Sweep,
                QueryKind::SignedDistance,
            ];
        }
        let mut precisions: Vec<Precision> = self
            .precision
            .iter()
            .map(|p| match p {
                Prec::F32 => Precision::F32,
                Prec::F64 => Precision::F64,
            })
            .collect();
        if precisions.is_empty() {
            precisions = vec![Precision::F64, Precision::F32];
        }
        precisions.dedup();
        Space {
            families,
            kinds,
            precisions,
        }
    }

    /// The case indices of this shard, in order.
    pub fn indices(&self) -> Vec<u64> {
        if let Some(c) = self.case {
            return vec![c];
        }
        let (i, n) = self.shard;
        (i..self.count).step_by(n as usize).collect()
    }
}

/// The `cspace fuzz` command.
#[must_use]
pub fn cli(args: &FuzzArgs) -> ExitCode {
    if let Some(MergeCommand::Merge { files, json }) = &args.merge {
        return merge(files, *json);
    }
    let run = &args.run;
    let result = match &run.engine {
        Some(cmd) => engine::Engine::new(cmd, run.timeout)
            .map_err(|e| e.to_string())
            .map(|e| campaign_engine(run, e)),
        None => campaign(run),
    };
    match result {
        Ok(summary) => finish(run, &summary),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn finish(run: &RunArgs, summary: &Summary) -> ExitCode {
    let mut out = std::io::stdout().lock();
    if let Err(e) = summary.print(run.json, &mut out) {
        eprintln!("error: writing the summary: {e}");
        return ExitCode::from(2);
    }
    if let Some(path) = &run.summary
        && let Err(e) = summary.save(path)
    {
        eprintln!("error: writing {}: {e}", path.display());
        return ExitCode::from(2);
    }
    if summary.failed() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn merge(files: &[PathBuf], json: bool) -> ExitCode {
    let mut parts = Vec::new();
    for f in files {
        match Summary::load(f) {
            Ok(s) => parts.push(s),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let merged = Summary::merge(&parts);
    if let Err(e) = merged.print(json, &mut std::io::stdout().lock()) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    if merged.failed() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A progress bar on a terminal (rate and ETA), nothing otherwise.
fn progress(run: &RunArgs, total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    if run.quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} cases  {per_sec}  ETA {eta}  {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The fixture folder of a campaign.
fn out_dir(run: &RunArgs) -> PathBuf {
    run.out
        .clone()
        .unwrap_or_else(|| cspace::fixture::fixture_dir().join("fuzz"))
}

/// A judged case, small enough to collect by the thousand.
struct Judged {
    case: Case,
    verdict: Verdict,
}

/// The queries of a `--queries` file as cases of the `random` family.
fn read_queries(path: &std::path::Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            cspace::model::parse(line)
                .map(|query| Case {
                    index: i as u64,
                    family: Family::Random,
                    query,
                })
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Runs a campaign over cspace's own algorithms.
fn campaign(run: &RunArgs) -> Result<Summary, String> {
    let space = space_or_default(run);
    let start = Instant::now();
    let deadline = run
        .time
        .map(|t| start + Duration::from_secs_f64(t.max(0.0)));
    let given = match &run.queries {
        Some(path) => Some(read_queries(path)?),
        None => None,
    };
    let indices = match &given {
        Some(g) => (0..g.len() as u64).collect(),
        None => run.indices(),
    };
    let bar = progress(run, indices.len() as u64);
    let mut table = Table::default();
    let mut failing: Vec<(Case, Finding)> = Vec::new();
    let mut failures = Vec::new();
    let mut limits = Vec::new();
    for batch in indices.chunks(4096) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let judged: Vec<Judged> = batch
            .par_iter()
            .map(|&i| {
                let case = given.as_ref().map_or_else(
                    || generate::case(run.seed, i, &space),
                    |g| g[i as usize].clone(),
                );
                let verdict = judge::judge(&case, run.seed);
                Judged { case, verdict }
            })
            .collect();
        for j in judged {
            record(&mut table, &j.case, &j.verdict);
            if limits.len() < summary::LISTED {
                limits.extend(limit_line(&j.case, &j.verdict));
            }
            for f in j.verdict.findings.into_iter().filter(|f| !f.limit) {
                failures.push(failure_line(&j.case, &f));
                if failing.len() < run.max_saved
                    && !failing
                        .iter()
                        .any(|(c, g)| g.check == f.check && c.family == j.case.family)
                {
                    failing.push((j.case.clone(), f));
                }
            }
        }
        bar.inc(batch.len() as u64);
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let dir = out_dir(run);
    // Save (and shrink) one failure per check and family, up to --max-saved.
    for (case, finding) in failing {
        let check = finding.check;
        let (case, finding) = if run.no_shrink {
            (case, finding)
        } else {
            shrink_own(&case, finding, run.seed)
        };
        let saved = save::save_own(&dir, &case, &finding);
        if let Some(line) = failures
            .iter_mut()
            .find(|l| l.case == case.index && l.check == check)
        {
            line.fixture = Some(match saved {
                Ok(p) => p.display().to_string(),
                Err(e) => format!("not saved: {e}"),
            });
        }
    }
    failures.truncate(summary::LISTED);
    Ok(Summary {
        seed: run.seed,
        shards: vec![format!("{}/{}", run.shard.0, run.shard.1)],
        rows: table.rows(),
        failures,
        limits,
        seconds,
    })
}

fn space_or_default(run: &RunArgs) -> Space {
    run.space()
}

fn record(table: &mut Table, case: &Case, verdict: &Verdict) {
    let limit = verdict.findings.iter().any(|f| f.limit);
    table.add(
        case.family.name(),
        &case.query.query.to_string(),
        verdict.failed(),
        limit,
        verdict.worst,
    );
}

/// A case's documented limit as a summary line: only for a case that
/// failed nothing (the table counts it as a limit), its worst limit.
fn limit_line(case: &Case, verdict: &Verdict) -> Option<FailureLine> {
    if verdict.failed() {
        return None;
    }
    verdict
        .findings
        .iter()
        .filter(|f| f.limit)
        .max_by(|x, y| x.ratio.total_cmp(&y.ratio))
        .map(|f| failure_line(case, f))
}

fn failure_line(case: &Case, f: &Finding) -> FailureLine {
    FailureLine {
        case: case.index,
        family: case.family.name().to_owned(),
        kind: case.query.query.to_string(),
        check: f.check.to_owned(),
        message: f.message.clone(),
        ratio: f.ratio,
        query: serde_json::to_string(&f.subject).unwrap_or_default(),
        fixture: None,
    }
}

/// Shrinks an own-algorithm failure while the same check still fails.
fn shrink_own(case: &Case, finding: Finding, seed: u64) -> (Case, Finding) {
    let check = finding.check;
    let fails = |q: &cspace::model::Query| {
        let c = Case {
            index: case.index,
            family: case.family,
            query: q.clone(),
        };
        judge::judge(&c, seed)
            .findings
            .iter()
            .any(|f| f.check == check && !f.limit)
    };
    let (small, _) = shrink::shrink(&case.query, shrink::BUDGET, fails);
    let c = Case {
        index: case.index,
        family: case.family,
        query: small,
    };
    let f = judge::judge(&c, seed)
        .findings
        .into_iter()
        .find(|f| f.check == check && !f.limit)
        .unwrap_or(finding);
    (c, f)
}

/// Runs a campaign against an engine (one process, queries in order).
fn campaign_engine(run: &RunArgs, mut engine: engine::Engine) -> Summary {
    let space = space_or_default(run);
    let start = Instant::now();
    let deadline = run
        .time
        .map(|t| start + Duration::from_secs_f64(t.max(0.0)));
    let indices = run.indices();
    let bar = progress(run, indices.len() as u64);
    let mut table = Table::default();
    let mut failures = Vec::new();
    let mut limits = Vec::new();
    let mut saved = 0;
    let dir = out_dir(run);
    for i in indices {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let case = generate::case(run.seed, i, &space);
        let (family, kind) = (case.family.name(), case.query.query.to_string());
        match engine.ask(&case.query) {
            Ok(answer) if answer.get("ok") == Some(&serde_json::Value::Bool(false)) => {
                table.skip(family, &kind);
            }
            Ok(answer) => {
                let verdict = judge::judge_engine(&case, &answer, run.engine_tol);
                record(&mut table, &case, &verdict);
                if limits.len() < summary::LISTED {
                    limits.extend(limit_line(&case, &verdict));
                }
                if let Some(f) = verdict.findings.iter().find(|f| !f.limit) {
                    let mut line = failure_line(&case, f);
                    if saved < run.max_saved {
                        saved += 1;
                        line.fixture = Some(
                            match shrink_and_save_engine(run, &engine, &dir, &case, f.check) {
                                Ok(p) => p.display().to_string(),
                                Err(e) => format!("not saved: {e}"),
                            },
                        );
                    }
                    failures.push(line);
                }
            }
            Err(e) => {
                table.add(family, &kind, true, false, f64::INFINITY);
                let mut line = failure_line(
                    &case,
                    &Finding {
                        check: e.check(),
                        limit: false,
                        message: e.to_string(),
                        ratio: f64::INFINITY,
                        subject: case.query.clone(),
                        reference: None,
                        expect: None,
                    },
                );
                if saved < run.max_saved {
                    saved += 1;
                    line.fixture =
                        save::save_engine(&dir, &case, e.check(), &e.to_string(), None, None)
                            .map(|p| p.display().to_string())
                            .ok();
                }
                failures.push(line);
                if matches!(
                    e,
                    engine::EngineError::Spawn { .. } | engine::EngineError::Empty
                ) {
                    eprintln!("error: {e}");
                    break;
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    failures.truncate(summary::LISTED);
    Summary {
        seed: run.seed,
        shards: vec![format!("{}/{}", run.shard.0, run.shard.1)],
        rows: table.rows(),
        failures,
        limits,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Shrinks an engine failure (asking the engine again for each candidate)
/// and saves it with the engine's recording and cspace's reference.
fn shrink_and_save_engine(
    run: &RunArgs,
    engine: &engine::Engine,
    dir: &std::path::Path,
    case: &Case,
    check: &'static str,
) -> Result<PathBuf, save::SaveError> {
    let mut probe = engine.fresh();
    let mut fails = |q: &cspace::model::Query| {
        let c = Case {
            index: case.index,
            family: case.family,
            query: q.clone(),
        };
        match probe.ask(q) {
            Ok(a) if a.get("ok") != Some(&serde_json::Value::Bool(false)) => {
                judge::judge_engine(&c, &a, run.engine_tol)
                    .findings
                    .iter()
                    .any(|f| f.check == check && !f.limit)
            }
            _ => false,
        }
    };
    let query = if run.no_shrink {
        case.query.clone()
    } else {
        shrink::shrink(&case.query, shrink::BUDGET, &mut fails).0
    };
    let small = Case {
        index: case.index,
        family: case.family,
        query: query.clone(),
    };
    // Ask once more with recording on, in a scratch folder the fixture copies from.
    let scratch = dir.join(format!(".engine-recordings-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(save::SaveError::Io)?;
    let mut recorder = engine.recording(&scratch);
    let answer = recorder.ask(&query).ok();
    let message = answer
        .as_ref()
        .map(|a| judge::judge_engine(&small, a, run.engine_tol))
        .and_then(|v| v.findings.into_iter().find(|f| f.check == check))
        .map_or_else(
            || format!("{check} (did not fail again when recorded)"),
            |f| f.message,
        );
    let recording = answer
        .as_ref()
        .and_then(|a| a.get("recording"))
        .and_then(serde_json::Value::as_str)
        .map(PathBuf::from);
    save::save_engine(
        dir,
        &small,
        check,
        &message,
        answer.as_ref(),
        recording.as_deref(),
    )
}
