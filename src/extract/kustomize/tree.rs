//! Kubernetes resources as an owned tree whose every key and value
//! remembers where it was written (file and span), patched the way
//! kustomize patches them (strategic merge, JSON 6902) and written back
//! as YAML with a map from each part of the output to its origin.

use crate::source::Span;
use crate::yaml::{NodeKind, Yaml};

/// Where a key or value was written: a file index the caller gives and
/// the span there; `None` for what kustomize made itself.
pub type Origin = Option<(usize, Span)>;

/// Nesting past which a tree is cut (the YAML reader bounds depth too).
const MAX_DEPTH: usize = 64;
/// The most output one overlay may render to.
pub const MAX_OUTPUT: usize = 4 << 20;

#[derive(Clone, Debug, PartialEq)]
pub enum T {
    Null,
    /// A scalar's value and whether it was quoted.
    Scalar(String, bool),
    List(Vec<Node>),
    Map(Vec<(Key, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub name: String,
    pub at: Origin,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub t: T,
    pub at: Origin,
}

impl Node {
    pub fn new(t: T, at: Origin) -> Node {
        Node { t, at }
    }
    pub fn scalar(s: &str, at: Origin) -> Node {
        Node::new(T::Scalar(s.to_string(), false), at)
    }

    /// The tree of a parsed YAML node, every part with `file` as origin.
    pub fn from_yaml(node: Yaml<'_>, file: usize) -> Node {
        convert(node, file, 0)
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.t {
            T::Map(m) => m.iter().find(|(k, _)| k.name == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        match &mut self.t {
            T::Map(m) => m.iter_mut().find(|(k, _)| k.name == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match &self.t {
            T::Scalar(s, _) => Some(s),
            _ => None,
        }
    }

    pub fn path(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |n, k| n.get(k))
    }

    /// Set `key` of a map (added at the end when absent).
    pub fn set(&mut self, key: &str, v: Node) {
        if let T::Map(m) = &mut self.t {
            match m.iter_mut().find(|(k, _)| k.name == key) {
                Some((_, old)) => *old = v,
                None => m.push((
                    Key {
                        name: key.to_string(),
                        at: v.at,
                    },
                    v,
                )),
            }
        }
    }
}

fn convert(node: Yaml<'_>, file: usize, depth: usize) -> Node {
    let at = Some((file, node.span()));
    if depth > MAX_DEPTH {
        return Node::new(T::Null, at);
    }
    let t = match node.kind() {
        NodeKind::Null | NodeKind::Alias(_) => T::Null,
        NodeKind::Scalar { value, quoted } => T::Scalar(value.clone(), *quoted),
        NodeKind::Seq(_) => T::List(
            node.items()
                .into_iter()
                .map(|n| convert(n, file, depth + 1))
                .collect(),
        ),
        NodeKind::Map(_) => T::Map(
            node.entries()
                .into_iter()
                .map(|e| {
                    (
                        Key {
                            name: e.key.to_string(),
                            at: Some((file, e.key_span)),
                        },
                        convert(e.value, file, depth + 1),
                    )
                })
                .collect(),
        ),
    };
    Node { t, at }
}

/// The keys of list items a strategic merge patch merges by, in the
/// order Kubernetes' built-in types declare them (`patchMergeKey`:
/// `name` for containers, env, volumes; `containerPort`, `port`,
/// `mountPath` elsewhere; k8s.io/api core/v1 types.go).
const MERGE_KEYS: &[&str] = &["name", "containerPort", "port", "mountPath", "ip"];

/// A strategic merge patch applied to `base`. `builtin`: the resource is
/// one of Kubernetes' own types, whose lists of objects merge item by
/// item on their merge key; a custom resource's lists (a
/// VirtualService's `http` routes) are replaced whole, as kustomize does
/// for a type it has no schema for (a JSON merge patch).
pub fn strategic_merge(base: &mut Node, patch: &Node, builtin: bool, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match (&mut base.t, &patch.t) {
        (T::Map(b), T::Map(p)) => {
            if patch.get("$patch").and_then(Node::str) == Some("replace") {
                *base = without_directives(patch);
                return;
            }
            for (k, v) in p {
                if k.name.starts_with('$') {
                    continue;
                }
                let delete =
                    matches!(v.t, T::Null) || v.get("$patch").and_then(Node::str) == Some("delete");
                let at = b.iter().position(|(bk, _)| bk.name == k.name);
                match (at, delete) {
                    (Some(i), true) => {
                        b.remove(i);
                    }
                    (None, true) => {}
                    (Some(i), false) => strategic_merge(&mut b[i].1, v, builtin, depth + 1),
                    (None, false) => b.push((k.clone(), without_directives(v))),
                }
            }
        }
        (T::List(b), T::List(p)) if builtin => {
            let key = MERGE_KEYS.iter().find(|k| {
                !p.is_empty() && p.iter().all(|i| i.get(k).and_then(Node::str).is_some())
            });
            let Some(key) = key else {
                *base = without_directives(patch);
                return;
            };
            for item in p {
                let id = item.get(key).and_then(Node::str);
                let delete = item.get("$patch").and_then(Node::str) == Some("delete");
                let at = b.iter().position(|x| x.get(key).and_then(Node::str) == id);
                match (at, delete) {
                    (Some(i), true) => {
                        b.remove(i);
                    }
                    (None, true) => {}
                    (Some(i), false) => strategic_merge(&mut b[i], item, builtin, depth + 1),
                    (None, false) => b.push(without_directives(item)),
                }
            }
        }
        _ => *base = without_directives(patch),
    }
}

/// A patch's value with its `$patch`-style directives taken out.
fn without_directives(n: &Node) -> Node {
    match &n.t {
        T::Map(m) => Node::new(
            T::Map(
                m.iter()
                    .filter(|(k, _)| !k.name.starts_with('$'))
                    .map(|(k, v)| (k.clone(), without_directives(v)))
                    .collect(),
            ),
            n.at,
        ),
        T::List(l) => Node::new(T::List(l.iter().map(without_directives).collect()), n.at),
        _ => n.clone(),
    }
}

/// One JSON 6902 operation (RFC 6902) applied to `doc`; `false` when its
/// path does not lead anywhere (kustomize then fails the build; here the
/// operation is left out).
pub fn json6902(
    doc: &mut Node,
    op: &str,
    path: &str,
    from: Option<&str>,
    value: Option<&Node>,
) -> bool {
    let value = match op {
        "add" | "replace" => match value {
            Some(v) => v.clone(),
            None => return false,
        },
        "copy" | "move" => {
            let Some(from) = from.and_then(pointer) else {
                return false;
            };
            let Some(v) = lookup(doc, &from).cloned() else {
                return false;
            };
            if op == "move" && !remove(doc, &from) {
                return false;
            }
            v
        }
        "remove" => {
            return pointer(path).is_some_and(|p| remove(doc, &p));
        }
        // `test` changes nothing.
        _ => return true,
    };
    let Some(p) = pointer(path) else {
        return false;
    };
    let Some((last, parent)) = p.split_last() else {
        *doc = value;
        return true;
    };
    let Some(parent) = lookup_mut(doc, parent) else {
        return false;
    };
    match &mut parent.t {
        T::Map(_) => {
            if op == "replace" && parent.get(last).is_none() {
                return false;
            }
            parent.set(last, value);
            true
        }
        T::List(l) => {
            let i = if last == "-" {
                l.len()
            } else {
                match last.parse::<usize>() {
                    Ok(i) => i,
                    Err(_) => return false,
                }
            };
            if op == "replace" {
                match l.get_mut(i) {
                    Some(x) => *x = value,
                    None => return false,
                }
            } else if i <= l.len() {
                l.insert(i, value);
            } else {
                return false;
            }
            true
        }
        _ => false,
    }
}

/// A JSON pointer's reference tokens (`~1` is `/`, `~0` is `~`).
fn pointer(p: &str) -> Option<Vec<String>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

fn lookup<'n>(doc: &'n Node, p: &[String]) -> Option<&'n Node> {
    p.iter().try_fold(doc, |n, t| match &n.t {
        T::Map(_) => n.get(t),
        T::List(l) => l.get(t.parse::<usize>().ok()?),
        _ => None,
    })
}

fn lookup_mut<'n>(doc: &'n mut Node, p: &[String]) -> Option<&'n mut Node> {
    let mut n = doc;
    for t in p {
        n = match &mut n.t {
            T::Map(m) => m.iter_mut().find(|(k, _)| k.name == *t).map(|(_, v)| v)?,
            T::List(l) => l.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(n)
}

fn remove(doc: &mut Node, p: &[String]) -> bool {
    let Some((last, parent)) = p.split_last() else {
        return false;
    };
    let Some(parent) = lookup_mut(doc, parent) else {
        return false;
    };
    match &mut parent.t {
        T::Map(m) => match m.iter().position(|(k, _)| k.name == *last) {
            Some(i) => {
                m.remove(i);
                true
            }
            None => false,
        },
        T::List(l) => match last.parse::<usize>() {
            Ok(i) if i < l.len() => {
                l.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// YAML text written from trees, with where each part came from.
#[derive(Debug, Default)]
pub struct Written {
    pub text: String,
    /// (output span, origin, copied one to one from the origin's text).
    segs: Vec<(Span, (usize, Span), bool)>,
}

impl Written {
    /// Append one document (`---` before every one but the first).
    /// `texts` gives each origin file's text, to copy plain scalars as
    /// they were written. `None` past [`MAX_OUTPUT`].
    pub fn document<'a>(
        &mut self,
        n: &Node,
        texts: &dyn Fn(usize) -> Option<&'a str>,
    ) -> Option<()> {
        if !self.text.is_empty() {
            self.text.push_str("---\n");
        }
        self.node(n, 0, texts, 0)?;
        if !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        (self.text.len() <= MAX_OUTPUT).then_some(())
    }

    /// Where an output span came from: the origin of the part holding its
    /// start, and (when its end lies in the same file) of its end; offsets
    /// inside a copied scalar or key map one to one.
    pub fn origin(&self, s: Span) -> Option<(usize, Span)> {
        let find = |o: usize| -> Option<&(Span, (usize, Span), bool)> {
            let i = self.segs.partition_point(|g| g.0.end <= o);
            self.segs.get(i)
        };
        let at = |g: &(Span, (usize, Span), bool), o: usize, end: bool| -> usize {
            let (out, (_, src), literal) = *g;
            if literal {
                src.start + o.saturating_sub(out.start).min(src.len())
            } else if end {
                src.end
            } else {
                src.start
            }
        };
        let g = find(s.start)?;
        let start = at(g, s.start.max(g.0.start), false);
        let file = g.1.0;
        let end = match s.end.checked_sub(1).and_then(|e| {
            let i = self.segs.partition_point(|x| x.0.start <= e);
            i.checked_sub(1).map(|i| &self.segs[i])
        }) {
            Some(h) if h.1.0 == file && s.end > s.start => at(h, s.end.min(h.0.end), true),
            _ => g.1.1.end,
        };
        Some((file, Span::new(start, end.max(start))))
    }

    /// The origins of every part of the output that `s` overlaps, one
    /// span per file (from the first part's start to the last's end).
    pub fn origins(&self, s: Span) -> Vec<(usize, Span)> {
        let mut out: Vec<(usize, Span)> = Vec::new();
        let first = self.segs.partition_point(|g| g.0.end <= s.start);
        for g in self.segs[first..]
            .iter()
            .take_while(|g| g.0.start < s.end.max(s.start + 1))
        {
            let (f, src) = g.1;
            match out.iter_mut().find(|(x, _)| *x == f) {
                Some((_, at)) => *at = Span::new(at.start.min(src.start), at.end.max(src.end)),
                None => out.push((f, src)),
            }
        }
        out
    }

    /// Whether some part of the output was written in `file`.
    pub fn writes(&self, file: usize) -> bool {
        self.segs.iter().any(|g| g.1.0 == file)
    }

    fn push(&mut self, s: &str, at: Origin, literal: bool) {
        let start = self.text.len();
        self.text.push_str(s);
        if let Some(at) = at {
            self.segs
                .push((Span::new(start, self.text.len()), at, literal));
        }
    }

    fn scalar<'a>(
        &mut self,
        value: &str,
        quoted: bool,
        at: Origin,
        texts: &dyn Fn(usize) -> Option<&'a str>,
    ) {
        // A plain one-line scalar is written as it was (copied one to one
        // when the origin's text holds it so); any other double-quoted
        // (JSON's escapes are YAML's).
        if !quoted && !value.is_empty() && !value.contains('\n') {
            let copied = at.is_some_and(|(f, s)| {
                texts(f).is_some_and(|t| t.get(s.start..s.end) == Some(value))
            });
            self.push(value, at, copied);
        } else {
            let q = serde_json::to_string(value).unwrap_or_else(|_| "\"\"".into());
            self.push(&q, at, false)
        }
    }

    fn node<'a>(
        &mut self,
        n: &Node,
        indent: usize,
        texts: &dyn Fn(usize) -> Option<&'a str>,
        depth: usize,
    ) -> Option<()> {
        if depth > MAX_DEPTH || self.text.len() > MAX_OUTPUT {
            return None;
        }
        let pad = " ".repeat(indent);
        match &n.t {
            T::Map(m) if m.is_empty() => self.push("{}\n", n.at, false),
            T::List(l) if l.is_empty() => self.push("[]\n", n.at, false),
            T::Map(m) => {
                for (i, (k, v)) in m.iter().enumerate() {
                    // The first key of a list item follows its dash.
                    if i > 0 || !self.text.ends_with("- ") {
                        self.text.push_str(&pad);
                    }
                    self.scalar(&k.name, false, k.at, texts);
                    self.text.push(':');
                    match &v.t {
                        T::Map(x) if !x.is_empty() => {
                            self.text.push('\n');
                            self.node(v, indent + 2, texts, depth + 1)?;
                        }
                        T::List(x) if !x.is_empty() => {
                            self.text.push('\n');
                            self.node(v, indent, texts, depth + 1)?;
                        }
                        _ => {
                            self.text.push(' ');
                            self.node(v, indent + 2, texts, depth + 1)?;
                        }
                    }
                }
            }
            T::List(l) => {
                for v in l {
                    self.text.push_str(&pad);
                    self.text.push_str("- ");
                    match &v.t {
                        T::List(x) if !x.is_empty() => {
                            self.text.push('\n');
                            self.node(v, indent + 2, texts, depth + 1)?;
                        }
                        _ => self.node(v, indent + 2, texts, depth + 1)?,
                    }
                }
            }
            T::Null => self.push("null\n", n.at, false),
            T::Scalar(s, quoted) => {
                self.scalar(s, *quoted, n.at, texts);
                self.text.push('\n');
            }
        }
        Some(())
    }
}
