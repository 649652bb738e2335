//! Settings per block: each directive's value checked and kept where it
//! is written, then looked up along the enclosing blocks (and what an
//! including file handed down).

use super::*;

impl<'c, 'f> Reader<'c, 'f> {
    /// Validate a retry or timeout directive (RL901/RL902) and keep its
    /// value.
    pub(super) fn check_directive(&mut self, i: usize, d: &Directive) {
        if let Some(v) = self.value_of(d) {
            if let Value::Time(t) = &v
                && !d.name.ends_with("_next_upstream_timeout")
            {
                self.facts.timeouts.push(TimeoutSetting {
                    system: System::Nginx,
                    name: None,
                    what: d.name.clone(),
                    timeout: Located::written(Timeout::after(*t), d.head_span()),
                });
            }
            self.keep(i, d, v);
        }
    }

    /// The checked value of a retry or timeout directive; `None` (with a
    /// finding when it is wrong) for an invalid or unrelated one.
    pub(super) fn value_of(&mut self, d: &Directive) -> Option<Value> {
        if BUFFERING.contains(&d.name.as_str()) {
            let a = self.one_arg(d)?;
            return match a.value.to_ascii_lowercase().as_str() {
                "on" => Some(Value::Flag(true)),
                "off" => Some(Value::Flag(false)),
                _ => {
                    self.facts.diagnostics.push(invalid_setting::value(
                        a.span,
                        &d.name,
                        &a.value,
                        "not `on` or `off`",
                    ));
                    None
                }
            };
        }
        let Some((family, suffix)) = split_name(&d.name) else {
            self.check_unknown(d);
            return None;
        };
        match suffix {
            "_next_upstream" => self.mask(d, family).map(Value::Mask),
            "_next_upstream_tries" => self.tries(d).map(Value::Tries),
            _ => self.time(d).map(Value::Time),
        }
    }

    fn keep(&mut self, i: usize, d: &Directive, v: Value) {
        let entry = self
            .by_block
            .entry((d.parent, self.cfg.get(i).name.as_str()))
            .or_default();
        // Values add up for `*_next_upstream`; any other directive twice
        // in one block stops nginx ("is duplicate").
        if let Some(&first) = entry.first()
            && !matches!(v, Value::Mask(_))
        {
            self.facts.diagnostics.push(
                invalid_setting::value(
                    d.head_span(),
                    &d.name,
                    &d.args
                        .iter()
                        .map(|a| a.value.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    "it is already set in this block, and nginx refuses a duplicate",
                )
                .with_related(self.cfg.get(first).head_span(), "set here first"),
            );
            return;
        }
        entry.push(i);
        self.values.insert(i, v);
    }

    /// A family directive with a typo: `proxy_read_timout`,
    /// `proxy_next_upstream_try`.
    fn check_unknown(&mut self, d: &Directive) {
        for f in FAMILIES {
            let Some(rest) = d.name.strip_prefix(f.prefix) else {
                continue;
            };
            // Cheap tests first: most directives are nowhere near.
            let close = rest.starts_with("_next_upstream")
                || SUFFIXES.iter().any(|s| crate::keys::is_typo_of(rest, s));
            if close {
                let known: Vec<String> = SUFFIXES
                    .iter()
                    .map(|s| format!("{}{s}", f.prefix))
                    .collect();
                let known: Vec<&str> = known.iter().map(String::as_str).collect();
                self.facts
                    .diagnostics
                    .push(unknown_setting::unknown_directive(
                        d.name_span,
                        &d.name,
                        "nginx",
                        known.iter().copied(),
                    ));
            }
            return;
        }
    }

    fn mask(&mut self, d: &Directive, family: &Family) -> Option<Mask> {
        let mut mask = Mask::default();
        if d.args.is_empty() {
            self.facts.diagnostics.push(invalid_setting::value(
                d.name_span,
                &d.name,
                "",
                "it needs at least one condition (`error timeout` is the default)",
            ));
            return None;
        }
        for a in &d.args {
            let lower = a.value.to_ascii_lowercase();
            if !family.values.contains(&lower.as_str()) {
                self.facts.diagnostics.push(invalid_setting::unknown_token(
                    a.span,
                    &d.name,
                    &a.value,
                    family.values.iter().copied(),
                ));
                continue;
            }
            match lower.as_str() {
                "off" => mask.off = true,
                "non_idempotent" => mask.non_idempotent = Some(a.span),
                _ => {}
            }
            if family.prefix == "grpc" && !matches!(lower.as_str(), "error" | "timeout" | "off") {
                self.facts.diagnostics.push(unknown_setting::no_effect(
                    a.span,
                    &a.value,
                    "nginx sends gRPC requests unbuffered and never passes one to the next server once it was sent, so only `error` and `timeout` before sending are retried",
                    "remove it, or retry in the gRPC client (its service config can retry `UNAVAILABLE`)",
                ));
            }
            mask.tokens.push((lower, a.span));
        }
        Some(mask)
    }

    fn one_arg<'d>(&mut self, d: &'d Directive) -> Option<&'d Arg> {
        match d.args.as_slice() {
            [a] => Some(a),
            _ => {
                self.facts.diagnostics.push(invalid_setting::value(
                    d.head_span(),
                    &d.name,
                    &d.args
                        .iter()
                        .map(|a| a.value.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    "it takes exactly one value",
                ));
                None
            }
        }
    }

