//! Which calls can leave the process. A loop retries a remote operation
//! only when what it attempts can leave: a call on a variable whose
//! declared type names a remote client, or one whose type the file does
//! not show (unknown counts as remote: most retried clients are a
//! project's own types). A try block whose every call is known to stay in
//! the process (the local disk through `java.io.File` or `java.nio.file`,
//! a local process, reflection, parsing, in-memory values, locks) is local
//! work, not a retry of a remote call.
//!
//! Same-class methods are read one or two calls deep; a body the pruner
//! skipped is unknown.

use super::*;
use crate::model::java_annotations::OpenCall;
use std::cell::{Cell, RefCell};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reach {
    /// Stays in the process, and is work (a file, a process, reflection).
    Local,
    /// Stays in the process and says nothing (logging, value methods).
    Neutral,
    /// A remote client, or a type or method the file does not show.
    Other,
}

/// One reading's budget of same-class methods, and, when asked, the calls
/// on project types declared elsewhere it set aside for the link step
/// (each counted as saying nothing here).
pub(super) struct Walk {
    budget: Cell<u32>,
    open: Option<RefCell<Vec<OpenCall>>>,
}

impl Walk {
    pub(super) fn new(collect: bool) -> Walk {
        Walk {
            budget: Cell::new(16),
            open: collect.then(|| RefCell::new(Vec::new())),
        }
    }

    pub(super) fn take_open(self) -> Vec<OpenCall> {
        self.open.map(RefCell::into_inner).unwrap_or_default()
    }
}

/// At most this many calls set aside per loop: past it the loop is left
/// as it is read (unknown counts as remote).
const MAX_OPEN: usize = 16;

/// Types whose calls stay in the process.
const LOCAL_TYPES: &[&str] = &[
    "File",
    "RandomAccessFile",
    "FileInputStream",
    "FileOutputStream",
    "FileReader",
    "FileWriter",
    "FileChannel",
    "FileLock",
    "Files",
    "Paths",
    "PrintWriter",
    "StringWriter",
    "StringBuilder",
    "ByteBuffer",
    "ByteArrayOutputStream",
    "ByteArrayInputStream",
    "Process",
    "ProcessBuilder",
    "Runtime",
    "Class",
    "Method",
    "Constructor",
    "Field",
    "ClassLoader",
    "URLClassLoader",
    "RocksDB",
    "WriteBatch",
    "ServerSocket",
    "ExecutorService",
    "ScheduledExecutorService",
    "ThreadPoolExecutor",
    "ForkJoinPool",
    "Thread",
    "Lock",
    "ReentrantLock",
    "ReadWriteLock",
    "ReentrantReadWriteLock",
    "CountDownLatch",
    "Semaphore",
    "CyclicBarrier",
    "List",
    "ArrayList",
    "LinkedList",
    "Map",
    "HashMap",
    "LinkedHashMap",
    "TreeMap",
    "ConcurrentHashMap",
    "Set",
    "HashSet",
    "TreeSet",
    "Deque",
    "ArrayDeque",
    "Pattern",
    "Matcher",
    "MessageDigest",
    "Cipher",
    "Random",
    "SecureRandom",
    "ObjectMapper",
    "Gson",
    "AtomicInteger",
    "AtomicLong",
    "AtomicBoolean",
    "AtomicReference",
    "Properties",
];

/// Classes whose static methods only compute.
const NEUTRAL_STATICS: &[&str] = &[
    "String",
    "Objects",
    "Math",
    "Arrays",
    "Collections",
    "Integer",
    "Long",
    "Boolean",
    "Double",
    "Optional",
    "Preconditions",
    "TimeUnit",
    "Duration",
    "Instant",
    "System",
    "Thread",
    "StandardCharsets",
    "Lists",
    "Maps",
    "Sets",
];

/// Method names that compute on a value, whatever it is.
const NEUTRAL_NAMES: &[&str] = &[
    "toString",
    "equals",
    "hashCode",
    "getMessage",
    "getClass",
    "getName",
    "getSimpleName",
    "toMillis",
    "toNanos",
    "toSeconds",
    "getSeconds",
    "format",
    "formatted",
    "valueOf",
    "length",
    "trim",
    "isEmpty",
    "interrupt",
    "currentThread",
];

