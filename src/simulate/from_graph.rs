//! A path of the call graph as simulated layers, and its fixed variant.

use super::Failure;
use super::{BREAKER_DEFAULTS, MAX_ATTEMPTS, SimBudget, SimLayer, Wait};
use crate::graph::{Graph, RetryLayer, ServiceId};
use crate::model::{
    AttemptCount, BreakerSettings, BreakerWindow, Budget, CapOrder, Condition, Delay, Jitter,
    RetryOn, RetryPolicy, ScannedFile,
};

/// Which path to simulate.
#[derive(Clone, Debug, PartialEq)]
pub enum PathChoice {
    /// The worst path of the graph, to its deepest service of the
    /// repository's own.
    Worst,
    /// The path with the most attempts from an entry point to this service.
    Service(String),
    /// These services, in order.
    Services(Vec<String>),
}

/// A path ready to simulate.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SimPath {
    /// The services, entry first, failing service last.
    pub services: Vec<String>,
    #[serde(skip)]
    pub edges: Vec<usize>,
    /// Every layer, outermost first.
    pub layers: Vec<SimLayer>,
    /// The entry's timeout on its call, seconds.
    pub entry_timeout: Option<f64>,
    /// Attempts at the last service per user request (the product).
    pub attempts: f64,
    /// What the fixed variant changed (empty on the path as found).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
}

impl SimPath {
    /// Attempts per failing request, the product of every layer's that
    /// retries the failure it sees (its own timeouts aside).
    fn product(layers: &[SimLayer]) -> f64 {
        layers
            .iter()
            .filter(|l| l.retries_failure)
            .map(|l| f64::from(l.attempts))
            .product()
    }
}

fn service(g: &Graph, name: &str) -> Result<ServiceId, String> {
    if let Some(i) = g.services.iter().position(|s| s.name == name) {
        return Ok(i);
    }
    let hint = crate::keys::did_you_mean(name, g.services.iter().map(|s| s.name.as_str()))
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default();
    Err(format!(
        "no service `{name}` in the call graph{hint}; `retrylint graph` lists them"
    ))
}

/// The edges of the chosen path, entry first.
pub fn choose_path(g: &Graph, choice: &PathChoice) -> Result<Vec<usize>, String> {
    match choice {
        PathChoice::Worst => {
            let worst = g
                .worst_paths()
                .into_iter()
                .filter(|p| !p.edges.is_empty())
                .max_by(|a, b| {
                    a.attempts
                        .cmp(&b.attempts)
                        .then(b.edges.len().cmp(&a.edges.len()))
                })
                .ok_or("the call graph has no calls to simulate")?;
            Ok(cut_to_owned(g, &worst.edges))
        }
        PathChoice::Service(name) => {
            let target = service(g, name)?;
            worst_to(g, target).ok_or_else(|| format!("nothing in the call graph calls `{name}`"))
        }
        PathChoice::Services(names) => {
            if names.len() < 2 {
                return Err("--path names at least two services: `FROM->TO`".into());
            }
            let ids = names
                .iter()
                .map(|n| service(g, n))
                .collect::<Result<Vec<_>, _>>()?;
            ids.windows(2)
                .map(|w| {
                    g.edges
                        .iter()
                        .position(|e| e.from == w[0] && e.to == w[1])
                        .ok_or_else(|| {
                            format!(
                                "`{}` does not call `{}` in the call graph",
                                g.service_name(w[0]),
                                g.service_name(w[1])
                            )
                        })
                })
                .collect()
        }
    }
}

/// A path up to its deepest service that the repository runs (not a
/// provider's endpoint such as AWS, nor a proxy's upstream); the whole
/// path when it runs none.
pub fn cut_to_owned(g: &Graph, edges: &[usize]) -> Vec<usize> {
    let owned = |s: ServiceId| g.services[s].kinds.iter().any(|k| k.owns_file());
    let cut = edges
        .iter()
        .rposition(|&e| owned(g.edges[e].to))
        .map_or(edges.len(), |i| i + 1);
    edges[..cut].to_vec()
}

