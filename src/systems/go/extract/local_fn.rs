//! Whether a function of another package of the module does only local
//! work (external-secrets' `crds.CheckCerts`: stat and read certificate
//! files, parse and verify them), for a loop that calls it
//! ([`super::local`]): read from the function's text by the link step
//! (`link::values`), which gives the loop's file the answer.
//!
//! Local: the body names no imported package but the standard library's
//! local ones (files, paths, text, encodings, certificates parsed in
//! memory), and each function it calls is a builtin, a method of a value
//! it made itself, or a function of the same file that is local in turn
//! (a few levels deep). Anything else (a client, a field's method, a
//! function of another file) is not known to be local.

/// Standard packages whose functions never leave the host. `crypto/tls`
/// only for its key-pair parsing ([`TLS_LOCAL`]).
const LOCAL_STD: &[&str] = &[
    "os",
    "io",
    "io/fs",
    "io/ioutil",
    "path",
    "path/filepath",
    "strings",
    "bytes",
    "errors",
    "fmt",
    "strconv",
    "sort",
    "slices",
    "maps",
    "unicode",
    "unicode/utf8",
    "time",
    "math",
    "regexp",
    "bufio",
    "crypto/rand",
    "math/rand",
    "math/rand/v2",
    "crypto/x509",
    "crypto/x509/pkix",
    "crypto/sha1",
    "crypto/sha256",
    "crypto/sha512",
    "crypto/rsa",
    "crypto/ecdsa",
    "crypto/ed25519",
    "encoding/pem",
    "encoding/json",
    "encoding/base64",
    "encoding/hex",
    "crypto/tls",
    "math/big",
    "net/netip",
];

/// `net` functions that reach no one: address parsing and joining. A body
/// naming `net` is local only with these and a dialer bound to a
/// loopback address ([`loopback_dialer`]).
const NET_LOCAL: &[&str] = &[
    "ResolveTCPAddr",
    "ResolveUDPAddr",
    "JoinHostPort",
    "SplitHostPort",
    "ParseIP",
];

/// Modules outside the standard library whose functions never leave the
/// host: `github.com/pkg/errors` wraps errors; gopsutil's `process`
/// reads the host's process table (`NewProcess`, `CreateTime`: `/proc`
/// on Linux, shirou/gopsutil v4 `process/process_linux.go`), as
/// cloudflare/cloudflared d1df7985 checks a lock file's owner.
const LOCAL_MODULES: &[&str] = &[
    "github.com/pkg/errors",
    "github.com/shirou/gopsutil/process",
    "github.com/shirou/gopsutil/v3/process",
    "github.com/shirou/gopsutil/v4/process",
];

/// `crypto/tls` functions that parse in memory (`tls.Dial` does not).
const TLS_LOCAL: &[&str] = &["X509KeyPair", "LoadX509KeyPair"];

/// Builtins and conversions.
const BUILTINS: &[&str] = &[
    "len", "cap", "append", "make", "new", "min", "max", "copy", "delete", "panic", "string",
    "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "byte", "rune", "bool", "error",
];

/// Functions of the file followed from the first, at most.
const MAX_DEPTH: usize = 3;
/// The longest file read.
const MAX_TEXT: usize = 512 * 1024;

/// Whether function `name` of the Go file `text` does only local work.
pub fn local_function(text: &str, name: &str) -> bool {
    if text.len() > MAX_TEXT {
        return false;
    }
    let imports = imports(text);
    local_at(text, &imports, name, 0)
}

