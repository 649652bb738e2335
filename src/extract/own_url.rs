//! Variables that hold an app's own public address, not a call target
//! (issue 17, stop 51): what a browser calls (a front end's build
//! variables; those of a framework that also renders on the server are
//! the pod's calls where only the cluster resolves their host), where the
//! app itself is reached (its root, base, public, current or self URL),
//! where a login sends the user back (redirect, callback) and who may call
//! it (CORS origins). A workload given such a variable calls nothing with
//! it (vietnam-devs/coolstore-microservices 2fe75484
//! `deploys/charts/coolstore/templates/{backoffice,idp}-dep.yaml`).

/// Prefixes of the variables a client-only build inlines into the page:
/// the browser calls their addresses; the pod that serves the page (a
/// static server, or the framework's development server) reads none.
/// - `REACT_APP_`: facebook/create-react-app 02eb050c
///   `packages/react-scripts/config/env.js` (`/^REACT_APP_/i`, handed to
///   webpack's `DefinePlugin`);
/// - `VUE_APP_`: vuejs/vue-cli 03503b6f
///   `packages/@vue/cli-service/lib/util/resolveClientEnv.js`.
const BROWSER_PREFIXES: &[&str] = &["REACT_APP_", "VUE_APP_"];

/// Prefixes of variables a framework that also renders on the server
/// exposes to both sides: the server's code reads them too, so an address
/// only the cluster resolves (`http://orders:8080`, `*.svc.cluster.local`)
/// is called by the pod, any other by the browser.
/// - `NEXT_PUBLIC_`: vercel/next.js 06cd7df6
///   `packages/next/src/lib/static-env.ts`
///   (`getNextPublicEnvironmentVariables`, put back in the server's
///   `process.env` by `populateStaticEnv`);
/// - `VITE_`: vitejs/vite 041a3f14 `packages/vite/src/node/env.ts`
///   (`resolveEnvPrefix`'s default `envPrefix`; `import.meta.env` is the
///   same in modules rendered on the server).
const SHARED_PREFIXES: &[&str] = &["NEXT_PUBLIC_", "VITE_"];

/// Words that, before `url`/`uri`, say the address is the app's own
/// wherever they stand in the name (`Hosts__Externals__CurrentUri`,
/// `PUBLIC_URL`).
const OWN_WORDS: &[&str] = &["public", "current", "self", "own"];

/// Words that say where a user is sent back to: the address is the app's
/// (or its front end's) for the browser, never one the workload calls.
const BACK_WORDS: &[&str] = &["redirect", "callback", "return"];

/// Words a `root` or `base` URL may carry before that word and still be
/// the app's own (`BASE_URL`, `APP_BASE_URL`, `GF_SERVER_ROOT_URL`: the
/// word before `root`/`base` names the app); any other word names the
/// service called (`ORDERS_BASE_URL`, `API_ROOT_URL`, `CYPRESS_BASE_URL`).
const OWN_BASE_WORDS: &[&str] = &["app", "application", "site", "my"];

/// Prefixes of a server's own options whose `hostname` is the address the
/// server is exposed at: Keycloak's `KC_` (its `hostname` option, env
/// `KC_HOSTNAME`: "Address at which is the server exposed",
/// keycloak.org/server/hostname, "Relevant options").
const OWN_HOSTNAME_PREFIXES: &[&str] = &["kc"];

/// Whether the variable or configuration key `key`, holding `value`, holds
/// the app's own public address, a browser's target or the origins
/// allowed to call it.
pub fn own_public_url(key: &str, value: &str) -> bool {
    let upper = key.to_ascii_uppercase();
    if BROWSER_PREFIXES.iter().any(|p| upper.starts_with(p)) {
        return true;
    }
    if SHARED_PREFIXES.iter().any(|p| upper.starts_with(p)) {
        return !cluster_only(value);
    }
    let words = super::name_words::name_words(key);
    let has = |w: &str| words.iter().any(|x| x == w);
    // `Cors__AllowedOrigins`, `HostSettings__SpaAllowedCorsOrigin`,
    // `CORS_ORIGINS`, `ALLOWED_ORIGINS`: who may call the app.
    if has("cors") || ((has("origin") || has("origins")) && (has("allowed") || has("allow"))) {
        return true;
    }
    // `HOSTNAME`, `PUBLIC_HOSTNAME`, `APP_HOSTNAME`, `KC_HOSTNAME`: the
    // name the app itself is reached by, not a host it calls
    // (`ORDER_QUEUE_HOSTNAME` is one).
    if let Some(before) = words
        .strip_suffix(&["hostname".to_string()])
        .or_else(|| words.strip_suffix(&["host".to_string(), "name".to_string()]))
    {
        return before.iter().all(|w| {
            OWN_WORDS.contains(&w.as_str())
                || OWN_BASE_WORDS.contains(&w.as_str())
                || OWN_HOSTNAME_PREFIXES.contains(&w.as_str())
        });
    }
    // The address words end the name (`..._URL`, `...Uri`, `..._URLS`).
    let Some(at) = words
        .iter()
        .rposition(|w| matches!(w.as_str(), "url" | "uri" | "urls" | "uris"))
    else {
        return false;
    };
    let before = &words[..at];
    if before
        .iter()
        .any(|w| OWN_WORDS.contains(&w.as_str()) || BACK_WORDS.contains(&w.as_str()))
    {
        return true;
    }
    // `ROOT_URL`, `APP_BASE_URL`, `GF_SERVER_ROOT_URL` (Grafana's
    // `[server] root_url`): nothing or the app's word before `root`/`base`.
    match before {
        [.., w] if w == "root" || w == "base" => {
            let ahead = &before[..before.len() - 1];
            ahead.last().is_none_or(|w| {
                OWN_BASE_WORDS.contains(&w.as_str())
                    || (w == "server" && before.last().is_some_and(|r| r == "root"))
            })
        }
        _ => false,
    }
}