/// The path with the most attempts that ends at `target`, from any
/// service nobody calls (or any caller): relaxed edge by edge, at most
/// once per service, cycle-closing edges excluded.
fn worst_to(g: &Graph, target: ServiceId) -> Option<Vec<usize>> {
    let n = g.services.len();
    let mut best: Vec<Option<(u64, Option<usize>)>> = vec![None; n];
    best[target] = Some((1, None));
    for _ in 0..n {
        crate::guard::checkpoint();
        let mut changed = false;
        for (i, e) in g.edges.iter().enumerate() {
            if g.is_back_edge(i) {
                continue;
            }
            let Some((below, _)) = best[e.to] else {
                continue;
            };
            let total = e.factor().saturating_mul(below);
            if best[e.from].is_none_or(|(b, _)| total > b) {
                best[e.from] = Some((total, Some(i)));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let start = g
        .entries
        .iter()
        .copied()
        .filter(|&s| s != target && best[s].is_some())
        .max_by_key(|&s| best[s].map(|(a, _)| a))
        .or_else(|| {
            (0..n)
                .filter(|&s| s != target && best[s].is_some())
                .max_by_key(|&s| best[s].map(|(a, _)| a))
        })?;
    let mut edges = Vec::new();
    let mut cur = start;
    while let Some((_, Some(e))) = best[cur] {
        edges.push(e);
        cur = g.edges[e].to;
        if edges.len() > n {
            break;
        }
    }
    Some(edges)
}

/// The policy behind a layer: the written one, else the mesh-wide
/// default or the mesh's built-in default (as `graph::layers` puts them).
fn policy_of(files: &[ScannedFile], l: &RetryLayer) -> Option<RetryPolicy> {
    if let Some((f, i)) = l.policy {
        return files.get(f)?.facts.policies.get(i).cloned();
    }
    // A mesh-wide default's layer is placed at its attempts.
    if let Some(d) = files.get(l.loc.file).and_then(|f| {
        f.facts
            .mesh_defaults
            .iter()
            .find(|d| d.system == l.system && d.attempts.span == l.loc.span)
    }) {
        return Some(d.clone());
    }
    l.system
        .spec()
        .sidecar_default
        .as_ref()
        .map(|d| (d.policy)(l.loc.span))
}

fn secs(d: std::time::Duration) -> f64 {
    d.as_secs_f64()
}

/// The wait before retry `k` (1-based) as a uniform interval.
fn wait(p: &RetryPolicy, k: u32, fallback: f64, prev_hi: f64) -> Wait {
    let d = p.wait_before(k).map_or(fallback, secs);
    let cap = match &p.delay.value {
        Delay::Exponential { cap, .. }
        | Delay::Decorrelated { cap, .. }
        | Delay::Linear { cap, .. }
        | Delay::Fibonacci { cap, .. }
        | Delay::Quadratic { cap, .. }
        | Delay::Growing { cap, .. } => cap.map(secs),
        _ => None,
    };
    let (mut lo, mut hi) = match &p.jitter.value {
        Jitter::None => (d, d),
        Jitter::Full => (0.0, d),
        Jitter::Equal => (d / 2.0, d),
        Jitter::Proportional { factor } => {
            let f = factor.clamp(0.0, 1.0);
            (d * (1.0 - f), d * (1.0 + f))
        }
        Jitter::Additive => (d, 2.0 * d),
        Jitter::Added { factor } => (d, d * (1.0 + factor.clamp(0.0, 1.0))),
        // AWS's decorrelated jitter: min(cap, uniform(base, 3 x last)),
        // taken as the interval from the base to 3 x the last interval's
        // top (an approximation: the draw depends on the last draw).
        Jitter::Decorrelated => (d, 3.0 * prev_hi.max(d)),
        // A proxy that jitters its own back-off (Envoy) draws from
        // [0, d); an unknown jitter elsewhere is taken as none.
        Jitter::Unknown if p.platform_backoff => (0.0, d),
        Jitter::Unknown => (d, d),
    };
    if let Some(c) = cap.filter(|_| {
        p.cap_order == CapOrder::AfterJitter || matches!(p.jitter.value, Jitter::Decorrelated)
    }) {
        lo = lo.min(c);
        hi = hi.min(c);
    }
    Wait { lo, hi }
}

/// What a layer sees when the call it makes fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// On the last hop: the service is down. Its connection fails (a
    /// proxy or sidecar in between turns that into a `503`), or, when it
    /// never answers, the attempt times out (a `504` through a proxy).
    Down(Failure),
    /// Further up: the service below gave up and answered with a `500`.
    ServerError,
    /// The layer's own per-try timeout ended the attempt.
    TimedOut,
}

/// Whether `p` retries what the layer sees. What cannot be read (an
/// unknown condition list, a predicate, an exception list) is taken as
/// retried, the worst case; a system token of unknown meaning is not.
fn retried(p: &RetryPolicy, seen: Seen) -> bool {
    let status = |c: &Condition, code: u16| matches!(c, Condition::Status { from, to } if *from <= code && code <= *to);
    let covers = |c: &Condition| match (c, seen) {
        (Condition::Exception(_) | Condition::Predicate, _) => true,
        (Condition::Token(_), _) => false,
        (Condition::Transport(_), Seen::Down(_)) => true,
        (Condition::Transport(_), Seen::ServerError) => false,
        (Condition::Transport(_), Seen::TimedOut) => true,
        (Condition::Grpc(g), Seen::TimedOut) => {
            matches!(g.as_str(), "DEADLINE_EXCEEDED" | "CANCELLED")
        }
        (c, Seen::TimedOut) => status(c, 504),
        (Condition::Grpc(g), Seen::Down(Failure::Error)) => g == "UNAVAILABLE",
        (Condition::Grpc(g), Seen::Down(Failure::Timeout)) => {
            matches!(
                g.as_str(),
                "UNAVAILABLE" | "DEADLINE_EXCEEDED" | "CANCELLED"
            )
        }
        (Condition::Grpc(g), Seen::ServerError) => matches!(g.as_str(), "INTERNAL" | "UNKNOWN"),
        (c, Seen::Down(Failure::Error)) => status(c, 503),
        (c, Seen::Down(Failure::Timeout)) => status(c, 504),
        (c, Seen::ServerError) => status(c, 500),
    };
    match &p.retry_on.value {
        RetryOn::AllErrors | RetryOn::Unknown => true,
        RetryOn::Nothing => false,
        RetryOn::Listed { conditions } => conditions.iter().any(|c| covers(&c.value)),
    }
}

/// One graph layer as simulated.
fn sim_layer(files: &[ScannedFile], g: &Graph, e: usize, l: &RetryLayer, seen: Seen) -> SimLayer {
    let edge = &g.edges[e];
    let label = format!(
        "{} -> {}: {}",
        g.service_name(edge.from),
        g.service_name(edge.to),
        l.label
    );
    let attempts = match l.attempts {
        // An unbounded retry makes the most the model allows.
        AttemptCount::Unbounded => MAX_ATTEMPTS,
        _ => u32::try_from(l.factor()).unwrap_or(MAX_ATTEMPTS),
    };
    let mut s = SimLayer::plain(&label, attempts);
    let retries = f64::from(s.attempts - 1);
    let fallback = if retries > 0.0 {
        secs(l.backoff) / retries
    } else {
        0.0
    };
    s.per_try = l.per_try.map(secs);
    s.overall = l.overall.map(secs);
    s.hedge = l.hedge_delay.map(secs);
    let Some(p) = policy_of(files, l) else {
        return s.with_waits(fallback, fallback);
    };
    s.retries_failure = retried(&p, seen);
    s.retries_timeout = retried(&p, Seen::TimedOut);
    if s.attempts > 1 && !s.retries_failure {
        s.label.push_str(match seen {
            Seen::Down(Failure::Error) => " (does not retry a refused connection or a `503`)",
            Seen::Down(Failure::Timeout) | Seen::TimedOut => " (does not retry a timeout)",
            Seen::ServerError => " (does not retry a `500`)",
        });
    }
    if s.attempts > 1 && !s.retries_timeout && s.per_try.is_some() {
        s.label.push_str(" (does not retry its timeout)");
    }
    let mut prev_hi = 0.0;
    s.waits = (1..s.attempts)
        .map(|k| {
            let w = wait(&p, k, fallback, prev_hi);
            prev_hi = w.hi;
            w
        })
        .collect();
    s.budget = p.budget.as_ref().and_then(|b| match b.value {
        Budget::Ratio {
            ratio,
            min_per_second,
        } => Some(SimBudget::Ratio {
            ratio,
            min_per_second: min_per_second.unwrap_or(0.0),
        }),
        Budget::TokenBucket {
            max_tokens,
            token_ratio,
        } => Some(SimBudget::Tokens {
            max_tokens,
            token_ratio,
        }),
        Budget::Concurrency { max } => Some(SimBudget::Concurrency { max: max as f64 }),
        // The system's quota, one client's; a retry after a timeout costs
        // more where the system says so.
        Budget::Quota => l.system.spec().retry_quota.map(|q| SimBudget::Quota {
            capacity: q.capacity,
            cost: match seen {
                Seen::Down(Failure::Timeout) | Seen::TimedOut => q.timeout_cost,
                Seen::Down(Failure::Error) | Seen::ServerError => q.cost,
            },
            success_increment: q.success_increment,
        }),
    });
    // The breaker it wraps: the policy's own, or that of the code that
    // uses this configured instance on this edge (`@Retry(name = ..)`
    // with `@CircuitBreaker`).
    let wrapping = Some(&p)
        .filter(|p| !p.wraps_breaker.is_empty())
        .or_else(|| use_on_edge(files, g, e, l).filter(|u| !u.wraps_breaker.is_empty()));
    if let Some(bp) = wrapping {
        let settings = bp.breaker.as_ref().and_then(|b| b.settings.as_ref());
        s.breaker = Some(super::Breaker {
            retried_when_open: crate::rules::conditions::retries_open_circuit::retries_open_error(
                bp,
            )
            .is_some(),
            ..settings.map_or(BREAKER_DEFAULTS, |s| breaker(&s.value))
        });
    }
    s
}

/// The use in code of the configured instance behind `l`, in the file
/// whose call the edge is (`@Retry(name = "payments")` on the method).
fn use_on_edge<'f>(
    files: &'f [ScannedFile],
    g: &Graph,
    e: usize,
    l: &RetryLayer,
) -> Option<&'f RetryPolicy> {
    let at = l.policy?;
    let file = g.edges[e].proof.file;
    let (&(f, i), _) = g
        .instance_uses
        .iter()
        .find(|(u, c)| **c == at && u.0 == file)?;
    files.get(f)?.facts.policies.get(i)
}

