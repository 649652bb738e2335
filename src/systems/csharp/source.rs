//! The names and string constants of a C# file, read from its text
//! (comments and strings blanked, [`code_only`]) with no parse: the
//! per-file fact the link stage joins programs and queue names with
//! ([`read`], [`crate::model::csharp_source`]), for every `.cs` file the
//! walk gives, read or not by the reader.

use crate::model::csharp_source::{CsharpConstant, CsharpNumber, CsharpSource};

#[path = "source_expr.rs"]
mod expr;
use expr::expression;

/// Types a file may declare before the rest are ignored.
const MAX_TYPES: usize = 64;
/// Capitalised names kept of one file, at most.
const MAX_NAMES: usize = 8_192;
/// String constants kept of one file, at most.
const MAX_CONSTANTS: usize = 256;

/// What the link stage needs of C# `text`.
pub fn read(text: &str) -> CsharpSource {
    let code = code_only(text);
    let mut names: Vec<String> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_uppercase()))
        .map(str::to_string)
        .collect();
    names.sort_unstable();
    names.dedup();
    names.truncate(MAX_NAMES);
    // The types, found once for the constants and numbers of each.
    let types = declared_types(&code);
    CsharpSource {
        constants: constants(&code, text, &types),
        numbers: numbers(&code, &types),
        types,
        names,
        ..CsharpSource::default()
    }
}

/// The number types a constant may have.
const NUMBER_TYPES: &[&str] = &[
    "int", "long", "short", "ushort", "uint", "ulong", "byte", "sbyte", "double", "float",
    "decimal", "Int32", "Int64", "Int16", "UInt16", "UInt32", "UInt64", "Double", "Single",
];

/// The number constants the types of `code` ([`code_only`]) declare:
/// `const int X = 3;` or `static readonly double X = 1.5;`, the value a
/// literal (a sign and a suffix allowed) or an [`expression`] of literals
/// and the type's constants above it; also `static readonly TimeSpan X =
/// TimeSpan.FromSeconds(..)` (in seconds); at most [`MAX_CONSTANTS`].
fn numbers(code: &str, types: &[String]) -> Vec<CsharpNumber> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out: Vec<CsharpNumber> = Vec::new();
    for class in types.iter().cloned() {
        let Some(body) = body_of(code, &class) else {
            continue;
        };
        for kw in ["const", "readonly"] {
            for (at, _) in code[body.clone()].match_indices(kw) {
                let abs = body.start + at;
                if code[..abs].ends_with(ident) || code[abs + kw.len()..].starts_with(ident) {
                    continue;
                }
                // A `readonly` field read as `Class.X` is a static one.
                if kw == "readonly" {
                    let head = &code[..abs];
                    let decl = &head[head.rfind([';', '{', '}']).map_or(0, |i| i + 1)..];
                    if !decl.split_whitespace().any(|w| w == "static") {
                        continue;
                    }
                }
                let mut words = code[abs + kw.len()..]
                    .trim_start()
                    .splitn(2, char::is_whitespace);
                let (Some(ty), Some(rest)) = (words.next(), words.next()) else {
                    continue;
                };
                let ty = ty.strip_prefix("System.").unwrap_or(ty);
                let secs = ty == "TimeSpan";
                if !NUMBER_TYPES.contains(&ty) && !secs {
                    continue;
                }
                let rest = rest.trim_start();
                let name_len = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
                let name = &rest[..name_len];
                let Some(value) = rest[name_len..].trim_start().strip_prefix('=') else {
                    continue;
                };
                let Some(end) = value.find([';', '\n']) else {
                    continue;
                };
                // A literal, or an expression of literals and the
                // constants declared above it in the type (`Rounds * 2`,
                // `TimeSpan.FromSeconds(DelaySeconds)`).
                let known = |n: &str| {
                    out.iter()
                        .find(|c| c.class == class && c.name == n)
                        .map(|c| (c.value, c.secs))
                };
                let Some((v, is_secs)) = expression(value[..end].trim(), &known) else {
                    continue;
                };
                if is_secs != secs {
                    continue;
                }
                if name.is_empty() || out.iter().any(|n| n.class == class && n.name == name) {
                    continue;
                }
                out.push(CsharpNumber {
                    class: class.clone(),
                    name: name.to_string(),
                    value: v,
                    secs,
                    line: code[..abs].matches('\n').count() + 1,
                });
                if out.len() >= MAX_CONSTANTS {
                    return out;
                }
            }
        }
    }
    out
}

