//! Python source (`*.py`), read with tree-sitter-python: tenacity
//! (`@retry`, `Retrying`), backoff (`@backoff.on_exception`,
//! `on_predicate`), urllib3 `Retry` and requests' `HTTPAdapter`, botocore
//! `Config(retries=..)` and the boto3 clients it configures, aiohttp_retry
//! options and `RetryClient`, Celery `autoretry_for` tasks and bound
//! tasks' `raise self.retry(..)`, google-api-core `Retry`/`AsyncRetry`, gRPC
//! channel options carrying a service config, hand-written retry loops, idempotency keys minted inside a retry, and the HTTP and gRPC
//! calls a service makes (`requests`, `httpx`, `aiohttp`,
//! `grpc.insecure_channel`) with their timeouts. Defaults:
//! [`crate::systems::python`].
//!
//! Only files that mention a word this reader reads are parsed
//! ([`wants`]). The parse has a budget of progress steps in proportion to
//! the file (as the Java reader's): a file whose error recovery exceeds it
//! is an RL903 finding. Every walk uses an explicit stack; value
//! evaluation stops at [`MAX_DEPTH`].
//!
//! Test files (`test_*.py`, `*_test.py`, `conftest.py`, files under
//! `tests/`) are not the service's and are not read.

mod calls;
mod celery_broker;
mod celery_requeue;
mod eval;
mod libs;
mod loops;
mod sdk_calls;
mod sessions;
mod values;
pub use values::module_numbers;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_libs2;

use crate::model::{Facts, Located, RetryPolicy, Timeout};
use crate::source::Span;
use std::collections::HashMap;
use tree_sitter::Node;

/// The extractor's name in [`Facts::extractors`].
pub const NAME: &str = "python";

/// How deep value evaluation may follow names and nested expressions.
pub const MAX_DEPTH: usize = 12;

/// Nodes a file may have before the reader stops looking (a generated
/// file of megabytes): far above any hand-written module.
const MAX_NODES: usize = 2_000_000;

/// Words that make a `.py` file worth parsing: a retry library, a retry
/// word, an HTTP or gRPC client, or a sleep (hand-written loops).
const NEEDLES: &[&str] = &[
    "retry",
    "Retry",
    "RETRY",
    "retries",
    "backoff",
    "tenacity",
    "requests",
    "httpx",
    "aiohttp",
    "botocore",
    "boto3",
    "insecure_channel",
    "secure_channel",
    "sleep(",
    // python-dotenv: a `.env` loaded into the process environment, where
    // the AWS SDK reads its variables (`systems::aws::link`).
    "load_dotenv(",
    // Database drivers: a loop around their calls retries a remote call
    // (issue 28, Facebook 2010: `calls::DB_DRIVERS`).
    "pymysql",
    "psycopg",
    "MySQLdb",
    "mysql.connector",
    "asyncpg",
    "pymongo",
    "import redis",
    "from redis",
    // pika's broker parameters (`libs::pika`).
    "ConnectionParameters(",
    "URLParameters(",
    // Celery's redelivery of a task whose worker died (`celery_requeue`).
    "reject_on_worker_lost",
    "REJECT_ON_WORKER_LOST",
    // The jira client's own retrying session (`libs::jira`).
    "JIRA(",
    // Dramatiq actors (`libs::dramatiq`).
    "dramatiq",
    // Celery's broker and its redelivery timeout (`celery_broker`).
    "broker_url",
    "BROKER_URL",
    "broker=",
    "broker_transport_options",
    "BROKER_TRANSPORT_OPTIONS",
    "apply_async(",
    // The OpenAI and Anthropic SDKs' clients (`libs::llm`).
    "openai",
    "anthropic",
];

