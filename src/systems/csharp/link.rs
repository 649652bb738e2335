//! Typed HTTP clients joined across the files of one C# project (issue 19,
//! item 5): `AddHttpClient<T>(c => c.BaseAddress = ..)` is written in the
//! project's start-up code, the calls in class `T`'s own file. Each call
//! left unresolved there ([`super::extract`] names its client) takes the
//! base address registered for the client in the same build unit (the
//! `*.csproj`), and the registration's stand-in edge gives way to the
//! calls.

use super::extract::calls::{NO_BASE, REGISTRATION};
use super::extract::servicebus::{CONSTANT, CONSUMER, SERVICE_BUS};
pub use super::link_programs::Look;
use crate::extract::build::{msbuild_is_apphost as is_apphost, msbuild_is_program as is_program};
use crate::model::calls::{IdentityKind, ServiceDecl};
use crate::model::{CallEdge, ClientScope, Facts, Located, Methods, ScannedFile};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The build units a file belongs to: its project's, and those of the
/// projects that reference it ([`shared_projects`]).
pub(super) fn units(f: &ScannedFile) -> BTreeSet<String> {
    f.facts
        .services
        .iter()
        .filter(|s| s.kind == IdentityKind::BuildUnit)
        .map(|s| s.name.clone())
        .collect()
}

/// The one build unit a file belongs to, if one.
fn unit(f: &ScannedFile) -> Option<String> {
    let all = units(f);
    (all.len() == 1).then(|| all.into_iter().next())?
}

fn is_csharp(f: &ScannedFile) -> bool {
    f.source.path.extension().is_some_and(|e| e == "cs")
}

pub fn typed_clients(files: &mut [ScannedFile]) {
    // (unit, client) -> the registered host.
    let mut hosts: BTreeMap<(String, String), String> = BTreeMap::new();
    for f in files.iter().filter(|f| is_csharp(f)) {
        for u in units(f) {
            for e in &f.facts.edges {
                if let Some(c) = &e.client
                    && e.via.ends_with(REGISTRATION)
                {
                    hosts
                        .entry((u.clone(), c.clone()))
                        .or_insert_with(|| e.callee.clone());
                }
            }
        }
    }
    if hosts.is_empty() {
        return;
    }
    let mut called: BTreeSet<(String, String)> = BTreeSet::new();
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let us = units(f);
        let mut kept = Vec::new();
        for call in std::mem::take(&mut f.facts.unresolved) {
            // A library's typed client registered by the one program of
            // those that build it which registers it.
            let found: BTreeSet<(&(String, String), &String)> = us
                .iter()
                .filter_map(|u| {
                    let c = call.client.clone()?;
                    hosts.get_key_value(&(u.clone(), c))
                })
                .collect();
            let one = (found.len() == 1)
                .then(|| found.into_iter().next())
                .flatten();
            let key = one.map(|(k, _)| k.clone());
            match (one.map(|(_, h)| h), &call.client) {
                (Some(host), Some(client)) if call.written.ends_with(NO_BASE) => {
                    f.facts.edges.push(CallEdge {
                        // The program that registers the client makes
                        // the call, also from a library's file.
                        caller: key.as_ref().map(|(u, _)| u.clone()),
                        callee: host.clone(),
                        span: call.span,
                        policies: Vec::new(),
                        via: call.written.trim_end_matches(NO_BASE).to_string(),
                        client: Some(client.clone()),
                        protocol: None,
                    });
                    called.extend(key);
                }
                _ => kept.push(call),
            }
        }
        f.facts.unresolved = kept;
    }
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let us = units(f);
        f.facts.edges.retain(|e| {
            !(e.via.ends_with(REGISTRATION)
                && e.client
                    .as_ref()
                    .is_some_and(|c| us.iter().any(|u| called.contains(&(u.clone(), c.clone())))))
        });
    }
}

/// The handlers that retry every method, narrowed to the methods of the
/// calls made through their clients in the programs each stands for
/// ([`narrow_methods`], [`narrow_default`]): after the options are
/// joined, which may give a program a handler of its own
/// ([`super::options::programs`]).
pub fn narrow(files: &mut [ScannedFile]) {
    narrow_methods(files);
    narrow_default(files);
}

