//! Values of Python expressions the reader needs: numbers (seconds,
//! counts) and strings (URLs), following names bound in the file, up to
//! [`MAX_DEPTH`]. A part that cannot be read is [`UNKNOWN`] in a string
//! and `None` for a number.

use super::Kind as _;
use super::{Args, Ctx, MAX_DEPTH, callee, field, named_children};
use std::time::Duration;
use tree_sitter::Node;

/// Stands for a part of a string the reader cannot know.
pub const UNKNOWN: char = '\u{0}';
/// [`UNKNOWN`] as a string.
const UNKNOWN_STR: &str = "\u{0}";

/// A number: literals, names bound to one, `+ - * / // **`, `min`/`max`,
/// unary minus.
pub fn number(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    Eval {
        ctx,
        var: None,
        defaults: false,
    }
    .num(n, 0)
}

/// [`number`] with the name `var` standing for `value` (a loop variable at
/// one of its values: `2 ** (i - 1)` at `i = 0` is 0.5).
/// A hand-written loop's wait reads a parameter with no binding in the
/// function as its default (`def with_retry(fn, base_ms=100)`: issue 28,
/// codesculptor 2026), as the callers that pass none get it.
pub fn number_at(ctx: &Ctx<'_>, n: Node<'_>, var: &str, value: f64) -> Option<f64> {
    Eval {
        ctx,
        var: Some((var, value)),
        defaults: true,
    }
    .num(n, 0)
}

/// A loop's wait in seconds, parameters read at their defaults (see
/// [`number_at`]).
pub fn wait_seconds(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    let v = Eval {
        ctx,
        var: None,
        defaults: true,
    }
    .num(n, 0)?;
    (0.0..1e12).contains(&v).then(|| Duration::from_secs_f64(v))
}

struct Eval<'c, 'a, 'v> {
    ctx: &'c Ctx<'a>,
    var: Option<(&'v str, f64)>,
    /// Parameters without a binding read at their defaults.
    defaults: bool,
}

