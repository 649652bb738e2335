//! `--format sarif`: SARIF 2.1.0 (OASIS), as GitHub code scanning reads it.
//!
//! - `tool.driver.rules` carries every rule of the registry: summary as
//!   `shortDescription`, the doc's "What it does" as `fullDescription`, the
//!   whole doc as `help` (text and Markdown), `helpUri`, and the default
//!   level.
//! - Paths are relative to `%SRCROOT%` (`originalUriBaseIds`): the
//!   repository root of the scanned tree, which the caller gives
//!   ([`RunInfo`]), not the working directory; a file outside it is an
//!   absolute `file://` URI.
//! - The configuration files the run applied (each file's nearest
//!   `.retrylint.toml`, or `--config`) are `run.artifacts` with the role
//!   `userSpecifiedConfiguration`, and their URIs are
//!   `invocations[0].properties.configurationFiles`.
//! - `invocations[0]` carries the process's `exitCode` and
//!   `executionSuccessful`; `automationDetails.id` is `CATEGORY/` when a
//!   category is given (GitHub code scanning reads everything before the
//!   last `/` as the category, as `upload-sarif`'s `category` input does).
//! - Regions are 1-based with `columnKind` `unicodeCodePoints`; byte
//!   offsets are given too. Every related location (each hop of a path) is
//!   a `relatedLocations` entry. One cause in a file is one result: its
//!   other places (a profile's routes that miss the same setting) are
//!   `relatedLocations` too, each with its own message and fingerprint,
//!   and `properties.places` counts them ([`super::by_cause`]). `partialFingerprints` survive lines
//!   inserted above a finding ([`crate::check::fingerprints`]).
//! - A result's fixes (of each of its places) are SARIF `fixes` (one `artifactChange` per file,
//!   each edit a `replacement` of a region of the original text), marked
//!   `safe` or `unsafe` in their `properties.applicability`.
//! - Suppressed findings are listed with `suppressions` (kind `inSource`
//!   for comments, `external` for configuration), so viewers show them as
//!   dismissed instead of losing them.

use super::range;
use crate::Scan;
use crate::report::Report;
use crate::rules::{Finding, RULES, Severity};
use crate::source::Span;
use crate::suppress::By;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The key of [`crate::check::fingerprints`] in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "retrylint/v1";
const SRCROOT: &str = "%SRCROOT%";

/// What a SARIF log says about its run besides the findings; given by the
/// caller, so that rendering reads neither the process nor the disk.
#[derive(Clone, Debug, Default)]
pub struct RunInfo {
    /// `%SRCROOT%`: the repository root of the scanned tree (absolute).
    pub srcroot: Option<PathBuf>,
    /// The directory the scan's relative paths are relative to (the
    /// working directory).
    pub cwd: PathBuf,
    /// `--sarif-category`: the code scanning category.
    pub category: Option<String>,
    /// The process's exit code.
    pub exit_code: i32,
}

impl RunInfo {
    /// `automationDetails.id`: the category followed by `/` (an empty run
    /// id), as GitHub's `upload-sarif` forms it from its `category` input.
    pub fn automation_id(&self) -> Option<String> {
        let c = self.category.as_deref()?;
        Some(if c.ends_with('/') {
            c.to_string()
        } else {
            format!("{c}/")
        })
    }