/// Whether `name` is one of the types of `list`, as the file imports it:
/// `Path` and `Files` are the local disk's only from `java.nio.file` (a
/// Hadoop or a project's `Path` may name a remote file), `File` unless the
/// file imports another `File`.
fn typed(ctx: &Ctx<'_>, ty: &str, list: &[&str]) -> bool {
    let base = base_type(ty);
    let last = ast::last_segment(base);
    if matches!(last, "Path" | "Files") {
        return ctx
            .imports
            .iter()
            .any(|i| *i == format!("java.nio.file.{last}") || *i == "java.nio.file.*")
            || (last == "Files" && ctx.imports.contains(&"com.google.common.io.Files"));
    }
    if !list.contains(&last) {
        return false;
    }
    // Another `File`/`Consumer`.. imported under the same name.
    !ctx.imports.iter().any(|i| {
        ast::last_segment(i) == last && !i.starts_with("java.") && !i.starts_with("javax.")
    })
}

/// A declared type whose calls stay in the process (`File`, a
/// collection, a lock, ..).
pub(super) fn local_type(ctx: &Ctx<'_>, ty: &str) -> bool {
    !ty.is_empty() && (typed(ctx, ty, LOCAL_TYPES) || file_io(ty))
}

/// A project's wrapper of a local file's channel, named for it (`FileIo`,
/// `AsyncFileIO`, `RandomAccessFileIo`: apache/ignite-3's page store reads
/// through one, twenty-fifth pass), or the factory that opens one
/// (`FileIoFactory`, `RandomAccessFileIoFactory`: the page store reopens
/// its file through it, twenty-sixth pass).
fn file_io(ty: &str) -> bool {
    let last = ast::last_segment(base_type(ty));
    let last = last.strip_suffix("Factory").unwrap_or(last);
    last.ends_with("FileIo") || last.ends_with("FileIO")
}

/// Method names that are local work by themselves: parsing, reflection.
fn local_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    ["parse", "fromjson", "readvalue", "decode", "deserialize"]
        .iter()
        .any(|w| l.starts_with(w))
        || matches!(
            name,
            "getConstructor"
                | "getDeclaredConstructor"
                | "getMethod"
                | "getDeclaredMethod"
                | "getField"
                | "getDeclaredField"
                | "newInstance"
                | "forName"
                | "setAccessible"
                | "loadClass"
                | "loadLibrary"
        )
}

/// An expression that names a file of the local disk or a local process:
/// `new File(..)`, `Paths.get(..)`, `Path.of(..)`, a variable of such a
/// type, or what one hands out (`process.getInputStream()`).
fn local_file(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    const HANDLES: &[&str] = &["File", "Path", "Process", "RandomAccessFile"];
    let e = ast::unwrap_expr(e);
    match e.kind_str() {
        "object_creation_expression" => field(e, "type").is_some_and(|t| {
            typed(
                ctx,
                ctx.text(t),
                &["File", "FileInputStream", "RandomAccessFile"],
            )
        }),
        "method_invocation" => field(e, "object").is_some_and(|o| {
            o.kind_str() == "identifier"
                && match ctx.var(ctx.text(o), o) {
                    None => typed(ctx, ctx.text(o), &["Paths", "Path"]),
                    Some(v) => typed(ctx, v.ty, HANDLES),
                }
        }),
        "identifier" => ctx
            .var(ctx.text(e), e)
            .is_some_and(|v| typed(ctx, v.ty, HANDLES)),
        _ => false,
    }
}

/// The type a receiver names: a variable's declared type, or a class
/// (`Files.readString(..)`) when no variable has the name.
pub(super) fn receiver<'a>(ctx: &Ctx<'a>, o: Node<'_>) -> Option<(&'a str, bool)> {
    let o = ast::unwrap_expr(o);
    match o.kind_str() {
        "identifier" => {
            let name = ctx.text(o);
            match ctx.var(name, o) {
                Some(v) => Some((v.ty, false)),
                None if name.starts_with(|c: char| c.is_ascii_uppercase()) => Some((name, true)),
                None => None,
            }
        }
        "field_access" => {
            let f = field(o, "field")?;
            let obj = field(o, "object")?;
            if ctx.text(obj) != "this" {
                return None;
            }
            ctx.var(ctx.text(f), f).map(|v| (v.ty, false))
        }
        "cast_expression" | "object_creation_expression" => {
            field(o, "type").map(|t| (ctx.text(t), false))
        }
        _ => None,
    }
}

