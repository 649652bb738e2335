//! Java: Resilience4j instances named in code take their configuration,
//! and custom retry annotations are retries where they are used.

use super::*;

/// A Resilience4j retry composed around a circuit breaker in Java
/// (`registry.retry("inventory")`, `@Retry(name = "inventory")` with
/// `@CircuitBreaker`) takes what it retries from the `inventory` instance
/// of the configuration (YAML or properties), usually in another file:
/// RL104 needs its `retryExceptions` and `ignoreExceptions`. The instance
/// is taken from the nearest configuration file that defines it (longest
/// common folder); when two are equally near, nothing is taken. What is
/// retried, what is ignored and which methods are served are filled when
/// the source leaves them unknown, placed at the source's policy and
/// marked inherited (the instance's own findings are about the values).
pub fn resilience4j_instances(files: &mut [ScannedFile]) {
    use crate::model::{Located, RetryOn, System};
    let is_java = |f: &ScannedFile| f.syntax == Some(crate::model::Syntax::Java);
    let mut configured: Vec<(usize, usize)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        if is_java(f) {
            continue;
        }
        for (k, p) in f.facts.policies.iter().enumerate() {
            if p.system == System::Resilience4j && p.name.is_some() {
                configured.push((id, k));
            }
        }
    }
    if configured.is_empty() {
        return;
    }
    for id in 0..files.len() {
        if !is_java(&files[id]) {
            continue;
        }
        for k in 0..files[id].facts.policies.len() {
            let p = &files[id].facts.policies[k];
            let wanted = p.system == System::Resilience4j
                && !p.wraps_breaker.is_empty()
                && matches!(p.retry_on.value, RetryOn::Unknown);
            let Some(name) = p.name.clone().filter(|_| wanted) else {
                continue;
            };
            let here = files[id].source.path.clone();
            let candidates: Vec<(usize, usize)> = configured
                .iter()
                .copied()
                .filter(|&(c, j)| files[c].facts.policies[j].name.as_deref() == Some(&name))
                .collect();
            let Some((c, j)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let src = files[c].facts.policies[j].clone();
            let from = place(&files[c], src.span);
            let p = &mut files[id].facts.policies[k];
            let at = p.span;
            let mut on = Located::inherited(src.retry_on.value, at);
            if let RetryOn::Listed { conditions } = &mut on.value {
                for cond in conditions {
                    *cond = Located::inherited(cond.value.clone(), at);
                }
            }
            p.retry_on = on;
            // Which calls the instance serves is the configuration's
            // view too (it does not know the HTTP methods).
            if p.methods.is_default() {
                p.methods = Located::inherited(src.methods.value, at);
            }
            if p.ignores.is_empty() {
                p.ignores = src
                    .ignores
                    .into_iter()
                    .map(|i| Located::inherited(i.value, at))
                    .collect();
            }
            if !p.settings_from.contains(&from) {
                p.settings_from.push(from);
            }
        }
    }
}

/// Give each use of a custom retry annotation (`@RetryOnIo` on a method)
/// the policy of the `@Retryable` on the annotation's declaration, in the
/// nearest scanned file that declares it (none when two are equally
/// near). The use becomes a policy of its own file, placed at the
/// annotation, with the idempotency keys its method mints; its settings
/// are judged once, at the declaration (`RetryPolicy::use_of`).
pub fn java_retry_annotations(files: &mut [ScannedFile]) {
    let mut declared: Vec<(usize, crate::systems::java::extract::RetryAnnotation)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for a in &f.facts.java.retry_annotations {
            if a.policy < f.facts.policies.len() {
                declared.push((id, a.clone()));
            }
        }
    }
    if declared.is_empty() {
        return;
    }
    for id in 0..files.len() {
        if files[id].facts.java.annotation_uses.is_empty() {
            continue;
        }
        let here = files[id].source.path.clone();
        let mut added = Vec::new();
        for u in &files[id].facts.java.annotation_uses {
            // The same annotation: same name, and the same qualified name
            // where both files say it (an import, the package).
            let candidates: Vec<(usize, usize)> = declared
                .iter()
                .filter(|(_, a)| {
                    a.name == u.annotation
                        && match (&a.qualified, &u.qualified) {
                            (Some(a), Some(b)) => a == b,
                            _ => true,
                        }
                })
                .map(|(id, a)| (*id, a.policy))
                .collect();
            let Some((c, j)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let decl = &files[c].facts.policies[j];
            let mut p = decl.rebased(u.span);
            p.name = Some(u.target.clone());
            p.use_of = Some(format!("@{}", u.annotation));
            p.settings_from = vec![place(&files[c], decl.span)];
            p.idempotency = u.keys.clone();
            added.push(p);
        }
        files[id].facts.policies.extend(added);
    }
}