/// Whether a Python file mentions anything this reader reads.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// Read one Python file. Never panics; problems become RL903.
pub fn extract(text: &str, facts: &mut Facts) {
    let Some(tree) = crate::extract::tree_sitter::parse_source(
        tree_sitter_python::LANGUAGE.into(),
        text,
        "Python",
        "run",
        NAME,
        facts,
    ) else {
        return;
    };
    let ctx = Ctx::new(text, tree.root_node());
    let before = (facts.policies.len(), facts.edges.len());
    let mut scopes = Vec::new();
    let clients = libs::extract(&ctx, facts, &mut scopes);
    celery_requeue::extract(&ctx, facts);
    celery_broker::extract(&ctx, facts);
    libs::dramatiq_broker(&ctx, facts);
    calls::extract(&ctx, facts, &mut scopes);
    sdk_calls::edges(&ctx, facts, &scopes, &clients);
    crate::extract::loop_calls::record(
        tree.root_node(),
        text,
        &crate::extract::loop_calls::PYTHON,
        before.0,
        facts,
    );
    if (facts.policies.len(), facts.edges.len()) != before {
        facts.claimed_by(NAME);
    }
    loads_dotenv(&ctx, facts);
}

/// python-dotenv's `load_dotenv(..)` called in this file: the `.env` it
/// finds (searched from the calling file's folder up) is loaded into the
/// process environment without overriding what is set (python-dotenv
/// `main.py` `load_dotenv(dotenv_path=None, .., override=False)`), where
/// the AWS SDK reads `AWS_MAX_ATTEMPTS` and the rest
/// (`systems::aws::link`). `dotenv_values(..)` returns a dict and sets
/// nothing.
fn loads_dotenv(ctx: &Ctx<'_>, facts: &mut Facts) {
    if ctx
        .nodes
        .iter()
        .any(|n| n.kind_str() == "call" && callee(ctx, *n).1 == "load_dotenv")
    {
        facts.aws_shared.push(crate::model::AwsShared {
            kind: crate::model::AwsSharedKind::LoadsDotenv,
            mode: None,
            attempts: None,
            profile: None,
        });
    }
}

/// A retried region of code: calls inside it are repeated by policy
/// `policy` (an index into `Facts::policies`).
#[derive(Clone, Copy, Debug)]
pub struct RetryScope {
    pub policy: usize,
    /// The byte range whose calls the policy repeats.
    pub start: usize,
    pub end: usize,
    /// Whether the calls' timeouts set the policy's per-try timeout (a
    /// retry of the calls themselves, not of a whole task).
    pub per_call: bool,
}

/// The parsed file: its text, and every node in source order.
pub struct Ctx<'a> {
    pub src: &'a str,
    pub nodes: Vec<Node<'a>>,
    /// `name = value` bindings by name, each name's in source order.
    pub bindings: HashMap<&'a str, Vec<Node<'a>>>,
    /// What the file imports from tenacity, backoff, urllib3, botocore,
    /// celery (module words found in `import` statements).
    pub imports: Vec<&'a str>,
    /// Parameters' defaults (`def f(base_ms=100)`): name, value, and the
    /// byte range of the function they belong to.
    pub defaults: Vec<(&'a str, Node<'a>, usize, usize)>,
    /// The `import` and `from .. import` statements, in order
    /// (`values`: names another module gives).
    pub import_nodes: Vec<Node<'a>>,
}

