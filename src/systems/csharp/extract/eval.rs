//! Values of C# expressions: whole numbers, booleans, `TimeSpan`s
//! (`TimeSpan.FromSeconds(2)`, `new TimeSpan(0, 0, 5)`, `TimeSpan.Zero`),
//! enum members, names bound in the file, and a delay function of the
//! attempt number (`attempt => TimeSpan.FromSeconds(Math.Pow(2, attempt))`)
//! read as fixed, linear or exponential with the jitter it adds.

use super::{Ctx, MAX_DEPTH, field, named_children};
use crate::model::{Delay, Jitter};
use crate::systems::csharp::extract::Kind as _;
use std::time::Duration;
use tree_sitter::Node;

/// A number, or a duration in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    Num(f64),
    Secs(f64),
}

/// The evaluation of one expression: the attempt variable's name and
/// value, and whether a random number was met (jitter).
pub struct Env<'e> {
    pub var: Option<(&'e str, f64)>,
    pub random: bool,
}

impl Env<'_> {
    pub fn none() -> Env<'static> {
        Env {
            var: None,
            random: false,
        }
    }
}

/// A whole number (`3`, `MaxRetries`, `_options.RetryCount` where the
/// file declares `RetryCount = 3`).
pub fn int(ctx: &Ctx<'_>, n: Node<'_>) -> Option<i64> {
    match value(ctx, n, &mut Env::none(), 0)? {
        Val::Num(x) if x.fract() == 0.0 && x.abs() < 1e15 => Some(x as i64),
        _ => None,
    }
}

/// A `TimeSpan`.
pub fn duration(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    match value(ctx, n, &mut Env::none(), 0)? {
        Val::Secs(s) if s.is_finite() && (0.0..1e12).contains(&s) => {
            Some(Duration::from_secs_f64(s))
        }
        _ => None,
    }
}

