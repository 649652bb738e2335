//! Response statuses a hand-written retry loop retries, read from the
//! tests it writes on them (issue 28): `resp.statusCode() >= 500`,
//! `status == 429 || status == 503`, `!resp.status().is_success()`,
//! `resp.StatusCode == http.StatusTooManyRequests`,
//! `r.status_code in (429, 503)`, `response.IsSuccessStatusCode`,
//! `StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS`.
//!
//! A loop reader hands each test it finds in the loop's own code with
//! what the branch taken does (goes round again, or leaves the loop);
//! [`retried`] decides which statuses go round: those of the tests that go
//! round, else every failure status no leaving test catches (a loop that
//! leaves only on `== 200` retries 404 too). Only 400-599 count: a client
//! follows redirects itself and never shows 1xx.
//!
//! Pure text, language-neutral, bounded: a condition longer than
//! [`MAX_TEXT`] is not read.

use crate::model::{Condition, Located, RetryOn};
use crate::source::Span;

/// The longest condition read.
const MAX_TEXT: usize = 2048;

/// The lowest and highest status a set holds.
const LO: u16 = 100;
const HI: u16 = 599;

/// A set of HTTP statuses, 100-599.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statuses(Vec<bool>);

impl Statuses {
    pub fn none() -> Self {
        Statuses(vec![false; usize::from(HI - LO + 1)])
    }
    pub fn all() -> Self {
        Statuses(vec![true; usize::from(HI - LO + 1)])
    }
    pub fn range(from: u16, to: u16) -> Self {
        let mut s = Self::none();
        for c in from.max(LO)..=to.min(HI) {
            s.0[usize::from(c - LO)] = true;
        }
        s
    }
    pub fn one(c: u16) -> Self {
        Self::range(c, c)
    }
    pub fn union(&self, o: &Self) -> Self {
        Statuses(self.0.iter().zip(&o.0).map(|(a, b)| *a || *b).collect())
    }
    pub fn intersect(&self, o: &Self) -> Self {
        Statuses(self.0.iter().zip(&o.0).map(|(a, b)| *a && *b).collect())
    }
    pub fn not(&self) -> Self {
        Statuses(self.0.iter().map(|a| !a).collect())
    }
    /// Whether the set holds only failures (400-599): `Some(true)`; only
    /// answers below 400 (a success test): `Some(false)`; else `None`.
    pub fn failure(&self) -> Option<bool> {
        let r = self.ranges();
        if r.is_empty() {
            None
        } else if r.iter().all(|(from, _)| *from >= 400) {
            Some(true)
        } else if r.iter().all(|(_, to)| *to < 400) {
            Some(false)
        } else {
            None
        }
    }
    pub fn is_empty(&self) -> bool {
        !self.0.iter().any(|a| *a)
    }
    /// The set as inclusive ranges, in order.
    pub fn ranges(&self) -> Vec<(u16, u16)> {
        let mut out: Vec<(u16, u16)> = Vec::new();
        for (i, on) in self.0.iter().enumerate() {
            if !on {
                continue;
            }
            let c = LO + i as u16;
            match out.last_mut() {
                Some((_, to)) if *to + 1 == c => *to = c,
                _ => out.push((c, c)),
            }
        }
        out
    }
}

/// One status test of a loop: the statuses for which it holds, whether
/// the branch taken when it holds goes round again, whether the branch
/// taken when it does not hold does (`None`: no `else`, the code after the
/// test runs), and where the test is written.
#[derive(Clone, Debug)]
pub struct Test {
    pub holds: Statuses,
    pub then_round: bool,
    pub else_round: Option<bool>,
    pub at: Span,
}