/// Whether the URL `value` names a host only the cluster's (or compose
/// network's) DNS resolves: a bare name other than `localhost`, or a
/// Kubernetes Service name (`*.svc`, `*.svc.cluster.local`). A browser
/// cannot reach such an address, so the pod itself calls it.
fn cluster_only(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() || v.contains("${") || v.contains("{{") {
        return false;
    }
    let rest = v.split_once("://").map_or(v, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let plain = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_')
        && host.chars().any(|c| c.is_ascii_alphabetic());
    plain
        && host != "localhost"
        && (!host.contains('.')
            || host.ends_with(".svc")
            || host.ends_with(".svc.cluster.local")
            || host.ends_with(".cluster.local"))
}

#[cfg(test)]
mod tests {
    use super::own_public_url;

    const PUBLIC: &str = "https://shop.example.com/api";

    #[test]
    fn the_apps_own_addresses_and_browser_variables() {
        for k in [
            "REACT_APP_GRAPHQL_ENDPOINT",
            "react_app_api",
            "VUE_APP_AUTHORITY",
            "NEXT_PUBLIC_API_URL",
            "VITE_ORDERS_ENDPOINT",
            "ROOT_URL",
            "GF_SERVER_ROOT_URL",
            "PUBLIC_URL",
            "Hosts__Externals__CurrentUri",
            "SELF_URL",
            "BASE_URL",
            "APP_BASE_URL",
            "SiteBaseUrl",
            "HostSettings__SwaggerRedirectUri",
            "Auth__PostLogoutRedirectUri",
            "OAUTH_CALLBACK_URL",
            "RETURN_URL",
            "HostSettings__SpaAllowedCorsOrigin",
            "Cors__AllowedOrigins__0",
            "Cors__Origins",
            "CORS_ORIGINS",
            "ALLOWED_ORIGINS",
            "app.cors.allowed-origins",
            "HOSTNAME",
            "PUBLIC_HOSTNAME",
            "APP_HOSTNAME",
            "KC_HOSTNAME",
            "publicHostName",
        ] {
            assert!(own_public_url(k, PUBLIC), "{k}");
        }
    }

    #[test]
    fn addresses_of_other_services_stay_calls() {
        for k in [
            "ORDERS_URL",
            "ORDERS_BASE_URL",
            "CatalogBaseUrl",
            "SERVER_BASE_URL",
            "API_ROOT_URL",
            "CYPRESS_BASE_URL",
            "RETAIL_UI_CHAT_OPENAI_BASE_URL",
            "Hosts__Externals__Catalog__Uri",
            "Idp__Authority",
            "JwtAuthn__Authority",
            "INVENTORY_CLIENT_URI",
            "API_URL",
            "REDIS_ADDR",
            "ORIGIN_URL",
            "ROOT_PASSWORD",
            "ORDER_QUEUE_HOSTNAME",
            "DB_HOSTNAME",
            "KC_DB_URL_HOST",
        ] {
            assert!(!own_public_url(k, PUBLIC), "{k}");
        }
    }

    /// A client-only build's variable is the browser's whatever it names;
    /// a server-rendering framework's is the pod's call where only the
    /// cluster resolves its host.
    #[test]
    fn a_server_rendered_apps_variable_is_its_call_inside_the_cluster() {
        for v in [
            "http://orders:8080",
            "http://orders.shop.svc.cluster.local:8080/api",
            "orders.shop.svc:8080",
            "http://user:pw@catalog/",
        ] {
            assert!(!own_public_url("NEXT_PUBLIC_API_URL", v), "{v}");
            assert!(!own_public_url("VITE_API_URL", v), "{v}");
            assert!(own_public_url("REACT_APP_API_URL", v), "{v}");
            assert!(own_public_url("VUE_APP_API_URL", v), "{v}");
        }
        for v in [
            "https://api.shop.example.com",
            "http://localhost:8080",
            "http://127.0.0.1:8080",
            "/api",
            "http://{{ .Values.api.host }}",
            "${API_HOST}",
        ] {
            assert!(own_public_url("NEXT_PUBLIC_API_URL", v), "{v}");
        }
    }
}
