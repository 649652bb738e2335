//! Project types across files (issue 18): a retry loop whose try block
//! calls methods of types this file does not show is held open on those
//! calls ([`open_loop`], `JavaFacts::open_loops`), and the link step reads
//! each type where it is declared ([`read_class`]): what its methods reach
//! (`reach.rs`, read in that file only: one level, a call on a further
//! project type there is unknown) and whether one picks its target
//! round-robin (steps an index field and returns the element of a field
//! at it). The link step then moves a loop whose attempts all stay in the
//! process, or that picks another target each pass, to `loops_not_taken`.

use super::reach::{self, Reach, Walk};
use super::*;
use crate::model::java_annotations::{OpenCall, OpenLoop};

/// At most this many methods read per class, and calls set aside per loop.
const MAX_METHODS: usize = 64;
const MAX_AROUND: usize = 16;

/// The calls of the loop `lp` (taken as the retry policy `policy`) on
/// project types declared elsewhere, or `None` when it makes none (the
/// loop is then read as it is: a call that can leave, or local work). A
/// method of this class the try calls counts as unknown here (its body
/// may be one the pruner skipped).
pub(super) fn open_loop(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    policy: usize,
    unproven: bool,
) -> Option<OpenLoop> {
    let body = field(lp, "body")?;
    let own = own_nodes(ctx, body);
    let blocks: Vec<Node<'_>> = own
        .iter()
        .filter(|t| {
            matches!(
                t.kind_str(),
                "try_statement" | "try_with_resources_statement"
            )
        })
        .filter_map(|t| field(*t, "body"))
        .collect();
    if unproven {
        return Some(OpenLoop {
            policy,
            remote: false,
            calls: project_calls(ctx, lp),
            around: Vec::new(),
            local: false,
            unproven: true,
        });
    }
    if blocks.is_empty() {
        return None;
    }
    let walk = Walk::new(true);
    let mut all = Reach::Neutral;
    for b in &blocks {
        match reach::nodes_reach(ctx, *b, 0, &walk) {
            Reach::Other => all = Reach::Other,
            Reach::Local if all != Reach::Other => all = Reach::Local,
            _ => {}
        }
    }
    // A class built by reflection (`cls.getConstructor(..).newInstance(..)`)
    // runs a constructor no file shows: it may connect.
    if blocks.iter().any(|b| {
        ctx.descendants_until(*b, nested).iter().any(|d| {
            d.kind_str() == "method_invocation"
                && field(*d, "name").is_some_and(|n| ctx.text(n) == "newInstance")
        })
    }) {
        all = Reach::Other;
    }
    let calls = if all == Reach::Other {
        Vec::new()
    } else {
        walk.take_open()
    };
    // Calls outside the try blocks (the target picked before the attempt).
    let mut around = Vec::new();
    for d in &own {
        if around.len() >= MAX_AROUND {
            break;
        }
        if d.kind_str() != "method_invocation" || blocks.iter().any(|b| ast::within(*d, *b)) {
            continue;
        }
        let Some(o) = field(*d, "object") else {
            continue;
        };
        let Some((ty, _)) = reach::receiver(ctx, o) else {
            continue;
        };
        if let Some((package, class)) = reach::project_type(ctx, ty) {
            around.push(OpenCall {
                package,
                class,
                method: field(*d, "name").map_or("", |n| ctx.text(n)).to_string(),
                arity: field(*d, "arguments").map_or(0, |a| ctx.named_children(a).len()),
            });
        }
    }
    if calls.is_empty() && around.is_empty() {
        return None;
    }
    Some(OpenLoop {
        policy,
        remote: all == Reach::Other,
        calls,
        around,
        local: all == Reach::Local,
        unproven: false,
    })
}

