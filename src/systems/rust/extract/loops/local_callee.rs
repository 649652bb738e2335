//! An attempt that calls a synchronous function of the same file doing
//! local work (`Self::next_checkpoint_time(dir)`, whose body opens the
//! node's own RocksDB backup directory through another function of the
//! file): the body is followed, two levels deep with a budget, as the Java
//! reader follows a method of its class (`java/extract/loops/reach.rs`).
//! Local work is a store of this host named (an embedded database, the
//! file system), with nothing awaited and no network named on the way
//! (walrus `db_checkpoint.rs`, twenty-fifth pass).

use super::*;

/// Words of a store on this host: an embedded database or the file system.
const LOCAL_STORE: &[&str] = &[
    "rocksdb",
    "BackupEngine",
    "DB::open",
    "rusqlite",
    "sled::",
    "redb::",
    "fs::",
    "File::open",
    "File::create",
    "OpenOptions",
    "read_dir(",
];

/// Words of the network: a callee that names one may leave the process.
const NETWORK: &[&str] = &[
    "client", "http", "request", "connect", "rpc", "socket", "tcp", "url", "send(", "remote",
];

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// The callee every attempt of the loop makes, when each is a
    /// synchronous function of this file that does local work; `None`
    /// otherwise.
    pub(super) fn local_callee(&self, body: &Block, cond: Option<&Expr>) -> Option<String> {
        let ops = super::reach::attempt_ops(body, cond);
        if ops.is_empty() || ops.len() > 8 {
            return None;
        }
        let spans = self.ev.spans;
        let mut first = None;
        let mut budget = 12usize;
        for op in ops {
            // Not awaited: a synchronous call.
            let at = spans.node(op);
            let after = spans.source().get(at.end..).unwrap_or("");
            if after.trim_start().starts_with(".await") {
                return None;
            }
            let name = own_callee(op)?;
            if !self.local_fn(&name, 2, &mut budget) {
                return None;
            }
            first.get_or_insert(name);
        }
        first.map(|n| {
            format!("`{n}(..)`, a synchronous function of this file reading a store of this host")
        })
    }

    /// Whether the file's function `name` is synchronous and does local
    /// work: it names a store of this host (itself or through a function of
    /// the file it calls, `depth` levels down), awaits nothing and names
    /// no network.
    fn local_fn(&self, name: &str, depth: u32, budget: &mut usize) -> bool {
        let mut defs = self.bodies.iter().filter(|(n, ..)| n == name).take(2);
        let (Some((_, _, block, fn_span)), None) = (defs.next(), defs.next()) else {
            return false;
        };
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let spans = self.ev.spans;
        let head = spans
            .slice(*fn_span)
            .split('{')
            .next()
            .unwrap_or("")
            .to_string();
        if head.split_whitespace().any(|w| w == "async") {
            return false;
        }
        let code =
            crate::systems::rust::extract::literals::without_comments(spans.block_text(block));
        let code = super::reach::without_strings(&code);
        let lower = code.to_ascii_lowercase();
        if code.contains(".await") || NETWORK.iter().any(|w| lower.contains(w)) {
            return false;
        }
        if LOCAL_STORE.iter().any(|w| code.contains(w)) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        // `Self::helper(..)`, `self.helper(..)`, `helper(..)` of the file.
        let compact = crate::systems::rust::extract::squash(&code);
        let mut callees: Vec<&str> = Vec::new();
        for (i, _) in compact.match_indices('(').take(64) {
            let head = &compact[..i];
            let n = crate::extract::calls::lex::trailing(head, |c| c.is_alphanumeric() || c == '_');
            let before = &head[..head.len() - n.len()];
            let own = before.ends_with("Self::") || before.ends_with("self.");
            if own && n != name && !callees.contains(&n) {
                callees.push(n);
            }
        }
        callees
            .into_iter()
            .take(4)
            .any(|c| self.local_fn(c, depth - 1, budget))
    }
}

/// `Self::f(..)`, `self.f(..)` or `f(..)`: the name of a function of the
/// file the attempt calls.
fn own_callee(op: &Expr) -> Option<String> {
    match op {
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else { return None };
            let segs = super::segments(&p.path);
            match segs.as_slice() {
                [f] => Some(f.clone()),
                [s, f] if s == "Self" => Some(f.clone()),
                _ => None,
            }
        }
        Expr::MethodCall(m) if matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self")) => {
            Some(m.method.to_string())
        }
        _ => None,
    }
}
