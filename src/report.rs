//! From every rule's findings to what a run reports: the optional
//! narrowing to some files (`--changed-since`, explicit files), the
//! suppression pass, the run's selection and severities per path
//! (`[[overrides]]` included), fingerprints, then the baseline.
//!
//! Every rule runs whatever the selection ([`check::run`]), so a
//! suppression counts as used even for a rule the run does not report;
//! the selection is applied here, once, after the suppressions.

use crate::config::Settings;
use crate::rules::{Finding, Severity};
use crate::source::{FileId, SourceFile};
use crate::suppress::{self, Suppressed};
use crate::{Scan, ScannedFile, check};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::path::Path;

/// What a run reports.
#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    /// One per finding: see [`check::fingerprints`].
    pub fingerprints: Vec<String>,
    pub suppressed: Vec<Suppressed>,
    /// Suppressions without a reason (accepted, counted).
    pub without_reason: usize,
    /// Findings dropped because the baseline has them.
    pub baselined: usize,
    /// Findings dropped because their file is outside the files reported
    /// (counted before their files' suppression comments
    /// are read).
    pub elsewhere: usize,
    /// Internal errors of rules (or the graph) that stopped: see
    /// [`check::run`]. [`crate::pipeline`] moves them to the scan's
    /// notices.
    pub notices: Vec<crate::Notice>,
}

/// Add the configuration files to the scan, so that RL904 can point into
/// them; returns the id of each, one per [`Settings::scopes`] (`None`: no
/// file, or no entries that can be unused).
pub fn attach_configs(scan: &mut Scan, settings: &Settings) -> Vec<Option<FileId>> {
    settings
        .scopes()
        .map(|s| {
            if s.per_file_ignores.is_empty() {
                return None;
            }
            let path = s.config_file.as_ref()?;
            let text = std::fs::read_to_string(path).ok()?;
            scan.files.push(ScannedFile {
                source: SourceFile::new(settings.shown(path), text),
                facts: Default::default(),
                syntax: None,
            });
            Some(scan.files.len() - 1)
        })
        .collect()
}

/// What a run reports from every rule's findings (`checked`): with
/// `allowed` (one flag per scanned file), only the files it accepts
/// (`--changed-since`, files named on the command line while the whole
/// repository is read); the other files' findings are only counted, not
/// suppressed, fingerprinted or kept, which is most of the work when one
/// file of a large repository is checked. `configs` are the ids from
/// [`attach_configs`]. Each file is judged by the settings that apply to
/// it ([`Settings::for_path`]).
pub fn select(
    scan: &Scan,
    checked: check::Checked,
    settings: &Settings,
    configs: &[Option<FileId>],
    allowed: Option<&[bool]>,
) -> Report {
    let scoped: Vec<&Settings> = scan
        .files
        .iter()
        .map(|f| settings.for_path(&f.source.path))
        .collect();
    // Each file's path as its configuration names it, made for the files
    // with a finding only (a one-file run has thousands without).
    let relative: Vec<std::cell::OnceCell<String>> =
        scan.files.iter().map(|_| Default::default()).collect();
    let relative = |i: FileId| {
        relative[i]
            .get_or_init(|| scoped[i].relative_path(&scan.files[i].source.path))
            .as_str()
    };
    let enabled = |f: &Finding| scoped[f.file].is_enabled_at(f.rule, relative(f.file));
    let check::Checked {
        mut findings,
        notices,
    } = checked;
    let mut elsewhere = 0;
    if let Some(allowed) = allowed {
        findings.retain(|f| {
            let keep = allowed[f.file];
            if !keep && enabled(f) {
                elsewhere += 1;
            }
            keep
        });
    }
    let mut out = suppress::apply(scan, findings, settings, configs);
    if let Some(allowed) = allowed {
        // Unused-suppression findings of files not reported (their
        // findings were not offered) are dropped, not counted.
        out.findings.retain(|f| allowed[f.file]);
        out.suppressed.retain(|s| allowed[s.finding.file]);
    }
    let mut findings: Vec<Finding> = out.findings.into_iter().filter(|f| enabled(f)).collect();
    for f in &mut findings {
        if let Some(s) = scoped[f.file].severity_at(f.rule, relative(f.file)) {
            f.severity = s;
        }
    }
    check::sort_and_dedup(&mut findings, scan);
    let fingerprints = check::fingerprints(&findings, scan);
    Report {
        findings,
        fingerprints,
        suppressed: out
            .suppressed
            .into_iter()
            .filter(|s| enabled(&s.finding))
            .collect(),
        without_reason: out.without_reason,
        baselined: 0,
        elsewhere,
        notices,
    }
}

