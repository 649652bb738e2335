//! nginx `include`: which files include which, and the settings, upstreams
//! and snippets a file inherits from the blocks that include it.

use super::*;

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
                if !somewhere && !crate::systems::nginx::extract::shipped::ships_with_nginx(pattern)
                {
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

/// Whether `rel` below `dir` is a file, found without following any
/// symbolic link: a link on the way may lead out of the scanned roots, so
/// it is taken as "there" (no finding) and never resolved.
pub(super) fn is_file_or_link(dir: &Path, rel: &str) -> bool {
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

/// The retry and timeout settings each nginx file hands to the block that
/// includes it: its own top-level ones and, in the order they appear,
/// those of the files it includes at its own top level (a snippet that
/// includes another snippet), each with the place that writes it. Files
/// are taken children first, without recursion; an include that closes a
/// cycle hands on nothing.
pub(super) fn handed_on(
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
                            from: Some(place(&files[f], d.span)),
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
pub(super) fn inherit_nginx_settings(files: &mut [ScannedFile], edges: &[Vec<(usize, usize)>]) {
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
            let outer = crate::systems::nginx::extract::Inherited {
                directives,
                upstreams,
                included: &snippets[f],
            };
            crate::systems::nginx::extract::extract_included(
                &files[f].source.text,
                &mut facts,
                &outer,
            );
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
            for d in directives.iter_mut().filter(|d| d.from.is_none()) {
                d.from = Some(place(&files[m], d.span));
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
pub(super) fn matching(paths: &[String], pattern: &str, suffix: bool) -> Vec<usize> {
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
