//! A default a program gives a variable it reads from the environment:
//! `host := os.Getenv("X"); if host == "" { host = "d" }` and
//! `host, ok := os.LookupEnv("X"); if !ok { host = "d" }`. The target is
//! the variable (`env X`), its default the literal
//! (`UnresolvedCall::if_unset`): the workload's entry wins over it.

use super::{Ctx, field};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// The lookup `name` holds before the `if` that gives it the default
/// `value` (a string literal assigned in that `if`'s block, whose
/// condition asks whether the lookup found nothing), if it is one.
pub(super) fn lookup_before<'a>(ctx: &Ctx<'a>, name: &str, value: Node<'a>) -> Option<Node<'a>> {
    if !matches!(
        value.kind_name(),
        "interpreted_string_literal" | "raw_string_literal"
    ) {
        return None;
    }
    // value <- expression_list <- assignment <- block (<- statement_list)
    // <- if_statement.
    let assign = value.parent()?.parent()?;
    if assign.kind_name() != "assignment_statement" {
        return None;
    }
    let stmt = std::iter::successors(assign.parent(), |p| p.parent())
        .take(3)
        .find(|p| p.kind_name() == "if_statement")?;
    let consequence = field(stmt, "consequence")?;
    if !(consequence.start_byte() <= assign.start_byte()
        && assign.end_byte() <= consequence.end_byte())
    {
        return None;
    }
    let before = ctx.binding(name, stmt.start_byte())?;
    if before.end_byte() > stmt.start_byte() {
        return None;
    }
    let call = ctx.text(before);
    let lookup = call.starts_with("os.LookupEnv(");
    if !(lookup || call.starts_with("os.Getenv(")) {
        return None;
    }
    let cond: String = ctx
        .text(field(stmt, "condition")?)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let empty = [
        format!("{name}==\"\""),
        format!("\"\"=={name}"),
        format!("len({name})==0"),
    ];
    // `!ok`: the second name of the lookup's statement.
    let not_found = lookup
        && cond.strip_prefix('!').is_some_and(|ok| {
            before
                .parent()
                .and_then(|r| r.parent())
                .and_then(|d| field(d, "left"))
                .is_some_and(|l| {
                    super::named_children(l)
                        .get(1)
                        .is_some_and(|x| ctx.text(*x) == ok)
                })
        });
    (empty.contains(&cond) || not_found).then_some(before)
}

/// A package variable's literal default replaced from the environment
/// in a function of the file: `var discountsService =
/// "http://localhost:8092"` and, in `setup()` or `init()`, `ds :=
/// os.Getenv("DISCOUNTS_SERVICE"); if ds != "" { discountsService = ds }`
/// (kiali/demos 7ee39129 `travels/travel_agency/cars/cars.go:39,81`).
/// The program sets it up before it calls, so the target is the lookup:
/// the value assigned when it reads the environment, for `value`, the
/// package-level binding of `name`.
pub(super) fn set_from_env<'a>(ctx: &Ctx<'a>, name: &str, value: Node<'a>) -> Option<Node<'a>> {
    let in_function = |n: Node<'a>| {
        std::iter::successors(n.parent(), |p| p.parent()).any(|p| {
            matches!(
                p.kind_name(),
                "function_declaration" | "method_declaration" | "func_literal"
            )
        })
    };
    if in_function(value) {
        return None;
    }
    ctx.bindings.get(name)?.iter().copied().find(|v| {
        in_function(*v)
            && v.parent().and_then(|l| l.parent()).is_some_and(|a| {
                a.kind_name() == "assignment_statement"
                    && field(a, "operator").is_none_or(|o| ctx.text(o) == "=")
            })
            && reads_env(ctx, *v)
    })
}

/// Whether `v` is an environment lookup, or a name bound to one just
/// before (`ds := os.Getenv(..)`); no further, so that two variables set
/// from each other lead nowhere.
fn reads_env(ctx: &Ctx<'_>, v: Node<'_>) -> bool {
    let lookup = |n: Node<'_>| {
        let t = ctx.text(n);
        t.starts_with("os.Getenv(") || t.starts_with("os.LookupEnv(")
    };
    lookup(v)
        || (v.kind_name() == "identifier"
            && ctx
                .binding(ctx.text(v), v.start_byte())
                .is_some_and(|b| b.id() != v.id() && lookup(b)))
}
