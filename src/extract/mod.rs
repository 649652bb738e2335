//! What every reader is given, and the helpers readers share: the
//! document context, sniff words, span remapping for embedded text, key
//! checks and durations. The readers themselves live with their system
//! (`crate::systems::<name>`); the workload and build-file readers, which
//! belong to no retry system, live here.

pub mod build;
pub mod calls;
pub mod compose_env;
pub mod compose_file;
pub mod compose_services;
pub mod config_env;
mod container_args;
pub mod env_protocol;
pub mod generated;
pub mod grpc_code_test;
pub mod hcl;
pub mod helm;
pub mod http_method;
pub mod kustomize;
pub mod loop_calls;
pub mod name_words;
pub mod own_url;
pub mod prop;
pub mod status_test;
pub mod stores;
pub mod template_text;
pub mod test_code;
pub mod tracing;
pub mod tree_sitter;
pub mod unread;
pub mod url_host;
pub mod values;
pub mod workload;

use crate::source::Span;
use crate::yaml::{self, Document, YamlFile};
use memchr::memmem;
use std::path::Path;

mod needles;
pub use needles::Needles;

pub use crate::model::Facts;

pub use crate::model::Syntax;

/// A YAML-document extractor: claims a document it recognises and adds
/// what it reads to `facts`. Returns whether it claimed the document.
pub type DocExtractor = fn(&DocCtx<'_>, &mut Facts) -> bool;

/// A system's YAML/JSON document reader, as its folder declares it
/// (`DOC_READERS` in `src/systems/<name>/mod.rs`).
#[derive(Debug)]
pub struct DocReader {
    /// The reader's name, recorded on the facts of a file it claims.
    pub name: &'static str,
    /// Substrings that make a file worth parsing for it.
    pub needles: &'static [&'static str],
    pub read: DocExtractor,
    /// Where it stands in the order readers are offered a document
    /// (lower first; several readers may read one document, and their
    /// facts are kept in this order).
    pub order: u16,
}

/// What a document extractor sees.
pub struct DocCtx<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub file: &'a YamlFile,
    pub doc: &'a Document,
    /// Spring properties of other files that this one's placeholders may
    /// refer to (see [`spring_placeholders`]); empty on the first read.
    pub outer: &'a [prop::Prop],
}

impl<'a> DocCtx<'a> {
    pub fn root(&self) -> yaml::Yaml<'a> {
        self.file.root(self.doc)
    }
}

