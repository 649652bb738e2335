//! Span exporters Spring Boot does not build are no calls (issue 17): a
//! workload's environment that sets `MANAGEMENT_ZIPKIN_TRACING_ENDPOINT`
//! beside `MANAGEMENT_TRACING_ENABLED=false` makes no call to the Zipkin
//! server (sivaprasadreddy/spring-boot-microservices-course 0e759ec: five
//! edges to `tempo` while `.env` turns tracing off).
//!
//! Spring Boot builds its Zipkin and OTLP span exporters only under
//! `@ConditionalOnEnabledTracing` (`ZipkinAutoConfiguration`,
//! `OtlpTracingConfigurations`), whose condition
//! (spring-boot c15f8c5 `actuate/autoconfigure/tracing/OnEnabledTracingCondition.java`)
//! reads the exporter's own `management.<exporter>.tracing.export.enabled`
//! first, then `management.tracing.enabled`, and is on when neither is
//! set. The environment variables are the same keys in Spring's relaxed
//! binding (`MANAGEMENT_TRACING_ENABLED`).

use crate::extract::Facts;
use crate::yaml::Yaml;

/// A tracing switch: the exporter it is for (`None`: every exporter,
/// `management.tracing.enabled`) and its value.
pub type Switch = (Option<&'static str>, bool);

/// The exporters whose endpoint keys are read, as Spring Boot 3 names them
/// (`management.zipkin.tracing.endpoint`, `ZipkinProperties`;
/// `management.otlp.tracing.endpoint`, `OtlpTracingProperties`).
pub const EXPORTERS: &[&str] = &["zipkin", "otlp"];

/// The exporter whose endpoint `key` sets.
pub fn exporter_of(key: &str) -> Option<&'static str> {
    let k = crate::keys::relaxed_name(key);
    // `management{x}tracingendpoint`, without formatting it for every
    // key of every Spring document.
    let x = k
        .strip_prefix("management")
        .and_then(|r| r.strip_suffix("tracingendpoint"))?;
    EXPORTERS.iter().copied().find(|e| *e == x)
}

/// The switch `key` = `value` is, if it is one with a boolean value
/// (a placeholder, unresolved, is none).
pub fn switch(key: &str, value: &str) -> Option<Switch> {
    let k = crate::keys::relaxed_name(key);
    let on = match value
        .trim()
        .trim_matches(['"', '\''])
        .to_ascii_lowercase()
        .as_str()
    {
        "true" => true,
        "false" => false,
        _ => return None,
    };
    if k == "managementtracingenabled" {
        return Some((None, on));
    }
    EXPORTERS
        .iter()
        .copied()
        .find(|x| k == format!("management{x}tracingexportenabled"))
        .map(|x| (Some(x), on))
}

/// Whether `exporter` is built under `switches` (the exporter's own
/// first, then the global one; on by default; the last of each wins).
pub fn built(exporter: &str, switches: &[Switch]) -> bool {
    let last = |f: &dyn Fn(&Switch) -> bool| switches.iter().rev().find(|s| f(s)).map(|s| s.1);
    last(&|s| s.0 == Some(exporter))
        .or_else(|| last(&|s| s.0.is_none()))
        .unwrap_or(true)
}

/// The span exporter endpoints one Spring configuration document writes
/// (`management.zipkin.tracing.endpoint: http://tempo:9411/api/v2/spans`)
/// as calls of `caller`, `via` the key: the switches that may leave the
/// exporter unbuilt are weighed at link time (`link::tracing_off`: the
/// program's default-profile files, under its workload's environment). A
/// value still holding a placeholder is left to the environment entry
/// that sets it (its own edge); `localhost` is this machine.
pub fn from_props(props: &[crate::extract::prop::Prop], caller: Option<&str>, facts: &mut Facts) {
    for p in props {
        let key = p.key();
        if exporter_of(&key).is_none() || p.value.contains("${") {
            continue;
        }
        let Some(callee) = crate::extract::workload::host_of(&p.value) else {
            continue;
        };
        let v = p.value.trim().to_ascii_lowercase();
        let http = v.starts_with("http://") || v.starts_with("https://");
        facts.edges.push(crate::model::CallEdge {
            client: None,
            caller: caller.map(str::to_string),
            callee,
            span: p.value_span,
            policies: Vec::new(),
            via: format!("`{key}`"),
            protocol: http.then_some(crate::model::calls::Protocol::Http),
        });
    }
}

