//! Polly pipelines registered by key in one file and run in another
//! (issue 19): `services.AddResiliencePipeline("orders", b =>
//! b.AddRetry(..))` in a program's start-up code, and
//! `provider.GetPipeline("orders").ExecuteAsync(ct => http.GetAsync(..))`
//! (or a `[FromKeyedServices("orders")] ResiliencePipeline` parameter) in
//! a class of the same project. Polly.Extensions keeps the pipelines of a
//! service provider by key (`ResiliencePipelineProvider<TKey>`), and from
//! 8.3.0 registers each as a keyed service too (App-vNext/Polly
//! `src/Polly.Extensions/DependencyInjection/PollyServiceCollectionExtensions.cs`,
//! `TryAddKeyedTransient(key, ..)`, commit 28fba682 "Add support for keyed
//! services"), so the key names one pipeline per program.
//!
//! Each use becomes a policy of its own file, placed at the execution,
//! with the registration's settings and the request keys its delegate
//! mints; its settings are judged once, where they are written
//! (`RetryPolicy::use_of`). The calls inside the delegate, and in the
//! methods of its class it runs (`PipelineUse::also`), carry it.

use super::link::units;
use crate::model::csharp_source::PipelineUse;
use crate::model::{ScannedFile, SettingPlace};
use std::collections::BTreeSet;

pub fn join(files: &mut [ScannedFile]) {
    // (key, file, policy) of every registration holding a retry.
    let registered: Vec<(String, usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(id, f)| {
            f.facts
                .csharp
                .iter()
                .flat_map(|c| c.pipelines.iter())
                .filter_map(move |k| Some((k.key.clone(), id, k.policy?)))
        })
        .filter(|(_, id, i)| *i < files[*id].facts.policies.len())
        .collect();
    if registered.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let uses: Vec<PipelineUse> = match &files[id].facts.csharp {
            Some(c) if !c.pipeline_uses.is_empty() => c.pipeline_uses.clone(),
            _ => continue,
        };
        let mine = units(&files[id]);
        for u in uses {
            let Some((c, k)) = registration(files, &registered, &mine, &u.key) else {
                continue;
            };
            let decl = &files[c].facts.policies[k];
            let from = SettingPlace {
                path: files[c].source.display_path(),
                line: files[c].source.line_col(decl.span.start).line,
            };
            let mut p = decl.rebased(u.at);
            p.use_of = Some(u.taken.clone());
            p.settings_from = vec![from];
            p.idempotency = u.keys.clone();
            let f = &mut files[id].facts;
            let n = f.policies.len();
            f.policies.push(p);
            let inside = |at: crate::source::Span| {
                std::iter::once((u.start, u.end))
                    .chain(u.also.iter().copied())
                    .any(|(a, b)| a <= at.start && at.end <= b)
            };
            for e in f.edges.iter_mut().filter(|e| inside(e.span)) {
                e.policies.push(n);
            }
            for c in f.unresolved.iter_mut().filter(|c| inside(c.span)) {
                c.policies.push(n);
            }
        }
    }
}

/// The one registration of `key` for the file: in a build unit the file
/// belongs to (its project, or a program that references it) where the
/// files say their units, else anywhere; none when two differ.
fn registration(
    files: &[ScannedFile],
    registered: &[(String, usize, usize)],
    mine: &BTreeSet<String>,
    key: &str,
) -> Option<(usize, usize)> {
    let all: Vec<(usize, usize)> = registered
        .iter()
        .filter(|(k, _, _)| k == key)
        .map(|(_, f, i)| (*f, *i))
        .collect();
    let near: Vec<(usize, usize)> = all
        .iter()
        .copied()
        .filter(|(f, _)| !mine.is_disjoint(&units(&files[*f])))
        .collect();
    let pool = if near.is_empty() { all } else { near };
    let first = *pool.first()?;
    let same = |&(f, i): &(usize, usize)| {
        let (a, b) = (
            &files[f].facts.policies[i],
            &files[first.0].facts.policies[first.1],
        );
        a.attempts.value == b.attempts.value
            && a.delay.value == b.delay.value
            && a.jitter.value == b.jitter.value
            && a.retry_on.value == b.retry_on.value
    };
    pool.iter().all(same).then_some(first)
}
