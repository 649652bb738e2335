//! The standard HTTP resilience handler's options configured by name
//! apart from the handler ([`NamedOptions`]: `ConfigureAll<..>(..)`,
//! `Configure<..>("catalog-standard", ..)`) joined to the handlers that
//! read them, in the programs that run both (issue 19, item 1).
//!
//! Each handler reads the options named `{client}-standard`
//! (dotnet/extensions, commit 5862342c9a,
//! `src/Libraries/Microsoft.Extensions.Http.Resilience/Resilience/ResilienceHttpClientBuilderExtensions.StandardResilience.cs`:
//! `optionsName = PipelineNameHelper.GetName(builder.Name, "standard")`;
//! `Internal/PipelineNameHelper.cs`: `$"{httpClientName}-{pipelineIdentifier}"`).
//! A typed client's name is its first type argument's name without its
//! namespace (dotnet/runtime,
//! `src/libraries/Microsoft.Extensions.Http/src/DependencyInjection/HttpClientFactoryServiceCollectionExtensions.cs`:
//! `TypeNameHelper.GetTypeDisplayName(typeof(TClient), fullName: false)`),
//! a named client's its string, and the handler of
//! `ConfigureHttpClientDefaults` has none (`-standard`).
//!
//! Microsoft.Extensions.Options runs `ConfigureAll` and `Configure(name)`
//! in the order they were registered, then every `PostConfigure`
//! (`OptionsFactory.Create`). Across files the order is not known: the
//! handler's own settings (its lambda, its section) are taken as the
//! later, so options fill in only what the handler leaves at its
//! defaults; a `PostConfigure`/`PostConfigureAll` goes over them. Several
//! options calls for one handler apply in the order of their files and
//! places.
//!
//! The options apply in the programs that run them: a handler of a shared
//! ServiceDefaults project that several programs build is, in each program
//! with options of its own (`ConfigureAll` in `Orders/Program.cs`), a
//! handler of its own: a copy of the policy with `scope.caller` set to
//! that program ([`program_variants`]), which takes the options, while the
//! policy itself stays the handler of the other programs. The graph gives
//! each program's calls its own copy, and the client-method narrowing
//! (`super::link::narrow`) reads each copy's programs' calls only. A file
//! of no build unit (no `*.csproj` above it) joins within itself. A name given to `Configure<..>(name, ..)` that none of the
//! handlers of the programs running it reads is RL902, naming the names
//! the handlers read; one not ending in `-standard` is RL902 also when
//! no handler is seen.

use super::link::units;
use crate::diag::invalid_setting;
use crate::model::{ClientScope, ScannedFile, SettingPlace, System};
use std::collections::BTreeSet;

fn place(f: &ScannedFile, span: crate::source::Span) -> SettingPlace {
    SettingPlace {
        path: f.source.display_path(),
        line: f.source.line_col(span.start).line,
    }
}

/// The options name a handler reads, from the client it is on (its
/// policy's name as the C# reader writes it); `None` when not known.
pub fn options_name(policy_name: &str, client: Option<&ClientScope>) -> Option<String> {
    if client == Some(&ClientScope::Named("default".into())) {
        return Some("-standard".into());
    }
    if let Some(rest) = policy_name.strip_prefix("AddHttpClient(\"") {
        let (named, _) = rest.split_once("\")")?;
        return Some(format!("{named}-standard"));
    }
    let rest = policy_name.strip_prefix("AddHttpClient<")?;
    let first = rest.split([',', '>']).next()?.trim();
    let simple = first.rsplit('.').next()?.trim();
    (!simple.is_empty()).then(|| format!("{simple}-standard"))
}

/// The programs a handler policy of file `f` stands for: its own program
/// for a per-program copy, else the file's build units less those that
/// have a copy of the policy.
pub fn programs(f: &ScannedFile, i: usize) -> BTreeSet<String> {
    let p = &f.facts.policies[i];
    if let Some(u) = &p.scope.caller {
        return BTreeSet::from([u.clone()]);
    }
    let mut us = units(f);
    for q in &f.facts.policies {
        if let Some(u) = &q.scope.caller
            && is_copy_of(q, p)
        {
            us.remove(u);
        }
    }
    us
}

/// Whether `q` is a per-program copy of the handler `p`.
fn is_copy_of(q: &crate::model::RetryPolicy, p: &crate::model::RetryPolicy) -> bool {
    q.scope.caller.is_some()
        && p.scope.caller.is_none()
        && q.span == p.span
        && q.name == p.name
        && q.system == p.system
        && q.kind == p.kind
}

/// Whether options of file `o` apply to handler `i` of file `h`: in the
/// same file, or in every program the handler stands for.
fn reaches(files: &[ScannedFile], o: usize, h: usize, i: usize) -> bool {
    if o == h {
        return true;
    }
    let ps = programs(&files[h], i);
    !ps.is_empty() && ps.is_subset(&units(&files[o]))
}

/// Whether the programs running options of file `o` run handler `i` of
/// file `h` in at least one of them.
fn overlaps(files: &[ScannedFile], o: usize, h: usize, i: usize) -> bool {
    o == h || !programs(&files[h], i).is_disjoint(&units(&files[o]))
}

/// Whether options configured for `name` (`None`: every name) are the
/// ones a handler reading `reads` reads.
fn name_matches(name: Option<&String>, reads: Option<&String>) -> bool {
    match (name, reads) {
        (None, _) => true,
        (Some(n), Some(r)) => n == r,
        (Some(_), None) => false,
    }
}

