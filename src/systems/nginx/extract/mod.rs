//! nginx: the retry policy of every `proxy_pass`, `grpc_pass`,
//! `fastcgi_pass`, `uwsgi_pass`, `scgi_pass` and `memcached_pass`, with the
//! settings it inherits, the upstream it calls and that upstream's size.
//!
//! Semantics (nginx `src/http/ngx_http_upstream.c`,
//! `ngx_http_upstream_round_robin.c`, the `*_next_upstream_masks` of each
//! module, and the ngx_http_proxy_module documentation):
//!
//! - `*_next_upstream` defaults to `error timeout`; values are matched
//!   case-insensitively and an unknown one stops nginx (RL902); `off`
//!   anywhere in the list turns passing to the next server off; several
//!   directives in one block add up.
//! - `*_next_upstream_tries` counts every try, the first included; `0`
//!   (the default) means no limit, so the tries are bounded by the servers
//!   of the upstream (`down` ones excluded, `backup` ones included), one
//!   try per address. A host name may resolve to several addresses, so a
//!   written limit above the number of servers listed is kept as written.
//! - `*_next_upstream_timeout` (default `0`, no limit) stops new tries once
//!   it has elapsed; connect/read/send timeouts default to 60s. A try that
//!   fails is given up after at most connect + read timeout.
//! - A request with a non-idempotent method (POST, LOCK, PATCH) is not
//!   passed on once it was sent, unless `non_idempotent` is listed
//!   (1.9.13+): the policy's methods are `IdempotentOnly` without it and
//!   every method, POST/LOCK/PATCH named, with it.
//! - A request whose body is sent unbuffered is never passed on once sent
//!   (`u->request_sent && r->request_body_no_buffering`): always for gRPC
//!   (`ngx_http_grpc_handler` sets it), and with `*_request_buffering off`.
//!   Only failures before sending (`error`, `timeout`) are then retried.
//! - The next server is tried at once: no backoff, by design
//!   (`platform_backoff`).
//! - A directive in an inner block replaces the outer one entirely
//!   (`ngx_conf_merge_*_value`): the nearest block that writes a setting
//!   wins, up to the top of the file. A file with no `http` block (a
//!   `conf.d/` or `snippets/` fragment) is read as the blocks it has.
//! - `include` is recorded in [`Facts::includes`] for link time; this
//!   extractor never opens another file. nginx resolves a relative include
//!   against its configuration prefix (the directory of the main
//!   `nginx.conf`, `ngx_conf_full_name`), not against the including file;
//!   a pattern with `*`, `?` or `[` is a glob that may match nothing, a
//!   plain path that does not exist stops nginx. The included text is read
//!   in the block named by [`IncludeRef::context`], so it inherits the
//!   settings in force there: each `include` records them
//!   ([`IncludeRef::inherited`]) and the link
//!   step reads the included file again with [`extract_included`]. Upstream
//!   names are global to `http`: a file's own `upstream` blocks
//!   ([`Facts::upstreams`]) are seen by every file of the same include
//!   tree. The other way round, the settings a file writes outside any
//!   block ([`Facts::top_level`], a `snippets/` file of
//!   `proxy_next_upstream_tries 3;`) count as written in the block that
//!   includes it, at the `include`, after that block's own (which win).
//!
//! The `stream` module's `proxy_next_upstream` (on/off, connect failures
//! only) and `mail` are recognised and left alone.

pub mod lexer;
pub mod parser;
pub mod shipped;

use crate::diag::{invalid_setting, unknown_setting, unparsable_file};
use crate::extract::Facts;
use crate::model::*;
use crate::source::{LineIndex, Span};
use memchr::memmem;
use parser::{Arg, Config, Directive};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

pub mod envsubst;
mod include;
mod pass;
mod settings;

use pass::*;

/// One upstream module and the values its `*_next_upstream` accepts.
pub struct Family {
    pub prefix: &'static str,
    pub values: &'static [&'static str],
}

const HTTP_VALUES: &[&str] = &[
    "error",
    "timeout",
    "invalid_header",
    "non_idempotent",
    "http_500",
    "http_502",
    "http_503",
    "http_504",
    "http_403",
    "http_404",
    "http_429",
    "updating",
    "off",
];
const GRPC_VALUES: &[&str] = &[
    "error",
    "timeout",
    "invalid_header",
    "non_idempotent",
    "http_500",
    "http_502",
    "http_503",
    "http_504",
    "http_403",
    "http_404",
    "http_429",
    "off",
];
/// fastcgi, uwsgi and scgi have no 502/504 conditions.
const CGI_VALUES: &[&str] = &[
    "error",
    "timeout",
    "invalid_header",
    "non_idempotent",
    "http_500",
    "http_503",
    "http_403",
    "http_404",
    "http_429",
    "updating",
    "off",
];
const MEMCACHED_VALUES: &[&str] = &["error", "timeout", "invalid_response", "not_found", "off"];

