//! Call targets written as Spring placeholders (issue 17, item 1), resolved
//! from the `application*.{yml,yaml,properties}` of the calling file's
//! build unit: `@FeignClient(url = "${rates.url}")`, `@Value("${orders.url}")`,
//! `"${orders.url}/api"`, `"http://${svc.host}:8080/x"`, and
//! `"http://" + host` where `host` is a field bound by `@Value("${svc.host}")`.
//!
//! The unit's configuration is read from its `src/main/resources/` (and
//! `src/main/resources/config/`), as Spring Boot's `classpath:/` and
//! `classpath:/config/` locations: the files without a profile are the
//! default profile; `application-<profile>.*` files and documents that
//! activate on a profile are that profile, looked up before the default's
//! keys. Within a location `.properties` wins over YAML (Spring Boot 2.4+;
//! the reference's "Externalized Configuration" note, added by
//! spring-projects/spring-boot#25300), `config/` over the root, and a later
//! document over an earlier one. The default profile's target is an
//! edge; a profile whose target differs gives an edge of its own, its via
//! naming the profile. A placeholder nothing resolves stays unresolved,
//! and so does one that resolves only to this machine (`localhost`: the
//! value for a developer's run; the deployed one is set elsewhere), shown
//! with that value. Every unresolved call is given its caller.
//!
//! `bootstrap*.{yml,properties}` beside them are read too, below the
//! `application*` files (Spring Cloud's bootstrap context is the parent
//! of the application's, so its keys are looked up last). A unit that is
//! a Spring Cloud Config client (`spring.cloud.config.uri`, or
//! `spring.config.import` of `configserver:`) also gets the files a
//! config server of the scan serves it from a `classpath:` native search
//! location (`spring.cloud.config.server.native.search-locations`, with
//! `{application}` replaced): `<name>[-<profile>].*` for its
//! `spring.application.name`, then `application[-<profile>].*`, both
//! above the unit's own files, as the client adds the server's property
//! sources first (spring-cloud-config `NativeEnvironmentRepository`
//! orders them `<name>-<profile>`, `<name>`, `application`; see
//! docs.spring.io/spring-cloud-config/reference/server/environment-repository/file-system-backend.html).
//! A native backend without `search-locations` serves from its defaults
//! (its own `application*` files excepted), and a git backend whose `uri`
//! is a `file:` folder of the scan from that folder (and its
//! `search-paths`); a remote repository is not read. `spring.profiles.group`
//! activates a group's members with it, the last winning.

use super::config_server::{Served, served_files, server_locations};
use super::spring_env;
use super::spring_profiles::{Outcome, each_key, edges};
use super::*;
use crate::extract::calls;
use crate::model::UnresolvedCall;
use crate::model::calls::IdentityKind;
use crate::systems::spring::extract::Prop;
use crate::systems::spring::placeholders;
use std::collections::{BTreeSet, HashMap};

/// How many folders above a source file are searched for its unit's
/// resources.
const MAX_UP: usize = 32;
/// The largest configuration file read.
const MAX_CONFIG: u64 = 1 << 20;
/// At most this many entries of a resources folder are looked at.
pub(super) const MAX_ENTRIES: usize = 512;

/// One document of a unit's configuration: the profile it is active in
/// (`None`: the default), where it was read, and its properties.
#[derive(Clone, Debug)]
pub(super) struct Doc {
    pub(super) profile: Option<String>,
    pub(super) file: String,
    pub(super) props: Vec<Prop>,
    /// Its keys, indexed the first time one is looked up ([`Doc::expand`]).
    keys: std::cell::OnceCell<placeholders::Keys>,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Self) -> bool {
        self.profile == other.profile && self.file == other.file && self.props == other.props
    }
}

impl Doc {
    pub(super) fn new(profile: Option<String>, file: String, props: Vec<Prop>) -> Self {
        Doc {
            profile,
            file,
            props,
            keys: Default::default(),
        }
    }

    /// `text` with its placeholders expanded from this document alone
    /// ([`placeholders::expand_in`] with its properties, indexed once).
    pub(super) fn expand(&self, text: &str) -> Option<String> {
        let keys = self
            .keys
            .get_or_init(|| placeholders::Keys::new(&self.props));
        placeholders::expand_indexed(text, &self.props, keys)
    }
}

