//! The `*_pass` directives: the retry policy of each pass with the
//! settings in force at it, the target it names (an upstream or a host), and
//! the servers and callees behind it.

use super::*;

impl<'c, 'f> Reader<'c, 'f> {
    pub(super) fn pass(&mut self, i: usize, d: &Directive, family: &'static Family) {
        let Some(arg) = d.arg(0) else { return };
        let p = family.prefix;
        let target = self.target(&arg.value);
        let (count, exact, label) = self.peers(&target);
        let pass_span = d.head_span();
        self.used_from.clear();

        // A request body sent unbuffered (always for gRPC, with
        // `*_request_buffering off` for the others) is never passed to the
        // next server once sent (`ngx_http_upstream_next`).
        let unbuffered = p == "grpc"
            || matches!(
                self.scalar(i, &format!("{p}_request_buffering")),
                Some((Value::Flag(false), _))
            );

        // Conditions and methods.
        let masks = self.masks(i, &format!("{p}_next_upstream"));
        let (retry_on, methods) = if let Some((mut merged, at)) = masks {
            if unbuffered {
                // Nothing is passed on once sent: only failures before
                // the request is sent can be retried.
                merged
                    .tokens
                    .retain(|(t, _)| matches!(t.as_str(), "error" | "timeout" | "off"));
                merged.non_idempotent = None;
            }
            let on = if merged.off {
                RetryOn::Nothing
            } else {
                let conditions: Vec<_> = merged
                    .tokens
                    .iter()
                    .filter(|(t, _)| !matches!(t.as_str(), "non_idempotent" | "updating"))
                    .map(|(t, s)| at.with_span(*s).put(condition(t)))
                    .collect();
                if conditions.is_empty() {
                    RetryOn::Nothing
                } else {
                    RetryOn::Listed { conditions }
                }
            };
            let methods = match merged.non_idempotent {
                Some(s) => at.with_span(s).put(non_idempotent_methods()),
                None => at.put(Methods::IdempotentOnly),
            };
            (at.put(on), methods)
        } else {
            (
                Located::default_at(
                    RetryOn::Listed {
                        conditions: ["error", "timeout"]
                            .iter()
                            .map(|t| Located::default_at(condition(t), pass_span))
                            .collect(),
                    },
                    pass_span,
                ),
                Located::default_at(Methods::IdempotentOnly, pass_span),
            )
        };

        // Tries.
        let tries_name = format!("{p}_next_upstream_tries");
        let timeout_name = format!("{p}_next_upstream_timeout");
        let window = self.scalar(i, &timeout_name).and_then(|(v, s)| match v {
            Value::Time(t) => Some((t, s)),
            _ => None,
        });
        let attempts = match self.scalar(i, &tries_name) {
            Some((Value::Tries(n), at)) if n > 0 => {
                let (count, note) = match count {
                    Some(c) if exact && c < n => {
                        (c, format!(" (capped at the {c} server(s) of {label})"))
                    }
                    _ => (n, String::new()),
                };
                at.put(Attempts {
                    count: AttemptCount::Finite(count),
                    written_as: format!("{tries_name} {n}{note}"),
                })
            }
            Some((_, at)) => {
                // `0`: no limit but the servers.
                let count = match count {
                    Some(c) if exact => AttemptCount::Finite(c),
                    _ => AttemptCount::Unbounded,
                };
                at.put(Attempts {
                    count,
                    written_as: format!("{tries_name} 0"),
                })
            }
            None => Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(count.unwrap_or(1).max(1)),
                    written_as: format!("no {tries_name}: one try per server of {label}"),
                },
                pass_span,
            ),
        };

        // Per-try and overall timeouts.
        let connect = self.scalar(i, &format!("{p}_connect_timeout"));
        let read = self.scalar(i, &format!("{p}_read_timeout"));
        let time_of = |v: &Option<(Value, At)>| match v {
            Some((Value::Time(t), _)) => *t,
            _ => DEFAULT_TIMEOUT,
        };
        let per_try = Timeout::after(time_of(&connect).saturating_add(time_of(&read)));
        let per_try = match (&read, &connect) {
            (Some((_, s)), _) | (None, Some((_, s))) => s.put(per_try),
            (None, None) => Located::default_at(per_try, pass_span),
        };
        let overall = match window {
            Some((t, s)) if t.is_zero() => Some(s.put(Timeout::Disabled)),
            Some((t, s)) => Some(s.put(Timeout::after(t))),
            None if attempts.value.count == AttemptCount::Unbounded => {
                Some(Located::default_at(Timeout::Disabled, pass_span))
            }
            None => None,
        };

        let location = self
            .cfg
            .ancestors(i)
            .into_iter()
            .find(|&a| self.cfg.get(a).name == "location")
            .map(|a| block_label(self.cfg.get(a)));
        let name = location
            .clone()
            .unwrap_or_else(|| format!("{} {}", d.name, arg.value));
        let mut policy = RetryPolicy::new(System::Nginx, pass_span, attempts);
        policy.name = Some(name);
        policy.scope.route = location;
        policy.scope.callee = self.callee(&target).map(|c| Located::written(c, arg.span));
        policy.delay = Located::default_at(Delay::None, pass_span);
        policy.jitter = Located::default_at(Jitter::None, pass_span);
        policy.platform_backoff = true;
        policy.per_try_timeout = Some(per_try);
        policy.overall_timeout = overall;
        policy.retry_on = retry_on;
        policy.methods = methods;
        policy.settings_from = std::mem::take(&mut self.used_from);
        let idx = self.facts.policies.len();
        self.facts.policies.push(policy);

        let via = match &target {
            Target::Upstream(u) => {
                format!("nginx {} (upstream `{}`)", d.name, self.upstreams[*u].name)
            }
            _ => format!("nginx {}", d.name),
        };
        for callee in self.edge_callees(&target) {
            self.facts.edges.push(CallEdge {
                client: None,
                caller: None,
                callee,
                span: arg.span,
                policies: vec![idx],
                via: via.clone(),
                protocol: None,
            });
        }
    }

    pub(super) fn target(&self, raw: &str) -> Target {
        let hostport = match hostport(raw) {
            Ok(h) => h,
            Err(t) => return t,
        };
        let has_port = port_of(hostport).is_some();
        if !has_port && let Some(&u) = self.upstream_index.get(&hostport.to_ascii_lowercase()) {
            return Target::Upstream(u);
        }
        let (host, literal) = address(hostport);
        Target::Host { host, literal }
    }

    /// (tries the servers allow, whether that number is exact, a label).
    fn peers(&self, t: &Target) -> (Option<u64>, bool, String) {
        match t {
            Target::Upstream(u) => {
                let up = &self.upstreams[*u];
                let label = format!("upstream {}", up.name);
                let live: Vec<&Server> = up.servers.iter().filter(|s| !s.down).collect();
                if up.dynamic || live.is_empty() {
                    return (None, false, label);
                }
                let exact = live.iter().all(|s| s.literal && !s.resolve);
                (Some(live.len() as u64), exact, label)
            }
            Target::Host { host, literal } => (Some(1), *literal, host.clone()),
            Target::Unix => (Some(1), true, "the unix socket".into()),
            Target::Variable => (None, false, "the address set at run time".into()),
        }
    }

    pub(super) fn callee(&self, t: &Target) -> Option<String> {
        match t {
            Target::Upstream(u) => Some(self.upstreams[*u].name.clone()),
            Target::Host { host, .. } => Some(crate::extract::short_host(host)),
            _ => None,
        }
    }

    /// The services a pass calls: the host names of an upstream's servers
    /// (its name when they are all addresses), or the host.
    fn edge_callees(&self, t: &Target) -> Vec<String> {
        match t {
            Target::Upstream(u) => {
                let up = &self.upstreams[*u];
                let mut out: Vec<String> = Vec::new();
                for s in up.servers.iter().filter(|s| !s.literal) {
                    let h = crate::extract::short_host(&s.host);
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
                if out.is_empty() {
                    out.push(up.name.clone());
                }
                out
            }
            Target::Host { host, .. } => vec![crate::extract::short_host(host)],
            _ => Vec::new(),
        }
    }
}

