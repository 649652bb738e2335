//! Go source (`*.go`), read with tree-sitter-go: go-retryablehttp,
//! cenkalti/backoff v4 and v5, avast/retry-go, sethvargo/go-retry,
//! client-go `retry.OnError`/`RetryOnConflict` with `wait.Backoff`,
//! hand-written retry loops, idempotency keys minted inside a retry, waits
//! taken from `Retry-After`, and the HTTP and gRPC calls a service makes
//! (`net/http`, `grpc.Dial`/`NewClient` with a default service config)
//! with their timeouts. Defaults: [`crate::systems::go`].
//!
//! Only files that mention a word this reader reads are parsed
//! ([`wants`]); packages are known by their import path, whatever name
//! the file gives them. The parse has a budget
//! ([`crate::extract::tree_sitter`]); every walk uses an explicit stack
//! and value evaluation stops at [`MAX_DEPTH`]. Test files (`*_test.go`)
//! are not the service's and are skipped by the scan.

mod calls;
mod env_fallback;
mod env_fields;
mod envs;
pub mod eval;
mod libs;
mod local;
mod local_fn;
mod loops;
mod op_sorts;
mod pkg;
pub mod prune;
mod pruned_read;
mod scope_calls;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_shapes;
#[cfg(test)]
mod tests_targets;
mod through;

use crate::model::{Facts, Located, RetryPolicy};
use crate::source::Span;
pub use libs::config_function_fields;
pub use local_fn::local_function;
pub use pkg::Pkg;
use pkg::{default_name, pkg_of_path};
pub use pruned_read::extract_with;
use pruned_read::{CrossRefs, NO_PRUNE};
use std::collections::HashMap;
use tree_sitter::Node;

/// The extractor's name in [`Facts::extractors`].
pub const NAME: &str = "go";

/// How deep value evaluation may follow names and nested expressions.
pub const MAX_DEPTH: usize = 12;

/// Nodes a file may have before the reader stops looking.
const MAX_NODES: usize = 2_000_000;

/// Words that make a `.go` file worth parsing.
const NEEDLES: &[&str] = &[
    "retry",
    "Retry",
    "backoff",
    "BackOff",
    "Backoff",
    // HTTP and gRPC clients, not every file that imports `net/http` (a
    // server's handlers make no calls): istio has 96 files importing it,
    // and parsing each cost more than the rest of the scan.
    // godotenv: `.env` loaded into the process environment.
    "godotenv",
    "http.Get(",
    "http.Post(",
    "http.PostForm(",
    "http.Head(",
    "http.NewRequest",
    "http.Client",
    "http.DefaultClient",
    "grpc.Dial",
    "grpc.NewClient",
    "WithDefaultServiceConfig",
    "time.Sleep",
    "time.After",
    // A gRPC code tested to go round (`status.Code(err) == codes.Unavailable`)
    // around a client passed in as a parameter (issue 28).
    "== codes.",
    "aws-sdk-go-v2",
    "sarama",
    // segmentio/kafka-go's writers and readers.
    "segmentio/kafka-go",
    "kafka.Writer{",
    "kafka.NewWriter(",
    "kafka.NewReader(",
    // AMQP and NATS clients (`libs::brokers`).
    "streadway/amqp",
    "rabbitmq/amqp091-go",
    "nats-io/nats.go",
];

/// Whether a Go file mentions anything this reader reads: one search for
/// the words of both sets ([`parses`] or [`env_fields::wants`]), most Go
/// files holding neither (istio 86c9f01: 176 of 1,273 files wanted, and
/// two passes over the others were 2.5% of a cold scan).
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> = std::sync::LazyLock::new(|| {
        crate::extract::Needles::new(NEEDLES.iter().chain(env_fields::NEEDLES).copied())
    });
    FINDER.any_in(bytes)
}

