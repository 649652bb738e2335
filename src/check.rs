//! Run every rule over a scan and its call graph (built once, by
//! [`crate::pipeline`]), with duplicate removal and a stable order. Which
//! rules a run reports, and at what severity, is decided after the
//! suppression pass, by [`crate::report`].

use crate::config::Settings;
use crate::graph::{Graph, GraphCtx};
use crate::rules::{self, Category, Check, Emitter, Finding, PolicyCtx, Related};
use crate::{
    Notice, Scan, guard,
    source::{FileId, SourceFile},
};
use rayon::prelude::*;

/// What the rules found, and the internal-error notices of the rules (or
/// the graph) that panicked or overran their time budget: each is
/// isolated, and the others still report.
#[derive(Debug, Default)]
pub struct Checked {
    pub findings: Vec<Finding>,
    pub notices: Vec<Notice>,
}

/// The internal-error notice of a rule stopped on a file (or on the
/// whole scan when `path` is `None`).
fn rule_notice(rule: &rules::Rule, path: Option<String>, stop: &guard::Stop) -> Notice {
    let place = if path.is_some() {
        "on this file"
    } else {
        "over the scan"
    };
    Notice {
        path,
        message: format!(
            "internal error: rule {} {} {place}; its other findings stand",
            rule.code,
            stop.describe()
        ),
        internal: true,
    }
}

/// Every finding of every rule, sorted by file, position and code, with
/// the notices of the rules that stopped. The graph rules run when there
/// is a `graph` (`None`: its stage stopped, and said so).
pub fn run(scan: &Scan, settings: &Settings, graph: Option<&Graph>) -> Checked {
    run_for(scan, settings, graph, None)
}

/// [`run`] for a run that reports only the files `reported` marks (by
/// file id; `None`: all): every rule still runs over every file (the
/// findings elsewhere are counted), but the fixes of findings that are
/// not reported are neither made ([`PolicyCtx::reported`]) nor checked
/// against the quoted strings of their files (each such file's YAML
/// parsed again: a tenth of a one-file run).
pub fn run_for(
    scan: &Scan,
    settings: &Settings,
    graph: Option<&Graph>,
    reported: Option<&[bool]>,
) -> Checked {
    with_graph(
        per_file(scan, settings, reported),
        scan,
        settings,
        graph,
        reported,
    )
}

/// What the rules that read one file at a time found (the extractors'
/// diagnostics and the policy rules), with the quoted strings of the
/// files their fixes touch: none of it needs the call graph, so
/// [`crate::pipeline`] makes it while the graph is built.
#[derive(Debug, Default)]
pub struct PerFile {
    findings: Vec<Finding>,
    notices: Vec<Notice>,
    quoted: Quotes,
}

/// Each file's quoted scalars ([`quoted_scalars`]), for the files a
/// reported fix touches.
type Quotes = std::collections::HashMap<FileId, Vec<Quoted>>;

/// The first half of [`run_for`]: every rule that reads one file at a
/// time, on every core.
pub fn per_file(scan: &Scan, settings: &Settings, reported: Option<&[bool]>) -> PerFile {
    let enabled: Vec<&'static rules::Rule> = rules::RULES.iter().collect();
    // Files by the path findings show, to point at settings another file
    // hands a policy (nginx includes, ingress ConfigMaps, Resilience4j
    // instances).
    let by_path: std::collections::HashMap<String, FileId> = if scan
        .files
        .iter()
        .any(|f| f.facts.policies.iter().any(|p| !p.settings_from.is_empty()))
    {
        scan.files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.source.display_path(), i))
            .collect()
    } else {
        Default::default()
    };
    let per_file: Vec<(Vec<Finding>, Vec<Notice>)> = scan
        .files
        .par_iter()
        .enumerate()
        .map(|(id, f)| {
            let mut out = Vec::new();
            let mut notes = Vec::new();
            // The configuration nearest the file (nested projects).
            let settings = settings.for_path(&f.source.path);
            for d in &f.facts.diagnostics {
                let rule = d.code.rule();
                let mut finding = Finding::new(rule, id, d.span, d.message.clone(), d.help.clone());
                if let Some(s) = d.severity {
                    finding.severity = s;
                }
                finding.fixes = d.fixes.iter().map(|f| f.clone().in_file(id)).collect();
                finding.related = d
                    .related
                    .iter()
                    .map(|(span, message)| Related {
                        file: id,
                        span: *span,
                        message: message.clone(),
                    })
                    .collect();
                out.push(finding);
            }
            for policy in &f.facts.policies {
                let ctx = PolicyCtx {
                    policy,
                    file: &f.source,
                    facts: &f.facts,
                    settings,
                    reported: reported.is_none_or(|r| r.get(id).is_none_or(|&r| r)),
                };
                let before = out.len();
                for rule in &enabled {
                    // A use of a retry declared elsewhere: its settings
                    // are judged at the declaration.
                    if policy.use_of.is_some() && rule.category != Category::Idempotency {
                        continue;
                    }
                    if let Check::Policy(run) = rule.check {
                        let mark = out.len();
                        let mut e = Emitter {
                            rule,
                            file: id,
                            out: &mut out,
                        };
                        let ran = guard::run(guard::budget(guard::FILE_BUDGET), || {
                            guard::inject(&format!("rule:{}", rule.code));
                            run(&ctx, &mut e)
                        });
                        if let Err(stop) = ran {
                            out.truncate(mark);
                            notes.push(rule_notice(rule, Some(f.source.display_path()), &stop));
                        }
                    }
                }
                let places: Vec<Related> = policy
                    .settings_from
                    .iter()
                    .filter_map(|place| setting_place(scan, &by_path, place))
                    .collect();
                for finding in &mut out[before..] {
                    finding.related.extend(places.iter().cloned());
                }
            }
            (out, notes)
        })
        .collect();
    let mut findings = Vec::new();
    let mut notices = Vec::new();
    for (out, notes) in per_file {
        findings.extend(out);
        notices.extend(notes);
    }
    let mut quoted = Quotes::default();
    add_quoted(&mut quoted, &findings, scan, reported);
    PerFile {
        findings,
        notices,
        quoted,
    }
}