pub fn boolean(ctx: &Ctx<'_>, n: Node<'_>) -> Option<bool> {
    match ctx.text(n).trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The last name of a member access or name (`Exponential` of
/// `DelayBackoffType.Exponential`).
pub fn last_name<'a>(ctx: &Ctx<'a>, n: Node<'_>) -> &'a str {
    let t = ctx.text(n).trim();
    t.rsplit('.').next().unwrap_or(t)
}

/// The value of `n`, following names bound in the file.
pub fn value(ctx: &Ctx<'_>, n: Node<'_>, env: &mut Env<'_>, depth: usize) -> Option<Val> {
    if depth > MAX_DEPTH {
        return None;
    }
    let d = depth + 1;
    match n.kind_str() {
        "integer_literal" | "real_literal" => {
            let t: String = ctx
                .text(n)
                .chars()
                .filter(|c| *c != '_')
                .collect::<String>()
                .trim_end_matches(['u', 'U', 'l', 'L', 'd', 'D', 'f', 'F', 'm', 'M'])
                .to_string();
            t.parse::<f64>().ok().map(Val::Num)
        }
        "parenthesized_expression" | "checked_expression" => {
            value(ctx, *named_children(n).first()?, env, d)
        }
        "cast_expression" => value(ctx, field(n, "value")?, env, d),
        "prefix_unary_expression" => {
            let t = ctx.text(n).trim_start();
            let v = value(ctx, *named_children(n).last()?, env, d)?;
            match (t.starts_with('-'), v) {
                (true, Val::Num(x)) => Some(Val::Num(-x)),
                (true, Val::Secs(x)) => Some(Val::Secs(-x)),
                _ => Some(v),
            }
        }
        "identifier" => {
            let name = ctx.text(n);
            if let Some((v, x)) = env.var
                && v == name
            {
                return Some(Val::Num(x));
            }
            match ctx.binding(name, n.start_byte()) {
                Some(b) => value(ctx, b, env, d),
                None => passed_argument(ctx, n, d),
            }
        }
        "member_access_expression" => {
            let t = ctx.text(n);
            if t == "TimeSpan.Zero" {
                return Some(Val::Secs(0.0));
            }
            if t == "int.MaxValue" || t == "Int32.MaxValue" {
                return Some(Val::Num(2_147_483_647.0));
            }
            // `context.AttemptNumber`, `args.AttemptNumber` as the
            // variable; `_options.RetryCount` by its property's initialiser.
            let name = field(n, "name")?;
            if let Some((v, x)) = env.var
                && ctx.text(name) == "AttemptNumber"
                && field(n, "expression").is_some_and(|e| ctx.text(e) == v)
            {
                return Some(Val::Num(x));
            }
            match ctx.binding(ctx.text(name), n.start_byte()) {
                Some(b) => value(ctx, b, env, d),
                None => other_type(ctx, n, name),
            }
        }
        "binary_expression" => {
            let l = value(ctx, field(n, "left")?, env, d)?;
            let r = value(ctx, field(n, "right")?, env, d)?;
            let op = field(n, "operator").map(|o| ctx.text(o))?;
            binary(op, l, r)
        }
        "invocation_expression" => invocation(ctx, n, env, d),
        "object_creation_expression" => {
            // `new TimeSpan(h, m, s)`, `new TimeSpan(d, h, m, s)`.
            let ty = field(n, "type").map(|t| ctx.text(t))?;
            if ty != "TimeSpan" {
                return None;
            }
            let a = super::args(ctx, n);
            let nums: Option<Vec<f64>> = a
                .iter()
                .map(|(_, v)| match value(ctx, *v, env, d) {
                    Some(Val::Num(x)) => Some(x),
                    _ => None,
                })
                .collect();
            match nums?.as_slice() {
                [h, m, s] => Some(Val::Secs(h * 3600.0 + m * 60.0 + s)),
                [dd, h, m, s] => Some(Val::Secs(dd * 86400.0 + h * 3600.0 + m * 60.0 + s)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `Class.Name` where the file binds no `Name`: a number or `TimeSpan`
/// constant of a type of another file (`Constants.MaxRetries`), given by the link step
/// (`link::values`) on a second read, else wanted from it. The type is a
/// capitalised name (`Shop.Constants` as `Constants`), never an instance
/// (`_options.Count`).
fn other_type(ctx: &Ctx<'_>, n: Node<'_>, name: Node<'_>) -> Option<Val> {
    use crate::extract::values::{given, want};
    let class = last_name(ctx, field(n, "expression")?);
    let name = ctx.text(name);
    // The framework's own types hold no constant of the project.
    const FRAMEWORK: &[&str] = &[
        "TimeSpan",
        "Math",
        "MathF",
        "HttpStatusCode",
        "StatusCode",
        "Int32",
        "Int64",
        "Double",
        "DateTime",
        "Environment",
        "Convert",
        "Random",
        "DelayBackoffType",
        "Timeout",
    ];
    if FRAMEWORK.contains(&class)
        || !class.starts_with(|c: char| c.is_ascii_uppercase())
        || !name.starts_with(|c: char| c.is_ascii_uppercase())
        || ctx
            .text(field(n, "expression")?)
            .contains(['(', ')', '[', '<'])
    {
        return None;
    }
    let key = format!("{class}.{name}");
    if let Some((v, secs)) = given(&key) {
        return Some(if secs { Val::Secs(v) } else { Val::Num(v) });
    }
    want(crate::model::values::ValueWant::CsharpConstant {
        key,
        class: class.to_string(),
        name: name.to_string(),
    });
    None
}

fn binary(op: &str, l: Val, r: Val) -> Option<Val> {
    use Val::*;
    Some(match (op, l, r) {
        ("+", Num(a), Num(b)) => Num(a + b),
        ("-", Num(a), Num(b)) => Num(a - b),
        ("*", Num(a), Num(b)) => Num(a * b),
        ("/", Num(a), Num(b)) if b != 0.0 => Num(a / b),
        ("+", Secs(a), Secs(b)) => Secs(a + b),
        ("-", Secs(a), Secs(b)) => Secs(a - b),
        ("*", Secs(a), Num(b)) | ("*", Num(b), Secs(a)) => Secs(a * b),
        ("/", Secs(a), Num(b)) if b != 0.0 => Secs(a / b),
        _ => return None,
    })
}

fn invocation(ctx: &Ctx<'_>, n: Node<'_>, env: &mut Env<'_>, d: usize) -> Option<Val> {
    let (name, recv) = super::method(ctx, n)?;
    let recv_text = recv.map_or("", |r| ctx.text(r));
    let a = super::args(ctx, n);
    let num = |i: usize, env: &mut Env<'_>| -> Option<f64> {
        match value(ctx, a.get(i)?.1, env, d)? {
            Val::Num(x) => Some(x),
            Val::Secs(_) => None,
        }
    };
    // A random number: jitter, taken at its nominal 0.
    if matches!(name, "Next" | "NextDouble" | "NextInt64" | "GetInt32")
        && (recv_text.contains("Random")
            || recv_text.contains("random")
            || recv_text.contains("Jitter")
            || recv_text.contains("jitter"))
    {
        env.random = true;
        return Some(Val::Num(0.0));
    }
    match (recv_text, name) {
        ("TimeSpan", "FromMilliseconds") => Some(Val::Secs(num(0, env)? / 1000.0)),
        ("TimeSpan", "FromSeconds") => Some(Val::Secs(num(0, env)?)),
        ("TimeSpan", "FromMinutes") => Some(Val::Secs(num(0, env)? * 60.0)),
        ("TimeSpan", "FromHours") => Some(Val::Secs(num(0, env)? * 3600.0)),
        ("TimeSpan", "FromDays") => Some(Val::Secs(num(0, env)? * 86400.0)),
        ("Math", "Pow") => Some(Val::Num(num(0, env)?.powf(num(1, env)?))),
        ("Math", "Min") => {
            let x = value(ctx, a.first()?.1, env, d)?;
            let y = value(ctx, a.get(1)?.1, env, d)?;
            match (x, y) {
                (Val::Num(p), Val::Num(q)) => Some(Val::Num(p.min(q))),
                (Val::Secs(p), Val::Secs(q)) => Some(Val::Secs(p.min(q))),
                _ => None,
            }
        }
        ("Math", "Max") => {
            let x = value(ctx, a.first()?.1, env, d)?;
            let y = value(ctx, a.get(1)?.1, env, d)?;
            match (x, y) {
                (Val::Num(p), Val::Num(q)) => Some(Val::Num(p.max(q))),
                (Val::Secs(p), Val::Secs(q)) => Some(Val::Secs(p.max(q))),
                _ => None,
            }
        }
        // `ValueTask.FromResult<TimeSpan?>(x)` of a `DelayGenerator`.
        (_, "FromResult") => value(ctx, a.first()?.1, env, d),
        _ => {
            // A local function or method of the file with one expression
            // body: `static TimeSpan? GenerateDelay(int attempt) =>
            // TimeSpan.FromSeconds(Math.Pow(2, attempt));`
            if recv.is_some() {
                return None;
            }
            let (param, body) = local_function(ctx, name)?;
            let x = num(0, env)?;
            let mut inner = Env {
                var: Some((param, x)),
                random: false,
            };
            let v = value(ctx, body, &mut inner, d);
            env.random |= inner.random;
            v
        }
    }
}

/// A parameter without a default: the value every call of its method in
/// the file passes for it, when they all pass the same
/// (`CreateResiliencePipeline(options.RetryCount)` for `int retryCount`).
fn passed_argument(ctx: &Ctx<'_>, n: Node<'_>, d: usize) -> Option<Val> {
    let name = ctx.text(n);
    let mut cur = ctx.parent(n);
    let mut method = None;
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if matches!(
            c.kind_str(),
            "method_declaration" | "local_function_statement" | "constructor_declaration"
        ) {
            method = Some(c);
            break;
        }
        cur = ctx.parent(c);
    }
    let method = method?;
    let mname = ctx.text(field(method, "name")?);
    let params = named_children(field(method, "parameters")?);
    let index = params
        .iter()
        .position(|p| field(*p, "name").is_some_and(|x| ctx.text(x) == name))?;
    let mut found: Option<Val> = None;
    for &c in &ctx.nodes {
        if c.kind_str() != "invocation_expression"
            || super::method(ctx, c).is_none_or(|(m, _)| m != mname)
        {
            continue;
        }
        let a = super::args(ctx, c);
        let (_, arg) = a.get(index)?;
        let v = value(ctx, *arg, &mut Env::none(), d)?;
        match found {
            Some(f) if f != v => return None,
            _ => found = Some(v),
        }
    }
    found
}

/// A method or local function of the file named `name` with one
/// parameter and an expression body (`=> expr`, or `{ return expr; }`).
fn local_function<'a>(ctx: &Ctx<'a>, name: &str) -> Option<(&'a str, Node<'a>)> {
    ctx.nodes.iter().find_map(|&n| {
        if !matches!(
            n.kind_str(),
            "method_declaration" | "local_function_statement"
        ) {
            return None;
        }
        if field(n, "name").map(|x| ctx.text(x)) != Some(name) {
            return None;
        }
        let params = field(n, "parameters")?;
        let ps = named_children(params);
        let [p] = ps.as_slice() else { return None };
        let pname = field(*p, "name").map(|x| ctx.text(x))?;
        let body = field(n, "body")?;
        Some((pname, expression_body(body)?))
    })
}

/// The expression of a lambda or method body: `=> expr`, `{ return expr; }`.
pub fn expression_body(body: Node<'_>) -> Option<Node<'_>> {
    match body.kind_str() {
        "arrow_expression_clause" => named_children(body).into_iter().next(),
        "block" => {
            let stmts = named_children(body);
            let [s] = stmts.as_slice() else { return None };
            (s.kind_str() == "return_statement")
                .then(|| named_children(*s).into_iter().next())
                .flatten()
        }
        _ => Some(body),
    }
}

/// A delay function of the attempt number, read by evaluating it at the
/// first three attempts (`first` is the first attempt's number: 1 for
/// Polly v7's retry count, 0 for v8's `AttemptNumber`): equal values are a
/// fixed delay, equal steps linear, equal ratios exponential (the cap
/// seen where the growth stops). Random numbers in it are jitter.
pub fn delay_function(
    ctx: &Ctx<'_>,
    param: &str,
    body: Node<'_>,
    first: f64,
) -> Option<(Delay, Jitter)> {
    let mut random = false;
    let mut at = |k: f64| -> Option<f64> {
        let mut env = Env {
            var: Some((param, k)),
            random: false,
        };
        let v = value(ctx, body, &mut env, 0);
        random |= env.random;
        match v? {
            Val::Secs(s) if s.is_finite() && s >= 0.0 => Some(s),
            _ => None,
        }
    };
    let (a, b, c) = (at(first)?, at(first + 1.0)?, at(first + 2.0)?);
    let jitter = if random {
        Jitter::Unknown
    } else {
        Jitter::None
    };
    let secs = |s: f64| Duration::from_secs_f64(s.min(1e12));
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
    let delay = if close(a, b) && close(b, c) {
        if a == 0.0 && random {
            // Only a random draw (`random.Next(100, 400)`, taken at its
            // nominal 0): a wait of unread shape, not none.
            Delay::Custom
        } else if a == 0.0 {
            Delay::None
        } else {
            Delay::Fixed { delay: secs(a) }
        }
    } else if a > 0.0 && close(b / a, c / b) {
        Delay::Exponential {
            base: secs(a),
            multiplier: b / a,
            cap: None,
        }
    } else if close(b - a, c - b) && close(a, b - a) {
        Delay::Linear {
            base: secs(a),
            cap: None,
        }
    } else {
        Delay::Custom
    };
    Some((delay, jitter))
}