/// Resolve placeholder call targets into edges and name the caller of every
/// call left unresolved.
pub fn spring_call_targets(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
) {
    // An entry setting a key the program only documents is no call.
    let documented: Vec<(Vec<String>, Vec<String>)> = files
        .iter()
        .filter(|f| !f.facts.java.doc_keys.is_empty())
        .map(|f| {
            let names = caller(f)
                .into_iter()
                .chain(f.facts.services.iter().map(|s| s.name.clone()))
                .collect();
            (names, f.facts.java.doc_keys.clone())
        })
        .collect();
    super::spring_env::drop_documented(files, &documented);
    // Workloads' environment entries: they set a unit's placeholders.
    let env = super::spring_env::gather(files);
    // The compose services that run each Go package (one module, several
    // programs), looked up once a Go file has an `env X` target.
    let go_programs = files
        .iter()
        .any(|f| {
            f.source.path.extension().is_some_and(|e| e == "go")
                && f.facts
                    .unresolved
                    .iter()
                    .any(|u| u.written.starts_with("env "))
        })
        .then(|| super::go_programs::programs(files, cwd, disk));
    if let Some(p) = &go_programs {
        super::go_programs::drop_unread(files, p, disk);
    }
    // The workloads running each program's image, by program.
    let runners = super::units::image_runners(files);
    let mut units: HashMap<PathBuf, std::rc::Rc<Vec<Doc>>> = HashMap::new();
    // Each unit's own `application*`/`bootstrap*` documents, parsed once
    // for the config servers' locations and the call targets both.
    let mut locals = Locals::new();
    // The config servers' search locations, found once a unit needs them.
    let mut locations: Option<Vec<Served>> = None;
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    let mut res_dirs: BTreeSet<PathBuf> = files
        .iter()
        .filter_map(|f| resources_of(&absolute(&f.source.path)))
        .collect();
    // A config server's own files may say nothing the scan keeps: the
    // modules beside the units found, and below the roots, are looked at.
    let parents: BTreeSet<PathBuf> = res_dirs
        .iter()
        .filter_map(|r| r.ancestors().nth(4).map(Path::to_path_buf))
        .chain(roots.iter().map(|r| absolute(r)))
        .collect();
    for p in parents {
        let Some(entries) = disk.list(&p, MAX_ENTRIES) else {
            continue;
        };
        for e in entries {
            let res = p.join(e).join("src/main/resources");
            if disk.is_dir(&res) {
                res_dirs.insert(res);
            }
        }
    }
    served_files(
        files,
        &res_dirs,
        roots,
        cwd,
        &mut locations,
        disk,
        &mut locals,
    );
    for f in files.iter_mut() {
        // Edges to a placeholder's default (`"${orders.url:http://orders}"`)
        // are looked up too: a key that is set wins over the default.
        let defaulted: Vec<usize> = (0..f.facts.edges.len())
            .filter(|&i| {
                let sp = f.facts.edges[i].span;
                f.source
                    .text
                    .get(sp.start..sp.end)
                    .is_some_and(|l| l.starts_with("\"${"))
            })
            .collect();
        if f.facts.unresolved.is_empty() && defaulted.is_empty() {
            continue;
        }
        let caller = caller(f);
        let java = f
            .source
            .path
            .extension()
            .is_some_and(|e| e == "java" || e == "kt");
        // A configuration file of a unit's resources (its `application*`
        // files, or what a config server there serves an application): a
        // placeholder its reader left (a gateway route's `uri`) may be set
        // by the workload's environment too.
        let spring_config = !java && resources_of(&f.source.path).is_some();
        let docs = if java {
            let path = match cwd {
                Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
                _ => f.source.path.clone(),
            };
            resources(&path, roots, cwd, disk).map(|dir| {
                let locations = locations.get_or_insert_with(|| {
                    server_locations(&res_dirs, roots, cwd, disk, &mut locals)
                });
                units
                    .entry(dir.clone())
                    .or_insert_with(|| load(&dir, cwd, locations, disk, &mut locals))
                    .clone()
            })
        } else {
            None
        };
        let text = f.source.text.clone();
        let fields = if java {
            value_fields(&text)
        } else {
            HashMap::new()
        };
        // The unit's names, as its workloads and compose services are
        // named (their environment sets its placeholders).
        let names: Vec<String> = caller
            .iter()
            .cloned()
            .chain(f.facts.services.iter().map(|s| s.name.clone()))
            .chain(
                caller
                    .iter()
                    .filter_map(|c| runners.get(&crate::model::calls::short_host(c)))
                    .flatten()
                    .cloned(),
            )
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let from_env = |t: &str, u: &UnresolvedCall| {
            (java || spring_config)
                .then(|| spring_env::edges(&env, &names, t, u))
                .flatten()
                .map(Outcome::Edges)
        };
        if docs.is_some() || java {
            for i in defaulted {
                let e = &f.facts.edges[i];
                let mut u = UnresolvedCall::new(e.span, e.callee.clone());
                u.client.clone_from(&e.client);
                let Some(t) = template(&text, &u, &fields) else {
                    continue;
                };
                let found = from_env(&t, &u).or_else(|| docs.as_deref().map(|d| edges(d, &t, &u)));
                if let Some(Outcome::Edges(found)) = found {
                    let policies = e.policies.clone();
                    let mut found = found.into_iter();
                    if let Some(first) = found.next() {
                        let e = &mut f.facts.edges[i];
                        e.callee = first.callee;
                        e.via = first.via;
                    }
                    for mut more in found {
                        more.policies.clone_from(&policies);
                        f.facts.edges.push(more);
                    }
                }
            }
        }
        let mut kept = Vec::new();
        for mut u in std::mem::take(&mut f.facts.unresolved) {
            if u.caller.is_none() {
                u.caller.clone_from(&caller);
            }
            // `env X` as the program reads it: the workload's value; in a
            // Go package, the value each compose service running it sets.
            let var = u.written.strip_prefix("env ");
            if let Some(found) = var
                .and_then(|var| spring_env::var_edges(&env, &names, var, &u))
                .or_else(|| {
                    let runs = go_programs
                        .as_ref()?
                        .get(&package_of(&f.source.path, cwd))?;
                    let mut all = Vec::new();
                    for (s, selected) in runs {
                        if !super::go_programs::runs(selected, &text, u.span.start) {
                            continue;
                        }
                        let found = spring_env::var_edges(&env, std::slice::from_ref(s), var?, &u);
                        all.extend(found.into_iter().flatten().map(|mut e| {
                            e.caller = Some(s.clone());
                            e
                        }));
                    }
                    (!all.is_empty()).then_some(all)
                })
            {
                f.facts.edges.extend(found.into_iter().map(|mut e| {
                    e.policies.clone_from(&u.policies);
                    e
                }));
                continue;
            }
            // Set by no workload of the caller: the code's own default.
            if let (Some(var), Some(d)) = (var, &u.if_unset) {
                f.facts.edges.push(super::env_defaults::edge(var, d, &u));
                continue;
            }
            let t = if spring_config {
                // The placeholder as written (the reader saw its value).
                let raw = text
                    .get(u.span.start..u.span.end)
                    .map(|r| r.trim().trim_matches(['"', '\'']).to_string())
                    // Only a placeholder that gives the host:
                    // `http://localhost:${server.port}` names its host.
                    .filter(|r| {
                        r.starts_with("${")
                            || r.split_once("://")
                                .is_some_and(|(_, h)| h.starts_with("${"))
                    });
                match raw {
                    Some(r) => {
                        if r != u.written && !u.written.contains("${") {
                            u.written = format!("{r} = {}", u.written);
                        }
                        Some(r)
                    }
                    None => None,
                }
            } else {
                template(&text, &u, &fields)
            };
            // No placeholder where the reader saw one (an escape in a
            // `.properties` value): a literal target it already judged.
            if spring_config && t.is_none() && !u.written.contains("${") {
                continue;
            }
            // `${clients.services.*}`: each key the configuration sets.
            if let Some(base) = t.as_deref().and_then(collection_base) {
                let found = docs
                    .as_deref()
                    .map_or(Vec::new(), |d| each_key(d, base, &u));
                if found.is_empty() {
                    kept.push(u);
                } else {
                    f.facts.edges.extend(found);
                }
                continue;
            }
            match t
                .as_deref()
                .and_then(|t| from_env(t, &u))
                .or_else(|| {
                    docs.as_deref()
                        .and_then(|d| t.as_deref().map(|t| edges(d, t, &u)))
                })
                .unwrap_or(Outcome::Unknown)
            {
                Outcome::Edges(resolved) => {
                    f.facts.edges.extend(resolved.into_iter().map(|mut e| {
                        if e.policies.is_empty() {
                            e.policies.clone_from(&u.policies);
                        }
                        e
                    }));
                }
                // `http://localhost:8082`: the value a developer runs with;
                // where it is deployed an environment variable or another
                // source sets it (Spring's relaxed binding), which is not
                // known here. Still listed, with what the file says.
                Outcome::NoService(value) => {
                    u.written = format!("{} = {value}", u.written);
                    kept.push(u);
                }
                Outcome::Unknown => kept.push(u),
            }
        }
        f.facts.unresolved = kept;
    }
    spring_env::mark_protocols(files);
    // Span exporters a program's own files turn off send nothing.
    super::tracing_off::drop_exporters(files, &res_dirs, cwd, disk, &mut locals);
    // Data-store calls only from programs with a client of the store.
    if files
        .iter()
        .any(|f| f.facts.edges.iter().any(|e| e.protocol.is_some()))
    {
        // A unit whose files cannot make it a client is none, unparsed.
        let mut clients: Vec<(String, PathBuf)> = Vec::new();
        for r in &res_dirs {
            if (locals.contains_key(r) || may_be_client(r, disk))
                && let Some(n) = config_client(&load(r, cwd, &[], disk, &mut locals))
            {
                clients.push((n, r.clone()));
            }
        }
        super::store_clients::store_clients(files, &clients, roots, cwd, disk);
    }
    // A store key (or the config client's server) the program's
    // environment sets: the file's value is overridden.
    super::store_clients::env_overrides(files);
}