pub const FAMILIES: &[Family] = &[
    Family {
        prefix: "proxy",
        values: HTTP_VALUES,
    },
    Family {
        prefix: "grpc",
        values: GRPC_VALUES,
    },
    Family {
        prefix: "fastcgi",
        values: CGI_VALUES,
    },
    Family {
        prefix: "uwsgi",
        values: CGI_VALUES,
    },
    Family {
        prefix: "scgi",
        values: CGI_VALUES,
    },
    Family {
        prefix: "memcached",
        values: MEMCACHED_VALUES,
    },
];

/// Variables that add to the path of a `*_pass` URL, not to its host.
const PATH_VARIABLES: &[&str] = &["request_uri", "uri", "is_args", "args", "query_string"];

/// Directives that make a request body unbuffered (`off`): such a request
/// is never passed to the next server once sent.
const BUFFERING: &[&str] = &[
    "proxy_request_buffering",
    "fastcgi_request_buffering",
    "uwsgi_request_buffering",
    "scgi_request_buffering",
];

/// The retry and timeout directives of each family, without the prefix.
const SUFFIXES: &[&str] = &[
    "_next_upstream",
    "_next_upstream_tries",
    "_next_upstream_timeout",
    "_connect_timeout",
    "_read_timeout",
    "_send_timeout",
];

/// The methods passed to the next server once `non_idempotent` is listed:
/// every method, the ones nginx otherwise holds back (POST, LOCK, PATCH)
/// first.
pub const NON_IDEMPOTENT_METHODS: &[&str] = &[
    "POST", "LOCK", "PATCH", "GET", "HEAD", "PUT", "DELETE", "OPTIONS",
];

/// `Methods` for a policy that lists `non_idempotent`.
pub fn non_idempotent_methods() -> Methods {
    Methods::Set(
        NON_IDEMPOTENT_METHODS
            .iter()
            .map(|m| m.to_string())
            .collect(),
    )
}

/// nginx's default for the connect, read and send timeouts.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Directives that only nginx configurations have: enough to claim any
/// `*.conf` file.
const STRONG_SNIFF: &[&str] = &[
    "proxy_pass ",
    "fastcgi_pass ",
    "grpc_pass ",
    "uwsgi_pass ",
    "_next_upstream",
    "server_name ",
    "worker_processes ",
    "worker_connections ",
    "upstream ",
    "proxy_set_header ",
    "location /",
    "location ~",
    "location =",
    "location ^~",
    "location @",
];
/// Directives that are enough in a file under an nginx-looking directory
/// or with `nginx` in its name.
const WEAK_SNIFF: &[&str] = &[
    "listen ",
    "server {",
    "location ",
    "include ",
    "add_header ",
    "return ",
];
const NGINX_DIRS: &[&str] = &[
    "conf.d",
    "sites-available",
    "sites-enabled",
    "snippets",
    "http.d",
    "vhosts.d",
    "templates",
];

/// Folders whose files nginx configurations include whatever their name
/// (Debian's `/etc/nginx` layout: `sites-available/default`,
/// `snippets/proxy_params`).
const ANY_NAME_DIRS: &[&str] = &["sites-available", "sites-enabled", "snippets"];

/// Extensions of source and document files: a `snippets/` folder of code
/// samples (googleapis/python-pubsub `samples/snippets/publisher.py`) holds
/// no nginx include, while Debian's includes have no extension
/// (`proxy_params`), `.conf`, or a host name (`example.com`).
const NOT_NGINX_EXTENSIONS: &[&str] = &[
    "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "java", "kt", "scala", "rs", "go", "cs", "rb",
    "php", "c", "h", "cc", "cpp", "hpp", "swift", "sh", "ps1", "md", "rst", "txt", "html", "css",
    "json", "yml", "yaml", "xml", "toml", "ipynb", "sql", "proto", "lock",
];

/// Whether a file's name ends in the extension of another language or
/// format ([`NOT_NGINX_EXTENSIONS`]).
fn other_language(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| NOT_NGINX_EXTENSIONS.contains(&ext))
}

