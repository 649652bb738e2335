//! docker compose's `.env` files and `${VAR}` interpolation (issue 17,
//! item 2), as the compose specification defines them: `.env` beside the
//! compose file holds the project's variables, `${VAR}` in the file is
//! replaced by them, a bare `- VAR` entry of `environment` takes its value
//! from them, and a service's `env_file` files add container variables
//! that `environment` overrides.
//!
//! Syntax, from the Compose file reference
//! (<https://docs.docker.com/reference/compose-file/interpolation/>, the
//! compose-spec's `12-interpolation.md`): `$VAR`, `${VAR}`,
//! `${VAR:-default}` (unset or empty), `${VAR-default}` (unset),
//! `${VAR:?err}`/`${VAR?err}` (an error when unset), `${VAR:+alt}`/
//! `${VAR+alt}`, nesting, `$$` for a literal `$`; and for `.env` files
//! (<https://docs.docker.com/compose/env-file/>): `KEY=VALUE` lines, `#`
//! comments, single or double quotes, an unquoted value ending at ` #`
//! (an optional `export ` is accepted too). Compose substitutes an unset
//! variable without a default by an empty string and warns; here the
//! shell it runs in is not known, so such a value stays unresolved.

use std::collections::HashMap;

/// Nested defaults deeper than this are not expanded.
const MAX_DEPTH: usize = 8;
/// An expanded value is at most this long.
const MAX_VALUE: usize = 64 * 1024;
/// At most this many lines of a `.env` file are read.
const MAX_LINES: usize = 10_000;

/// What docker compose adds to a compose file: the project's variables
/// (`.env`) and each `env_file` path's entries, as written in the file.
#[derive(Clone, Debug, Default)]
pub struct ComposeEnv {
    pub vars: HashMap<String, String>,
    pub env_files: HashMap<String, Vec<(String, String)>>,
}

/// The `KEY=VALUE` entries of a `.env` or `env_file` file, in order, with
/// their values interpolated as docker compose does: an unquoted or
/// double-quoted value is expanded (`${VAR}`, `${VAR:-default}` ...) from
/// `lookup` first, then from the entries above it in the same file; a
/// single-quoted value is literal (compose-go `dotenv/parser.go`
/// `extractVarValue` and `dotenv/godotenv.go` `ExpandVariables`,
/// github.com/compose-spec/compose-go, commits 0421734 and 27f1058). For a
/// project's `.env` the lookup is the shell's environment, not known here
/// (empty); for a service's `env_file`, the project's variables. A value
/// that names a variable set nowhere, with no default, is left out: an
/// entry that uses it stays unresolved rather than guessed.
pub fn parse_dotenv(text: &str, lookup: &HashMap<String, String>) -> Vec<(String, String)> {
    // Each key's last entry, in the order of the entries.
    let mut out: Vec<Option<(String, String)>> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    // The lookup, then the entries above (the lookup wins).
    let mut vars = lookup.clone();
    for (k, raw, literal) in entries(text) {
        let value = if literal || !raw.contains('$') {
            Some(raw)
        } else {
            interpolate(&raw, &vars)
        };
        if let Some(i) = at.remove(&k) {
            out[i] = None;
        }
        if !lookup.contains_key(&k) {
            match &value {
                Some(v) => vars.insert(k.clone(), v.clone()),
                None => vars.remove(&k),
            };
        }
        if let Some(v) = value {
            at.insert(k.clone(), out.len());
            out.push(Some((k, v)));
        }
    }
    out.into_iter().flatten().collect()
}

/// The raw entries of a `.env` file: key, value as written (quotes
/// removed), and whether it was single-quoted (literal).
fn entries(text: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for line in text.lines().take(MAX_LINES) {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let l = l.strip_prefix("export ").unwrap_or(l);
        let Some((k, v)) = l.split_once('=') else {
            continue;
        };
        let k = k.trim();
        if k.is_empty()
            || !k
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let v = v.trim();
        let quote = v.chars().next().filter(|c| *c == '"' || *c == '\'');
        let value = if let Some(q) = quote {
            let rest = &v[1..];
            match rest.find(q) {
                Some(end) => rest[..end].to_string(),
                None => rest.to_string(),
            }
        } else {
            v.split(" #").next().unwrap_or(v).trim().to_string()
        };
        out.push((k.to_string(), value, quote == Some('\'')));
    }
    out
}

/// `text` with its compose interpolations replaced from `vars`; `None`
/// when one names a variable that is not set and has no default.
pub fn interpolate(text: &str, vars: &HashMap<String, String>) -> Option<String> {
    expand(text, vars, 0)
}

