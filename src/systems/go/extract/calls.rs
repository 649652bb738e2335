//! The calls a Go service makes: `net/http` (`http.Get`, `http.Post`,
//! `http.NewRequest(WithContext)`, `client.Do/Get/Post` on an
//! `http.Client` or a go-retryablehttp client), gRPC `grpc.Dial`/
//! `DialContext`/`NewClient` with `WithDefaultServiceConfig` and
//! `WithDisableRetry`, their targets as call edges (constants,
//! `fmt.Sprintf`, `os.Getenv` listed as unresolved), the timeouts of the
//! calls a retry repeats, and idempotency keys (`uuid.New()`) minted
//! inside a retry.

use super::envs::{getenv, getenvs};
use super::eval::{self, UNKNOWN};
use super::libs::{client_timeout, timeout_at};
use super::{Ctx, Pkg, RetryScope, args, field, named_children, span};
use crate::model::calls::{CallEdge, UnresolvedCall};
use crate::model::{EmbeddedConfig, Facts, IdempotencyKey, Located, Methods, System, Timeout};
use crate::systems::go::extract::KindName;
use std::time::Duration;
use tree_sitter::Node;

struct Call<'a> {
    node: Node<'a>,
    what: String,
    method: Option<String>,
    url: Option<Node<'a>>,
    timeout: Located<Timeout>,
    grpc: bool,
    /// The retryablehttp policy the call goes through, if any.
    through: Option<usize>,
}

/// go-retryablehttp clients by variable name: the policy index.
fn retry_clients<'a>(ctx: &Ctx<'a>, facts: &Facts) -> Vec<(&'a str, usize)> {
    let mut out = Vec::new();
    for (i, p) in facts.policies.iter().enumerate() {
        if !matches!(&p.system, System::GoLib(l) if l == "go-retryablehttp") {
            continue;
        }
        if let Some(name) = &p.name
            && let Some(n) = ctx.bindings.keys().find(|k| **k == name.as_str())
        {
            out.push((*n, i));
            // `std := client.StandardClient()`.
            for (k, vs) in &ctx.bindings {
                if vs
                    .iter()
                    .any(|v| ctx.text(*v) == format!("{n}.StandardClient()"))
                {
                    out.push((*k, i));
                }
            }
        }
    }
    out
}

/// `http.Client` values by variable name: their timeout.
fn http_clients<'a>(ctx: &Ctx<'a>) -> Vec<(&'a str, Located<Timeout>)> {
    let mut out = Vec::new();
    for (name, vs) in &ctx.bindings {
        for v in vs {
            if let Some(lit) = super::composite(*v)
                && field(lit, "type").is_some_and(|t| {
                    let t = ctx.text(t);
                    t.ends_with("http.Client") && ctx.imports(Pkg::Http)
                })
            {
                let mut t = client_timeout(ctx, *v);
                for f in ctx.fields_of(name, None) {
                    if f.field == "Timeout" {
                        t = timeout_at(ctx, f.value);
                    }
                }
                out.push((*name, t));
            }
        }
    }
    out
}

