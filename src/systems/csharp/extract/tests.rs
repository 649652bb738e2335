use super::*;
use crate::model::{AttemptCount, Delay, Jitter, Methods, RetryOn, System, Timeout};
use std::time::Duration;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

#[test]
fn standard_handler_on_every_client() {
    let f = read(
        "public static class Extensions {
            public static void AddDefaults(IServiceCollection services) {
                services.ConfigureHttpClientDefaults(http => {
                    http.AddStandardResilienceHandler();
                    http.AddServiceDiscovery();
                });
            }
        }",
    );
    assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.system, System::DotnetStandard);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert!(!p.attempts.is_written());
    assert_eq!(p.methods.value, Methods::All);
    assert_eq!(p.jitter.value, Jitter::Decorrelated);
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(p.name.as_deref(), Some("ConfigureHttpClientDefaults"));
}

#[test]
fn standard_handler_options_lambda_and_unsafe_methods() {
    let f = read(
        r#"class S { void C(IServiceCollection services) {
            services.AddHttpClient<CatalogClient>(c => c.BaseAddress = new Uri("http://catalog-api"))
                .AddStandardResilienceHandler(o => {
                    o.Retry.MaxRetryAttempts = 5;
                    o.Retry.UseJitter = false;
                    o.Retry.Delay = TimeSpan.FromMilliseconds(500);
                    o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(3);
                    o.Retry.DisableForUnsafeHttpMethods();
                });
        } }"#,
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(500),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(
        p.methods.value,
        Methods::Set(vec![
            "GET".into(),
            "HEAD".into(),
            "OPTIONS".into(),
            "TRACE".into()
        ])
    );
    assert_eq!(p.name.as_deref(), Some("AddHttpClient<CatalogClient>"));
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(3))
    );
}

#[test]
fn polly_v8_event_bus_delay_generator() {
    // The eShop event bus shape: 10 retries, 2^n s, no jitter, through a
    // local function and a property initialiser.
    let f = read(
        "public class EventBusOptions { public int RetryCount { get; set; } = 10; }
        public class Bus {
            private static ResiliencePipeline Create(EventBusOptions options) {
                var retryOptions = new RetryStrategyOptions {
                    ShouldHandle = new PredicateBuilder().Handle<BrokerUnreachableException>().Handle<SocketException>(),
                    MaxRetryAttempts = options.RetryCount,
                    DelayGenerator = (context) => ValueTask.FromResult(GenerateDelay(context.AttemptNumber))
                };
                return new ResiliencePipelineBuilder().AddRetry(retryOptions).Build();
                static TimeSpan? GenerateDelay(int attempt) => TimeSpan.FromSeconds(Math.Pow(2, attempt));
            }
        }",
    );
    assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    let p = &f.policies[0];
    // The generator decides the waits: jitter is added there, and the
    // help says so instead of `UseJitter`.
    assert_eq!(p.system, System::PollyDelayFunction);
    assert!(p.system.spec().fixes.jitter.contains("DelayGenerator"));
    assert!(!System::Polly.spec().fixes.jitter.contains("DelayGenerator"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(11));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    match &p.retry_on.value {
        RetryOn::Listed { conditions } => assert_eq!(conditions.len(), 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn polly_v8_builder_composition() {
    let f = read(
        "class P { void B(IServiceCollection s) {
            s.AddResiliencePipeline(\"orders\", builder => {
                builder.AddTimeout(TimeSpan.FromSeconds(20))
                    .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 4, BackoffType = DelayBackoffType.Exponential, UseJitter = true })
                    .AddCircuitBreaker(new CircuitBreakerStrategyOptions())
                    .AddTimeout(TimeSpan.FromSeconds(2));
            });
        } }",
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.name.as_deref(), Some("AddResiliencePipeline(\"orders\")"));
    assert_eq!(p.jitter.value, Jitter::Decorrelated);
    assert_eq!(p.wraps_breaker.len(), 1);
    // Nothing set: Polly's defaults.
    let b = p.breaker.as_ref().unwrap().settings.as_ref().unwrap();
    assert!(b.is_default());
    assert_eq!(b.value, super::breaker::POLLY_BREAKER_DEFAULTS);
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(20))
    );
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
}