/// The file's service, where its identity declarations name one.
pub(super) fn caller(f: &ScannedFile) -> Option<String> {
    let tier = |kinds: &[IdentityKind]| -> Option<String> {
        let names: BTreeSet<&str> = f
            .facts
            .services
            .iter()
            .filter(|s| kinds.contains(&s.kind))
            .map(|s| s.name.as_str())
            .collect();
        (names.len() == 1)
            .then(|| names.into_iter().next().map(str::to_string))
            .flatten()
    };
    tier(&[IdentityKind::Workload, IdentityKind::AppName])
        .or_else(|| tier(&[IdentityKind::BuildUnit]))
}

/// The absolute folder of a file (its Go package).
fn package_of(path: &Path, cwd: Option<&Path>) -> PathBuf {
    let p = match cwd {
        Some(c) if path.is_relative() => c.join(path),
        _ => path.to_path_buf(),
    };
    crate::source::fold_dots(p.parent().unwrap_or(Path::new("/")))
}

/// The resources folder of the build unit `path` is in: the nearest
/// `<folder>/src/main/resources` above it, inside the scan roots, not
/// past a folder with a build file of its own.
fn resources(
    path: &Path,
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
) -> Option<PathBuf> {
    let roots: Vec<PathBuf> = super::joined_roots(roots, cwd);
    let mut dir = path.parent();
    for _ in 0..MAX_UP {
        let d = dir?;
        if !inside(d, &roots) && !roots.iter().any(|r| r.as_path() == d) {
            return None;
        }
        let res = d.join("src/main/resources");
        if disk.is_dir(&res) {
            return Some(res);
        }
        if ["pom.xml", "build.gradle", "build.gradle.kts"]
            .iter()
            .any(|b| disk.is_file(&d.join(b)))
        {
            return None;
        }
        dir = d.parent();
    }
    None
}