/// The variables holding an HTTP client (go-retryablehttp or
/// `http.Client`): their calls and fields are read wherever they are.
pub fn client_names(ctx: &Ctx<'_>, facts: &Facts) -> Vec<String> {
    let mut out: Vec<String> = retry_clients(ctx, facts)
        .into_iter()
        .map(|(n, _)| n.to_string())
        .chain(http_clients(ctx).into_iter().map(|(n, _)| n.to_string()))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn method_of(name: &str) -> Option<String> {
    Some(
        match name {
            "Get" => "GET",
            "Head" => "HEAD",
            "Post" | "PostForm" => "POST",
            _ => return None,
        }
        .to_string(),
    )
}

fn collect<'a>(ctx: &Ctx<'a>, facts: &Facts) -> Vec<Call<'a>> {
    let retry = retry_clients(ctx, facts);
    let clients = http_clients(ctx);
    let mut out = Vec::new();
    for &n in &ctx.calls {
        let a = args(n);
        if let Some((pkg, name)) = ctx.pkg_call(n) {
            match (pkg, name) {
                (Pkg::Http, "Get" | "Head" | "Post" | "PostForm") => out.push(Call {
                    node: n,
                    what: format!("http.{name}"),
                    method: method_of(name),
                    url: a.first().copied(),
                    timeout: Located::default_at(Timeout::Disabled, span(n)),
                    grpc: false,
                    through: None,
                }),
                (Pkg::Http | Pkg::RetryableHttp, "NewRequest" | "NewRequestWithContext") => {
                    let off = usize::from(name.ends_with("Context"));
                    let method = a.get(off).and_then(|m| {
                        eval::string(ctx, *m).or_else(|| {
                            ctx.pkg_ref(*m)
                                .and_then(|(_, c)| c.strip_prefix("Method"))
                                .map(str::to_uppercase)
                        })
                    });
                    out.push(Call {
                        node: n,
                        what: format!(
                            "{}.{name}",
                            if pkg == Pkg::Http {
                                "http"
                            } else {
                                "retryablehttp"
                            }
                        ),
                        method: method.filter(|m| !m.contains(UNKNOWN)),
                        url: a.get(off + 1).copied(),
                        timeout: Located::default_at(Timeout::Unknown, span(n)),
                        grpc: false,
                        through: None,
                    });
                }
                (Pkg::Grpc, "Dial" | "DialContext" | "NewClient") => {
                    let off = usize::from(name == "DialContext");
                    out.push(Call {
                        node: n,
                        what: format!("grpc.{name}"),
                        method: None,
                        url: a.get(off).copied(),
                        timeout: Located::default_at(Timeout::Unknown, span(n)),
                        grpc: true,
                        through: None,
                    });
                }
                _ => {}
            }
            continue;
        }
        // `client.Get(url)` / `http.DefaultClient.Do(req)` / `c.Do(req)`.
        let Some(f) = field(n, "function").filter(|f| f.kind_name() == "selector_expression")
        else {
            continue;
        };
        let (Some(recv), Some(m)) = (field(f, "operand"), field(f, "field")) else {
            continue;
        };
        let m = ctx.text(m);
        if !matches!(m, "Get" | "Head" | "Post" | "PostForm" | "Do") {
            continue;
        }
        let r = ctx.text(recv);
        let default_client = ctx
            .pkg_ref(recv)
            .is_some_and(|x| x == (Pkg::Http, "DefaultClient"));
        let through = retry.iter().find(|(k, _)| *k == r).map(|(_, i)| *i);
        let timeout = if default_client {
            Located::default_at(Timeout::Disabled, span(n))
        } else if let Some((_, t)) = clients.iter().find(|(k, _)| *k == r) {
            t.clone()
        } else if through.is_some() {
            continue_timeout(facts, through)
        } else {
            continue;
        };
        out.push(Call {
            node: n,
            what: format!("{r}.{m}"),
            method: method_of(m),
            url: (m != "Do").then(|| a.first().copied()).flatten(),
            timeout,
            grpc: false,
            through,
        });
    }
    out
}