/// The handler on every client (`ConfigureHttpClientDefaults`) is used
/// only for the methods of the calls made through the client factory in
/// the programs it runs in, when every one of them says its method: the
/// calls of typed and named clients (seen or left unresolved), and the
/// gRPC clients' (`AddGrpcClient`: every gRPC call is an HTTP/2 `POST`).
/// A typed client registered with no call seen leaves it as written.
fn narrow_default(files: &mut [ScannedFile]) {
    let mut used: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    for f in files.iter().filter(|f| is_csharp(f)) {
        let us = units(f);
        let mut methods: Vec<Option<String>> = Vec::new();
        for e in &f.facts.edges {
            match &e.client {
                Some(c) if c.starts_with("AddGrpcClient") => methods.push(Some("POST".into())),
                Some(_) if e.via.ends_with(REGISTRATION) => methods.push(None),
                Some(_) => methods.push(method_of(&e.via)),
                None if e.via.starts_with("HttpClient.") => methods.push(method_of(&e.via)),
                None => {}
            }
        }
        for c in &f.facts.unresolved {
            if c.written.starts_with("HttpClient.") {
                methods.push(method_of(&c.written));
            }
        }
        for u in &us {
            let entry = used
                .entry(u.clone())
                .or_insert_with(|| Some(BTreeSet::new()));
            for m in &methods {
                match (m, entry.as_mut()) {
                    (Some(m), Some(set)) => {
                        set.insert(m.clone());
                    }
                    _ => *entry = None,
                }
            }
        }
    }
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let each: Vec<BTreeSet<String>> = (0..f.facts.policies.len())
            .map(|i| super::options::programs(f, i))
            .collect();
        for (p, us) in f.facts.policies.iter_mut().zip(each) {
            if p.scope.client != Some(ClientScope::Named("default".into()))
                || p.methods.value != Methods::All
                || p.methods.is_written()
                || us.is_empty()
            {
                continue;
            }
            let sets: Vec<&Option<BTreeSet<String>>> =
                us.iter().filter_map(|u| used.get(u)).collect();
            if sets.len() != us.len() || sets.iter().any(|s| s.is_none()) {
                continue;
            }
            let ms: BTreeSet<String> = sets.into_iter().flatten().flatten().cloned().collect();
            if ms.is_empty() {
                continue;
            }
            p.methods = Located::default_at(Methods::Set(ms.into_iter().collect()), p.span);
        }
    }
}

/// The largest `*.csproj` read.
const MAX_CSPROJ: u64 = 1 << 20;
/// How many folders above a C# file are searched for its `*.csproj`.
const MAX_UP: usize = 32;
/// At most this many entries of a folder are looked at for a `*.csproj`.
const MAX_ENTRIES: usize = 512;

/// The `*.csproj` of the folder `dir`, if one.
fn csproj_in(dir: &Path, look: &dyn Look) -> Option<PathBuf> {
    look.list(dir, MAX_ENTRIES)?
        .into_iter()
        .find(|n| n.ends_with(".csproj"))
        .map(|n| dir.join(n))
        .filter(|p| look.is_file(p))
}

/// Whether a `*.csproj` builds a program, and the projects it references
/// (`<ProjectReference
/// Include="..\AspireShop.ServiceDefaults\AspireShop.ServiceDefaults.csproj" />`)
/// by their unit names.
fn read_csproj(csproj: &Path, look: &dyn Look) -> (bool, Vec<String>) {
    let (program, refs) = read_csproj_paths(csproj, look);
    (program, refs.into_iter().map(|(name, _)| name).collect())
}

/// [`read_csproj`] with each reference's path as written in `Include`
/// (`..\Shop.Platform\Shop.Platform.csproj`), `/`-separated.
fn read_csproj_paths(csproj: &Path, look: &dyn Look) -> (bool, Vec<(String, String)>) {
    let Some(text) = look.read(csproj, MAX_CSPROJ) else {
        return (true, Vec::new());
    };
    if is_apphost(&text) {
        return (true, Vec::new());
    }
    let refs = text
        .split("<ProjectReference")
        .skip(1)
        .filter_map(|item| {
            let (_, rest) = item.split_once("Include=\"")?;
            let (path, _) = rest.split_once('"')?;
            let file = path.rsplit(['\\', '/']).next()?;
            let stem = file.strip_suffix(".csproj")?;
            Some((
                crate::systems::csharp::project_name(stem),
                path.replace('\\', "/"),
            ))
        })
        .collect();
    (is_program(&text), refs)
}