/// Whether a folder of `path` (its parent's components) is one of
/// [`ANY_NAME_DIRS`]: the parent's bytes split at each separator, as
/// `Path::components` splits them (the pieces it leaves out, empty ones
/// and `.`, name none of those folders), without its parsing; asked of
/// every file the scan reads.
pub fn under_any_name_dir(path: &Path) -> bool {
    path.parent().is_some_and(|p| {
        p.as_os_str()
            .as_encoded_bytes()
            .split(|&b| std::path::is_separator(char::from(b)))
            .any(|d| {
                ANY_NAME_DIRS
                    .iter()
                    .any(|n| d.eq_ignore_ascii_case(n.as_bytes()))
            })
    })
}

/// Whether a file is an nginx configuration: `nginx.conf` by name, a
/// `*.conf` (or `*.conf.template`) whose content looks like nginx, with a
/// lower bar under an nginx-looking directory or with `nginx` in its
/// name; any file under `sites-available`/`sites-enabled`/`snippets` that looks like
/// nginx.
pub fn claims(path: &Path, name: &str, bytes: &[u8]) -> bool {
    if name == "nginx.conf" {
        return true;
    }
    let conf = name.ends_with(".conf")
        || name.ends_with(".conf.template")
        || name.ends_with(".conf.tmpl")
        || name.ends_with(".nginx");
    // Most files are neither: decided without collecting the folders.
    if !conf && !under_any_name_dir(path) {
        return false;
    }
    let dirs: Vec<String> = path
        .parent()
        .into_iter()
        .flat_map(|p| p.components())
        .map(|c| c.as_os_str().to_string_lossy().to_ascii_lowercase())
        .collect();
    let nginx_dir = dirs
        .iter()
        .any(|d| d.contains("nginx") || NGINX_DIRS.contains(&d.as_str()));
    let sites = dirs.iter().any(|d| ANY_NAME_DIRS.contains(&d.as_str())) && !other_language(name);
    if !conf && !sites {
        return false;
    }
    let has = |needles: &[&str]| {
        needles
            .iter()
            .any(|n| memmem::find(bytes, n.as_bytes()).is_some())
    };
    // A directive ends with `;` or opens a block: INI-style files
    // (`key = value`, `;` comments: php-fpm, supervisord) have no such line.
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let nginx_shaped = head.split(|&b| b == b'\n').any(|line| {
        let t = line.trim_ascii();
        matches!(t.last(), Some(b';' | b'{' | b'}'))
            && !matches!(t.first(), Some(b';' | b'#' | b'['))
    });
    nginx_shaped
        && (has(STRONG_SNIFF) || ((nginx_dir || name.contains("nginx")) && has(WEAK_SNIFF)))
}

/// Parse and read one nginx file.
pub fn extract(text: &str, facts: &mut Facts) {
    extract_included(text, facts, &Inherited::default());
}

/// What an included file inherits from the file that includes it: the
/// retry and timeout directives in force at the `include`, and the
/// `upstream` blocks of its include tree (looked up by name only when a
/// pass calls a name this file does not define).
#[derive(Clone, Debug, Default)]
pub struct Inherited<'a> {
    pub directives: &'a [InheritedDirective],
    pub upstreams: &'a [InheritedUpstream],
    /// The top-level settings of files this one includes (a snippet of
    /// `proxy_next_upstream_tries 3;` included in a `location`), by the
    /// index of the `include` in [`Facts::includes`]: they count as written
    /// in the block of the `include`, at its line.
    pub included: &'a [(usize, Vec<InheritedDirective>)],
}

/// [`extract`] for a file read inside another's block (an `include`): a
/// setting the file does not write is taken from `outer`, as nginx merges
/// an inner block's settings with the enclosing ones. Outer values apply
/// at this file's passes (their spans) and the policy names the file that
/// writes them ([`RetryPolicy::settings_from`]).
pub fn extract_included(text: &str, facts: &mut Facts, outer: &Inherited<'_>) {
    facts.claimed_by("nginx");
    let cfg = match parser::parse(text) {
        Ok(c) => c,
        Err(e) => {
            let lines = LineIndex::new(text);
            let line = lines.line_text(text, lines.line_of(e.span.start.min(text.len())));
            let templated = (text.contains("{{") && text.contains("}}")) || text.contains("{%");
            let d = if templated {
                unparsable_file::templated(
                    e.span,
                    &format!(
                        "did not parse as nginx configuration (Jinja/Go template): {} at `{}`",
                        e.message.trim_end_matches('.'),
                        unparsable_file::excerpt(line)
                    ),
                )
            } else {
                unparsable_file::syntax(
                    e.span,
                    &e.message,
                    line,
                    "fix the syntax: nginx refuses to load this file too (`nginx -t`)",
                )
            };
            facts.diagnostics.push(d);
            return;
        }
    };
    // The included files' settings, as directives of the including block
    // placed at the `include` (after every real directive, which they do
    // not replace).
    let mut cfg = cfg;
    let includes: Vec<usize> = (0..cfg.directives.len())
        .filter(|&i| cfg.get(i).name == "include" && cfg.get(i).arg(0).is_some())
        .collect();
    let mut synthetic = HashMap::new();
    for (k, settings) in outer.included {
        let Some(&at) = includes.get(*k) else {
            continue;
        };
        let (parent, span) = (cfg.get(at).parent, cfg.get(at).head_span());
        for d in settings {
            synthetic.insert(cfg.directives.len(), d.from.clone());
            cfg.directives.push(Directive {
                name: d.name.clone(),
                name_span: span,
                args: d
                    .args
                    .iter()
                    .map(|a| Arg {
                        value: a.clone(),
                        span,
                        quoted: false,
                    })
                    .collect(),
                span,
                parent,
                children: Vec::new(),
                is_block: false,
                raw_body: None,
            });
        }
    }
    let mut reader = Reader::new(&cfg, facts);
    reader.inherit(outer);
    reader.outer_upstreams = outer.upstreams;
    reader.synthetic = synthetic;
    reader.run();
}