/// A breaker's settings as simulated.
fn breaker(b: &BreakerSettings) -> super::Breaker {
    let (window, window_secs) = match b.window {
        BreakerWindow::Calls { count } => (count as f64, None),
        BreakerWindow::Time { length } => (0.0, Some(secs(length))),
    };
    super::Breaker {
        threshold: b.failure_ratio.clamp(0.0, 1.0),
        min_calls: b.min_calls as f64,
        window,
        window_secs,
        open_for: secs(b.open_for),
        half_open_calls: (b.half_open_calls as f64).max(1.0),
        retried_when_open: true,
    }
}

/// The path's services and layers, outermost first, for a last service
/// that fails so. The layers on the last hop see it down; those above see
/// the `500` of the service below them, and retry only if they retry
/// that.
pub fn path_layers(files: &[ScannedFile], g: &Graph, edges: &[usize], failure: Failure) -> SimPath {
    let mut services = Vec::new();
    if let Some(&first) = edges.first() {
        services.push(g.service_name(g.edges[first].from).to_string());
    }
    let mut layers = Vec::new();
    for (i, &e) in edges.iter().enumerate() {
        services.push(g.service_name(g.edges[e].to).to_string());
        let seen = if i + 1 == edges.len() {
            Seen::Down(failure)
        } else {
            Seen::ServerError
        };
        for l in &g.edges[e].layers {
            layers.push(sim_layer(files, g, e, l, seen));
        }
    }
    // What the entry gives a request: its first call's overall timeout,
    // else the first per-try timeout on it.
    let first: &[RetryLayer] = edges.first().map_or(&[], |&e| &g.edges[e].layers);
    let entry_timeout = first
        .iter()
        .find_map(|l| l.overall)
        .or_else(|| first.iter().find_map(|l| l.per_try))
        .map(secs);
    SimPath {
        services,
        edges: edges.to_vec(),
        attempts: SimPath::product(&layers),
        layers,
        entry_timeout,
        changes: Vec::new(),
    }
}

