//! Work that never leaves the host: binding a local port
//! (`net.ListenConfig.Listen`, `net.Listen`), the host's files (`os.Stat`,
//! `os.ReadFile`) and reads of client-go's
//! informer caches (a `Lister`, an `Informer`'s `Indexer`: the process's
//! own copy, filled by a watch). A retry or a loop whose every call is
//! such work (or the standard library's time, fmt, strconv, a logger)
//! asks no one again: it waits for a port to be let go or for its own
//! cache to catch up, and no backoff spares a service.

use super::{Ctx, Pkg, field};
use crate::extract::values;
use crate::model::values::ValueWant;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Every call among `calls` is local work or bookkeeping, and one at least
/// is local work (a loop of only `time.Sleep` is not judged here). A
/// function of another package of the module (`crds.CheckCerts(..)`) is
/// local work when the link step found it so (`local_fn`); until then
/// the read records the question and says no.
pub fn only_local<'a>(ctx: &Ctx<'_>, calls: impl IntoIterator<Item = Node<'a>>) -> bool {
    let mut local = false;
    let mut of_module = Vec::new();
    let mut of_file = Vec::new();
    for c in calls {
        if c.kind_name() != "call_expression" {
            continue;
        }
        if works_locally(ctx, c) {
            local = true;
        } else if bookkeeping(ctx, c) {
        } else if let Some(w) = module_function(ctx, c) {
            of_module.push(w);
        } else if let Some(f) = field(c, "function").filter(|f| f.kind() == "identifier") {
            of_file.push(ctx.text(f));
        } else {
            return false;
        }
    }
    // A function of this file (`tryCreateLockFile(lockPath)`, cloudflare/
    // cloudflared d1df7985's wait for another process's lock file) is
    // local work when its body is (`local_fn`), read once the loop's
    // other calls are known to be local.
    of_file.sort_unstable();
    of_file.dedup();
    if !of_file.is_empty() {
        // The functions and those they call may be blanked by a pruned
        // parse (`prune`): the file is then read whole. Rare: a loop whose
        // other calls are all local.
        ctx.needs.borrow_mut().push((0, ctx.src.len()));
    }
    for f in of_file {
        if !super::local_fn::local_function(ctx.src, f) {
            return false;
        }
        local = true;
    }
    let mut known = true;
    for w in of_module {
        match values::given(w.key()).map(|(v, _)| v == 1.0) {
            Some(true) => local = true,
            Some(false) => return false,
            None => {
                values::want(w);
                known = false;
            }
        }
    }
    known && local
}

/// `pkg.F(..)` of an imported package this reader does not know, outside
/// the standard library (its path's first element has a dot): maybe a
/// package of the file's own module, which the link step reads.
fn module_function(ctx: &Ctx<'_>, call: Node<'_>) -> Option<ValueWant> {
    let f = field(call, "function").filter(|f| f.kind_name() == "selector_expression")?;
    let operand = field(f, "operand").filter(|o| o.kind_name() == "identifier")?;
    let alias = ctx.text(operand);
    if ctx.pkg(alias).is_some() {
        return None;
    }
    let import = ctx.import_specs.iter().find_map(|s| {
        let path = ctx.text(field(*s, "path")?).trim_matches(['"', '`']);
        let name = match field(*s, "name") {
            Some(a) => ctx.text(a),
            None => super::default_name(path),
        };
        (name == alias).then_some(path)
    })?;
    if !import.split('/').next().is_some_and(|h| h.contains('.')) {
        return None;
    }
    let name = ctx.text(field(f, "field")?);
    Some(ValueWant::GoLocalFunc {
        key: format!("local {alias}.{name}"),
        import: import.to_string(),
        name: name.to_string(),
    })
}

/// `lc.Listen(..)`, `net.ListenTCP(..)`, `s.appLister.Apps(ns).Get(n)`,
/// `informer.GetIndexer().GetByKey(k)`.
fn works_locally(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    // The host's own files (`os.Stat(certPath)`: dapr d845074's sentry
    // waiting for its certificate files to be written).
    if matches!(
        ctx.pkg_call(call),
        Some((
            Pkg::Os,
            "Stat" | "Lstat" | "ReadFile" | "ReadDir" | "Open" | "OpenFile" | "Remove"
        ))
    ) {
        return true;
    }
    let Some(f) = field(call, "function").filter(|f| f.kind_name() == "selector_expression") else {
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
        // A retry library's marks on an error (sethvargo/go-retry
        // `RetryableError`, cenkalti/backoff `Permanent`, avast/retry-go
        // `Unrecoverable`): they wrap the error, nothing is asked.
        | Some((Pkg::GoRetry, "RetryableError"))
        | Some((Pkg::Backoff(_), "Permanent" | "RetryAfter"))
        | Some((Pkg::RetryGo(_), "Unrecoverable"))
    ) {
        return true;
    }
    let Some(f) = field(call, "function") else {
        return false;
    };
    let t = ctx.text(f);
    if f.kind_name() == "identifier" {
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
    if [
        "time.",
        "context.",
        "errors.",
        "fmt.",
        "strings.",
        "filepath.",
        "path.",
        "os.IsExist(",
        "os.IsNotExist(",
    ]
    .iter()
    .any(|p| t.starts_with(p) || ctx.text(call).starts_with(p))
    {
        return true;
    }
    // A logger: `log.Printf`, `klog.Infof`, `logCtx.Warnf`, `s.logger.Info`,
    // `setupLog.Error`, and a chain on one (zerolog's `log.Debug().Str(..)
    // .Msg(..)`: the operand's first name).
    let operand = field(f, "operand").map_or("", |o| ctx.text(o));
    let operand = match operand.find('(') {
        Some(i) => operand[..i].split('.').next().unwrap_or(operand),
        None => operand,
    };
    let segment = operand.rsplit('.').next().unwrap_or(operand);
    let last = segment.to_ascii_lowercase();
    // The context's own state: `ctx.Err()`, `req.Context().Done()`.
    let method = field(f, "field").map_or("", |n| ctx.text(n));
    if matches!(method, "Err" | "Done" | "Deadline")
        && (last.contains("ctx") || last.starts_with("context"))
    {
        return true;
    }
    matches!(
        last.as_str(),
        "log" | "klog" | "glog" | "slog" | "zap" | "logrus" | "logctx" | "logentry"
    ) || last.ends_with("logger")
        || segment.ends_with("Log")
}
