//! The suppression pass, between check and render.
//!
//! - Inline: `retrylint: ignore[RL203] reason` in a comment silences the
//!   listed rules on the comment's own line (a trailing comment) or on the
//!   line below (a comment alone on its line). Several codes:
//!   `ignore[RL203,RL204]`; codes or rule names.
//! - File-level: `retrylint: ignore-file[RL203] reason` anywhere in a
//!   comment silences the rules in the whole file.
//! - Configuration: `[[per-file-ignores]]` silences codes in files matching
//!   path globs, for formats without comments (JSON).
//!
//! A suppression without a reason is accepted but counted. A suppression
//! that silences nothing, names no rule, or is malformed is RL904
//! unused-suppression.
//!
//! Comments are found without reparsing: one substring search for
//! `retrylint:` per file, then a look at the characters before it on its
//! line for the comment marker of the file's syntax (`#` for YAML, nginx,
//! properties (also `!`), INI (also `;`) and TOML; `//` and `/*` for Rust,
//! Java, JSONC and .NET's `appsettings*.json`; none for other JSON).

use crate::Scan;
use crate::config::Settings;
use crate::fix::{Edit, Fix};
use crate::model::Syntax;
use crate::rules::settings::unused_suppression::{self, Place};
use crate::rules::{self, Finding};
use crate::source::{FileId, SourceFile, Span};
use memchr::memmem;
use std::path::Path;

const MARKER: &str = "retrylint:";

/// Where a directive applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Findings starting on these 0-based lines (inclusive).
    Lines(usize, usize),
    /// The whole file.
    File,
}

/// One `retrylint:` comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    /// From `retrylint:` to the end of the comment text.
    pub span: Span,
    pub reach: Reach,
    /// Each code as written, with its span.
    pub codes: Vec<(String, Span)>,
    pub reason: Option<String>,
    /// Why the comment is not a valid directive.
    pub error: Option<String>,
    /// The whole comment, from its marker to its end (past `*/`).
    pub comment: Span,
    /// Whether the comment stands alone on its line.
    pub own_line: bool,
}

/// The comment markers of a file: its syntax's, or for a file not read
/// with one (a test's text), by its name.
pub fn comment_markers(syntax: Option<Syntax>, path: &Path) -> &'static [&'static str] {
    if let Some(syntax) = syntax {
        return syntax.comment_markers();
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        // .NET's JSON configuration provider skips comments.
        "json" if name.starts_with("appsettings") => &["//", "/*"],
        "json" => &[],
        "properties" => &["#", "!"],
        "yml" | "yaml" | "conf" | "toml" | "env" | "nginx" => &["#"],
        "ini" | "cfg" => &["#", ";"],
        "rs" | "java" | "kt" | "scala" | "groovy" | "go" | "js" | "ts" | "cs" | "jsonc"
        | "json5" | "proto" => &["//", "/*"],
        // `~/.aws/config`, `credentials` and other files without an
        // extension are INI-like.
        "" => &["#", ";"],
        _ => &["#", "//"],
    }
}

/// Every `retrylint:` directive in a file's comments.
pub fn directives(
    syntax: Option<Syntax>,
    path: &Path,
    text: &str,
    file: &SourceFile,
) -> Vec<Directive> {
    let markers = comment_markers(syntax, path);
    if markers.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for at in memmem::find_iter(text.as_bytes(), MARKER.as_bytes()) {
        let line = file.lines().line_of(at);
        let line_start = file.lines().line_start(line);
        let Some(before) = text.get(line_start..at) else {
            continue;
        };
        let trimmed = before.trim_end();
        let Some(marker) = markers.iter().find(|m| trimmed.ends_with(**m)) else {
            continue;
        };
        let code_part = &trimmed[..trimmed.len() - marker.len()];
        // `#` starts a comment only at the start of a line or after a
        // blank (YAML, properties); `key#value` is not a comment.
        if *marker == "#" && !code_part.is_empty() && !code_part.ends_with([' ', '\t']) {
            continue;
        }
        let own_line = code_part.trim().is_empty();
        let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
        let mut body_end = line_end;
        if *marker == "/*"
            && let Some(i) = text[at..line_end].find("*/")
        {
            body_end = at + i;
        }
        if let Some(mut d) = parse(text, at, body_end, line, own_line) {
            let end = if body_end < line_end {
                body_end + 2
            } else {
                line_end
            };
            d.comment = Span::new(line_start + code_part.len(), end);
            d.own_line = own_line;
            out.push(d);
        }
    }
    out
}