impl Report {
    fn retain(&mut self, mut keep: impl FnMut(&Finding, &str) -> bool) -> usize {
        let before = self.findings.len();
        let mut kept = Vec::with_capacity(before);
        let mut prints = Vec::with_capacity(before);
        for (f, p) in self.findings.drain(..).zip(self.fingerprints.drain(..)) {
            if keep(&f, &p) {
                kept.push(f);
                prints.push(p);
            }
        }
        self.findings = kept;
        self.fingerprints = prints;
        before - self.findings.len()
    }

    /// Drop the findings the baseline has.
    pub fn apply_baseline(&mut self, baseline: &Baseline) {
        self.baselined += self.retain(|_, p| !baseline.fingerprints.contains(p));
    }

    /// The highest severity reported, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// ` (3 suppressed, 1 without a reason; 2 in the baseline)` or "".
    pub fn tally_suffix(&self) -> String {
        let mut parts = Vec::new();
        if !self.suppressed.is_empty() || self.without_reason > 0 {
            let mut s = format!("{} suppressed", self.suppressed.len());
            if self.without_reason > 0 {
                s.push_str(&format!(
                    ", {} suppression{} without a reason",
                    self.without_reason,
                    if self.without_reason == 1 { "" } else { "s" }
                ));
            }
            parts.push(s);
        }
        if self.baselined > 0 {
            parts.push(format!("{} in the baseline", self.baselined));
        }
        if self.elsewhere > 0 {
            parts.push(format!("{} in files not reported", self.elsewhere));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }
}

/// A baseline: the fingerprints of accepted findings (code + file +
/// normalised line text + rank among equals), so findings survive lines
/// inserted above them.
#[derive(Debug, Default)]
pub struct Baseline {
    pub fingerprints: HashSet<String>,
}

/// Bumped when the baseline document changes incompatibly.
pub const BASELINE_VERSION: u64 = 1;

impl Baseline {
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let shown = crate::source::display_path(path);
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read baseline {shown}: {e}"))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{shown}: not a retrylint baseline: {e}"))?;
        if v["version"].as_u64() != Some(BASELINE_VERSION) {
            return Err(format!(
                "{shown}: baseline version {} is not {BASELINE_VERSION}; write it again with --write-baseline",
                v["version"]
            ));
        }
        let Some(items) = v["findings"].as_array() else {
            return Err(format!("{shown}: a baseline needs a `findings` array"));
        };
        let mut fingerprints = HashSet::new();
        for item in items {
            match item["fingerprint"].as_str() {
                Some(p) => {
                    fingerprints.insert(p.to_string());
                }
                None => return Err(format!("{shown}: a baseline finding has no `fingerprint`")),
            }
        }
        Ok(Baseline { fingerprints })
    }

    /// The baseline document for a report: fingerprints, with the code,
    /// file, line and message for a reader of the diff.
    pub fn document(scan: &Scan, report: &Report) -> String {
        let items: Vec<Value> = report
            .findings
            .iter()
            .zip(&report.fingerprints)
            .map(|(f, p)| {
                let file = scan.file(f.file);
                json!({
                    "fingerprint": p,
                    "code": f.rule.code,
                    "file": file.display_path(),
                    "line": file.line_col(f.span.start).line,
                    "message": f.message,
                })
            })
            .collect();
        let doc = json!({
            "version": BASELINE_VERSION,
            "tool": "retrylint",
            "findings": items,
        });
        let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
        s.push('\n');
        s
    }
}
