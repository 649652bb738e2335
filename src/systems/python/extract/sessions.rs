//! Which retry policies a session or client call goes through: requests'
//! adapters mounted on that session (`s.mount("https://",
//! HTTPAdapter(max_retries=retry))`), httpx's transport given to that
//! client (`httpx.Client(transport=httpx.HTTPTransport(retries=3))`).
//!
//! requests (`src/requests/sessions.py`, 2.32: `Session.__init__` mounts
//! `HTTPAdapter()` on `https://` and `http://`; `get_adapter(url)` takes
//! the longest mounted prefix the URL starts with, case-insensitively):
//! a session call goes through the adapter mounted on that session for the
//! URL's prefix, and a session nothing is mounted on retries nothing
//! (`HTTPAdapter()` is `Retry(0, read=False)`). The module functions
//! (`requests.get`) use a fresh `Session`, so no adapter of the file.
//!
//! A session is traced by its name: mounts on the same name (in the same
//! function, at module level, or anywhere for `self.x`), and the value the name was given
//! (`s = make_session()`: the mounts and transports inside the local
//! function `make_session`; `c = httpx.Client(transport=t)`: `t`).

use super::eval::{self, resolve};
use super::{Args, Ctx, callee, enclosing_function, field, span};
use crate::model::{Facts, System};
use crate::systems::python::extract::Kind as _;
use std::collections::HashMap;
use tree_sitter::Node;

/// One `X.mount(prefix, adapter)`: the receiver's text, the prefix (when
/// known), the policies of the adapter, and the function it is in.
struct Mount<'a> {
    receiver: &'a str,
    prefix: Option<String>,
    policies: Vec<usize>,
    function: Option<usize>,
    node: Node<'a>,
}

/// The policies written at `n` or given to it: an
/// `HTTPAdapter(max_retries=n)` and the `Retry(..)` given as `max_retries`,
/// an `HTTPTransport(retries=n)` given as `transport`, a `RetryClient` and
/// its `retry_options` (or the default policy written at it).
fn policies_of(ctx: &Ctx<'_>, facts: &Facts, adapter: Node<'_>) -> Vec<usize> {
    let mut nodes = vec![resolve(ctx, adapter)];
    let mut i = 0;
    while i < nodes.len() && nodes.len() < 8 {
        let a = nodes[i];
        i += 1;
        if a.kind_str() != "call" {
            continue;
        }
        let args = Args::of(ctx, a);
        for k in ["max_retries", "retries", "retry_options", "transport"] {
            if let Some(v) = args.kw(k) {
                nodes.push(resolve(ctx, v));
            }
        }
        // `HTTPAdapter(10, 10, retry)`, `RetryClient(session, log, opts)`.
        if matches!(callee(ctx, a).1, "HTTPAdapter" | "RetryClient")
            && let Some(v) = args.positional.get(2)
        {
            nodes.push(resolve(ctx, *v));
        }
    }
    let mut out = Vec::new();
    for n in nodes {
        let s = span(n);
        for (i, p) in facts.policies.iter().enumerate() {
            if p.span == s
                && matches!(&p.system, System::PythonLib(l) if matches!(l.as_str(), "urllib3" | "httpx" | "aiohttp_retry"))
            {
                out.push(i);
            }
        }
    }
    out
}

fn mounts<'a>(ctx: &Ctx<'a>, facts: &Facts) -> Vec<Mount<'a>> {
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "call" || out.len() >= 256 {
            continue;
        }
        let (_, last) = callee(ctx, n);
        let Some(recv) = field(n, "function")
            .filter(|f| f.kind_str() == "attribute" && last == "mount")
            .and_then(|f| field(f, "object"))
        else {
            continue;
        };
        let args = Args::of(ctx, n);
        let Some(adapter) = args.get("adapter", 1) else {
            continue;
        };
        out.push(Mount {
            receiver: ctx.text(recv),
            prefix: args
                .get("prefix", 0)
                .and_then(|p| eval::string(ctx, p))
                .filter(|p| !p.contains(eval::UNKNOWN)),
            policies: policies_of(ctx, facts, adapter),
            function: enclosing_function(ctx, n).map(|(_, d)| d.id()),
            node: n,
        });
    }
    out
}