    pub(super) fn tries(&mut self, d: &Directive) -> Option<u64> {
        let a = self.one_arg(d)?;
        match a.value.parse::<u64>() {
            Ok(n) if a.value.bytes().all(|b| b.is_ascii_digit()) => Some(n),
            _ => {
                self.facts.diagnostics.push(invalid_setting::value(
                    a.span,
                    &d.name,
                    &a.value,
                    "not a whole number (`0` means no limit)",
                ));
                None
            }
        }
    }

    pub(super) fn time(&mut self, d: &Directive) -> Option<Duration> {
        let a = self.one_arg(d)?;
        match parse_time(&a.value) {
            Ok(t) => Some(t),
            Err(why) => {
                self.facts
                    .diagnostics
                    .push(invalid_setting::value(a.span, &d.name, &a.value, &why));
                None
            }
        }
    }

    /// The nearest block, from the one holding `at` outwards, that writes
    /// `name`: its directives with that name.
    pub(super) fn resolve(&self, at: usize, name: &str) -> Vec<usize> {
        let mut scope = self.cfg.get(at).parent;
        loop {
            if let Some(hits) = self.by_block.get(&(scope, name)) {
                return hits.clone();
            }
            match scope {
                None => return Vec::new(),
                Some(s) => scope = self.cfg.get(s).parent,
            }
        }
    }

    /// The value of `name` in force at directive `at`: written in this
    /// file, else inherited (then placed at `at`, its origin noted).
    pub(super) fn scalar(&mut self, at: usize, name: &str) -> Option<(Value, At)> {
        // A second scalar in one block is rejected by nginx; the first is
        // the one read.
        if let Some(&i) = self.resolve(at, name).first() {
            let span = self.cfg.get(i).head_span();
            let value = self.values.get(&i)?.clone();
            if let Some(from) = self.synthetic.get(&i).cloned() {
                self.note_from(from);
                return Some((value, At::included(span)));
            }
            return Some((value, At::written(span)));
        }
        let (v, from) = self.outer.get(name)?.first()?.clone();
        self.note_from(from);
        Some((v, At::included(self.cfg.get(at).head_span())))
    }

    fn note_from(&mut self, from: Option<SettingPlace>) {
        if let Some(from) = from
            && !self.used_from.contains(&from)
        {
            self.used_from.push(from);
        }
    }

    /// The `*_next_upstream` masks in force at the pass `at`, merged, and
    /// the span they are read at; `None` when nothing sets one.
    pub(super) fn masks(&mut self, at: usize, name: &str) -> Option<(Mask, At)> {
        let mut merged = Mask::default();
        let local = self.resolve(at, name);
        if local.is_empty() {
            let outer = self.outer.get(name)?.clone();
            let here = self.cfg.get(at).head_span();
            for (v, from) in outer {
                if let Value::Mask(v) = v {
                    merged.off |= v.off;
                    if v.non_idempotent.is_some() {
                        merged.non_idempotent = Some(here);
                    }
                    merged
                        .tokens
                        .extend(v.tokens.into_iter().map(|(t, _)| (t, here)));
                }
                self.note_from(from);
            }
            return Some((merged, At::included(here)));
        }
        let mut span: Option<Span> = None;
        let mut included = true;
        for m in &local {
            if let Some(Value::Mask(v)) = self.values.get(m) {
                merged.off |= v.off;
                merged.non_idempotent = merged.non_idempotent.or(v.non_idempotent);
                merged.tokens.extend(v.tokens.iter().cloned());
            }
            match self.synthetic.get(m).cloned() {
                Some(from) => self.note_from(from),
                None => included = false,
            }
            let s = self.cfg.get(*m).head_span();
            span = Some(span.map_or(s, |x| x.cover(s)));
        }
        let span = span?;
        Some((
            merged,
            if included {
                At::included(span)
            } else {
                At::written(span)
            },
        ))
    }
}