#[test]
fn polly_v7_sleep_lambdas() {
    let f = read(
        "class P {
            IAsyncPolicy<HttpResponseMessage> A() => HttpPolicyExtensions.HandleTransientHttpError()
                .WaitAndRetryAsync(6, retryAttempt => TimeSpan.FromSeconds(Math.Pow(2, retryAttempt)));
            void B() {
                var linear = Policy.Handle<SqlException>().WaitAndRetry(3, a => TimeSpan.FromSeconds(a * 2));
                var jittered = Policy.Handle<HttpRequestException>().WaitAndRetryAsync(3,
                    a => TimeSpan.FromSeconds(1) + TimeSpan.FromMilliseconds(jitterer.Next(0, 100)));
                var forever = Policy.Handle<Exception>().RetryForever();
            }
        }",
    );
    assert_eq!(f.policies.len(), 4);
    let exp = &f.policies[0];
    assert_eq!(exp.attempts.value.count, AttemptCount::Finite(7));
    assert_eq!(
        exp.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(exp.jitter.value, Jitter::None);
    assert_eq!(exp.methods.value, Methods::All);
    assert_eq!(
        f.policies[1].delay.value,
        Delay::Linear {
            base: Duration::from_secs(2),
            cap: None
        }
    );
    assert_eq!(f.policies[2].jitter.value, Jitter::Unknown);
    assert_eq!(f.policies[3].attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(f.policies[3].retry_on.value, RetryOn::AllErrors);
}

#[test]
fn not_polly() {
    // A method of the application named `Retry` is not a Polly policy.
    let f = read("class J { void R() { job.Retry(3); client.RetryAsync(2); } }");
    assert!(f.policies.is_empty());
}

#[test]
fn a_parameter_takes_what_every_call_passes() {
    let f = read(
        "public sealed class EventBusOptions { public int RetryCount { get; set; } = 10; }
        public sealed class Bus(EventBusOptions options) {
            private readonly ResiliencePipeline _p = Create(options.RetryCount);
            private static ResiliencePipeline Create(int retryCount) =>
                new ResiliencePipelineBuilder()
                    .AddRetry(new RetryStrategyOptions { MaxRetryAttempts = retryCount })
                    .Build();
        }",
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(11));
    // Two calls passing different counts: not known.
    let f = read(
        "class B {
            void A() { Create(3); Create(7); }
            static ResiliencePipeline Create(int n) =>
                new ResiliencePipelineBuilder().AddRetry(new RetryStrategyOptions { MaxRetryAttempts = n }).Build();
        }",
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Unknown);
}

#[test]
fn ef_core_retry_on_failure_defaults() {
    let f = read(
        "class D { void C(DbContextOptionsBuilder o, string cs) {
            o.UseSqlServer(cs, sql => sql.EnableRetryOnFailure());
            o.UseSqlServer(cs, sql => sql.EnableRetryOnFailure(maxRetryCount: 4, maxRetryDelay: TimeSpan.FromSeconds(5), errorNumbersToAdd: null));
        } }",
    );
    assert_eq!(f.policies.len(), 2);
    assert_eq!(f.policies[0].system, System::EfCore);
    // ExecutionStrategy.DefaultMaxRetryCount = 6.
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(7));
    assert!(!f.policies[0].attempts.is_written());
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(f.policies[1].methods.value, Methods::Unknown);
}

