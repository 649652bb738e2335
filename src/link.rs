//! Link steps that need more than one file: done once, after every file is
//! extracted and before the graph is built.

use crate::model::ScannedFile;
use crate::model::ServiceDecl;
use crate::source::Span;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest `Cargo.toml` read for a package name.
const MAX_MANIFEST: u64 = 1 << 20;

/// Every step that joins what one file says to what others say, in
/// order: the scan runs them after extraction, and the `link` fuzz target
/// runs the same list.
pub fn all(files: &mut [ScannedFile], roots: &[PathBuf]) {
    // Spring placeholders that refer to another `application*` file: the
    // file is read again (first, as later steps build on its facts).
    crate::extract::spring_placeholders::link(files);
    // Which reading of a version-dependent setting holds, from the
    // library versions the build files tell.
    crate::versions::apply(files);
    // Rust retry macros are defined in one file and called in others.
    crate::extract::rust::link_macros(files);
    cargo_identities(files, roots);
    nginx_includes(files, roots);
    ingress_configmaps(files);
    resilience4j_instances(files);
    java_retry_annotations(files);
}

/// Give every Rust file the name of its Cargo package (`[package] name` of
/// `<crate dir>/Cargo.toml`), read once per crate and only inside the
/// scanned roots, as its service identity.
pub fn cargo_identities(files: &mut [ScannedFile], roots: &[PathBuf]) {
    let mut names: BTreeMap<String, Option<String>> = BTreeMap::new();
    for f in files.iter_mut() {
        let Some(dir) = f.facts.rust.crate_dir.clone() else {
            continue;
        };
        let name = names
            .entry(dir.clone())
            .or_insert_with(|| package_name(Path::new(&dir), roots))
            .clone();
        if let Some(name) = name {
            f.facts.services.push(ServiceDecl {
                name,
                span: Span::default(),
                source: "Cargo package".into(),
                hosts: Vec::new(),
            });
        }
    }
}

fn package_name(dir: &Path, roots: &[PathBuf]) -> Option<String> {
    let manifest = dir.join("Cargo.toml");
    if !inside(&manifest, roots) {
        return None;
    }
    let meta = std::fs::symlink_metadata(&manifest).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return None;
    }
    let text = std::fs::read_to_string(&manifest).ok()?;
    let table: toml::Table = text.parse().ok()?;
    table
        .get("package")?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// Whether `rel` below `dir` is a file, found without following any
/// symbolic link: a link on the way may lead out of the scanned roots, so
/// it is taken as "there" (no finding) and never resolved.
fn is_file_or_link(dir: &Path, rel: &str) -> bool {
    let mut cur = dir.to_path_buf();
    let parts: Vec<_> = Path::new(rel).components().collect();
    for (i, c) in parts.iter().enumerate() {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Err(_) => return false,
            Ok(m) if m.file_type().is_symlink() => return true,
            Ok(m) if i + 1 == parts.len() => return m.is_file(),
            Ok(_) => {}
        }
    }
    false
}

/// Whether `path` lies under one of the scanned roots (lexically: no
/// symbolic link is followed to decide).
fn inside(path: &Path, roots: &[PathBuf]) -> bool {
    let norm = |p: &Path| -> PathBuf {
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    };
    // Both absolute: roots are as the command line gave them (absolute
    // from the CLI, maybe relative from the library), paths maybe not.
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let p = norm(&abs(path));
    roots.iter().any(|r| {
        let r = norm(&abs(r));
        r.as_os_str().is_empty() || p.starts_with(&r)
    })
}

