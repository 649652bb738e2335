//! Properties a `@Bean` method binds onto the type it returns (issue 17):
//!
//! ```java
//! @Bean
//! @ConfigurationProperties(prefix = "stock.lookup")
//! public LookupSettings lookupSettings() { return new LookupSettings(); }
//! ```
//!
//! Spring Boot binds `stock.lookup.*` onto the returned object as onto a
//! `@ConfigurationProperties` class (`ConfigurationPropertiesBean` reads
//! the annotation from the factory method; the reference, "Third-party
//! Configuration"). The type is declared in another file, which may hold
//! no call word at all (no URL, no annotation) and so was never read for
//! calls: it is found here, among the scanned Java files of the bean's
//! build unit, else on disk where the bean file's import (or its own
//! package) puts it, and its address members become the bean's calls,
//! `${stock.lookup.baseUrl}`, resolved like any other placeholder by the
//! next step (`link::spring_calls`).
//!
//! A type declared by two scanned files of the unit, or found nowhere (a
//! library type such as `ClientCredentialsResourceDetails`), gives
//! nothing. At most [`MAX_TYPE_FILE`] bytes of a type's file are read.

use super::*;
use crate::model::UnresolvedCall;
use std::collections::HashMap;

/// The largest type file read from disk.
const MAX_TYPE_FILE: u64 = 512 * 1024;

pub fn bound_beans(files: &mut [ScannedFile], cwd: Option<&Path>, disk: Disk<'_>) {
    if files.iter().all(|f| f.facts.java.bound_beans.is_empty()) {
        return;
    }
    // (unit, simple name) -> the scanned files declaring it.
    let mut declared: HashMap<(String, String), Vec<usize>> = HashMap::new();
    let wanted: Vec<String> = files
        .iter()
        .flat_map(|f| f.facts.java.bound_beans.iter().map(|b| b.ty.clone()))
        .collect();
    for (id, f) in files.iter().enumerate() {
        if f.source.path.extension().is_none_or(|e| e != "java") {
            continue;
        }
        let Some(u) = super::client_beans::unit(f) else {
            continue;
        };
        for ty in &wanted {
            if declares(&f.source.text, ty) {
                let e = declared.entry((u.clone(), ty.clone())).or_default();
                if !e.contains(&id) {
                    e.push(id);
                }
            }
        }
    }
    for id in 0..files.len() {
        if files[id].facts.java.bound_beans.is_empty() {
            continue;
        }
        let unit = super::client_beans::unit(&files[id]);
        let mut add = Vec::new();
        for b in &files[id].facts.java.bound_beans {
            let scanned = unit
                .as_ref()
                .and_then(|u| declared.get(&(u.clone(), b.ty.clone())));
            let text = match scanned.map(Vec::as_slice) {
                Some([one]) => Some(files[*one].source.text.clone()),
                Some(_) => None,
                None => on_disk(&files[id], &b.ty, cwd, disk),
            };
            let Some(text) = text else { continue };
            for (_, placeholder) in
                crate::extract::calls::properties::bound_members(&text, &b.ty, &b.prefix)
            {
                add.push(UnresolvedCall::new(b.span, placeholder));
            }
        }
        let f = &mut files[id];
        for call in add {
            if !f
                .facts
                .unresolved
                .iter()
                .any(|c| c.span == call.span && c.written == call.written)
            {
                f.facts.unresolved.push(call);
            }
        }
        if !f.facts.unresolved.is_empty() {
            f.facts.claimed_by("calls");
        }
    }
}

/// Whether `text` declares a class or record named `ty`.
fn declares(text: &str, ty: &str) -> bool {
    ["class ", "record "].iter().any(|kw| {
        text.match_indices(&format!("{kw}{ty}")).any(|(at, m)| {
            let before = text[..at].chars().next_back();
            let after = text[at + m.len()..].chars().next();
            before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'))
                && after.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'))
        })
    })
}

/// The text of `ty`'s file beside the bean's: where its import puts it
/// below the same source root (`import shop.props.LookupSettings;`), else
/// in the bean's own package.
fn on_disk(bean: &ScannedFile, ty: &str, cwd: Option<&Path>, disk: Disk<'_>) -> Option<String> {
    let text = &bean.source.text;
    let path = match cwd {
        Some(c) if bean.source.path.is_relative() => c.join(&bean.source.path),
        _ => bean.source.path.clone(),
    };
    let dir = path.parent()?;
    let package = statement(text, "package ").unwrap_or_default();
    // The source root: the bean's folder less its package's folders.
    let mut root = dir.to_path_buf();
    for seg in package.split('.').filter(|s| !s.is_empty()).rev() {
        if root.file_name().is_some_and(|n| n == seg) {
            root.pop();
        } else {
            return None;
        }
    }
    let imported = text.lines().take(400).find_map(|l| {
        let l = l.trim();
        let name = l.strip_prefix("import ")?.trim().strip_suffix(';')?.trim();
        (!name.starts_with("static ") && name.rsplit('.').next() == Some(ty))
            .then(|| name.to_string())
    });
    let file = match imported {
        Some(q) => {
            let mut p = root;
            p.extend(q.split('.'));
            p.set_extension("java");
            p
        }
        None => dir.join(format!("{ty}.java")),
    };
    let text = disk.read(&file, MAX_TYPE_FILE)?;
    declares(&text, ty).then_some(text)
}

/// The argument of the first `keyword ...;` statement (`package a.b;`).
fn statement(text: &str, keyword: &str) -> Option<String> {
    text.lines().take(200).find_map(|l| {
        let rest = l.trim().strip_prefix(keyword)?;
        Some(rest.trim().trim_end_matches(';').trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_and_statements() {
        assert!(declares("public class LookupSettings {", "LookupSettings"));
        assert!(declares(
            "record LookupSettings(String url) {}",
            "LookupSettings"
        ));
        assert!(!declares("class LookupSettingsTest {", "LookupSettings"));
        assert!(!declares("new LookupSettings()", "LookupSettings"));
        assert_eq!(
            statement("// x\npackage shop.orders;\n", "package ").as_deref(),
            Some("shop.orders")
        );
    }
}