/// Attempts the fixed variant keeps on its one retry layer (RL401's
/// advice: 3 attempts, the first included).
pub const FIX_ATTEMPTS: u32 = 3;
/// The first wait when a layer waits none: 100 ms, doubling.
pub const FIX_BASE_WAIT: f64 = 0.1;

/// The path with the findings' fixes applied: one retry layer (the one
/// nearest the failing service, which sees its errors first), its
/// attempts capped at [`FIX_ATTEMPTS`], full jitter on an exponential
/// wait, and a retry budget (Linkerd's default `retryBudget`:
/// [`crate::systems::linkerd::extract::DEFAULT_RETRY_RATIO`] of requests
/// plus [`crate::systems::linkerd::extract::DEFAULT_MIN_RETRIES_PER_SECOND`]
/// per second) where it has none. A breaker's "open" error is made not
/// retryable.
pub fn fixed_variant(p: &SimPath) -> SimPath {
    let mut out = p.clone();
    out.changes.clear();
    let Some(keep) = out
        .layers
        .iter()
        .rposition(|l| l.attempts > 1 && (l.retries_failure || l.retries_timeout))
    else {
        return out;
    };
    for (i, l) in out.layers.iter_mut().enumerate() {
        if i == keep {
            continue;
        }
        if l.attempts > 1 && (l.retries_failure || l.retries_timeout) {
            out.changes.push(format!("no retries: {}", l.label));
        }
        l.attempts = 1;
        l.waits.clear();
        l.hedge = None;
        if let Some(b) = l.breaker.as_mut() {
            b.retried_when_open = false;
        }
    }
    let l = &mut out.layers[keep];
    if l.attempts > FIX_ATTEMPTS {
        out.changes.push(format!(
            "`{}` attempts, not `{}`: {}",
            FIX_ATTEMPTS, l.attempts, l.label
        ));
        l.attempts = FIX_ATTEMPTS;
    }
    l.waits.truncate(l.attempts as usize - 1);
    for (k, w) in l.waits.iter_mut().enumerate() {
        let top = w.hi.max(FIX_BASE_WAIT * 2f64.powi(k as i32));
        *w = Wait { lo: 0.0, hi: top };
    }
    out.changes
        .push(format!("full jitter on the waits: {}", l.label));
    if l.budget.is_none() {
        l.budget = Some(SimBudget::Ratio {
            ratio: crate::systems::linkerd::extract::DEFAULT_RETRY_RATIO,
            min_per_second: crate::systems::linkerd::extract::DEFAULT_MIN_RETRIES_PER_SECOND,
        });
        out.changes.push(format!(
            "a retry budget of {:.0}% plus {}/s: {}",
            crate::systems::linkerd::extract::DEFAULT_RETRY_RATIO * 100.0,
            crate::systems::linkerd::extract::DEFAULT_MIN_RETRIES_PER_SECOND,
            l.label
        ));
    }
    if let Some(b) = l.breaker.as_mut().filter(|b| b.retried_when_open) {
        b.retried_when_open = false;
        out.changes
            .push(format!("the open breaker's error not retried: {}", l.label));
    }
    out.attempts = SimPath::product(&out.layers);
    out
}