/// Each resources folder's own documents ([`local`]), by folder.
pub(super) type Locals = HashMap<PathBuf, std::rc::Rc<Vec<Doc>>>;

/// The documents of the unit's own `application*` files (`config/`
/// first) and `bootstrap*` files, highest precedence first; read once per
/// folder (`locals`), as nothing else varies within one link stage.
pub(super) fn local(
    res: &Path,
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
    locals: &mut Locals,
) -> std::rc::Rc<Vec<Doc>> {
    locals
        .entry(res.to_path_buf())
        .or_insert_with(|| std::rc::Rc::new(read_local(res, cwd, disk)))
        .clone()
}

/// Whether a unit's own files could say where a config server serves
/// from ([`super::config_server::server_locations`]): each key read there
/// names `native` or `git` (`spring.cloud.config.server.native.search-locations`,
/// `...git.uri`, `...git.search-paths`, in any case or spelling), or the
/// value is a `native` profile, written in these files (a placeholder's
/// value is read from them too). A unit none of whose `application*` or
/// `bootstrap*` files holds either word, nor an escape (`\u006e`), sets
/// none; its documents are not parsed for it (issue 27: every unit's were,
/// on every run).
pub(super) fn may_serve(res: &Path, disk: super::Disk<'_>) -> bool {
    any_text(res, disk, |t| {
        let lower = t.to_ascii_lowercase();
        lower.contains("native") || lower.contains("git") || t.contains('\\')
    })
}

