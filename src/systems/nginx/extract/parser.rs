//! nginx directives and blocks, built with an explicit stack from the
//! tokens of [`super::lexer`]: every directive keeps the span of its name
//! and of each argument, its parent block and its children.
//!
//! Errors follow `ngx_conf_parse`: a `;` or `{` with no directive name,
//! a `}` in the middle of a directive or with no open block, and the end
//! of the file inside a directive or block. Blocks nested deeper than
//! [`MAX_DEPTH`] are refused, so hostile input costs linear time and
//! constant stack.

use super::lexer::{Kind, LexError, Lexer, Token};
use crate::source::Span;

/// Deepest block nesting read. Real configurations use fewer than ten
/// levels (http > server > location > location > if).
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub value: String,
    pub span: Span,
    pub quoted: bool,
}

#[derive(Clone, Debug)]
pub struct Directive {
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Arg>,
    /// From the name to the `;` or the block's `}`.
    pub span: Span,
    pub parent: Option<usize>,
    /// Child directives, for a block directive.
    pub children: Vec<usize>,
    pub is_block: bool,
    /// A `*_by_lua_block` whose body was skipped.
    pub raw_body: Option<Span>,
}

impl Directive {
    /// The span of the name and arguments (without the block).
    pub fn head_span(&self) -> Span {
        self.args
            .last()
            .map_or(self.name_span, |a| self.name_span.cover(a.span))
    }

    pub fn arg(&self, i: usize) -> Option<&Arg> {
        self.args.get(i)
    }
}

#[derive(Debug, Default)]
pub struct Config {
    pub directives: Vec<Directive>,
    /// Top-level directives in order.
    pub roots: Vec<usize>,
}

impl Config {
    pub fn get(&self, i: usize) -> &Directive {
        &self.directives[i]
    }

    /// Children of a block, or the top level for `None`.
    pub fn children(&self, block: Option<usize>) -> &[usize] {
        match block {
            Some(b) => &self.directives[b].children,
            None => &self.roots,
        }
    }

    /// The chain of enclosing blocks, innermost first.
    pub fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = self.directives[i].parent;
        while let Some(p) = cur {
            out.push(p);
            cur = self.directives[p].parent;
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        ParseError {
            span: e.span,
            message: e.message,
        }
    }
}

fn unexpected(t: &Token, what: &str) -> ParseError {
    ParseError {
        span: t.span,
        message: format!("unexpected `{what}`"),
    }
}

/// Parse a whole file.
pub fn parse(text: &str) -> Result<Config, ParseError> {
    let mut lexer = Lexer::new(text);
    let mut cfg = Config::default();
    let mut stack: Vec<usize> = Vec::new();
    let mut pending: Vec<Token> = Vec::new();
    while let Some(tok) = lexer.next_token()? {
        crate::guard::checkpoint();
        match tok.kind {
            Kind::Word => pending.push(tok),
            Kind::Semi => {
                if pending.is_empty() {
                    return Err(unexpected(&tok, ";"));
                }
                let id = push(&mut cfg, &mut pending, stack.last().copied(), false);
                cfg.directives[id].span = cfg.directives[id].name_span.cover(tok.span);
            }
            Kind::Open => {
                if pending.is_empty() {
                    return Err(unexpected(&tok, "{"));
                }
                let id = push(&mut cfg, &mut pending, stack.last().copied(), true);
                if cfg.directives[id].name.ends_with("_by_lua_block") {
                    let body = lexer.skip_lua_block(tok.span)?;
                    let d = &mut cfg.directives[id];
                    d.raw_body = Some(body);
                    d.span = d.name_span.cover(Span::new(body.end, lexer.pos()));
                    continue;
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(ParseError {
                        span: tok.span,
                        message: format!("blocks nested deeper than {MAX_DEPTH} levels"),
                    });
                }
                stack.push(id);
            }
            Kind::Close => {
                if !pending.is_empty() {
                    return Err(ParseError {
                        span: tok.span,
                        message: format!(
                            "unexpected `}}`: `{}` is not ended by `;`",
                            pending[0].value
                        ),
                    });
                }
                let Some(id) = stack.pop() else {
                    return Err(unexpected(&tok, "}"));
                };
                let d = &mut cfg.directives[id];
                d.span = d.name_span.cover(tok.span);
            }
        }
    }
    let end = Span::new(text.len(), text.len());
    if let Some(first) = pending.first() {
        return Err(ParseError {
            span: first.span,
            message: format!(
                "unexpected end of file: `{}` is not ended by `;`",
                first.value
            ),
        });
    }
    if let Some(&open) = stack.last() {
        let d = &cfg.directives[open];
        return Err(ParseError {
            span: if d.name_span.is_empty() {
                end
            } else {
                d.name_span
            },
            message: format!(
                "unexpected end of file: the `{}` block is not closed",
                d.name
            ),
        });
    }
    Ok(cfg)
}