fn continue_timeout(facts: &Facts, through: Option<usize>) -> Located<Timeout> {
    through
        .and_then(|i| facts.policies.get(i))
        .and_then(|p| p.per_try_timeout.clone())
        .unwrap_or_else(|| Located::default_at(Timeout::Unknown, crate::source::Span::new(0, 0)))
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    let calls = collect(ctx, facts);
    let inside = |s: &RetryScope, n: Node<'_>| s.start <= n.start_byte() && n.end_byte() <= s.end;
    for s in scopes.iter().filter(|s| !s.via_call) {
        let here: Vec<&Call<'_>> = calls
            .iter()
            .filter(|c| inside(s, c.node) && !c.grpc)
            .collect();
        let Some(p) = facts.policies.get_mut(s.policy) else {
            continue;
        };
        if here.is_empty() {
            continue;
        }
        let ms: Vec<String> = here.iter().filter_map(|c| c.method.clone()).collect();
        if !ms.is_empty() && p.methods.value == Methods::Unknown {
            let mut ms = ms;
            ms.sort();
            ms.dedup();
            p.methods = Located::default_at(Methods::Set(ms), p.span);
        }
        // The slowest call bounds a try; one without a timeout leaves it
        // unbounded.
        let worst = here
            .iter()
            .filter(|c| c.timeout.value != Timeout::Unknown)
            .map(|c| &c.timeout)
            .max_by_key(|t| match t.value {
                Timeout::Disabled => (2, Duration::ZERO),
                Timeout::Unknown => (0, Duration::ZERO),
                Timeout::Finite { after } => (1, after),
            });
        if let Some(t) = worst
            && p.per_try_timeout.is_none()
        {
            p.per_try_timeout = Some(t.clone());
            // A try that can wait for ever leaves the retries without a
            // deadline.
            if t.value == Timeout::Disabled && p.overall_timeout.is_none() {
                p.overall_timeout = Some(Located::default_at(Timeout::Disabled, t.span));
            }
        }
    }
    idempotency_keys(ctx, facts, scopes);
    // Every dial's service config is read, whether or not its target is
    // known here (`os.Getenv("HOST") + ":" + port`): its policies are the
    // file's. A config shared by several dials is read once.
    let mut configs: Vec<((usize, usize), std::ops::Range<usize>)> = Vec::new();
    // Service configs embedded from a file (`//go:embed retry_policy.json`):
    // every use in the file, and the dials each configures.
    let mut embeds: Vec<(usize, EmbeddedConfig)> = embedded_service_configs(ctx);
    let mut dial_embeds: Vec<Vec<usize>> = Vec::new();
    let dial_policies: Vec<Vec<usize>> = calls
        .iter()
        .map(|c| {
            let mut used = Vec::new();
            let out = if c.grpc {
                grpc_options(ctx, c.node, facts, &mut configs, &mut used)
            } else {
                Vec::new()
            };
            dial_embeds.push(
                embeds
                    .iter()
                    .enumerate()
                    .filter(|(_, (opt, _))| used.contains(opt))
                    .map(|(k, _)| k)
                    .collect(),
            );
            out
        })
        .collect();
    // Each dial's edge or unresolved call, for a dial made with the
    // options of its function's caller (`through`).
    let mut targets: Vec<(Option<usize>, Option<usize>)> = vec![(None, None); calls.len()];
    for (ci, ((c, dialed), emb)) in calls
        .iter()
        .zip(&dial_policies)
        .zip(&dial_embeds)
        .enumerate()
    {
        let Some(url) = c.url else { continue };
        let mut policies: Vec<usize> = scopes
            .iter()
            .filter(|s| inside(s, c.node))
            .map(|s| s.policy)
            .collect();
        policies.extend(c.through);
        policies.extend(dialed.iter().copied());
        policies.sort_unstable();
        policies.dedup();
        // An unresolved target keeps the retries around the call for the
        // edge the link step may make of it (`env X` set by the workload).
        let mut unresolved = |facts: &mut Facts, written: String, at: crate::source::Span| {
            targets[ci].1 = Some(facts.unresolved.len());
            let mut u = UnresolvedCall::new(at, written);
            u.policies.clone_from(&policies);
            // A gRPC dial's target speaks gRPC, whatever the variable's
            // value says (`product:5001`): the edge it resolves to keeps it.
            if c.grpc {
                u.protocol = Some(crate::model::calls::Protocol::Grpc);
            }
            for &k in emb {
                embeds[k].1.unresolved.push(facts.unresolved.len());
            }
            facts.unresolved.push(u);
        };
        let Some(s) = eval::string(ctx, url) else {
            let envs = getenvs(ctx, url);
            // `cfg.Addr` of a struct this file does not fill: listed as
            // written, joined to the file of the module that fills the
            // field (`link::go_fields`).
            if envs.is_empty()
                && let Some(name) = other_files_field(ctx, url)
            {
                facts.go_fields.push(crate::model::GoField {
                    field: name.to_string(),
                    kind: crate::model::GoFieldKind::Target {
                        unresolved: facts.unresolved.len(),
                    },
                });
                unresolved(facts, ctx.text(url).to_string(), span(url));
            }
            for (env, at) in envs {
                unresolved(facts, format!("env {env}"), at);
            }
            continue;
        };
        // A Unix or VM socket (`"unix://" + socket`): this machine.
        if c.grpc && crate::extract::url_host::local_socket(&s) {
            continue;
        }
        let host = if c.grpc {
            eval::host_of(&s)
        } else {
            eval::url_host(&s)
        };
        let Some(host) = host else {
            // `os.Getenv("USERS_HOST") + ":" + port`: the variable that
            // gives the host.
            if let Some(env) = getenv(ctx, url) {
                unresolved(facts, format!("env {env}"), span(url));
            } else if s.contains(UNKNOWN) && (s.starts_with("http") || c.grpc) {
                // `"http://" + fe.addr`, `fmt.Sprintf("http://%s/x",
                // fe.addr)`: a field another file of the module may fill
                // from the environment (`link::go_fields`).
                let field = super::envs::host_node(ctx, url)
                    .and_then(|h| other_files_field(ctx, h))
                    .map(str::to_string);
                let joins = field.is_some();
                if let Some(name) = field {
                    facts.go_fields.push(crate::model::GoField {
                        field: name,
                        kind: crate::model::GoFieldKind::Target {
                            unresolved: facts.unresolved.len(),
                        },
                    });
                }
                unresolved(facts, s.replace(UNKNOWN, "%s"), span(url));
                if joins && let Some(u) = facts.unresolved.last_mut() {
                    u.protocol = crate::model::calls::Protocol::of_target(&s);
                }
            }
            continue;
        };
        // `host := os.Getenv("X"); if host == "" { host = "d" }`: the
        // variable, with the literal as its default.
        if let Some(env) = getenv(ctx, url) {
            unresolved(facts, format!("env {env}"), span(url));
            if let Some(u) = facts.unresolved.last_mut() {
                u.if_unset = Some(crate::model::calls::short_host(&host));
                u.protocol = crate::model::calls::Protocol::of_target(&s);
            }
            continue;
        }
        targets[ci].0 = Some(facts.edges.len());
        for &k in emb {
            embeds[k].1.edges.push(facts.edges.len());
        }
        facts.edges.push(CallEdge {
            caller: None,
            callee: crate::model::calls::short_host(&host),
            span: span(c.node),
            policies,
            via: format!("{}() in Go", c.what),
            client: None,
            protocol: None,
        });
    }
    let dials: Vec<super::through::Dial<'_>> = calls
        .iter()
        .zip(&dial_policies)
        .zip(targets)
        .filter(|((c, _), _)| c.grpc)
        .map(|((c, policies), (edge, unresolved))| super::through::Dial {
            node: c.node,
            edge,
            unresolved,
            policies: policies.clone(),
        })
        .collect();
    super::through::dials(ctx, facts, &dials);
    let base = facts.embedded_configs.len();
    super::through::passes(ctx, facts, scopes, |ctx, call, facts| {
        let mut used = Vec::new();
        let options = grpc_options(ctx, call, facts, &mut configs, &mut used);
        let emb = embeds
            .iter()
            .enumerate()
            .filter(|(_, (opt, _))| used.contains(opt))
            .map(|(k, _)| base + k)
            .collect();
        (options, emb)
    });
    facts
        .embedded_configs
        .extend(embeds.into_iter().map(|(_, e)| e));
}