/// nginx `include`s, resolved among the scanned files: a plain path that
/// names no file (nginx refuses to start) and an include that comes back to
/// its own file are reported (RL902); a file every nginx installation
/// ships (`mime.types`, `fastcgi_params`) is not looked for. Globs may
/// match nothing, as nginx allows; absolute paths outside the scanned tree (`/etc/nginx/mime.types`)
/// are not looked for. An included file is read again with the retry and
/// timeout settings and the upstreams in force at its `include`
/// ([`inherit_nginx_settings`]).
pub fn nginx_includes(files: &mut [ScannedFile], roots: &[PathBuf]) {
    use crate::diag::invalid_setting;
    let paths: Vec<String> = files.iter().map(|f| f.source.display_path()).collect();
    // file -> files it includes (indices), with the include's span and
    // its index in the file's `includes`.
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); files.len()];
    let mut missing: Vec<(usize, Span, String)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        let dir = Path::new(&paths[id])
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for (k, inc) in f.facts.includes.iter().enumerate() {
            let pattern = inc.pattern.trim();
            if pattern.contains('$') || pattern.is_empty() {
                continue;
            }
            let glob = pattern.contains(['*', '?', '[']);
            // nginx reads a relative path from its configuration folder
            // (the main file's), which a fragment's own folder may be
            // below: this folder first, then each enclosing one inside the
            // scanned roots (which are absolute; shown paths are not).
            let real = std::path::absolute(&dir).unwrap_or_else(|_| dir.clone());
            let folders: Vec<(&Path, &Path)> =
                std::iter::successors(Some(dir.as_path()), |d| d.parent())
                    .zip(std::iter::successors(Some(real.as_path()), |d| d.parent()))
                    .enumerate()
                    .take_while(|(k, (_, r))| *k == 0 || inside(r, roots))
                    .map(|(_, f)| f)
                    .collect();
            let targets: Vec<usize> = if pattern.starts_with('/') {
                // Matched by the part below the nginx folder, if any.
                let tail = pattern.rsplit_once("/nginx/").map_or(pattern, |(_, t)| t);
                matching(&paths, tail, true)
            } else {
                folders
                    .iter()
                    .map(|(d, _)| {
                        matching(
                            &paths,
                            &crate::source::display_path(&d.join(pattern)),
                            false,
                        )
                    })
                    .find(|found| !found.is_empty())
                    .unwrap_or_default()
            };
            if targets.is_empty() && !glob && !pattern.starts_with('/') {
                let somewhere = folders
                    .iter()
                    .any(|(_, r)| inside(&r.join(pattern), roots) && is_file_or_link(r, pattern));
                // A file every nginx installation ships (`mime.types`)
                // is there once the image installs nginx.
                if !somewhere && !crate::extract::nginx::shipped::ships_with_nginx(pattern) {
                    missing.push((id, inc.span, pattern.to_string()));
                }
            }
            for t in targets {
                edges[id].push((t, k));
            }
        }
    }
    inherit_nginx_settings(files, &edges);
    // Where nginx looks for a relative path is known for a main file (one
    // with the `http` block: its folder) and for a file another scanned
    // file includes (the main file's folder, searched above). A fragment
    // scanned without the file that includes it may include from a folder
    // outside the scan: nothing is said of it.
    let mut included = vec![false; files.len()];
    for e in &edges {
        for &(t, ..) in e {
            included[t] = true;
        }
    }
    missing.retain(|(id, ..)| {
        included[*id]
            || files[*id]
                .facts
                .includes
                .iter()
                .any(|i| i.context == "http")
    });
    for (id, span, pattern) in missing {
        files[id].facts.diagnostics.push(invalid_setting::value(
            span,
            "include",
            &pattern,
            "no such file in this folder or the ones above it (nginx reads a relative path from its configuration folder): nginx refuses to start",
        ));
    }
    // An include that leads back to its own file (nginx recurses until it
    // runs out of file descriptors): one whose target is the file itself
    // or in its strongly connected component. Components are found once
    // (Kosaraju, iterative), so a tree of many files that include one
    // another costs linear time; each include is reported once.
    let mut g = petgraph::graph::DiGraph::<(), ()>::with_capacity(files.len(), 0);
    let nodes: Vec<_> = (0..files.len()).map(|_| g.add_node(())).collect();
    for (from, e) in edges.iter().enumerate() {
        for &(to, _) in e {
            g.add_edge(nodes[from], nodes[to], ());
        }
    }
    let mut component = vec![0usize; files.len()];
    let mut cyclic = Vec::new();
    for (i, scc) in petgraph::algo::kosaraju_scc(&g).into_iter().enumerate() {
        cyclic.push(scc.len() > 1);
        for n in scc {
            component[n.index()] = i;
        }
    }
    for start in 0..files.len() {
        let mut reported: Vec<usize> = Vec::new();
        for &(first, k) in &edges[start] {
            let back = first == start
                || (component[first] == component[start] && cyclic[component[start]]);
            if !back || reported.contains(&k) {
                continue;
            }
            reported.push(k);
            let Some(inc) = files[start].facts.includes.get(k) else {
                continue;
            };
            let msg = format!(
                "includes `{}` again, through `{}`: nginx recurses without end",
                paths[start], paths[first]
            );
            let d = invalid_setting::value(inc.span, "include", inc.pattern.trim(), &msg);
            files[start].facts.diagnostics.push(d);
        }
    }
}