/// Aspire's `Add*DbContext` extends the host builder; a program's own
/// extension of the same name on `IServiceCollection` (ElectNewt/Distribt
/// 7b384eb: `AddMySqlDbContext<T>` that only calls `UseMySQL`) or one
/// the file declares retries nothing of Aspire's.
#[test]
fn aspire_db_contexts_only_on_the_host_builder() {
    let f = read(
        "var builder = WebApplication.CreateBuilder(args);
        builder.AddNpgsqlDbContext<Db>(\"orders\");
        builder.Services.AddMySqlDbContext<Db>(\"billing\");
        services.AddSqlServerDbContext<Db>(\"stock\");
        builder.AddSqlServerDbContext<Db>(\"audit\", s => s.Retry = false);
        builder.AddSqlServerDbContext<Db>(\"audit2\", s => { s.DisableRetry = true; });",
    );
    let names: Vec<_> = f.policies.iter().map(|p| p.name.clone()).collect();
    assert_eq!(names, [Some("AddNpgsqlDbContext".to_string())]);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(7));
    let f = read(
        "static class Db {
            public static void AddSqlServerDbContext<T>(this IHostApplicationBuilder b, string name) { }
            static void Use(IHostApplicationBuilder b) { b.AddSqlServerDbContext<Orders>(\"orders\"); }
        }",
    );
    assert!(f.policies.is_empty(), "{:?}", f.policies);
}

#[test]
fn polly_v8_circuit_breaker_settings_are_read() {
    let f = read(
        "class P { void B(IServiceCollection s) {
            var breaker = new CircuitBreakerStrategyOptions { FailureRatio = 0.5, MinimumThroughput = 8, SamplingDuration = TimeSpan.FromSeconds(10), BreakDuration = TimeSpan.FromSeconds(15) };
            s.AddResiliencePipeline(\"orders\", builder => {
                builder.AddRetry(new RetryStrategyOptions { MaxRetryAttempts = 2 })
                    .AddCircuitBreaker(breaker);
            });
        } }",
    );
    let b = f.policies[0]
        .breaker
        .as_ref()
        .unwrap()
        .settings
        .as_ref()
        .unwrap();
    assert!(b.is_written());
    assert_eq!(b.value.failure_ratio, 0.5);
    assert_eq!(b.value.min_calls, 8);
    assert_eq!(
        b.value.window,
        crate::model::BreakerWindow::Time {
            length: Duration::from_secs(10)
        }
    );
    assert_eq!(b.value.open_for, Duration::from_secs(15));
    assert_eq!(b.value.half_open_calls, 1);
}

/// Seen on dotnet/eShopSupport (`GeneratorBase.cs`): a wait grown by
/// `delay += ..` after each failure is not the fixed first value; one
/// doubled by `delay *= 2` is exponential.
#[test]
fn loop_waits_grown_in_the_loop() {
    use crate::model::{AttemptCount, Delay};
    let src = |op: &str| {
        format!(
            "class G {{ static async Task<T> Run<T>(Func<Task<T>> f) {{
                var delay = TimeSpan.FromSeconds(5);
                for (var i = 0; i < 4; i++) {{
                    try {{ return await f(); }}
                    catch (IOException) {{ await Task.Delay(delay); delay {op}; }}
                }}
                throw new Exception();
            }} }}"
        )
    };
    let mut f = Facts::default();
    extract(&src("+= TimeSpan.FromSeconds(15)"), &mut f);
    assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(f.policies[0].delay.value, Delay::Custom);
    let mut f = Facts::default();
    extract(&src("*= 2"), &mut f);
    assert_eq!(
        f.policies[0].delay.value,
        Delay::Exponential {
            base: std::time::Duration::from_secs(5),
            multiplier: 2.0,
            cap: None
        }
    );
}

/// Counters counted down (dotnet/arcade's `ContainerBase`:
/// `while (attemptsRemaining > 0)`), stepped before the comparison, and
/// the last try after the loop (ThreeMammals/Ocelot's `Retry.Operation`).
#[test]
fn loop_counts_down_and_last_try_after_the_loop() {
    let count = |head: &str, step: &str, after: &str| {
        let src = format!(
            "class G {{ static async Task<T> Run<T>(Func<Task<T>> f) {{
                int left = 4;
                {head} {{
                    try {{ return await f(); }}
                    catch (IOException) {{ {step} await Task.Delay(100); }}
                }}
                {after}
            }} }}"
        );
        let mut f = Facts::default();
        extract(&src, &mut f);
        assert_eq!(f.policies.len(), 1, "{src}");
        (
            f.policies[0].attempts.value.count,
            f.policies[0].attempts.value.written_as.clone(),
        )
    };
    let n = |k| AttemptCount::Finite(k);
    assert_eq!(count("while (left-- > 0)", "", "").0, n(4));
    assert_eq!(count("while (--left > 0)", "", "").0, n(3));
    assert_eq!(count("while (left-- >= 0)", "", "").0, n(5));
    assert_eq!(count("while (left > 0)", "left--;", "").0, n(4));
    assert_eq!(count("while (left > 1)", "left -= 1;", "").0, n(3));
    assert_eq!(count("for (var i = 3; i > 0; i--)", "", "").0, n(3));
    assert_eq!(count("for (var i = 0; i < 3; i++)", "", "").0, n(3));
    assert_eq!(count("for (var i = 0; i < 3; ++i)", "", "").0, n(3));
    assert_eq!(count("while (++left < 6)", "", "").0, n(1));
    let (c, w) = count(
        "for (var i = 1; i < 5; i++)",
        "",
        "// last\n Log(\"lastly\");\n return await f();",
    );
    assert_eq!(c, n(5));
    assert!(w.contains("then f() once more after the loop"), "{w}");
    // Another call after the loop is not a last try.
    assert_eq!(
        count("for (var i = 1; i < 5; i++)", "", "return await g();").0,
        n(4)
    );
}