/// The references of the projects referenced by the files' projects,
/// followed through projects that have no file of their own read (a
/// library between a program and the service defaults), at most
/// [`MAX_PROJECTS`] project files.
fn follow_references(
    start: Vec<PathBuf>,
    programs: &mut BTreeSet<String>,
    used_by: &mut BTreeMap<String, BTreeSet<String>>,
    look: &dyn Look,
) {
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut todo = start;
    while let Some(csproj) = todo.pop() {
        if seen.len() >= MAX_PROJECTS || !seen.insert(csproj.clone()) {
            continue;
        }
        let Some(stem) = csproj.file_stem().map(|s| s.to_string_lossy().to_string()) else {
            continue;
        };
        let name = crate::systems::csharp::project_name(&stem);
        let (program, refs) = read_csproj_paths(&csproj, look);
        if !look.is_file(&csproj) {
            continue;
        }
        if program {
            programs.insert(name.clone());
        }
        let dir = csproj.parent().map(Path::to_path_buf).unwrap_or_default();
        for (r, path) in refs {
            used_by.entry(r).or_default().insert(name.clone());
            todo.push(dir.join(path));
        }
    }
}

/// A library project other projects reference (a .NET Aspire
/// `ServiceDefaults`, a shared event bus) runs inside each of them: its
/// files are given the build unit of every program that references it,
/// directly or through other libraries ([`running_in`],
/// [`follow_references`]), instead of their own, so that
/// `ConfigureHttpClientDefaults(http => http.AddStandardResilienceHandler())`
/// there is every client's handler in each service that builds it.
///
/// Folders and `*.csproj` files are looked for through `look` (what the
/// walk saw, where it covers them).
pub fn shared_projects(files: &mut [ScannedFile], cwd: Option<&Path>, look: &dyn Look) {
    let mut dirs: BTreeMap<PathBuf, Option<(String, bool, Vec<String>)>> = BTreeMap::new();
    let mut programs: BTreeSet<String> = BTreeSet::new();
    // unit -> the units that reference it.
    let mut used_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut file_unit: Vec<Option<String>> = Vec::with_capacity(files.len());
    let mut found_csprojs: Vec<PathBuf> = Vec::new();
    for f in files.iter() {
        if !is_csharp(f) || unit(f).is_none() {
            file_unit.push(None);
            continue;
        }
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        let mut found = None;
        for dir in path.ancestors().skip(1).take(MAX_UP) {
            let entry = dirs.entry(dir.to_path_buf()).or_insert_with(|| {
                csproj_in(dir, look).map(|p| {
                    found_csprojs.push(p.clone());
                    let stem = p.file_stem().map(|s| s.to_string_lossy().to_string());
                    let (program, refs) = read_csproj(&p, look);
                    (
                        crate::systems::csharp::project_name(&stem.unwrap_or_default()),
                        program,
                        refs,
                    )
                })
            });
            if let Some((name, program, refs)) = entry.clone() {
                if program {
                    programs.insert(name.clone());
                }
                for r in refs {
                    used_by.entry(r).or_default().insert(name.clone());
                }
                found = Some(name);
                break;
            }
        }
        file_unit.push(found);
    }
    scanned_projects(files, &mut programs, &mut used_by);
    follow_references(found_csprojs, &mut programs, &mut used_by, look);
    let spread = super::link_programs::used_by_programs(
        files,
        cwd,
        &file_unit,
        &programs,
        &used_by,
        &super::link_programs::project_dirs(files, cwd, &dirs),
        look,
    );
    for (f, u) in files.iter_mut().zip(file_unit) {
        let Some(users) = u
            .filter(|u| !programs.contains(u))
            .map(|u| running_in(&u, &used_by, &programs))
            .filter(|users| !users.is_empty())
        else {
            continue;
        };
        let users = &users;
        let Some(decl) = build_unit(&f.facts) else {
            continue;
        };
        // The library itself runs nowhere else: its own unit gives way.
        f.facts
            .services
            .retain(|s| s.kind != IdentityKind::BuildUnit);
        for user in users {
            let mut d = decl.clone();
            d.name.clone_from(user);
            d.source = format!("a ProjectReference of {user}");
            f.facts.services.push(d);
        }
    }
    for (i, users) in spread {
        let f = &mut files[i];
        let Some(decl) = build_unit(&f.facts) else {
            continue;
        };
        for user in &users {
            let mut d = decl.clone();
            d.source = format!("a ProjectReference of {user}, which uses its types");
            d.name.clone_from(user);
            f.facts.services.push(d);
        }
        // The file is no one program's now: each call is made by each.
        let callers: Vec<&String> = std::iter::once(&decl.name).chain(&users).collect();
        for e in std::mem::take(&mut f.facts.edges) {
            if e.caller.is_some() {
                f.facts.edges.push(e);
                continue;
            }
            for c in &callers {
                let mut copy = e.clone();
                copy.caller = Some((*c).clone());
                f.facts.edges.push(copy);
            }
        }
    }
}