/// The failure statuses (400-599) a loop retries, from its status tests,
/// each part with the test it comes from: those of the tests that go
/// round, else every failure no leaving test takes (at the first leaving
/// test); empty when it tests no status or none goes round.
pub fn retried(tests: &[Test]) -> Vec<(Statuses, Span)> {
    let failures = Statuses::range(400, HI);
    let mut parts: Vec<(Statuses, Span)> = Vec::new();
    let mut covered = Statuses::none();
    // What left at a test written before (the tests come in source order:
    // `if (code == 404) return null;` before `EnsureSuccessStatusCode()`).
    let mut left = Statuses::none();
    for t in tests {
        let mut sets = Vec::new();
        if t.then_round {
            sets.push(t.holds.clone());
        } else {
            left = left.union(&t.holds);
        }
        match t.else_round {
            Some(true) => sets.push(t.holds.not()),
            Some(false) => left = left.union(&t.holds.not()),
            None => {}
        }
        for s in sets {
            let part = s
                .intersect(&failures)
                .intersect(&covered.not())
                .intersect(&left.not());
            if !part.is_empty() {
                covered = covered.union(&part);
                parts.push((part, t.at));
            }
        }
    }
    if !parts.is_empty() {
        return parts;
    }
    let mut leave = Statuses::none();
    let mut first = None;
    for t in tests {
        if !t.then_round {
            leave = leave.union(&t.holds);
            first.get_or_insert(t.at);
        }
        if t.else_round == Some(false) {
            leave = leave.union(&t.holds.not());
            first.get_or_insert(t.at);
        }
    }
    let rest = leave.not().intersect(&failures);
    match first {
        Some(at) if !leave.is_empty() && !rest.is_empty() => vec![(rest, at)],
        _ => Vec::new(),
    }
}

/// Every status of the parts.
pub fn union(parts: &[(Statuses, Span)]) -> Statuses {
    parts.iter().fold(Statuses::none(), |a, (s, _)| a.union(s))
}

/// The retried statuses as conditions, each at its test, split at each
/// hundred (`400-599` is `4xx` and `5xx`).
pub fn conditions_at(parts: &[(Statuses, Span)]) -> Vec<Located<Condition>> {
    let mut out = Vec::new();
    for (s, at) in parts {
        for (from, to) in s.ranges() {
            let mut a = from;
            while a <= to {
                let b = to.min(a / 100 * 100 + 99);
                out.push(Located::written(Condition::Status { from: a, to: b }, *at));
                a = b + 1;
            }
        }
    }
    out
}

/// `r` with the retried statuses listed too. Every error
/// (`RetryOn::AllErrors`) becomes a listed catch-all named `catch_all`
/// (`Exception`, `Error`: RL102 still sees it), so that RL101 and RL603
/// see the statuses beside it.
pub fn listed_with(
    r: Located<RetryOn>,
    parts: &[(Statuses, Span)],
    catch_all: &str,
) -> Located<RetryOn> {
    let mut conditions = match r.value {
        RetryOn::AllErrors => vec![Located::written(
            Condition::Exception(catch_all.into()),
            r.span,
        )],
        RetryOn::Listed { conditions } => conditions,
        RetryOn::Nothing | RetryOn::Unknown => Vec::new(),
    };
    let span = match (conditions.is_empty(), parts.first()) {
        (true, Some((_, at))) => *at,
        _ => r.span,
    };
    conditions.extend(conditions_at(parts));
    Located::written(RetryOn::Listed { conditions }, span)
}

/// The statuses for which `cond` holds, when it tests a response status;
/// `None` when it does not (an attempt counter, an error check).
pub fn holds_for(cond: &str) -> Option<Statuses> {
    if cond.len() > MAX_TEXT {
        return None;
    }
    expr(cond.trim(), 0)
}

/// Nesting allowed in a condition (parentheses, negations).
const MAX_DEPTH: usize = 16;

fn expr(t: &str, depth: usize) -> Option<Statuses> {
    if depth > MAX_DEPTH {
        return None;
    }
    let t = strip_parens(t.trim());
    for op in ["||", " or "] {
        let parts = split_top(t, op);
        if parts.len() > 1 {
            // Non-status disjuncts (`err != nil || ..`) are other failures.
            let sets: Vec<Statuses> = parts.iter().filter_map(|p| expr(p, depth + 1)).collect();
            return sets.into_iter().reduce(|a, b| a.union(&b));
        }
    }
    for op in ["&&", " and "] {
        let parts = split_top(t, op);
        if parts.len() > 1 {
            // Non-status conjuncts (`attempt < max && ..`) do not narrow
            // the statuses.
            let sets: Vec<Statuses> = parts.iter().filter_map(|p| expr(p, depth + 1)).collect();
            return sets.into_iter().reduce(|a, b| a.intersect(&b));
        }
    }
    if let Some(rest) = t.strip_prefix("not ") {
        return expr(rest, depth + 1).map(|s| s.not());
    }
    if let Some(rest) = t.strip_prefix('!')
        && !rest.starts_with('=')
    {
        return expr(rest, depth + 1).map(|s| s.not());
    }
    atom(t)
}

