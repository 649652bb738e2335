//! A Helm template read without Helm: actions are replaced by what the
//! chart's values make of them, and every byte of the text around them
//! keeps its place (a [`Rendered`] maps each span of the output back to
//! the template). Pure: one template and its values in, text out.
//!
//! What is evaluated: `{{ .Values.a.b }}` and `$`/`.`/variables, with
//! `default`, `quote`, `toYaml`, `int`, `nindent`, `indent` and the
//! comparisons; `if`/`else if`/`else` and `with` take the branch the values
//! enable; `range` over a list or map repeats its body; `define` bodies are
//! left out. `include`/`template` of helpers, `.Release`, `lookup` and any
//! other function give an unknown value, written as the opaque plain
//! scalar [`OPAQUE`] (a YAML comment when the action stands alone on its
//! line); [`Rendered::unknown`] lists those actions, so that a setting on
//! their lines is not checked (the link step reports them once).

pub mod expr;
pub mod values;

use crate::source::Span;
use expr::{Scope, Tok, lex, pipeline};
use values::{Origin, V, Val};

/// The text an unknown value is written as: a plain scalar that reads the
/// same at the start of a value, inside a quoted one or in the middle of
/// a word (`{{ include "x.name" . }}-sa`).
pub const OPAQUE: &str = "helm-unknown";
/// The most output one template may render to (a `range` over a long list
/// of `toYaml` blocks): past it the template is not read.
pub const MAX_OUTPUT: usize = 4 << 20;
/// Nesting of `if`/`range`/`with` past which a template is not read.
const MAX_DEPTH: usize = 64;

/// The output and where each part of it comes from.
#[derive(Debug, Default)]
pub struct Rendered {
    pub text: String,
    segs: Vec<Seg>,
    /// Actions whose value could not be known (template spans).
    pub unknown: Vec<Span>,
}

#[derive(Debug, Clone, Copy)]
struct Seg {
    out: Span,
    src: Span,
    /// Text copied from the template (1:1), or an action's output.
    literal: bool,
    from: Origin,
}

impl Rendered {
    /// The template span of an output span: offsets in copied text map
    /// one to one, in an action's output to the whole action.
    pub fn map(&self, s: Span) -> Span {
        let at = |o: usize, end: bool| -> usize {
            let i = self
                .segs
                .partition_point(|g| if end { g.out.end < o } else { g.out.end <= o })
                .min(self.segs.len().saturating_sub(1));
            let Some(g) = self.segs.get(i) else { return 0 };
            if g.literal {
                g.src.start + o.saturating_sub(g.out.start).min(g.src.len())
            } else if end {
                g.src.end
            } else {
                g.src.start
            }
        };
        let start = at(s.start, false);
        let end = if s.end > s.start {
            at(s.end, true)
        } else {
            start
        };
        Span::new(start, end.max(start))
    }

    /// Where in the values files the values printed inside the output span
    /// `s` were written.
    pub fn origins(&self, s: Span) -> Vec<(usize, Span)> {
        let mut out: Vec<(usize, Span)> = self
            .segs
            .iter()
            .filter(|g| {
                !g.literal && g.out.start < s.end && s.start < g.out.end.max(g.out.start + 1)
            })
            .filter_map(|g| g.from)
            .collect();
        out.sort_by_key(|(f, s)| (*f, s.start));
        out.dedup();
        out
    }
}

enum Node {
    Text(Span),
    Action(Span, Vec<Tok>),
    /// `if`/`with` chains: (condition, `with`?, body), then the else body.
    Cond(Vec<(Span, Vec<Tok>, bool, Vec<Node>)>, Vec<Node>),
    Range(
        Option<(String, Option<String>)>,
        Vec<Tok>,
        Vec<Node>,
        Vec<Node>,
    ),
}

/// One `{{ }}` with its trim markers taken off.
struct Act<'t> {
    span: Span,
    body: &'t str,
}