/// The `*.csproj` files of the scan that reference other projects: a
/// program none of whose own files is kept (no call, no retry: dotnet/eShop's
/// Basket.API) still runs the libraries it references. A test project
/// runs nothing; an AppHost's references are the programs it runs.
fn scanned_projects(
    files: &[ScannedFile],
    programs: &mut BTreeSet<String>,
    used_by: &mut BTreeMap<String, BTreeSet<String>>,
) {
    for f in files {
        let Some(project) = f.facts.build.as_ref().and_then(|b| b.project.as_ref()) else {
            continue;
        };
        let Some(stem) = f
            .source
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".csproj"))
        else {
            continue;
        };
        let last = stem.rsplit('.').next().unwrap_or(stem);
        if project.test || project.apphost || last.ends_with("Tests") || last == "Test" {
            continue;
        }
        let name = crate::systems::csharp::project_name(stem);
        if project.program {
            programs.insert(name.clone());
        }
        for path in &project.references {
            let Some(r) = path
                .rsplit('/')
                .next()
                .and_then(|file| file.strip_suffix(".csproj"))
            else {
                continue;
            };
            used_by
                .entry(crate::systems::csharp::project_name(r))
                .or_default()
                .insert(name.clone());
        }
    }
}

/// The projects a library runs in: the programs that reference it,
/// directly or through other libraries (`Api -> Platform -> Defaults`),
/// else (no program reaches it) the projects that reference it directly.
fn running_in(
    lib: &str,
    used_by: &BTreeMap<String, BTreeSet<String>>,
    programs: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: BTreeSet<&str> = BTreeSet::from([lib]);
    let mut todo: Vec<&str> = vec![lib];
    while let Some(u) = todo.pop() {
        if seen.len() > MAX_PROJECTS {
            break;
        }
        for user in used_by.get(u).into_iter().flatten() {
            if programs.contains(user) {
                found.insert(user.clone());
            } else if seen.insert(user) {
                todo.push(user);
            }
        }
    }
    if found.is_empty() {
        return used_by.get(lib).cloned().unwrap_or_default();
    }
    found
}

/// How many projects a chain of references is followed through.
const MAX_PROJECTS: usize = 10_000;

/// The HTTP method a call edge's via names (`HttpClient.PostAsJsonAsync
/// (POST) in C#`), if any.
fn method_of(via: &str) -> Option<String> {
    let rest = via.strip_prefix("HttpClient.")?;
    let (_, m) = rest.split_once(" (")?;
    let (m, _) = m.split_once(')')?;
    Some(m.to_string())
}

/// A typed or named client's handler that retries every method is used
/// only for the methods of the calls made through the client in its
/// program, when every one of them says its method (as a file's own calls
/// narrow it, [`super::extract`]): a client that only reads is not RL103's.
/// The handler on every client (`default`): [`narrow_default`].
fn narrow_methods(files: &mut [ScannedFile]) {
    // (unit, client) -> the methods, `None` when a call's is unknown.
    let mut used: BTreeMap<(String, String), Option<BTreeSet<String>>> = BTreeMap::new();
    for f in files.iter().filter(|f| is_csharp(f)) {
        let us = units(f);
        for e in &f.facts.edges {
            let Some(c) = &e.client else { continue };
            if e.via.ends_with(REGISTRATION) {
                continue;
            }
            for u in &us {
                let entry = used
                    .entry((u.clone(), c.clone()))
                    .or_insert_with(|| Some(BTreeSet::new()));
                match (method_of(&e.via), entry.as_mut()) {
                    (Some(m), Some(set)) => {
                        set.insert(m);
                    }
                    _ => *entry = None,
                }
            }
        }
    }
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        // A client whose registration is still the edge has no calls seen.
        let registered: BTreeSet<String> = f
            .facts
            .edges
            .iter()
            .filter(|e| e.via.ends_with(REGISTRATION))
            .filter_map(|e| e.client.clone())
            .collect();
        let each: Vec<BTreeSet<String>> = (0..f.facts.policies.len())
            .map(|i| super::options::programs(f, i))
            .collect();
        for (p, us) in f.facts.policies.iter_mut().zip(each) {
            let Some(ClientScope::Named(c)) = &p.scope.client else {
                continue;
            };
            if c == "default"
                || registered.contains(c)
                || p.methods.value != Methods::All
                || p.methods.is_written()
            {
                continue;
            }
            let sets: Vec<&Option<BTreeSet<String>>> = us
                .iter()
                .filter_map(|u| used.get(&(u.clone(), c.clone())))
                .collect();
            if sets.is_empty() || sets.iter().any(|s| s.is_none()) {
                continue;
            }
            let ms: BTreeSet<String> = sets.into_iter().flatten().flatten().cloned().collect();
            p.methods = Located::default_at(Methods::Set(ms.into_iter().collect()), p.span);
        }
    }
}

