//! `.retrylint.toml`: found from the scanned paths upward to the
//! repository root (the first directory holding `.git`; see
//! [`crate::config::discover_for`]), or named by
//! `--config FILE`; nested ones below apply to the files in their folders
//! (`crate::config::Settings::nested`, loaded by [`crate::pipeline`]); parsed with spans and validated into the types of
//! [`crate::config`]. Unknown keys and bad values are errors that name the
//! file, the line and column, and the closest known key.
//!
//! [`KEYS`] is the reference of every key: the parser's list of known keys
//! and the README's configuration table are both generated from it.

use crate::config::{
    EdgeConfig, Mesh, Override, PathGlobs, PathIgnore, ServiceConfig, Settings, normalise,
};
use crate::rules::{self, RULES, Severity};
use crate::source::{LineIndex, Span};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

pub use crate::config::{FILE_NAME, discover, discover_for, repo_root};

mod keys;
use keys::keys_of;
pub use keys::{KEYS, KeyDoc, reference_markdown};

/// A configuration error: file, 1-based line and column, message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// Read `path` into `settings` (which holds the defaults).
pub fn load(path: &Path, settings: &mut Settings) -> Result<String, ConfigError> {
    let shown = crate::source::display_path(&settings.shown(path));
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        file: shown.clone(),
        line: 1,
        column: 1,
        message: format!("cannot read: {e}"),
    })?;
    parse(&text, &shown, settings)?;
    let abs = normalise(&settings.resolve(path));
    settings.root = abs.parent().map(Path::to_path_buf);
    settings.config_file = Some(path.to_path_buf());
    Ok(text)
}

struct Ctx<'a> {
    file: &'a str,
    lines: LineIndex,
    text: &'a str,
}

type Val<'i> = Spanned<DeValue<'i>>;