/// The text between actions and the actions, in order. A trim marker
/// (`{{- ` or ` -}}`) takes the white space beside the action out of the
/// text next to it, as Go templates do: the text's span is shortened, so
/// what is copied still maps to its own bytes
/// (`kind: {{ if .Values.s -}} Secret {{- else -}} ConfigMap {{- end }}`
/// renders `kind: ConfigMap`, not `kind:  ConfigMap `, and an inline
/// `{{ if .. -}} stringData: {{- else -}} data: {{- end }}` at the start of
/// a line leaves `data:` there, not indented by one).
fn actions(text: &str) -> Option<Vec<Result<Span, Act<'_>>>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut trim_next = false;
    let is_space = |c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r';
    while let Some(i) = text[at..].find("{{") {
        let start = at + i;
        let close = text[start + 2..].find("}}")? + start + 2;
        let mut body = &text[start + 2..close];
        let trim_before = body.starts_with("- ") || body == "-";
        if trim_before {
            body = &body[1..];
        }
        let trim_after = body.ends_with(" -");
        if trim_after {
            body = &body[..body.len() - 1];
        }
        let mut from = at;
        let mut to = start;
        if trim_next {
            from =
                at + (text[at..start].len() - text[at..start].trim_start_matches(is_space).len());
        }
        if trim_before {
            to = from + text[from..start].trim_end_matches(is_space).len();
        }
        if to > from {
            out.push(Ok(Span::new(from, to)));
        }
        out.push(Err(Act {
            span: Span::new(start, close + 2),
            body: body.trim(),
        }));
        trim_next = trim_after;
        at = close + 2;
    }
    let from = if trim_next {
        at + (text[at..].len() - text[at..].trim_start_matches(is_space).len())
    } else {
        at
    };
    if from < text.len() {
        out.push(Ok(Span::new(from, text.len())));
    }
    Some(out)
}

/// The first word of an action (`if`, `end` ...) and the rest.
fn keyword(body: &str) -> (&str, &str) {
    // Go's template lexer ends an identifier at the first character that
    // is not a letter, digit or `_`, so `with.Values.x` is `with` and
    // `.Values.x` (text/template/parse/lex.go, lexIdentifier); Helm
    // accepts it (prometheus-community/helm-charts writes it).
    let ident = body
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    if ident > 0
        && matches!(
            &body[..ident],
            "if" | "else" | "with" | "range" | "end" | "define" | "template" | "block"
        )
    {
        return (&body[..ident], body[ident..].trim());
    }
    let w = body.split(|c: char| c.is_whitespace()).next().unwrap_or("");
    (w, body[w.len()..].trim())
}

/// A block's nodes and the `end`/`else` that closed it (keyword, rest).
type Block = (Vec<Node>, Option<(String, String)>);

struct Parser<'t> {
    items: Vec<Result<Span, Act<'t>>>,
    i: usize,
}

impl Parser<'_> {
    /// Nodes up to an `end`/`else` (returned with the keyword's rest).
    fn block(&mut self, depth: usize) -> Option<Block> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut out = Vec::new();
        while self.i < self.items.len() {
            let i = self.i;
            self.i += 1;
            let act = match &self.items[i] {
                Ok(t) => {
                    out.push(Node::Text(*t));
                    continue;
                }
                Err(a) => (a.span, a.body),
            };
            let (span, body) = act;
            if body.starts_with("/*") {
                continue;
            }
            let (kw, rest) = keyword(body);
            match kw {
                "end" | "else" => return Some((out, Some((kw.to_string(), rest.to_string())))),
                "if" | "with" => {
                    let mut arms = vec![(span, lex(rest)?, kw == "with", Vec::new())];
                    let mut other = Vec::new();
                    loop {
                        let (body, stop) = self.block(depth + 1)?;
                        let (k, r) = stop?;
                        if let Some(arm) = arms.last_mut() {
                            arm.3 = body;
                        }
                        if k == "end" {
                            break;
                        }
                        let (k2, r2) = keyword(&r);
                        if k2 == "if" || k2 == "with" {
                            arms.push((span, lex(r2)?, k2 == "with", Vec::new()));
                            continue;
                        }
                        let (body, stop) = self.block(depth + 1)?;
                        other = body;
                        if stop?.0 != "end" {
                            return None;
                        }
                        break;
                    }
                    out.push(Node::Cond(arms, other));
                }
                "range" => {
                    let toks = lex(rest)?;
                    let (vars, toks) = match toks.iter().position(|t| *t == Tok::Declare) {
                        Some(p) => {
                            let names: Vec<String> = toks[..p]
                                .iter()
                                .filter_map(|t| match t {
                                    Tok::Path(Some(n), f) if f.is_empty() => Some(n.clone()),
                                    _ => None,
                                })
                                .collect();
                            let vars = match names.as_slice() {
                                [v] => (v.clone(), None),
                                [k, v] => (k.clone(), Some(v.clone())),
                                _ => return None,
                            };
                            (Some(vars), toks[p + 1..].to_vec())
                        }
                        None => (None, toks),
                    };
                    let (body, stop) = self.block(depth + 1)?;
                    let (k, _) = stop?;
                    let other = if k == "else" {
                        let (other, stop) = self.block(depth + 1)?;
                        if stop?.0 != "end" {
                            return None;
                        }
                        other
                    } else {
                        Vec::new()
                    };
                    out.push(Node::Range(vars, toks, body, other));
                }
                "define" => {
                    // A helper's body is text only where it is included.
                    let (_, stop) = self.block(depth + 1)?;
                    if stop?.0 != "end" {
                        return None;
                    }
                }
                "block" => return None,
                _ => out.push(Node::Action(span, lex(body).unwrap_or_default())),
            }
        }
        Some((out, None))
    }
}