/// Azure Service Bus sends joined to their receivers (issue 19): a send
/// to a queue or topic (`CreateSender("orders")`, an edge to `orders`
/// over AMQP with the sender's client retry) names the one program whose
/// files receive from it (`CreateProcessor("orders")`, [`CONSUMER`]). The
/// edge stays on the queue: the sender waits for the broker, not for the
/// receiver's work, so the receiver's calls are not nested in the send
/// (no attempts multiplied through the queue, no timeout of the send
/// over them; duncan-G/ThePlot gave RL303/RL401 through a queue when the
/// edge went to the receiver). The receivers' declarations are dropped
/// after the join.
///
/// A queue named by another class's constant (`Queues.Orders`, left as
/// [`CONSTANT`] by the reader) is first given its value
/// ([`queue_constants`]).
pub fn service_bus(files: &mut [ScannedFile], cwd: Option<&Path>, look: &dyn Look) {
    queue_constants(files, cwd, look);
    let mut consumers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| is_csharp(f)) {
        let us = units(f);
        for s in f.facts.services.iter().filter(|s| s.source == CONSUMER) {
            let entry = consumers.entry(s.name.clone()).or_default();
            if us.is_empty() {
                // A receiver of no known program: the join is not sure.
                entry.insert(String::new());
            }
            entry.extend(us.iter().cloned());
        }
    }
    if consumers.is_empty() {
        return;
    }
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let all = units(f);
        for e in &mut f.facts.edges {
            if e.client.as_deref() != Some(SERVICE_BUS) {
                continue;
            }
            // The sender: the edge's own caller, else the file's programs.
            let us = match &e.caller {
                Some(c) => BTreeSet::from([c.clone()]),
                None => all.clone(),
            };
            let Some(to) = consumers.get(&e.callee) else {
                continue;
            };
            // One program receives, and it is not the sender itself.
            if let [one] = to.iter().collect::<Vec<_>>().as_slice()
                && !one.is_empty()
                && !us.contains(*one)
            {
                e.via = format!("{} (received by {one})", e.via);
            }
        }
        f.facts.services.retain(|s| s.source != CONSUMER);
    }
}

/// The build unit a file's facts declare (its project), where one does.
fn build_unit(facts: &Facts) -> Option<ServiceDecl> {
    facts
        .services
        .iter()
        .find(|s| s.kind == IdentityKind::BuildUnit)
        .cloned()
}

/// `.cs` files looked at when looking for a class's constant beyond the
/// scan's kept files, at most (their constants are the scan's facts: no
/// file is read where the scan collected them).
const MAX_CONSTANT_READS: usize = 64;

