//! Calls made through an SDK client that retries by itself (a boto3
//! client, an OpenAI or Anthropic client: `libs::aws`, `libs::llm`) from
//! inside a retried scope (a hand-written loop, a tenacity or backoff
//! decorator): each such call is a call to the SDK's host that carries
//! both the scope's policy and the client's, so the layers multiply on
//! one call (issue 28, nanobot: 4 attempts of the app x 3 of the SDK).
//! The client is found through the name or attribute it is bound to in
//! this file (`client = OpenAI(..)`, `self._client = AsyncOpenAI(..)`),
//! or a `with_options(..)` copy of it; a call made in a function of this
//! file that a retried scope calls (`self.chat(..)` in the loop,
//! `chat` making the SDK call) is retried by that scope too (one level).
//! Calls outside any retried scope are left to the client's own policy
//! (the graph's provider edge for AWS).

use super::{Ctx, RetryScope, callee, enclosing_function, field, span};
use crate::model::*;
use crate::systems::python::extract::Kind as _;
use std::collections::HashMap;
use tree_sitter::Node;

/// A client built in this file and the policy it retries with.
pub struct SdkClient<'a> {
    /// The constructor call (`boto3.client("s3")`, `OpenAI(..)`).
    pub node: Node<'a>,
    pub policy: usize,
    /// The host its calls go to (`aws`, `api.openai.com`).
    pub host: String,
}

/// How many attribute hops a call's receiver is followed back.
const MAX_CHAIN: usize = 16;
/// Edges one file may add this way.
const MAX_EDGES: usize = 256;

pub(super) fn edges(
    ctx: &Ctx<'_>,
    facts: &mut Facts,
    scopes: &[RetryScope],
    clients: &[SdkClient<'_>],
) {
    if clients.is_empty() || scopes.is_empty() {
        return;
    }
    // Names and attributes a client is bound to (`self._client` in the
    // class that binds it: another class's `self._client` is its own).
    let mut holders: Vec<Holder<'_>> = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "assignment" {
            continue;
        }
        let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
            continue;
        };
        if let Some(i) = clients.iter().position(|c| c.node.id() == r.id())
            && matches!(l.kind_str(), "identifier" | "attribute")
        {
            holders.push(Holder {
                text: ctx.text(l),
                client: i,
                class: own_class(ctx, l),
            });
        }
    }
    let mut copies: HashMap<usize, usize> = HashMap::new();
    let mut added = 0usize;
    for &k in &ctx.nodes {
        if k.kind_str() != "call" || added >= MAX_EDGES {
            continue;
        }
        let (full, last) = callee(ctx, k);
        if !super::libs::llm::sends(last) {
            continue;
        }
        let Some((ci, copy)) = receiver(ctx, k, clients, &holders) else {
            continue;
        };
        let mut policies = retried_by(ctx, k, scopes);
        if policies.is_empty() {
            continue;
        }
        let client = match copy {
            None => clients[ci].policy,
            Some(w) => *copies.entry(w.id()).or_insert_with(|| {
                let mut p = facts.policies[clients[ci].policy].clone();
                p.name = Some(format!(
                    "{} of {}",
                    super::one_line(ctx.text(w)),
                    p.name.as_deref().unwrap_or("the client")
                ));
                super::libs::llm::apply_options(ctx, w, &mut p);
                facts.policies.push(p);
                facts.policies.len() - 1
            }),
        };
        policies.push(client);
        policies.sort_unstable();
        policies.dedup();
        facts.edges.push(CallEdge {
            caller: None,
            callee: clients[ci].host.clone(),
            span: span(k),
            policies,
            via: format!("{}() in Python", super::one_line(full)),
            client: None,
            protocol: None,
        });
        added += 1;
    }
}

/// The client a call is made through (`client.chat.completions.create`,
/// `self._client.messages.create`, `s3.get_object`), and the
/// `with_options(..)` call it goes through, if any.
fn receiver<'a>(
    ctx: &Ctx<'a>,
    call: Node<'a>,
    clients: &[SdkClient<'_>],
    holders: &[Holder<'_>],
) -> Option<(usize, Option<Node<'a>>)> {
    let mut obj = field(call, "function")
        .filter(|f| f.kind_str() == "attribute")
        .and_then(|f| field(f, "object"))?;
    for _ in 0..MAX_CHAIN {
        match obj.kind_str() {
            "call" => {
                if let Some(i) = clients.iter().position(|c| c.node.id() == obj.id()) {
                    return Some((i, None));
                }
                if callee(ctx, obj).1 == "with_options" {
                    let inner = field(obj, "function").and_then(|f| field(f, "object"))?;
                    let (i, _) = bound(ctx, inner, clients, holders)?;
                    return Some((i, Some(obj)));
                }
                return None;
            }
            "identifier" => return bound(ctx, obj, clients, holders).map(|(i, _)| (i, None)),
            "attribute" => {
                if let Some((i, _)) = bound(ctx, obj, clients, holders) {
                    return Some((i, None));
                }
                obj = field(obj, "object")?;
            }
            _ => return None,
        }
    }
    None
}

/// The client a name or attribute is bound to, or the constructor call
/// itself.
fn bound<'a>(
    ctx: &Ctx<'a>,
    n: Node<'a>,
    clients: &[SdkClient<'_>],
    holders: &[Holder<'_>],
) -> Option<(usize, Node<'a>)> {
    if let Some(i) = clients.iter().position(|c| c.node.id() == n.id()) {
        return Some((i, n));
    }
    let t = ctx.text(n);
    let class = own_class(ctx, n);
    holders
        .iter()
        .find(|h| h.text == t && h.class == class)
        .map(|h| (h.client, n))
}

/// A name or attribute a client is bound to.
struct Holder<'t> {
    text: &'t str,
    client: usize,
    /// For `self.x` / `cls.x`, the class whose methods bind it.
    class: Option<usize>,
}

/// The class a `self.x` / `cls.x` attribute belongs to (the innermost
/// class around it); `None` for any other name.
fn own_class(ctx: &Ctx<'_>, n: Node<'_>) -> Option<usize> {
    let t = ctx.text(n);
    if !(t.starts_with("self.") || t.starts_with("cls.")) {
        return None;
    }
    let mut cur = n.parent();
    for _ in 0..10_000 {
        let c = cur?;
        if c.kind_str() == "class_definition" {
            return Some(c.id());
        }
        cur = c.parent();
    }
    None
}

/// The policies of the retried scopes that hold `call`, or else hold a
/// call of the function `call` is made in (`self.chat(..)` inside a loop,
/// `def chat(..)` making the call).
fn retried_by(ctx: &Ctx<'_>, call: Node<'_>, scopes: &[RetryScope]) -> Vec<usize> {
    let holding = |n: Node<'_>| -> Vec<usize> {
        scopes
            .iter()
            .filter(|s| s.start <= n.start_byte() && n.end_byte() <= s.end)
            .map(|s| s.policy)
            .collect()
    };
    let direct = holding(call);
    if !direct.is_empty() {
        return direct;
    }
    let Some((name, def)) = enclosing_function(ctx, call) else {
        return Vec::new();
    };
    if name.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &c in &ctx.nodes {
        if c.kind_str() != "call" || super::calls::within(c, def) {
            continue;
        }
        let (full, last) = callee(ctx, c);
        if last == name && matches!(full.split_once('.'), None | Some(("self" | "cls", _))) {
            out.extend(holding(c));
        }
    }
    out
}