struct Out<'t> {
    text: &'t str,
    r: Rendered,
    vars: Vec<(String, Val)>,
    root: Val,
    steps: usize,
}

/// Render `text` with `values` (the merged values of one variant, as
/// `.Values`). `None` when the template has a shape this reader does not
/// follow (a `block`, an unbalanced `end`) or renders past the limits.
pub fn render(text: &str, values: &Val) -> Option<Rendered> {
    let items = actions(text)?;
    let mut p = Parser { items, i: 0 };
    let (nodes, stop) = p.block(0)?;
    if stop.is_some() {
        return None;
    }
    let root = Val::new(V::Map(vec![
        ("Values".into(), values.clone()),
        ("Release".into(), Val::unknown()),
        ("Chart".into(), Val::unknown()),
        ("Capabilities".into(), Val::unknown()),
        ("Files".into(), Val::unknown()),
        ("Template".into(), Val::unknown()),
    ]));
    let mut o = Out {
        text,
        r: Rendered::default(),
        vars: Vec::new(),
        root: root.clone(),
        steps: 0,
    };
    o.nodes(&nodes, &root)?;
    Some(o.r)
}

impl Out<'_> {
    fn push(&mut self, s: &str, src: Span, literal: bool, from: Origin) -> Option<()> {
        let start = self.r.text.len();
        self.r.text.push_str(s);
        if self.r.text.len() > MAX_OUTPUT {
            return None;
        }
        self.r.segs.push(Seg {
            out: Span::new(start, self.r.text.len()),
            src,
            literal,
            from,
        });
        Some(())
    }

    fn eval(&self, toks: &[Tok], dot: &Val) -> Val {
        let sc = Scope {
            dot,
            root: &self.root,
            vars: &self.vars,
        };
        pipeline(toks, &sc).unwrap_or_else(Val::unknown)
    }

    fn nodes(&mut self, nodes: &[Node], dot: &Val) -> Option<()> {
        let vars = self.vars.len();
        for n in nodes {
            self.steps += 1;
            if self.steps > 200_000 {
                return None;
            }
            match n {
                Node::Text(s) => self.push(&self.text[s.start..s.end], *s, true, None)?,
                Node::Action(span, toks) => self.action(*span, toks, dot)?,
                Node::Cond(arms, other) => {
                    let mut taken = None;
                    for (_, cond, with, body) in arms {
                        let v = self.eval(cond, dot);
                        // An unknown condition: the branch is read (what it
                        // says is worth checking; Helm users enable it).
                        if v.truthy().unwrap_or(true) {
                            let dot = if *with { v } else { dot.clone() };
                            taken = Some((body, dot));
                            break;
                        }
                    }
                    match taken {
                        Some((body, d)) => self.nodes(body, &d)?,
                        None => self.nodes(other, dot)?,
                    }
                }
                Node::Range(vars_named, toks, body, other) => {
                    let v = self.eval(toks, dot);
                    let items: Vec<(Val, Val)> = match &v.v {
                        V::List(l) => l
                            .iter()
                            .enumerate()
                            .map(|(i, x)| (Val::new(V::Int(i as i64)), x.clone()))
                            .collect(),
                        V::Map(m) => m
                            .iter()
                            .map(|(k, x)| (Val::new(V::Str(k.clone())), x.clone()))
                            .collect(),
                        V::Int(n) => (0..(*n).clamp(0, 1000))
                            .map(|i| (Val::new(V::Int(i)), Val::new(V::Int(i))))
                            .collect(),
                        // An unknown list: its body once, with an unknown dot.
                        V::Unknown => vec![(Val::unknown(), Val::unknown())],
                        _ => Vec::new(),
                    };
                    if items.is_empty() {
                        self.nodes(other, dot)?;
                    }
                    for (k, x) in items {
                        let mark = self.vars.len();
                        match vars_named {
                            Some((a, None)) => self.vars.push((a.clone(), x.clone())),
                            Some((a, Some(b))) => {
                                self.vars.push((a.clone(), k));
                                self.vars.push((b.clone(), x.clone()));
                            }
                            None => {}
                        }
                        self.nodes(body, &x)?;
                        self.vars.truncate(mark);
                    }
                }
            }
        }
        self.vars.truncate(vars);
        Some(())
    }

    fn action(&mut self, span: Span, toks: &[Tok], dot: &Val) -> Option<()> {
        // `$x := v` / `$x = v`: a variable, no output.
        if let [
            Tok::Path(Some(name), f),
            Tok::Declare | Tok::Assign,
            rest @ ..,
        ] = toks
            && f.is_empty()
        {
            let v = self.eval(rest, dot);
            self.vars.push((name.clone(), v));
            return self.push("", span, false, None);
        }
        if toks.is_empty() {
            return self.push("", span, false, None);
        }
        let v = self.eval(toks, dot);
        match v.print() {
            Some(s) => self.push(&s, span, false, v.at),
            None => {
                self.r.unknown.push(span);
                let opaque = match expr::block_indent(toks) {
                    // `labels: {{- include "common.labels.standard" . |
                    // nindent 4 }}` followed by more labels at indent 4
                    // (bitnami/charts): Helm's output is a block on lines
                    // of its own, and so is the stand-in, a comment at
                    // the block's indent that leaves `labels:` a mapping
                    // (or a list) for the lines after it.
                    Some(n) => format!("\n{}# {OPAQUE}", " ".repeat(n)),
                    None => self.opaque(span),
                };
                self.push(&opaque, span, false, None)
            }
        }
    }

    /// How an unknown value is written: a comment when the action stands
    /// alone on its line (a helper's block of labels), else the opaque
    /// plain scalar.
    fn opaque(&self, span: Span) -> String {
        let line_start = self.text[..span.start].rfind('\n').map_or(0, |i| i + 1);
        let before = &self.text[line_start..span.start];
        let after = self.text[span.end..].split('\n').next().unwrap_or("");
        if before.trim().is_empty() && after.trim().is_empty() {
            // `{{- include "x.labels" . | nindent 4 }}` took the line
            // break and indent before it out; the comment goes on a line
            // of its own again, where the helper's block would be.
            if self.text[span.start..].starts_with("{{-") {
                return format!("\n{before}# {OPAQUE}");
            }
            return format!("# {OPAQUE}");
        }
        // `- {{- include "partials.proxy" . | indent 8 | trimPrefix ..}}`
        // (linkerd2's charts): the trim took the space after `-` out and
        // Helm's output brings its own; the stand-in brings one too.
        if self.text[span.start..].starts_with("{{-") {
            return format!(" {OPAQUE}");
        }
        OPAQUE.to_string()
    }
}

/// The claim a chart's own file gets, so that the scan keeps it though it
/// holds no settings.
pub const CLAIM: &str = "helm";

/// Whether a file name is one of a chart's own files, which the classifier
/// claims by name so that this step finds them among the scanned files.
pub fn is_chart_file(name: &str) -> bool {
    name == "chart.yaml" || variant_of(name).is_some()
}

/// `values.yaml` -> `Some("")`, `values-prod.yaml` -> `Some("prod")`.
pub fn variant_of(name: &str) -> Option<&str> {
    let stem = name
        .strip_suffix(".yaml")
        .or_else(|| name.strip_suffix(".yml"))?;
    if stem == "values" {
        return Some("");
    }
    stem.strip_prefix("values-").filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests;