/// Whether a Go file is worth parsing (not only a configuration loader
/// filling struct fields from the environment, read from its text).
fn parses(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// Read one Go file. Never panics; problems become RL903.
pub fn extract(text: &str, facts: &mut Facts) {
    let env_fields = env_fields::wants(text.as_bytes());
    if env_fields {
        env_fields::extract(text, facts);
        if !parses(text.as_bytes()) {
            return;
        }
    }
    extract_with(text, facts, !*NO_PRUNE);
    loads_dotenv(text, facts);
}

/// godotenv loading `.env` into the process environment: `godotenv.Load()`
/// or `Overload()` called, or the `github.com/joho/godotenv/autoload`
/// package imported (godotenv `godotenv.go`: `Load` reads `.env` of the
/// working directory and sets only the variables not set yet). The AWS
/// SDK then reads `AWS_MAX_ATTEMPTS` and the rest from it
/// (`systems::aws::link`). Read from the text: the call sits in `main`,
/// a body the pruned parse blanks.
fn loads_dotenv(text: &str, facts: &mut Facts) {
    let imports = text.contains("\"github.com/joho/godotenv");
    let called = text.contains("godotenv.Load(")
        || text.contains("godotenv.Overload(")
        || text.contains("godotenv/autoload\"");
    if imports && called {
        facts.aws_shared.push(crate::model::AwsShared {
            kind: crate::model::AwsSharedKind::LoadsDotenv,
            mode: None,
            attempts: None,
            profile: None,
        });
    }
}

fn read(text: &str, skip: &[std::ops::Range<usize>], facts: &mut Facts) -> Option<CrossRefs> {
    let tree = crate::extract::tree_sitter::parse_source_skipping(
        tree_sitter_go::LANGUAGE.into(),
        text,
        skip,
        "Go",
        "build",
        NAME,
        facts,
    )?;
    let ctx = Ctx::new(text, tree.root_node());
    let before = (
        facts.policies.len(),
        facts.edges.len(),
        facts.timeouts.len(),
    );
    let mut scopes = Vec::new();
    libs::extract(&ctx, facts, &mut scopes);
    loops::extract(&ctx, facts, &mut scopes);
    scope_calls::extend(&ctx, &mut scopes);
    crate::extract::loop_calls::record(
        tree.root_node(),
        text,
        &crate::extract::loop_calls::GO,
        before.0,
        facts,
    );
    libs::sarama(&ctx, facts, &scopes);
    libs::kafka_go(&ctx, facts, &scopes);
    libs::brokers(&ctx, facts, &scopes);
    calls::extract(&ctx, facts, &scopes);
    if (
        facts.policies.len(),
        facts.edges.len(),
        facts.timeouts.len(),
    ) != before
    {
        facts.claimed_by(NAME);
    }
    Some(CrossRefs {
        scopes: scopes
            .iter()
            .map(|s| (s.start, s.end))
            .chain(ctx.needs.take())
            .collect(),
        clients: calls::client_names(&ctx, facts),
        words: ctx.need_words.take(),
    })
}

/// A retried region of code: calls inside it are repeated by policy
/// `policy` (an index into `Facts::policies`).
#[derive(Clone, Copy, Debug)]
pub struct RetryScope {
    pub policy: usize,
    pub start: usize,
    pub end: usize,
    /// The body of a function of the file the retried code calls
    /// ([`scope_calls`]): its calls are repeated, but one try of the policy
    /// is the whole call, not each call in it.
    pub via_call: bool,
}

/// A field assignment `recv.Field = value` (or `recv.A.B = value`).
pub struct FieldSet<'a> {
    pub recv: &'a str,
    /// The field path after the receiver, `RetryMax` or `HTTPClient.Timeout`.
    pub field: &'a str,
    pub value: Node<'a>,
}

