//! A chart's values as the template engine sees them: an owned tree, each
//! value with the place in a values file it was written (for the related
//! location of a finding), `values.yaml` with a variant's file merged over
//! it the way `helm install -f values-prod.yaml` merges.

use crate::source::Span;
use crate::yaml::{NodeKind, Yaml, YamlFile};

/// Where a value was written: which values file (an index the caller
/// gives) and the span of its node there.
pub type Origin = Option<(usize, Span)>;

#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Val>),
    Map(Vec<(String, Val)>),
    /// What cannot be known without running Helm (a helper's output,
    /// `.Release`, a lookup).
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Val {
    pub v: V,
    pub at: Origin,
}

impl Val {
    pub fn new(v: V) -> Val {
        Val { v, at: None }
    }
    pub fn unknown() -> Val {
        Val::new(V::Unknown)
    }
    pub fn null() -> Val {
        Val::new(V::Null)
    }

    /// The value at `key` of a map (`Null` when absent, `Unknown` from an
    /// unknown value).
    pub fn field(&self, key: &str) -> Val {
        match &self.v {
            V::Map(m) => m
                .iter()
                .find(|(k, _)| k == key)
                .map_or_else(Val::null, |(_, v)| v.clone()),
            V::Unknown => Val::unknown(),
            _ => Val::null(),
        }
    }

    /// Go template truthiness; `None` for an unknown value.
    pub fn truthy(&self) -> Option<bool> {
        Some(match &self.v {
            V::Null => false,
            V::Bool(b) => *b,
            V::Int(i) => *i != 0,
            V::Float(f) => *f != 0.0,
            V::Str(s) => !s.is_empty(),
            V::List(l) => !l.is_empty(),
            V::Map(m) => !m.is_empty(),
            V::Unknown => return None,
        })
    }

    /// The value as text in a scalar position (Go's `fmt` of it; Helm
    /// prints a missing value as nothing). `None`: not printable here.
    pub fn print(&self) -> Option<String> {
        match &self.v {
            V::Null => Some(String::new()),
            V::Bool(b) => Some(b.to_string()),
            V::Int(i) => Some(i.to_string()),
            V::Float(f) => Some(go_float(*f)),
            V::Str(s) => Some(s.clone()),
            V::List(_) | V::Map(_) | V::Unknown => None,
        }
    }
}

