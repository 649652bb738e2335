//! Work that never leaves the host: binding a local port
//! (`net.ListenConfig.Listen`, `net.Listen`) and reads of client-go's
//! informer caches (a `Lister`, an `Informer`'s `Indexer`: the process's
//! own copy, filled by a watch). A retry or a loop whose every call is
//! such work (or the standard library's time, fmt, strconv, a logger)
//! asks no one again: it waits for a port to be let go or for its own
//! cache to catch up, and no backoff spares a service.

use super::{Ctx, Pkg, field};
use tree_sitter::Node;

/// Every call among `calls` is local work or bookkeeping, and one at least
/// is local work (a loop of only `time.Sleep` is not judged here).
pub fn only_local<'a>(ctx: &Ctx<'_>, calls: impl IntoIterator<Item = Node<'a>>) -> bool {
    let mut local = false;
    for c in calls {
        if c.kind() != "call_expression" {
            continue;
        }
        if works_locally(ctx, c) {
            local = true;
        } else if !bookkeeping(ctx, c) {
            return false;
        }
    }
    local
}

/// `lc.Listen(..)`, `net.ListenTCP(..)`, `s.appLister.Apps(ns).Get(n)`,
/// `informer.GetIndexer().GetByKey(k)`.
fn works_locally(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let Some(f) = field(call, "function").filter(|f| f.kind() == "selector_expression") else {
        return false;
    };
    if field(f, "field").is_some_and(|n| ctx.text(n).starts_with("Listen")) {
        return true;
    }
    let l = ctx.text(f).to_ascii_lowercase();
    ["lister", "informer", "indexer"]
        .iter()
        .any(|w| l.contains(w))
}

/// The standard library's local packages, `context`, a logger, errors,
/// and the builtins (`len`, `append`, conversions).
fn bookkeeping(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if matches!(
        ctx.pkg_call(call),
        Some((
            Pkg::Time | Pkg::Fmt | Pkg::Strconv | Pkg::Math | Pkg::Rand | Pkg::Uuid,
            _
        ))
    ) {
        return true;
    }
    let Some(f) = field(call, "function") else {
        return false;
    };
    let t = ctx.text(f);
    if f.kind() == "identifier" {
        return matches!(
            t,
            "len"
                | "cap"
                | "append"
                | "make"
                | "new"
                | "min"
                | "max"
                | "string"
                | "int"
                | "int64"
                | "float64"
        );
    }
    if ["time.", "context.", "errors.", "fmt.", "strings."]
        .iter()
        .any(|p| t.starts_with(p))
    {
        return true;
    }
    // A logger: `log.Printf`, `klog.Infof`, `logCtx.Warnf`, `s.logger.Info`.
    let operand = field(f, "operand").map_or("", |o| ctx.text(o));
    let last = operand
        .rsplit('.')
        .next()
        .unwrap_or(operand)
        .to_ascii_lowercase();
    matches!(
        last.as_str(),
        "log" | "klog" | "glog" | "slog" | "zap" | "logrus" | "logctx" | "logentry"
    ) || last.ends_with("logger")
}