fn expand(text: &str, vars: &HashMap<String, String>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'$' {
            let c = text[i..].chars().next()?;
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        match b.get(i + 1) {
            Some(b'$') => {
                out.push('$');
                i += 2;
            }
            Some(b'{') => {
                let end = closing(b, i + 1)?;
                out.push_str(&braced(&text[i + 2..end], vars, depth)?);
                i = end + 1;
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let name_end = text[i + 1..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(text.len(), |k| i + 1 + k);
                out.push_str(vars.get(&text[i + 1..name_end])?);
                i = name_end;
            }
            _ => {
                out.push('$');
                i += 1;
            }
        }
        if out.len() > MAX_VALUE {
            return None;
        }
    }
    Some(out)
}

/// The index of the `}` that closes the `{` at `open`.
fn closing(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The value of `${inner}`.
fn braced(inner: &str, vars: &HashMap<String, String>, depth: usize) -> Option<String> {
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, op) = inner.split_at(name_end);
    let value = vars.get(name);
    let set = value.is_some();
    let non_empty = value.is_some_and(|v| !v.is_empty());
    let arg = |prefix: &str| op.strip_prefix(prefix);
    if op.is_empty() {
        return value.cloned();
    }
    if let Some(d) = arg(":-") {
        return if non_empty {
            value.cloned()
        } else {
            expand(d, vars, depth + 1)
        };
    }
    if let Some(d) = arg("-") {
        return if set {
            value.cloned()
        } else {
            expand(d, vars, depth + 1)
        };
    }
    if arg(":?").is_some() {
        return value.filter(|v| !v.is_empty()).cloned();
    }
    if arg("?").is_some() {
        return value.cloned();
    }
    if let Some(alt) = arg(":+") {
        return if non_empty {
            expand(alt, vars, depth + 1)
        } else {
            Some(String::new())
        };
    }
    if let Some(alt) = arg("+") {
        return if set {
            expand(alt, vars, depth + 1)
        } else {
            Some(String::new())
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn interpolation_follows_the_compose_spec() {
        let v = vars(&[("HOST", "orders"), ("EMPTY", "")]);
        assert_eq!(
            interpolate("http://${HOST}:8080", &v).as_deref(),
            Some("http://orders:8080")
        );
        assert_eq!(
            interpolate("http://$HOST/x", &v).as_deref(),
            Some("http://orders/x")
        );
        assert_eq!(
            interpolate("${NOPE:-cart:7070}", &v).as_deref(),
            Some("cart:7070")
        );
        assert_eq!(interpolate("${EMPTY:-a}", &v).as_deref(), Some("a"));
        assert_eq!(interpolate("${EMPTY-a}", &v).as_deref(), Some(""));
        assert_eq!(
            interpolate("${NOPE:-${HOST}}", &v).as_deref(),
            Some("orders")
        );
        assert_eq!(
            interpolate("${HOST:+x}${NOPE:+y}", &v).as_deref(),
            Some("x")
        );
        assert_eq!(interpolate("$$HOST", &v).as_deref(), Some("$HOST"));
        assert_eq!(interpolate("${NOPE}", &v), None);
        assert_eq!(interpolate("${NOPE:?must be set}", &v), None);
        assert_eq!(interpolate("${HOST", &v), None);
    }

    #[test]
    fn dotenv_lines() {
        let e = parse_dotenv(
            "# c\nexport A=1\nB = \"x # y\"\nC='q'\nD=plain # note\nnot a line\n=x\n",
            &HashMap::new(),
        );
        assert_eq!(
            e,
            [
                ("A".into(), "1".into()),
                ("B".into(), "x # y".into()),
                ("C".into(), "q".into()),
                ("D".into(), "plain".into())
            ]
        );
    }

    /// Values are interpolated from the entries above and the lookup;
    /// single quotes are literal; a value naming an unset variable is left
    /// out (compose-go's dotenv parser).
    #[test]
    fn dotenv_values_are_interpolated_like_compose() {
        let e = parse_dotenv(
            "HOST=cart\nPORT=7070\nCART_ADDR=${HOST}:${PORT}\nQ=\"http://$HOST/x\"\nLIT='${HOST}'\nD=${NOPE:-stock:80}\nU=http://${NOPE}/\nL=${ZONE}-db\nHOST=other\n",
            &vars(&[("ZONE", "eu")]),
        );
        let get = |k: &str| e.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("CART_ADDR"), Some("cart:7070"));
        assert_eq!(get("Q"), Some("http://cart/x"));
        assert_eq!(get("LIT"), Some("${HOST}"));
        assert_eq!(get("D"), Some("stock:80"));
        assert_eq!(get("U"), None);
        assert_eq!(get("L"), Some("eu-db"));
        // A later entry of the same key replaces the first.
        assert_eq!(get("HOST"), Some("other"));
        assert_eq!(e.iter().filter(|(n, _)| n == "HOST").count(), 1);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "${A:-".repeat(100) + "x" + &"}".repeat(100);
        assert_eq!(interpolate(&deep, &HashMap::new()), None);
    }
}