/// A checked value of a retry or timeout directive.
#[derive(Clone, Debug)]
enum Value {
    Mask(Mask),
    Tries(u64),
    Time(Duration),
    /// `*_request_buffering on|off`.
    Flag(bool),
}

#[derive(Clone, Debug, Default)]
struct Mask {
    /// (token as written, span), valid tokens only.
    tokens: Vec<(String, Span)>,
    off: bool,
    non_idempotent: Option<Span>,
}

/// A server of an upstream block.
#[derive(Clone, Debug)]
struct Server {
    host: String,
    /// An IP literal or a unix socket: exactly one address.
    literal: bool,
    down: bool,
    resolve: bool,
}

#[derive(Clone, Debug)]
struct Upstream {
    name: String,
    servers: Vec<Server>,
    /// Peers chosen by Lua (`balancer_by_lua*`): their number is unknown.
    dynamic: bool,
}

/// Where a setting a pass uses is: written in this file at `span`, or
/// inherited from an including file and placed at the pass (`span`).
#[derive(Clone, Copy, Debug)]
struct At {
    span: Span,
    included: bool,
}

impl At {
    fn written(span: Span) -> Self {
        At {
            span,
            included: false,
        }
    }
    fn included(span: Span) -> Self {
        At {
            span,
            included: true,
        }
    }
    fn with_span(self, span: Span) -> Self {
        At { span, ..self }
    }
    fn put<T>(self, value: T) -> Located<T> {
        if self.included {
            Located::included(value, self.span)
        } else {
            Located::written(value, self.span)
        }
    }
}

/// What a `*_pass` calls.
#[derive(Clone, Debug)]
enum Target {
    /// An `upstream` block of this file.
    Upstream(usize),
    /// A host name or address, with or without a port.
    Host {
        host: String,
        literal: bool,
    },
    Unix,
    /// Set by variables at run time.
    Variable,
}

struct Reader<'c, 'f> {
    cfg: &'c Config,
    facts: &'f mut Facts,
    values: HashMap<usize, Value>,
    /// (enclosing block, directive name) -> the directives with a valid
    /// value there, so that a lookup costs the depth, not the block size.
    by_block: HashMap<(Option<usize>, &'c str), Vec<usize>>,
    upstreams: Vec<Upstream>,
    /// Lower-case upstream name -> index of its first definition.
    upstream_index: HashMap<String, usize>,
    /// Settings inherited from an including file, by directive name: the
    /// checked values and where each is written.
    outer: HashMap<String, Vec<(Value, Option<SettingPlace>)>>,
    /// The same as written, passed on to this file's own includes.
    outer_raw: Vec<InheritedDirective>,
    /// Upstreams of the include tree, looked up by name on demand.
    outer_upstreams: &'c [InheritedUpstream],
    /// The files the pass being read took a setting from.
    used_from: Vec<SettingPlace>,
    /// Directives that stand for an included file's settings (by index),
    /// and where they are written.
    synthetic: HashMap<usize, Option<SettingPlace>>,
}

impl<'c, 'f> Reader<'c, 'f> {
    fn new(cfg: &'c Config, facts: &'f mut Facts) -> Self {
        Reader {
            cfg,
            facts,
            values: HashMap::new(),
            by_block: HashMap::new(),
            upstreams: Vec::new(),
            upstream_index: HashMap::new(),
            outer: HashMap::new(),
            outer_raw: Vec::new(),
            outer_upstreams: &[],
            used_from: Vec::new(),
            synthetic: HashMap::new(),
        }
    }