/// The `host[:port]` a `*_pass` argument names, or what it calls when
/// that is not a name (a unix socket, an address set by variables).
pub(super) fn hostport(raw: &str) -> Result<&str, Target> {
    let rest = raw.split_once("://").map_or(raw, |(_, r)| r);
    if rest.starts_with("unix:") {
        return Err(Target::Unix);
    }
    let mut hostport = rest.split('/').next().unwrap_or(rest);
    // `http://backend$request_uri`: a variable that only adds the path
    // leaves the host as written.
    if let Some(i) = hostport.find('$') {
        let var = hostport[i + 1..].trim_start_matches('{');
        let path_var = PATH_VARIABLES.iter().any(|v| var.starts_with(v))
            || var.starts_with(|c: char| c.is_ascii_digit());
        if i > 0 && path_var {
            hostport = &hostport[..i];
        }
    }
    if hostport.contains('$') || raw.starts_with('$') || hostport.is_empty() {
        return Err(Target::Variable);
    }
    Ok(hostport)
}

pub(super) fn port_of(hostport: &str) -> Option<&str> {
    let after = match hostport.rfind(']') {
        Some(i) => &hostport[i + 1..],
        None => hostport,
    };
    after
        .rsplit_once(':')
        .map(|(_, p)| p)
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The host of `host[:port]` and whether it is an IP literal or a unix
/// socket (one address, nothing to resolve).
pub(super) fn address(raw: &str) -> (String, bool) {
    let rest = raw.split_once("://").map_or(raw, |(_, r)| r);
    if rest.starts_with("unix:") {
        return (rest.to_string(), true);
    }
    let hostport = rest.split('/').next().unwrap_or(rest);
    let host = if let Some(inner) = hostport.strip_prefix('[') {
        inner.split(']').next().unwrap_or(inner)
    } else {
        match port_of(hostport) {
            Some(_) => hostport.rsplit_once(':').map_or(hostport, |(h, _)| h),
            None => hostport,
        }
    };
    let literal = host.parse::<std::net::IpAddr>().is_ok();
    (host.to_string(), literal)
}