impl<'a> Ctx<'a> {
    fn new(src: &'a str, root: Node<'a>) -> Self {
        let nodes = preorder(root, MAX_NODES);
        let mut bindings: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut imports = Vec::new();
        let mut defaults = Vec::new();
        let mut import_nodes = Vec::new();
        for &n in &nodes {
            match n.kind_str() {
                "assignment" => {
                    if let (Some(l), Some(r)) = (field(n, "left"), field(n, "right"))
                        && l.kind_str() == "identifier"
                    {
                        bindings.entry(text(l, src)).or_default().push(r);
                    }
                }
                "import_statement" | "import_from_statement" => {
                    import_nodes.push(n);
                    // The statement's words, split once for every module.
                    let words: Vec<&str> = text(n, src)
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .collect();
                    for m in [
                        "tenacity",
                        "backoff",
                        "urllib3",
                        "requests",
                        "botocore",
                        "boto3",
                        "celery",
                        "dramatiq",
                        "httpx",
                        "aiohttp",
                        "grpc",
                        "api_core",
                        "aiohttp_retry",
                        "pymysql",
                        "psycopg",
                        "psycopg2",
                        "MySQLdb",
                        "mysql",
                        "asyncpg",
                        "pymongo",
                        "redis",
                        "pika",
                        "openai",
                        "anthropic",
                        "jira",
                    ] {
                        // A project's own module named for its Celery app
                        // (`from proj.celery_init import app`, `celery_app`,
                        // `proj_celery`: the layout Celery's "First steps
                        // with Django" names) imports the app, and with it
                        // the tasks it decorates.
                        let named_for = |w: &str| {
                            m == "celery" && (w.starts_with("celery_") || w.ends_with("_celery"))
                        };
                        if words.iter().any(|&w| w == m || named_for(w)) && !imports.contains(&m) {
                            imports.push(m);
                        }
                    }
                }
                "default_parameter" | "typed_default_parameter" => {
                    let func = std::iter::successors(n.parent(), |p| p.parent())
                        .take(4)
                        .find(|p| matches!(p.kind_str(), "function_definition" | "lambda"));
                    if let (Some(name), Some(v), Some(f)) =
                        (field(n, "name"), field(n, "value"), func)
                        && name.kind_str() == "identifier"
                    {
                        defaults.push((text(name, src), v, f.start_byte(), f.end_byte()));
                    }
                }
                _ => {}
            }
        }
        Ctx {
            src,
            defaults,
            nodes,
            bindings,
            imports,
            import_nodes,
        }
    }

    /// The nodes inside `n` (itself included), in source order: a slice of
    /// [`Ctx::nodes`] (a preorder walk keeps every subtree contiguous).
    pub fn subtree(&self, n: Node<'_>) -> &[Node<'a>] {
        let from = self
            .nodes
            .partition_point(|x| x.start_byte() < n.start_byte());
        let Some(at) = self.nodes[from..]
            .iter()
            .take_while(|x| x.start_byte() == n.start_byte())
            .position(|x| x.id() == n.id())
            .map(|i| from + i)
        else {
            return &[];
        };
        let len = self.nodes[at + 1..]
            .iter()
            .take_while(|x| x.start_byte() < n.end_byte())
            .count();
        &self.nodes[at..at + 1 + len]
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    pub fn imports(&self, module: &str) -> bool {
        self.imports.contains(&module)
    }

    /// The default of parameter `name` of the innermost function holding
    /// byte `at`.
    pub fn default_of(&self, name: &str, at: usize) -> Option<Node<'a>> {
        self.defaults
            .iter()
            .filter(|(n, _, s, e)| *n == name && *s <= at && at < *e)
            .max_by_key(|(_, _, s, _)| *s)
            .map(|(_, v, _, _)| *v)
    }

    /// The value bound to `name` most recently before `at`, else the first
    /// binding of it anywhere in the file.
    pub fn binding(&self, name: &str, at: usize) -> Option<Node<'a>> {
        let all = self.bindings.get(name)?;
        all.iter()
            .rev()
            .find(|v| v.end_byte() <= at)
            .or_else(|| all.first())
            .copied()
    }
}

