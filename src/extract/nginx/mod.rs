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

use super::Facts;
use crate::diag::{invalid_setting, unknown_setting, unparsable_file};
use crate::model::*;
use crate::source::{LineIndex, Span};
use memchr::memmem;
use parser::{Arg, Config, Directive};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

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

/// Whether a file is an nginx configuration: `nginx.conf` by name, a
/// `*.conf` (or `*.conf.template`) whose content looks like nginx, with a
/// lower bar under an nginx-looking directory or with `nginx` in its
/// name; any file under `sites-available`/`sites-enabled` that looks like
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
    if !conf
        && !path.parent().is_some_and(|p| {
            p.components().any(|c| {
                let c = c.as_os_str().as_encoded_bytes();
                c.eq_ignore_ascii_case(b"sites-available")
                    || c.eq_ignore_ascii_case(b"sites-enabled")
            })
        })
    {
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
    let sites = dirs
        .iter()
        .any(|d| d == "sites-available" || d == "sites-enabled");
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
            let (reason, help) = if templated {
                (
                    format!(
                        "templated file (Jinja/Go template) did not parse as nginx configuration: {}",
                        e.message
                    ),
                    "render the template before checking it, or exclude it with `--exclude`",
                )
            } else {
                (
                    e.message.clone(),
                    "fix the syntax: nginx refuses to load this file too (`nginx -t`)",
                )
            };
            facts
                .diagnostics
                .push(unparsable_file::syntax(e.span, &reason, line, help));
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
    outer: HashMap<String, Vec<(Value, String)>>,
    /// The same as written, passed on to this file's own includes.
    outer_raw: Vec<InheritedDirective>,
    /// Upstreams of the include tree, looked up by name on demand.
    outer_upstreams: &'c [InheritedUpstream],
    /// The files the pass being read took a setting from.
    used_from: Vec<String>,
    /// Directives that stand for an included file's settings (by index),
    /// and where they are written.
    synthetic: HashMap<usize, String>,
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

    /// Take the settings an including file hands down. Their values are
    /// checked as this file's are, but a problem with one is the including
    /// file's to report (it was, when that file was read).
    fn inherit(&mut self, outer: &Inherited<'_>) {
        let empty = Config::default();
        let mut scratch = Facts::default();
        let mut checker = Reader::new(&empty, &mut scratch);
        for d in outer.directives {
            let dir = Directive {
                name: d.name.clone(),
                name_span: Span::default(),
                args: d
                    .args
                    .iter()
                    .map(|a| Arg {
                        value: a.clone(),
                        span: Span::default(),
                        quoted: false,
                    })
                    .collect(),
                span: Span::default(),
                parent: None,
                children: Vec::new(),
                is_block: false,
                raw_body: None,
            };
            if let Some(v) = checker.value_of(&dir) {
                self.outer
                    .entry(d.name.clone())
                    .or_default()
                    .push((v, d.from.clone()));
            }
        }
        self.outer_raw = outer.directives.to_vec();
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

    fn include(&mut self, i: usize) {
        let cfg = self.cfg;
        let d = cfg.get(i);
        let Some(arg) = d.arg(0) else { return };
        let context = match d.parent {
            None => "main".to_string(),
            Some(p) => block_label(cfg.get(p)),
        };
        // Every retry or timeout setting in force here: this file's nearest
        // one, else the one it inherited.
        let mut names: Vec<&str> = self.by_block.keys().map(|(_, n)| *n).collect();
        names.extend(self.outer_raw.iter().map(|d| d.name.as_str()));
        names.sort_unstable();
        names.dedup();
        let mut inherited = Vec::new();
        for name in names {
            let local = self.resolve(i, name);
            if local.is_empty() {
                inherited.extend(self.outer_raw.iter().filter(|d| d.name == name).cloned());
            }
            for j in local {
                let w = cfg.get(j);
                inherited.push(InheritedDirective {
                    name: w.name.clone(),
                    args: w.args.iter().map(|a| a.value.clone()).collect(),
                    span: w.head_span(),
                    from: String::new(),
                });
            }
        }
        self.facts.includes.push(IncludeRef {
            system: System::Nginx,
            pattern: arg.value.clone(),
            span: arg.span,
            context,
            inherited,
        });
    }

    /// The `upstream` blocks of this file (in `http`), as written.
    fn own_upstreams(&self) -> Vec<InheritedUpstream> {
        let cfg = self.cfg;
        cfg.directives
            .iter()
            .enumerate()
            .filter(|(j, u)| u.name == "upstream" && u.is_block && !self.outside_http(*j))
            .filter_map(|(_, u)| {
                Some(InheritedUpstream {
                    name: u.arg(0)?.value.clone(),
                    servers: u
                        .children
                        .iter()
                        .map(|&c| cfg.get(c))
                        .filter(|s| s.name == "server")
                        .map(|s| s.args.iter().map(|a| a.value.clone()).collect())
                        .collect(),
                    dynamic: u
                        .children
                        .iter()
                        .any(|&c| cfg.get(c).name.starts_with("balancer_by_lua")),
                })
            })
            .collect()
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

    /// Validate a retry or timeout directive (RL901/RL902) and keep its
    /// value.
    fn check_directive(&mut self, i: usize, d: &Directive) {
        if let Some(v) = self.value_of(d) {
            if let Value::Time(t) = &v
                && !d.name.ends_with("_next_upstream_timeout")
            {
                self.facts.timeouts.push(TimeoutSetting {
                    system: System::Nginx,
                    name: None,
                    what: d.name.clone(),
                    timeout: Located::written(Timeout::after(*t), d.head_span()),
                });
            }
            self.keep(i, d, v);
        }
    }

    /// The checked value of a retry or timeout directive; `None` (with a
    /// finding when it is wrong) for an invalid or unrelated one.
    fn value_of(&mut self, d: &Directive) -> Option<Value> {
        if BUFFERING.contains(&d.name.as_str()) {
            let a = self.one_arg(d)?;
            return match a.value.to_ascii_lowercase().as_str() {
                "on" => Some(Value::Flag(true)),
                "off" => Some(Value::Flag(false)),
                _ => {
                    self.facts.diagnostics.push(invalid_setting::value(
                        a.span,
                        &d.name,
                        &a.value,
                        "not `on` or `off`",
                    ));
                    None
                }
            };
        }
        let Some((family, suffix)) = split_name(&d.name) else {
            self.check_unknown(d);
            return None;
        };
        match suffix {
            "_next_upstream" => self.mask(d, family).map(Value::Mask),
            "_next_upstream_tries" => self.tries(d).map(Value::Tries),
            _ => self.time(d).map(Value::Time),
        }
    }

    /// An included file's setting: checked (quietly: the included file
    /// reports its own problems) and kept after the block's own, which win
    /// over it.
    fn keep_included(&mut self, i: usize, d: &Directive) {
        let empty = Config::default();
        let mut scratch = Facts::default();
        let Some(v) = Reader::new(&empty, &mut scratch).value_of(d) else {
            return;
        };
        let entry = self
            .by_block
            .entry((d.parent, self.cfg.get(i).name.as_str()))
            .or_default();
        if entry.is_empty() || matches!(v, Value::Mask(_)) {
            entry.push(i);
            self.values.insert(i, v);
        }
    }

    /// This file's valid retry and timeout directives outside any block.
    fn top_level(&self) -> Vec<InheritedDirective> {
        let mut out = Vec::new();
        for ((scope, _), hits) in &self.by_block {
            if scope.is_some() {
                continue;
            }
            for &j in hits {
                if self.synthetic.contains_key(&j) {
                    continue;
                }
                let w = self.cfg.get(j);
                out.push(InheritedDirective {
                    name: w.name.clone(),
                    args: w.args.iter().map(|a| a.value.clone()).collect(),
                    span: w.head_span(),
                    from: String::new(),
                });
            }
        }
        out.sort_by_key(|d| d.span.start);
        out
    }

    fn keep(&mut self, i: usize, d: &Directive, v: Value) {
        let entry = self
            .by_block
            .entry((d.parent, self.cfg.get(i).name.as_str()))
            .or_default();
        // Values add up for `*_next_upstream`; any other directive twice
        // in one block stops nginx ("is duplicate").
        if let Some(&first) = entry.first()
            && !matches!(v, Value::Mask(_))
        {
            self.facts.diagnostics.push(
                invalid_setting::value(
                    d.head_span(),
                    &d.name,
                    &d.args
                        .iter()
                        .map(|a| a.value.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    "it is already set in this block, and nginx refuses a duplicate",
                )
                .with_related(self.cfg.get(first).head_span(), "set here first"),
            );
            return;
        }
        entry.push(i);
        self.values.insert(i, v);
    }

    /// A family directive with a typo: `proxy_read_timout`,
    /// `proxy_next_upstream_try`.
    fn check_unknown(&mut self, d: &Directive) {
        for f in FAMILIES {
            let Some(rest) = d.name.strip_prefix(f.prefix) else {
                continue;
            };
            // Cheap tests first: most directives are nowhere near.
            let close = rest.starts_with("_next_upstream")
                || SUFFIXES.iter().any(|s| crate::keys::is_typo_of(rest, s));
            if close {
                let known: Vec<String> = SUFFIXES
                    .iter()
                    .map(|s| format!("{}{s}", f.prefix))
                    .collect();
                let known: Vec<&str> = known.iter().map(String::as_str).collect();
                self.facts
                    .diagnostics
                    .push(unknown_setting::unknown_directive(
                        d.name_span,
                        &d.name,
                        "nginx",
                        known.iter().copied(),
                    ));
            }
            return;
        }
    }

    fn mask(&mut self, d: &Directive, family: &Family) -> Option<Mask> {
        let mut mask = Mask::default();
        if d.args.is_empty() {
            self.facts.diagnostics.push(invalid_setting::value(
                d.name_span,
                &d.name,
                "",
                "it needs at least one condition (`error timeout` is the default)",
            ));
            return None;
        }
        for a in &d.args {
            let lower = a.value.to_ascii_lowercase();
            if !family.values.contains(&lower.as_str()) {
                self.facts.diagnostics.push(invalid_setting::unknown_token(
                    a.span,
                    &d.name,
                    &a.value,
                    family.values.iter().copied(),
                ));
                continue;
            }
            match lower.as_str() {
                "off" => mask.off = true,
                "non_idempotent" => mask.non_idempotent = Some(a.span),
                _ => {}
            }
            if family.prefix == "grpc" && !matches!(lower.as_str(), "error" | "timeout" | "off") {
                self.facts.diagnostics.push(unknown_setting::no_effect(
                    a.span,
                    &a.value,
                    "nginx sends gRPC requests unbuffered and never passes one to the next server once it was sent, so only `error` and `timeout` before sending are retried",
                    "remove it, or retry in the gRPC client (its service config can retry `UNAVAILABLE`)",
                ));
            }
            mask.tokens.push((lower, a.span));
        }
        Some(mask)
    }

    fn one_arg<'d>(&mut self, d: &'d Directive) -> Option<&'d Arg> {
        match d.args.as_slice() {
            [a] => Some(a),
            _ => {
                self.facts.diagnostics.push(invalid_setting::value(
                    d.head_span(),
                    &d.name,
                    &d.args
                        .iter()
                        .map(|a| a.value.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    "it takes exactly one value",
                ));
                None
            }
        }
    }

    fn tries(&mut self, d: &Directive) -> Option<u64> {
        let a = self.one_arg(d)?;
        match a.value.parse::<u64>() {
            Ok(n) if a.value.bytes().all(|b| b.is_ascii_digit()) => Some(n),
            _ => {
                self.facts.diagnostics.push(invalid_setting::value(
                    a.span,
                    &d.name,
                    &a.value,
                    "not a whole number (`0` means no limit)",
                ));
                None
            }
        }
    }

    fn time(&mut self, d: &Directive) -> Option<Duration> {
        let a = self.one_arg(d)?;
        match parse_time(&a.value) {
            Ok(t) => Some(t),
            Err(why) => {
                self.facts
                    .diagnostics
                    .push(invalid_setting::value(a.span, &d.name, &a.value, &why));
                None
            }
        }
    }

    /// The nearest block, from the one holding `at` outwards, that writes
    /// `name`: its directives with that name.
    fn resolve(&self, at: usize, name: &str) -> Vec<usize> {
        let mut scope = self.cfg.get(at).parent;
        loop {
            if let Some(hits) = self.by_block.get(&(scope, name)) {
                return hits.clone();
            }
            match scope {
                None => return Vec::new(),
                Some(s) => scope = self.cfg.get(s).parent,
            }
        }
    }

    /// The value of `name` in force at directive `at`: written in this
    /// file, else inherited (then placed at `at`, its origin noted).
    fn scalar(&mut self, at: usize, name: &str) -> Option<(Value, At)> {
        // A second scalar in one block is rejected by nginx; the first is
        // the one read.
        if let Some(&i) = self.resolve(at, name).first() {
            let span = self.cfg.get(i).head_span();
            let value = self.values.get(&i)?.clone();
            if let Some(from) = self.synthetic.get(&i).cloned() {
                self.note_from(from);
                return Some((value, At::included(span)));
            }
            return Some((value, At::written(span)));
        }
        let (v, from) = self.outer.get(name)?.first()?.clone();
        self.note_from(from);
        Some((v, At::included(self.cfg.get(at).head_span())))
    }

    fn note_from(&mut self, from: String) {
        if !from.is_empty() && !self.used_from.contains(&from) {
            self.used_from.push(from);
        }
    }

    /// The `*_next_upstream` masks in force at the pass `at`, merged, and
    /// the span they are read at; `None` when nothing sets one.
    fn masks(&mut self, at: usize, name: &str) -> Option<(Mask, At)> {
        let mut merged = Mask::default();
        let local = self.resolve(at, name);
        if local.is_empty() {
            let outer = self.outer.get(name)?.clone();
            let here = self.cfg.get(at).head_span();
            for (v, from) in outer {
                if let Value::Mask(v) = v {
                    merged.off |= v.off;
                    if v.non_idempotent.is_some() {
                        merged.non_idempotent = Some(here);
                    }
                    merged
                        .tokens
                        .extend(v.tokens.into_iter().map(|(t, _)| (t, here)));
                }
                self.note_from(from);
            }
            return Some((merged, At::included(here)));
        }
        let mut span: Option<Span> = None;
        let mut included = true;
        for m in &local {
            if let Some(Value::Mask(v)) = self.values.get(m) {
                merged.off |= v.off;
                merged.non_idempotent = merged.non_idempotent.or(v.non_idempotent);
                merged.tokens.extend(v.tokens.iter().cloned());
            }
            match self.synthetic.get(m).cloned() {
                Some(from) => self.note_from(from),
                None => included = false,
            }
            let s = self.cfg.get(*m).head_span();
            span = Some(span.map_or(s, |x| x.cover(s)));
        }
        let span = span?;
        Some((
            merged,
            if included {
                At::included(span)
            } else {
                At::written(span)
            },
        ))
    }

    fn pass(&mut self, i: usize, d: &Directive, family: &'static Family) {
        let Some(arg) = d.arg(0) else { return };
        let p = family.prefix;
        let target = self.target(&arg.value);
        let (count, exact, label) = self.peers(&target);
        let pass_span = d.head_span();
        self.used_from.clear();

        // A request body sent unbuffered (always for gRPC, with
        // `*_request_buffering off` for the others) is never passed to the
        // next server once sent (`ngx_http_upstream_next`).
        let unbuffered = p == "grpc"
            || matches!(
                self.scalar(i, &format!("{p}_request_buffering")),
                Some((Value::Flag(false), _))
            );

        // Conditions and methods.
        let masks = self.masks(i, &format!("{p}_next_upstream"));
        let (retry_on, methods) = if let Some((mut merged, at)) = masks {
            if unbuffered {
                // Nothing is passed on once sent: only failures before
                // the request is sent can be retried.
                merged
                    .tokens
                    .retain(|(t, _)| matches!(t.as_str(), "error" | "timeout" | "off"));
                merged.non_idempotent = None;
            }
            let on = if merged.off {
                RetryOn::Nothing
            } else {
                let conditions: Vec<_> = merged
                    .tokens
                    .iter()
                    .filter(|(t, _)| !matches!(t.as_str(), "non_idempotent" | "updating"))
                    .map(|(t, s)| at.with_span(*s).put(condition(t)))
                    .collect();
                if conditions.is_empty() {
                    RetryOn::Nothing
                } else {
                    RetryOn::Listed { conditions }
                }
            };
            let methods = match merged.non_idempotent {
                Some(s) => at.with_span(s).put(non_idempotent_methods()),
                None => at.put(Methods::IdempotentOnly),
            };
            (at.put(on), methods)
        } else {
            (
                Located::default_at(
                    RetryOn::Listed {
                        conditions: ["error", "timeout"]
                            .iter()
                            .map(|t| Located::default_at(condition(t), pass_span))
                            .collect(),
                    },
                    pass_span,
                ),
                Located::default_at(Methods::IdempotentOnly, pass_span),
            )
        };

        // Tries.
        let tries_name = format!("{p}_next_upstream_tries");
        let timeout_name = format!("{p}_next_upstream_timeout");
        let window = self.scalar(i, &timeout_name).and_then(|(v, s)| match v {
            Value::Time(t) => Some((t, s)),
            _ => None,
        });
        let attempts = match self.scalar(i, &tries_name) {
            Some((Value::Tries(n), at)) if n > 0 => {
                let (count, note) = match count {
                    Some(c) if exact && c < n => {
                        (c, format!(" (capped at the {c} server(s) of {label})"))
                    }
                    _ => (n, String::new()),
                };
                at.put(Attempts {
                    count: AttemptCount::Finite(count),
                    written_as: format!("{tries_name} {n}{note}"),
                })
            }
            Some((_, at)) => {
                // `0`: no limit but the servers.
                let count = match count {
                    Some(c) if exact => AttemptCount::Finite(c),
                    _ => AttemptCount::Unbounded,
                };
                at.put(Attempts {
                    count,
                    written_as: format!("{tries_name} 0"),
                })
            }
            None => Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(count.unwrap_or(1).max(1)),
                    written_as: format!("no {tries_name}: one try per server of {label}"),
                },
                pass_span,
            ),
        };

        // Per-try and overall timeouts.
        let connect = self.scalar(i, &format!("{p}_connect_timeout"));
        let read = self.scalar(i, &format!("{p}_read_timeout"));
        let time_of = |v: &Option<(Value, At)>| match v {
            Some((Value::Time(t), _)) => *t,
            _ => DEFAULT_TIMEOUT,
        };
        let per_try = Timeout::after(time_of(&connect).saturating_add(time_of(&read)));
        let per_try = match (&read, &connect) {
            (Some((_, s)), _) | (None, Some((_, s))) => s.put(per_try),
            (None, None) => Located::default_at(per_try, pass_span),
        };
        let overall = match window {
            Some((t, s)) if t.is_zero() => Some(s.put(Timeout::Disabled)),
            Some((t, s)) => Some(s.put(Timeout::after(t))),
            None if attempts.value.count == AttemptCount::Unbounded => {
                Some(Located::default_at(Timeout::Disabled, pass_span))
            }
            None => None,
        };

        let location = self
            .cfg
            .ancestors(i)
            .into_iter()
            .find(|&a| self.cfg.get(a).name == "location")
            .map(|a| block_label(self.cfg.get(a)));
        let name = location
            .clone()
            .unwrap_or_else(|| format!("{} {}", d.name, arg.value));
        let mut policy = RetryPolicy::new(System::Nginx, pass_span, attempts);
        policy.name = Some(name);
        policy.scope.route = location;
        policy.scope.callee = self.callee(&target).map(|c| Located::written(c, arg.span));
        policy.delay = Located::default_at(Delay::None, pass_span);
        policy.jitter = Located::default_at(Jitter::None, pass_span);
        policy.platform_backoff = true;
        policy.per_try_timeout = Some(per_try);
        policy.overall_timeout = overall;
        policy.retry_on = retry_on;
        policy.methods = methods;
        policy.settings_from = std::mem::take(&mut self.used_from);
        let idx = self.facts.policies.len();
        self.facts.policies.push(policy);

        let via = match &target {
            Target::Upstream(u) => {
                format!("nginx {} (upstream `{}`)", d.name, self.upstreams[*u].name)
            }
            _ => format!("nginx {}", d.name),
        };
        for callee in self.edge_callees(&target) {
            self.facts.edges.push(CallEdge {
                client: None,
                caller: None,
                callee,
                span: arg.span,
                policies: vec![idx],
                via: via.clone(),
            });
        }
    }

    fn target(&self, raw: &str) -> Target {
        let hostport = match hostport(raw) {
            Ok(h) => h,
            Err(t) => return t,
        };
        let has_port = port_of(hostport).is_some();
        if !has_port && let Some(&u) = self.upstream_index.get(&hostport.to_ascii_lowercase()) {
            return Target::Upstream(u);
        }
        let (host, literal) = address(hostport);
        Target::Host { host, literal }
    }

    /// Take the include tree's upstreams that this file's passes name and
    /// it does not define (names are global to `http`).
    fn adopt_outer_upstreams(&mut self) {
        if self.outer_upstreams.is_empty() {
            return;
        }
        let cfg = self.cfg;
        for (i, d) in cfg.directives.iter().enumerate() {
            if pass_family(&d.name).is_none() || self.outside_http(i) {
                continue;
            }
            let Some(Ok(name)) = d.arg(0).map(|a| hostport(&a.value)) else {
                continue;
            };
            if port_of(name).is_some()
                || self.upstream_index.contains_key(&name.to_ascii_lowercase())
            {
                continue;
            }
            let outer = self.outer_upstreams;
            if let Some(up) = outer.iter().find(|u| u.name.eq_ignore_ascii_case(name)) {
                let servers = up.servers.iter().map(|args| {
                    let flags: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
                    (args.first().map_or("", String::as_str), flags)
                });
                self.add_upstream(&up.name, servers, up.dynamic);
            }
        }
    }

    /// (tries the servers allow, whether that number is exact, a label).
    fn peers(&self, t: &Target) -> (Option<u64>, bool, String) {
        match t {
            Target::Upstream(u) => {
                let up = &self.upstreams[*u];
                let label = format!("upstream {}", up.name);
                let live: Vec<&Server> = up.servers.iter().filter(|s| !s.down).collect();
                if up.dynamic || live.is_empty() {
                    return (None, false, label);
                }
                let exact = live.iter().all(|s| s.literal && !s.resolve);
                (Some(live.len() as u64), exact, label)
            }
            Target::Host { host, literal } => (Some(1), *literal, host.clone()),
            Target::Unix => (Some(1), true, "the unix socket".into()),
            Target::Variable => (None, false, "the address set at run time".into()),
        }
    }

    fn callee(&self, t: &Target) -> Option<String> {
        match t {
            Target::Upstream(u) => Some(self.upstreams[*u].name.clone()),
            Target::Host { host, .. } => Some(super::short_host(host)),
            _ => None,
        }
    }

    /// The services a pass calls: the host names of an upstream's servers
    /// (its name when they are all addresses), or the host.
    fn edge_callees(&self, t: &Target) -> Vec<String> {
        match t {
            Target::Upstream(u) => {
                let up = &self.upstreams[*u];
                let mut out: Vec<String> = Vec::new();
                for s in up.servers.iter().filter(|s| !s.literal) {
                    let h = super::short_host(&s.host);
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
                if out.is_empty() {
                    out.push(up.name.clone());
                }
                out
            }
            Target::Host { host, .. } => vec![super::short_host(host)],
            _ => Vec::new(),
        }
    }
}

/// The `host[:port]` a `*_pass` argument names, or what it calls when
/// that is not a name (a unix socket, an address set by variables).
fn hostport(raw: &str) -> Result<&str, Target> {
    let rest = raw.split_once("://").map_or(raw, |(_, r)| r);
    if rest.starts_with("unix:") {
        return Err(Target::Unix);
    }
    let mut hostport = rest.split('/').next().unwrap_or(rest);
    // `http://backend$request_uri`: a variable that only adds the path
    // leaves the host as written.
    if let Some(i) = hostport.find('$') {
        let var = hostport[i + 1..].trim_start_matches('{');
        let path_var = PATH_VARIABLES.iter().any(|v| var.starts_with(v))
            || var.starts_with(|c: char| c.is_ascii_digit());
        if i > 0 && path_var {
            hostport = &hostport[..i];
        }
    }
    if hostport.contains('$') || raw.starts_with('$') || hostport.is_empty() {
        return Err(Target::Variable);
    }
    Ok(hostport)
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

fn port_of(hostport: &str) -> Option<&str> {
    let after = match hostport.rfind(']') {
        Some(i) => &hostport[i + 1..],
        None => hostport,
    };
    after
        .rsplit_once(':')
        .map(|(_, p)| p)
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The host of `host[:port]` and whether it is an IP literal or a unix
/// socket (one address, nothing to resolve).
fn address(raw: &str) -> (String, bool) {
    let rest = raw.split_once("://").map_or(raw, |(_, r)| r);
    if rest.starts_with("unix:") {
        return (rest.to_string(), true);
    }
    let hostport = rest.split('/').next().unwrap_or(rest);
    let host = if let Some(inner) = hostport.strip_prefix('[') {
        inner.split(']').next().unwrap_or(inner)
    } else {
        match port_of(hostport) {
            Some(_) => hostport.rsplit_once(':').map_or(hostport, |(h, _)| h),
            None => hostport,
        }
    };
    let literal = host.parse::<std::net::IpAddr>().is_ok();
    (host.to_string(), literal)
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