/// Every `grpc.WithDefaultServiceConfig(x)` of the file whose `x` is a
/// variable a `//go:embed <file>` directive fills (the line right above
/// its declaration names one file): (the option call's id, the file).
/// grpc-go reads that file's text as the dial's service config
/// (`dialoptions.go` `WithDefaultServiceConfig(s string)`).
fn embedded_service_configs(ctx: &Ctx<'_>) -> Vec<(usize, EmbeddedConfig)> {
    let mut out = Vec::new();
    for &n in &ctx.calls {
        if ctx.pkg_call(n) != Some((Pkg::Grpc, "WithDefaultServiceConfig")) {
            continue;
        }
        let Some(arg) = args(n).first().copied() else {
            continue;
        };
        // `string(policyJSON)` for a `[]byte` variable.
        let id = if arg.kind_name() == "call_expression"
            && field(arg, "function").is_some_and(|f| ctx.text(f) == "string")
        {
            args(arg).first().copied()
        } else {
            Some(arg)
        };
        let Some(id) = id.filter(|i| i.kind_name() == "identifier") else {
            continue;
        };
        if let Some(path) = embed_directive(ctx, ctx.text(id)) {
            out.push((
                n.id(),
                EmbeddedConfig {
                    path,
                    span: span(arg),
                    edges: Vec::new(),
                    unresolved: Vec::new(),
                },
            ));
        }
    }
    out
}