/// `(a)` without its parentheses, when they enclose the whole text.
fn strip_parens(mut t: &str) -> &str {
    for _ in 0..MAX_DEPTH {
        if !(t.starts_with('(') && t.ends_with(')')) {
            break;
        }
        let mut depth = 0i32;
        let mut whole = true;
        for (i, c) in t.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth == 0 && i + 1 < t.len() {
                whole = false;
                break;
            }
        }
        if !whole {
            break;
        }
        t = t[1..t.len() - 1].trim();
    }
    t
}

/// `t` split at `op` outside brackets and strings.
fn split_top<'a>(t: &'a str, op: &str) -> Vec<&'a str> {
    let b = t.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ if depth == 0 && t[i..].starts_with(op) => {
                    parts.push(&t[start..i]);
                    i += op.len();
                    start = i;
                    continue;
                }
                _ => {}
            },
        }
        i += 1;
    }
    parts.push(&t[start..]);
    parts
}

/// Whether an operand is the response status: `resp.StatusCode`,
/// `response.getStatusLine().getStatusCode()`, `r.status_code`,
/// `(int)response.StatusCode`, `res.status().as_u16()`, `code`.
fn is_status_operand(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    (l.contains("status") || l.ends_with("code") || l.ends_with("code()"))
        && !l.contains("exit")
        && !l.contains("grpc")
        && !l.contains("rpc")
        && !l.contains("errorcode")
        && !l.contains("error_code")
        && !t.trim().starts_with('"')
}

fn atom(t: &str) -> Option<Statuses> {
    let l = t.to_ascii_lowercase();
    let compact: String = l.chars().filter(|c| !c.is_whitespace()).collect();
    // A generic success predicate (`is_success()`, `isSuccessful()`) is a
    // status test only on a response or its status: `outcome.is_success()`
    // of a crate's own trait (`Result`, `Option`, `bool`) reads no status.
    for word in ["is_success()", "issuccessful()"] {
        if let Some(recv) = compact.strip_suffix(word) {
            return is_response_operand(recv.trim_end_matches('.'))
                .then(|| Statuses::range(200, 299));
        }
    }
    // Predicates on the status.
    for (word, from, to) in [
        ("issuccessstatuscode", 200, 299),
        ("is2xxsuccessful()", 200, 299),
        ("is_server_error()", 500, 599),
        ("is5xxservererror()", 500, 599),
        ("is_client_error()", 400, 499),
        ("is4xxclienterror()", 400, 499),
    ] {
        if compact.ends_with(word) {
            return Some(Statuses::range(from, to));
        }
    }
    // `status.isError()` (Spring `HttpStatusCode`): 4xx and 5xx.
    if (compact.ends_with("iserror()") || compact.ends_with("is_error()"))
        && is_status_operand(compact.trim_end_matches("()"))
    {
        return Some(Statuses::range(400, 599));
    }
    // Python requests/httpx `resp.ok` / `resp.is_success`: below 400 / 2xx.
    if let Some(recv) = compact.strip_suffix(".ok")
        && is_plain_path(recv)
    {
        return Some(Statuses::range(100, 399));
    }
    if let Some(recv) = compact.strip_suffix(".is_success")
        && is_plain_path(recv)
    {
        return Some(Statuses::range(200, 299));
    }
    // `matches!(s, StatusCode::A | StatusCode::B)`.
    if let Some(inner) = compact
        .strip_prefix("matches!(")
        .and_then(|r| r.strip_suffix(')'))
    {
        let (subject, _) = inner.split_once(',')?;
        if !is_status_operand(subject) {
            return None;
        }
        return pattern(&t[t.find(',')? + 1..t.rfind(')')?]);
    }
    // `code in (429, 503)`, `code not in [..]`.
    for (op, neg) in [(" not in ", true), (" in ", false)] {
        if let Some(i) = l.find(op) {
            let (left, right) = (&t[..i], &t[i + op.len()..]);
            if !is_status_operand(left) {
                return None;
            }
            let s = list(right)?;
            return Some(if neg { s.not() } else { s });
        }
    }
    // `List.of(429, 503).contains(code)`, `[429, 503].contains(&s)`,
    // `new[] { .. }.Contains(code)`.
    if let Some(i) = l.rfind(".contains(") {
        let arg = t[i + ".contains(".len()..].trim_end_matches(')');
        if !is_status_operand(arg.trim_start_matches('&')) {
            return None;
        }
        return list(&t[..i]);
    }
    comparison(t)
}