/// The second half of [`run_for`]: the graph rules over `graph`, then
/// the fixes checked against quoted strings, sorted and deduplicated.
pub fn with_graph(
    per_file: PerFile,
    scan: &Scan,
    settings: &Settings,
    graph: Option<&Graph>,
    reported: Option<&[bool]>,
) -> Checked {
    let enabled: Vec<&'static rules::Rule> = rules::RULES.iter().collect();
    let PerFile {
        mut findings,
        mut notices,
        mut quoted,
    } = per_file;
    if let Some(graph) = graph {
        let ctx = GraphCtx {
            files: &scan.files,
            settings,
            graph,
        };
        for rule in &enabled {
            if let Check::Graph(run) = rule.check {
                let mut out = Vec::new();
                let ran = guard::run(guard::budget(guard::STAGE_BUDGET), || {
                    guard::inject(&format!("rule:{}", rule.code));
                    run(&ctx, &mut Emitter::scan_wide(rule, &mut out))
                });
                if let Err(stop) = ran {
                    notices.push(rule_notice(rule, None, &stop));
                    continue;
                }
                findings.extend(out);
            }
        }
    }
    notices.sort();
    notices.dedup();
    add_quoted(&mut quoted, &findings, scan, reported);
    quoted_fixes(&mut findings, &quoted, reported);
    sort_and_dedup(&mut findings, scan);
    Checked { findings, notices }
}

/// A quoted scalar on one line of a YAML or JSON file: its span (quotes
/// included), its quote, and where each byte of its value is in the file
/// (`None`: folded, no byte-exact place).
type Quoted = (crate::source::Span, u8, Option<Vec<usize>>);

/// The quoted scalars of a YAML or JSON file's values (none for other
/// formats), within a budget of nodes.
fn quoted_scalars(file: &SourceFile) -> Vec<Quoted> {
    let ext = file.path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(ext, "yaml" | "yml" | "json") {
        return Vec::new();
    }
    let text = &file.text;
    let parsed = crate::yaml::parse(text);
    let mut out = Vec::new();
    let mut budget = 100_000usize;
    for doc in &parsed.documents {
        let mut stack = vec![parsed.root(doc)];
        while let Some(node) = stack.pop() {
            if budget == 0 {
                return out;
            }
            budget -= 1;
            if let Some(v) = node.as_str() {
                let span = node.span();
                if let Some(q @ (b'"' | b'\'')) = text.as_bytes().get(span.start)
                    && node.is_quoted()
                {
                    out.push((
                        span,
                        *q,
                        crate::yaml::quoted::offsets(text, span.start, *q, v),
                    ));
                }
                continue;
            }
            stack.extend(node.entries().into_iter().map(|e| e.value));
            stack.extend(node.items());
        }
    }
    out
}

