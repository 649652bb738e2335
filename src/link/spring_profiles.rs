//! A placeholder call target resolved in a unit's configuration documents,
//! profile by profile (the default's edge, then each profile's whose
//! target differs; `spring.profiles.group` members active with their
//! group), and the entries of a map's or list's placeholder: the
//! resolving half of [`super::spring_calls`], which finds the placeholders
//! and the documents.

use super::spring_calls::{Doc, MAX_ENTRIES};
use crate::extract::calls::{self, Target};
use crate::model::{CallEdge, UnresolvedCall};
use crate::systems::spring::extract::Prop;
use crate::systems::spring::placeholders;
use std::collections::{BTreeSet, HashMap};

/// The calls of each entry the unit's documents set under `base`
/// (`base.<key>`, `base[i]`), each resolved as its own placeholder, with
/// the policies of `u`.
pub(super) fn each_key(docs: &[Doc], base: &str, u: &UnresolvedCall) -> Vec<CallEdge> {
    // Relaxed: `peerUrls` is set as `peer-urls` (spring-boot
    // `DataObjectPropertyName`).
    let want: Vec<String> = base.split('.').map(crate::keys::normalise_key).collect();
    let mut keys: BTreeSet<String> = BTreeSet::new();
    for p in docs.iter().flat_map(|d| &d.props) {
        let segs = &p.segments;
        if segs.len() <= want.len()
            || !segs
                .iter()
                .zip(&want)
                .all(|(s, w)| crate::keys::normalise_key(s) == *w)
        {
            continue;
        }
        let entry = &segs[want.len()];
        if !entry.is_empty() && keys.len() < MAX_ENTRIES {
            let sep = if entry.starts_with('[') { "" } else { "." };
            keys.insert(format!("{base}{sep}{entry}"));
        }
    }
    let mut out = Vec::new();
    for k in keys {
        if let Outcome::Edges(found) = edges(docs, &format!("${{{k}}}"), u) {
            out.extend(found.into_iter().map(|mut e| {
                e.policies.clone_from(&u.policies);
                e
            }));
        }
    }
    out
}

/// What a placeholder call target resolves to.
pub(super) enum Outcome {
    /// The default profile's edge, then each profile's whose target differs.
    Edges(Vec<CallEdge>),
    /// No profile names a service; one names this machine or an IP literal
    /// (the value, shortened).
    NoService(String),
    /// Nothing resolves it.
    Unknown,
}

/// What `template` resolves to in each profile.
pub(super) fn edges(docs: &[Doc], template: &str, u: &UnresolvedCall) -> Outcome {
    let groups = profile_groups(docs);
    let profiles: BTreeSet<&str> = docs
        .iter()
        .filter_map(|d| d.profile.as_deref())
        .chain(groups.keys().map(String::as_str))
        .collect();
    let mut out: Vec<CallEdge> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut local: Option<String> = None;
    for profile in std::iter::once(None).chain(profiles.into_iter().map(Some)) {
        // A group's members are active with it, after it: the last one's
        // documents first.
        let active: Vec<&str> = profile
            .into_iter()
            .chain(
                profile
                    .and_then(|p| groups.get(p))
                    .into_iter()
                    .flatten()
                    .map(String::as_str),
            )
            .collect();
        let sources: Vec<&Doc> = active
            .iter()
            .rev()
            .flat_map(|a| {
                docs.iter()
                    .filter(move |d| d.profile.as_deref() == Some(*a))
            })
            .chain(docs.iter().filter(|d| d.profile.is_none()))
            .collect();
        let props: Vec<&[Prop]> = sources.iter().map(|d| d.props.as_slice()).collect();
        let Some(value) = placeholders::expand_in(template, &props) else {
            continue;
        };
        let callee = match callee(template, &value, u) {
            Callee::Service(c) => c,
            Callee::NoService => {
                local.get_or_insert_with(|| value.chars().take(80).collect());
                continue;
            }
            Callee::Unknown => continue,
        };
        if !seen.insert(callee.clone()) {
            continue;
        }
        // The file that holds the first key of the template.
        let key = template
            .split_once("${")
            .map(|(_, r)| r.split([':', '}']).next().unwrap_or(""))
            .unwrap_or("");
        let from = sources
            .iter()
            .find(|d| d.expand(&format!("${{{key}}}")).is_some())
            .map_or("the placeholder's default", |d| d.file.as_str());
        let shown: String = value.chars().take(80).collect();
        out.push(CallEdge {
            caller: None,
            callee,
            span: u.span,
            policies: Vec::new(),
            via: match profile {
                None => format!("`{template}` = `{shown}` ({from})"),
                Some(p) => format!("`{template}` = `{shown}` (profile `{p}`, {from})"),
            },
            client: u.client.clone(),
            protocol: u.protocol,
        });
    }
    match (out.is_empty(), local) {
        (false, _) => Outcome::Edges(out),
        (true, Some(v)) => Outcome::NoService(v),
        (true, None) => Outcome::Unknown,
    }
}

/// `spring.profiles.group.<name>` of the default documents: the profiles
/// each group activates with it, in order (`a,b` or a list). Spring Boot
/// activates a group's members after the group, so a later member's
/// documents win (spring-boot `StandardConfigDataLocationResolver` /
/// `Profiles`, reference "Profile Groups").
fn profile_groups(docs: &[Doc]) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for d in docs.iter().filter(|d| d.profile.is_none()) {
        for p in &d.props {
            if p.segments.len() < 4
                || p.normalised(0) != "spring"
                || p.normalised(1) != "profiles"
                || p.normalised(2) != "group"
            {
                continue;
            }
            let name = p.segments[3].trim().to_string();
            let members = out.entry(name).or_default();
            for m in p.value.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                if !members.iter().any(|x| x == m) && members.len() < 32 {
                    members.push(m.to_string());
                }
            }
        }
    }
    out
}

/// What a resolved value is as a call target.
enum Callee {
    Service(String),
    /// This machine, an IP literal, documentation: no edge.
    NoService,
    /// Not a target this knows how to read (a hole left in it).
    Unknown,
}

/// The callee a resolved value names: a URL's host, a bare host for a
/// placeholder whose key says it holds one (`svc.host`), a Feign client's
/// name when its `url` is empty.
fn callee(template: &str, value: &str, u: &UnresolvedCall) -> Callee {
    let v = value.trim();
    // spring-cloud-openfeign `FeignClientFactoryBean.getTarget()`: without
    // text in `url`, `http://<name>` through the load balancer.
    if v.is_empty() {
        return u.if_empty.clone().map_or(Callee::Unknown, Callee::Service);
    }
    match calls::url_target(v) {
        Target::Host(h) => return Callee::Service(h),
        Target::Unresolved(_) => return Callee::Unknown,
        Target::None if v.contains("://") => return Callee::NoService,
        Target::None => {}
    }
    // A whole placeholder of a host-like key: `orders` or `orders:8080`.
    let whole = template.starts_with("${") && template.ends_with('}');
    let key = template
        .trim_start_matches("${")
        .split([':', '}'])
        .next()
        .unwrap_or("");
    if whole && calls::url_key(key) && !v.contains(['/', ' ']) {
        return if calls::names_service(v) {
            Callee::Service(v.to_string())
        } else {
            Callee::NoService
        };
    }
    Callee::Unknown
}