/// The parsed file: its text, and every node in source order.
pub struct Ctx<'a> {
    pub src: &'a str,
    pub nodes: Vec<Node<'a>>,
    /// The index in `nodes` of each node's parent (`u32::MAX` for the
    /// root): the walk reaches each node from its parent, which
    /// `Node::parent` finds again by descending from the root on each
    /// call (a tenth of a scan of istio, asked for every node of a loop).
    pub parents: Vec<u32>,
    /// The `call_expression` nodes of `nodes`, in the same order: what
    /// most passes look at (a tenth of the nodes of istio's files).
    pub calls: Vec<Node<'a>>,
    /// The `import_spec` nodes, in order.
    pub import_specs: Vec<Node<'a>>,
    /// `name := value`, `name = value`, `var`/`const` bindings by name.
    pub bindings: HashMap<&'a str, Vec<Node<'a>>>,
    pub fields: Vec<FieldSet<'a>>,
    /// The packages this reader knows, by the name the file uses.
    pub imports: Vec<(&'a str, Pkg)>,
    /// Every function (declaration, method, literal): its byte range and
    /// its parameter names, in source order.
    pub functions: Vec<(usize, usize, Vec<&'a str>)>,
    /// Byte ranges a reader looked into beyond the code it was reading (a
    /// helper whose body stores `os.Getenv` through its parameter): a
    /// pruned parse that blanked one is read again whole.
    pub needs: std::cell::RefCell<Vec<(usize, usize)>>,
    /// Words whose presence in a blanked body makes a pruned parse read
    /// the file whole: a struct field a target reads (`.addr`) whose
    /// setting was not found, the callers of a helper whose parameter is
    /// dialed (`mustCreateClient(`).
    pub need_words: std::cell::RefCell<Vec<String>>,
    /// The `if_statement` nodes, in order: where [`eval::zero_default`]
    /// looks for a field's default.
    pub ifs: Vec<Node<'a>>,
    /// Each field name a default is given in this file, and the `if` of
    /// `ifs` (its index) that gives it ([`eval::zero_default`]): found
    /// once on first asking (owned names, which keep `Ctx` covariant).
    pub zero_defaults: std::cell::OnceCell<HashMap<Box<str>, usize>>,
}

impl<'a> Ctx<'a> {
    fn new(src: &'a str, root: Node<'a>) -> Self {
        let (nodes, parents) = index(root);
        let mut ctx = Ctx {
            src,
            nodes: Vec::new(),
            parents: Vec::new(),
            calls: Vec::new(),
            import_specs: Vec::new(),
            bindings: HashMap::new(),
            fields: Vec::new(),
            imports: Vec::new(),
            functions: Vec::new(),
            needs: std::cell::RefCell::new(Vec::new()),
            need_words: std::cell::RefCell::new(Vec::new()),
            ifs: Vec::new(),
            zero_defaults: std::cell::OnceCell::new(),
        };
        let k = &*KINDS;
        for &n in &nodes {
            let id = n.kind_id();
            if id == k.import_spec {
                ctx.import_specs.push(n);
                let Some(p) = field(n, "path") else { continue };
                let path = ctx.text(p).trim_matches(['"', '`']);
                let Some(pkg) = pkg_of_path(path) else {
                    continue;
                };
                let name = match field(n, "name") {
                    Some(a) => ctx.text(a),
                    None => default_name(path),
                };
                ctx.imports.push((name, pkg));
            } else if k.binds.contains(&id) {
                ctx.bind(n);
            } else if id == k.call_expression {
                ctx.calls.push(n);
            } else if id == k.if_statement {
                ctx.ifs.push(n);
            } else if k.functions.contains(&id) {
                let mut params = Vec::new();
                if let Some(ps) = field(n, "parameters") {
                    for pd in named_children(ps) {
                        let mut c = pd.walk();
                        params.extend(
                            pd.children_by_field_name("name", &mut c)
                                .map(|x| text(x, src)),
                        );
                    }
                }
                ctx.functions.push((n.start_byte(), n.end_byte(), params));
            }
        }
        ctx.nodes = nodes;
        ctx.parents = parents;
        ctx
    }

    fn bind(&mut self, n: Node<'a>) {
        let (lefts, rights) = match n.kind_name() {
            "var_spec" | "const_spec" => {
                let mut c = n.walk();
                let names: Vec<Node<'a>> = n.children_by_field_name("name", &mut c).collect();
                let values = field(n, "value").map(named_children).unwrap_or_default();
                (names, values)
            }
            _ => {
                if n.kind_name() == "assignment_statement"
                    && field(n, "operator").is_some_and(|o| self.text(o) != "=")
                {
                    return;
                }
                let l = field(n, "left").map(named_children).unwrap_or_default();
                let r = field(n, "right").map(named_children).unwrap_or_default();
                (l, r)
            }
        };
        // `host, ok := os.LookupEnv("X")`: `host` is the lookup's value.
        if lefts.len() == 2
            && rights.len() == 1
            && lefts[0].kind_name() == "identifier"
            && text(rights[0], self.src).starts_with("os.LookupEnv(")
        {
            self.bindings
                .entry(text(lefts[0], self.src))
                .or_default()
                .push(rights[0]);
            return;
        }
        if lefts.len() != rights.len() {
            return;
        }
        for (l, r) in lefts.into_iter().zip(rights) {
            match l.kind_name() {
                "identifier" => self.bindings.entry(text(l, self.src)).or_default().push(r),
                "selector_expression" => {
                    let full = text(l, self.src);
                    if let Some((recv, f)) = full.split_once('.')
                        && recv.chars().all(|c| c.is_alphanumeric() || c == '_')
                    {
                        self.fields.push(FieldSet {
                            recv,
                            field: f,
                            value: r,
                        });
                    }
                }
                _ => {}
            }
        }
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    /// The package a name stands for in this file.
    pub fn pkg(&self, name: &str) -> Option<Pkg> {
        self.imports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
    }

    /// Whether the file imports `pkg` under any name.
    pub fn imports(&self, pkg: Pkg) -> bool {
        self.imports.iter().any(|(_, p)| *p == pkg)
    }

    /// The value bound to `name` most recently before `at`, else the first
    /// binding of it anywhere in the file.
    ///
    /// Only bindings in scope at `at` count: at package level, or in a
    /// function around `at`; a parameter of a function around `at` hides
    /// every binding outside that function.
    pub fn binding(&self, name: &str, at: usize) -> Option<Node<'a>> {
        let all = self.bindings.get(name)?;
        let around = |s: usize, e: usize| s <= at && at < e;
        // The innermost function around `at` that takes `name`: bindings
        // must be inside it.
        let floor = self
            .functions
            .iter()
            .filter(|(s, e, ps)| around(*s, *e) && ps.contains(&name))
            .map(|(s, _, _)| *s)
            .max();
        let in_scope = |v: &&Node<'a>| {
            let start = v.start_byte();
            floor.is_none_or(|f| start >= f)
                && self
                    .functions
                    .iter()
                    .filter(|(s, e, _)| *s <= start && start < *e)
                    .all(|(s, e, _)| around(*s, *e))
        };
        let visible: Vec<&Node<'a>> = all.iter().filter(in_scope).collect();
        visible
            .iter()
            .rev()
            .find(|v| v.end_byte() <= at)
            .or_else(|| visible.first())
            .map(|v| **v)
    }

    /// The fields set on `recv` in the function `within` (the whole file
    /// when `None`), in source order.
    pub fn fields_of(&self, recv: &str, within: Option<Node<'_>>) -> Vec<&FieldSet<'a>> {
        self.fields
            .iter()
            .filter(|f| f.recv == recv)
            .filter(|f| {
                within.is_none_or(|w| {
                    w.start_byte() <= f.value.start_byte() && f.value.end_byte() <= w.end_byte()
                })
            })
            .collect()
    }

    /// `pkg.Name(...)` where `pkg` is a package this reader knows: the
    /// package and `Name`.
    pub fn pkg_call(&self, call: Node<'_>) -> Option<(Pkg, &'a str)> {
        if call.kind_id() != KINDS.call_expression {
            return None;
        }
        self.pkg_ref(field(call, "function")?)
    }

    /// `pkg.Name` (a selector on a known package).
    pub fn pkg_ref(&self, n: Node<'_>) -> Option<(Pkg, &'a str)> {
        if n.kind_id() != KINDS.selector_expression {
            return None;
        }
        let operand = field(n, "operand")?;
        if operand.kind_id() != KINDS.identifier {
            return None;
        }
        let pkg = self.pkg(self.text(operand))?;
        Some((pkg, self.text(field(n, "field")?)))
    }
}

/// Every named node under `root` (itself first) in source order, at most
/// [`MAX_NODES`], and the index of each one's parent (`u32::MAX` for the
/// root): [`crate::extract::tree_sitter::walk_named`], comments included.
fn index(root: Node<'_>) -> (Vec<Node<'_>>, Vec<u32>) {
    let w = crate::extract::tree_sitter::walk_named(root, |_| true, MAX_NODES);
    (w.nodes, w.ups)
}

/// The name a value is bound to where it is written (`c :=
/// retryablehttp.NewClient()` gives `c`).
pub fn bound_name<'a>(ctx: &Ctx<'a>, value: Node<'_>) -> Option<&'a str> {
    let list = value.parent()?;
    let stmt = if list.kind_name() == "expression_list" {
        list.parent()?
    } else {
        return None;
    };
    let rights = match stmt.kind_name() {
        "short_var_declaration" | "assignment_statement" => field(stmt, "right")?,
        "var_spec" => field(stmt, "value")?,
        _ => return None,
    };
    let i = named_children(rights)
        .iter()
        .position(|r| r.id() == value.id())?;
    let left = match stmt.kind_name() {
        "var_spec" => {
            let mut c = stmt.walk();
            stmt.children_by_field_name("name", &mut c).nth(i)?
        }
        _ => *named_children(field(stmt, "left")?).get(i)?,
    };
    (left.kind_name() == "identifier").then(|| ctx.text(left))
}

/// The function or method declaration a node is in (innermost named one).
pub fn enclosing_function<'a>(n: Node<'a>) -> Option<Node<'a>> {
    let mut cur = n.parent();
    for _ in 0..10_000 {
        let c = cur?;
        if matches!(c.kind_name(), "function_declaration" | "method_declaration") {
            return Some(c);
        }
        cur = c.parent();
    }
    None
}

