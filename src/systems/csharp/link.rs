//! Typed HTTP clients joined across the files of one C# project (issue 19,
//! item 5): `AddHttpClient<T>(c => c.BaseAddress = ..)` is written in the
//! project's start-up code, the calls in class `T`'s own file. Each call
//! left unresolved there ([`super::extract`] names its client) takes the
//! base address registered for the client in the same build unit (the
//! `*.csproj`), and the registration's stand-in edge gives way to the
//! calls.

use super::extract::calls::{NO_BASE, REGISTRATION};
use crate::model::calls::IdentityKind;
use crate::model::{CallEdge, ScannedFile};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The build unit a file belongs to, if one.
fn unit(f: &ScannedFile) -> Option<String> {
    let names: BTreeSet<&str> = f
        .facts
        .services
        .iter()
        .filter(|s| s.kind == IdentityKind::BuildUnit)
        .map(|s| s.name.as_str())
        .collect();
    (names.len() == 1).then(|| names.into_iter().next().map(str::to_string))?
}

fn is_csharp(f: &ScannedFile) -> bool {
    f.source.path.extension().is_some_and(|e| e == "cs")
}

pub fn typed_clients(files: &mut [ScannedFile]) {
    // (unit, client) -> the registered host.
    let mut hosts: BTreeMap<(String, String), String> = BTreeMap::new();
    for f in files.iter().filter(|f| is_csharp(f)) {
        let Some(u) = unit(f) else { continue };
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
    if hosts.is_empty() {
        return;
    }
    let mut called: BTreeSet<(String, String)> = BTreeSet::new();
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let Some(u) = unit(f) else { continue };
        let mut kept = Vec::new();
        for call in std::mem::take(&mut f.facts.unresolved) {
            let key = call.client.clone().map(|c| (u.clone(), c));
            match (key.as_ref().and_then(|k| hosts.get(k)), &call.client) {
                (Some(host), Some(client)) if call.written.ends_with(NO_BASE) => {
                    f.facts.edges.push(CallEdge {
                        caller: call.caller.clone(),
                        callee: host.clone(),
                        span: call.span,
                        policies: Vec::new(),
                        via: call.written.trim_end_matches(NO_BASE).to_string(),
                        client: Some(client.clone()),
                    });
                    called.extend(key);
                }
                _ => kept.push(call),
            }
        }
        f.facts.unresolved = kept;
    }
    for f in files.iter_mut().filter(|f| is_csharp(f)) {
        let Some(u) = unit(f) else { continue };
        f.facts.edges.retain(|e| {
            !(e.via.ends_with(REGISTRATION)
                && e.client
                    .as_ref()
                    .is_some_and(|c| called.contains(&(u.clone(), c.clone()))))
        });
    }
}

/// The largest `*.csproj` read.
const MAX_CSPROJ: u64 = 1 << 20;
/// How many folders above a C# file are searched for its `*.csproj`.
const MAX_UP: usize = 32;
/// At most this many entries of a folder are looked at for a `*.csproj`.
const MAX_ENTRIES: usize = 512;

/// The `*.csproj` of the folder `dir`, if one.
fn csproj_in(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .take(MAX_ENTRIES)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "csproj"))
}

/// Whether a `*.csproj` builds a program (a web or worker project, an
/// `Exe`, an Aspire AppHost) rather than a library.
fn is_program(text: &str) -> bool {
    text.contains("Microsoft.NET.Sdk.Web")
        || text.contains("Microsoft.NET.Sdk.Worker")
        || text.contains("Aspire.AppHost.Sdk")
        || text.contains("<OutputType>Exe</OutputType>")
        || text.contains("<IsAspireHost>true</IsAspireHost>")
}

/// Whether a `*.csproj` builds a program, and the projects it references
/// (`<ProjectReference
/// Include="..\AspireShop.ServiceDefaults\AspireShop.ServiceDefaults.csproj" />`)
/// by their unit names.
fn read_csproj(csproj: &Path) -> (bool, Vec<String>) {
    let Ok(meta) = std::fs::symlink_metadata(csproj) else {
        return (true, Vec::new());
    };
    if !meta.is_file() || meta.len() > MAX_CSPROJ {
        return (true, Vec::new());
    }
    let Ok(text) = std::fs::read_to_string(csproj) else {
        return (true, Vec::new());
    };
    let refs = text
        .split("<ProjectReference")
        .skip(1)
        .filter_map(|item| {
            let (_, rest) = item.split_once("Include=\"")?;
            let (path, _) = rest.split_once('"')?;
            let file = path.rsplit(['\\', '/']).next()?;
            let stem = file.strip_suffix(".csproj")?;
            Some(crate::link::csproj_name(stem))
        })
        .collect();
    (is_program(&text), refs)
}

/// A project other projects reference (a .NET Aspire `ServiceDefaults`,
/// a shared event bus) runs inside each of them: its files are given the
/// build unit of every project that references it, so that
/// `ConfigureHttpClientDefaults(http => http.AddStandardResilienceHandler())`
/// there is every client's handler in each service that builds it.
pub fn shared_projects(files: &mut [ScannedFile], cwd: Option<&Path>) {
    let mut dirs: BTreeMap<PathBuf, Option<(String, bool, Vec<String>)>> = BTreeMap::new();
    let mut programs: BTreeSet<String> = BTreeSet::new();
    // unit -> the units that reference it.
    let mut used_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut file_unit: Vec<Option<String>> = Vec::with_capacity(files.len());
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
                csproj_in(dir).map(|p| {
                    let stem = p.file_stem().map(|s| s.to_string_lossy().to_string());
                    let (program, refs) = read_csproj(&p);
                    (
                        crate::link::csproj_name(&stem.unwrap_or_default()),
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
    for (f, u) in files.iter_mut().zip(file_unit) {
        let Some(users) = u
            .filter(|u| !programs.contains(u))
            .and_then(|u| used_by.get(&u))
        else {
            continue;
        };
        let Some(decl) = f
            .facts
            .services
            .iter()
            .find(|s| s.kind == IdentityKind::BuildUnit)
            .cloned()
        else {
            continue;
        };
        for user in users {
            let mut d = decl.clone();
            d.name.clone_from(user);
            d.source = format!("a ProjectReference of {user}");
            f.facts.services.push(d);
        }
    }
}
