//! gRPC dials made by an exported function of another package with the
//! caller's options (issue 21): a module's `internal/users/client.go`
//! holds `func NewClient(ctx, opts ...grpc.DialOption)` dialing with
//! `opts...`, and `internal/orders/server.go` calls
//! `users.NewClient(ctx, grpc.WithDefaultServiceConfig(cfg))` (NeptuneG/
//! go-back). Each file says its half ([`GoDialThrough`]); the link step
//! (`link::go_dials`) follows the import path through the module's
//! `go.mod` and gives the caller's file the dial's target with the
//! caller's options and retries.

use super::calls::option_nodes;
use super::{Ctx, Pkg, RetryScope, args, enclosing_function, field, named_children, span};
use crate::model::{Facts, GoDialKind, GoDialThrough};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// How many of each half one file may record.
const MAX_HALVES: usize = 64;

/// A dial of this file (`calls`): its edge or unresolved call and the
/// policies of its own options.
pub struct Dial<'a> {
    pub node: Node<'a>,
    pub edge: Option<usize>,
    pub unresolved: Option<usize>,
    pub policies: Vec<usize>,
}

/// Whether options turn retries off (`grpc.WithDisableRetry()`).
fn disables_retry(ctx: &Ctx<'_>, opts: &[Node<'_>]) -> bool {
    opts.iter()
        .any(|o| ctx.pkg_call(*o) == Some((Pkg::Grpc, "WithDisableRetry")))
}

/// The names a variadic argument forwards: `opts...`, or the slices an
/// `append(defaults, opts...)...` joins.
fn forwarded<'a>(ctx: &Ctx<'a>, arg: Node<'a>) -> Vec<&'a str> {
    let Some(inner) = named_children(arg).first().copied() else {
        return Vec::new();
    };
    match inner.kind_name() {
        "identifier" => vec![ctx.text(inner)],
        "call_expression" if field(inner, "function").is_some_and(|f| ctx.text(f) == "append") => {
            args(inner)
                .into_iter()
                .filter_map(|a| {
                    let a = if a.kind_name() == "variadic_argument" {
                        named_children(a).first().copied()?
                    } else {
                        a
                    };
                    (a.kind_name() == "identifier").then(|| ctx.text(a))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The dials of an exported function that forward its variadic
/// parameter as the dial's options.
pub fn dials(ctx: &Ctx<'_>, facts: &mut Facts, dials: &[Dial<'_>]) {
    for d in dials {
        if facts.go_dials_through.len() >= MAX_HALVES {
            return;
        }
        let names: Vec<&str> = args(d.node)
            .into_iter()
            .filter(|a| a.kind_name() == "variadic_argument")
            .flat_map(|a| forwarded(ctx, a))
            .collect();
        let Some(f) =
            enclosing_function(d.node).filter(|f| f.kind_name() == "function_declaration")
        else {
            continue;
        };
        let Some(func) = field(f, "name").map(|n| ctx.text(n)) else {
            continue;
        };
        if !func.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let takes = field(f, "parameters").is_some_and(|ps| {
            named_children(ps).into_iter().any(|p| {
                p.kind_name() == "variadic_parameter_declaration"
                    && field(p, "name").is_some_and(|n| names.contains(&ctx.text(n)))
            })
        });
        if !takes {
            continue;
        }
        let retries_disabled = disables_retry(ctx, &option_nodes(ctx, d.node));
        facts.go_dials_through.push(GoDialThrough {
            func: func.to_string(),
            span: span(d.node),
            kind: GoDialKind::Dials {
                edge: d.edge,
                unresolved: d.unresolved,
                policies: d.policies.clone(),
                retries_disabled,
            },
        });
    }
}

/// The packages this file imports that the reader does not know (its
/// module's own, among others): the name the file uses and the path.
fn other_imports<'a>(ctx: &Ctx<'a>) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    for &n in &ctx.import_specs {
        let Some(p) = field(n, "path") else { continue };
        let path = ctx.text(p).trim_matches(['"', '`']);
        if super::pkg_of_path(path).is_some() || !path.contains('/') {
            continue;
        }
        let name = match field(n, "name") {
            Some(a) => ctx.text(a),
            None => super::default_name(path),
        };
        if name != "_" && name != "." {
            out.push((name, path));
        }
    }
    out
}

/// Calls of an exported function of an imported package given gRPC dial
/// options: `read` gives the policies of the options and the embedded
/// configs they use.
pub fn passes<'a>(
    ctx: &Ctx<'a>,
    facts: &mut Facts,
    scopes: &[RetryScope],
    mut read: impl FnMut(&Ctx<'a>, Node<'a>, &mut Facts) -> (Vec<usize>, Vec<usize>),
) {
    let imports = other_imports(ctx);
    if imports.is_empty() || !ctx.imports(Pkg::Grpc) {
        return;
    }
    for &n in &ctx.calls {
        if facts.go_dials_through.len() >= MAX_HALVES {
            return;
        }
        let Some(f) = field(n, "function").filter(|f| f.kind_name() == "selector_expression")
        else {
            continue;
        };
        let (Some(op), Some(func)) = (field(f, "operand"), field(f, "field")) else {
            continue;
        };
        let Some((_, import)) = imports.iter().find(|(a, _)| *a == ctx.text(op)) else {
            continue;
        };
        let func = ctx.text(func);
        if !func.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let opts = option_nodes(ctx, n);
        let dial_options = opts.iter().any(|o| {
            ctx.pkg_call(*o)
                .is_some_and(|(p, name)| p == Pkg::Grpc && name.starts_with("With"))
        });
        if !dial_options {
            continue;
        }
        let retries_disabled = disables_retry(ctx, &opts);
        let (options, embeds) = read(ctx, n, facts);
        let around = scopes
            .iter()
            .filter(|s| s.start <= n.start_byte() && n.end_byte() <= s.end)
            .map(|s| s.policy)
            .collect();
        facts.go_dials_through.push(GoDialThrough {
            func: func.to_string(),
            span: span(n),
            kind: GoDialKind::Passes {
                import: (*import).to_string(),
                around,
                options,
                embeds,
                retries_disabled,
            },
        });
    }
}