/// A Resilience4j retry composed around a circuit breaker named in code
/// (`@CircuitBreaker(name = "payments")`) takes that breaker's settings
/// from `resilience4j.circuitbreaker.instances.payments` in the nearest
/// configuration file that defines it, else from its `configs.default`
/// (an instance nobody configures is built from the default config);
/// none when two are equally near. Placed at the retry, marked
/// inherited (only the simulation reads them: no message names them).
pub fn resilience4j_breakers(files: &mut [ScannedFile]) {
    use crate::model::{Located, System};
    let configured: Vec<(usize, usize, String)> = files
        .iter()
        .enumerate()
        .flat_map(|(id, f)| {
            f.facts
                .breakers
                .iter()
                .enumerate()
                .filter(|(_, b)| b.system == System::Resilience4j)
                .map(move |(k, b)| (id, k, b.name.clone()))
        })
        .collect();
    if configured.is_empty() {
        return;
    }
    for id in 0..files.len() {
        for k in 0..files[id].facts.policies.len() {
            let p = &files[id].facts.policies[k];
            let Some(name) = p
                .breaker
                .as_ref()
                .filter(|b| p.system == System::Resilience4j && b.settings.is_none())
                .and_then(|b| b.name.clone())
            else {
                continue;
            };
            let here = files[id].source.path.clone();
            let named = |wanted: &str| -> Vec<(usize, usize)> {
                configured
                    .iter()
                    .filter(|(_, _, n)| n == wanted)
                    .map(|&(f, b, _)| (f, b))
                    .collect()
            };
            let mut candidates = named(&name);
            if candidates.is_empty() {
                candidates =
                    named(crate::systems::resilience4j::extract::breakers::DEFAULT_CONFIG_NAME);
            }
            if candidates.is_empty() {
                continue;
            }
            let Some((c, j)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let settings = files[c].facts.breakers[j].settings.value;
            let p = &mut files[id].facts.policies[k];
            let at = p.span;
            if let Some(b) = p.breaker.as_mut() {
                b.settings = Some(Located::inherited(settings, at));
            }
        }
    }
}

/// A Resilience4j `intervalBiFunction` given a class or method declared in
/// another file (`new RetryAfterInterval()`, `Waits::fromHeader`) waits
/// what that class's code reads from the server (`Retry-After`): RL208
/// judges it at the retry. Joined by the class's simple name (and the
/// method, for a reference); two classes of that name that read the
/// header join nothing.
pub fn interval_functions(files: &mut [ScannedFile]) {
    use crate::model::Located;
    let mut changes: Vec<(
        usize,
        usize,
        Located<crate::model::backoff::ServerDelay>,
        crate::model::SettingPlace,
    )> = Vec::new();
    {
        let classes: Vec<(usize, &crate::model::java_annotations::ServerDelayClass)> = files
            .iter()
            .enumerate()
            .flat_map(|(i, f)| {
                f.facts
                    .java
                    .server_delay_classes
                    .iter()
                    .map(move |c| (i, c))
            })
            .collect();
        if classes.is_empty() {
            return;
        }
        for (fi, f) in files.iter().enumerate() {
            for r in &f.facts.java.interval_refs {
                let found: Vec<&(usize, &crate::model::java_annotations::ServerDelayClass)> =
                    classes
                        .iter()
                        .filter(|(_, c)| {
                            c.class == r.class
                                && r.method.as_ref().is_none_or(|m| c.methods.contains(m))
                        })
                        .collect();
                let [(ci, c)] = found.as_slice() else {
                    continue;
                };
                if r.policy >= f.facts.policies.len() {
                    continue;
                }
                changes.push((
                    fi,
                    r.policy,
                    Located::included(c.delay.clone(), r.span),
                    place(&files[*ci], c.span),
                ));
            }
        }
    }
    for (fi, k, d, from) in changes {
        let p = &mut files[fi].facts.policies[k];
        p.server_delay = Some(d);
        p.settings_from.push(from);
    }
}