    /// A shown path as a URI: relative to `%SRCROOT%` when under it, else
    /// an absolute `file://` URI (a relative reference without a base).
    fn location(&self, path: &Path) -> Value {
        let abs = crate::config::normalise(&self.cwd.join(path));
        if let Some(root) = &self.srcroot
            && let Ok(rel) = abs.strip_prefix(root)
        {
            let rel = crate::source::display_path(rel);
            return json!({ "uri": encode_path(&rel), "uriBaseId": SRCROOT });
        }
        let shown = crate::source::display_path(&abs);
        let uri = if abs.is_absolute() && shown.starts_with('/') {
            format!("file://{}", encode_path(&shown))
        } else if abs.is_absolute() {
            format!("file:///{}", encode_path(&shown))
        } else {
            encode_path(&shown)
        };
        json!({ "uri": uri })
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Percent-encode a path for a URI reference: unreserved characters and
/// `/` stay, everything else (spaces, `%`, `#`, `?`, non-ASCII) is encoded.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `file://` URI for an absolute directory, ending in `/`.
fn dir_uri(dir: &Path) -> String {
    let mut p = crate::source::display_path(dir);
    if !p.starts_with('/') {
        // A Windows drive path.
        p.insert(0, '/');
    }
    if !p.ends_with('/') {
        p.push('/');
    }
    format!("file://{}", encode_path(&p))
}

fn artifact(scan: &Scan, run: &RunInfo, file: usize) -> Value {
    run.location(&scan.file(file).path)
}

fn physical(scan: &Scan, run: &RunInfo, file: usize, span: Span) -> Value {
    let f = scan.file(file);
    let (s, e) = range(f, span);
    let start = span.start.min(f.text.len());
    let end = span.end.min(f.text.len()).max(start);
    json!({
        "artifactLocation": artifact(scan, run, file),
        "region": {
            "startLine": s.line,
            "startColumn": s.column,
            "endLine": e.line,
            "endColumn": e.column,
            "byteOffset": start,
            "byteLength": end - start,
        },
    })
}

fn rule_descriptor(r: &crate::rules::Rule) -> Value {
    let what = r.section("What it does").unwrap_or(r.summary);
    json!({
        "id": r.code,
        "name": r.name,
        "shortDescription": { "text": r.summary },
        "fullDescription": { "text": what, "markdown": what },
        "help": { "text": r.body(), "markdown": r.body() },
        "helpUri": r.help_uri(),
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": {
            "tags": [r.category.as_str()],
            "category": r.category.as_str(),
            "since": r.since,
            "formats": r.formats,
        },
    })
}

fn result(
    scan: &Scan,
    run: &RunInfo,
    f: &Finding,
    fingerprint: &str,
    suppression: Option<Value>,
    others: &[(&Finding, &String)],
) -> Value {
    let index = RULES
        .iter()
        .position(|r| std::ptr::eq(r, f.rule))
        .or_else(|| RULES.iter().position(|r| r.code == f.rule.code))
        .unwrap_or(0);
    let related: Vec<Value> = f
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": i,
                "physicalLocation": physical(scan, run, r.file, r.span),
                "message": { "text": r.message },
            })
        })
        .collect();
    // The other places of the same cause: related locations with their
    // own message and fingerprint.
    let mut related = related;
    for (o, print) in others {
        related.push(json!({
            "id": related.len(),
            "physicalLocation": physical(scan, run, o.file, o.span),
            "message": { "text": super::same_cause(o) },
            "properties": { "fingerprint": print },
        }));
    }
    let mut v = json!({
        "ruleId": f.rule.code,
        "ruleIndex": index,
        "level": level(f.severity),
        "message": { "text": format!("{}\nhelp: {}", f.message, f.help) },
        "locations": [{ "physicalLocation": physical(scan, run, f.file, f.span) }],
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint },
        "properties": { "name": f.rule.name, "help": f.help, "places": others.len() + 1 },
    });
    let obj = v.as_object_mut().expect("object");
    if !related.is_empty() {
        obj.insert("relatedLocations".into(), Value::Array(related));
    }
    if let Some(s) = suppression {
        obj.insert("suppressions".into(), json!([s]));
    }
    // The fixes of every place of the cause (a fix names its files).
    let all: Vec<Value> = std::iter::once(f)
        .chain(others.iter().map(|(o, _)| *o))
        .filter_map(|x| match fixes(scan, run, x) {
            Value::Array(a) => Some(a),
            _ => None,
        })
        .flatten()
        .collect();
    if !all.is_empty() {
        obj.insert("fixes".into(), Value::Array(all));
    }
    v
}

/// The finding's fixes as SARIF `fix` objects: one `artifactChange` per
/// file, each edit a `replacement` of a region of the original text (an
/// empty region inserts); whether the fix is safe is a property.
fn fixes(scan: &Scan, run: &RunInfo, f: &Finding) -> Value {
    f.fixes
        .iter()
        .map(|fix| {
            let mut files: Vec<usize> = fix.edits.iter().map(|e| e.file).collect();
            files.sort_unstable();
            files.dedup();
            let changes: Vec<Value> = files
                .into_iter()
                .filter(|&file| file < scan.files.len())
                .map(|file| {
                    let replacements: Vec<Value> = fix
                        .edits_in(file)
                        .map(|e| {
                            let region = physical(scan, run, file, e.span)["region"].clone();
                            json!({
                                "deletedRegion": region,
                                "insertedContent": { "text": e.replacement },
                            })
                        })
                        .collect();
                    json!({
                        "artifactLocation": artifact(scan, run, file),
                        "replacements": replacements,
                    })
                })
                .collect();
            json!({
                "description": { "text": fix.title },
                "artifactChanges": changes,
                "properties": { "applicability": fix.applicability.as_str() },
            })
        })
        .collect()
}

