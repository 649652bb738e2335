//! The address a call or a client's base address is written as, with the
//! configuration it reads kept by name: `config["Services:Orders"]`,
//! `configuration.GetValue<string>("OrdersUrl")`,
//! `config.GetSection("APIServiceLocations").GetValue<string>("Orders")`,
//! `GetSection("A")["B"]` and `GetSection("A:B").Value` (the
//! `Microsoft.Extensions.Configuration` readers; keys ignore case and
//! nest with `:`) become `{config:services:orders}` inside the address,
//! also through a local and inside an interpolated string
//! (`$"http://{host}/api"`). The link step
//! ([`crate::systems::csharp::connections::join`]) puts the program's
//! `appsettings*.json` value in its place; what it cannot is left
//! unresolved, never guessed.

use super::{Ctx, MAX_DEPTH, args, field, method, named_children, type_args};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// How a configuration read is written inside an address.
pub const MARK: &str = "{config:";

/// The address `n` evaluates to; holes that are neither constants nor
/// configuration reads are `{}`.
pub fn address(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(key) = config_key(ctx, n, depth) {
        return Some(format!("{MARK}{key}}}"));
    }
    match n.kind_str() {
        "interpolated_string_expression" => {
            let plain = super::calls::string(ctx, n, depth);
            let mut out = String::new();
            let mut known = false;
            for c in named_children(n) {
                if c.kind_str() == "interpolation" {
                    let value = named_children(c)
                        .into_iter()
                        .find(|e| !e.kind_str().starts_with("interpolation_"))
                        .and_then(|e| address(ctx, e, depth + 1));
                    known |= value.is_some();
                    out.push_str(value.as_deref().unwrap_or("{}"));
                } else if !c.kind_str().starts_with("interpolation_") {
                    out.push_str(ctx.text(c));
                }
            }
            // Nothing known in the holes: as the call reader writes it.
            if known { Some(out) } else { plain }
        }
        "identifier" => address(ctx, ctx.binding(ctx.text(n), n.start_byte())?, depth + 1),
        "object_creation_expression"
            if field(n, "type").is_some_and(|t| ctx.text(t).ends_with("Uri")) =>
        {
            address(ctx, args(ctx, n).into_iter().next()?.1, depth + 1)
        }
        "implicit_object_creation_expression" => {
            address(ctx, super::calls::implicit_first_arg(n)?, depth + 1)
        }
        "parenthesized_expression" => address(ctx, *named_children(n).first()?, depth + 1),
        // `config["Services:Orders"]!`: the null-forgiving operator.
        "postfix_unary_expression" if ctx.text(n).ends_with('!') => {
            address(ctx, *named_children(n).first()?, depth + 1)
        }
        _ => super::calls::string(ctx, n, depth),
    }
}

/// The configuration key `n` reads (lower case, `:`-separated), if it is
/// a read of a configuration value.
pub fn config_key(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_str() {
        // `config["A:B"]`, `config.GetSection("A")["B"]`.
        "element_access_expression" => {
            let key = subscript_key(ctx, n, depth)?;
            let on = field(n, "expression")?;
            join(section(ctx, on, depth)?, &key)
        }
        "invocation_expression" => {
            let (m, recv) = method(ctx, n)?;
            // `config.GetValue<string>("A:B")`: a string, not a number or
            // a flag (an address is read as a string).
            if m != "GetValue" || type_args(ctx, n).first().is_some_and(|t| *t != "string") {
                return None;
            }
            let key = super::calls::string(ctx, args(ctx, n).first()?.1, depth + 1)?;
            join(section(ctx, recv?, depth)?, &key)
        }
        // `config.GetSection("A:B").Value`.
        "member_access_expression" => {
            let name = field(n, "name")?;
            if ctx.text(name) != "Value" {
                return None;
            }
            let on = field(n, "expression")?;
            if on.kind_str() != "invocation_expression" {
                return None;
            }
            let s = section(ctx, on, depth)?;
            (!s.is_empty()).then_some(s)
        }
        _ => None,
    }
}

/// The section `n` is, as a key prefix: `""` for the configuration
/// itself (a name that says so: `configuration`, `_config`,
/// `builder.Configuration`), `a:b` for `GetSection("a:b")` (or
/// `GetRequiredSection`) on one.
fn section(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_str() {
        "invocation_expression" => {
            let (m, recv) = method(ctx, n)?;
            if m != "GetSection" && m != "GetRequiredSection" {
                return None;
            }
            let key = super::calls::string(ctx, args(ctx, n).first()?.1, depth + 1)?;
            join(section(ctx, recv?, depth + 1)?, &key)
        }
        "identifier" | "member_access_expression" => {
            let last = ctx.text(n).rsplit('.').next().unwrap_or("");
            let last = last.trim_start_matches('_').to_ascii_lowercase();
            (last == "configuration" || last == "config" || last.ends_with("configuration"))
                .then(String::new)
        }
        _ => None,
    }
}

/// The literal key of `x["key"]`.
fn subscript_key(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    let sub = field(n, "subscript")?;
    let arg = named_children(sub)
        .into_iter()
        .find(|a| a.kind_str() == "argument")?;
    super::calls::string(ctx, *named_children(arg).last()?, depth + 1)
}

fn join(prefix: String, key: &str) -> Option<String> {
    let key = key.trim().to_ascii_lowercase();
    if key.is_empty() || key.contains(['{', '}']) {
        return None;
    }
    Some(if prefix.is_empty() {
        key
    } else {
        format!("{prefix}:{key}")
    })
}

#[cfg(test)]
mod tests {
    use crate::model::Facts;

    fn unresolved(src: &str) -> Vec<String> {
        let mut f = Facts::default();
        super::super::extract(src, &mut f);
        f.unresolved.iter().map(|u| u.written.clone()).collect()
    }

    #[test]
    fn configuration_reads_are_kept_by_name_in_the_address() {
        let w = unresolved(
            r#"public class CustomerApi(IConfiguration config, HttpClient httpClient)
            {
                public Task<string> Get()
                {
                    string host = config.GetSection("APIServiceLocations").GetValue<string>("CustomerManagementAPI");
                    httpClient.BaseAddress = new Uri($"http://{host}/api");
                    return httpClient.GetStringAsync("/customers");
                }
            }"#,
        );
        assert_eq!(
            w,
            [
                "http://{config:apiservicelocations:customermanagementapi}/api through HttpClient.GetStringAsync (GET) in C#"
            ]
        );
        for (read, key) in [
            (
                r#"builder.Configuration["Services:Orders"]"#,
                "services:orders",
            ),
            (
                r#"_configuration.GetValue<string>("OrdersUrl")"#,
                "ordersurl",
            ),
            (r#"config.GetSection("A")["B"]"#, "a:b"),
            (r#"config.GetRequiredSection("A:B").Value"#, "a:b"),
        ] {
            let src = format!(
                "builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri({read}));"
            );
            assert_eq!(
                unresolved(&src),
                [format!(
                    "{{config:{key}}} through AddHttpClient<OrdersClient> BaseAddress in C#"
                )],
                "{read}"
            );
        }
        // Not configuration: a number, an unknown receiver, a hole.
        for read in [
            r#"config.GetValue<int>("Port")"#,
            r#"settings["Orders"]"#,
            r#"$"http://{Environment.GetEnvironmentVariable("HOST")}""#,
        ] {
            let src = format!(
                "builder.Services.AddHttpClient<OrdersClient>(c => c.BaseAddress = new Uri({read}));"
            );
            assert!(
                unresolved(&src).iter().all(|w| !w.contains("{config:")),
                "{read}"
            );
        }
    }
}