/// The one file a `//go:embed` directive on the line above the
/// package-level variable `name` names (no pattern, no second file).
fn embed_directive(ctx: &Ctx<'_>, name: &str) -> Option<String> {
    let spec = ctx.nodes.iter().copied().find(|v| {
        v.kind_name() == "var_spec" && field(*v, "name").is_some_and(|x| ctx.text(x) == name)
    })?;
    // The line above the spec's line (or above `var` of a one-line
    // declaration, which is the same line).
    let line_start = ctx.src[..spec.start_byte()].rfind('\n')?;
    let above_start = ctx.src[..line_start].rfind('\n').map_or(0, |i| i + 1);
    let above = ctx.src[above_start..line_start].trim();
    let rest = above.strip_prefix("//go:embed ")?.trim();
    let mut words = rest.split_whitespace();
    let path = words.next()?.trim_matches('"').trim_matches('`');
    if words.next().is_some() || path.contains(['*', '?', '[']) || path.is_empty() {
        return None;
    }
    Some(path.to_string())
}

/// The options of a gRPC dial: a default service config (read as one,
/// its policies applying to the call) and `WithDisableRetry`.
/// The options given to a call: its arguments, and the elements of a
/// slice passed as `opts...` (`opts := []grpc.DialOption{...}`).
pub(super) fn option_nodes<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Vec<Node<'a>> {
    let mut opts: Vec<Node<'a>> = args(call);
    let mut more = Vec::new();
    for o in &opts {
        if o.kind_name() != "variadic_argument" {
            continue;
        }
        let Some(inner) = named_children(*o).first().copied() else {
            continue;
        };
        // `append(opts, grpc.WithDisableRetry())...`: its options and
        // slices.
        let parts = if inner.kind_name() == "call_expression"
            && field(inner, "function").is_some_and(|f| ctx.text(f) == "append")
        {
            args(inner)
                .into_iter()
                .map(|a| {
                    if a.kind_name() == "variadic_argument" {
                        named_children(a).first().copied().unwrap_or(a)
                    } else {
                        a
                    }
                })
                .collect()
        } else {
            vec![inner]
        };
        for p in parts {
            let lit = if p.kind_name() == "identifier" {
                ctx.binding(ctx.text(p), p.start_byte())
                    .and_then(super::composite)
            } else {
                super::composite(p)
            };
            match lit.and_then(|l| field(l, "body")) {
                Some(body) => {
                    for e in named_children(body) {
                        more.extend(named_children(e));
                    }
                }
                None if p.kind_name() == "call_expression" => more.push(p),
                None => {}
            }
        }
    }
    opts.extend(more);
    opts
}