/// Every `name = value` (any target text: `s`, `self.session`) and `with
/// .. as name` in the file, in source order: (name, value, position).
fn assignments<'a>(ctx: &Ctx<'a>) -> HashMap<&'a str, Vec<(usize, Node<'a>)>> {
    let mut out: HashMap<&'a str, Vec<(usize, Node<'a>)>> = HashMap::new();
    for &n in &ctx.nodes {
        match n.kind_str() {
            "assignment" => {
                if let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) {
                    out.entry(ctx.text(l))
                        .or_default()
                        .push((n.start_byte(), r));
                }
            }
            "as_pattern" => {
                if let Some(alias) = field(n, "alias")
                    && let Some(v) = super::named_children(n).first()
                {
                    out.entry(ctx.text(alias))
                        .or_default()
                        .push((n.start_byte(), *v));
                }
            }
            _ => {}
        }
    }
    out
}

/// The sessions of a file: its mounts and assignments, read once.
pub struct Sessions<'a> {
    mounts: Vec<Mount<'a>>,
    assigned: HashMap<&'a str, Vec<(usize, Node<'a>)>>,
    /// Function definitions by name.
    defs: Vec<(&'a str, Node<'a>)>,
}

impl<'a> Sessions<'a> {
    pub fn new(ctx: &Ctx<'a>, facts: &Facts) -> Self {
        Sessions {
            mounts: mounts(ctx, facts),
            assigned: assignments(ctx),
            defs: ctx
                .nodes
                .iter()
                .filter(|d| d.kind_str() == "function_definition")
                .filter_map(|d| field(*d, "name").map(|x| (ctx.text(x), *d)))
                .collect(),
        }
    }

    /// The value `recv` (`s`, `self.session`) was last given before `at`.
    fn construction(&self, recv: &str, at: usize) -> Option<Node<'a>> {
        let all = self.assigned.get(recv)?;
        let before = all.partition_point(|(p, _)| *p < at);
        all[..before].last().map(|(_, v)| *v)
    }
}

/// The retry policies a call through the session or client `recv` at
/// `call` goes through, for `url` (its text when known).
pub fn policies_for(
    sessions: &Sessions<'_>,
    ctx: &Ctx<'_>,
    facts: &Facts,
    recv: Node<'_>,
    call: Node<'_>,
    url: Option<&str>,
) -> Vec<usize> {
    let all = &sessions.mounts;
    let name = ctx.text(recv);
    let function = enclosing_function(ctx, call).map(|(_, d)| d.id());
    let mut chosen: Vec<&Mount<'_>> = all
        .iter()
        .filter(|m| {
            // A module-level session is the same object in every function.
            m.receiver == name
                && (name.starts_with("self.") || m.function.is_none() || m.function == function)
        })
        .collect();
    // `client.get(url, retry_options=..)` (aiohttp_retry): the call's own.
    if let Some(o) = Args::of(ctx, call).kw("retry_options") {
        return policies_of(ctx, facts, o);
    }
    let mut out = Vec::new();
    if let Some(v) = sessions.construction(name, call.start_byte()) {
        let v = resolve(ctx, v);
        if v.kind_str() == "call" {
            out.extend(policies_of(ctx, facts, v));
            // A local function that builds the session: what it mounts.
            let (_, fname) = callee(ctx, v);
            if let Some((_, def)) = sessions.defs.iter().find(|(n, _)| *n == fname) {
                for m in all {
                    if def.start_byte() <= m.node.start_byte()
                        && m.node.end_byte() <= def.end_byte()
                    {
                        chosen.push(m);
                    }
                }
                for c in ctx.subtree(*def) {
                    if c.kind_str() == "call"
                        && matches!(callee(ctx, *c).1, "Client" | "AsyncClient" | "RetryClient")
                    {
                        out.extend(policies_of(ctx, facts, *c));
                    }
                }
            }
        }
    }
    // The longest mounted prefix the URL starts with; an unknown URL or
    // prefix may be any of them.
    let lower = url
        .map(str::to_ascii_lowercase)
        .filter(|u| !u.starts_with(eval::UNKNOWN));
    let fits = |m: &Mount<'_>| match (&m.prefix, &lower) {
        (Some(p), Some(u)) => u.starts_with(&p.to_ascii_lowercase()),
        _ => true,
    };
    let longest = chosen
        .iter()
        .filter(|m| fits(m))
        .filter_map(|m| m.prefix.as_ref().map(String::len))
        .max();
    for m in chosen.iter().filter(|m| fits(m)) {
        if lower.is_some() && m.prefix.is_some() && m.prefix.as_ref().map(String::len) != longest {
            continue;
        }
        out.extend(m.policies.iter().copied());
    }
    out.sort_unstable();
    out.dedup();
    out
}