/// Source text on one line, for messages.
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
    // By id: `child_by_field_name` looks the name up among all of the
    // grammar's field names on every call (2-3% of a scan of istio).
    match KINDS.fields.iter().find(|(f, _)| *f == name) {
        Some((_, id)) => n.child_by_field_id(id.get()),
        None => n.child_by_field_name(name),
    }
}

/// tree-sitter-go's ids of the node kinds and field names the readers
/// test most: comparing ids spares `Node::kind`'s conversion of the name
/// to a `&str` (a check of its UTF-8 on each call).
struct Kinds {
    call_expression: u16,
    selector_expression: u16,
    identifier: u16,
    import_spec: u16,
    for_statement: u16,
    if_statement: u16,
    /// `short_var_declaration`, `assignment_statement`, `var_spec`,
    /// `const_spec`: what [`Ctx::bind`] reads.
    binds: [u16; 4],
    /// `function_declaration`, `method_declaration`, `func_literal`.
    functions: [u16; 3],
    fields: Vec<(&'static str, std::num::NonZeroU16)>,
    /// Every kind's name by id ([`KindName`]).
    grammar: crate::extract::tree_sitter::Grammar,
}

/// A Go node's kind name from a table read once: what `Node::kind` gives,
/// without its measure of the grammar's C string and check of its UTF-8 on
/// every call (~9% of a cold scan of envoyproxy/gateway d32f282 by perf:
/// `ts_node_type`, `strlen`, `from_utf8`, mostly the loop readers' tests
/// of every node of a loop).
pub trait KindName {
    fn kind_name(&self) -> &'static str;
}

impl KindName for Node<'_> {
    fn kind_name(&self) -> &'static str {
        KINDS.grammar.kind(*self)
    }
}

