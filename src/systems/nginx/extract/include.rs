//! Includes: the settings and upstreams an including file hands down, and
//! what this file hands on to the files it includes (its top-level settings
//! and its upstreams).

use super::*;

impl<'c, 'f> Reader<'c, 'f> {
    /// Take the settings an including file hands down. Their values are
    /// checked as this file's are, but a problem with one is the including
    /// file's to report (it was, when that file was read).
    pub(super) fn inherit(&mut self, outer: &Inherited<'_>) {
        let empty = Config::default();
        let mut scratch = Facts::default();
        let mut checker = Reader::new(&empty, &mut scratch);
        for d in outer.directives {
            let dir = Directive {
                name: d.name.clone(),
                name_span: Span::default(),
                args: d
                    .args
                    .iter()
                    .map(|a| Arg {
                        value: a.clone(),
                        span: Span::default(),
                        quoted: false,
                    })
                    .collect(),
                span: Span::default(),
                parent: None,
                children: Vec::new(),
                is_block: false,
                raw_body: None,
            };
            if let Some(v) = checker.value_of(&dir) {
                self.outer
                    .entry(d.name.clone())
                    .or_default()
                    .push((v, d.from.clone()));
            }
        }
        self.outer_raw = outer.directives.to_vec();
    }

    pub(super) fn include(&mut self, i: usize) {
        let cfg = self.cfg;
        let d = cfg.get(i);
        let Some(arg) = d.arg(0) else { return };
        let context = match d.parent {
            None => "main".to_string(),
            Some(p) => block_label(cfg.get(p)),
        };
        // Every retry or timeout setting in force here: this file's nearest
        // one, else the one it inherited.
        let mut names: Vec<&str> = self.by_block.keys().map(|(_, n)| *n).collect();
        names.extend(self.outer_raw.iter().map(|d| d.name.as_str()));
        names.sort_unstable();
        names.dedup();
        let mut inherited = Vec::new();
        for name in names {
            let local = self.resolve(i, name);
            if local.is_empty() {
                inherited.extend(self.outer_raw.iter().filter(|d| d.name == name).cloned());
            }
            for j in local {
                let w = cfg.get(j);
                inherited.push(InheritedDirective {
                    name: w.name.clone(),
                    args: w.args.iter().map(|a| a.value.clone()).collect(),
                    span: w.head_span(),
                    from: None,
                });
            }
        }
        self.facts.includes.push(IncludeRef {
            system: System::Nginx,
            pattern: arg.value.clone(),
            span: arg.span,
            context,
            inherited,
        });
    }

    /// The `upstream` blocks of this file (in `http`), as written.
    pub(super) fn own_upstreams(&self) -> Vec<InheritedUpstream> {
        let cfg = self.cfg;
        cfg.directives
            .iter()
            .enumerate()
            .filter(|(j, u)| u.name == "upstream" && u.is_block && !self.outside_http(*j))
            .filter_map(|(_, u)| {
                Some(InheritedUpstream {
                    name: u.arg(0)?.value.clone(),
                    servers: u
                        .children
                        .iter()
                        .map(|&c| cfg.get(c))
                        .filter(|s| s.name == "server")
                        .map(|s| s.args.iter().map(|a| a.value.clone()).collect())
                        .collect(),
                    dynamic: u
                        .children
                        .iter()
                        .any(|&c| cfg.get(c).name.starts_with("balancer_by_lua")),
                })
            })
            .collect()
    }

    /// An included file's setting: checked (quietly: the included file
    /// reports its own problems) and kept after the block's own, which win
    /// over it.
    pub(super) fn keep_included(&mut self, i: usize, d: &Directive) {
        let empty = Config::default();
        let mut scratch = Facts::default();
        let Some(v) = Reader::new(&empty, &mut scratch).value_of(d) else {
            return;
        };
        let entry = self
            .by_block
            .entry((d.parent, self.cfg.get(i).name.as_str()))
            .or_default();
        if entry.is_empty() || matches!(v, Value::Mask(_)) {
            entry.push(i);
            self.values.insert(i, v);
        }
    }

    /// This file's valid retry and timeout directives outside any block.
    pub(super) fn top_level(&self) -> Vec<InheritedDirective> {
        let mut out = Vec::new();
        for ((scope, _), hits) in &self.by_block {
            if scope.is_some() {
                continue;
            }
            for &j in hits {
                if self.synthetic.contains_key(&j) {
                    continue;
                }
                let w = self.cfg.get(j);
                out.push(InheritedDirective {
                    name: w.name.clone(),
                    args: w.args.iter().map(|a| a.value.clone()).collect(),
                    span: w.head_span(),
                    from: None,
                });
            }
        }
        out.sort_by_key(|d| d.span.start);
        out
    }

    /// Take the include tree's upstreams that this file's passes name and
    /// it does not define (names are global to `http`).
    pub(super) fn adopt_outer_upstreams(&mut self) {
        if self.outer_upstreams.is_empty() {
            return;
        }
        let cfg = self.cfg;
        for (i, d) in cfg.directives.iter().enumerate() {
            if pass_family(&d.name).is_none() || self.outside_http(i) {
                continue;
            }
            let Some(Ok(name)) = d.arg(0).map(|a| hostport(&a.value)) else {
                continue;
            };
            if port_of(name).is_some()
                || self.upstream_index.contains_key(&name.to_ascii_lowercase())
            {
                continue;
            }
            let outer = self.outer_upstreams;
            if let Some(up) = outer.iter().find(|u| u.name.eq_ignore_ascii_case(name)) {
                let servers = up.servers.iter().map(|args| {
                    let flags: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
                    (args.first().map_or("", String::as_str), flags)
                });
                self.add_upstream(&up.name, servers, up.dynamic);
            }
        }
    }
}
