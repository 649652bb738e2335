//! Configuration a .NET program's workload sets in its environment
//! (issue 17, issue 19): `ApiSettings__GatewayAddress=http://gateway:8080`
//! in the compose service or the Kubernetes container that runs the
//! program is the key `ApiSettings:GatewayAddress`, and wins over every
//! `appsettings*.json` (see [`crate::extract::config_env`], which keeps
//! the entries as stand-ins).
//!
//! A workload runs a program (a build unit, `Shopping_Web` for
//! `Shopping.Web.csproj`) when one of its names is the unit's, compared
//! by letters and digits only, ignoring case: the workload's own name
//! (`shopping.web`, `basket-api`), an image it runs (`eshop/basket.api`)
//! or the unit the link step joined to its build context
//! (`Placement::unit`). A program run by several workloads gets each
//! one's value: the environment's where it sets the key, else the
//! settings files'.

use crate::extract::config_env::{is_stand_in, parts};
use crate::model::calls::IdentityKind;
use crate::model::{ScannedFile, SettingPlace};
use std::collections::{BTreeMap, BTreeSet};

/// One entry: the variable as written, its value, where it is set.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub var: String,
    pub value: String,
    pub place: SettingPlace,
}

/// The workloads' configuration entries, by workload.
#[derive(Debug, Default)]
pub struct Env {
    /// workload -> its names, compared as [`norm`] makes them.
    names: BTreeMap<String, BTreeSet<String>>,
    /// (workload, key as .NET reads it, lower case) -> the entries.
    entries: BTreeMap<(String, String), Vec<Entry>>,
}

/// What a program's workloads say of a key.
#[derive(Debug, Default, PartialEq)]
pub struct Lookup<'a> {
    /// The entries that set it, with their workload.
    pub set: Vec<(&'a str, &'a Entry)>,
    /// Whether a workload runs the program without setting the key (the
    /// settings files' value holds there), or none is known to run it.
    pub files_hold: bool,
}

/// A name as it is compared: its letters and digits, lower case.
fn norm(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `ApiSettings__GatewayAddress` -> `apisettings:gatewayaddress`.
pub fn key_of(var: &str) -> String {
    var.replace("__", ":").to_ascii_lowercase()
}

impl Env {
    /// Take every stand-in out of `files`, kept by workload.
    pub fn take(files: &mut [ScannedFile]) -> Env {
        let mut env = Env::default();
        for f in files.iter_mut() {
            if !f.facts.edges.iter().any(is_stand_in) {
                continue;
            }
            for e in f.facts.edges.iter().filter(|e| is_stand_in(e)) {
                let Some((workload, var)) = e.client.as_deref().and_then(parts) else {
                    continue;
                };
                let place = SettingPlace {
                    path: f.source.display_path(),
                    line: f.source.line_col(e.span.start).line,
                };
                if !env.names.contains_key(workload) {
                    let mut names = BTreeSet::from([norm(workload)]);
                    for s in f.facts.services.iter().filter(|s| {
                        s.name == workload
                            && matches!(s.kind, IdentityKind::Compose | IdentityKind::Workload)
                    }) {
                        for image in &s.placement.images {
                            let short = image.rsplit('/').next().unwrap_or(image);
                            names.insert(norm(short.split([':', '@']).next().unwrap_or(short)));
                        }
                        if let Some(u) = &s.placement.unit {
                            names.insert(norm(u));
                        }
                    }
                    names.remove("");
                    env.names.insert(workload.to_string(), names);
                }
                let slot = env
                    .entries
                    .entry((workload.to_string(), key_of(var)))
                    .or_default();
                let entry = Entry {
                    var: var.to_string(),
                    value: e.callee.clone(),
                    place,
                };
                if !slot.contains(&entry) {
                    slot.push(entry);
                }
            }
            f.facts.edges.retain(|e| !is_stand_in(e));
        }
        env
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The workloads that run the program `unit`.
    fn workloads<'a>(&'a self, unit: &str) -> impl Iterator<Item = &'a str> + 'a {
        let n = norm(unit);
        self.names
            .iter()
            .filter(move |(_, names)| !n.is_empty() && names.contains(&n))
            .map(|(w, _)| w.as_str())
    }

    /// What the workloads running `unit` set for `key` (as .NET reads it:
    /// sections joined by `:`, any case).
    pub fn lookup(&self, unit: &str, key: &str) -> Lookup<'_> {
        let key = key.to_ascii_lowercase();
        let mut out = Lookup::default();
        let mut any = false;
        for w in self.workloads(unit) {
            any = true;
            match self.entries.get(&(w.to_string(), key.clone())) {
                Some(set) => out.set.extend(set.iter().map(|e| (w, e))),
                None => out.files_hold = true,
            }
        }
        if !any {
            out.files_hold = true;
        }
        out
    }

    /// Every key under `section` (`ConnectionStrings`) the workloads
    /// running `unit` set: (the key's last part, lower case, entry).
    pub fn under<'a>(&'a self, unit: &str, section: &str) -> Vec<(String, &'a str, &'a Entry)> {
        let prefix = format!("{}:", section.to_ascii_lowercase());
        let mut out = Vec::new();
        for w in self.workloads(unit) {
            for ((at, key), set) in self.entries.range((w.to_string(), prefix.clone())..) {
                let Some(rest) = key.strip_prefix(&prefix).filter(|_| at == w) else {
                    break;
                };
                out.extend(set.iter().map(|e| (rest.to_string(), w, e)));
            }
        }
        out
    }
}

/// How an edge whose target a workload's environment set says so, after
/// the call's own via.
pub fn via(via: &str, workload: &str, e: &Entry) -> String {
    format!(
        "{via}, `{}` set by the environment of `{workload}` ({}:{})",
        e.var, e.place.path, e.place.line
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_names() {
        assert_eq!(
            key_of("ApiSettings__GatewayAddress"),
            "apisettings:gatewayaddress"
        );
        assert_eq!(key_of("IdentityUrl"), "identityurl");
        assert_eq!(norm("Shopping_Web"), norm("shopping.web"));
        assert_eq!(norm("Basket_API"), norm("basket-api"));
    }
}