static KINDS: std::sync::LazyLock<Kinds> = std::sync::LazyLock::new(|| {
    let go: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
    Kinds {
        call_expression: go.id_for_node_kind("call_expression", true),
        selector_expression: go.id_for_node_kind("selector_expression", true),
        identifier: go.id_for_node_kind("identifier", true),
        import_spec: go.id_for_node_kind("import_spec", true),
        for_statement: go.id_for_node_kind("for_statement", true),
        if_statement: go.id_for_node_kind("if_statement", true),
        binds: [
            "short_var_declaration",
            "assignment_statement",
            "var_spec",
            "const_spec",
        ]
        .map(|k| go.id_for_node_kind(k, true)),
        functions: ["function_declaration", "method_declaration", "func_literal"]
            .map(|k| go.id_for_node_kind(k, true)),
        // The most asked first.
        fields: [
            "function",
            "arguments",
            "operand",
            "field",
            "name",
            "body",
            "left",
            "right",
            "value",
            "type",
            "condition",
            "key",
            "path",
            "parameters",
            "operator",
            "channel",
        ]
        .into_iter()
        .filter_map(|f| Some((f, go.field_id_for_name(f)?)))
        .collect(),
        grammar: crate::extract::tree_sitter::Grammar::new(&go),
    }
});

