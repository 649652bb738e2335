//! `--format json`: a versioned document, described in docs/json-output.md
//! and docs/json-output.schema.json.

use super::range;
use crate::Scan;
use crate::check::fingerprints;
use crate::rules::{Finding, Severity};
use serde_json::{Value, json};

/// Bumped on any change that is not a pure addition. 2: one entry per
/// cause in a file, its other places in `related` (`places` counts them).
pub const SCHEMA_VERSION: u32 = 2;

fn location(scan: &Scan, file: usize, span: crate::source::Span) -> Value {
    let f = scan.file(file);
    let (s, e) = range(f, span);
    json!({
        "file": f.display_path(),
        "span": { "start": span.start, "end": span.end },
        "range": {
            "start": { "line": s.line, "column": s.column },
            "end": { "line": e.line, "column": e.column },
        },
    })
}

pub fn finding(scan: &Scan, f: &Finding, fingerprint: &str) -> Value {
    let mut v = location(scan, f.file, f.span);
    let obj = v.as_object_mut().expect("object");
    obj.insert("code".into(), json!(f.rule.code));
    obj.insert("name".into(), json!(f.rule.name));
    obj.insert("severity".into(), json!(f.severity));
    obj.insert("message".into(), json!(f.message));
    obj.insert("help".into(), json!(f.help));
    obj.insert("fingerprint".into(), json!(fingerprint));
    let related: Vec<Value> = f
        .related
        .iter()
        .map(|r| {
            let mut l = location(scan, r.file, r.span);
            l.as_object_mut()
                .expect("object")
                .insert("message".into(), json!(r.message));
            l
        })
        .collect();
    obj.insert("related".into(), Value::Array(related));
    if let Some(why) = reasons(scan, f) {
        obj.insert("reasons".into(), json!(why));
    }
    if !f.fixes.is_empty() {
        obj.insert("fixes".into(), fixes(scan, f));
    }
    v
}

/// The finding's fixes, each with its edits as locations of the original
/// text and the text that replaces each (what `check --fix` makes).
fn fixes(scan: &Scan, f: &Finding) -> Value {
    f.fixes
        .iter()
        .map(|fix| {
            let edits: Vec<Value> = fix
                .edits
                .iter()
                .filter(|e| e.file < scan.files.len())
                .map(|e| {
                    let mut l = location(scan, e.file, e.span);
                    l.as_object_mut()
                        .expect("object")
                        .insert("replacement".into(), json!(e.replacement));
                    l
                })
                .collect();
            json!({
                "title": fix.title,
                "applicability": fix.applicability.as_str(),
                "edits": edits,
            })
        })
        .collect()
}

/// One entry per cause in a file (`super::by_cause`): the first place's
/// finding, with `places` the number of places and every other place a
/// related location carrying its own message and fingerprint. Nothing is
/// lost: each finding is an entry or a related location of one.
fn grouped(scan: &Scan, findings: &[Finding], prints: &[String]) -> Vec<Value> {
    let refs: Vec<&Finding> = findings.iter().collect();
    super::by_cause(&refs)
        .into_iter()
        .map(|ids| {
            let first = ids[0];
            let mut v = finding(scan, refs[first], &prints[first]);
            let obj = v.as_object_mut().expect("object");
            obj.insert("places".into(), json!(ids.len()));
            if let Some(Value::Array(related)) = obj.get_mut("related") {
                for &i in &ids[1..] {
                    let f = refs[i];
                    let mut l = location(scan, f.file, f.span);
                    let o = l.as_object_mut().expect("object");
                    o.insert("message".into(), json!(super::same_cause(f)));
                    o.insert("fingerprint".into(), json!(prints[i]));
                    if !f.fixes.is_empty() {
                        o.insert("fixes".into(), fixes(scan, f));
                    }
                    related.push(l);
                }
            }
            v
        })
        .collect()
}

/// Why the hand-written loop a finding is about was taken as a retry loop,
/// and how its bound was read: the policy of the finding's file one of
/// whose spans is the finding's.
fn reasons<'s>(scan: &'s Scan, f: &Finding) -> Option<&'s [String]> {
    let file = scan.files.get(f.file)?;
    file.facts
        .policies
        .iter()
        .filter(|p| !p.why.is_empty())
        .find(|p| {
            [
                p.span,
                p.attempts.span,
                p.delay.span,
                p.jitter.span,
                p.retry_on.span,
            ]
            .contains(&f.span)
        })
        .map(|p| p.why.as_slice())
}

pub fn render(scan: &Scan, findings: &[Finding]) -> String {
    let prints = fingerprints(findings, scan);
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let doc = json!({
        "version": SCHEMA_VERSION,
        "tool": { "name": "retrylint", "version": env!("CARGO_PKG_VERSION") },
        "summary": {
            "files_scanned": scan.stats.files_seen,
            "files_read": scan.stats.files_parsed,
            "extractors": scan.stats.per_extractor,
            "findings": findings.len(),
            "errors": count(Severity::Error),
            "warnings": count(Severity::Warning),
            "infos": count(Severity::Info),
            "config_files": scan.stats.config_files,
            "test_files": scan.stats.test_files,
            "generated_files": scan.stats.generated_files,
            "test_inputs": scan.stats.test_inputs,
            "not_read": scan.stats.unread.by_language,
            "unresolved_calls": scan.stats.unresolved.iter().map(|(at, w, caller)| json!({
                "at": at,
                "written": w,
                "caller": caller,
            })).collect::<Vec<_>>(),
        },
        "findings": grouped(scan, findings, &prints),
        "notices": scan.notices.iter().map(|n| json!({
            "path": n.path,
            "message": n.message,
            "internal": n.internal,
        })).collect::<Vec<_>>(),
    });
    let mut doc = doc;
    let not_taken = loops_not_taken(scan);
    if !not_taken.is_empty() {
        doc.as_object_mut()
            .expect("object")
            .insert("loops_not_taken".into(), Value::Array(not_taken));
    }
    let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
    s.push('\n');
    s
}

/// Hand-written loops that looked like retries and were not taken, each
/// with its place and why: a loop missed on purpose is told apart from one
/// the reader got wrong.
fn loops_not_taken(scan: &Scan) -> Vec<Value> {
    let mut out = Vec::new();
    for (i, f) in scan.files.iter().enumerate() {
        for l in &f.facts.loops_not_taken {
            let mut v = location(scan, i, l.span);
            v.as_object_mut()
                .expect("object")
                .insert("reasons".into(), json!(l.reasons));
            out.push(v);
        }
    }
    out
}