/// Go prints a whole float64 without a fraction (`3`), others shortest.
fn go_float(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// The tree of one values file (its first document), every node with
/// `file` as its origin. Depth and size are those of the parsed file,
/// which the YAML reader already bounds.
pub fn from_yaml(yaml: &YamlFile, file: usize) -> Val {
    match yaml.documents.first() {
        Some(doc) => convert(yaml.root(doc), file, 0),
        None => Val::new(V::Map(Vec::new())),
    }
}

/// A values tree written inside another file (a kustomization's
/// `helmCharts[].valuesInline`), its origins in `file`.
pub fn from_node(node: Yaml<'_>, file: usize) -> Val {
    convert(node, file, 0)
}

fn convert(node: Yaml<'_>, file: usize, depth: usize) -> Val {
    let at = Some((file, node.span()));
    if depth > 64 {
        return Val { v: V::Unknown, at };
    }
    let v = match node.kind() {
        NodeKind::Null | NodeKind::Alias(_) => V::Null,
        NodeKind::Scalar { value, quoted } => scalar(value, *quoted),
        NodeKind::Seq(_) => V::List(
            node.items()
                .into_iter()
                .map(|n| convert(n, file, depth + 1))
                .collect(),
        ),
        NodeKind::Map(_) => V::Map(
            node.entries()
                .into_iter()
                .map(|e| (e.key.to_string(), convert(e.value, file, depth + 1)))
                .collect(),
        ),
    };
    Val { v, at }
}

/// A plain YAML scalar typed the way Helm's YAML reader (YAML 1.1 via
/// sigs.k8s.io/yaml) types it; numbers become float64 in Helm, which
/// prints whole ones without a fraction, so an integer stays an integer.
fn scalar(value: &str, quoted: bool) -> V {
    if quoted {
        return V::Str(value.to_string());
    }
    match value {
        "" | "~" | "null" | "Null" | "NULL" => return V::Null,
        "true" | "True" | "TRUE" => return V::Bool(true),
        "false" | "False" | "FALSE" => return V::Bool(false),
        _ => {}
    }
    if let Ok(i) = value.parse::<i64>() {
        return V::Int(i);
    }
    if value.bytes().any(|b| b.is_ascii_digit())
        && !value
            .bytes()
            .any(|b| b.is_ascii_alphabetic() && b != b'e' && b != b'E')
        && let Ok(f) = value.parse::<f64>()
    {
        return V::Float(f);
    }
    V::Str(value.to_string())
}

/// `over` merged into `base`, maps key by key (Helm's coalescing of a
/// `-f` file over the chart's values): any other value replaces.
pub fn merge(base: &Val, over: &Val) -> Val {
    match (&base.v, &over.v) {
        (V::Map(b), V::Map(o)) => {
            let mut out = b.clone();
            for (k, v) in o {
                match out.iter_mut().find(|(bk, _)| bk == k) {
                    Some((_, bv)) => *bv = merge(bv, v),
                    None => out.push((k.clone(), v.clone())),
                }
            }
            Val {
                v: V::Map(out),
                at: over.at,
            }
        }
        _ => over.clone(),
    }
}

/// `toYaml`: the value as block YAML (no trailing newline, as Helm's
/// `toYaml` trims it).
pub fn to_yaml(v: &Val) -> Option<String> {
    let mut out = String::new();
    write_yaml(v, 0, &mut out, 0)?;
    while out.ends_with('\n') {
        out.pop();
    }
    Some(out)
}

fn write_yaml(v: &Val, indent: usize, out: &mut String, depth: usize) -> Option<()> {
    if depth > 64 || out.len() > super::MAX_OUTPUT {
        return None;
    }
    let pad = " ".repeat(indent);
    match &v.v {
        V::Map(m) if m.is_empty() => out.push_str("{}\n"),
        V::List(l) if l.is_empty() => out.push_str("[]\n"),
        V::Map(m) => {
            for (k, val) in m {
                out.push_str(&pad);
                out.push_str(&yaml_scalar(k));
                out.push(':');
                match &val.v {
                    V::Map(x) if !x.is_empty() => {
                        out.push('\n');
                        write_yaml(val, indent + 2, out, depth + 1)?;
                    }
                    V::List(x) if !x.is_empty() => {
                        out.push('\n');
                        write_yaml(val, indent, out, depth + 1)?;
                    }
                    _ => {
                        out.push(' ');
                        write_yaml(val, indent + 2, out, depth + 1)?;
                    }
                }
            }
        }
        V::List(l) => {
            for val in l {
                out.push_str(&pad);
                out.push('-');
                match &val.v {
                    V::Map(x) if !x.is_empty() => {
                        // The first key on the dash's line.
                        let mut inner = String::new();
                        write_yaml(val, indent + 2, &mut inner, depth + 1)?;
                        out.push(' ');
                        out.push_str(inner.trim_start());
                    }
                    V::List(x) if !x.is_empty() => {
                        out.push('\n');
                        write_yaml(val, indent + 2, out, depth + 1)?;
                    }
                    _ => {
                        out.push(' ');
                        write_yaml(val, indent + 2, out, depth + 1)?;
                    }
                }
            }
        }
        V::Null => out.push_str("null\n"),
        V::Str(s) => {
            out.push_str(&yaml_scalar(s));
            out.push('\n');
        }
        V::Unknown => return None,
        _ => {
            out.push_str(&v.print()?);
            out.push('\n');
        }
    }
    Some(())
}

/// A string as a YAML scalar: plain when it reads back as the same
/// string, else double-quoted.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && !matches!(
            scalar(s, false),
            V::Null | V::Bool(_) | V::Int(_) | V::Float(_)
        )
        && !s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        && !s.ends_with(' ')
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains('\n');
    if plain {
        s.to_string()
    } else {
        format!("{s:?}")
    }
}