fn call_reach(ctx: &Ctx<'_>, d: Node<'_>, depth: u32, budget: &Walk) -> Reach {
    let name = field(d, "name").map_or("", |n| ctx.text(n));
    if is_sleep_name(name) || NEUTRAL_NAMES.contains(&name) {
        return Reach::Neutral;
    }
    let obj = field(d, "object");
    if obj.is_some_and(|o| ctx.text(o).to_ascii_lowercase().contains("log")) {
        return Reach::Neutral;
    }
    // A call handed a file of the local disk works on it.
    if field(d, "arguments").is_some_and(|a| {
        ctx.named_children(a)
            .into_iter()
            .any(|x| local_file(ctx, x))
    }) {
        return Reach::Local;
    }
    let Some(o) = obj.filter(|o| ctx.text(*o) != "this") else {
        let args = field(d, "arguments").map_or(0, |a| ctx.named_children(a).len());
        return own_method(ctx, name, args, depth, budget);
    };
    // A chain (`Files.newBufferedReader(p).readLine()`) is its root's.
    let mut root = o;
    for _ in 0..8 {
        match root.kind_str() {
            "method_invocation" => match field(root, "object") {
                Some(x) => root = x,
                None => break,
            },
            "parenthesized_expression" => root = ast::unwrap_expr(root),
            _ => break,
        }
    }
    if root.kind_str() == "string_literal" {
        return Reach::Neutral;
    }
    match receiver(ctx, root) {
        Some((ty, _)) if typed(ctx, ty, LOCAL_TYPES) => Reach::Local,
        Some((ty, true)) if NEUTRAL_STATICS.contains(&ast::last_segment(ty)) => Reach::Neutral,
        Some((_, true)) if local_name(name) => Reach::Local,
        _ if local_name(name) && root.kind_str() != "identifier" => Reach::Local,
        // A method of a project type declared elsewhere, called on the
        // receiver itself (not a chain): set aside for the link step.
        Some((ty, _)) if root.id() == o.id() => match (&budget.open, project_type(ctx, ty)) {
            (Some(open), Some((package, class))) if open.borrow().len() < MAX_OPEN => {
                let arity = field(d, "arguments").map_or(0, |a| ctx.named_children(a).len());
                open.borrow_mut().push(OpenCall {
                    package,
                    class,
                    method: name.to_string(),
                    arity,
                });
                Reach::Neutral
            }
            _ => Reach::Other,
        },
        _ => Reach::Other,
    }
}

/// A type as written without its type arguments and array brackets
/// (`List` of `List<String>`, `Node` of `Node[]`).
fn base_type(ty: &str) -> &str {
    ty.split('<')
        .next()
        .unwrap_or(ty)
        .trim_end_matches("[]")
        .trim()
}

/// The package and simple name of a type this file names but does not
/// declare, when it can be the project's own: imported from outside the
/// JDK, or not imported (then in this file's package). `None` for a
/// generic parameter, a nested type (`Outer.Inner`) and the JDK's types.
pub(super) fn project_type(ctx: &Ctx<'_>, ty: &str) -> Option<(String, String)> {
    let base = base_type(ty);
    let (written_pkg, simple) = match base.rsplit_once('.') {
        Some((p, s)) if p.starts_with(|c: char| c.is_ascii_lowercase()) => (Some(p), s),
        Some(_) => return None,
        None => (None, base),
    };
    if simple.len() < 2
        || !simple.starts_with(|c: char| c.is_ascii_uppercase())
        || simple.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        || own_class(ctx, simple)
        || JDK_LANG.contains(&simple)
    {
        return None;
    }
    let package = match written_pkg {
        Some(p) => p.to_string(),
        None => match ctx.imports.iter().find(|i| ast::last_segment(i) == simple) {
            Some(i) => i.rsplit_once('.').map(|(p, _)| p)?.to_string(),
            None => package_of(ctx.src).to_string(),
        },
    };
    if package.starts_with("java.") || package.starts_with("javax.") || package.is_empty() {
        return None;
    }
    Some((package, simple.to_string()))
}

/// `java.lang` types a file names without importing them.
const JDK_LANG: &[&str] = &[
    "Object",
    "String",
    "System",
    "Thread",
    "Runtime",
    "Math",
    "StringBuilder",
    "Class",
    "Integer",
    "Long",
    "Boolean",
    "Double",
    "Float",
    "Short",
    "Byte",
    "Character",
    "Number",
    "Enum",
    "Iterable",
    "Runnable",
    "ThreadLocal",
    "Process",
    "ProcessBuilder",
    "ClassLoader",
    "StackTraceElement",
];

