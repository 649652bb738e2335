//! The reference of every `.retrylint.toml` key: the parser's list of
//! known keys and the README's configuration table are both made from it.

/// One documented key.
pub struct KeyDoc {
    /// The key, with its table (`thresholds.max-attempts`, `[[overrides]]`).
    pub key: &'static str,
    pub kind: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
}

/// Every key of `.retrylint.toml`.
pub const KEYS: &[KeyDoc] = &[
    KeyDoc {
        key: "select",
        kind: "array of strings",
        default: "all rules",
        doc: "rules to run: codes (`RL203`), code prefixes (`RL2`), names, or `ALL`",
    },
    KeyDoc {
        key: "ignore",
        kind: "array of strings",
        default: "none",
        doc: "rules not to run (codes, prefixes or names)",
    },
    KeyDoc {
        key: "exclude",
        kind: "array of globs",
        default: "none",
        doc: "paths not to scan, like `--exclude` (`.gitignore` is honoured too)",
    },
    KeyDoc {
        key: "max-file-size",
        kind: "integer (bytes)",
        default: "10485760",
        doc: "larger files are skipped with RL903",
    },
    KeyDoc {
        key: "test-code",
        kind: "`\"skip\"` or `\"read\"`",
        default: "`\"skip\"`",
        doc: "source code in test folders (`src/test/`, `tests/`, Python and Go `test/`, fixtures) or named as tests (`*Test.java`, `*_test.go`) is not the service: skipped and counted, or read",
    },
    KeyDoc {
        key: "cache-dir",
        kind: "string (path)",
        default: "`.retrylint-cache`",
        doc: "where the facts cache lives, relative to this file; `--no-cache` turns it off; per run, not per file",
    },
    KeyDoc {
        key: "severity",
        kind: "table: code or name = `\"error\"`, `\"warning\"` or `\"info\"`",
        default: "each rule's own",
        doc: "severity per rule",
    },
    KeyDoc {
        key: "thresholds.max-attempts",
        kind: "integer >= 1",
        default: "5",
        doc: "RL206: more total attempts than this in one policy",
    },
    KeyDoc {
        key: "thresholds.amplification",
        kind: "integer >= 1",
        default: "10",
        doc: "RL401: more attempts than this along one call path; per run, not per file",
    },
    KeyDoc {
        key: "thresholds.min-backoff-cap",
        kind: "integer >= 1 (seconds)",
        default: "10",
        doc: "RL207: a backoff cap below this many seconds is too small for unbounded or long-lived retries",
    },
    KeyDoc {
        key: "thresholds.min-retry-window",
        kind: "integer >= 1 (seconds)",
        default: "10",
        doc: "RL209: a retry that drops the work when it gives up (a task queue) must keep trying at least this many seconds",
    },
    KeyDoc {
        key: "[[overrides]] paths",
        kind: "array of globs (required)",
        default: "",
        doc: "files the override applies to; later overrides win",
    },
    KeyDoc {
        key: "[[overrides]] select",
        kind: "array of strings",
        default: "the run's",
        doc: "replaces the run's selection for these files",
    },
    KeyDoc {
        key: "[[overrides]] ignore",
        kind: "array of strings",
        default: "none",
        doc: "added to the run's ignores for these files",
    },
    KeyDoc {
        key: "[[overrides]] severity",
        kind: "table",
        default: "the run's",
        doc: "severity per rule for these files",
    },
    KeyDoc {
        key: "[[per-file-ignores]] paths",
        kind: "array of globs (required)",
        default: "",
        doc: "files whose findings are silenced (for formats without comments, such as JSON)",
    },
    KeyDoc {
        key: "[[per-file-ignores]] codes",
        kind: "array of strings (required)",
        default: "",
        doc: "the rules silenced there; an entry that silences nothing is RL904",
    },
    KeyDoc {
        key: "[[per-file-ignores]] reason",
        kind: "string",
        default: "none",
        doc: "why; entries without one are counted in the summary",
    },
    KeyDoc {
        key: "mesh",
        kind: "`\"auto\"`, `\"istio\"`, `\"linkerd\"` or `\"none\"`",
        default: "`auto`: per workload, from injection labels, else assumed from the mesh resources found (findings say so)",
        doc: "the service mesh whose sidecars retry calls: `istio` or `linkerd` puts every call in it, `none` none; per run, not per file",
    },
    KeyDoc {
        key: "[[services]] name",
        kind: "string (required, unique)",
        default: "",
        doc: "a service of the call graph; per run, not per file",
    },
    KeyDoc {
        key: "[[services]] paths",
        kind: "array of globs",
        default: "none",
        doc: "files that belong to the service",
    },
    KeyDoc {
        key: "[[services]] aliases",
        kind: "array of strings",
        default: "none",
        doc: "other names and hosts that reach the service",
    },
    KeyDoc {
        key: "[[edges]] from",
        kind: "string (required)",
        default: "",
        doc: "the calling service; per run, not per file",
    },
    KeyDoc {
        key: "[[edges]] to",
        kind: "string (required)",
        default: "",
        doc: "the called service",
    },
    KeyDoc {
        key: "[[edges]] via",
        kind: "string",
        default: "none",
        doc: "the proxy or gateway service that carries the call",
    },
    KeyDoc {
        key: "entry-points",
        kind: "array of strings",
        default: "services nobody calls",
        doc: "services where call paths start; per run, not per file",
    },
];

/// The configuration reference table of the README.
pub fn reference_markdown() -> String {
    let mut out = String::from("| key | type | default | what |\n|---|---|---|---|\n");
    for k in KEYS {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            k.key, k.kind, k.default, k.doc
        ));
    }
    out
}

/// Keys allowed directly in a table, from [`KEYS`].
pub(super) fn keys_of(table: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for k in KEYS {
        let key = k.key;
        let local = if table.is_empty() {
            if let Some(rest) = key.strip_prefix("[[") {
                rest.split("]]").next()
            } else {
                Some(key.split('.').next().unwrap_or(key))
            }
        } else if let Some(rest) = key.strip_prefix(&format!("[[{table}]] ")) {
            Some(rest)
        } else {
            key.strip_prefix(&format!("{table}."))
        };
        if let Some(l) = local
            && !out.contains(&l)
        {
            out.push(l);
        }
    }
    out
}