/// Whether a unit's own files could make it a Spring Cloud Config client
/// ([`config_client`]): both keys that do (`spring.cloud.config.uri`,
/// `spring.config.import`) have a `config` segment, which relaxed binding
/// reads in any case and with `-` or `_` anywhere in it. A unit none of
/// whose `application*` or `bootstrap*` files holds that word so spelled,
/// an escape (`\u0063onfig`, a line continuation) or a character that is
/// not ASCII (whose lower case could be), is none; its documents are not
/// parsed for it (issue 27: every unit's were, on every run, to look for
/// the data stores' clients).
pub(super) fn may_be_client(res: &Path, disk: super::Disk<'_>) -> bool {
    any_text(res, disk, |t| {
        if !t.is_ascii() || t.contains('\\') {
            return true;
        }
        let squeezed: Vec<u8> = t
            .bytes()
            .filter(|&b| b != b'-' && b != b'_')
            .map(|b| b.to_ascii_lowercase())
            .collect();
        squeezed.windows(6).any(|w| w == b"config")
    })
}

/// Whether the text of one of the unit's own `application*` or
/// `bootstrap*` files (those [`read_local`] reads) satisfies `pred`.
fn any_text(res: &Path, disk: super::Disk<'_>, pred: impl Fn(&str) -> bool) -> bool {
    [res.join("config"), res.to_path_buf()].iter().any(|dir| {
        disk.list(dir, MAX_ENTRIES).is_some_and(|entries| {
            entries.iter().any(|name| {
                (named_profile(name, "application").is_some()
                    || named_profile(name, "bootstrap").is_some())
                    && disk
                        .read(&dir.join(name), MAX_CONFIG)
                        .is_some_and(|t| pred(&t))
            })
        })
    })
}

fn read_local(res: &Path, cwd: Option<&Path>, disk: super::Disk<'_>) -> Vec<Doc> {
    let mut found: Vec<((u8, u8, usize), Doc)> = Vec::new();
    read_docs(&res.join("config"), "application", 2, cwd, &mut found, disk);
    read_docs(res, "application", 3, cwd, &mut found, disk);
    read_docs(&res.join("config"), "bootstrap", 4, cwd, &mut found, disk);
    read_docs(res, "bootstrap", 5, cwd, &mut found, disk);
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.file.cmp(&b.1.file)));
    found.into_iter().map(|(_, d)| d).collect()
}

/// The unit's configuration documents, highest precedence first: what a
/// config server serves it (`locations`), then its own ([`local`]).
pub(super) fn load(
    res: &Path,
    cwd: Option<&Path>,
    locations: &[Served],
    disk: super::Disk<'_>,
    locals: &mut Locals,
) -> std::rc::Rc<Vec<Doc>> {
    let local = local(res, cwd, disk, locals);
    let Some(name) = config_client(&local).filter(|_| !locations.is_empty()) else {
        return local;
    };
    let mut served: Vec<((u8, u8, usize), Doc)> = Vec::new();
    for loc in locations {
        let dir = PathBuf::from(loc.dir.to_string_lossy().replace("{application}", &name));
        read_docs(&dir, &name, 0, cwd, &mut served, disk);
        if loc.shared {
            read_docs(&dir, "application", 1, cwd, &mut served, disk);
        }
    }
    served.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.file.cmp(&b.1.file)));
    std::rc::Rc::new(
        served
            .into_iter()
            .map(|(_, d)| d)
            .chain(local.iter().cloned())
            .collect(),
    )
}

/// The documents of the files `<stem>.*` and `<stem>-<profile>.*` of
/// `dir`, ranked `rank` (then `.properties` before YAML, a later document
/// before an earlier one).
fn read_docs(
    dir: &Path,
    stem: &str,
    rank: u8,
    cwd: Option<&Path>,
    found: &mut Vec<((u8, u8, usize), Doc)>,
    disk: super::Disk<'_>,
) {
    let Some(entries) = disk.list(dir, MAX_ENTRIES) else {
        return;
    };
    for name in entries {
        let Some(file_profile) = named_profile(&name, stem) else {
            continue;
        };
        let p = dir.join(&name);
        let Some(text) = disk.read(&p, MAX_CONFIG) else {
            continue;
        };
        let ext = u8::from(!name.to_ascii_lowercase().ends_with(".properties"));
        let shown = match cwd {
            Some(c) => p.strip_prefix(c).unwrap_or(&p),
            None => &p,
        }
        .display()
        .to_string();
        let docs = placeholders::documents(&name, &text);
        let n = docs.len();
        for (i, props) in docs.into_iter().enumerate() {
            let profile = file_profile
                .clone()
                .or_else(|| placeholders::profile(&props));
            found.push(((rank, ext, n - i), Doc::new(profile, shown.clone(), props)));
        }
    }
}