pub fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind_name() != "comment")
        .collect()
}

/// A call's arguments.
pub fn args<'a>(call: Node<'a>) -> Vec<Node<'a>> {
    field(call, "arguments")
        .map(named_children)
        .unwrap_or_default()
}

/// The keyed fields of a composite literal (`http.Client{Timeout: ..}`):
/// name and value.
pub fn keyed<'a>(ctx: &Ctx<'a>, lit: Node<'a>) -> Vec<(&'a str, Node<'a>)> {
    let Some(body) = field(lit, "body") else {
        return Vec::new();
    };
    named_children(body)
        .into_iter()
        .filter(|e| e.kind_name() == "keyed_element")
        .filter_map(|e| {
            let k = field(e, "key")?;
            let v = field(e, "value")?;
            let v = named_children(v).into_iter().next().unwrap_or(v);
            Some((ctx.text(k), v))
        })
        .collect()
}

/// A composite literal under `&` or parentheses.
pub fn composite<'a>(n: Node<'a>) -> Option<Node<'a>> {
    let mut n = n;
    for _ in 0..4 {
        match n.kind_name() {
            "composite_literal" => return Some(n),
            "unary_expression" | "parenthesized_expression" => {
                n = *named_children(n).last()?;
            }
            _ => return None,
        }
    }
    None
}

/// A named policy of the Go library `lib`.
pub fn policy(lib: &str, span: Span, attempts: Located<crate::model::Attempts>) -> RetryPolicy {
    RetryPolicy::new(crate::model::System::GoLib(lib.into()), span, attempts)
}

/// Attempts as written at `at`.
pub fn attempts(
    count: crate::model::AttemptCount,
    written_as: &str,
    at: Span,
) -> Located<crate::model::Attempts> {
    Located::written(
        crate::model::Attempts {
            count,
            written_as: one_line(written_as),
        },
        at,
    )
}

/// Attempts a library sets by default, placed at `at`.
pub fn default_attempts(
    count: crate::model::AttemptCount,
    written_as: &str,
    at: Span,
) -> Located<crate::model::Attempts> {
    Located::default_at(
        crate::model::Attempts {
            count,
            written_as: written_as.into(),
        },
        at,
    )
}