/// The ingress-nginx controller ConfigMap applies to every Ingress the
/// controller serves, and usually sits in another file (the controller's
/// manifests, a Helm values render) than the Ingresses. Each Ingress of a
/// file without a controller ConfigMap of its own takes the settings it
/// leaves at the default from the nearest ConfigMap file (the longest
/// common folder); when two are equally near, which one serves it is not
/// known and none is applied.
pub fn ingress_configmaps(files: &mut [ScannedFile]) {
    use crate::extract::ingress_nginx::{apply_configmap, is_configmap_policy};
    use crate::model::System;
    let mut maps: Vec<(usize, usize)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for (k, p) in f.facts.policies.iter().enumerate() {
            if is_configmap_policy(p) {
                maps.push((id, k));
            }
        }
    }
    if maps.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let policies = &files[id].facts.policies;
        if !policies
            .iter()
            .any(|p| p.system == System::IngressNginx && !is_configmap_policy(p))
            || policies.iter().any(is_configmap_policy)
        {
            continue;
        }
        let here = files[id].source.path.clone();
        let Some((m, k)) = nearest(&here, &maps, files) else {
            continue;
        };
        let cm = files[m].facts.policies[k].clone();
        let from = place(&files[m], cm.span);
        for p in files[id].facts.policies.iter_mut() {
            if p.system == System::IngressNginx {
                apply_configmap(p, &cm, &from);
            }
        }
    }
}

/// A Resilience4j retry composed around a circuit breaker in Java
/// (`registry.retry("inventory")`, `@Retry(name = "inventory")` with
/// `@CircuitBreaker`) takes what it retries from the `inventory` instance
/// of the configuration (YAML or properties), usually in another file:
/// RL104 needs its `retryExceptions` and `ignoreExceptions`. The instance
/// is taken from the nearest configuration file that defines it (longest
/// common folder); when two are equally near, nothing is taken. What is
/// retried, what is ignored and which methods are served are filled when
/// the source leaves them unknown, placed at the source's policy and
/// marked inherited (the instance's own findings are about the values).
pub fn resilience4j_instances(files: &mut [ScannedFile]) {
    use crate::model::{Located, RetryOn, System};
    let is_java = |f: &ScannedFile| f.syntax == Some(crate::model::Syntax::Java);
    let mut configured: Vec<(usize, usize)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        if is_java(f) {
            continue;
        }
        for (k, p) in f.facts.policies.iter().enumerate() {
            if p.system == System::Resilience4j && p.name.is_some() {
                configured.push((id, k));
            }
        }
    }
    if configured.is_empty() {
        return;
    }
    for id in 0..files.len() {
        if !is_java(&files[id]) {
            continue;
        }
        for k in 0..files[id].facts.policies.len() {
            let p = &files[id].facts.policies[k];
            let wanted = p.system == System::Resilience4j
                && !p.wraps_breaker.is_empty()
                && matches!(p.retry_on.value, RetryOn::Unknown);
            let Some(name) = p.name.clone().filter(|_| wanted) else {
                continue;
            };
            let here = files[id].source.path.clone();
            let candidates: Vec<(usize, usize)> = configured
                .iter()
                .copied()
                .filter(|&(c, j)| files[c].facts.policies[j].name.as_deref() == Some(&name))
                .collect();
            let Some((c, j)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let src = files[c].facts.policies[j].clone();
            let from = place(&files[c], src.span);
            let p = &mut files[id].facts.policies[k];
            let at = p.span;
            let mut on = Located::inherited(src.retry_on.value, at);
            if let RetryOn::Listed { conditions } = &mut on.value {
                for cond in conditions {
                    *cond = Located::inherited(cond.value.clone(), at);
                }
            }
            p.retry_on = on;
            // Which calls the instance serves is the configuration's
            // view too (it does not know the HTTP methods).
            if p.methods.is_default() {
                p.methods = Located::inherited(src.methods.value, at);
            }
            if p.ignores.is_empty() {
                p.ignores = src
                    .ignores
                    .into_iter()
                    .map(|i| Located::inherited(i.value, at))
                    .collect();
            }
            if !p.settings_from.contains(&from) {
                p.settings_from.push(from);
            }
        }
    }
}

/// Give each use of a custom retry annotation (`@RetryOnIo` on a method)
/// the policy of the `@Retryable` on the annotation's declaration, in the
/// nearest scanned file that declares it (none when two are equally
/// near). The use becomes a policy of its own file, placed at the
/// annotation, with the idempotency keys its method mints; its settings
/// are judged once, at the declaration (`RetryPolicy::use_of`).
pub fn java_retry_annotations(files: &mut [ScannedFile]) {
    let mut declared: Vec<(usize, crate::extract::java::RetryAnnotation)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for a in &f.facts.java.retry_annotations {
            if a.policy < f.facts.policies.len() {
                declared.push((id, a.clone()));
            }
        }
    }
    if declared.is_empty() {
        return;
    }
    for id in 0..files.len() {
        if files[id].facts.java.annotation_uses.is_empty() {
            continue;
        }
        let here = files[id].source.path.clone();
        let mut added = Vec::new();
        for u in &files[id].facts.java.annotation_uses {
            // The same annotation: same name, and the same qualified name
            // where both files say it (an import, the package).
            let candidates: Vec<(usize, usize)> = declared
                .iter()
                .filter(|(_, a)| {
                    a.name == u.annotation
                        && match (&a.qualified, &u.qualified) {
                            (Some(a), Some(b)) => a == b,
                            _ => true,
                        }
                })
                .map(|(id, a)| (*id, a.policy))
                .collect();
            let Some((c, j)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let decl = &files[c].facts.policies[j];
            let mut p = decl.rebased(u.span);
            p.name = Some(u.target.clone());
            p.use_of = Some(format!("@{}", u.annotation));
            p.settings_from = vec![place(&files[c], decl.span)];
            p.idempotency = u.keys.clone();
            added.push(p);
        }
        files[id].facts.policies.extend(added);
    }
}