/// A C# number literal (`3`, `-1`, `2.5d`, `1_000`, `30L`).
fn number(t: &str) -> Option<f64> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let t: String = t.chars().filter(|c| *c != '_').collect();
    let t = t.trim_end_matches(['u', 'U', 'l', 'L', 'd', 'D', 'f', 'F', 'm', 'M']);
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let v = t.parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some(if neg { -v } else { v })
}

/// The types a C# file declares: the name after `class`, `record`,
/// `struct`, `interface` or `enum`.
pub fn declared_types(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        if !matches!(w, "class" | "record" | "struct" | "interface" | "enum") {
            continue;
        }
        // `record struct X`, `record class X`.
        let mut name = words.next();
        if w == "record" && matches!(name, Some("struct" | "class")) {
            name = words.next();
        }
        if let Some(n) = name.filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
            && n != "Program"
            && !out.iter().any(|x| x == n)
        {
            out.push(n.to_string());
            if out.len() >= MAX_TYPES {
                break;
            }
        }
    }
    out
}

/// Whether C# `text` declares a type named `name`.
pub fn declares(text: &str, name: &str) -> bool {
    names(text, name) && declared_types(&code_only(text)).iter().any(|t| t == name)
}

/// The value of the string constant `name` that C# `text` declares in
/// type `class` (`const string Orders = "orders";`, or `static readonly
/// string`), if one.
pub fn constant(text: &str, class: &str, name: &str) -> Option<String> {
    let code = code_only(text);
    constants(&code, text, &declared_types(&code))
        .into_iter()
        .find(|c| c.class == class && c.name == name)
        .map(|c| c.value)
}

/// The string constants the types of C# `text` declare (`code` is
/// [`code_only`] of it, `types` its [`declared_types`]), in order: `const
/// string X = ".."` or `static readonly string X = ".."` anywhere in the
/// type's body, at most [`MAX_CONSTANTS`].
fn constants(code: &str, text: &str, types: &[String]) -> Vec<CsharpConstant> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out: Vec<CsharpConstant> = Vec::new();
    for class in types.iter().cloned() {
        let Some(body) = body_of(code, &class) else {
            continue;
        };
        for (at, _) in code[body.clone()].match_indices("string") {
            let abs = body.start + at;
            if code[..abs].ends_with(ident) || code[abs + 6..].starts_with(ident) {
                continue;
            }
            // `const string` / `static readonly string`, on the same
            // declaration.
            let head = &code[..abs];
            let decl = &head[head.rfind([';', '{', '}']).map_or(0, |i| i + 1)..];
            if !decl
                .split_whitespace()
                .any(|w| w == "const" || w == "readonly")
            {
                continue;
            }
            let after = code[abs + 6..].trim_start();
            let name_len = after.find(|c: char| !ident(c)).unwrap_or(after.len());
            let name = &after[..name_len];
            if name.is_empty() {
                continue;
            }
            let Some(rest) = after[name_len..].trim_start().strip_prefix('=') else {
                continue;
            };
            // The literal itself is blanked in `code`: read it from `text`.
            let from = code.len() - rest.len();
            let Some(lit) = text
                .get(from..)
                .and_then(|t| t.trim_start().strip_prefix('"'))
            else {
                continue;
            };
            let Some(end) = lit.find(['"', '\\', '\n']) else {
                continue;
            };
            if lit.as_bytes()[end] != b'"' {
                continue;
            }
            if !out.iter().any(|c| c.class == class && c.name == name) {
                out.push(CsharpConstant {
                    class: class.clone(),
                    name: name.to_string(),
                    value: lit[..end].to_string(),
                });
            }
            if out.len() >= MAX_CONSTANTS {
                return out;
            }
        }
    }
    out
}

