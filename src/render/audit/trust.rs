//! What the numbers rest on, for the first screen: the assumptions the
//! graph made (mesh membership and the file that implies it, deployment
//! variants, defaults nobody wrote) and what the scan did not read
//! (languages, test code, unresolved call targets, files too large or
//! binary). Also which findings rest on an assumption, so that "Fix first"
//! can hold them back.

use super::{Assumption, Builder, DefaultGroup, NotRead};
use crate::graph::{Loc, MeshEvidence};
use crate::rules::Finding;
use std::collections::{BTreeMap, BTreeSet};

/// How many example places a "not read" line names.
const EXAMPLES: usize = 6;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Builder<'_> {
    /// Every place whose retries exist in the graph only because a mesh
    /// sidecar is assumed: the calls and the layers on them.
    pub(super) fn assumed_places(&self) -> BTreeSet<(usize, usize, usize)> {
        let key = |l: Loc| (l.file, l.span.start, l.span.end);
        let mut out = BTreeSet::new();
        for e in &self.graph.edges {
            let Some(m) = e.mesh.as_ref().filter(|m| m.how == MeshEvidence::Assumed) else {
                continue;
            };
            out.insert(key(e.proof));
            for l in e.layers.iter().filter(|l| l.system == m.mesh) {
                out.insert(key(l.loc));
            }
        }
        out
    }

    /// For each call and layer on a worst path, the most attempts of the
    /// worst paths through it: how bad a finding that points there is.
    pub(super) fn path_weights(&self) -> BTreeMap<(usize, usize, usize), u64> {
        let g = self.graph;
        let key = |l: Loc| (l.file, l.span.start, l.span.end);
        let mut out: BTreeMap<(usize, usize, usize), u64> = BTreeMap::new();
        for p in g.worst_paths() {
            for &e in &p.edges {
                let edge = &g.edges[e];
                for k in std::iter::once(edge.proof)
                    .chain(edge.layers.iter().map(|l| l.loc))
                    .map(key)
                {
                    let w = out.entry(k).or_default();
                    *w = (*w).max(p.attempts);
                }
            }
        }
        out
    }

    /// Whether a finding over the graph points at a call or layer that
    /// exists only by assumption. A finding on one policy (its attempts
    /// overrun its own timeout) holds whoever runs the policy.
    pub(super) fn rests_on_assumption(
        &self,
        f: &Finding,
        assumed: &BTreeSet<(usize, usize, usize)>,
    ) -> bool {
        matches!(f.rule.check, crate::rules::Check::Graph(_))
            && std::iter::once((f.file, f.span))
                .chain(f.related.iter().map(|r| (r.file, r.span)))
                .any(|(file, s)| assumed.contains(&(file, s.start, s.end)))
    }

    pub(super) fn assumptions(&self, defaults: &[DefaultGroup]) -> Vec<Assumption> {
        let g = self.graph;
        // (evidence, mesh, file of the evidence for an assumption) ->
        // (calls, callers, first place)
        type Key = (MeshEvidence, String, Option<usize>);
        let mut mesh: BTreeMap<Key, (usize, BTreeSet<usize>, Loc)> = BTreeMap::new();
        let mut variants: BTreeMap<String, (usize, BTreeSet<usize>)> = BTreeMap::new();
        for e in &g.edges {
            let Some(m) = &e.mesh else { continue };
            let file = (m.how == MeshEvidence::Assumed).then_some(m.loc.file);
            let entry =
                mesh.entry((m.how, m.mesh.label(), file))
                    .or_insert((0, BTreeSet::new(), m.loc));
            entry.0 += 1;
            entry.1.insert(e.from);
            if let Some(v) = &m.variant {
                let entry = variants.entry(v.clone()).or_default();
                entry.0 += 1;
                entry.1.insert(e.from);
            }
        }
        let mut out = Vec::new();
        for ((how, mesh_name, _), (calls, callers, loc)) in mesh {
            let who = format!(
                "{} from {}",
                plural(calls, "call", "calls"),
                plural(callers.len(), "service", "services")
            );
            let source = self.source(loc);
            let what = match how {
                MeshEvidence::Assumed => format!(
                    "{who} are assumed to go through {mesh_name} sidecars: `{}` declares {mesh_name} resources and no injection label or annotation says whether the callers run in the mesh",
                    source.as_ref().map(|s| s.file.clone()).unwrap_or_default()
                ),
                MeshEvidence::Workload => format!(
                    "{who} go through {mesh_name} sidecars: their workloads ask for injection"
                ),
                MeshEvidence::Namespace => {
                    format!("{who} go through {mesh_name} sidecars: their namespaces inject")
                }
                MeshEvidence::Configured => format!(
                    "{who} go through {mesh_name} sidecars: `mesh = \"{}\"` in the configuration",
                    mesh_name.to_lowercase()
                ),
                MeshEvidence::Ambient => format!(
                    "{who} run in {mesh_name}'s ambient mode (their namespaces say so): no sidecar, only the callees' waypoints retry"
                ),
            };
            out.push(Assumption {
                what,
                calls,
                source,
            });
        }
        for (v, (calls, callers)) in variants {
            out.push(Assumption {
                what: format!(
                    "workloads are deployed in more than one variant; {} from {} are placed in `{}`",
                    plural(calls, "call", "calls"),
                    plural(callers.len(), "service", "services"),
                    self.text(&v)
                ),
                calls,
                source: None,
            });
        }
        out.extend(self.version_guesses());
        for d in defaults {
            let calls: BTreeSet<&String> = d.entries.iter().flat_map(|e| &e.applies_to).collect();
            out.push(Assumption {
                what: format!(
                    "{}: retries nobody wrote (its defaults) apply on {} (see Implicit defaults)",
                    d.system,
                    plural(calls.len(), "call or route", "calls or routes"),
                ),
                calls: calls.len(),
                source: None,
            });
        }
        out
    }

    /// Files read without knowing their library's version, one line per
    /// library and version boundary.
    fn version_guesses(&self) -> Vec<Assumption> {
        let mut by: BTreeMap<(String, String), Vec<crate::versions::Guess>> = BTreeMap::new();
        for g in crate::versions::guesses(&self.scan.files) {
            by.entry((g.library.label().to_string(), g.since.to_string()))
                .or_default()
                .push(g);
        }
        by.into_iter()
            .map(|((library, since), guesses)| {
                let files: BTreeSet<usize> = guesses.iter().map(|g| g.file).collect();
                let from: BTreeSet<&str> =
                    guesses.iter().filter_map(|g| g.from.as_deref()).collect();
                let told = match from.iter().next() {
                    Some(b) => format!(
                        "`{}` names it without a version that decides",
                        self.text(b)
                    ),
                    None => "no scanned build file tells it".to_string(),
                };
                let first = files.iter().next().copied().unwrap_or_default();
                Assumption {
                    what: format!(
                        "{} read without knowing whether {library} is before or from `{since}` ({told}): where the versions read their settings differently, the reading is a guess (a build file with the version decides it)",
                        plural(files.len(), "file is", "files are"),
                    ),
                    calls: files.len(),
                    source: self.source(Loc {
                        file: first,
                        span: Default::default(),
                    }),
                }
            })
            .collect()
    }

    pub(super) fn not_read(&self) -> Vec<NotRead> {
        let stats = &self.scan.stats;
        let mut out = Vec::new();
        if !stats.unread.is_empty() {
            let mut all: Vec<String> = stats
                .unread
                .by_language
                .values()
                .flatten()
                .map(|p| self.paths.file(p))
                .collect();
            all.sort();
            out.push(NotRead {
                what: format!(
                    "{} in languages retrylint does not read mention retries, timeouts or calls ({}); their settings and calls are not checked",
                    plural(stats.unread.count(), "file", "files"),
                    stats.unread.tally()
                ),
                examples: all.into_iter().take(EXAMPLES).collect(),
            });
        }
        if !stats.unresolved.is_empty() {
            out.push(NotRead {
                what: format!(
                    "{} not written where the call is made (placeholders, environment variables): those calls are not in the graph",
                    plural(stats.unresolved.len(), "call target", "call targets")
                ),
                examples: stats
                    .unresolved
                    .iter()
                    .take(EXAMPLES)
                    .map(|(at, written, caller)| match caller {
                        Some(c) => format!("{}: {} (called by `{c}`)", self.text(at), written),
                        None => format!("{}: {}", self.text(at), written),
                    })
                    .collect(),
            });
        }
        let mut templated: Vec<String> = self
            .scan
            .files
            .iter()
            .filter(|f| {
                f.facts
                    .diagnostics
                    .iter()
                    .any(crate::diag::unparsable_file::is_templated)
            })
            .map(|f| self.paths.file(&f.source.display_path()))
            .collect();
        if !templated.is_empty() {
            templated.sort();
            out.push(NotRead {
                what: format!(
                    "{} read in part: their template expressions were not rendered, so what they set there is not checked (RL903 names each)",
                    plural(templated.len(), "templated file", "templated files")
                ),
                examples: templated.into_iter().take(EXAMPLES).collect(),
            });
        }
        for (n, what, key) in [
            (stats.test_files, "test code", "test-code"),
            (stats.generated_files, "generated code", "generated-code"),
        ] {
            if n > 0 {
                out.push(NotRead {
                    what: format!(
                        "{} skipped as {what} (`{key} = \"read\"` reads them)",
                        plural(n, "source file", "source files")
                    ),
                    examples: Vec::new(),
                });
            }
        }
        if stats.oversized + stats.binary > 0 {
            out.push(NotRead {
                what: format!(
                    "{} too large or not text",
                    plural(stats.oversized + stats.binary, "file", "files")
                ),
                examples: Vec::new(),
            });
        }
        out
    }
}