/// `path:line` of a span, as messages name a setting in another file.
fn place(f: &ScannedFile, span: Span) -> String {
    format!(
        "{}:{}",
        f.source.display_path(),
        f.source.line_col(span.start).line
    )
}

/// Of `candidates` (file, policy), the one in the file nearest to `here`
/// (the longest common folder); `None` when none is, or two files are
/// equally near.
fn nearest(
    here: &Path,
    candidates: &[(usize, usize)],
    files: &[ScannedFile],
) -> Option<(usize, usize)> {
    let common = |b: &Path| {
        here.parent()
            .unwrap_or(here)
            .components()
            .zip(b.parent().unwrap_or(b).components())
            .take_while(|(x, y)| x == y)
            .count()
    };
    let mut best: Vec<(usize, usize, usize)> = Vec::new();
    for &(f, k) in candidates {
        let c = common(&files[f].source.path);
        match best.first() {
            Some(b) if b.0 > c => {}
            Some(b) if b.0 == c => best.push((c, f, k)),
            _ => best = vec![(c, f, k)],
        }
    }
    match best[..] {
        [(_, f, k)] => Some((f, k)),
        _ => None,
    }
}

/// The retry and timeout settings each nginx file hands to the block that
/// includes it: its own top-level ones and, in the order they appear,
/// those of the files it includes at its own top level (a snippet that
/// includes another snippet), each with the place that writes it. Files
/// are taken children first, without recursion; an include that closes a
/// cycle hands on nothing.
fn handed_on(
    files: &[ScannedFile],
    edges: &[Vec<(usize, usize)>],
) -> Vec<Vec<crate::model::InheritedDirective>> {
    let n = files.len();
    let top_edges = |f: usize| -> Vec<(usize, usize)> {
        edges[f]
            .iter()
            .copied()
            .filter(|&(_, k)| {
                files[f]
                    .facts
                    .includes
                    .get(k)
                    .is_some_and(|i| i.context == "main")
            })
            .collect()
    };
    let mut handed: Vec<Vec<crate::model::InheritedDirective>> = vec![Vec::new(); n];
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        // (file, its top-level includes, the next one to visit)
        type Frame = (usize, Vec<(usize, usize)>, usize);
        let mut stack: Vec<Frame> = vec![(start, top_edges(start), 0)];
        while let Some((f, tops, next)) = stack.last_mut() {
            crate::guard::checkpoint();
            if let Some(&(t, _)) = tops.get(*next) {
                *next += 1;
                if state[t] == 0 {
                    state[t] = 1;
                    stack.push((t, top_edges(t), 0));
                }
                continue;
            }
            let f = *f;
            let mut out: Vec<(usize, crate::model::InheritedDirective)> = files[f]
                .facts
                .top_level
                .iter()
                .map(|d| {
                    (
                        d.span.start,
                        crate::model::InheritedDirective {
                            from: place(&files[f], d.span),
                            ..d.clone()
                        },
                    )
                })
                .collect();
            for (t, k) in top_edges(f) {
                if state[t] != 2 {
                    continue;
                }
                let at = files[f].facts.includes.get(k).map_or(0, |i| i.span.start);
                out.extend(handed[t].iter().map(|d| (at, d.clone())));
            }
            out.sort_by_key(|(at, _)| *at);
            handed[f] = out.into_iter().map(|(_, d)| d).collect();
            state[f] = 2;
            stack.pop();
        }
    }
    handed
}

