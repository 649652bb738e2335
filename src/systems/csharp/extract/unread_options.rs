//! The standard HTTP resilience handler's options configured where no
//! handler reads them: `services.Configure<HttpStandardResilienceOptions>(section)`
//! (or a lambda), `PostConfigure<..>(..)`, and
//! `AddOptions<HttpStandardResilienceOptions>()` followed by `.Bind(..)`,
//! `.BindConfiguration(..)` or `.Configure(..)` set the unnamed options
//! (`Options.DefaultName`, `""`). Each handler reads the options named
//! `{client}-standard` (dotnet/extensions, commit 5862342c9a,
//! `src/Libraries/Microsoft.Extensions.Http.Resilience/Resilience/ResilienceHttpClientBuilderExtensions.StandardResilience.cs`:
//! `optionsName = PipelineNameHelper.GetName(builder.Name, "standard")`,
//! `monitor.Get(optionsName)`; `Internal/PipelineNameHelper.cs`:
//! `$"{httpClientName}-{pipelineIdentifier}"`), also the handler of
//! `ConfigureHttpClientDefaults` (a builder with no name: `-standard`).
//! Not reported: `ConfigureAll`/`PostConfigureAll` (every name) and a
//! call given a name (`Configure<..>("catalog-standard", ..)`).

use super::{Ctx, args, field, method, type_args};
use crate::diag::invalid_setting;
use crate::model::Facts;
use tree_sitter::Node;

const OPTIONS: &str = "HttpStandardResilienceOptions";

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.src.contains(OPTIONS) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind() != "invocation_expression" {
            continue;
        }
        let Some((m, _)) = method(ctx, n) else {
            continue;
        };
        let of_options = type_args(ctx, n)
            .iter()
            .any(|t| t.trim().rsplit('.').next() == Some(OPTIONS));
        if !of_options {
            continue;
        }
        let a = args(ctx, n);
        let unnamed = match m {
            // `Configure<T>(section)`, `Configure<T>(o => ..)`: one
            // argument, the unnamed options; `Configure<T>(name, ..)`
            // names them.
            "Configure" | "PostConfigure" => {
                a.len() == 1 || a.first().is_some_and(|(_, x)| default_name(ctx, *x))
            }
            // `AddOptions<T>()` then `.Bind(..)`, `.Configure(..)`.
            "AddOptions" | "AddOptionsWithValidateOnStart" => {
                (a.is_empty() || a.first().is_some_and(|(_, x)| default_name(ctx, *x)))
                    && bound_after(ctx, n)
            }
            _ => false,
        };
        if !unnamed {
            continue;
        }
        facts.diagnostics.push(invalid_setting::unread(
            super::resilience::call_span(n),
            &format!("`{m}<{OPTIONS}>(..)`"),
            "it configures the unnamed options, and each standard handler reads its own, named `{client}-standard` (`-standard` for the handler of `ConfigureHttpClientDefaults`)",
            "configure the handler itself: pass the section or lambda to `AddStandardResilienceHandler(..)`, or call `.Configure(..)` on what it returns; `ConfigureAll<HttpStandardResilienceOptions>(..)` reaches every handler",
        ));
    }
}

/// `""` or `Options.DefaultName`: the unnamed options by name.
fn default_name(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let t = ctx.text(n).trim();
    t == "\"\"" || t == "Options.DefaultName" || t.ends_with(".Options.DefaultName")
}

/// Whether `call`'s result is configured right after it:
/// `.Bind(..)`, `.BindConfiguration(..)`, `.Configure(..)`,
/// `.PostConfigure(..)`.
fn bound_after(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    call.parent()
        .filter(|p| p.kind() == "member_access_expression")
        .and_then(|p| p.parent())
        .filter(|x| x.kind() == "invocation_expression" && field(*x, "function").is_some())
        .and_then(|x| method(ctx, x))
        .is_some_and(|(m, _)| {
            matches!(
                m,
                "Bind" | "BindConfiguration" | "Configure" | "PostConfigure"
            )
        })
}