impl Ctx<'_> {
    fn err(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> ConfigError {
        let at = self.lines.line_col(self.text, span.start);
        ConfigError {
            file: self.file.to_string(),
            line: at.line,
            column: at.column,
            message: message.into(),
        }
    }

    fn check_keys(&self, table: &DeTable<'_>, which: &str) -> Result<(), ConfigError> {
        let known = keys_of(which);
        let mut unknown: Vec<(&Spanned<std::borrow::Cow<'_, str>>, String)> = Vec::new();
        for (k, _) in table.iter() {
            if !known.contains(&k.get_ref().as_ref()) {
                let hint = rules::did_you_mean(k.get_ref(), known.iter().copied())
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_else(|| format!("; known keys: {}", known.join(", ")));
                let place = if which.is_empty() {
                    String::new()
                } else {
                    format!(" in `{which}`")
                };
                unknown.push((k, format!("unknown key `{}`{place}{hint}", k.get_ref())));
            }
        }
        unknown.sort_by_key(|(k, _)| k.span().start);
        match unknown.into_iter().next() {
            Some((k, msg)) => Err(self.err(k.span(), msg)),
            None => Ok(()),
        }
    }

    fn string(&self, v: &Val<'_>, key: &str) -> Result<String, ConfigError> {
        match v.get_ref() {
            DeValue::String(s) => Ok(s.to_string()),
            other => Err(self.err(
                v.span(),
                format!("`{key}` must be a string, not {}", other.type_str()),
            )),
        }
    }

    fn strings(&self, v: &Val<'_>, key: &str) -> Result<Vec<(String, Span)>, ConfigError> {
        let DeValue::Array(a) = v.get_ref() else {
            return Err(self.err(
                v.span(),
                format!(
                    "`{key}` must be an array of strings, not {}",
                    v.get_ref().type_str()
                ),
            ));
        };
        a.iter()
            .map(|item| {
                let s = self.string(item, key)?;
                Ok((s, Span::new(item.span().start, item.span().end)))
            })
            .collect()
    }

    fn rule_patterns(&self, v: &Val<'_>, key: &str) -> Result<Vec<String>, ConfigError> {
        let items = self.strings(v, key)?;
        for (p, span) in &items {
            if !RULES.iter().any(|r| Settings::pattern_matches(p, r)) {
                let hint = rules::did_you_mean(p, RULES.iter().flat_map(|r| [r.code, r.name]))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(self.err(
                    span.start..span.end,
                    format!("`{p}` in `{key}` matches no rule{hint}"),
                ));
            }
        }
        Ok(items.into_iter().map(|(s, _)| s).collect())
    }

    fn globs(&self, v: &Val<'_>, key: &str) -> Result<PathGlobs, ConfigError> {
        let items = self.strings(v, key)?;
        for (p, span) in &items {
            PathGlobs::new(vec![p.clone()]).map_err(|e| self.err(span.start..span.end, e))?;
        }
        PathGlobs::new(items.into_iter().map(|(s, _)| s).collect())
            .map_err(|e| self.err(v.span(), e))
    }

    fn positive(&self, v: &Val<'_>, key: &str) -> Result<u64, ConfigError> {
        let n = match v.get_ref() {
            DeValue::Integer(i) => {
                let digits = i.as_str().replace('_', "");
                let digits = digits.strip_prefix('+').unwrap_or(&digits);
                u64::from_str_radix(
                    digits
                        .trim_start_matches("0x")
                        .trim_start_matches("0o")
                        .trim_start_matches("0b"),
                    i.radix(),
                )
                .ok()
            }
            other => {
                return Err(self.err(
                    v.span(),
                    format!("`{key}` must be an integer, not {}", other.type_str()),
                ));
            }
        };
        match n {
            Some(n) if n >= 1 => Ok(n),
            _ => Err(self.err(
                v.span(),
                format!(
                    "`{key}` must be a whole number of at least 1, not `{}`",
                    &self.text[v.span()]
                ),
            )),
        }
    }

    fn table<'t, 'i>(&self, v: &'t Val<'i>, key: &str) -> Result<&'t DeTable<'i>, ConfigError> {
        match v.get_ref() {
            DeValue::Table(t) => Ok(t),
            other => Err(self.err(
                v.span(),
                format!("`{key}` must be a table, not {}", other.type_str()),
            )),
        }
    }

    fn tables<'t, 'i>(&self, v: &'t Val<'i>, key: &str) -> Result<Vec<&'t Val<'i>>, ConfigError> {
        match v.get_ref() {
            DeValue::Array(a) => {
                for item in a.iter() {
                    if !item.get_ref().is_table() {
                        return Err(self.err(
                            item.span(),
                            format!("`{key}` entries must be tables (`[[{key}]]`)"),
                        ));
                    }
                }
                Ok(a.iter().collect())
            }
            other => Err(self.err(
                v.span(),
                format!(
                    "`{key}` must be an array of tables (`[[{key}]]`), not {}",
                    other.type_str()
                ),
            )),
        }
    }

    fn severities(
        &self,
        v: &Val<'_>,
        key: &str,
    ) -> Result<BTreeMap<String, Severity>, ConfigError> {
        let t = self.table(v, key)?;
        let mut out = BTreeMap::new();
        for (k, val) in t.iter() {
            let Some(rule) = rules::lookup(k.get_ref()) else {
                let hint =
                    rules::did_you_mean(k.get_ref(), RULES.iter().flat_map(|r| [r.code, r.name]))
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                return Err(self.err(
                    k.span(),
                    format!("`{}` in `{key}` is no rule{hint}", k.get_ref()),
                ));
            };
            let s = self.string(val, &format!("{key}.{}", k.get_ref()))?;
            let Some(sev) = Severity::parse(&s) else {
                let hint = rules::did_you_mean(&s, ["error", "warning", "info"])
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(self.err(
                    val.span(),
                    format!("severity `{s}` is not one of `error`, `warning`, `info`{hint}"),
                ));
            };
            out.insert(rule.code.to_string(), sev);
        }
        Ok(out)
    }

    fn required<'t, 'i>(
        &self,
        t: &'t DeTable<'i>,
        at: &Val<'_>,
        key: &str,
        table: &str,
    ) -> Result<&'t Val<'i>, ConfigError> {
        t.get(key)
            .ok_or_else(|| self.err(at.span(), format!("a `[[{table}]]` entry needs `{key}`")))
    }
}

/// Parse and validate `text` (shown as `file` in errors) into `settings`.
pub fn parse(text: &str, file: &str, settings: &mut Settings) -> Result<(), ConfigError> {
    let cx = Ctx {
        file,
        lines: LineIndex::new(text),
        text,
    };
    let doc = DeTable::parse(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        cx.err(span, e.message().trim().to_string())
    })?;
    let root = doc.get_ref();
    cx.check_keys(root, "")?;
    // The sorted map visits keys alphabetically; errors must be stable,
    // so each key is read in a fixed order.
    if let Some(v) = root.get("select") {
        settings.select = cx.rule_patterns(v, "select")?;
    }
    if let Some(v) = root.get("ignore") {
        settings.ignore = cx.rule_patterns(v, "ignore")?;
    }
    if let Some(v) = root.get("exclude") {
        let items = cx.strings(v, "exclude")?;
        for (p, span) in &items {
            globset::Glob::new(p).map_err(|e| {
                cx.err(
                    span.start..span.end,
                    format!("bad glob `{p}`: {}", e.kind()),
                )
            })?;
        }
        settings.exclude = items.into_iter().map(|(s, _)| s).collect();
    }
    if let Some(v) = root.get("max-file-size") {
        settings.max_file_size = cx.positive(v, "max-file-size")?;
    }
    if let Some(v) = root.get("test-code") {
        settings.read_test_code = match cx.string(v, "test-code")?.as_str() {
            "skip" => false,
            "read" => true,
            other => {
                return Err(cx.err(
                    v.span(),
                    format!("`test-code` must be `skip` or `read`, not `{other}`"),
                ));
            }
        };
    }
    if let Some(v) = root.get("generated-code") {
        settings.read_generated_code = match cx.string(v, "generated-code")?.as_str() {
            "skip" => false,
            "read" => true,
            other => {
                return Err(cx.err(
                    v.span(),
                    format!("`generated-code` must be `skip` or `read`, not `{other}`"),
                ));
            }
        };
    }
    if let Some(v) = root.get("cache-dir") {
        // Relative to the file's directory (the settings' root): resolved
        // by the command line once the root is known.
        settings.cache_dir = Some(PathBuf::from(cx.string(v, "cache-dir")?));
    }
    if let Some(v) = root.get("severity") {
        settings.severity = cx.severities(v, "severity")?;
    }
    if let Some(v) = root.get("thresholds") {
        let t = cx.table(v, "thresholds")?;
        cx.check_keys(t, "thresholds")?;
        if let Some(n) = t.get("max-attempts") {
            settings.thresholds.max_attempts = cx.positive(n, "thresholds.max-attempts")?;
        }
        if let Some(n) = t.get("amplification") {
            settings.thresholds.amplification = cx.positive(n, "thresholds.amplification")?;
        }
        if let Some(n) = t.get("min-backoff-cap") {
            settings.thresholds.min_backoff_cap = cx.positive(n, "thresholds.min-backoff-cap")?;
        }
        if let Some(n) = t.get("min-retry-window") {
            settings.thresholds.min_retry_window = cx.positive(n, "thresholds.min-retry-window")?;
        }
    }
    if let Some(v) = root.get("overrides") {
        for item in cx.tables(v, "overrides")? {
            let t = cx.table(item, "overrides")?;
            cx.check_keys(t, "overrides")?;
            let paths = cx.globs(cx.required(t, item, "paths", "overrides")?, "paths")?;
            let select = t
                .get("select")
                .map(|s| cx.rule_patterns(s, "select"))
                .transpose()?;
            let ignore = t
                .get("ignore")
                .map(|s| cx.rule_patterns(s, "ignore"))
                .transpose()?
                .unwrap_or_default();
            let severity = t
                .get("severity")
                .map(|s| cx.severities(s, "severity"))
                .transpose()?
                .unwrap_or_default();
            settings.overrides.push(Override {
                paths,
                select,
                ignore,
                severity,
                span: Span::new(item.span().start, item.span().end),
            });
        }
    }
    if let Some(v) = root.get("per-file-ignores") {
        for item in cx.tables(v, "per-file-ignores")? {
            let t = cx.table(item, "per-file-ignores")?;
            cx.check_keys(t, "per-file-ignores")?;
            let paths = cx.globs(cx.required(t, item, "paths", "per-file-ignores")?, "paths")?;
            let codes = cx.required(t, item, "codes", "per-file-ignores")?;
            let list = cx.strings(codes, "codes")?;
            for (c, span) in &list {
                if rules::lookup(c).is_none() {
                    let hint = rules::did_you_mean(c, RULES.iter().flat_map(|r| [r.code, r.name]))
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    return Err(cx.err(
                        span.start..span.end,
                        format!("`{c}` in `codes` is no rule{hint}"),
                    ));
                }
            }
            if list.is_empty() {
                return Err(cx.err(codes.span(), "`codes` must name at least one rule"));
            }
            let reason = t
                .get("reason")
                .map(|r| cx.string(r, "reason"))
                .transpose()?
                .filter(|r| !r.trim().is_empty());
            settings.per_file_ignores.push(PathIgnore {
                paths,
                codes: list.into_iter().map(|(s, _)| s).collect(),
                reason,
                span: Span::new(item.span().start, item.span().end),
            });
        }
    }
    if let Some(v) = root.get("mesh") {
        let s = cx.string(v, "mesh")?;
        settings.graph.mesh = match s.as_str() {
            "auto" => Mesh::Auto,
            "istio" => Mesh::Istio,
            "linkerd" => Mesh::Linkerd,
            "none" => Mesh::None,
            other => {
                let hint = rules::did_you_mean(other, ["auto", "istio", "linkerd", "none"])
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(cx.err(
                    v.span(),
                    format!(
                        "`mesh` must be `auto`, `istio`, `linkerd` or `none`, not `{other}`{hint}"
                    ),
                ));
            }
        };
    }
    if let Some(v) = root.get("services") {
        for item in cx.tables(v, "services")? {
            let t = cx.table(item, "services")?;
            cx.check_keys(t, "services")?;
            let name_v = cx.required(t, item, "name", "services")?;
            let name = cx.string(name_v, "name")?;
            if name.trim().is_empty() {
                return Err(cx.err(name_v.span(), "a service `name` must not be empty"));
            }
            if settings.graph.services.iter().any(|s| s.name == name) {
                return Err(cx.err(name_v.span(), format!("service `{name}` is declared twice")));
            }
            let paths = t
                .get("paths")
                .map(|p| cx.globs(p, "paths"))
                .transpose()?
                .unwrap_or_default();
            let aliases = t
                .get("aliases")
                .map(|a| cx.strings(a, "aliases"))
                .transpose()?
                .unwrap_or_default()
                .into_iter()
                .map(|(s, _)| s)
                .collect();
            settings.graph.services.push(ServiceConfig {
                name,
                paths: paths.patterns().to_vec(),
                aliases,
            });
        }
    }
    if let Some(v) = root.get("edges") {
        for item in cx.tables(v, "edges")? {
            let t = cx.table(item, "edges")?;
            cx.check_keys(t, "edges")?;
            let end = |key: &str| -> Result<String, ConfigError> {
                let v = cx.required(t, item, key, "edges")?;
                let s = cx.string(v, key)?;
                if s.trim().is_empty() {
                    return Err(cx.err(v.span(), format!("`{key}` must not be empty")));
                }
                Ok(s)
            };
            let from = end("from")?;
            let to = end("to")?;
            let via = t.get("via").map(|v| cx.string(v, "via")).transpose()?;
            settings.graph.edges.push(EdgeConfig { from, to, via });
        }
    }
    if let Some(v) = root.get("entry-points") {
        settings.graph.entry_points = cx
            .strings(v, "entry-points")?
            .into_iter()
            .map(|(s, _)| s)
            .collect();
    }
    Ok(())
}