/// The SARIF log of a run.
pub fn render(scan: &Scan, report: &Report, info: &RunInfo) -> String {
    let run = info;
    // One result per cause in a file, its other places related locations
    // (`super::by_cause`); suppressed findings stay one result each.
    let refs: Vec<&Finding> = report.findings.iter().collect();
    let mut results: Vec<Value> = super::by_cause(&refs)
        .into_iter()
        .map(|ids| {
            let others: Vec<(&Finding, &String)> = ids[1..]
                .iter()
                .map(|&i| (refs[i], &report.fingerprints[i]))
                .collect();
            let first = ids[0];
            result(
                scan,
                run,
                refs[first],
                &report.fingerprints[first],
                None,
                &others,
            )
        })
        .collect();
    if !report.suppressed.is_empty() {
        let prints = crate::check::fingerprints(
            &report
                .suppressed
                .iter()
                .map(|s| s.finding.clone())
                .collect::<Vec<_>>(),
            scan,
        );
        for (s, p) in report.suppressed.iter().zip(&prints) {
            let mut sup = match &s.by {
                By::Comment(file, span) => json!({
                    "kind": "inSource",
                    "location": { "physicalLocation": physical(scan, run, *file, *span) },
                }),
                By::Config(_) => json!({ "kind": "external" }),
            };
            if let Some(r) = &s.reason {
                sup["justification"] = json!(r);
            }
            results.push(result(scan, run, &s.finding, p, Some(sup), &[]));
        }
    }
    let notifications: Vec<Value> = scan
        .notices
        .iter()
        .map(|n| {
            let mut v = json!({
                "level": if n.internal { "error" } else { "warning" },
                "message": { "text": match &n.path {
                    Some(p) => format!("{p}: {}", n.message),
                    None => n.message.clone(),
                } },
            });
            if let Some(p) = &n.path {
                v["locations"] = json!([{ "physicalLocation": {
                    "artifactLocation": run.location(Path::new(p))
                } }]);
            }
            v
        })
        .collect();
    // The configuration files the run applied: artifacts in the role SARIF
    // has for them, and their URIs on the invocation.
    let configs: Vec<Value> = scan
        .stats
        .config_files
        .iter()
        .map(|f| run.location(Path::new(f)))
        .collect();
    let mut log_run = json!({
        "tool": { "driver": {
            "name": "retrylint",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "informationUri": "https://github.com/retrylint/retrylint",
            "rules": RULES.iter().map(rule_descriptor).collect::<Vec<_>>(),
        } },
        "columnKind": "unicodeCodePoints",
        "invocations": [{
            "exitCode": run.exit_code,
            "executionSuccessful": !scan.notices.iter().any(|n| n.internal),
            "toolExecutionNotifications": notifications,
            "properties": { "configurationFiles": configs.iter().map(|c| c["uri"].clone()).collect::<Vec<_>>() },
        }],
        "results": results,
    });
    if !configs.is_empty() {
        log_run["artifacts"] = configs
            .into_iter()
            .map(|location| {
                json!({
                    "location": location,
                    "roles": ["userSpecifiedConfiguration"],
                    "description": { "text": "a retrylint configuration file the run applied" },
                })
            })
            .collect();
    }
    if let Some(id) = info.automation_id() {
        log_run["automationDetails"] = json!({ "id": id });
    }
    if let Some(root) = &info.srcroot {
        log_run["originalUriBaseIds"] = json!({ SRCROOT: {
            "uri": dir_uri(root),
            "description": { "text": "the repository root" },
        } });
    }
    let doc = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [log_run],
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded() {
        assert_eq!(encode_path("a b/c%d#e.yml"), "a%20b/c%25d%23e.yml");
        assert_eq!(encode_path("dé.yml"), "d%C3%A9.yml");
        assert_eq!(dir_uri(Path::new("/work/repo")), "file:///work/repo/");
    }
}
