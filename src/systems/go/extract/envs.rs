//! Targets taken from the environment: `os.Getenv("X")` and what is
//! built on it (`"http://" + os.Getenv("X")`, `fmt.Sprintf`), a struct
//! field the file fills from it (`svc.addr = os.Getenv("X")`,
//! `mustMapEnv(&svc.addr, "X")` with a helper of the file that stores
//! `os.Getenv(key)` through its pointer parameter), and a parameter of a
//! function of the file whose callers pass such a value
//! (`mustCreateClient(svc.addr)` dialing `grpc.NewClient(addr, ..)`).

use super::eval;
use super::{Ctx, Pkg, args, field, named_children, span};
use crate::source::Span;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Call sites of a function read for its parameter, at most.
const MAX_CALLERS: usize = 32;

/// The variables a target comes from, each where it is chosen: the
/// target's own (`os.Getenv("X")`, one), else, for a parameter of the
/// function around it, each caller's argument in the file.
pub(super) fn getenvs(ctx: &Ctx<'_>, n: Node<'_>) -> Vec<(String, Span)> {
    if let Some(env) = getenv(ctx, n) {
        return vec![(env, span(n))];
    }
    let mut out = Vec::new();
    if n.kind_name() != "identifier" {
        return out;
    }
    let name = ctx.text(n);
    // The innermost named function taking `name`, unless the name is
    // bound again inside it.
    if ctx.binding(name, n.start_byte()).is_some() {
        return out;
    }
    let Some(f) = super::enclosing_function(n).filter(|f| f.kind_name() == "function_declaration")
    else {
        return out;
    };
    let (Some(fname), Some(index)) = (
        field(f, "name").map(|x| ctx.text(x)),
        param_index(ctx, f, name),
    ) else {
        return out;
    };
    // Its callers may sit in a blanked body.
    ctx.need_words.borrow_mut().push(format!("{fname}("));
    for &c in &ctx.calls {
        if out.len() >= MAX_CALLERS {
            break;
        }
        if !field(c, "function")
            .is_some_and(|x| x.kind_name() == "identifier" && ctx.text(x) == fname)
        {
            continue;
        }
        if let Some(&a) = args(c).get(index)
            && let Some(env) = getenv(ctx, a)
        {
            out.push((env, span(a)));
        }
    }
    out
}

/// The position of parameter `name` in function `f`'s list.
pub(super) fn param_index(ctx: &Ctx<'_>, f: Node<'_>, name: &str) -> Option<usize> {
    let mut names = Vec::new();
    for pd in named_children(field(f, "parameters")?) {
        let mut c = pd.walk();
        names.extend(
            pd.children_by_field_name("name", &mut c)
                .map(|x| ctx.text(x)),
        );
    }
    names.iter().position(|n| *n == name)
}

/// The variable a struct field `name` is filled from in the file:
/// `x.name = os.Getenv("X")`, `T{name: os.Getenv("X")}`, or
/// `helper(&x.name, "X")` where `helper` stores `os.Getenv` of its key
/// parameter through its pointer parameter.
fn field_env(ctx: &Ctx<'_>, name: &str, depth: usize) -> Option<String> {
    for f in &ctx.fields {
        if f.field == name
            && let Some(env) = getenv_at(ctx, f.value, depth + 1)
        {
            return Some(env);
        }
    }
    for &n in &ctx.nodes {
        match n.kind_name() {
            "keyed_element" => {
                let (Some(k), Some(v)) = (field(n, "key"), field(n, "value")) else {
                    continue;
                };
                if ctx.text(k) != name {
                    continue;
                }
                let v = named_children(v).into_iter().next().unwrap_or(v);
                if let Some(env) = getenv_at(ctx, v, depth + 1) {
                    return Some(env);
                }
            }
            "call_expression" => {
                if let Some(env) = stored_through(ctx, n, name) {
                    return Some(env);
                }
            }
            _ => {}
        }
    }
    None
}

/// `helper(&x.name, "X")` where `helper`, a function of the file, does
/// `*target = os.Getenv(key)` (directly or through a local) with `target`
/// and `key` its parameters: `X`.
fn stored_through(ctx: &Ctx<'_>, call: Node<'_>, name: &str) -> Option<String> {
    let a = args(call);
    let pi = a.iter().position(|x| {
        x.kind_name() == "unary_expression"
            && ctx.text(*x).starts_with('&')
            && named_children(*x).last().is_some_and(|s| {
                s.kind_name() == "selector_expression"
                    && field(*s, "field").is_some_and(|f| ctx.text(f) == name)
            })
    })?;
    let fname = ctx.text(field(call, "function").filter(|f| f.kind_name() == "identifier")?);
    let decl = ctx.nodes.iter().copied().find(|d| {
        d.kind_name() == "function_declaration"
            && field(*d, "name").is_some_and(|x| ctx.text(x) == fname)
    })?;
    let target = param_name(ctx, decl, pi)?;
    let body = field(decl, "body")?;
    // The key parameter given to `os.Getenv` in the helper. Its body may
    // be blanked (no reader word in it): the file is then read whole.
    ctx.needs
        .borrow_mut()
        .push((decl.start_byte(), decl.end_byte()));
    let key = ctx
        .nodes
        .iter()
        .filter(|n| body.start_byte() <= n.start_byte() && n.end_byte() <= body.end_byte())
        .find_map(|n| match ctx.pkg_call(*n) {
            Some((Pkg::Os, "Getenv" | "LookupEnv")) => args(*n)
                .first()
                .filter(|k| k.kind_name() == "identifier")
                .map(|k| ctx.text(*k)),
            _ => None,
        })?;
    let ki = param_index(ctx, decl, key)?;
    // It stores through `*target`.
    let stores = ctx.src.get(body.start_byte()..body.end_byte())?;
    if !stores.contains(&format!("*{target} =")) && !stores.contains(&format!("*{target}=")) {
        return None;
    }
    eval::string(ctx, *a.get(ki)?)
}