/// A wait drawn at random alone (taken at its nominal 0) is a wait.
#[test]
fn random_waits_are_waits() {
    let f = read(
        "class G { static async Task Run(Func<Task> f) {
            for (var i = 0; i < 3; i++) {
                try { await f(); return; }
                catch (IOException) { await Task.Delay(Random.Shared.Next(100, 400)); }
            }
        } }",
    );
    assert_eq!(f.policies[0].delay.value, Delay::Custom);
    assert_eq!(f.policies[0].jitter.value, Jitter::Unknown);
}

/// StackExchange.Redis `ConnectRetry`: a connect retry, not a call retry,
/// with its timeouts from the same options (defaults of
/// `DefaultOptionsProvider`: `ConnectTimeout` = max(5 s, `SyncTimeout`)).
#[test]
fn redis_connect_retry_with_its_timeouts() {
    let secs = |s| Timeout::after(Duration::from_secs(s));
    let f = read(
        r#"var a = ConnectionMultiplexer.Connect("cache:6379,connectRetry=4,connectTimeout=15000");
        var o = new ConfigurationOptions { ConnectRetry = 2, SyncTimeout = 8000 };
        var b = ConfigurationOptions.Parse($"{host},connectRetry={retries}");
        var c = ConnectionMultiplexer.Connect("cache:6379,connectTimeout=2000");
        var d = new ConfigurationOptions { EndPoints = { "cache" } };
        var e = "Server=db;ConnectRetryCount=3;Connect Timeout=30";"#,
    );
    let ps: Vec<_> = f.policies.iter().collect();
    assert_eq!(ps.len(), 3, "{ps:?}");
    assert!(ps.iter().all(|p| p.system == System::RedisConnect
        && p.kind == crate::model::PolicyKind::Connect
        && p.platform_backoff));
    assert_eq!(ps[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(ps[0].per_try_timeout.as_ref().unwrap().value, secs(15));
    assert!(ps[0].per_try_timeout.as_ref().unwrap().is_written());
    assert_eq!(ps[0].overall_timeout.as_ref().unwrap().value, secs(60));
    // The span of the setting inside the string.
    assert_eq!(&f_text_at(&ps[0].attempts.span), "connectRetry=4");
    assert_eq!(ps[1].attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(ps[1].per_try_timeout.as_ref().unwrap().value, secs(8));
    assert_eq!(ps[2].attempts.value.count, AttemptCount::Unknown);
    assert_eq!(ps[2].per_try_timeout.as_ref().unwrap().value, secs(5));
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert!(
        crate::systems::csharp::REDIS_CONNECT
            .fixes
            .bound
            .contains(&format!(
                "default is {}",
                crate::systems::csharp::REDIS_CONNECT_RETRY
            ))
    );
}

fn f_text_at(s: &crate::source::Span) -> String {
    let src = r#"var a = ConnectionMultiplexer.Connect("cache:6379,connectRetry=4,connectTimeout=15000");"#;
    src.get(s.start..s.end).unwrap_or("").to_string()
}

/// A written `ShouldHandle` (standard handler and Polly v8) read as the
/// conditions it tests.
#[test]
fn should_handle_predicates_read_as_conditions() {
    use crate::model::Condition;
    let retry_on = |body: &str| {
        let f = read(&format!(
            "services.AddHttpClient(\"c\").AddStandardResilienceHandler(o => o.Retry.ShouldHandle = {body});"
        ));
        f.policies[0].retry_on.value.clone()
    };
    let conds = |r: RetryOn| match r {
        RetryOn::Listed { conditions } => conditions.into_iter().map(|c| c.value).collect(),
        other => panic!("{other:?}"),
    };
    let c: Vec<Condition> = conds(retry_on(
        "args => ValueTask.FromResult(!args.Outcome.Result.IsSuccessStatusCode)",
    ));
    assert_eq!(c, [Condition::Status { from: 400, to: 599 }]);
    let c: Vec<Condition> = conds(retry_on(
        "args => { return ValueTask.FromResult(args.Outcome.Exception is HttpRequestException or TimeoutRejectedException); }",
    ));
    assert_eq!(
        c,
        [
            Condition::Exception("HttpRequestException".into()),
            Condition::Exception("TimeoutRejectedException".into())
        ]
    );
    let c: Vec<Condition> = conds(retry_on(
        "new PredicateBuilder<HttpResponseMessage>().Handle<HttpRequestException>().HandleResult(r => (int)r.StatusCode >= 500)",
    ));
    assert_eq!(
        c,
        [
            Condition::Exception("HttpRequestException".into()),
            Condition::Status { from: 500, to: 599 }
        ]
    );
    // A conjunction narrows what the linter reads: not read.
    let c: Vec<Condition> = conds(retry_on(
        "args => ValueTask.FromResult(args.Outcome.Result?.StatusCode == HttpStatusCode.NotFound && IsRetryable(args.Context))",
    ));
    assert_eq!(c, [Condition::Predicate]);
    assert_eq!(
        retry_on("_ => ValueTask.FromResult(false)"),
        RetryOn::Nothing
    );
    assert_eq!(retry_on("_ => PredicateResult.True()"), RetryOn::AllErrors);
}

/// Polly.Contrib.WaitAndRetry: the generator's count reads when its delay
/// is a value the file does not state (`baseDelay.Value` of a nullable
/// parameter): the attempts and the (absent) jitter are known, the delay
/// is not.
#[test]
fn polly_contrib_generator_with_an_unstated_delay() {
    let f = read(
        "using Polly.Contrib.WaitAndRetry;
        public static class Policies {
            public static IAsyncPolicy Create(TimeSpan? baseDelay = null, int retries = 3) {
                baseDelay ??= TimeSpan.FromMilliseconds(200);
                var delays = Backoff.ExponentialBackoff(baseDelay.Value, retries);
                return Policy.Handle<TimeoutException>().WaitAndRetryAsync(delays);
            }
        }",
    );
    assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.delay.value, Delay::Unknown);
    assert_eq!(p.jitter.value, Jitter::None);
}

/// Polly.Contrib.WaitAndRetry's `fastFirst: true`: the first retry goes at
/// once, one delay fewer of the series follows (Polly-Contrib/
/// Polly.Contrib.WaitAndRetry `Backoff.*.cs`: `Enumerate` yields
/// `TimeSpan.Zero` and starts its loop at 1). 4 retries of
/// `ExponentialBackoff(1 s)` wait 0 + 1 + 2 + 4 s, not 1 + 2 + 4 + 8;
/// V2's medians go on from `median x 2`: 0 + 2 + 4 s for 3 retries.
#[test]
fn polly_contrib_fast_first_retries_at_once() {
    let f = read(
        "using Polly.Contrib.WaitAndRetry;
        public static class Policies {
            public static IAsyncPolicy Exp() => Policy.Handle<TimeoutException>()
                .WaitAndRetryAsync(Backoff.ExponentialBackoff(TimeSpan.FromSeconds(1), 4, fastFirst: true));
            public static IAsyncPolicy V2() => Policy.Handle<TimeoutException>()
                .WaitAndRetryAsync(Backoff.DecorrelatedJitterBackoffV2(TimeSpan.FromSeconds(1), 3, null, true));
            public static IAsyncPolicy Slow() => Policy.Handle<TimeoutException>()
                .WaitAndRetryAsync(Backoff.ConstantBackoff(TimeSpan.FromSeconds(2), 3, fastFirst: false));
        }",
    );
    assert_eq!(f.policies.len(), 3, "{:?}", f.diagnostics);
    let waits: Vec<(bool, Option<Duration>, Option<Duration>)> = f
        .policies
        .iter()
        .map(|p| (p.first_at_once, p.wait_before(1), p.total_backoff()))
        .collect();
    let s = Duration::from_secs;
    assert_eq!(
        waits,
        [
            (true, Some(s(0)), Some(s(7))),
            (true, Some(s(0)), Some(s(6))),
            (false, Some(s(2)), Some(s(6))),
        ]
    );
    assert_eq!(f.policies[1].wait_before(2), Some(s(2)));
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(5));
}