/// Template expressions in a file: Helm/Go `{{ ... }}` and `#{...}`
/// (Octopus, Azure DevOps token replacement). Byte ranges, in order.
pub fn template_regions(text: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // Only a `{` can be the second byte of `{{` or `#{`: the scan jumps
    // from one to the next (memchr) instead of looking at every byte.
    while i + 1 < b.len() {
        let Some(k) = memchr::memchr(b'{', &b[i + 1..]) else {
            break;
        };
        i += k;
        if b[i] == b'{' && b[i + 1] == b'{' {
            if let Some(end) = memmem::find(&b[i + 2..], b"}}") {
                out.push(Span::new(i, i + 2 + end + 2));
                i += 2 + end + 2;
                continue;
            }
            break;
        }
        if b[i] == b'#' && b[i + 1] == b'{' {
            // A `#{...}` on one line.
            let rest = &b[i + 2..];
            let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            if let Some(end) = memchr::memchr(b'}', &rest[..line_end]) {
                out.push(Span::new(i, i + 2 + end + 1));
                i += 2 + end + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Map a span inside a block scalar's text (the ConfigMap's `mesh: |`)
/// back to the file: line by line, adding the block's indentation (a
/// quoted string's through its escapes, [`crate::yaml::scalar_offsets`]).
pub fn embedded_span(file: &str, value: Span, inner: &str, s: Span) -> Span {
    let Some(block) = file.get(value.start..value.end.min(file.len())) else {
        return value;
    };
    // A quoted string: through its escapes, or at its start where it
    // folds over lines (no exact place; a fix there is refused).
    if block.starts_with(['"', '\'']) {
        return match crate::yaml::scalar_offsets(file, value, inner) {
            Some(o) => {
                let at = |off: usize| o[off.min(inner.len())];
                Span::new(at(s.start), at(s.end).max(at(s.start)))
            }
            None => Span::new(value.start, value.start),
        };
    }
    // The parser's span starts at the `|`/`>` indicator or at the content.
    let first = match block.find('\n') {
        Some(i) if block.starts_with(['|', '>']) => {
            let body = &block[i + 1..];
            let lead = body
                .lines()
                .find(|l| !l.trim().is_empty())
                .map_or(0, |l| l.len() - l.trim_start().len());
            value.start + i + 1 + lead
        }
        _ => value.start,
    };
    let line_start = file[..first].rfind('\n').map_or(0, |i| i + 1);
    let indent = first - line_start;
    let mut starts = Vec::new();
    let mut at = line_start;
    for l in file[line_start..value.end.min(file.len())].split_inclusive('\n') {
        starts.push(at);
        at += l.len();
    }
    let point = |off: usize| -> usize {
        let off = off.min(inner.len());
        let line = inner[..off].matches('\n').count();
        let col = off - inner[..off].rfind('\n').map_or(0, |i| i + 1);
        starts
            .get(line)
            .map_or(value.start, |st| (st + indent + col).min(value.end))
    };
    Span::new(point(s.start), point(s.end).max(point(s.start)))
}

/// Add the facts read from a text embedded in this file (`local`, its
/// spans already mapped into this file's text) to this file's: the
/// edges' policy indices shifted past this file's policies, every list
/// appended, its extractors claiming the file.
pub fn absorb(facts: &mut Facts, mut local: Facts) {
    let offset = facts.policies.len();
    for u in &mut local.unresolved {
        for i in &mut u.policies {
            *i += offset;
        }
    }
    for edge in &mut local.edges {
        for i in &mut edge.policies {
            *i += offset;
        }
    }
    facts.policies.append(&mut local.policies);
    facts.timeouts.append(&mut local.timeouts);
    facts.services.append(&mut local.services);
    facts.diagnostics.append(&mut local.diagnostics);
    facts.edges.append(&mut local.edges);
    facts.unresolved.append(&mut local.unresolved);
    facts.protections.append(&mut local.protections);
    facts.breakers.append(&mut local.breakers);
    for x in local.extractors {
        facts.claimed_by(x);
    }
}

/// Move every span of `facts` with `f` (facts read from text embedded in
/// another file, such as a ConfigMap's value).
///
/// Every field is named (no `..`), so a new field of [`Facts`] or
/// [`RetryPolicy`](crate::model::RetryPolicy) does not compile until it is
/// placed here; `systems::read::remap_tests` checks that no span of the
/// fixtures' facts is left where it was.
pub fn remap_facts(facts: &mut Facts, f: &impl Fn(Span) -> Span) {
    let Facts {
        policies,
        timeouts,
        edges,
        unresolved,
        services,
        namespaces,
        gateway_classes,
        diagnostics,
        extractors: _,
        // The text's own parse, kept as read.
        parse: _,
        mesh_defaults,
        mesh: _,
        includes,
        // Upstream servers are names, not places.
        upstreams: _,
        top_level,
        rust,
        java,
        // Names and constants, and the pipelines taken by key (places).
        csharp,
        // Build files give dependency lines, and are never embedded.
        build: _,
        versioned,
        protections,
        breakers,
        loops_not_taken,
        loops_into_file,
        aws_shared,
        embedded_configs,
        go_dials_through,
        // Field names and indices, no places.
        go_fields: _,
        // Names, no places.
        value_wants: _,
        named_options,
        route_paths,
        client_paths,
        broker_settings,
        delayed_sends,
        ingress,
        // Set by the link stage, no places.
        test_input: _,
    } = facts;
    for s in ingress.spans_mut() {
        *s = f(*s);
    }
    for u in csharp.iter_mut().flat_map(|c| c.pipeline_uses.iter_mut()) {
        u.at = f(u.at);
        let run = f(Span::new(u.start, u.end));
        (u.start, u.end) = (run.start, run.end);
        for r in &mut u.also {
            let run = f(Span::new(r.0, r.1));
            *r = (run.start, run.end);
        }
        for k in &mut u.keys {
            k.span = f(k.span);
        }
    }
    for p in &mut ingress.pending {
        if let Some(c) = &mut p.contour {
            remap_policy(c, f);
        }
    }
    for b in broker_settings {
        b.span = f(b.span);
    }
    for d in delayed_sends {
        d.span = f(d.span);
    }
    for r in route_paths.iter_mut().chain(client_paths.iter_mut()) {
        r.span = f(r.span);
    }
    for o in named_options {
        o.span = f(o.span);
        remap_policy(&mut o.settings, f);
    }
    for e in embedded_configs {
        e.span = f(e.span);
    }
    for d in go_dials_through {
        d.span = f(d.span);
    }
    for a in aws_shared {
        for s in [
            a.mode.as_mut().map(|m| &mut m.span),
            a.attempts.as_mut().map(|m| &mut m.span),
            a.profile.as_mut().map(|m| &mut m.span),
        ]
        .into_iter()
        .flatten()
        {
            *s = f(*s);
        }
    }
    for b in breakers {
        b.settings.span = f(b.settings.span);
    }
    for p in protections {
        p.span = f(p.span);
    }
    for l in loops_not_taken {
        l.span = f(l.span);
    }
    for s in loops_into_file {
        *s = f(*s);
    }
    for p in policies.iter_mut().chain(mesh_defaults.iter_mut()) {
        remap_policy(p, f);
    }
    for t in timeouts {
        t.timeout.span = f(t.timeout.span);
    }
    for e in edges {
        e.span = f(e.span);
    }
    for u in unresolved {
        u.span = f(u.span);
    }
    for g in gateway_classes {
        g.span = f(g.span);
    }
    for s in services {
        s.span = f(s.span);
        for h in &mut s.placement.mesh {
            h.span = f(h.span);
        }
        if let Some((_, span)) = &mut s.placement.gateway_class {
            *span = f(*span);
        }
        if let Some((_, span)) = &mut s.placement.waypoint {
            *span = f(*span);
        }
        if let Some(t) = &mut s.request_timeout {
            t.span = f(t.span);
        }
    }
    for n in namespaces {
        n.span = f(n.span);
        for h in &mut n.mesh {
            h.span = f(h.span);
        }
        if let Some(span) = &mut n.ambient {
            *span = f(*span);
        }
        if let Some((_, span)) = &mut n.waypoint {
            *span = f(*span);
        }
    }
    for d in diagnostics {
        remap_diagnostic(d, f);
    }
    for i in includes {
        i.span = f(i.span);
        for d in &mut i.inherited {
            d.span = f(d.span);
        }
    }
    for d in top_level {
        d.span = f(d.span);
    }
    remap_rust(rust, f);
    for c in &mut java.client_interfaces {
        c.span = f(c.span);
    }
    for c in &mut java.client_uses {
        c.span = f(c.span);
        for t in &mut c.targets {
            *t = f(*t);
        }
    }
    for r in &mut java.interval_refs {
        r.span = f(r.span);
    }
    for b in &mut java.client_beans {
        b.span = f(b.span);
    }
    for b in &mut java.bound_beans {
        b.span = f(b.span);
    }
    for c in &mut java.server_delay_classes {
        c.span = f(c.span);
    }
    for u in &mut java.annotation_uses {
        u.span = f(u.span);
        for k in &mut u.keys {
            k.span = f(k.span);
        }
    }
    for v in versioned {
        for c in v.older.iter_mut().chain(v.newer.iter_mut()) {
            match c {
                crate::model::versions::Change::Attempts { span, attempts, .. } => {
                    *span = f(*span);
                    attempts.span = f(attempts.span);
                }
                crate::model::versions::Change::Delay { span, delay, .. } => {
                    *span = f(*span);
                    delay.span = f(delay.span);
                }
                crate::model::versions::Change::Drop { span, .. } => *span = f(*span),
                crate::model::versions::Change::Add { diagnostic } => {
                    remap_diagnostic(diagnostic, f)
                }
            }
        }
    }
}

/// Move every span of one policy with `f` (see [`remap_facts`]).
pub fn remap_policy(p: &mut crate::model::RetryPolicy, f: &impl Fn(Span) -> Span) {
    use crate::model::{BudgetSite, RetryOn, RetryPolicy};
    fn loc<T>(l: &mut crate::model::Located<T>, f: &impl Fn(Span) -> Span) {
        l.span = f(l.span);
    }
    let RetryPolicy {
        system: _,
        kind: _,
        name: _,
        span,
        scope,
        attempts,
        delay,
        jitter,
        cap_order: _,
        per_try_timeout,
        overall_timeout,
        retry_on,
        methods,
        budget,
        idempotency,
        platform_backoff: _,
        // Words, not places.
        why: _,
        ignores,
        wraps_breaker,
        breaker,
        budget_site,
        // Places in other files.
        settings_from: _,
        use_of: _,
        config_section: _,
        server_delay,
        // A place in another file, or none.
        redelivery: _,
        blind,
        first_at_once: _,
    } = p;
    if let Some(d) = server_delay {
        loc(d, f);
    }
    if let Some(b) = blind {
        loc(b, f);
    }
    *span = f(*span);
    loc(attempts, f);
    loc(delay, f);
    loc(jitter, f);
    loc(retry_on, f);
    loc(methods, f);
    if let RetryOn::Listed { conditions } = &mut retry_on.value {
        for c in conditions {
            loc(c, f);
        }
    }
    for t in [per_try_timeout, overall_timeout].into_iter().flatten() {
        loc(t, f);
    }
    if let Some(b) = budget {
        loc(b, f);
    }
    if let Some(c) = &mut scope.callee {
        loc(c, f);
    }
    if let BudgetSite::Block { span, .. } = budget_site {
        *span = f(*span);
    }
    for k in idempotency {
        k.span = f(k.span);
    }
    for c in ignores {
        loc(c, f);
    }
    for s in wraps_breaker {
        *s = f(*s);
    }
    if let Some(s) = breaker.as_mut().and_then(|b| b.settings.as_mut()) {
        s.span = f(s.span);
    }
}

fn remap_diagnostic(d: &mut crate::diag::Diagnostic, f: &impl Fn(Span) -> Span) {
    d.span = f(d.span);
    for r in &mut d.related {
        r.0 = f(r.0);
    }
    // A fix inside an embedded document is kept only where the text maps
    // byte for byte and the replacement needs no escaping or indenting in
    // the host (one line, no quote or backslash).
    d.fixes.retain_mut(|fix| {
        fix.edits.iter_mut().all(|e| {
            let moved = f(e.span);
            let plain = !e.replacement.contains(['\n', '\r', '"', '\'', '\\']);
            let kept = moved.len() == e.span.len() && plain;
            e.span = moved;
            kept
        })
    });
}

fn remap_rust(r: &mut crate::model::rust_macros::RustFacts, f: &impl Fn(Span) -> Span) {
    use crate::model::rust_macros::{AttemptsT, DelayT, MacroArm};
    for def in &mut r.macro_defs {
        def.span = f(def.span);
        for arm in &mut def.arms {
            match arm {
                MacroArm::Loop { body, .. } => {
                    body.span = f(body.span);
                    match &mut body.attempts {
                        AttemptsT::Count { span, .. }
                        | AttemptsT::Unbounded { span }
                        | AttemptsT::Unknown { span } => *span = f(*span),
                    }
                    match &mut body.delay {
                        DelayT::None => {}
                        DelayT::Fixed { span, .. }
                        | DelayT::Exponential { span, .. }
                        | DelayT::Custom { span } => *span = f(*span),
                    }
                    for (_, _, at) in &mut body.statuses {
                        *at = f(*at);
                    }
                }
                MacroArm::Forward { args, .. } => {
                    for a in args {
                        a.span = f(a.span);
                    }
                }
                MacroArm::Other { .. } => {}
            }
        }
    }
    for call in &mut r.macro_calls {
        call.span = f(call.span);
        for a in &mut call.args {
            a.span = f(a.span);
        }
    }
}

/// Report every key of `map` that is not in `known` (RL901, with a
/// did-you-mean). `what` names the block for the message.
pub fn check_yaml_keys(map: yaml::Yaml<'_>, known: &[&str], what: &str, facts: &mut Facts) {
    for e in map.entries() {
        if !known.contains(&e.key) {
            facts
                .diagnostics
                .push(crate::diag::unknown_setting::unknown_key(
                    e.key_span,
                    e.key,
                    what,
                    known.iter().copied(),
                ));
        }
    }
}

/// Parse a Go-style duration value, reporting RL902 when it does not parse.
pub fn go_duration(v: yaml::Yaml<'_>, key: &str, facts: &mut Facts) -> Option<std::time::Duration> {
    let text = v.as_str().unwrap_or("");
    match crate::duration::parse_go(text) {
        Ok(d) => Some(d),
        Err(e) => {
            facts
                .diagnostics
                .push(crate::diag::invalid_setting::value(v.span(), key, text, &e));
            None
        }
    }
}

pub use crate::model::calls::short_host;

/// The folders of real and fixture files the readers' whole-corpus tests
/// read: `testdata`, and `../shared/corpus` (or `$RETRYLINT_SHARED/corpus`)
/// where it is present.
#[cfg(test)]
pub(crate) fn fixture_roots() -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut roots = vec![PathBuf::from("testdata")];
    let shared = std::env::var_os("RETRYLINT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared"));
    if shared.join("corpus").is_dir() {
        roots.push(shared.join("corpus"));
    } else {
        println!("../shared is absent: checked on testdata only");
    }
    roots
}

#[cfg(test)]
mod template_regions_tests {
    use super::{Span, memmem, template_regions};

    /// The byte-by-byte scan `template_regions` replaced.
    fn every_byte(text: &str) -> Vec<Span> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i + 1 < b.len() {
            if b[i] == b'{' && b[i + 1] == b'{' {
                if let Some(end) = memmem::find(&b[i + 2..], b"}}") {
                    out.push(Span::new(i, i + 2 + end + 2));
                    i += 2 + end + 2;
                    continue;
                }
                break;
            }
            if b[i] == b'#' && b[i + 1] == b'{' {
                let rest = &b[i + 2..];
                let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                if let Some(end) = memchr::memchr(b'}', &rest[..line_end]) {
                    out.push(Span::new(i, i + 2 + end + 1));
                    i += 2 + end + 1;
                    continue;
                }
            }
            i += 1;
        }
        out
    }

    #[test]
    fn the_same_regions_as_a_scan_of_every_byte() {
        let mut texts: Vec<String> = [
            "",
            "{",
            "{{",
            "{{}}",
            "a {{ .Values.x }} b {{ y }}",
            "#{x}",
            "#{x\n}",
            "{#{a}}",
            "{{{a}}}",
            "x{{",
            "##{{a}}",
            "#{",
            "a: {b: {c: 1}}\n#{tok} {{ z",
            "{{ a }}}}#{b}{",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut todo = vec![std::path::PathBuf::from("testdata")];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    todo.push(p);
                } else if let Ok(t) = std::fs::read_to_string(&p) {
                    texts.push(t);
                }
            }
        }
        assert!(texts.len() > 100);
        for t in &texts {
            assert_eq!(template_regions(t), every_byte(t), "{t}");
        }
    }
}