/// `Some(None)` for `<stem>.{yml,yaml,properties}`, `Some(Some(p))` for
/// `<stem>-<p>.*`, `None` for another file.
fn named_profile(name: &str, stem: &str) -> Option<Option<String>> {
    if stem == "application" {
        return placeholders::file_profile(name);
    }
    let lower = name.to_ascii_lowercase();
    let base = [".yml", ".yaml", ".properties"]
        .iter()
        .find_map(|ext| lower.strip_suffix(ext))?;
    let rest = base.strip_prefix(&stem.to_ascii_lowercase())?;
    if rest.is_empty() {
        return Some(None);
    }
    rest.strip_prefix('-')
        .filter(|p| !p.is_empty())
        .map(|p| Some(p.to_string()))
}

/// The value of `key` in the first document of `docs` that sets it.
pub(super) fn first_value(docs: &[Doc], key: &str, default_only: bool) -> Option<String> {
    docs.iter()
        .filter(|d| !default_only || d.profile.is_none())
        .find_map(|d| d.expand(&format!("${{{key}}}")))
        .filter(|v| !v.trim().is_empty())
}

/// The application name of a unit that is a Spring Cloud Config client.
pub(super) fn config_client(docs: &[Doc]) -> Option<String> {
    let client = first_value(docs, "spring.cloud.config.uri", false).is_some()
        || first_value(docs, "spring.config.import", false)
            .is_some_and(|v| v.contains("configserver:"));
    if !client {
        return None;
    }
    first_value(docs, "spring.application.name", true)
        .map(|n| n.trim().to_string())
        .filter(|n| !n.contains(['$', '{', '/', '\\']) && n != "..")
}

/// The `<unit>/src/main/resources` folder a file is in.
pub(super) fn resources_of(path: &Path) -> Option<PathBuf> {
    let parts: Vec<_> = path.components().collect();
    let i = parts.windows(3).rposition(|w| {
        w[0].as_os_str() == "src" && w[1].as_os_str() == "main" && w[2].as_os_str() == "resources"
    })?;
    Some(parts[..i + 3].iter().collect())
}

/// Fields bound by `@Value("${key}")`: field name -> the placeholder.
fn value_fields(text: &str) -> HashMap<String, String> {
    let lexed = calls::lex::lex(text, calls::lex::Lang::Java);
    calls::clients::value_fields(text, &lexed.lits)
        .into_iter()
        .filter_map(|(name, at)| {
            let s = text.get(at.start + 1..at.end.saturating_sub(1))?;
            Some((name, s.to_string()))
        })
        .collect()
}

/// The text to resolve for an unresolved call: the literal as written
/// (`${orders.url}/api`, `http://${svc.host}:8080`), or `http://` joined
/// to the `@Value` placeholder of the field concatenated to it.
fn template(text: &str, u: &UnresolvedCall, fields: &HashMap<String, String>) -> Option<String> {
    let lit = text
        .get(u.span.start..u.span.end)
        .and_then(|l| l.strip_prefix('"'))
        .and_then(|l| l.strip_suffix('"'))
        .filter(|l| !l.starts_with("\"\""));
    let written = lit.unwrap_or(&u.written);
    if written.contains("${") {
        return Some(written.to_string());
    }
    // `"http://" + host`: the field's own placeholder.
    if lit.is_some() && written.contains("://") {
        let after = text.get(u.span.end..)?.trim_start().strip_prefix('+')?;
        let after = after.trim_start();
        let after = after.strip_prefix("this.").unwrap_or(after);
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        let key = fields.get(&name)?;
        return Some(format!("{written}{key}"));
    }
    None
}

/// `clients.services` of `${clients.services.*}`, a map's or list's
/// placeholder (`extract::calls::properties`).
fn collection_base(t: &str) -> Option<&str> {
    t.strip_prefix("${")?.strip_suffix(".*}")
}