/// The effective configuration as TOML, for `retrylint config`.
pub fn effective_toml(s: &Settings) -> String {
    use toml::{Table, Value};
    let strings = |v: &[String]| Value::Array(v.iter().map(|s| Value::String(s.clone())).collect());
    let sev = |m: &BTreeMap<String, Severity>| {
        Value::Table(
            m.iter()
                .map(|(k, v)| (k.clone(), Value::String(v.as_str().into())))
                .collect(),
        )
    };
    let mut t = Table::new();
    t.insert("select".into(), strings(&s.select));
    t.insert("ignore".into(), strings(&s.ignore));
    t.insert("exclude".into(), strings(&s.exclude));
    t.insert(
        "max-file-size".into(),
        Value::Integer(i64::try_from(s.max_file_size).unwrap_or(i64::MAX)),
    );
    t.insert(
        "test-code".into(),
        Value::String(if s.read_test_code { "read" } else { "skip" }.into()),
    );
    t.insert(
        "generated-code".into(),
        Value::String(
            if s.read_generated_code {
                "read"
            } else {
                "skip"
            }
            .into(),
        ),
    );
    t.insert("mesh".into(), Value::String(s.graph.mesh.as_str().into()));
    t.insert("entry-points".into(), strings(&s.graph.entry_points));
    // Every rule's effective severity, so the output is a full picture.
    let mut all = BTreeMap::new();
    for r in RULES {
        all.insert(r.code.to_string(), s.severity_of(r));
    }
    t.insert("severity".into(), sev(&all));
    let mut th = Table::new();
    th.insert(
        "max-attempts".into(),
        Value::Integer(i64::try_from(s.thresholds.max_attempts).unwrap_or(i64::MAX)),
    );
    th.insert(
        "amplification".into(),
        Value::Integer(i64::try_from(s.thresholds.amplification).unwrap_or(i64::MAX)),
    );
    th.insert(
        "min-backoff-cap".into(),
        Value::Integer(i64::try_from(s.thresholds.min_backoff_cap).unwrap_or(i64::MAX)),
    );
    th.insert(
        "min-retry-window".into(),
        Value::Integer(i64::try_from(s.thresholds.min_retry_window).unwrap_or(i64::MAX)),
    );
    t.insert("thresholds".into(), Value::Table(th));
    let arr = |items: Vec<Table>| Value::Array(items.into_iter().map(Value::Table).collect());
    if !s.overrides.is_empty() {
        let items = s
            .overrides
            .iter()
            .map(|o| {
                let mut e = Table::new();
                e.insert("paths".into(), strings(o.paths.patterns()));
                if let Some(sel) = &o.select {
                    e.insert("select".into(), strings(sel));
                }
                e.insert("ignore".into(), strings(&o.ignore));
                e.insert("severity".into(), sev(&o.severity));
                e
            })
            .collect();
        t.insert("overrides".into(), arr(items));
    }
    if !s.per_file_ignores.is_empty() {
        let items = s
            .per_file_ignores
            .iter()
            .map(|i| {
                let mut e = Table::new();
                e.insert("paths".into(), strings(i.paths.patterns()));
                e.insert("codes".into(), strings(&i.codes));
                if let Some(r) = &i.reason {
                    e.insert("reason".into(), Value::String(r.clone()));
                }
                e
            })
            .collect();
        t.insert("per-file-ignores".into(), arr(items));
    }
    if !s.graph.services.is_empty() {
        let items = s
            .graph
            .services
            .iter()
            .map(|sv| {
                let mut e = Table::new();
                e.insert("name".into(), Value::String(sv.name.clone()));
                e.insert("paths".into(), strings(&sv.paths));
                e.insert("aliases".into(), strings(&sv.aliases));
                e
            })
            .collect();
        t.insert("services".into(), arr(items));
    }
    if !s.graph.edges.is_empty() {
        let items = s
            .graph
            .edges
            .iter()
            .map(|ed| {
                let mut e = Table::new();
                e.insert("from".into(), Value::String(ed.from.clone()));
                e.insert("to".into(), Value::String(ed.to.clone()));
                if let Some(v) = &ed.via {
                    e.insert("via".into(), Value::String(v.clone()));
                }
                e
            })
            .collect();
        t.insert("edges".into(), arr(items));
    }
    let head = match &s.config_file {
        Some(p) => format!(
            "# effective configuration: {} and the command line\n",
            crate::source::display_path(p)
        ),
        None => {
            "# effective configuration: defaults and the command line (no .retrylint.toml found)\n"
                .to_string()
        }
    };
    format!("{head}{}", toml::to_string(&t).unwrap_or_default())
}

#[cfg(test)]
mod tests;