/// The body of type `class` in `code`: from the `{` after `class X`
/// (`struct`, `record`, `interface`) to its match, the first such.
fn body_of(code: &str, class: &str) -> Option<std::ops::Range<usize>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(class).find_map(|(at, _)| {
        let before = code[..at].trim_end();
        let kw = before.rsplit(|c: char| !ident(c)).next()?;
        if !matches!(kw, "class" | "struct" | "record" | "interface")
            || code[at + class.len()..].starts_with(ident)
        {
            return None;
        }
        let open = at + code[at..].find('{')?;
        let mut depth = 0usize;
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(open..open + i);
                    }
                }
                _ => {}
            }
        }
        None
    })
}

/// Whether `text` names `word` as a whole identifier.
pub fn names(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// C# text with its comments and its string and character literals
/// blanked (each byte of them a space, newlines kept): a type named only
/// in a comment or a string (`// see WorkPublisher`, `"WorkPublisher"`)
/// is not a use of it, nor `class` in a comment a declaration. Regular
/// (`".."`, escapes), verbatim (`@".."`, `""` inside), raw (`"""..."""`)
/// and interpolated strings (`$".."`: the holes blanked too).
pub fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            let end = b[i..]
                .iter()
                .position(|&x| x == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if c == b'/' && next == Some(b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            blank(&mut out, i, end);
            i = end;
        } else if c == b'\'' {
            // A character literal: '\'', 'x', '\u0041'.
            let mut j = i + 1;
            while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&mut out, i, end);
            i = end;
        } else if c == b'"'
            || (matches!(c, b'@' | b'$') && matches!(next, Some(b'"' | b'@' | b'$')))
        {
            let mut j = i;
            let mut verbatim = false;
            while j < b.len() && matches!(b[j], b'@' | b'$') {
                verbatim |= b[j] == b'@';
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                i += 1;
                continue;
            }
            let quotes = b[j..].iter().take_while(|&&x| x == b'"').count();
            let end = if quotes >= 3 {
                // Raw: ends at as many quotes as it opened with.
                let close = "\"".repeat(quotes);
                text[j + quotes..]
                    .find(&close)
                    .map_or(b.len(), |n| j + quotes + n + quotes)
            } else if quotes == 2 {
                // The empty string.
                j + 2
            } else {
                let mut k = j + 1;
                loop {
                    match b.get(k) {
                        None => break b.len(),
                        Some(b'\\') if !verbatim => k += 2,
                        Some(b'"') if verbatim && b.get(k + 1) == Some(&b'"') => k += 2,
                        Some(b'"') => break k + 1,
                        Some(b'\n') if !verbatim => break k,
                        Some(_) => k += 1,
                    }
                }
            };
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    // Every range blanked begins and ends at an ASCII byte: whole
    // characters became spaces, still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the link stage is given of a file: its types, its
    /// capitalised names (not those of comments or strings), its string
    /// constants.
    #[test]
    fn a_files_link_facts() {
        let t = "namespace Shop;\n// uses Hidden\npublic static class Queues\n{\n\
                 public const string Orders = \"orders\";\n    static string NotConst = \"x\";\n\
                 var s = \"Quoted\"; WorkPublisher p; }";
        let s = read(t);
        assert_eq!(s.types, ["Queues"]);
        assert!(s.names("WorkPublisher") && s.names("Queues") && s.names("Shop"));
        assert!(!s.names("Hidden") && !s.names("Quoted") && !s.names("Work"));
        assert_eq!(s.constant("Queues", "Orders"), Some("orders"));
        assert_eq!(s.constant("Queues", "NotConst"), None);
        assert_eq!(s.constants.len(), 1);
    }

    /// Number constants a retry of another file reads
    /// (`Constants.MaxRetries`): `const` and `static readonly` of number
    /// types with a literal value, by their type and line.
    #[test]
    fn number_constants_of_a_type() {
        let t = "namespace N;\n// class C { const int Hidden = 1; }\npublic static class Constants\n{\n\
                 public const int RetryCount = 3;\n    public const ushort TimeoutSeconds = 30;\n\
                 internal static readonly double Factor = 1.5d;\n    public readonly int Instance = 4;\n\
                 public const int Computed = Other * 2;\n    public const string Name = \"5\";\n\
                 private const long Minus = -1_000L;\n}";
        let got: Vec<(String, String, f64, usize)> = read(t)
            .numbers
            .into_iter()
            .map(|n| (n.class, n.name, n.value, n.line))
            .collect();
        let want = [
            ("Constants", "RetryCount", 3.0, 5),
            ("Constants", "TimeoutSeconds", 30.0, 6),
            ("Constants", "Minus", -1000.0, 11),
            ("Constants", "Factor", 1.5, 7),
        ];
        let want: Vec<(String, String, f64, usize)> = want
            .iter()
            .map(|(c, n, v, l)| (c.to_string(), n.to_string(), *v, *l))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn declared_types_and_whole_names() {
        let t = "public sealed class WorkPublisher(ServiceBusClient c) { }\n\
                 internal record struct Item(string Id);\npartial class Program {}";
        assert_eq!(declared_types(t), ["WorkPublisher", "Item"]);
        assert!(names(
            "app.MapPost(\"/w\", (WorkPublisher p) => 1)",
            "WorkPublisher"
        ));
        assert!(!names("IWorkPublisher p", "WorkPublisher"));
        assert!(!names("WorkPublishers", "WorkPublisher"));
    }

    #[test]
    fn string_constants_of_a_type() {
        let t = "namespace N;\n// class Queues { const string Orders = \"no\"; }\n\
                 public static class Queues\n{\n    public const string Orders = \"orders\";\n\
                 internal static readonly string Billing = \"billing\";\n    public string Other = \"x\";\n}\n\
                 class Other { const string Orders = \"other-orders\"; }";
        assert_eq!(constant(t, "Queues", "Orders").as_deref(), Some("orders"));
        assert_eq!(constant(t, "Queues", "Billing").as_deref(), Some("billing"));
        assert_eq!(
            constant(t, "Other", "Orders").as_deref(),
            Some("other-orders")
        );
        assert_eq!(constant(t, "Queues", "Other"), None, "not a constant");
        assert_eq!(constant(t, "Missing", "Orders"), None);
        assert!(declares(t, "Queues") && !declares(t, "Orders"));
    }

    /// A type named only in a comment or a string is not used, nor is
    /// `class X` in a comment a declaration; the code around is kept.
    #[test]
    fn comments_and_strings_are_not_code() {
        let t = "// uses WorkPublisher\n/* class Hidden { } */\nvar s = \"WorkPublisher\";\n\
                 var v = @\"a \"\"WorkPublisher\"\" b\";\nvar r = \"\"\"\n WorkPublisher \"\n\"\"\";\n\
                 var i = $\"{x} WorkPublisher\"; var c = '\\'';\nclass Shown { Used u; } // é";
        let code = code_only(t);
        assert_eq!(code.len(), t.len());
        assert_eq!(code.lines().count(), t.lines().count());
        assert!(!names(&code, "WorkPublisher"), "{code}");
        assert_eq!(declared_types(&code), ["Shown"]);
        assert!(names(&code, "Used"), "{code}");
        // Strings that end where they should: the code after them stays.
        let t = "var a = \"x\\\"y\"; Used b; var e = \"\"; Used2 c;";
        let code = code_only(t);
        assert!(names(&code, "Used") && names(&code, "Used2"), "{code}");
    }
}