/// Add to `quoted` the quoted scalars of each file a reported fix of
/// `findings` touches and `quoted` lacks: each file parsed once, on every
/// core (a YAML parse each: most of the fix checks on a tree of many
/// fixable files).
fn add_quoted(quoted: &mut Quotes, findings: &[Finding], scan: &Scan, reported: Option<&[bool]>) {
    let reported = |f: &Finding| reported.is_none_or(|r| r.get(f.file).is_none_or(|&r| r));
    let ids: std::collections::BTreeSet<FileId> = findings
        .iter()
        .filter(|f| !f.fixes.is_empty() && reported(f))
        .flat_map(|f| {
            let edits = f.fixes.iter().flat_map(|x| x.edits.iter().map(|e| e.file));
            edits.chain(std::iter::once(f.file))
        })
        .filter(|&id| id < scan.files.len() && !quoted.contains_key(&id))
        .collect();
    let more: Vec<(FileId, Vec<Quoted>)> = ids
        .into_par_iter()
        .map(|id| (id, quoted_scalars(scan.file(id))))
        .collect();
    quoted.extend(more);
}

/// Fixes made inside a configuration carried in a quoted string
/// (`GRPC_SERVICE_CONFIG: "{\"methodConfig\": ...}"`): an edit inside the
/// string is written as the string is escaped (`\"` in a double-quoted
/// one, `''` in a single-quoted one); a fix that would add a line to it,
/// cut across it, land where its escapes or folded lines leave no exact
/// place, or be written outside the string that holds the setting is not
/// offered, and the finding says why.
fn quoted_fixes(findings: &mut [Finding], strings: &Quotes, reported: Option<&[bool]>) {
    let reported = |f: &Finding| reported.is_none_or(|r| r.get(f.file).is_none_or(|&r| r));
    for f in findings
        .iter_mut()
        .filter(|f| !f.fixes.is_empty() && reported(f))
    {
        // The string the finding's setting is read from, where it is
        // inside one (not a whole quoted key or value).
        let holder = strings.get(&f.file).and_then(|qs| {
            qs.iter().find(|(q, ..)| {
                q.start <= f.span.start
                    && f.span.start < q.end
                    && !(f.span.start <= q.start + 1 && f.span.end + 1 >= q.end)
            })
        });
        let holder = holder.map(|(q, ..)| *q);
        let mut refused: Option<(FileId, crate::source::Span, &str)> = None;
        f.fixes.retain_mut(|fix| {
            for e in &mut fix.edits {
                let quoted = strings.get(&e.file).map(Vec::as_slice).unwrap_or(&[]);
                let inside = quoted.iter().find(|(q, ..)| {
                    let touches = if e.span.start == e.span.end {
                        q.start < e.span.start && e.span.start < q.end
                    } else {
                        e.span.start < q.end && e.span.end > q.start
                    };
                    let covers = e.span.start <= q.start && e.span.end >= q.end;
                    touches && !covers
                });
                let why = match inside {
                    Some((q, quote, offsets)) => {
                        let within = q.start < e.span.start && e.span.end < q.end;
                        let exact = offsets.as_ref().is_some_and(|o| {
                            o.binary_search(&e.span.start).is_ok() && o.binary_search(&e.span.end).is_ok()
                        });
                        if !within {
                            Some((*q, "the fix would cut across the quoted string the setting is written in"))
                        } else if !exact {
                            Some((*q, "the setting is in a quoted string whose folded lines leave no exact place for the fix"))
                        } else {
                            match crate::yaml::quoted::escape(&e.replacement, *quote) {
                                Some(escaped) => {
                                    e.replacement = escaped;
                                    None
                                }
                                None => Some((*q, "the fix adds a line, and the setting is in a one-line quoted string")),
                            }
                        }
                    }
                    None => holder
                        .filter(|h| e.file == f.file && !(h.start < e.span.start && e.span.end < h.end))
                        .map(|h| (h, "the setting is in a quoted string, and the fix would be written outside it")),
                };
                if let Some((span, w)) = why {
                    refused.get_or_insert((e.file, span, w));
                    return false;
                }
            }
            true
        });
        if let Some((file, span, why)) = refused
            && f.fixes.is_empty()
        {
            f.related.push(Related {
                file,
                span,
                message: format!("no fix offered: {why}; edit it by hand"),
            });
        }
    }
}