/// The queue names the reader left as another class's constant
/// ([`CONSTANT`]`Queues.Orders`) given their value: the constant as the
/// kept C# files of the program declare it (else of any program, when
/// one value), else as the walked file named for the class (`Queues.cs`,
/// C#'s habit) declares it under the folder of the file's project or of
/// a project it references (through `look`: what the walk saw; the
/// file's constants from its reading, [`super::source`]). A name
/// not found becomes an unresolved call (a send) or is dropped (a
/// receiver).
fn queue_constants(files: &mut [ScannedFile], cwd: Option<&Path>, look: &dyn Look) {
    let placeholder = |n: &str| n.strip_prefix(CONSTANT).map(str::to_string);
    let mut wanted: BTreeSet<(usize, String)> = BTreeSet::new();
    for (i, f) in files.iter().enumerate().filter(|(_, f)| is_csharp(f)) {
        let edges = f.facts.edges.iter().map(|e| e.callee.as_str());
        let receivers = f
            .facts
            .services
            .iter()
            .filter(|s| s.source == CONSUMER)
            .map(|s| s.name.as_str());
        for c in edges.chain(receivers).filter_map(placeholder) {
            wanted.insert((i, c));
        }
    }
    if wanted.is_empty() {
        return;
    }
    let mut reads = 0;
    let kept = super::link_programs::kept_csharp(files, cwd);
    let mut found: BTreeMap<(usize, String), String> = BTreeMap::new();
    for (i, c) in wanted {
        let Some((class, name)) = c.split_once('.') else {
            continue;
        };
        let value = |g: &ScannedFile| match &g.facts.csharp {
            Some(c) => c.constant(class, name).map(str::to_string),
            None => super::link_programs::constant(&g.source.text, class, name),
        };
        let mine = units(&files[i]);
        let mut same: BTreeSet<String> = BTreeSet::new();
        let mut any: BTreeSet<String> = BTreeSet::new();
        for g in files.iter().filter(|g| is_csharp(g)) {
            if let Some(v) = value(g) {
                if units(g).iter().any(|u| mine.contains(u)) {
                    same.insert(v.clone());
                }
                any.insert(v);
            }
        }
        let one = |s: BTreeSet<String>| (s.len() == 1).then(|| s.into_iter().next()).flatten();
        let mut v = one(same).or_else(|| one(any));
        if v.is_none() {
            let path = match cwd {
                Some(c) if files[i].source.path.is_relative() => c.join(&files[i].source.path),
                _ => files[i].source.path.clone(),
            };
            let file = format!("{class}.cs");
            'dirs: for dir in project_and_references(&path, look) {
                for p in super::link_programs::sources(&dir, look) {
                    if p.file_name().is_some_and(|n| *n == *file) && reads < MAX_CONSTANT_READS {
                        reads += 1;
                        let source = super::link_programs::source_facts(&p, &kept, look);
                        if let Some(x) = source.as_deref().and_then(|c| c.constant(class, name)) {
                            v = Some(x.to_string());
                            break 'dirs;
                        }
                    }
                }
            }
        }
        if let Some(v) = v {
            found.insert((i, c), v);
        }
    }
    for (i, f) in files.iter_mut().enumerate().filter(|(_, f)| is_csharp(f)) {
        let named = |c: &str| found.get(&(i, c.to_string())).cloned();
        for e in std::mem::take(&mut f.facts.edges) {
            let Some(c) = placeholder(&e.callee) else {
                f.facts.edges.push(e);
                continue;
            };
            match named(&c) {
                Some(v) => f.facts.edges.push(CallEdge { callee: v, ..e }),
                None => f.facts.unresolved.push(crate::model::UnresolvedCall {
                    span: e.span,
                    written: format!("{} to `{c}`", e.via),
                    caller: e.caller,
                    if_empty: None,
                    client: e.client,
                    policies: e.policies,
                    protocol: e.protocol,
                    if_unset: None,
                }),
            }
        }
        f.facts.services.retain_mut(|s| match placeholder(&s.name) {
            Some(c) if s.source == CONSUMER => match named(&c) {
                Some(v) => {
                    s.name = v;
                    true
                }
                None => false,
            },
            _ => true,
        });
    }
}

/// The folder of the project `file` belongs to (the nearest holding a
/// `*.csproj`) and the folders of the projects its `*.csproj`
/// references, as `look` sees them.
fn project_and_references(file: &Path, look: &dyn Look) -> Vec<PathBuf> {
    let Some((dir, csproj)) = file
        .ancestors()
        .skip(1)
        .take(MAX_UP)
        .find_map(|d| csproj_in(d, look).map(|c| (d.to_path_buf(), c)))
    else {
        return Vec::new();
    };
    let mut out = vec![dir.clone()];
    for (_, path) in read_csproj_paths(&csproj, look).1 {
        // Without `..` (`Shop.Orders/../Shop.Contracts`): the walk's
        // view covers no such path.
        if let Some(parent) = crate::config::normalise(&dir.join(&path)).parent() {
            out.push(parent.to_path_buf());
        }
    }
    out
}