fn push(cfg: &mut Config, pending: &mut Vec<Token>, parent: Option<usize>, block: bool) -> usize {
    let mut tokens = std::mem::take(pending).into_iter();
    let name = tokens.next().expect("pending is not empty");
    let args: Vec<Arg> = tokens
        .map(|t| Arg {
            value: t.value,
            span: t.span,
            quoted: t.quoted,
        })
        .collect();
    let id = cfg.directives.len();
    let head = args.last().map_or(name.span, |a| name.span.cover(a.span));
    cfg.directives.push(Directive {
        name: name.value,
        name_span: name.span,
        args,
        span: head,
        parent,
        children: Vec::new(),
        is_block: block,
        raw_body: None,
    });
    match parent {
        Some(p) => cfg.directives[p].children.push(id),
        None => cfg.roots.push(id),
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_children_and_spans() {
        let text = "http {\n  server { listen 80; location /a { proxy_pass http://b; } }\n}\n";
        let cfg = parse(text).unwrap();
        assert_eq!(cfg.roots.len(), 1);
        let pass = cfg
            .directives
            .iter()
            .position(|d| d.name == "proxy_pass")
            .unwrap();
        let d = cfg.get(pass);
        assert_eq!(&text[d.args[0].span.start..d.args[0].span.end], "http://b");
        assert_eq!(&text[d.span.start..d.span.end], "proxy_pass http://b;");
        let names: Vec<_> = cfg
            .ancestors(pass)
            .iter()
            .map(|&a| cfg.get(a).name.as_str())
            .collect();
        assert_eq!(names, ["location", "server", "http"]);
    }

    #[test]
    fn syntax_errors_are_reported_like_nginx() {
        assert!(
            parse("; a;")
                .unwrap_err()
                .message
                .contains("unexpected `;`")
        );
        assert!(parse("{").unwrap_err().message.contains("unexpected `{`"));
        assert!(
            parse("a b }")
                .unwrap_err()
                .message
                .contains("not ended by `;`")
        );
        assert!(
            parse("a; }")
                .unwrap_err()
                .message
                .contains("unexpected `}`")
        );
        assert!(
            parse("http { a;")
                .unwrap_err()
                .message
                .contains("not closed")
        );
        assert!(parse("a b").unwrap_err().message.contains("end of file"));
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let text = "a {".repeat(100_000);
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains("deeper than"));
        let text = "{".repeat(100_000);
        assert!(parse(&text).is_err());
        let ok = format!("{}{}", "l {".repeat(MAX_DEPTH), "}".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn lua_blocks_are_opaque() {
        let text = "location / { content_by_lua_block { ngx.say(\"}\") } proxy_pass http://x; }";
        let cfg = parse(text).unwrap();
        let loc = cfg.get(cfg.roots[0]);
        assert_eq!(loc.children.len(), 2);
        assert!(cfg.get(loc.children[0]).raw_body.is_some());
    }

    #[test]
    fn hostile_bytes_do_not_panic() {
        for text in [
            "\u{0}\u{fffd}\u{7f} ; {",
            "a \"\\",
            "a '",
            "a\\",
            "x_by_lua_block {",
            "é{ü;",
            "# only a comment",
            "",
        ] {
            let _ = parse(text);
        }
    }
}