/// Parse the directive at `at..end`; `None` when the comment merely
/// mentions retrylint.
fn parse(text: &str, at: usize, end: usize, line: usize, own_line: bool) -> Option<Directive> {
    let body_start = at + MARKER.len();
    let body = &text[body_start..end];
    let lead = body.len() - body.trim_start().len();
    let body = body.trim_start();
    let word_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(body.len());
    let word = &body[..word_len];
    let rest = &body[word_len..];
    let span = Span::new(at, at + MARKER.len() + lead + body.trim_end().len());
    let reach = match word {
        "ignore" => Reach::Lines(line, if own_line { line + 1 } else { line }),
        "ignore-file" => Reach::File,
        _ if rest.starts_with('[') => {
            let hint = rules::did_you_mean(word, ["ignore", "ignore-file"])
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Some(Directive {
                span,
                reach: Reach::Lines(line, line),
                codes: Vec::new(),
                reason: None,
                error: Some(format!("`{word}` is not a retrylint directive{hint}")),
                comment: span,
                own_line,
            });
        }
        _ => return None,
    };
    let mut d = Directive {
        span,
        reach,
        codes: Vec::new(),
        reason: None,
        error: None,
        comment: span,
        own_line,
    };
    let Some(list) = rest.strip_prefix('[') else {
        d.error = Some(format!(
            "`{word}` needs the rules it silences in brackets: `{word}[RL203]`"
        ));
        return Some(d);
    };
    let Some(close) = list.find(']') else {
        d.error = Some("the list of rules is not closed with `]`".into());
        return Some(d);
    };
    let list_start = body_start + lead + word_len + 1;
    let mut offset = 0;
    for part in list[..close].split(',') {
        let code = part.trim();
        let inner = part.len() - part.trim_start().len();
        if !code.is_empty() {
            let s = list_start + offset + inner;
            d.codes
                .push((code.to_string(), Span::new(s, s + code.len())));
        }
        offset += part.len() + 1;
    }
    if d.codes.is_empty() {
        d.error = Some(format!("`{word}[]` names no rule"));
    }
    let reason = list[close + 1..]
        .trim()
        .trim_start_matches([':', '-', '\u{2014}'])
        .trim();
    d.reason = (!reason.is_empty()).then(|| reason.to_string());
    Some(d)
}

/// How a finding was silenced.
#[derive(Clone, Debug, PartialEq)]
pub enum By {
    /// An inline or file-level comment at this span of the finding's file.
    Comment(FileId, Span),
    /// The `[[per-file-ignores]]` entry with this index in the configuration
    /// that applies to the finding's file.
    Config(usize),
}

/// A finding that a suppression silenced.
#[derive(Clone, Debug)]
pub struct Suppressed {
    pub finding: Finding,
    pub by: By,
    pub reason: Option<String>,
}

/// What the pass did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings still reported, RL904 findings included.
    pub findings: Vec<Finding>,
    pub suppressed: Vec<Suppressed>,
    /// Suppressions (comments and entries) without a reason.
    pub without_reason: usize,
}

fn names(code: &str, rule: &rules::Rule) -> bool {
    code.eq_ignore_ascii_case(rule.code) || code.eq_ignore_ascii_case(rule.name)
}