/// The file's `package` (empty in the default package).
pub(super) fn package_of(src: &str) -> &str {
    src.lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix("package "))
        .unwrap_or("")
        .trim_end_matches(|c: char| c == ';' || c.is_whitespace())
        .trim()
}

/// A method of this class: local when its body is, unknown when it is
/// not in the file, skipped by the pruner, or too deep.
fn own_method(ctx: &Ctx<'_>, name: &str, args: usize, depth: u32, budget: &Walk) -> Reach {
    // The overloads taking as many arguments, else the varargs ones.
    fn params(m: &Node<'_>) -> Vec<&'static str> {
        field(*m, "parameters")
            .map(ast::named_children)
            .unwrap_or_default()
            .iter()
            .map(|x| {
                if x.kind_str() == "spread_parameter" {
                    "..."
                } else {
                    ""
                }
            })
            .collect()
    }
    // Setting calls aside for the link step reads the try block alone: a
    // method of this class may be a body the pruner skipped, and the
    // facts must not depend on pruning.
    if budget.open.is_some() {
        return Reach::Other;
    }
    let all_defs = ctx.methods_named(name);
    let mut defs: Vec<Node<'_>> = all_defs
        .iter()
        .copied()
        .filter(|m| {
            let p = params(m);
            p.len() == args && !p.contains(&"...")
        })
        .collect();
    if defs.is_empty() {
        defs = all_defs
            .iter()
            .copied()
            .filter(|m| params(m).contains(&"..."))
            .collect();
    }
    if defs.is_empty() || depth >= 2 || budget.budget.get() == 0 {
        return Reach::Other;
    }
    budget.budget.set(budget.budget.get() - 1);
    let mut all = Reach::Neutral;
    for m in defs.iter().take(3) {
        let Some(body) = field(*m, "body") else {
            return Reach::Other;
        };
        // A body the pruner skipped parses empty: nothing is known.
        if ctx.named_children(body).is_empty() && ctx.text(body).trim().len() > 2 {
            return Reach::Other;
        }
        match nodes_reach(ctx, body, depth + 1, budget) {
            Reach::Other => return Reach::Other,
            Reach::Local => all = Reach::Local,
            Reach::Neutral => {}
        }
    }
    all
}

pub(super) fn nodes_reach(ctx: &Ctx<'_>, within: Node<'_>, depth: u32, budget: &Walk) -> Reach {
    let mut all = Reach::Neutral;
    for d in ctx.descendants_until(within, nested) {
        let r = match d.kind_str() {
            "method_invocation" => call_reach(ctx, d, depth, budget),
            "object_creation_expression" => {
                let ty = field(d, "type").map_or("", |t| ctx.text(t));
                let last = ast::last_segment(ty.split('<').next().unwrap_or(ty));
                if typed(ctx, ty, LOCAL_TYPES) {
                    Reach::Local
                } else if NEUTRAL_STATICS.contains(&last)
                    || last.ends_with("Exception")
                    || last.ends_with("Error")
                    || own_class(ctx, last)
                {
                    // An exception, or a class of this file.
                    Reach::Neutral
                } else {
                    Reach::Other
                }
            }
            _ => Reach::Neutral,
        };
        match r {
            Reach::Other => return Reach::Other,
            Reach::Local => all = Reach::Local,
            Reach::Neutral => {}
        }
    }
    all
}

/// A class declared in this file.
pub(super) fn own_class(ctx: &Ctx<'_>, name: &str) -> bool {
    ctx.nodes.iter().any(|n| {
        matches!(n.kind_str(), "class_declaration" | "record_declaration")
            && field(*n, "name").is_some_and(|x| ctx.text(x) == name)
    })
}

/// The try block stays in the process: every call it makes is known local
/// work or computes (and one is work).
pub(super) fn stays_local(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    nodes_reach(ctx, block, 0, &Walk::new(false)) == Reach::Local
}

/// One call stays in the process and is work (`file.renameTo(..)` on a
/// `java.io.File`).
pub(super) fn call_stays_local(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    call_reach(ctx, call, 0, &Walk::new(false)) == Reach::Local
}
