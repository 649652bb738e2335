//! What every reader is given, and the helpers readers share: the
//! document context, sniff words, span remapping for embedded text, key
//! checks and durations. The readers themselves live with their system
//! (`crate::systems::<name>`); the workload and build-file readers, which
//! belong to no retry system, live here.

pub mod build;
pub mod workload;

use crate::source::Span;
use crate::yaml::{self, Document, YamlFile};
use memchr::memmem;
use std::path::Path;

pub use crate::model::Facts;

pub use crate::model::Syntax;

/// A YAML-document extractor: claims a document it recognises and adds
/// what it reads to `facts`. Returns whether it claimed the document.
pub type DocExtractor = fn(&DocCtx<'_>, &mut Facts) -> bool;

/// What a document extractor sees.
pub struct DocCtx<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub file: &'a YamlFile,
    pub doc: &'a Document,
    /// Spring properties of other files that this one's placeholders may
    /// refer to (see [`spring_placeholders`]); empty on the first read.
    pub outer: &'a [crate::systems::spring::extract::Prop],
}

impl<'a> DocCtx<'a> {
    pub fn root(&self) -> yaml::Yaml<'a> {
        self.file.root(self.doc)
    }
}

/// A set of words a file is sniffed for, searched in one pass over its
/// bytes (Aho-Corasick; SIMD for short sets), built once per set: most
/// files a walk finds are sniffed and rejected, so this runs on every one
/// of them, warm cache or not.
pub struct Needles(aho_corasick::AhoCorasick);

impl Needles {
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Needles {
        Needles(
            aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(words)
                .expect("a few short literal needles always build"),
        )
    }

    /// Whether `bytes` holds any of the words.
    pub fn any_in(&self, bytes: &[u8]) -> bool {
        self.0.is_match(bytes)
    }
}

/// Template expressions in a file: Helm/Go `{{ ... }}` and `#{...}`
/// (Octopus, Azure DevOps token replacement). Byte ranges, in order.
pub fn template_regions(text: &str) -> Vec<Span> {
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
/// back to the file: line by line, adding the block's indentation.
pub fn embedded_span(file: &str, value: Span, inner: &str, s: Span) -> Span {
    let Some(block) = file.get(value.start..value.end.min(file.len())) else {
        return value;
    };
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

/// Move every span of `facts` with `f` (facts read from text embedded in
/// another file, such as a ConfigMap's value).
pub fn remap_facts(facts: &mut Facts, f: &impl Fn(Span) -> Span) {
    fn loc<T>(l: &mut crate::model::Located<T>, f: &impl Fn(Span) -> Span) {
        l.span = f(l.span);
    }
    for p in &mut facts.policies {
        p.span = f(p.span);
        loc(&mut p.attempts, f);
        loc(&mut p.delay, f);
        loc(&mut p.jitter, f);
        loc(&mut p.retry_on, f);
        loc(&mut p.methods, f);
        if let crate::model::RetryOn::Listed { conditions } = &mut p.retry_on.value {
            for c in conditions {
                loc(c, f);
            }
        }
        for t in [&mut p.per_try_timeout, &mut p.overall_timeout]
            .into_iter()
            .flatten()
        {
            loc(t, f);
        }
        if let Some(b) = &mut p.budget {
            loc(b, f);
        }
        if let Some(c) = &mut p.scope.callee {
            loc(c, f);
        }
        if let crate::model::BudgetSite::Block { span, .. } = &mut p.budget_site {
            *span = f(*span);
        }
        for k in &mut p.idempotency {
            k.span = f(k.span);
        }
    }
    for t in &mut facts.timeouts {
        loc(&mut t.timeout, f);
    }
    for e in &mut facts.edges {
        e.span = f(e.span);
    }
    for s in &mut facts.services {
        s.span = f(s.span);
    }
    for d in &mut facts.diagnostics {
        d.span = f(d.span);
        for r in &mut d.related {
            r.0 = f(r.0);
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