impl Eval<'_, '_, '_> {
    fn num(&self, n: Node<'_>, depth: usize) -> Option<f64> {
        let ctx = self.ctx;
        if depth > MAX_DEPTH {
            return None;
        }
        match n.kind_str() {
            "integer" => {
                let t = ctx.text(n).replace('_', "");
                let t = t.trim_end_matches(['l', 'L']);
                if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                    return i64::from_str_radix(h, 16).ok().map(|v| v as f64);
                }
                t.parse::<f64>().ok()
            }
            "float" => ctx.text(n).replace('_', "").parse::<f64>().ok(),
            "parenthesized_expression" => named_children(n)
                .first()
                .and_then(|c| self.num(*c, depth + 1)),
            "unary_operator" => {
                let v = self.num(field(n, "argument")?, depth + 1)?;
                let op = field(n, "operator").map_or("", |o| ctx.text(o));
                Some(if op == "-" { -v } else { v })
            }
            "binary_operator" => {
                let a = self.num(field(n, "left")?, depth + 1)?;
                let b = self.num(field(n, "right")?, depth + 1)?;
                let op = field(n, "operator").map_or("", |o| ctx.text(o));
                let v = match op {
                    "+" => a + b,
                    "-" => a - b,
                    "*" => a * b,
                    "/" if b != 0.0 => a / b,
                    "//" if b != 0.0 => (a / b).floor(),
                    "**" => a.powf(b),
                    "<<" if (0.0..64.0).contains(&b) => a * 2f64.powf(b.floor()),
                    _ => return None,
                };
                v.is_finite().then_some(v)
            }
            "identifier" => {
                if let Some((var, value)) = self.var
                    && ctx.text(n) == var
                {
                    return Some(value);
                }
                // A parameter shadows the file's bindings of its name.
                let param = self
                    .defaults
                    .then(|| ctx.default_of(ctx.text(n), n.start_byte()))
                    .flatten();
                let v = match param {
                    Some(v) => v,
                    None => match ctx.binding(ctx.text(n), n.start_byte()) {
                        Some(v) => v,
                        // A constant another module gives (`link::values`).
                        None => return super::values::external(ctx, n),
                    },
                };
                if v.id() == n.id() {
                    return None;
                }
                self.num(v, depth + 1)
            }
            // `config.MAX_RETRIES`, `settings.RETRY_ATTEMPTS`: another
            // module's (`link::values`).
            "attribute" => super::values::external(ctx, n),
            "call" => {
                let (full, last) = callee(ctx, n);
                let args = Args::of(ctx, n);
                match last {
                    "int" | "float" if args.positional.len() == 1 => {
                        self.num(args.positional[0], depth + 1)
                    }
                    // `pow(2, i)`, `math.pow(2, i)`.
                    "pow" if args.positional.len() == 2 => {
                        let a = self.num(args.positional[0], depth + 1)?;
                        let b = self.num(args.positional[1], depth + 1)?;
                        Some(a.powf(b)).filter(|v| v.is_finite())
                    }
                    "min" | "max" if !args.positional.is_empty() => {
                        let vs: Option<Vec<f64>> = args
                            .positional
                            .iter()
                            .map(|a| self.num(*a, depth + 1))
                            .collect();
                        let vs = vs?;
                        let f = if last == "min" { f64::min } else { f64::max };
                        vs.into_iter().reduce(f)
                    }
                    // A value read from the environment with a fallback
                    // written in code (`os.getenv("RETRIES", "3")`,
                    // `os.environ.get("RETRIES", 3)`): its fallback, as a
                    // call target's is read (`os.getenv("HOST", "cart")`)
                    // and the Go reader reads viper's `SetDefault`; a
                    // string fallback is read as a number.
                    "getenv" | "get"
                        if (last == "getenv" || full.contains("environ"))
                            && args.positional.len() + args.keywords.len() == 2 =>
                    {
                        let d = args.get("default", 1)?;
                        if d.kind_str() == "string" {
                            let t = ctx.text(d).trim_matches(['"', '\'']).trim();
                            return t.parse::<f64>().ok().filter(|v| v.is_finite());
                        }
                        self.num(d, depth + 1)
                    }
                    // `timedelta(seconds=..)` as seconds.
                    "timedelta" => {
                        let mut total = 0.0;
                        for (k, v) in &args.keywords {
                            let unit = match *k {
                                "milliseconds" => 0.001,
                                "seconds" => 1.0,
                                "minutes" => 60.0,
                                "hours" => 3600.0,
                                _ => return None,
                            };
                            total += unit * self.num(*v, depth + 1)?;
                        }
                        Some(total)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A number of seconds as a duration (negative and absurd values are
/// `None`).
pub fn seconds(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    let v = number(ctx, n)?;
    (0.0..1e12).contains(&v).then(|| Duration::from_secs_f64(v))
}

/// A timeout value: seconds, Python's `None` (no timeout), or unknown.
pub enum Secs {
    Value(Duration),
    None,
    Unknown,
}

/// A timeout argument: a number of seconds, `None`, or a requests
/// `(connect, read)` tuple (read as their sum: the longest one try can
/// take).
pub fn seconds_or_none(ctx: &Ctx<'_>, n: Node<'_>) -> Secs {
    let n = resolve(ctx, n);
    match n.kind_str() {
        "none" => Secs::None,
        "tuple" => {
            let parts = named_children(n);
            let mut sum = Duration::ZERO;
            for p in parts {
                match seconds(ctx, p) {
                    Some(d) => sum += d,
                    None => return Secs::Unknown,
                }
            }
            Secs::Value(sum)
        }
        _ => match seconds(ctx, n) {
            Some(d) => Secs::Value(d),
            None => Secs::Unknown,
        },
    }
}

/// Follow a name to the value bound to it (one step per name, up to
/// [`MAX_DEPTH`] names).
pub fn resolve<'a>(ctx: &Ctx<'a>, mut n: Node<'a>) -> Node<'a> {
    for _ in 0..MAX_DEPTH {
        if n.kind_str() == "parenthesized_expression"
            && let Some(c) = named_children(n).first()
        {
            n = *c;
            continue;
        }
        if n.kind_str() != "identifier" {
            return n;
        }
        match ctx.binding(ctx.text(n), n.start_byte()) {
            Some(v) if v.id() != n.id() => n = v,
            _ => return n,
        }
    }
    n
}

/// A boolean literal (`True`/`False`), following names.
pub fn boolean(ctx: &Ctx<'_>, n: Node<'_>) -> Option<bool> {
    match resolve(ctx, n).kind_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A string: literals (f-strings with their parts read where they can
/// be), `+` joins, `%`-less `.format(..)`, `os.environ.get(K, default)` /
/// `os.getenv(K, default)` (the default), `x if c else y` (the first
/// branch that reads), dictionary literals subscripted by a string, and
/// names bound to any of these. Unknown parts are [`UNKNOWN`].
pub fn string(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    let mut budget = 256usize;
    string_at(ctx, n, 0, &mut budget, None)
}

/// Stands for an environment variable's value in [`env_host`]'s reading:
/// `ENV_MARK NAME ENV_MARK`.
const ENV_MARK: char = '\u{1}';

/// The environment variable that gives the host of a URL or gRPC target
/// (`os.getenv("X")`, `os.environ["X_URL"] + "/path"`,
/// `f"http://{os.getenv('HOST')}:8080"`, `must_map_env("X")` where
/// `helpers` names such a function of the file): its name, read whether
/// or not a default is given (the workload's value wins over it).
pub fn env_host(ctx: &Ctx<'_>, n: Node<'_>, helpers: &[&str]) -> Option<String> {
    let mut budget = 256usize;
    let s = string_at(ctx, n, 0, &mut budget, Some(helpers))?;
    let rest = match s.split_once("://") {
        Some((scheme, rest)) if !scheme.contains(ENV_MARK) && !scheme.contains(UNKNOWN) => {
            rest.trim_start_matches('/')
        }
        _ => s
            .strip_prefix("dns:")
            .map_or(s.as_str(), |r| r.trim_start_matches('/')),
    };
    let name = rest.strip_prefix(ENV_MARK)?.split(ENV_MARK).next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// Functions of the file that return an environment variable named by
/// their first parameter (`def must_map_env(key): value =
/// os.environ.get(key); ...; return value`): their names, at most 16.
pub fn env_helpers<'a>(ctx: &Ctx<'a>) -> Vec<&'a str> {
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "function_definition" || out.len() >= 16 {
            continue;
        }
        let (Some(name), Some(params), Some(body)) =
            (field(n, "name"), field(n, "parameters"), field(n, "body"))
        else {
            continue;
        };
        // Short bodies only: a lookup, a check, a return.
        if body.named_child_count() > 8 {
            continue;
        }
        let Some(first) = named_children(params)
            .first()
            .map(|p| ctx.text(*p).split([':', '=']).next().unwrap_or("").trim())
        else {
            continue;
        };
        let sub = ctx.subtree(body);
        let returns = sub.iter().any(|c| c.kind_str() == "return_statement");
        let looks_up = sub.iter().any(|c| match c.kind_str() {
            "call" => {
                ENV_GETS.contains(&callee(ctx, *c).0)
                    && Args::of(ctx, *c)
                        .positional
                        .first()
                        .is_some_and(|k| ctx.text(*k) == first)
            }
            "subscript" => {
                field(*c, "value").is_some_and(|v| ENV_MAPS.contains(&ctx.text(v)))
                    && field(*c, "subscript").is_some_and(|k| ctx.text(k) == first)
            }
            _ => false,
        });
        if returns && looks_up {
            out.push(ctx.text(name));
        }
    }
    out
}

/// The value of `self.X` / `cls.X` where `X = value` is written in the
/// body of the class the attribute is read in (a class constant:
/// `HOST = os.getenv('AMQP_HOST', 'rabbitmq')`). An `X` assigned
/// anywhere else (`self.X = ..` in a method) is not followed.
fn class_constant<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let object = field(n, "object")?;
    if !matches!(ctx.text(object), "self" | "cls") {
        return None;
    }
    let name = ctx.text(field(n, "attribute")?);
    let class = std::iter::successors(n.parent(), |p| p.parent())
        .take(64)
        .find(|p| p.kind_str() == "class_definition")?;
    let body = field(class, "body")?;
    ctx.bindings.get(name)?.iter().copied().find(|v| {
        // value <- assignment <- expression_statement <- the class's block
        v.parent()
            .and_then(|a| a.parent())
            .and_then(|e| e.parent())
            .is_some_and(|b| b.id() == body.id())
    })
}

/// The value `self.X` reads where `X` is a `@property` of the class the
/// attribute is read in whose body is one `return value` (`def address(
/// self): return f"http://127.0.0.1:{self.port}"`).
fn class_property<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let object = field(n, "object")?;
    if ctx.text(object) != "self" {
        return None;
    }
    let name = ctx.text(field(n, "attribute")?);
    let class = std::iter::successors(n.parent(), |p| p.parent())
        .take(64)
        .find(|p| p.kind() == "class_definition")?;
    let body = field(class, "body")?;
    named_children(body)
        .into_iter()
        .take(512)
        .filter(|d| d.kind() == "decorated_definition")
        .find_map(|d| {
            let property = named_children(d)
                .iter()
                .any(|c| c.kind() == "decorator" && ctx.text(*c).trim() == "@property");
            let def = field(d, "definition")?;
            if !property || field(def, "name").map(|x| ctx.text(x)) != Some(name) {
                return None;
            }
            let stmts = named_children(field(def, "body")?);
            let [only] = stmts.as_slice() else {
                return None;
            };
            if only.kind() != "return_statement" {
                return None;
            }
            named_children(*only).first().copied()
        })
}

/// The calls that read an environment variable.
const ENV_GETS: &[&str] = &["os.environ.get", "os.getenv", "environ.get", "getenv"];
/// The environment as a mapping (`os.environ["X"]`).
const ENV_MAPS: &[&str] = &["os.environ", "environ"];

fn string_at(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    depth: usize,
    budget: &mut usize,
    env: Option<&[&str]>,
) -> Option<String> {
    if depth > MAX_DEPTH || *budget == 0 {
        return None;
    }
    *budget -= 1;
    match n.kind_str() {
        "string" => Some(literal(ctx, n, depth, budget, env)),
        "concatenated_string" => {
            let mut out = String::new();
            for p in named_children(n) {
                out.push_str(&literal(ctx, p, depth, budget, env));
            }
            Some(out)
        }
        "parenthesized_expression" => named_children(n)
            .first()
            .and_then(|c| string_at(ctx, *c, depth + 1, budget, env)),
        "binary_operator" => {
            let op = field(n, "operator").map_or("", |o| ctx.text(o));
            if op != "+" {
                return None;
            }
            let a = string_at(ctx, field(n, "left")?, depth + 1, budget, env)
                .unwrap_or_else(|| UNKNOWN.to_string());
            let b = string_at(ctx, field(n, "right")?, depth + 1, budget, env)
                .unwrap_or_else(|| UNKNOWN.to_string());
            Some(a + &b)
        }
        "identifier" => {
            let v = ctx.binding(ctx.text(n), n.start_byte())?;
            if v.id() == n.id() {
                return None;
            }
            string_at(ctx, v, depth + 1, budget, env)
        }
        "boolean_operator" => {
            // `os.environ.get('HOST') or 'localhost'`: read as
            // `os.getenv('HOST', 'localhost')` is (the fallback, or the
            // variable where the environment is asked for).
            if field(n, "operator").is_none_or(|o| ctx.text(o) != "or") {
                return None;
            }
            let a = string_at(ctx, field(n, "left")?, depth + 1, budget, env);
            match a {
                Some(a) if !a.is_empty() && a != UNKNOWN_STR => Some(a),
                _ => string_at(ctx, field(n, "right")?, depth + 1, budget, env)
                    .or_else(|| Some(UNKNOWN_STR.to_string())),
            }
        }
        "attribute" => {
            let v = class_constant(ctx, n).or_else(|| class_property(ctx, n))?;
            string_at(ctx, v, depth + 1, budget, env)
        }
        "conditional_expression" => {
            // `a if cond else b`: the children are a, cond, b.
            let kids = named_children(n);
            let a = kids.first()?;
            let b = kids.get(2)?;
            string_at(ctx, *a, depth + 1, budget, env)
                .or_else(|| string_at(ctx, *b, depth + 1, budget, env))
        }
        "subscript" => {
            if env.is_some() && field(n, "value").is_some_and(|v| ENV_MAPS.contains(&ctx.text(v))) {
                let key = string_at(ctx, field(n, "subscript")?, depth + 1, budget, None)?;
                return Some(format!("{ENV_MARK}{key}{ENV_MARK}"));
            }
            let value = resolve(ctx, field(n, "value")?);
            let key = string_at(ctx, field(n, "subscript")?, depth + 1, budget, env)?;
            if value.kind_str() != "dictionary" {
                return None;
            }
            for pair in named_children(value) {
                if pair.kind_str() != "pair" {
                    continue;
                }
                let (Some(k), Some(v)) = (field(pair, "key"), field(pair, "value")) else {
                    continue;
                };
                if string_at(ctx, k, depth + 1, budget, env).as_deref() == Some(key.as_str()) {
                    return string_at(ctx, v, depth + 1, budget, env);
                }
            }
            None
        }
        "call" => {
            let (full, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            if let Some(helpers) = env
                && (ENV_GETS.contains(&full) || helpers.contains(&full))
            {
                let key = args.get("key", 0)?;
                return Some(format!(
                    "{ENV_MARK}{}{ENV_MARK}",
                    string_at(ctx, key, depth + 1, budget, None)?
                ));
            }
            if ENV_GETS.contains(&full) {
                return match args.get("default", 1) {
                    Some(d) => string_at(ctx, d, depth + 1, budget, env),
                    None => Some(UNKNOWN.to_string()),
                };
            }
            if last == "str" && args.positional.len() == 1 {
                return string_at(ctx, args.positional[0], depth + 1, budget, env)
                    .or_else(|| Some(UNKNOWN.to_string()));
            }
            if last == "format"
                && let Some(recv) = field(n, "function").and_then(|f| field(f, "object"))
            {
                let template = string_at(ctx, recv, depth + 1, budget, env)?;
                return Some(format_template(ctx, &template, &args, depth, budget, env));
            }
            None
        }
        "integer" | "float" => Some(ctx.text(n).to_string()),
        _ => None,
    }
}

/// A string literal's content; an f-string's interpolations read where
/// they can be, else [`UNKNOWN`].
fn literal(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    depth: usize,
    budget: &mut usize,
    env: Option<&[&str]>,
) -> String {
    let mut out = String::new();
    for c in named_children(n) {
        match c.kind_str() {
            "string_content" => out.push_str(ctx.text(c)),
            "escape_sequence" => out.push_str(match ctx.text(c) {
                "\\n" => "\n",
                "\\t" => "\t",
                "\\\"" => "\"",
                "\\'" => "'",
                "\\\\" => "\\",
                _ => "",
            }),
            "interpolation" => {
                let v = field(c, "expression")
                    .or_else(|| named_children(c).first().copied())
                    .and_then(|e| string_at(ctx, e, depth + 1, budget, env));
                match v {
                    Some(v) => out.push_str(&v),
                    None => out.push(UNKNOWN),
                }
            }
            _ => {}
        }
    }
    out
}

/// `"{0}{1}".format(a, b)` / `"{}".format(a)` / `"{host}".format(host=h)`.
fn format_template(
    ctx: &Ctx<'_>,
    template: &str,
    args: &Args<'_>,
    depth: usize,
    budget: &mut usize,
    env: Option<&[&str]>,
) -> String {
    let mut out = String::new();
    let mut next = 0usize;
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(stripped) = after.strip_prefix('{') {
            out.push('{');
            rest = stripped;
            continue;
        }
        let Some(j) = after.find('}') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let key = after[..j].split([':', '!']).next().unwrap_or("");
        let arg = if key.is_empty() {
            next += 1;
            args.positional.get(next - 1).copied()
        } else if let Ok(k) = key.parse::<usize>() {
            args.positional.get(k).copied()
        } else {
            args.kw(key)
        };
        match arg.and_then(|a| string_at(ctx, a, depth + 1, budget, env)) {
            Some(v) => out.push_str(&v),
            None => out.push(UNKNOWN),
        }
        rest = &after[j + 1..];
    }
    out.push_str(rest);
    out
}

/// The host of an HTTP(S) URL whose scheme and host are known
/// ([`crate::extract::url_host`]).
pub fn url_host(url: &str) -> Option<String> {
    crate::extract::url_host::url_host(url, UNKNOWN_STR)
}

/// The host of `host[:port][/...]`, when it is known and not local
/// ([`crate::extract::url_host`]).
pub fn host_of(rest: &str) -> Option<String> {
    crate::extract::url_host::host_of(rest, UNKNOWN_STR)
}