/// Read each included nginx file again inside the block that includes it,
/// as nginx does: a retry or timeout setting it does not write is the one
/// in force at the `include`, and its passes can name the upstreams of
/// every file of the include tree. A file that includes a snippet of
/// settings is read again with them in the including block. Files are
/// taken from the top of the include tree down (an included file hands on
/// what it inherited), each once: a file included from several places is
/// read with the settings of the first found (files in scan order, breadth
/// first). Files only reached through an include cycle inherit nothing
/// (the cycle is reported) but still take their snippets' settings.
fn inherit_nginx_settings(files: &mut [ScannedFile], edges: &[Vec<(usize, usize)>]) {
    let n = files.len();
    let mut included = vec![false; n];
    for e in edges {
        for &(t, ..) in e {
            included[t] = true;
        }
    }
    let mut done = vec![false; n];
    let roots: Vec<usize> = (0..n)
        .filter(|&i| !included[i] && !edges[i].is_empty())
        .collect();
    // Upstream names are global to the main file's `http`: every file of
    // an include tree sees the upstreams of all of them (an
    // `upstreams.conf` next to the sites that use it). Trees are taken as
    // the connected parts of the include graph (two main files that
    // include one common file share their upstreams), one list each, so
    // that many files cost linear time and memory.
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (from, e) in edges.iter().enumerate() {
        for &(to, ..) in e {
            let (a, b) = (find(&mut parent, from), find(&mut parent, to));
            parent[a] = b;
        }
    }
    let mut trees: std::collections::HashMap<usize, Vec<crate::model::InheritedUpstream>> =
        std::collections::HashMap::new();
    for (f, file) in files.iter().enumerate() {
        if !file.facts.upstreams.is_empty() {
            let root = find(&mut parent, f);
            trees
                .entry(root)
                .or_default()
                .extend(file.facts.upstreams.iter().cloned());
        }
    }
    // The top-level settings of the files each file includes (a snippet
    // of settings applies in the block that includes it), by include.
    type Included = Vec<(usize, Vec<crate::model::InheritedDirective>)>;
    let handed = handed_on(files, edges);
    let snippets: Vec<Included> = edges
        .iter()
        .map(|e| {
            e.iter()
                .filter(|&&(t, _)| !handed[t].is_empty())
                .map(|&(t, k)| (k, handed[t].clone()))
                .collect()
        })
        .collect();
    let mut read_again =
        |files: &mut [ScannedFile], f: usize, directives: &[crate::model::InheritedDirective]| {
            // A file alone (no include either way) has its own upstreams.
            let linked = included[f] || !edges[f].is_empty();
            let upstreams: &[crate::model::InheritedUpstream] = if linked {
                trees.get(&find(&mut parent, f)).map_or(&[], Vec::as_slice)
            } else {
                &[]
            };
            if directives.is_empty() && upstreams.is_empty() && snippets[f].is_empty() {
                return;
            }
            if files[f].syntax != Some(crate::model::Syntax::Nginx) {
                return;
            }
            let mut facts = crate::model::Facts::default();
            let outer = crate::extract::nginx::Inherited {
                directives,
                upstreams,
                included: &snippets[f],
            };
            crate::extract::nginx::extract_included(&files[f].source.text, &mut facts, &outer);
            files[f].facts = facts;
        };
    // From the top down: a file is read again before the files it
    // includes, which inherit what it then has in force.
    let mut queue: std::collections::VecDeque<usize> = roots.into_iter().collect();
    for &r in &queue {
        done[r] = true;
        read_again(files, r, &[]);
    }
    while let Some(m) = queue.pop_front() {
        for &(t, k) in &edges[m] {
            if std::mem::replace(&mut done[t], true) {
                continue;
            }
            let Some(inc) = files[m].facts.includes.get(k) else {
                continue;
            };
            let mut directives = inc.inherited.clone();
            for d in directives.iter_mut().filter(|d| d.from.is_empty()) {
                d.from = place(&files[m], d.span);
            }
            read_again(files, t, &directives);
            queue.push_back(t);
        }
    }
    // Files in no tree (a cycle) that include settings.
    let rest: Vec<usize> = (0..files.len()).filter(|&f| !done[f]).collect();
    for f in rest {
        read_again(files, f, &[]);
    }
}