/// Silence findings, then report what silenced nothing. `config` is the
/// id of the configuration file in the scan, where RL904 for its entries
/// is reported (`None`: not reported).
pub fn apply(
    scan: &Scan,
    findings: Vec<Finding>,
    settings: &Settings,
    configs: &[Option<FileId>],
) -> Outcome {
    // Each file's text searched for its directives on every core.
    let per_file: Vec<Vec<Directive>> = {
        use rayon::prelude::*;
        scan.files
            .par_iter()
            .map(|f| directives(f.syntax, &f.source.path, &f.source.text, &f.source))
            .collect()
    };
    let mut used: Vec<Vec<Vec<bool>>> = per_file
        .iter()
        .map(|ds| ds.iter().map(|d| vec![false; d.codes.len()]).collect())
        .collect();
    // Per configuration (`Settings::scopes`), per entry, per code.
    let scopes: Vec<&Settings> = settings.scopes().collect();
    let mut entry_used: Vec<Vec<Vec<bool>>> = scopes
        .iter()
        .map(|s| {
            s.per_file_ignores
                .iter()
                .map(|e| vec![false; e.codes.len()])
                .collect()
        })
        .collect();
    let mut out = Outcome::default();
    // Each file's configuration, and its path as that one's globs see it
    // (made for the files with a finding only: a one-file run has
    // thousands without).
    let scope: Vec<usize> = scan
        .files
        .iter()
        .map(|f| settings.scope_of(&f.source.path))
        .collect();
    let relative: Vec<std::cell::OnceCell<String>> =
        scan.files.iter().map(|_| Default::default()).collect();
    let relative = |i: FileId| {
        relative[i]
            .get_or_init(|| scopes[scope[i]].relative_path(&scan.files[i].source.path))
            .as_str()
    };
    for f in findings {
        let file = scan.file(f.file);
        let line = file.lines().line_of(f.span.start.min(file.text.len()));
        let mut by = None;
        for (di, d) in per_file[f.file].iter().enumerate() {
            if d.error.is_some() {
                continue;
            }
            let reaches = match d.reach {
                Reach::File => true,
                Reach::Lines(a, b) => (a..=b).contains(&line),
            };
            if !reaches {
                continue;
            }
            for (ci, (code, _)) in d.codes.iter().enumerate() {
                if names(code, f.rule) {
                    used[f.file][di][ci] = true;
                    if by.is_none() {
                        by = Some((By::Comment(f.file, d.span), d.reason.clone()));
                    }
                }
            }
        }
        let k = scope[f.file];
        for (ei, e) in scopes[k].per_file_ignores.iter().enumerate() {
            if !e.paths.is_match(relative(f.file)) {
                continue;
            }
            for (ci, code) in e.codes.iter().enumerate() {
                if names(code, f.rule) {
                    entry_used[k][ei][ci] = true;
                    if by.is_none() {
                        by = Some((By::Config(ei), e.reason.clone()));
                    }
                }
            }
        }
        match by {
            Some((by, reason)) => out.suppressed.push(Suppressed {
                finding: f,
                by,
                reason,
            }),
            None => out.findings.push(f),
        }
    }
    let rl904 = unused_suppression::CODE.rule();
    for (id, ds) in per_file.iter().enumerate() {
        for (di, d) in ds.iter().enumerate() {
            if d.reason.is_none() {
                out.without_reason += 1;
            }
            let (message, help, span) = if let Some(e) = &d.error {
                (
                    e.clone(),
                    unused_suppression::MALFORMED_HELP.to_string(),
                    d.span,
                )
            } else {
                let mut msgs = Vec::new();
                for (ci, (code, span)) in d.codes.iter().enumerate() {
                    if used[id][di][ci] {
                        continue;
                    }
                    let place = match d.reach {
                        Reach::File => Place::File,
                        Reach::Lines(a, b) if a == b => Place::ThisLine,
                        Reach::Lines(..) => Place::NextLine,
                    };
                    let (m, h) = unused_suppression::unused_code(code, place);
                    msgs.push((ci, (m, h, *span)));
                }
                let text = &scan.files[id].source.text;
                for (ci, (m, h, span)) in msgs {
                    let mut f = Finding::new(rl904, id, span, m, h);
                    if let Some(fix) = removal(text, d, ci, &used[id][di], id) {
                        f.fix(fix);
                    }
                    out.findings.push(f);
                }
                continue;
            };
            out.findings
                .push(Finding::new(rl904, id, span, message, help));
        }
    }
    for (k, s) in scopes.iter().enumerate() {
        for (ei, e) in s.per_file_ignores.iter().enumerate() {
            if e.reason.is_none() {
                out.without_reason += 1;
            }
            let Some(cfg) = configs.get(k).copied().flatten() else {
                continue;
            };
            for (ci, code) in e.codes.iter().enumerate() {
                if !entry_used[k][ei][ci] {
                    let (m, h) = unused_suppression::unused_entry(code);
                    out.findings.push(Finding::new(rl904, cfg, e.span, m, h));
                }
            }
        }
    }
    out
}