/// The standard handlers (retry policies) of the files.
fn standard_handlers(files: &[ScannedFile]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system == System::DotnetStandard && p.kind == crate::model::PolicyKind::Retry {
                out.push((id, i));
            }
        }
    }
    out
}

/// A handler some programs running it configure with options (of a file
/// of theirs) and others do not is, in each of those programs, a copy of
/// its own ([`crate::model::Scope::caller`]: the program), made before
/// any options are applied.
fn program_variants(files: &mut [ScannedFile], decls: &[(usize, usize)]) {
    for (h, i) in standard_handlers(files) {
        let hu = units(&files[h]);
        let mut split: BTreeSet<String> = BTreeSet::new();
        let p = &files[h].facts.policies[i];
        let reads = options_name(p.name.as_deref().unwrap_or(""), p.scope.client.as_ref());
        for &(o, j) in decls {
            let ou = units(&files[o]);
            let d = &files[o].facts.named_options[j];
            if o == h || hu.is_subset(&ou) || !name_matches(d.name.as_ref(), reads.as_ref()) {
                continue;
            }
            split.extend(hu.intersection(&ou).cloned());
        }
        for u in split {
            let mut copy = files[h].facts.policies[i].clone();
            copy.scope.caller = Some(u);
            files[h].facts.policies.push(copy);
        }
    }
}

pub fn join(files: &mut [ScannedFile]) {
    let mut decls: Vec<(usize, usize)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for j in 0..f.facts.named_options.len() {
            decls.push((id, j));
        }
    }
    if decls.is_empty() {
        return;
    }
    program_variants(files, &decls);
    // The handlers: (file, policy, the options name it reads).
    let handlers: Vec<(usize, usize, Option<String>)> = standard_handlers(files)
        .into_iter()
        .map(|(id, i)| {
            let p = &files[id].facts.policies[i];
            let name = p.name.as_deref().unwrap_or("");
            (id, i, options_name(name, p.scope.client.as_ref()))
        })
        .collect();
    // Plain options first, then the post-configurations over them.
    for post in [false, true] {
        for &(o, j) in &decls {
            let d = files[o].facts.named_options[j].clone();
            if d.post != post {
                continue;
            }
            let from = place(&files[o], d.span);
            for (h, i, reads) in &handlers {
                if !name_matches(d.name.as_ref(), reads.as_ref()) || !reaches(files, o, *h, *i) {
                    continue;
                }
                let p = &mut files[*h].facts.policies[*i];
                crate::systems::dotnet::model::overlay(p, &d.settings, d.post, o == *h);
                if o != *h && !p.settings_from.contains(&from) {
                    p.settings_from.push(from.clone());
                }
                // Bound to a section: judged where the section writes it.
                if p.use_of.is_none() {
                    p.use_of.clone_from(&d.settings.use_of);
                }
                for s in &d.settings.settings_from {
                    if !p.settings_from.contains(s) {
                        p.settings_from.push(s.clone());
                    }
                }
            }
        }
    }
    // A name no handler reads.
    for &(o, j) in &decls {
        let d = &files[o].facts.named_options[j];
        let Some(name) = d.name.clone() else { continue };
        let running: Vec<&Option<String>> = handlers
            .iter()
            .filter(|(h, i, _)| overlaps(files, o, *h, *i))
            .map(|(_, _, r)| r)
            .collect();
        if running.iter().any(|r| r.as_deref() == Some(name.as_str())) {
            continue;
        }
        // A handler whose name is not known may read it.
        if running.iter().any(|r| r.is_none()) {
            continue;
        }
        let read: BTreeSet<String> = running.iter().filter_map(|r| (*r).clone()).collect();
        let why = if read.is_empty() {
            if name.ends_with("-standard") {
                continue;
            }
            "each standard handler reads the options named `{client}-standard` (`-standard` for the handler of `ConfigureHttpClientDefaults`)".to_string()
        } else {
            let list: Vec<String> = read.iter().map(|r| format!("`{r}`")).collect();
            format!(
                "the standard handlers of the programs that run it read {}",
                list.join(", ")
            )
        };
        let span = d.span;
        files[o]
            .facts
            .diagnostics
            .push(invalid_setting::unread(
                span,
                &format!("configuring the options named `{name}`"),
                &why,
                "name the options `{client}-standard` after the client whose handler they configure, or use `ConfigureAll<HttpStandardResilienceOptions>(..)` for every handler",
            ));
    }
}

#[cfg(test)]
mod tests {
    use super::options_name;
    use crate::model::ClientScope;

    #[test]
    fn the_name_each_handler_reads() {
        let named = |c: &str| Some(ClientScope::Named(c.into()));
        assert_eq!(
            options_name("ConfigureHttpClientDefaults", named("default").as_ref()).as_deref(),
            Some("-standard")
        );
        assert_eq!(
            options_name("AddHttpClient(\"catalog\")", None).as_deref(),
            Some("catalog-standard")
        );
        // The client is named after its first type argument, without its
        // namespace.
        assert_eq!(
            options_name("AddHttpClient<Shop.ICatalog, Shop.Catalog>", None).as_deref(),
            Some("ICatalog-standard")
        );
        assert_eq!(options_name("AddStandardResilienceHandler", None), None);
    }
}
