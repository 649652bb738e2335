//! An nginx configuration template that `envsubst` fills before nginx
//! starts (`default.conf.template`; the official image's entrypoint
//! renders `/etc/nginx/templates/*.template` into `/etc/nginx/conf.d/`):
//! a pass whose host is `${NAME}` calls what the variable is set to
//! (`proxy_pass http://${CATALOGUE_HOST}:8080/;`). The target is listed
//! as `env NAME`, with the pass's retry policy: the link step joins it to
//! the workload's entry, else the image's `ENV` (`link::image_env`).
//! Only upper-case names are taken: nginx's own variables (`$host`,
//! `$upstream_addr`) are lower-case, and a template that names them
//! leaves them to nginx.

use crate::model::{Facts, System, UnresolvedCall};
use crate::source::Span;

/// Whether a file is an `envsubst` template by its name.
pub fn is_template(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".template")
}

/// The `env NAME` targets of the file's passes whose host is a variable,
/// read in the template's own `text` (the reader saw it masked).
pub fn targets(text: &str, facts: &mut Facts) {
    let mut found = Vec::new();
    for (i, p) in facts.policies.iter().enumerate() {
        // The pass's host is masked (`${NAME}`, an opaque name) or a
        // variable.
        let masked = p
            .scope
            .callee
            .as_ref()
            .is_none_or(|c| crate::extract::template_text::is_opaque(&c.value));
        if p.system != System::Nginx || !masked {
            continue;
        }
        let Some(head) = text.get(p.span.start..p.span.end) else {
            continue;
        };
        // The pass's first argument: `proxy_pass http://${X}:8080/;`.
        let mut words = head.split_whitespace();
        let (Some(directive), Some(arg)) = (words.next(), words.next()) else {
            continue;
        };
        if !directive.ends_with("_pass") {
            continue;
        }
        let arg = arg.trim_end_matches(';').trim_matches(['"', '\'']);
        let rest = arg.split_once("://").map_or(arg, |(_, r)| r);
        let Some(name) = variable(rest) else {
            continue;
        };
        let at = head.find(arg).map_or(p.span, |k| {
            Span::new(p.span.start + k, p.span.start + k + arg.len())
        });
        found.push((i, at, name.to_string()));
    }
    for (i, at, name) in found {
        let mut u = UnresolvedCall::new(at, format!("env {name}"));
        u.policies = vec![i];
        facts.unresolved.push(u);
    }
}

/// `${NAME}` or `$NAME` at the start of a host, NAME upper-case.
fn variable(host: &str) -> Option<&str> {
    let v = host.strip_prefix('$')?;
    let name = match v.strip_prefix('{') {
        Some(b) => b.split_once('}')?.0,
        None => {
            let end = v
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(v.len());
            &v[..end]
        }
    };
    let ok = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    ok.then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_case_variables_only() {
        assert_eq!(variable("${CATALOGUE_HOST}:8080/"), Some("CATALOGUE_HOST"));
        assert_eq!(variable("$CART_HOST:8080"), Some("CART_HOST"));
        assert_eq!(variable("$upstream_addr"), None);
        assert_eq!(variable("${host}"), None);
        assert_eq!(variable("cart:8080"), None);
    }
}