/// The fix of an unused code `ci` of `d`: the code and its comma out of
/// the list while another code of it silences something, else the whole
/// comment (with its line when it stands alone, with the blanks before it
/// when it trails a line). Safe: the comment silences nothing.
fn removal(text: &str, d: &Directive, ci: usize, used: &[bool], file: FileId) -> Option<Fix> {
    let (code, span) = d.codes.get(ci)?;
    if used.iter().any(|&u| u) {
        let cut = match (ci.checked_sub(1), d.codes.get(ci + 1)) {
            (_, Some((_, next))) => Span::new(span.start, next.start),
            (Some(prev), None) => Span::new(d.codes[prev].1.end, span.end),
            (None, None) => return None,
        };
        return Some(Fix::safe(
            format!("remove `{code}` from the suppression"),
            vec![Edit::delete(file, cut)],
        ));
    }
    let c = d.comment;
    let line_start = text[..c.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[c.end..].find('\n').map_or(text.len(), |i| c.end + i);
    let after = text.get(c.end..line_end)?;
    let cut = if d.own_line && after.trim().is_empty() {
        // The line and its break (the last line: the break before it).
        if line_end < text.len() {
            Span::new(line_start, line_end + 1)
        } else {
            let mut start = line_start.saturating_sub(1);
            if text[..start].ends_with('\r') {
                start -= 1;
            }
            Span::new(start, text.len())
        }
    } else if d.own_line {
        let blanks = after.len() - after.trim_start().len();
        Span::new(c.start, c.end + blanks)
    } else {
        let before = &text[line_start..c.start];
        Span::new(line_start + before.trim_end().len(), c.end)
    };
    Some(Fix::safe(
        "remove the unused suppression",
        vec![Edit::delete(file, cut)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds(name: &str, text: &str) -> Vec<Directive> {
        let f = SourceFile::new(name, text.to_string());
        directives(None, Path::new(name), text, &f)
    }

    #[test]
    fn own_line_comments_reach_the_next_line_trailing_ones_their_own() {
        let d = ds(
            "a.yml",
            "a: 1\n# retrylint: ignore[RL203] known, tracked in #12\nb: 2 # retrylint: ignore[RL204,unjittered-backoff]\n",
        );
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].reach, Reach::Lines(1, 2));
        assert_eq!(d[0].reason.as_deref(), Some("known, tracked in #12"));
        assert_eq!(d[0].codes[0].0, "RL203");
        assert_eq!(d[1].reach, Reach::Lines(2, 2));
        assert_eq!(d[1].reason, None);
        let codes: Vec<&str> = d[1].codes.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(codes, ["RL204", "unjittered-backoff"]);
        let text = "b: 2 # retrylint: ignore[RL204,unjittered-backoff]\n";
        let f = ds("a.yml", text);
        assert_eq!(
            &text[f[0].codes[1].1.start..f[0].codes[1].1.end],
            "unjittered-backoff"
        );
    }

    #[test]
    fn the_syntax_read_decides_the_comment_markers() {
        // An nginx file without an extension: by its name it would be
        // INI-like (`;` a comment); nginx reads `;` as a statement's end.
        let default = Path::new("sites-available/default");
        assert_eq!(comment_markers(None, default), &["#", ";"]);
        assert_eq!(comment_markers(Some(Syntax::Nginx), default), &["#"]);
        let appsettings = Path::new("appsettings.json");
        assert_eq!(
            comment_markers(Some(Syntax::Jsonc), appsettings),
            &["//", "/*"]
        );
        assert!(comment_markers(Some(Syntax::Json), Path::new("x.json")).is_empty());
    }

    #[test]
    fn comment_markers_follow_the_format() {
        assert!(ds("a.json", "{\"x\": \"# retrylint: ignore[RL203]\"}").is_empty());
        assert_eq!(
            ds(
                "appsettings.Production.json",
                "{\n  // retrylint: ignore[RL203] ok\n}"
            )
            .len(),
            1
        );
        assert_eq!(
            ds("application.properties", "! retrylint: ignore[RL203] x\n").len(),
            1
        );
        assert_eq!(
            ds("A.java", "int x; // retrylint: ignore[RL203] why").len(),
            1
        );
        let d = ds("a.rs", "/* retrylint: ignore-file[RL203] vendored */\n");
        assert_eq!(d[0].reach, Reach::File);
        assert_eq!(d[0].reason.as_deref(), Some("vendored"));
        assert_eq!(ds("config", "; retrylint: ignore[RL203] x\n").len(), 1);
        // Not a comment: `#` glued to a value, or prose in a string.
        assert!(ds("a.yml", "url: http://x/#retrylint: ignore[RL203]\n").is_empty());
        assert!(ds("a.yml", "k: \"retrylint: ignore[RL203]\"\n").is_empty());
        // A comment that merely mentions retrylint.
        assert!(ds("a.yml", "# checked by retrylint: see README\n").is_empty());
    }

    #[test]
    fn malformed_directives_are_kept_with_an_error() {
        let d = ds("a.yml", "# retrylint: ignroe[RL203]\n");
        assert!(
            d[0].error
                .as_deref()
                .unwrap()
                .contains("did you mean `ignore`?")
        );
        let d = ds("a.yml", "# retrylint: ignore RL203\n");
        assert!(d[0].error.is_some());
        let d = ds("a.yml", "# retrylint: ignore[RL203\n");
        assert!(d[0].error.as_deref().unwrap().contains("not closed"));
        let d = ds("a.yml", "# retrylint: ignore[]\n");
        assert!(d[0].error.is_some());
    }

    #[test]
    fn crlf_lines_and_multibyte_text_are_handled() {
        let d = ds(
            "a.yml",
            "é: 1\r\n# retrylint: ignore[RL203] ünïcode\r\nb: 2\r\n",
        );
        assert_eq!(d[0].reach, Reach::Lines(1, 2));
        assert_eq!(d[0].reason.as_deref(), Some("ünïcode"));
    }

    fn removed(name: &str, text: &str, used: &[bool]) -> String {
        let d = &ds(name, text)[0];
        let fix = removal(text, d, 0, used, 0).expect("a fix");
        crate::fix::apply_edits(text, &fix.edits).unwrap()
    }

    #[test]
    fn an_unused_suppression_is_removed_with_what_only_it_needed() {
        // Trailing: the comment and the blanks before it.
        assert_eq!(
            removed(
                "a.rs",
                "let x = 1;  // retrylint: ignore[RL203] why\nnext();\n",
                &[false]
            ),
            "let x = 1;\nnext();\n"
        );
        // Alone on its line: the line (CRLF kept on the others).
        assert_eq!(
            removed(
                "a.yaml",
                "a: 1\r\n  # retrylint: ignore[RL203]\r\nb: 2\r\n",
                &[false]
            ),
            "a: 1\r\nb: 2\r\n"
        );
        // A block comment before code on its line: the comment only.
        assert_eq!(
            removed(
                "A.java",
                "  /* retrylint: ignore[RL203] */ call();\n",
                &[false]
            ),
            "  call();\n"
        );
        // A used code stays; the unused one goes with its comma.
        assert_eq!(
            removed(
                "a.yaml",
                "# retrylint: ignore[RL206, RL203] why\nb: 2\n",
                &[false, true]
            ),
            "# retrylint: ignore[RL203] why\nb: 2\n"
        );
    }
}
