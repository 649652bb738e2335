//! .NET options bound to a configuration section in code (issue 19, item
//! 1): `AddStandardResilienceHandler(config.GetSection("HttpClients:Catalog"))`
//! or `.Configure(config.GetSection(..))` on it
//! ([`crate::model::RetryPolicy::config_section`]) take the settings the
//! section writes in the nearest `appsettings.json` (the base file:
//! `appsettings.{Environment}.json` overrides it only where that
//! environment runs). The handler in code becomes a use of the section:
//! its settings are judged once, where the section writes them
//! (`RetryPolicy::use_of`), and the calls through it carry them.
//!
//! Options configured by name and bound to a section
//! (`ConfigureAll<HttpStandardResilienceOptions>(config.GetSection("X"))`,
//! `AddOptions<..>("catalog-standard").BindConfiguration("X")`) take the
//! section's settings here too, before `systems::csharp::options` gives
//! them to the handlers that read them.
//!
//! Not joined: `services.Configure<HttpStandardResilienceOptions>(section)`
//! configures the unnamed options, which no handler reads (each handler
//! reads the options named `{client}-standard`:
//! dotnet/extensions `ResilienceHttpClientBuilderExtensions.StandardResilience.cs`);
//! the C# reader reports it (RL902, `systems::csharp::extract::options`).

use super::{nearest, place};
use crate::model::ScannedFile;

pub fn dotnet_sections(files: &mut [ScannedFile]) {
    let is_settings = |f: &ScannedFile| {
        let name = f
            .source
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("");
        name.starts_with("appsettings") && name.ends_with(".json")
    };
    // The sections the settings files define, by path (.NET configuration
    // keys are case-insensitive).
    let mut sections: Vec<(usize, usize, String)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        if !is_settings(f) {
            continue;
        }
        for (i, p) in f.facts.policies.iter().enumerate() {
            if let Some(n) = &p.name {
                sections.push((id, i, n.to_ascii_lowercase()));
            }
        }
    }
    if sections.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let policies = files[id].facts.policies.len();
        for j in 0..policies + files[id].facts.named_options.len() {
            let Some(key) = at(&mut files[id], j, policies).config_section.clone() else {
                continue;
            };
            let want = key.to_ascii_lowercase();
            let all: Vec<(usize, usize)> = sections
                .iter()
                .filter(|(_, _, n)| *n == want)
                .map(|(f, i, _)| (*f, *i))
                .collect();
            let base: Vec<(usize, usize)> = all
                .iter()
                .copied()
                .filter(|(f, _)| {
                    files[*f]
                        .source
                        .path
                        .file_name()
                        .is_some_and(|n| n == "appsettings.json")
                })
                .collect();
            let here = files[id].source.path.clone();
            let pool = if base.is_empty() { &all } else { &base };
            let Some((c, k)) = nearest(&here, pool, files) else {
                continue;
            };
            let decl = files[c].facts.policies[k].clone();
            let from = place(&files[c], decl.span);
            let p = at(&mut files[id], j, policies);
            let d = decl.rebased(p.span);
            // What the code writes stays; the rest is the section's.
            if !p.attempts.is_written() {
                p.attempts = d.attempts;
            }
            if !p.delay.is_written() {
                p.delay = d.delay;
                p.cap_order = d.cap_order;
            }
            if !p.jitter.is_written() {
                p.jitter = d.jitter;
            }
            if p.per_try_timeout.as_ref().is_none_or(|t| !t.is_written()) {
                p.per_try_timeout = d.per_try_timeout;
            }
            if p.overall_timeout.as_ref().is_none_or(|t| !t.is_written()) {
                p.overall_timeout = d.overall_timeout;
            }
            if d.server_delay.is_some() {
                p.server_delay = d.server_delay;
            }
            p.settings_from.push(from);
            p.use_of = Some(format!("configuration section `{key}`"));
        }
    }
}

/// The `j`th policy of `f` whose configuration section may be joined: its
/// own policies, then the settings of its named options.
fn at(f: &mut ScannedFile, j: usize, policies: usize) -> &mut crate::model::RetryPolicy {
    if j < policies {
        &mut f.facts.policies[j]
    } else {
        &mut f.facts.named_options[j - policies].settings
    }
}