/// Sort by path, position and code; drop findings of one rule at one span
/// (one inherited value reported for each instance that inherits it).
pub fn sort_and_dedup(findings: &mut Vec<Finding>, scan: &Scan) {
    // Each file's place among the paths of the files with findings (equal
    // paths, equal places), so that comparing two findings' paths is
    // comparing two numbers, not two paths component by component.
    let mut files: Vec<FileId> = findings.iter().map(|f| f.file).collect();
    files.sort_unstable();
    files.dedup();
    files.sort_by_cached_key(|&f| crate::discover::path_key(&scan.file(f).path));
    let mut place = vec![0usize; scan.files.len()];
    for (i, f) in files.iter().enumerate() {
        let same = i > 0 && scan.file(files[i - 1]).path == scan.file(*f).path;
        place[*f] = if same { place[files[i - 1]] } else { i };
    }
    findings.sort_by(|a, b| {
        place[a.file]
            .cmp(&place[b.file])
            .then(a.span.start.cmp(&b.span.start))
            .then(a.rule.code.cmp(b.rule.code))
            .then(a.span.end.cmp(&b.span.end))
            .then(a.message.cmp(&b.message))
    });
    // One rule at one place is one finding. Another message there (a
    // template line rendered for each entry of a `range`, or with each
    // values variant: `orders` with `values-prod.yaml`, with
    // `values-canary.yaml`) is kept as a related location of the first,
    // as the grouped output keeps a cause's other places, so a variant
    // whose values differ is not lost.
    findings.dedup_by(|b, a| {
        let same = a.file == b.file && a.span == b.span && std::ptr::eq(a.rule, b.rule);
        if same
            && a.message != b.message
            && !a.related.iter().any(|r| r.message.ends_with(&b.message))
        {
            let lead = if rules::cause(&a.message, &a.help) == rules::cause(&b.message, &b.help) {
                "the same cause here"
            } else {
                "also here"
            };
            a.related.push(Related {
                file: b.file,
                span: b.span,
                message: format!("{lead}: {}", b.message),
            });
        }
        same
    });
}

/// A fingerprint that survives lines inserted above a finding: the rule,
/// the file, the finding's own line text (whitespace collapsed) and its
/// position among findings with the same three.
///
/// The file is named relative to the repository root (the nearest folder
/// holding `.git` above the scan's working directory, [`Scan::cwd`]), so
/// that a baseline written from one folder matches a run from another.
pub fn fingerprints(findings: &[Finding], scan: &Scan) -> Vec<String> {
    let mut seen: std::collections::HashMap<u64, u32> = Default::default();
    let cwd = scan.cwd.clone();
    let root = cwd.as_deref().and_then(crate::config_file::repo_root);
    let mut names: std::collections::HashMap<usize, String> = Default::default();
    for f in findings {
        names.entry(f.file).or_insert_with(|| {
            repo_relative(&scan.file(f.file).path, cwd.as_deref(), root.as_deref())
        });
    }
    // Each finding's hash on every core; the count of equal ones after, in
    // order.
    let bases: Vec<u64> = findings
        .par_iter()
        .map(|f| {
            let (file, name) = (scan.file(f.file), &names[&f.file]);
            xxhash_rust::xxh3::xxh3_64(
                format!("{}\0{}\0{}", f.rule.code, name, context(file, f.span)).as_bytes(),
            )
        })
        .collect();
    bases
        .into_iter()
        .map(|base| {
            let n = seen.entry(base).or_insert(0);
            *n += 1;
            let full = xxhash_rust::xxh3::xxh3_64(format!("{base:016x}:{n}").as_bytes());
            format!("{full:016x}")
        })
        .collect()
}

/// `path` (as shown, relative to `cwd`) relative to the repository root,
/// `/`-separated; as shown when it lies outside the root.
fn repo_relative(
    path: &std::path::Path,
    cwd: Option<&std::path::Path>,
    root: Option<&std::path::Path>,
) -> String {
    let (Some(cwd), Some(root)) = (cwd, root) else {
        return crate::source::display_path(path);
    };
    let mut abs = std::path::PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            std::path::Component::ParentDir => {
                abs.pop();
            }
            std::path::Component::CurDir => {}
            other => abs.push(other),
        }
    }
    match abs.strip_prefix(root) {
        Ok(rel) => crate::source::display_path(rel),
        Err(_) => crate::source::display_path(path),
    }
}

/// The line `path:line` names, as a related location of a finding about a
/// policy that takes the setting written there.
fn setting_place(
    scan: &Scan,
    by_path: &std::collections::HashMap<String, FileId>,
    place: &crate::model::SettingPlace,
) -> Option<Related> {
    let line = place.line;
    let &file = by_path.get(&place.path)?;
    let source = &scan.files.get(file)?.source;
    let index = source.lines();
    let row = line.checked_sub(1).filter(|&l| l < index.line_count())?;
    let start = index.line_start(row);
    let text = index.line_text(&source.text, row);
    let lead = text.len() - text.trim_start().len();
    Some(Related {
        file,
        span: crate::source::Span::new(start + lead, start + text.trim_end().len()),
        message: "a setting it takes from this file".into(),
    })
}

fn context(file: &SourceFile, span: crate::source::Span) -> String {
    let start = file.lines().line_of(span.start.min(file.text.len()));
    let end = file
        .lines()
        .line_of(span.end.min(file.text.len()).max(span.start));
    let mut out = String::new();
    for l in start..=end.min(start + 3) {
        out.push_str(
            &file
                .lines()
                .line_text(&file.text, l)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        out.push('\n');
    }
    out
}
