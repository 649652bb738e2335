//! varnish-modules' saintmode (issue 28): how it limits a VCL's retries.
//!
//! varnish/varnish-modules `src/vmod_saintmode.vcc` and `vmod_saintmode.c`
//! (commit 1f0a412d): `new sm = saintmode.saintmode(backend, threshold)`
//! wraps a backend in a director; `saintmode.denylist(ttl)` (alias
//! `blacklist`), called in `vcl_backend_response`, marks the wrapped
//! backend sick for the fetched object for `ttl` (it logs "Saintmode not
//! configured for this backend" and does nothing when the backend that
//! answered is not wrapped); the director then reports the backend
//! unhealthy for that object, and for every object once `threshold`
//! objects are denylisted (`is_digest_healthy`: `if (sm->threshold <=
//! sm->n_trouble) retval = 0`; a threshold of 0 turns the check off), so
//! a retry goes to another backend of the director and a backend failing
//! for many objects is taken out of rotation.
//!
//! Modelled as outlier ejection (a [`Protection`] for the wrapped
//! backend's host): a VCL that denylists before retrying and wraps the
//! backend with a threshold above 0 does not send every shed request back
//! to an overloaded backend, so RL603 does not report its retries to that
//! host. A denylist call with no saintmode director, or a backend not
//! wrapped, protects nothing.

use super::{Kind, Reader};
use crate::extract::Facts;
use crate::model::{Protection, System};
use crate::source::Span;

pub(super) fn protections(r: &Reader<'_>, facts: &mut Facts) {
    let words = |i: usize| {
        r.toks
            .get(i)
            .filter(|t| t.kind == Kind::Word)
            .map(|_| r.s(i))
    };
    let denylists = (0..r.toks.len()).any(|i| {
        matches!(words(i), Some("saintmode.denylist" | "saintmode.blacklist")) && r.is(i + 1, "(")
    });
    if !denylists {
        return;
    }
    for i in 0..r.toks.len() {
        if words(i) != Some("saintmode.saintmode") || !r.is(i + 1, "(") || !r.is(i + 3, ",") {
            continue;
        }
        let Some(name) = words(i + 2) else {
            continue;
        };
        let threshold = r
            .toks
            .get(i + 4)
            .filter(|t| t.kind == Kind::Num)
            .and_then(|_| r.s(i + 4).parse::<u64>().ok());
        let Some(threshold) = threshold.filter(|t| *t > 0) else {
            continue;
        };
        let Some((host, _)) = r
            .backends
            .iter()
            .find(|b| b.name == name)
            .and_then(|b| b.host.as_ref())
        else {
            continue;
        };
        let end = r.close.get(i + 1).copied().unwrap_or(i + 4);
        let span = match (r.toks.get(i), r.toks.get(end)) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            (Some(a), None) => a.span,
            _ => Span::new(0, 0),
        };
        facts.protections.push(Protection {
            system: System::Varnish,
            host: crate::extract::short_host(host),
            what: format!(
                "saintmode `saintmode.saintmode({name}, {threshold})`: the backend is taken out for an object it failed (`saintmode.denylist`), and for every object after {threshold}"
            ),
            span,
            max_retries: None,
        });
    }
}