/// Indices of the scanned files whose path matches `pattern` (a path or
/// glob; `suffix` to match the end of the path only).
fn matching(paths: &[String], pattern: &str, suffix: bool) -> Vec<usize> {
    let pattern = pattern.trim_start_matches("./");
    let glob = if suffix {
        format!("**/{pattern}")
    } else {
        pattern.to_string()
    };
    let Ok(g) = globset::GlobBuilder::new(&glob)
        .literal_separator(true)
        .build()
    else {
        return Vec::new();
    };
    let m = g.compile_matcher();
    paths
        .iter()
        .enumerate()
        .filter(|(_, p)| m.is_match(p.trim_start_matches("./")))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_outside_the_roots_are_not_read() {
        let roots = [PathBuf::from("services/payments/src")];
        assert!(!inside(Path::new("services/payments/Cargo.toml"), &roots));
        let roots = [PathBuf::from("./services")];
        assert!(inside(Path::new("services/payments/Cargo.toml"), &roots));
        let roots = [PathBuf::from(".")];
        assert!(inside(Path::new("x/Cargo.toml"), &roots));
        let roots = [PathBuf::from("a")];
        assert!(!inside(Path::new("a/../b/Cargo.toml"), &roots));
    }

    fn nginx_file(path: &str, text: &str) -> ScannedFile {
        let mut facts = crate::model::Facts::default();
        crate::extract::nginx::extract(text, &mut facts);
        ScannedFile {
            source: crate::source::SourceFile::new(path, text.to_string()),
            facts,
            syntax: Some(crate::model::Syntax::Nginx),
        }
    }

    fn java_file(path: &str, text: &str) -> ScannedFile {
        let mut facts = crate::model::Facts::default();
        crate::extract::java::extract(text, &mut facts);
        ScannedFile {
            source: crate::source::SourceFile::new(path, text.to_string()),
            facts,
            syntax: Some(crate::model::Syntax::Java),
        }
    }

    #[test]
    fn a_custom_retry_annotation_is_a_retry_where_it_is_used() {
        use crate::model::{AttemptCount, Provenance};
        let decl = "import org.springframework.retry.annotation.*;\n@Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2))\npublic @interface RetryOnIo {}\n";
        let other = "import org.springframework.retry.annotation.*;\n@Retryable(maxAttempts = 2)\npublic @interface RetryOnIo {}\n";
        let user = "class C {\n  @RetryOnIo R a() { String idempotencyKey = UUID.randomUUID().toString(); return api.a(idempotencyKey); }\n  @RetryOnIo R b() { return api.b(); }\n  @Unrelated R c() { return api.c(); }\n}\n";
        let mut files = vec![
            java_file("svc/retry/RetryOnIo.java", decl),
            java_file("other/RetryOnIo.java", other),
            java_file("svc/api/C.java", user),
        ];
        java_retry_annotations(&mut files);
        // The nearest declaration wins; each use is a policy of its file,
        // at the annotation, with the key its method mints.
        let uses = &files[2].facts.policies;
        assert_eq!(uses.len(), 2, "{uses:#?}");
        assert_eq!(uses[0].name.as_deref(), Some("a"));
        assert_eq!(uses[0].use_of.as_deref(), Some("@RetryOnIo"));
        assert_eq!(uses[0].attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(uses[0].attempts.provenance, Provenance::Inherited);
        assert_eq!(&user[uses[0].span.start..uses[0].span.end], "@RetryOnIo");
        assert_eq!(uses[0].settings_from, ["svc/retry/RetryOnIo.java:2"]);
        assert_eq!(uses[0].idempotency.len(), 1);
        assert!(uses[1].idempotency.is_empty());
        // Two declarations equally near: no use is placed.
        let mut files = vec![
            java_file("a/RetryOnIo.java", decl),
            java_file("b/RetryOnIo.java", other),
            java_file("c/C.java", user),
        ];
        java_retry_annotations(&mut files);
        assert!(files[2].facts.policies.is_empty());
        // An import names the annotation: the declaration in that package,
        // however far, not a nearer one of the same name elsewhere.
        let a = format!("package com.a;\n{decl}");
        let b = format!("package com.b;\n{other}");
        let user = "package com.a.api;\nimport com.b.RetryOnIo;\nclass C {\n  @RetryOnIo R a() { return api.a(); }\n}\n";
        let mut files = vec![
            java_file("svc/com/a/RetryOnIo.java", &a),
            java_file("lib/com/b/RetryOnIo.java", &b),
            java_file("svc/com/a/api/C.java", user),
        ];
        java_retry_annotations(&mut files);
        let uses = &files[2].facts.policies;
        assert_eq!(uses.len(), 1);
        assert_eq!(uses[0].attempts.value.count, AttemptCount::Finite(2));
    }

    #[test]
    fn a_snippet_hands_on_the_settings_of_the_snippets_it_includes() {
        use crate::model::AttemptCount;
        let main = "http {\n  upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3; }\n  server {\n    location /a { include snippets/outer.conf; proxy_pass http://pay; }\n  }\n}\n";
        let outer = "proxy_read_timeout 2s;\ninclude snippets/inner.conf;\n";
        let inner = "proxy_next_upstream error timeout;\nproxy_next_upstream_tries 2;\ninclude snippets/outer.conf;\n";
        let mut files = vec![
            nginx_file("n/nginx.conf", main),
            nginx_file("n/snippets/outer.conf", outer),
            nginx_file("n/snippets/inner.conf", inner),
        ];
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        let a = files[0]
            .facts
            .policies
            .iter()
            .find(|p| p.scope.route.as_deref() == Some("location /a"))
            .unwrap();
        // The inner snippet's tries reach the location through the outer
        // one; the cycle back to outer.conf hands on nothing more.
        assert_eq!(a.attempts.value.count, AttemptCount::Finite(2));
        assert!(
            a.settings_from
                .iter()
                .any(|s| s.starts_with("n/snippets/inner.conf")),
            "{:?}",
            a.settings_from
        );
        assert!(
            a.settings_from
                .iter()
                .any(|s| s.starts_with("n/snippets/outer.conf"))
        );
    }

    #[test]
    fn an_included_file_inherits_the_settings_in_force_at_its_include() {
        use crate::model::{AttemptCount, Methods, Provenance, Timeout};
        let main = "http {\n  upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3; }\n  proxy_next_upstream error timeout non_idempotent;\n  proxy_next_upstream_tries 0;\n  include conf.d/*.conf;\n  proxy_read_timeout 5s;\n}\n";
        let site = "server {\n  location /a { proxy_pass http://pay; }\n  location /b { proxy_next_upstream error; proxy_read_timeout 1s; proxy_pass http://pay; }\n  include snippets/c.conf;\n}\n";
        let snippet = "location /c { proxy_next_upstream_tries 2; proxy_pass http://pay; }\n";
        let mut files = vec![
            nginx_file("n/conf.d/site.conf", site),
            nginx_file("n/nginx.conf", main),
            nginx_file("n/snippets/c.conf", snippet),
        ];
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        let policy = |f: usize, route: &str| {
            files[f]
                .facts
                .policies
                .iter()
                .find(|p| p.scope.route.as_deref() == Some(route))
                .unwrap()
                .clone()
        };
        // Every setting from nginx.conf, wherever it is written there; the
        // upstream's three servers bound `tries 0`.
        let a = policy(0, "location /a");
        assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
        assert_eq!(a.attempts.provenance, Provenance::Included);
        assert!(matches!(a.methods.value, Methods::Set(_)));
        assert_eq!(
            a.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(std::time::Duration::from_secs(65))
        );
        assert_eq!(
            a.settings_from,
            ["n/nginx.conf:3", "n/nginx.conf:4", "n/nginx.conf:6"]
        );
        assert!(
            a.describe()
                .contains("with settings from `n/nginx.conf` lines 3-4, 6")
        );
        // What the site writes replaces what it inherits.
        let b = policy(0, "location /b");
        assert_eq!(b.methods.value, Methods::IdempotentOnly);
        assert_eq!(
            b.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(std::time::Duration::from_secs(61))
        );
        assert!(b.methods.is_written());
        // Two includes down, from the main file's folder.
        let c = policy(2, "location /c");
        assert_eq!(c.attempts.value.count, AttemptCount::Finite(2));
        assert!(c.attempts.is_written());
        assert!(matches!(c.methods.value, Methods::Set(_)));
        assert!(files.iter().all(|f| f.facts.diagnostics.is_empty()));
    }

    #[test]
    fn an_upstream_of_a_sibling_file_is_seen_by_the_sites() {
        use crate::model::AttemptCount;
        // conf.d/upstreams.conf defines `pay`; conf.d/site.conf calls it.
        let main = "http {\n  include conf.d/*.conf;\n}\n";
        let ups = "upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3 down; }\n";
        let site =
            "server { location / { proxy_next_upstream_tries 0; proxy_pass http://pay; } }\n";
        let mut files = vec![
            nginx_file("n/conf.d/site.conf", site),
            nginx_file("n/conf.d/upstreams.conf", ups),
            nginx_file("n/nginx.conf", main),
        ];
        assert_eq!(files[1].facts.upstreams.len(), 1);
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        let p = &files[0].facts.policies[0];
        // Two live servers: `tries 0` is bounded by them.
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
        assert_eq!(files[0].facts.edges[0].callee, "pay");
    }

    #[test]
    fn a_snippet_s_settings_apply_in_the_block_that_includes_it() {
        use crate::model::{AttemptCount, Provenance};
        // A site scanned without its nginx.conf: the snippet is looked up
        // from the site's folder upwards.
        let site = "server {\n  location /a {\n    include snippets/retry.conf;\n    proxy_pass http://api;\n  }\n  location /b {\n    include snippets/retry.conf;\n    proxy_next_upstream_tries 2;\n    proxy_pass http://api;\n  }\n}\n";
        let snippet = "# Included inside a location.\nproxy_next_upstream error timeout;\nproxy_next_upstream_tries 4;\n";
        let mut files = vec![
            nginx_file("n/sites-enabled/site", site),
            nginx_file("n/snippets/retry.conf", snippet),
        ];
        assert_eq!(files[1].facts.top_level.len(), 2);
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        let route = |r: &str| {
            files[0]
                .facts
                .policies
                .iter()
                .find(|p| p.scope.route.as_deref() == Some(r))
                .unwrap()
                .clone()
        };
        let a = route("location /a");
        assert_eq!(a.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(a.attempts.provenance, Provenance::Included);
        // At the `include` line of the site.
        assert_eq!(files[0].source.line_col(a.attempts.span.start).line, 3);
        assert_eq!(
            a.settings_from,
            ["n/snippets/retry.conf:2", "n/snippets/retry.conf:3"]
        );
        assert!(a.describe().contains("`n/snippets/retry.conf` lines 2-3"));
        // The block's own setting wins over the snippet's.
        let b = route("location /b");
        assert_eq!(b.attempts.value.count, AttemptCount::Finite(2));
        assert!(b.attempts.is_written());
        assert!(files.iter().all(|f| f.facts.diagnostics.is_empty()));
    }

    #[test]
    fn include_cycles_end_and_each_file_is_read_again_once() {
        // a includes b, b includes a and itself: no loop, one cycle report
        // per include that comes back.
        let a = "http {\n  proxy_next_upstream_tries 7;\n  include b.conf;\n}\n";
        let b =
            "include a.conf;\ninclude b.conf;\nserver { location / { proxy_pass http://x; } }\n";
        let mut files = vec![nginx_file("n/a.conf", a), nginx_file("n/b.conf", b)];
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        let cycles = |f: &ScannedFile| {
            f.facts
                .diagnostics
                .iter()
                .filter(|d| d.message.contains("recurses"))
                .count()
        };
        assert_eq!(cycles(&files[0]), 1);
        assert_eq!(cycles(&files[1]), 2);
        // Both files are included by another, so neither is the top of the
        // tree and nothing is inherited: the cycle is the finding.
        let p = &files[1].facts.policies[0];
        assert!(p.settings_from.is_empty());
    }

    #[test]
    fn files_that_all_include_each_other_cost_little_and_are_reported_once() {
        // 400 files, each including all of them: 160,000 include edges.
        // Cycles are found once (components), not by a walk per edge, and
        // each file's one `include` is reported once.
        let text = "http {\n  upstream u { server 10.0.0.1; }\n  include *.conf;\n  server { location / { proxy_pass http://u; } }\n}\n";
        let mut files: Vec<ScannedFile> = (0..400)
            .map(|i| nginx_file(&format!("n/f{i:03}.conf"), text))
            .collect();
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        for f in &files {
            assert_eq!(f.facts.diagnostics.len(), 1, "{:?}", f.facts.diagnostics);
            assert!(f.facts.diagnostics[0].message.contains("recurses"));
        }
    }

    #[test]
    fn a_fragment_alone_says_nothing_of_includes_it_cannot_place() {
        let site = "server {\n  include snippets/absent.conf;\n}\n";
        let mut files = vec![nginx_file("n/conf.d/site.conf", site)];
        nginx_includes(&mut files, &[PathBuf::from("n/conf.d")]);
        assert!(files[0].facts.diagnostics.is_empty());
        // A main file's missing include is reported.
        let main = "http {\n  include absent.conf;\n}\n";
        let mut files = vec![nginx_file("n/nginx.conf", main)];
        nginx_includes(&mut files, &[PathBuf::from("n")]);
        assert_eq!(files[0].facts.diagnostics.len(), 1);
    }

    #[test]
    fn an_ingress_takes_the_nearest_controller_configmap_and_no_ambiguous_one() {
        use crate::extract::{Syntax, extract};
        let yaml = |path: &str, text: &str| ScannedFile {
            source: crate::source::SourceFile::new(path, text.to_string()),
            facts: extract(Path::new(path), text, Syntax::Yaml),
            syntax: Some(Syntax::Yaml),
        };
        let cm = |tries: u32| {
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingress-nginx-controller\ndata:\n  proxy-next-upstream-tries: \"{tries}\"\n"
            )
        };
        let ing = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\nspec:\n  ingressClassName: nginx\n";
        let tries = |f: &ScannedFile| f.facts.policies[0].attempts.value.count;
        let mut files = vec![
            yaml("prod/controller.yaml", &cm(5)),
            yaml("dev/controller.yaml", &cm(2)),
            yaml("prod/app/ingress.yaml", ing),
            yaml("other/ingress.yaml", ing),
        ];
        ingress_configmaps(&mut files);
        assert_eq!(tries(&files[2]), crate::model::AttemptCount::Finite(5));
        assert_eq!(
            files[2].facts.policies[0].settings_from,
            ["prod/controller.yaml:6"]
        );
        // Equally far from both: which controller serves it is not known.
        assert_eq!(tries(&files[3]), crate::model::AttemptCount::Finite(3));
        assert!(files[3].facts.policies[0].attempts.is_default());
    }

    #[cfg(unix)]
    #[test]
    fn an_include_is_looked_up_without_following_links() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("real.conf"), "").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.join("out")).unwrap();
        assert!(is_file_or_link(d, "real.conf"));
        assert!(!is_file_or_link(d, "absent.conf"));
        // Through a link nothing is resolved: whether `out/x.conf` exists
        // (it does not) is never asked.
        assert!(is_file_or_link(d, "out/x.conf"));
        assert!(is_file_or_link(d, "out/../real.conf"));
    }
}