/// Every call of the loop (its condition and body, lambdas included, not a
/// class declared in it) on a project type declared elsewhere or on this
/// class, at most [`MAX_AROUND`].
fn project_calls(ctx: &Ctx<'_>, lp: Node<'_>) -> Vec<OpenCall> {
    let mut out: Vec<OpenCall> = Vec::new();
    for d in ctx.descendants_until(lp, |n| n.kind_str() == "class_body") {
        if out.len() >= MAX_AROUND {
            break;
        }
        // A call in a handler whose failure gives up is not what goes
        // round (`remote.rs`).
        if d.kind_str() != "method_invocation" || super::remote::given_up_in_handler(ctx, d, lp) {
            continue;
        }
        // A method of this class: read at link time in the whole file
        // (here its body may be one the pruner skipped); a server class's
        // own methods are this process's server, not another's.
        let Some(o) = field(d, "object").filter(|o| o.kind_str() != "this") else {
            let class = ctx
                .ancestor(d, &["class_declaration"])
                .and_then(|c| field(c, "name"))
                .map(|n| ctx.text(n).to_string())
                .filter(|c| !super::remote::server_class(c));
            let package = reach::package_of(ctx.src);
            if let Some(class) = class.filter(|_| !package.is_empty()) {
                let c = OpenCall {
                    package: package.to_string(),
                    class,
                    method: field(d, "name").map_or("", |n| ctx.text(n)).to_string(),
                    arity: field(d, "arguments").map_or(0, |a| ctx.named_children(a).len()),
                };
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            continue;
        };
        let Some((ty, _)) = reach::receiver(ctx, o) else {
            continue;
        };
        // A type this file already reads as local work (a project's file
        // wrapper, `FileIo`) is not read again in its own file for a remote
        // call: its classes are named for the wrapper (`AbstractFileIo`),
        // which a file system abstraction's name would take as a store
        // (apache/ignite-3's page store, twenty-sixth pass).
        if reach::local_type(ctx, ty) {
            continue;
        }
        if let Some((package, class)) = reach::project_type(ctx, ty) {
            let c = OpenCall {
                package,
                class,
                method: field(d, "name").map_or("", |n| ctx.text(n)).to_string(),
                arity: field(d, "arguments").map_or(0, |a| ctx.named_children(a).len()),
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The loop calls a method of a project type (this class included).
pub(super) fn calls_project_types(ctx: &Ctx<'_>, lp: Node<'_>) -> bool {
    !project_calls(ctx, lp).is_empty()
}

/// What a method of a class declared in another file reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodReach {
    /// Local work (a file, a process, reflection).
    Local,
    /// Values and logging only.
    Neutral,
    /// A call that can leave, a type or method that file does not show,
    /// or no body (abstract, an interface).
    Other,
}

#[derive(Clone, Debug)]
pub struct MethodReading {
    pub name: String,
    pub arity: usize,
    pub reach: MethodReach,
    /// Steps an index field and returns the element of a field at it.
    pub picks: bool,
    /// What in it (or in a method of its class it calls) shows a remote
    /// call (`remote.rs`), `None` when nothing does.
    pub remote: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ClassReading {
    /// The superclass, by package and simple name, when it can be the
    /// project's own.
    pub superclass: Option<(String, String)>,
    pub methods: Vec<MethodReading>,
    /// Declared `interface`: its methods have no body, its
    /// implementations do the work.
    pub interface: bool,
    /// The simple names of the interfaces it implements (`implements
    /// DocumentStore, Closeable`).
    pub implements: Vec<String>,
}

/// The top-level type `class` of the Java file `text`, read for the link
/// step; `None` when the file does not declare it or does not parse.
pub fn read_class(text: &str, class: &str) -> Option<ClassReading> {
    let mut scratch = crate::extract::Facts::default();
    let tree = crate::extract::tree_sitter::parse_source(
        tree_sitter_java::LANGUAGE.into(),
        text,
        "Java",
        "compile",
        "java",
        &mut scratch,
    )?;
    let ctx = Ctx::new(text, tree.root_node());
    let decl = ctx.named_children(ctx.root).into_iter().find(|n| {
        matches!(
            n.kind_str(),
            "class_declaration" | "interface_declaration" | "enum_declaration"
        ) && field(*n, "name").is_some_and(|x| ctx.text(x) == class)
    })?;
    let body = field(decl, "body")?;
    let superclass = field(decl, "superclass")
        .and_then(|s| ctx.named_children(s).into_iter().next())
        .and_then(|t| reach::project_type(&ctx, ctx.text(t)));
    let fields: Vec<&str> = ctx
        .named_children(body)
        .into_iter()
        .filter(|n| n.kind_str() == "field_declaration")
        .flat_map(|x| ctx.named_children(x))
        .filter(|d| d.kind_str() == "variable_declarator")
        .filter_map(|d| field(d, "name").map(|n| ctx.text(n)))
        .collect();
    let decls: Vec<Node<'_>> = ctx
        .named_children(body)
        .into_iter()
        .filter(|n| n.kind_str() == "method_declaration")
        .take(MAX_METHODS)
        .collect();
    let own_evidence: Vec<Option<String>> = decls
        .iter()
        .map(|m| super::remote::method_evidence(&ctx, *m))
        .collect();
    // A method calling another of the class that shows one (one level).
    let evidence_of = |m: Node<'_>, i: usize| -> Option<String> {
        own_evidence[i].clone().or_else(|| {
            ctx.descendants(m).into_iter().find_map(|d| {
                if d.kind_str() != "method_invocation"
                    || field(d, "object").is_some_and(|o| ctx.text(o) != "this")
                {
                    return None;
                }
                let name = ctx.text(field(d, "name")?);
                decls.iter().zip(&own_evidence).find_map(|(o, e)| {
                    (o.id() != m.id() && field(*o, "name").is_some_and(|n| ctx.text(n) == name))
                        .then(|| e.clone())
                        .flatten()
                })
            })
        })
    };
    let methods = decls
        .iter()
        .copied()
        .enumerate()
        .filter_map(|(i, m)| {
            let name = ctx.text(field(m, "name")?).to_string();
            let arity = field(m, "parameters").map_or(0, |p| ctx.named_children(p).len());
            let (reach, picks) = match field(m, "body") {
                None => (MethodReach::Other, false),
                Some(b) => {
                    let r = match reach::nodes_reach(&ctx, b, 1, &Walk::new(false)) {
                        Reach::Local => MethodReach::Local,
                        Reach::Neutral => MethodReach::Neutral,
                        Reach::Other => MethodReach::Other,
                    };
                    (r, picks_round_robin(&ctx, b, &fields, 1))
                }
            };
            Some(MethodReading {
                name,
                arity,
                reach,
                picks,
                remote: evidence_of(m, i),
            })
        })
        .collect();
    // The header's `implements` list, as simple names.
    let header = ctx
        .src
        .get(decl.start_byte()..body.start_byte())
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let implements = header
        .split_once(" implements ")
        .map(|(_, list)| {
            let mut depth = 0i32;
            let mut names = Vec::new();
            let mut cur = String::new();
            for ch in list.chars() {
                match ch {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    c if depth == 0 && (c.is_alphanumeric() || c == '_' || c == '.') => cur.push(c),
                    _ if depth == 0 && !cur.is_empty() => {
                        names.push(std::mem::take(&mut cur));
                    }
                    _ => {}
                }
            }
            names.push(cur);
            names
                .into_iter()
                .filter(|n| !n.is_empty())
                .map(|n| ast::last_segment(&n).to_string())
                .take(16)
                .collect()
        })
        .unwrap_or_default();
    Some(ClassReading {
        superclass,
        methods,
        interface: decl.kind_str() == "interface_declaration",
        implements,
    })
}

/// A body (or a method of its class it calls, `depth` deep) that steps a
/// field (`index++`, `this.index = (index + 1) % n`) and returns the
/// element at it (`return addresses.get(index);`): a round-robin pick.
fn picks_round_robin(ctx: &Ctx<'_>, body: Node<'_>, fields: &[&str], depth: u32) -> bool {
    let name_of = |n: Node<'_>| -> Option<&str> {
        let n = ast::unwrap_expr(n);
        match n.kind_str() {
            "identifier" => Some(ctx.text(n)),
            "field_access" if field(n, "object").is_some_and(|o| ctx.text(o) == "this") => {
                field(n, "field").map(|f| ctx.text(f))
            }
            _ => None,
        }
    };
    let nodes = ctx.descendants(body);
    let stepped: Vec<&str> = nodes
        .iter()
        .filter_map(|d| match d.kind_str() {
            "update_expression" => ctx.named_children(*d).first().and_then(|x| name_of(*x)),
            "assignment_expression" => {
                let left = field(*d, "left").and_then(name_of)?;
                let right = ctx.text(field(*d, "right")?);
                (right.contains(left) && (right.contains('+') || right.contains('%')))
                    .then_some(left)
            }
            _ => None,
        })
        .filter(|n| fields.contains(n))
        .collect();
    let returns_at = |idx: &str| {
        nodes.iter().any(|r| {
            r.kind_str() == "return_statement"
                && ctx.descendants(*r).into_iter().any(|e| match e.kind_str() {
                    "method_invocation" => {
                        field(e, "name").is_some_and(|n| ctx.text(n) == "get")
                            && field(e, "arguments").is_some_and(|a| {
                                ctx.named_children(a).first().and_then(|x| name_of(*x)) == Some(idx)
                            })
                    }
                    "array_access" => field(e, "index").and_then(name_of) == Some(idx),
                    _ => false,
                })
        })
    };
    if stepped.iter().any(|i| returns_at(i)) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    // `return getCurrentAddress(addresses);`: the pick in a method it calls.
    nodes.iter().any(|d| {
        d.kind_str() == "method_invocation"
            && field(*d, "object").is_none()
            && field(*d, "name").is_some_and(|n| {
                ctx.methods_named(ctx.text(n))
                    .iter()
                    .take(3)
                    .filter_map(|m| field(*m, "body"))
                    .any(|b| picks_round_robin(ctx, b, fields, depth - 1))
            })
    })
}