/// The name of parameter `i` of function `f`.
fn param_name<'a>(ctx: &Ctx<'a>, f: Node<'_>, i: usize) -> Option<&'a str> {
    let mut names = Vec::new();
    for pd in named_children(field(f, "parameters")?) {
        let mut c = pd.walk();
        names.extend(
            pd.children_by_field_name("name", &mut c)
                .map(|x| ctx.text(x)),
        );
    }
    names.get(i).copied()
}

/// `os.Getenv("X")` (or a name bound to it): `X`.
pub(super) fn getenv(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    getenv_at(ctx, n, 0)
}

fn getenv_at(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > 2 {
        return None;
    }
    let cur = host_node(ctx, n)?;
    if let Some((Pkg::Os, "Getenv" | "LookupEnv")) = ctx.pkg_call(cur) {
        return eval::string(ctx, *args(cur).first()?);
    }
    // `cs.shippingAddr`: a struct field the file fills from the
    // environment.
    if cur.kind_name() == "selector_expression" {
        let name = ctx.text(field(cur, "field")?);
        let env = field_env(ctx, name, depth);
        if env.is_none() {
            ctx.need_words.borrow_mut().push(format!(".{name}"));
        }
        return env;
    }
    None
}

/// The expression that gives a target's host: followed through the
/// names bound to it, the first verb of `fmt.Sprintf("http://%s..", ..)`
/// when only a scheme is before it, and the operand at the start of a
/// `+` chain or right after its scheme (`"http://" + fe.addr`).
pub(super) fn host_node<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let mut cur = n;
    // The text before the host already read (`"http://"`).
    let mut before = String::new();
    for _ in 0..super::MAX_DEPTH {
        if cur.kind_name() == "identifier" {
            let v = ctx
                .binding(ctx.text(cur), cur.start_byte())
                .filter(|v| v.id() != cur.id())?;
            // A package variable's default replaced from the
            // environment in a function: the lookup.
            let v = super::env_fallback::set_from_env(ctx, ctx.text(cur), v).unwrap_or(v);
            // A default set where the variable is unset: the lookup.
            cur = super::env_fallback::lookup_before(ctx, ctx.text(cur), v).unwrap_or(v);
            continue;
        }
        // `fmt.Sprintf("http://%s:%s/x", os.Getenv("HOST"), port)`: the
        // first verb gives the host when only a scheme is before it.
        if ctx.pkg_call(cur) == Some((Pkg::Fmt, "Sprintf")) {
            let a = args(cur);
            let format = eval::string(ctx, *a.first()?)?;
            let head = format.split('%').next()?;
            // Only a scheme, with the user's name and password if any
            // (`amqp://guest:guest@%s:5672/`), is before the host.
            let scheme = head.ends_with("://")
                || head
                    .split_once("://")
                    .is_some_and(|(_, user)| user.ends_with('@') && !user.contains('/'));
            if !(head.is_empty() || scheme) || !before.is_empty() {
                return None;
            }
            before = head.to_string();
            cur = *a.get(1)?;
            continue;
        }
        // `os.Getenv("HOST") + ":" + port`, `"http://" + os.Getenv("HOST")
        // + ..`: the operand at the start, or right after the scheme, gives
        // the host.
        if cur.kind_name() == "binary_expression"
            && field(cur, "operator").is_some_and(|o| ctx.text(o) == "+")
        {
            let mut ops = Vec::new();
            flatten_plus(ctx, cur, &mut ops);
            let first = *ops.first()?;
            match (before.is_empty(), ops.get(1)) {
                (true, Some(second))
                    if eval::string(ctx, first).is_some_and(|s| s.ends_with("://")) =>
                {
                    before = "://".into();
                    cur = *second;
                }
                _ => cur = first,
            }
            continue;
        }
        return Some(cur);
    }
    None
}

/// The operands of a chain of `+`, left to right (at most 16).
fn flatten_plus<'a>(ctx: &Ctx<'a>, n: Node<'a>, out: &mut Vec<Node<'a>>) {
    if out.len() >= 16 {
        return;
    }
    if n.kind_name() == "binary_expression"
        && field(n, "operator").is_some_and(|o| ctx.text(o) == "+")
        && let (Some(l), Some(r)) = (field(n, "left"), field(n, "right"))
    {
        flatten_plus(ctx, l, out);
        flatten_plus(ctx, r, out);
    } else {
        out.push(n);
    }
}