pub(super) fn grpc_options(
    ctx: &Ctx<'_>,
    dial: Node<'_>,
    facts: &mut Facts,
    configs: &mut Vec<((usize, usize), std::ops::Range<usize>)>,
    used: &mut Vec<usize>,
) -> Vec<usize> {
    let opts = option_nodes(ctx, dial);
    // `grpc.WithDisableRetry()`: the channel does not retry, whatever its
    // service config says (https://github.com/grpc/grpc-go,
    // `dialoptions.go`, since v1.14.0, read at v1.54.0: "WithDisableRetry
    // returns a DialOption that disables retries, even if the service
    // config enables them"); the config is not read.
    let mut policies = Vec::new();
    if opts
        .iter()
        .any(|o| ctx.pkg_call(*o) == Some((Pkg::Grpc, "WithDisableRetry")))
    {
        return policies;
    }
    for o in opts {
        let Some((Pkg::Grpc, name)) = ctx.pkg_call(o) else {
            continue;
        };
        if name != "WithDefaultServiceConfig" {
            continue;
        }
        used.push(o.id());
        let Some(cfg) = args(o).first().copied() else {
            continue;
        };
        let lit = resolve_literal(ctx, cfg);
        let Some(lit) = lit else { continue };
        let key = (lit.start_byte(), lit.end_byte());
        if let Some((_, r)) = configs.iter().find(|(k, _)| *k == key) {
            policies.extend(r.clone());
            continue;
        }
        let before = facts.policies.len();
        let edges_before = facts.edges.len();
        let inner =
            crate::source::Span::new(lit.start_byte() + 1, lit.end_byte().saturating_sub(1));
        // Only grpc-go reads this config, with its own JSON rules.
        let read = crate::systems::grpc::extract::as_grpc_go(|| {
            if lit.kind_name() == "raw_string_literal" {
                crate::systems::grpc::extract::extract_raw_json_literal(ctx.src, inner, facts)
            } else {
                crate::systems::grpc::extract::extract_json_literal(ctx.src, inner, facts)
            }
        });
        // The config is this dial's: its policies go on the dial's edge
        // (to the target), not on edges guessed from the package of the
        // gRPC service names (`shakespeare.Storage` is no service
        // `shakespeare`).
        facts.edges.truncate(edges_before);
        let read = if read {
            before..facts.policies.len()
        } else {
            before..before
        };
        policies.extend(read.clone());
        configs.push((key, read));
    }
    policies
}

fn resolve_literal<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let mut cur = n;
    for _ in 0..super::MAX_DEPTH {
        match cur.kind_name() {
            "interpreted_string_literal" | "raw_string_literal" => return Some(cur),
            "identifier" => {
                cur = ctx
                    .binding(ctx.text(cur), cur.start_byte())
                    .filter(|v| v.id() != cur.id())?
            }
            _ => return None,
        }
    }
    None
}

/// `uuid.New()`, `uuid.NewString()`, `uuid.NewV4()` minted inside a
/// retried scope: a new key per attempt.
fn idempotency_keys(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    for &n in &ctx.calls {
        let Some((Pkg::Uuid, name)) = ctx.pkg_call(n) else {
            continue;
        };
        if !matches!(name, "New" | "NewString" | "NewRandom" | "NewV4") {
            continue;
        }
        for s in scopes {
            if s.start <= n.start_byte()
                && n.end_byte() <= s.end
                && let Some(p) = facts.policies.get_mut(s.policy)
            {
                p.idempotency.push(IdempotencyKey {
                    span: span(n),
                    created_by: format!("{}()", ctx.text(field(n, "function").unwrap_or(n))),
                    inside_retry: true,
                });
            }
        }
    }
}

/// `x.Field` (or `x.y.Field`) whose field this file does not fill: the
/// field's name.
pub(super) fn other_files_field<'a>(ctx: &Ctx<'a>, n: Node<'_>) -> Option<&'a str> {
    if n.kind_name() != "selector_expression" {
        return None;
    }
    let operand = field(n, "operand")?;
    if !matches!(operand.kind_name(), "identifier" | "selector_expression") {
        return None;
    }
    // A package's name (`config.Addr`) is a variable, not a field.
    if operand.kind_name() == "identifier" && ctx.pkg(ctx.text(operand)).is_some() {
        return None;
    }
    Some(ctx.text(field(n, "field")?))
}