/// The named nodes below `root` (itself included) in source order, at
/// most `max`: what walking `named_children` from the root with a stack
/// gives, with one cursor instead of a vector per node (a fifth of the
/// reader's walks on databend 43b24ec).
fn preorder(root: Node<'_>, max: usize) -> Vec<Node<'_>> {
    let mut nodes = vec![root];
    let mut cursor = root.walk();
    if !cursor.goto_first_child() {
        return nodes;
    }
    // How deep the cursor is below the root.
    let mut depth = 1usize;
    while nodes.len() < max {
        let n = cursor.node();
        // Only named nodes are entered, as `named_children` sees them.
        if n.is_named() {
            nodes.push(n);
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
        }
        // The next sibling, else up until one has a next sibling.
        while !cursor.goto_next_sibling() {
            if depth == 1 || !cursor.goto_parent() {
                return nodes;
            }
            depth -= 1;
        }
    }
    nodes
}

/// Source text on one line, for messages (`stop_after_attempt(\n  N)`).
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn span(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

pub fn text<'t>(n: Node<'_>, src: &'t str) -> &'t str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

pub fn field<'a>(n: Node<'a>, name: &str) -> Option<Node<'a>> {
    grammar().field(n, name)
}

crate::extract::tree_sitter::grammar_tables!(tree_sitter_python::LANGUAGE);

pub fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind_str() != "comment")
        .collect()
}

/// A call's callee as dotted text (`requests.get`, `tenacity.retry`), and
/// its last name (`get`, `retry`).
pub fn callee<'a>(ctx: &Ctx<'a>, call: Node<'_>) -> (&'a str, &'a str) {
    let Some(f) = field(call, "function") else {
        return ("", "");
    };
    let full = ctx.text(f);
    let last = full.rsplit('.').next().unwrap_or(full).trim();
    (full, last)
}

/// A call's arguments: positional, then keyword (name, value).
pub struct Args<'a> {
    pub positional: Vec<Node<'a>>,
    pub keywords: Vec<(&'a str, Node<'a>)>,
}

impl<'a> Args<'a> {
    pub fn of(ctx: &Ctx<'a>, call: Node<'a>) -> Args<'a> {
        let mut positional = Vec::new();
        let mut keywords = Vec::new();
        if let Some(list) = field(call, "arguments") {
            for a in named_children(list) {
                if a.kind_str() == "keyword_argument" {
                    if let (Some(k), Some(v)) = (field(a, "name"), field(a, "value")) {
                        keywords.push((ctx.text(k), v));
                    }
                } else if !matches!(a.kind_str(), "list_splat" | "dictionary_splat") {
                    positional.push(a);
                }
            }
        }
        Args {
            positional,
            keywords,
        }
    }

    pub fn kw(&self, name: &str) -> Option<Node<'a>> {
        self.keywords
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| *v)
    }

    /// The keyword `name`, else the positional argument `i`.
    pub fn get(&self, name: &str, i: usize) -> Option<Node<'a>> {
        self.kw(name).or_else(|| self.positional.get(i).copied())
    }
}

/// A timeout written at `n` (seconds, `None` = for ever).
pub fn timeout_at(ctx: &Ctx<'_>, n: Node<'_>) -> Located<Timeout> {
    let t = match eval::seconds_or_none(ctx, n) {
        eval::Secs::Value(d) if d.is_zero() => Timeout::Disabled,
        eval::Secs::Value(d) => Timeout::after(d),
        eval::Secs::None => Timeout::Disabled,
        eval::Secs::Unknown => Timeout::Unknown,
    };
    Located::written(t, span(n))
}

/// A named policy of system `lib` (`tenacity`, ...).
pub fn policy(lib: &str, span: Span, attempts: Located<crate::model::Attempts>) -> RetryPolicy {
    RetryPolicy::new(crate::model::System::PythonLib(lib.into()), span, attempts)
}

/// The function definition a node is in, innermost first: its name and
/// its node.
pub fn enclosing_function<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<(&'a str, Node<'a>)> {
    let mut cur = n.parent();
    for _ in 0..10_000 {
        let c = cur?;
        if c.kind_str() == "function_definition" {
            return Some((field(c, "name").map_or("", |x| ctx.text(x)), c));
        }
        cur = c.parent();
    }
    None
}