    /// Whether directive `i` is inside `stream { }` or `mail { }`.
    fn outside_http(&self, i: usize) -> bool {
        self.cfg
            .ancestors(i)
            .iter()
            .any(|&a| matches!(self.cfg.get(a).name.as_str(), "stream" | "mail"))
    }

    fn run(mut self) {
        let cfg = self.cfg;
        let mut includes = Vec::new();
        for (i, d) in cfg.directives.iter().enumerate() {
            if d.name == "include" {
                includes.push(i);
                continue;
            }
            if self.outside_http(i) {
                continue;
            }
            if d.name == "upstream" && d.is_block {
                self.upstream(d);
                continue;
            }
            if self.synthetic.contains_key(&i) {
                self.keep_included(i, d);
                continue;
            }
            self.check_directive(i, d);
        }
        // The retry and timeout settings written outside any block, for a
        // file that includes this one inside a block.
        self.facts.top_level = self.top_level();
        // An upstream of this file wins over one of the tree with the same
        // name (nginx refuses the duplicate; the nearer one is the likelier
        // meant).
        self.adopt_outer_upstreams();
        // This file's upstreams, for the files the same main configuration
        // includes (upstream names are global to `http`).
        self.facts.upstreams = self.own_upstreams();
        // After every setting is known: the order of directives in a block
        // does not matter to nginx.
        for i in includes {
            self.include(i);
        }
        for (i, d) in cfg.directives.iter().enumerate() {
            if let Some(family) = pass_family(&d.name)
                && !self.outside_http(i)
            {
                self.pass(i, d, family);
            }
        }
    }

    fn upstream(&mut self, d: &Directive) {
        let Some(name) = d.arg(0) else { return };
        let cfg = self.cfg;
        let dynamic = d
            .children
            .iter()
            .any(|&c| cfg.get(c).name.starts_with("balancer_by_lua"));
        let servers = d
            .children
            .iter()
            .map(|&c| cfg.get(c))
            .filter(|s| s.name == "server" && !s.args.is_empty())
            .map(|s| {
                let flags: Vec<&str> = s.args[1..].iter().map(|a| a.value.as_str()).collect();
                (s.args[0].value.as_str(), flags)
            });
        self.add_upstream(&name.value, servers, dynamic);
    }

    /// An upstream of `server` lines (address, flags); the first definition
    /// of a name is the one `*_pass` finds.
    fn add_upstream<'s>(
        &mut self,
        name: &str,
        servers: impl Iterator<Item = (&'s str, Vec<&'s str>)>,
        dynamic: bool,
    ) {
        let servers = servers
            .filter(|(addr, _)| !addr.is_empty())
            .map(|(addr, flags)| {
                let (host, literal) = address(addr);
                Server {
                    host,
                    literal,
                    down: flags.contains(&"down"),
                    resolve: flags.contains(&"resolve"),
                }
            })
            .collect();
        self.upstream_index
            .entry(name.to_ascii_lowercase())
            .or_insert(self.upstreams.len());
        self.upstreams.push(Upstream {
            name: name.to_string(),
            servers,
            dynamic,
        });
    }
}

/// `proxy_pass` and the like: their family.
fn pass_family(name: &str) -> Option<&'static Family> {
    let prefix = name.strip_suffix("_pass")?;
    FAMILIES.iter().find(|f| f.prefix == prefix)
}

/// A retry or timeout directive: its family and suffix.
fn split_name(name: &str) -> Option<(&'static Family, &'static str)> {
    for f in FAMILIES {
        if let Some(rest) = name.strip_prefix(f.prefix)
            && let Some(s) = SUFFIXES.iter().find(|s| **s == rest)
        {
            return Some((f, s));
        }
    }
    None
}

/// `location /api`, `server`, `if`.
fn block_label(d: &Directive) -> String {
    if d.args.is_empty() {
        d.name.clone()
    } else {
        let args: Vec<&str> = d.args.iter().map(|a| a.value.as_str()).collect();
        format!("{} {}", d.name, args.join(" "))
    }
}

/// One `*_next_upstream` value as a condition.
pub fn condition(token: &str) -> Condition {
    if let Some(code) = token
        .strip_prefix("http_")
        .and_then(|c| c.parse::<u16>().ok())
    {
        return Condition::status(code);
    }
    match token {
        "not_found" => Condition::status(404),
        t => Condition::Transport(t.to_string()),
    }
}

pub use crate::duration::parse_nginx as parse_time;

#[cfg(test)]
mod tests;