/// Whether a receiver is an HTTP response or its status: `resp.status()`,
/// `status`, `response`, `res`, `self.last_response`, `call.execute()`
/// (lowercase, no spaces).
fn is_response_operand(recv: &str) -> bool {
    let last = recv
        .trim_end_matches('?')
        .trim_end_matches(".await")
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .trim_end_matches("()");
    is_status_operand(recv)
        || last.contains("resp")
        || matches!(last, "res" | "rsp" | "execute" | "send")
}

/// A dotted path of names (`resp`, `self.resp`), no call.
fn is_plain_path(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// `A | B | 500..=599` (a Rust pattern): the statuses it matches.
pub fn pattern(t: &str) -> Option<Statuses> {
    if t.len() > MAX_TEXT {
        return None;
    }
    let mut out = Statuses::none();
    for alt in split_top(t, "|") {
        let alt = alt.trim();
        let (a, b) = match alt.split_once("..=") {
            Some((a, b)) => (a, b),
            None => (alt, alt),
        };
        let (a, b) = (value(a.trim())?, value(b.trim())?);
        out = out.union(&Statuses::range(a, b));
    }
    Some(out)
}

/// The statuses a list in code holds (`Arrays.asList(429, 503)`,
/// `List.of(HttpStatus.SC_BAD_GATEWAY)`); `None` when an element is not one.
pub fn listed(t: &str) -> Option<Statuses> {
    if t.len() > MAX_TEXT {
        return None;
    }
    list(t)
}

/// `(429, 503)`, `[429, 503]`, `{429, 503}`, `List.of(..)`, `Set.of(..)`,
/// `new[] { .. }`: the statuses listed (every element must be one).
fn list(t: &str) -> Option<Statuses> {
    let close = t.rfind([')', ']', '}'])?;
    let opening = match t.as_bytes()[close] {
        b')' => '(',
        b']' => '[',
        _ => '{',
    };
    let open = t.find(opening)?;
    if close <= open {
        return None;
    }
    let mut out = Statuses::none();
    let mut any = false;
    for e in split_top(&t[open + 1..close], ",") {
        let e = e.trim();
        if e.is_empty() {
            continue;
        }
        let e = e.trim_start_matches('{').trim_end_matches('}').trim();
        out = out.union(&Statuses::one(value(e)?));
        any = true;
    }
    any.then_some(out)
}

/// `a OP b` with one side the status and the other a status value (or
/// `status / 100 == 5`).
fn comparison(t: &str) -> Option<Statuses> {
    const OPS: &[&str] = &["==", "!=", ">=", "<=", ">", "<"];
    let b = t.as_bytes();
    let mut depth = 0i32;
    let mut found: Option<(usize, &str)> = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 => {
                if let Some(op) = OPS.iter().find(|op| t[i..].starts_with(**op)) {
                    // Not `->`, `=>`, `<<`, `>>`, `===` aside.
                    let prev = if i > 0 { b[i - 1] } else { b' ' };
                    if !matches!(prev, b'-' | b'=' | b'<' | b'>') {
                        found = Some((i, op));
                        break;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (i, op) = found?;
    let (left, right) = (
        t[..i].trim(),
        t[i + op.len()..].trim().trim_start_matches('='),
    );
    let right = right.trim();
    // The status is the side that is not a value (`http.StatusOK` names
    // a status but is one).
    let subject = |x: &str| is_status_operand(x) && value(x).is_none();
    let (subject, v, op) = if subject(left) && !subject(right) {
        (left, right, op)
    } else if subject(right) && !subject(left) {
        (right, left, flip(op))
    } else {
        return None;
    };
    // `status / 100 == 5`, `status // 100 == 5`.
    let per_hundred = ["/100", "//100"]
        .iter()
        .any(|d| subject.replace(' ', "").ends_with(d));
    if per_hundred {
        let n: u16 = v.parse().ok()?;
        let s = Statuses::range(n * 100, n * 100 + 99);
        return match op {
            "==" => Some(s),
            "!=" => Some(s.not()),
            ">=" => Some(Statuses::range(n * 100, HI)),
            ">" => Some(Statuses::range(n * 100 + 100, HI)),
            "<" => Some(Statuses::range(LO, (n * 100).saturating_sub(1))),
            "<=" => Some(Statuses::range(LO, n * 100 + 99)),
            _ => None,
        };
    }
    let n = value(v)?;
    Some(match op {
        "==" => Statuses::one(n),
        "!=" => Statuses::one(n).not(),
        ">=" => Statuses::range(n, HI),
        ">" => Statuses::range(n + 1, HI),
        "<=" => Statuses::range(LO, n),
        "<" => Statuses::range(LO, n.saturating_sub(1)),
        _ => return None,
    })
}

fn flip(op: &str) -> &str {
    match op {
        ">=" => "<=",
        "<=" => ">=",
        ">" => "<",
        "<" => ">",
        o => o,
    }
}

/// A status value: `503`, `503u16`, `StatusCode::SERVICE_UNAVAILABLE`,
/// `http.StatusTooManyRequests`, `HttpStatus.SC_SERVICE_UNAVAILABLE`,
/// `HttpURLConnection.HTTP_UNAVAILABLE`, `HttpStatusCode.ServiceUnavailable`,
/// `status.HTTP_503_SERVICE_UNAVAILABLE`, `StatusCodes.Status503ServiceUnavailable`,
/// `(int)HttpStatusCode.BadGateway`, `HttpStatus.BAD_GATEWAY.value()`.
fn value(t: &str) -> Option<u16> {
    let t = t
        .trim()
        .trim_start_matches("(int)")
        .trim_end_matches(".value()")
        .trim_end_matches(".code()")
        .trim();
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !digits.is_empty() {
        let rest = &t[digits.len()..];
        if !(rest.is_empty() || matches!(rest, "u16" | "u32" | "i32" | "L" | "l")) {
            return None;
        }
        let n: u16 = digits.parse().ok()?;
        return (LO..=HI).contains(&n).then_some(n);
    }
    // A named constant: its qualifier must say HTTP (not a gRPC `Code`).
    let (qual, last) = match t.rfind(['.', ':']) {
        Some(i) => (&t[..i], &t[i + 1..]),
        None => return None,
    };
    let q = qual.to_ascii_lowercase();
    if !(q.contains("http") || q.contains("statuscode") || q.ends_with("status")) {
        return None;
    }
    if !last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    // A number in the name: `HTTP_503_..`, `Status503ServiceUnavailable`.
    let nums: String = last
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    if nums.len() == 3 {
        let n: u16 = nums.parse().ok()?;
        return (LO..=HI).contains(&n).then_some(n);
    }
    let mut name: String = last
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    for prefix in ["status", "sc", "http"] {
        if let Some(r) = name.strip_prefix(prefix)
            && !r.is_empty()
        {
            name = r.to_string();
        }
    }
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// Status names as the HTTP libraries spell them, lower case without `_`.
const NAMES: &[(&str, u16)] = &[
    ("ok", 200),
    ("created", 201),
    ("accepted", 202),
    ("nocontent", 204),
    ("movedpermanently", 301),
    ("found", 302),
    ("notmodified", 304),
    ("badrequest", 400),
    ("unauthorized", 401),
    ("paymentrequired", 402),
    ("forbidden", 403),
    ("notfound", 404),
    ("methodnotallowed", 405),
    ("notacceptable", 406),
    ("requesttimeout", 408),
    ("clienttimeout", 408),
    ("conflict", 409),
    ("gone", 410),
    ("preconditionfailed", 412),
    ("unprocessableentity", 422),
    ("unprocessablecontent", 422),
    ("locked", 423),
    ("toomanyrequests", 429),
    ("internalservererror", 500),
    ("internalerror", 500),
    ("servererror", 500),
    ("notimplemented", 501),
    ("badgateway", 502),
    ("serviceunavailable", 503),
    ("unavailable", 503),
    ("gatewaytimeout", 504),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn r(t: &str) -> Vec<(u16, u16)> {
        holds_for(t).map(|s| s.ranges()).unwrap_or_default()
    }

    #[test]
    fn comparisons_and_constants() {
        assert_eq!(r("resp.statusCode() >= 500"), vec![(500, 599)]);
        assert_eq!(r("500 <= resp.StatusCode"), vec![(500, 599)]);
        assert_eq!(
            r("status == 429 || status == 503"),
            vec![(429, 429), (503, 503)]
        );
        assert_eq!(
            r("resp.StatusCode == http.StatusTooManyRequests"),
            vec![(429, 429)]
        );
        assert_eq!(
            r("response.getStatusLine().getStatusCode() == HttpStatus.SC_SERVICE_UNAVAILABLE"),
            vec![(503, 503)]
        );
        assert_eq!(
            r("conn.getResponseCode() == HttpURLConnection.HTTP_UNAVAILABLE"),
            vec![(503, 503)]
        );
        assert_eq!(
            r("response.StatusCode == HttpStatusCode.ServiceUnavailable"),
            vec![(503, 503)]
        );
        assert_eq!(r("(int)response.StatusCode >= 500"), vec![(500, 599)]);
        assert_eq!(
            r("res.status() == StatusCode::TOO_MANY_REQUESTS"),
            vec![(429, 429)]
        );
        assert_eq!(r("r.status_code // 100 == 5"), vec![(500, 599)]);
        assert_eq!(
            r("resp.status_code == status.HTTP_503_SERVICE_UNAVAILABLE"),
            vec![(503, 503)]
        );
        assert_eq!(
            r("resp.StatusCode >= 400 && resp.StatusCode < 500"),
            vec![(400, 499)]
        );
    }

    #[test]
    fn predicates_lists_and_negations() {
        assert_eq!(
            r("!resp.status().is_success()"),
            vec![(100, 199), (300, 599)]
        );
        assert_eq!(r("response.IsSuccessStatusCode"), vec![(200, 299)]);
        assert_eq!(r("not resp.ok"), vec![(400, 599)]);
        assert_eq!(
            r("r.status_code in (429, 503)"),
            vec![(429, 429), (503, 503)]
        );
        assert_eq!(r("r.status_code not in [200, 201]").len(), 2);
        assert_eq!(
            r("List.of(429, 503).contains(resp.statusCode())"),
            vec![(429, 429), (503, 503)]
        );
        assert_eq!(
            r("matches!(resp.status(), StatusCode::TOO_MANY_REQUESTS | StatusCode::BAD_GATEWAY)"),
            vec![(429, 429), (502, 502)]
        );
        assert_eq!(r("resp.status() != 200"), vec![(100, 199), (201, 599)]);
    }

    #[test]
    fn other_tests_are_not_statuses() {
        for t in [
            "attempt < maxRetries",
            "err != nil",
            "process.exitCode == 1",
            "status.getCode() == Status.Code.UNAVAILABLE",
            "e.code() == Code::Unavailable",
            "st.Code() == codes.Unavailable",
            "errorCode == 500",
            "x > 3",
        ] {
            assert_eq!(holds_for(t), None, "{t}");
        }
        // A counter beside a status test does not narrow it.
        assert_eq!(r("attempt < 3 && resp.StatusCode >= 500"), vec![(500, 599)]);
        assert_eq!(r("err != nil || resp.StatusCode >= 500"), vec![(500, 599)]);
    }

    #[test]
    fn what_a_loop_retries() {
        let t = |c: &str, then_round: bool, else_round: Option<bool>| Test {
            holds: holds_for(c).unwrap(),
            then_round,
            else_round,
            at: Span::new(0, 1),
        };
        let retried = |tests: &[Test]| union(&super::retried(tests));
        // Leaves on 200 only: every failure status goes round.
        assert_eq!(
            retried(&[t("status == 200", false, None)]).ranges(),
            vec![(400, 599)]
        );
        // Retries 429 and 5xx; the rest leaves.
        assert_eq!(
            retried(&[
                t("code == 200", false, None),
                t("code == 429 || code >= 500", true, Some(false)),
            ])
            .ranges(),
            vec![(429, 429), (500, 599)]
        );
        // A status that leaves before a test that sends the rest round.
        assert_eq!(
            retried(&[t("code == 404", false, None), t("code >= 400", true, None),]).ranges(),
            vec![(400, 403), (405, 599)]
        );
        // A test that only leaves on 4xx: 5xx goes round.
        assert_eq!(
            retried(&[t("code < 500", false, None)]).ranges(),
            vec![(500, 599)]
        );
        assert!(retried(&[]).is_empty());
        // Split at each hundred for messages.
        let parts = super::retried(&[t("status == 200", false, None)]);
        assert_eq!(conditions_at(&parts).len(), 2);
    }
}