fn local_at(text: &str, imports: &[(String, String)], name: &str, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let Some(body) = body(text, name) else {
        return false;
    };
    let code = strip(body);
    // A dialer whose local address is a loopback one (`net.Dialer{LocalAddr:
    // laddr}`, `laddr` resolved from `"127.0.0.1:0"`) reaches only this
    // host: a kernel does not route a loopback source off it (kumahq/kuma
    // 348b6528bc `validator.go` `runLocalClient`, a check of the host's
    // own iptables redirect).
    let loopback = loopback_dialer(body);
    // Every imported package the body names is a local standard one.
    for (alias, path) in imports {
        let named = words(&code).any(|(w, next)| w == alias && next == Some('.'));
        if named
            && !LOCAL_STD.contains(&path.as_str())
            && !LOCAL_MODULES.contains(&path.as_str())
            && (path != "net" || !loopback)
        {
            return false;
        }
    }
    // Parameters of the standard library's local value types
    // (`serverIP netip.Addr`, `d time.Duration`): their methods are local.
    let values = value_parameters(text, name, imports);
    let declared = |v: &str| {
        values.iter().any(|p| p == v)
            || code.lines().any(|l| {
                let l = l.trim();
                l.strip_prefix("var ")
                    .is_some_and(|r| r.split_whitespace().next() == Some(v))
                    || l.split_once(":=")
                        .is_some_and(|(lhs, _)| lhs.split(',').any(|x| x.trim() == v))
            })
    };
    for call in calls(&code) {
        match call {
            Call::Qualified(x, f) => {
                if let Some((_, path)) = imports.iter().find(|(a, _)| *a == x) {
                    if path == "crypto/tls" && !TLS_LOCAL.contains(&f.as_str())
                        || path == "net" && !NET_LOCAL.contains(&f.as_str())
                    {
                        return false;
                    }
                } else if !declared(&x) {
                    // A parameter's or a field's method: a client, maybe.
                    return false;
                }
            }
            Call::Plain(f) => {
                if BUILTINS.contains(&f.as_str()) || f == name {
                    continue;
                }
                if !local_at(text, imports, &f, depth + 1) {
                    return false;
                }
            }
            Call::Other => return false,
        }
    }
    true
}

enum Call {
    /// `x.f(..)`.
    Qualified(String, String),
    /// `f(..)`.
    Plain(String),
    /// A call of something else (`a.b.c(..)`, `fns[i](..)`).
    Other,
}

/// The calls of `code`: each `(` after a name or a selector.
fn calls(code: &str) -> Vec<Call> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (i, c) in b.iter().enumerate() {
        if *c != b'(' || i == 0 {
            continue;
        }
        let mut j = i;
        while j > 0 && (b[j - 1].is_ascii_alphanumeric() || b[j - 1] == b'_' || b[j - 1] == b'.') {
            j -= 1;
        }
        let callee = &code[j..i];
        if callee.is_empty() {
            // `(x)(..)`, `f()(..)`, a type assertion `.(T)`, grouping.
            continue;
        }
        // `func(..)` of a literal, keywords before a parenthesis.
        if matches!(
            callee,
            "func" | "if" | "for" | "switch" | "return" | "range" | "go" | "defer"
        ) {
            continue;
        }
        if callee.ends_with('.') {
            // A type assertion `x.(T)`.
            continue;
        }
        let parts: Vec<&str> = callee.split('.').collect();
        out.push(match parts.as_slice() {
            [f] if !f.is_empty() && !f.as_bytes()[0].is_ascii_digit() => Call::Plain(f.to_string()),
            [x, f] if !x.is_empty() => Call::Qualified(x.to_string(), f.to_string()),
            // `json.NewEncoder(f).Encode(v)`: a method of what a call
            // gave, which is judged as a call itself.
            ["", f] if !f.is_empty() && j > 0 && b[j - 1] == b')' => continue,
            _ => Call::Other,
        });
        if out.len() > 4_096 {
            out.push(Call::Other);
            break;
        }
    }
    out
}

/// The names of `code` with the character after each.
fn words(code: &str) -> impl Iterator<Item = (&str, Option<char>)> {
    let mut rest = code;
    std::iter::from_fn(move || {
        loop {
            let start = rest.find(|c: char| c.is_alphanumeric() || c == '_')?;
            let after = &rest[start..];
            let len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let w = &after[..len];
            // A name starts after a character that is not `.` (`a.os` is
            // no package).
            let prev = rest[..start].chars().last();
            rest = &after[len..];
            if prev != Some('.') {
                return Some((w, rest.chars().next()));
            }
        }
    })
}

