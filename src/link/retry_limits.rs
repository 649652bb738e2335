//! Retry circuit breakers written apart from the retry policy: an Istio
//! DestinationRule's `connectionPool.http.maxRetries` for a host, an Envoy
//! cluster's `circuit_breakers` `max_retries` in another file than the
//! routes that send to it. Each policy of the same system whose calls all
//! go to hosts with such a limit takes it as its
//! `Budget::Concurrency { max }` (the largest of its hosts' limits).

use super::*;
use crate::model::calls::short_host;
use crate::model::{Budget, Located, System};

/// A written limit: its system, host (short), number, file and span.
struct Limit {
    system: System,
    host: String,
    max: u64,
    file: usize,
    span: Span,
    /// Written in a fixture folder (`Facts::test_input`): that file's
    /// folder, the only one whose policies it limits.
    fixture: Option<String>,
}

/// The folder of a file (`a/b/` of `a/b/c.yaml`).
fn folder(f: &ScannedFile) -> String {
    let p = f.source.display_path();
    p.rsplit_once('/')
        .map_or(String::new(), |(d, _)| format!("{d}/"))
}

pub fn retry_limits(files: &mut [ScannedFile]) {
    let mut limits: Vec<Limit> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for p in &f.facts.protections {
            if let Some(max) = p.max_retries {
                limits.push(Limit {
                    system: p.system.clone(),
                    host: short_host(&p.host),
                    max,
                    file: id,
                    span: p.span,
                    fixture: f.facts.test_input.then(|| folder(f)),
                });
            }
        }
    }
    if limits.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let mut found: Vec<(usize, &Limit)> = Vec::new();
        let f = &files[id];
        // A fixture's limit is a test's: it limits the policies of its own
        // folder only (a test's inputs), never a deployed route's.
        let here = limits
            .iter()
            .any(|l| l.fixture.is_some())
            .then(|| folder(f));
        let visible = |l: &&Limit| match &l.fixture {
            None => true,
            Some(dir) => f.facts.test_input && here.as_ref() == Some(dir),
        };
        for (k, p) in f.facts.policies.iter().enumerate() {
            if p.budget.is_some() || !p.retries() {
                continue;
            }
            let mut targets: Vec<String> = f
                .facts
                .edges
                .iter()
                .filter(|e| e.policies.contains(&k))
                .map(|e| short_host(&e.callee))
                .collect();
            if targets.is_empty() {
                targets.extend(p.scope.callee.as_ref().map(|c| short_host(&c.value)));
            }
            targets.sort();
            targets.dedup();
            if targets.is_empty() {
                continue;
            }
            // Every host must have exactly one limit (two rules for one host
            // leave which one applies unknown); the weakest one counts.
            let mut chosen: Option<&Limit> = None;
            let mut all = true;
            for t in &targets {
                let mut of_host = limits
                    .iter()
                    .filter(|l| l.system == p.system && l.host == *t)
                    .filter(visible);
                match (of_host.next(), of_host.next()) {
                    (Some(l), None) => {
                        if chosen.is_none_or(|c| l.max > c.max) {
                            chosen = Some(l);
                        }
                    }
                    _ => all = false,
                }
            }
            if let (true, Some(l)) = (all, chosen) {
                found.push((k, l));
            }
        }
        let found: Vec<(usize, u64, usize, Span)> = found
            .into_iter()
            .map(|(k, l)| (k, l.max, l.file, l.span))
            .collect();
        for (k, max, file, span) in found {
            let from = (file != id).then(|| place(&files[file], span));
            let p = &mut files[id].facts.policies[k];
            let budget = Budget::Concurrency { max };
            p.budget = Some(match from {
                // The limit is written in this file: point at it.
                None => Located::written(budget, span),
                Some(from) => {
                    if !p.settings_from.contains(&from) {
                        p.settings_from.push(from);
                    }
                    Located::included(budget, p.attempts.span)
                }
            });
        }
    }
}