/// The exporter a call's `via` says it is the endpoint of: an environment
/// entry (``env `MANAGEMENT_ZIPKIN_TRACING_ENDPOINT` ``) or the key of an
/// `application*` file ([`from_props`]).
pub fn exporter_of_via(via: &str) -> Option<&'static str> {
    if let Some(x) = crate::extract::workload::env_name_of(via).and_then(exporter_of) {
        return Some(x);
    }
    let key = via.strip_prefix('`')?.strip_suffix('`')?;
    (!key.contains('`')).then_some(())?;
    exporter_of(key)
}

/// Said of an exporter's edge whose environment turns tracing on: the
/// program's `application*` files (below the environment) do not turn it
/// off (`link::tracing_off`).
pub const ENV_SWITCHED: &str = " (tracing on in its environment)";

/// Drop `caller`'s environment edges to an exporter's endpoint that its
/// `switches` turn off; those they turn on say so ([`ENV_SWITCHED`]).
pub fn drop_off(caller: &str, switches: &[Switch], facts: &mut Facts) {
    if switches.is_empty() {
        return;
    }
    facts.edges.retain_mut(|e| {
        let Some(x) = crate::extract::workload::env_name_of(&e.via).and_then(exporter_of) else {
            return true;
        };
        if e.caller.as_deref() != Some(caller) {
            return true;
        }
        if !built(x, switches) {
            return false;
        }
        if switches.iter().any(|s| s.0.is_none_or(|y| y == x)) && !e.via.ends_with(ENV_SWITCHED) {
            e.via.push_str(ENV_SWITCHED);
        }
        true
    });
}

/// The switches a Kubernetes container's `env` list sets.
pub fn env_list_switches(env: Yaml<'_>, out: &mut Vec<Switch>) {
    for e in env.items() {
        if let (Some(k), Some(v)) = (
            e.get("name").and_then(|n| n.as_str()),
            e.get("value").and_then(|v| v.as_str()),
        ) && let Some(s) = switch(k, v)
        {
            out.push(s);
        }
    }
}

/// The switches a compose service's `env_file` files and `environment`
/// set, in that order (`environment` wins), as docker compose passes
/// them (`value`: interpolated from `.env`).
pub fn compose_switches(
    service: Yaml<'_>,
    env: Option<&crate::extract::compose_env::ComposeEnv>,
    value: &dyn Fn(&str) -> String,
) -> Vec<Switch> {
    let mut out = Vec::new();
    if let Some(e) = env {
        for (path, _) in crate::extract::workload::env_file_paths(service) {
            for (k, v) in e.env_files.get(&path).into_iter().flatten() {
                out.extend(switch(k, v));
            }
        }
    }
    let from_dotenv = |k: &str| env.and_then(|e| e.vars.get(k)).cloned();
    let Some(w) = service.get("environment") else {
        return out;
    };
    if w.is_map() {
        for x in w.entries() {
            if let Some(v) = x.value.as_str().map(value).or_else(|| from_dotenv(x.key)) {
                out.extend(switch(x.key, &v));
            }
        }
    } else {
        for i in w.items() {
            let Some(t) = i.as_str() else { continue };
            let v = match t.split_once('=') {
                Some((k, v)) => Some((k.trim(), value(v))),
                None => from_dotenv(t.trim()).map(|v| (t.trim(), v)),
            };
            if let Some((k, v)) = v {
                out.extend(switch(k, &v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_switches() {
        assert_eq!(
            exporter_of("MANAGEMENT_ZIPKIN_TRACING_ENDPOINT"),
            Some("zipkin")
        );
        assert_eq!(
            exporter_of("management.otlp.tracing.endpoint"),
            Some("otlp")
        );
        assert_eq!(exporter_of("MANAGEMENT_ZIPKIN_TRACING_ENABLED"), None);
        assert_eq!(
            switch("MANAGEMENT_TRACING_ENABLED", "false"),
            Some((None, false))
        );
        assert_eq!(
            switch("management.zipkin.tracing.export.enabled", "\"True\""),
            Some((Some("zipkin"), true))
        );
        assert_eq!(switch("MANAGEMENT_TRACING_ENABLED", "${X}"), None);
        assert_eq!(switch("MANAGEMENT_METRICS_ENABLED", "false"), None);
    }

    #[test]
    fn the_exporters_own_switch_first() {
        assert!(built("zipkin", &[]));
        assert!(!built("zipkin", &[(None, false)]));
        assert!(built("zipkin", &[(None, false), (Some("zipkin"), true)]));
        assert!(!built("otlp", &[(Some("otlp"), false), (None, true)]));
        assert!(!built("otlp", &[(None, true), (None, false)]));
        assert!(built("otlp", &[(Some("zipkin"), false)]));
    }
}
