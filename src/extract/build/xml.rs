//! Just enough XML for `pom.xml` and MSBuild files: elements, their
//! attributes and text, comments, CDATA and declarations skipped. Never
//! panics; malformed input gives whatever elements were closed (an
//! unclosed element is closed at the end), so a broken build file tells
//! what it can and nothing is reported about it (it is not a format
//! retrylint checks).

/// One element.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    /// Its text, trimmed (the text directly inside it, pieces joined).
    pub text: String,
    pub children: Vec<Element>,
    /// Byte offset of its start tag.
    pub start: usize,
}

impl Element {
    /// The first child named `name` (the local name, without a prefix).
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of the first child named `name`, or "".
    pub fn text_of(&self, name: &str) -> &str {
        self.child(name).map_or("", |c| c.text.as_str())
    }

    /// An attribute, case-insensitively by name (MSBuild is).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The deepest nesting kept; deeper elements are read as text-less
/// leaves of the last kept level (a build file is never this deep).
const MAX_DEPTH: usize = 64;

/// Parse `text` into a root element holding the document's elements.
pub fn parse(text: &str) -> Element {
    parse_checked(text).0
}

/// [`parse`], with the first place where the text is not well-formed and
/// why: an element not closed, a closing tag that matches no open element
/// or closes others with it, a tag or comment not ended. For the formats
/// retrylint checks (`queue.xml`), which report it; build files do not.
pub fn parse_checked(text: &str) -> (Element, Option<(usize, String)>) {
    let mut problem: Option<(usize, String)> = None;
    let mut note = |at: usize, why: String| {
        if problem.is_none() {
            problem = Some((at, why));
        }
    };
    let mut stack: Vec<Element> = vec![Element::default()];
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            let end = memchr::memchr(b'<', &b[i..]).map_or(b.len(), |k| i + k);
            let piece = unescape(text[i..end].trim());
            if let Some(top) = stack.last_mut()
                && !piece.is_empty()
            {
                if !top.text.is_empty() {
                    top.text.push(' ');
                }
                top.text.push_str(&piece);
            }
            i = end;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with("<!--") {
            if !rest.contains("-->") {
                note(i, "a comment is not ended".into());
            }
            i = rest.find("-->").map_or(b.len(), |k| i + k + 3);
            continue;
        }
        if rest.starts_with("<![CDATA[") {
            let end = rest.find("]]>").map_or(rest.len(), |k| k);
            if let Some(top) = stack.last_mut() {
                top.text.push_str(rest[9..end].trim());
            }
            i += (end + 3).min(rest.len());
            continue;
        }
        if rest.starts_with("<?") || rest.starts_with("<!") {
            i = rest.find('>').map_or(b.len(), |k| i + k + 1);
            continue;
        }
        let Some(close) = tag_end(rest) else {
            note(i, "a tag is not ended with `>`".into());
            break;
        };
        let inner = &rest[1..close];
        let start = i;
        i += close + 1;
        if let Some(name) = inner.strip_prefix('/') {
            let name = local(name.trim());
            // Close up to the matching element (unclosed ones inside it
            // are closed with it).
            match stack.iter().rposition(|e| e.name == name) {
                Some(pos) if pos > 0 => {
                    if pos + 1 < stack.len() {
                        let open = &stack[stack.len() - 1];
                        note(open.start, format!("`<{}>` is not closed", open.name));
                    }
                    while stack.len() > pos {
                        close_top(&mut stack);
                    }
                }
                _ => note(start, format!("`</{name}>` closes no open element")),
            }
            continue;
        }
        let self_closing = inner.ends_with('/');
        let inner = inner.trim_end_matches('/');
        let name_end = inner
            .find(|c: char| c.is_whitespace())
            .unwrap_or(inner.len());
        let el = Element {
            name: local(&inner[..name_end]).to_string(),
            attrs: attributes(&inner[name_end..]),
            text: String::new(),
            children: Vec::new(),
            start,
        };
        if self_closing || stack.len() > MAX_DEPTH {
            if let Some(top) = stack.last_mut() {
                top.children.push(el);
            }
        } else {
            stack.push(el);
        }
    }
    if let Some(open) = stack.get(1..).and_then(|s| s.last()) {
        note(open.start, format!("`<{}>` is not closed", open.name));
    }
    while stack.len() > 1 {
        close_top(&mut stack);
    }
    (stack.pop().unwrap_or_default(), problem)
}

fn close_top(stack: &mut Vec<Element>) {
    if let Some(done) = stack.pop()
        && let Some(parent) = stack.last_mut()
    {
        parent.children.push(done);
    }
}

/// The `>` that ends the tag starting `rest`, outside quoted values.
fn tag_end(rest: &str) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (k, &c) in rest.as_bytes().iter().enumerate().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'>') => return Some(k),
            _ => {}
        }
    }
    None
}

/// A name without its namespace prefix.
fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, l)| l)
}

fn attributes(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let Some(q) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            break;
        };
        let body = &after[1..];
        let Some(end) = body.find(q) else {
            break;
        };
        out.push((local(&key).to_string(), unescape(&body[..end])));
        rest = &body[end + 1..];
    }
    out
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_attributes_and_text_are_read() {
        let doc = parse(
            "<?xml version=\"1.0\"?>\n<!-- c <x> -->\n<project xmlns=\"a\"><version>1.0</version><deps><dep a='1' b=\"x>y\"/><dep>t<![CDATA[ 2 ]]></dep></deps></project>",
        );
        let p = doc.child("project").unwrap();
        assert_eq!(p.text_of("version"), "1.0");
        let deps: Vec<_> = p.child("deps").unwrap().children_named("dep").collect();
        assert_eq!(deps.len(), 2);
        assert_eq!(deps[0].attr("B"), Some("x>y"));
        assert_eq!(deps[1].text, "t2");
    }

    #[test]
    fn tells_where_the_text_is_not_well_formed() {
        let problem = |t: &str| parse_checked(t).1;
        assert_eq!(problem("<?xml version=\"1.0\"?><a><b>1</b><c/></a>"), None);
        assert_eq!(
            problem("<a><b>1</a>"),
            Some((3, "`<b>` is not closed".into()))
        );
        assert_eq!(
            problem("<a><b>1</b>"),
            Some((0, "`<a>` is not closed".into()))
        );
        assert_eq!(
            problem("<a></b></a>"),
            Some((3, "`</b>` closes no open element".into()))
        );
        assert_eq!(
            problem("<a><b"),
            Some((3, "a tag is not ended with `>`".into()))
        );
        assert_eq!(
            problem("<a/><!-- x"),
            Some((4, "a comment is not ended".into()))
        );
    }

    #[test]
    fn broken_input_gives_what_it_can() {
        for t in [
            "<a><b>1</a>",
            "<a",
            "</a><a>",
            "<a b='>",
            "<<<>>>",
            "<!--",
            "<![CDATA[",
        ] {
            let _ = parse(t);
        }
        let doc = parse("<a><b>1</a>");
        assert_eq!(doc.child("a").unwrap().text_of("b"), "1");
        let deep = "<a>".repeat(10_000);
        assert_eq!(parse(&deep).children.len(), 1);
    }
}