/// Whether a body's every address is a loopback one and a dialer is
/// bound to it: `LocalAddr:` set, and each `net.ResolveTCPAddr(..)`,
/// `ResolveUDPAddr(..)` and `ParseIP(..)` given a literal `127.x`,
/// `::1` or `localhost` address (one at least).
fn loopback_dialer(body: &str) -> bool {
    if !body.contains("LocalAddr:") {
        return false;
    }
    let mut seen = false;
    for head in ["net.ResolveTCPAddr(", "net.ResolveUDPAddr(", "net.ParseIP("] {
        for (i, _) in body.match_indices(head) {
            let args = &body[i + head.len()..];
            let args = &args[..args.find(')').unwrap_or(args.len())];
            let Some(addr) = args.rsplit(',').next().map(str::trim) else {
                return false;
            };
            let Some(addr) = addr.strip_prefix('"').and_then(|a| a.strip_suffix('"')) else {
                return false;
            };
            let host = addr.trim_start_matches('[');
            if !(host.starts_with("127.")
                || host.starts_with("::1")
                || host.starts_with("localhost"))
            {
                return false;
            }
            seen = true;
        }
    }
    seen
}

/// The parameters of `func name(..)` whose type is a builtin or a type of
/// a local standard package (`netip.Addr`, `*x509.Certificate`).
fn value_parameters(text: &str, name: &str, imports: &[(String, String)]) -> Vec<String> {
    let head = format!("func {name}(");
    let Some(at) = text
        .match_indices(&head)
        .find(|(i, _)| *i == 0 || text.as_bytes()[i - 1] == b'\n')
        .map(|(i, _)| i + head.len())
    else {
        return Vec::new();
    };
    let list = &text[at..];
    let Some(list) = list.find(')').map(|e| &list[..e]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // `a, b T`: names without a type take the next one's.
    let mut pending: Vec<&str> = Vec::new();
    for part in list.split(',').take(32) {
        let mut words = part.split_whitespace();
        let Some(n) = words.next() else { continue };
        let Some(ty) = words.next() else {
            pending.push(n);
            continue;
        };
        pending.push(n);
        let ty = ty.trim_start_matches(['*', '[', ']']);
        let local = match ty.split_once('.') {
            Some((pkg, _)) => imports
                .iter()
                .any(|(a, p)| a == pkg && LOCAL_STD.contains(&p.as_str())),
            None => BUILTINS.contains(&ty),
        };
        if local {
            out.extend(pending.iter().map(|p| p.to_string()));
        }
        pending.clear();
    }
    out
}

/// The body of `func name(..)` (not a method), braces included.
fn body<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let head = format!("func {name}(");
    let at = text
        .match_indices(&head)
        .find(|(i, _)| *i == 0 || text.as_bytes()[i - 1] == b'\n')?
        .0;
    let open = at + text[at..].find("{\n").or_else(|| text[at..].find('{'))?;
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return text.get(open..open + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `code` without comments and string literals (their text could hold
/// parentheses or names).
fn strip(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' | '`' | '\'' => {
                let mut escaped = false;
                for d in chars.by_ref() {
                    if c != '`' && d == '\\' && !escaped {
                        escaped = true;
                        continue;
                    }
                    if d == c && !escaped {
                        break;
                    }
                    escaped = false;
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

/// The file's imports: (the name it uses, the path).
fn imports(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut block = false;
    for line in text.lines().take(2_000) {
        let l = line.split("//").next().unwrap_or("").trim();
        let spec = if let Some(r) = l.strip_prefix("import") {
            let r = r.trim();
            if r.starts_with('(') {
                block = true;
                continue;
            }
            r
        } else if block {
            if l.starts_with(')') {
                block = false;
                continue;
            }
            l
        } else {
            continue;
        };
        let (alias, path) = match spec.split_once(char::is_whitespace) {
            Some((a, p)) if !a.starts_with('"') => (Some(a), p.trim()),
            _ => (None, spec),
        };
        let path = path.trim_matches('"');
        if path.is_empty() {
            continue;
        }
        let alias = alias.map_or_else(
            || super::pkg::default_name(path).to_string(),
            str::to_string,
        );
        out.push((alias, path.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::local_function;

    const FILE: &str = r#"package crds

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"os"
	"path/filepath"
)

func CheckCerts(dir string) error {
	// Read the files another controller writes (http.Get is not called).
	ca, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
	if err != nil {
		return err
	}
	ok, err := validCert(ca)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("certificate is not valid")
	}
	return nil
}

func validCert(ca []byte) (bool, error) {
	pool := x509.NewCertPool()
	b, _ := pem.Decode(ca)
	crt, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return false, err
	}
	pool.AddCert(crt)
	_, err = tls.X509KeyPair(ca, ca)
	return err == nil, err
}

func Fetch(url string) error {
	_, err := http.Get(url)
	return err
}

func Verify(c *Client, dir string) error {
	if err := CheckCerts(dir); err != nil {
		return err
	}
	return c.Ping()
}
"#;

    #[test]
    fn local_work_is_told_from_calls() {
        assert!(local_function(FILE, "CheckCerts"));
        assert!(local_function(FILE, "validCert"));
        assert!(!local_function(FILE, "Fetch"));
        // A parameter's method: a client, maybe.
        assert!(!local_function(FILE, "Verify"));
        assert!(!local_function(FILE, "Missing"));
        // A method of a call's result is judged by that call.
        let lock = "package t\nimport (\n\t\"encoding/json\"\n\t\"os\"\n\t\"github.com/shirou/gopsutil/v4/process\"\n)\n\nfunc write(path string) error {\n\tf, err := os.Create(path)\n\tif err != nil {\n\t\treturn err\n\t}\n\tp, _ := process.NewProcess(int32(os.Getpid()))\n\t_, _ = p.CreateTime()\n\treturn json.NewEncoder(f).Encode(1)\n}\n\nfunc send(c *Client) error {\n\treturn c.Conn().Write(nil)\n}\n";
        assert!(local_function(lock, "write"));
        assert!(!local_function(lock, "send"));
    }

    #[test]
    fn a_dial_from_a_loopback_address_stays_on_the_host() {
        let text = "package v\nimport (\n\t\"net\"\n\t\"net/netip\"\n)\n\nfunc local(ip netip.Addr, port string) error {\n\tladdr, err := net.ResolveTCPAddr(\"tcp\", \"127.0.0.1:0\")\n\tif err != nil {\n\t\treturn err\n\t}\n\td := net.Dialer{LocalAddr: laddr}\n\tc, err := d.Dial(\"tcp\", net.JoinHostPort(ip.String(), port))\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn c.Close()\n}\n\nfunc peer(addr string) error {\n\tladdr, _ := net.ResolveTCPAddr(\"tcp\", \"10.0.0.5:0\")\n\td := net.Dialer{LocalAddr: laddr}\n\t_, err := d.Dial(\"tcp\", addr)\n\treturn err\n}\n\nfunc plain(addr string) error {\n\t_, err := net.Dial(\"tcp\", \"127.0.0.1:80\")\n\treturn err\n}\n\nfunc other(c *Client, ip netip.Addr) error {\n\treturn c.Ping(ip.String())\n}\n";
        assert!(local_function(text, "local"));
        // A source address off the host, a dial with no local address, a
        // parameter of another type: not known to be local.
        assert!(!local_function(text, "peer"));
        assert!(!local_function(text, "plain"));
        assert!(!local_function(text, "other"));
    }
}
