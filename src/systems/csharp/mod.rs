//! C# source (`*.cs`): Polly v7 and v8 retry policies and the
//! `Microsoft.Extensions.Http.Resilience` handlers written in code. The
//! systems, their defaults (with their upstream sources) and the options
//! model are .NET's, in [`super::dotnet`] and [`super::dotnet::model`]
//! (shared with the `appsettings*.json` reader); this folder holds the
//! reader, [`extract`].

pub mod config_addresses;
pub mod connections;
pub mod env;
pub mod extract;
pub mod link;
mod link_programs;
pub mod options;
pub mod pipelines;
pub mod source;
pub mod yarp;

/// A C# project's service name: its file name as the .NET Aspire AppHost
/// names it, `Projects.Catalog_API` for `Catalog.API.csproj` (every
/// character that cannot be in a C# identifier as `_`, as dotnet/eShop's
/// `src/eShop.AppHost/Program.cs` shows), so that an AppHost's
/// `AddProject<Projects.Catalog_API>("catalog-api")` names the same unit
/// and a dotted name is not read as `host.namespace`.
pub fn project_name(stem: &str) -> String {
    stem.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// C# is source, read by file; the documents it reads are YARP's proxy
/// configuration in `appsettings*.json` ([`yarp::config`]) and the
/// connection strings and Aspire retry settings there
/// ([`connections::config`]).
pub const DOC_READERS: &[crate::extract::DocReader] = &[
    crate::extract::DocReader {
        name: "yarp",
        needles: yarp::config::NEEDLES,
        read: yarp::config::extract_doc,
        order: 91,
    },
    crate::extract::DocReader {
        name: "csharp-settings",
        needles: connections::config::NEEDLES,
        read: connections::config::extract_doc,
        order: 92,
    },
];

use super::{Fixes, SystemSpec};
use crate::model::Layer;

/// EF Core `ExecutionStrategy.DefaultMaxRetryCount = 6` (retries) and
/// `DefaultMaxDelay = TimeSpan.FromSeconds(30)` (the cap of the delay, kept
/// in the custom delay)
/// (https://github.com/dotnet/efcore, `src/EFCore/Storage/ExecutionStrategy.cs`,
/// commit 23d892e), used by `SqlServerRetryingExecutionStrategy` and
/// Npgsql's `NpgsqlRetryingExecutionStrategy` when
/// `EnableRetryOnFailure()` is given no count or delay. `GetNextDelay`
/// waits `(2^n - 1) x (1 + random x 0.1)` seconds for retry n = 0, 1, ..
/// (0, 1, 3, 7, 15 s ..), at most the max delay: a custom delay with up to
/// 10% jitter.
pub const EF_CORE_MAX_RETRY_COUNT: u64 = 6;

// system: EfCore
pub static EF_CORE: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "pass a small `maxRetryCount` to `EnableRetryOnFailure(..)` (its default is 6 retries)",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("EF Core retrying execution strategy", Layer::Sdk)
};

/// Azure.Core `RetryOptions` defaults: `MaxRetries = 3` (retries),
/// `Delay = TimeSpan.FromSeconds(0.8)`, `MaxDelay = TimeSpan.FromMinutes(1)`,
/// `Mode = RetryMode.Exponential`, `NetworkTimeout =
/// TimeSpan.FromSeconds(100)` (https://github.com/Azure/azure-sdk-for-net,
/// `sdk/core/Azure.Core/src/RetryOptions.cs`, commit 12008b5).
pub const AZURE_DEFAULT_MAX_RETRIES: u64 = 3;
pub const AZURE_DEFAULT_DELAY: std::time::Duration = std::time::Duration::from_millis(800);
pub const AZURE_DEFAULT_MAX_DELAY: std::time::Duration = std::time::Duration::from_secs(60);
pub const AZURE_DEFAULT_NETWORK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(100);
/// Azure.Core `RetryPolicy.CalculateExponentialDelay`: `(1 << (attempt -
/// 1)) x random.Next(0.8 x Delay, 1.2 x Delay)`, then `Math.Min(..,
/// MaxDelay)`; `RetryMode.Fixed` waits `Delay` with no random part
/// (`sdk/core/Azure.Core/src/Pipeline/Internal/RetryPolicy.cs`, commit
/// 0f06947).
pub const AZURE_JITTER: f64 = 0.2;

/// Azure Service Bus `ServiceBusRetryOptions` defaults: `MaxRetries = 3`
/// (retries, 0 to 100), `Delay = TimeSpan.FromSeconds(0.8)`, `MaxDelay =
/// TimeSpan.FromMinutes(1)`, `TryTimeout = TimeSpan.FromMinutes(1)`, `Mode
/// = ServiceBusRetryMode.Exponential` (https://github.com/Azure/azure-sdk-for-net,
/// `sdk/servicebus/Azure.Messaging.ServiceBus/src/Primitives/ServiceBusRetryOptions.cs`,
/// commit 62d055f).
pub const SERVICE_BUS_DEFAULT_MAX_RETRIES: u64 = 3;
pub const SERVICE_BUS_DEFAULT_DELAY: std::time::Duration = std::time::Duration::from_millis(800);
pub const SERVICE_BUS_DEFAULT_MAX_DELAY: std::time::Duration = std::time::Duration::from_secs(60);
pub const SERVICE_BUS_DEFAULT_TRY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);
/// Service Bus `BasicRetryPolicy` (`src/Core/BasicRetryPolicy.cs`, commit
/// 1826c12): `JitterFactor = 0.08`; exponential waits `2^attempt x Delay +
/// random x 0.08 x Delay` (attempt 1 for the first retry), fixed `Delay +
/// random x 0.08 x Delay`, then `MaxDelay` at most; a zero `Delay` or
/// `MaxDelay` retries nothing.
pub const SERVICE_BUS_JITTER: f64 = 0.08;

/// Microsoft.Data.SqlClient's interval enumerators draw every interval
/// from `random.Next(0.8 x DeltaTime, 1.2 x DeltaTime)`: fixed
/// (`DeltaTime`), incremental (the previous interval plus one draw) and
/// exponential (`(2^n - 1)` draws) (https://github.com/dotnet/SqlClient,
/// `src/Microsoft.Data.SqlClient/src/Microsoft/Data/SqlClient/Reliability/SqlRetryIntervalEnumerators.cs`,
/// commit 1cac0f3); `NumberOfTries` counts the first try
/// (`Reliability/Common/SqlRetryLogic.cs`: `Current < NumberOfTries - 1`).
pub const SQL_CLIENT_JITTER: f64 = 0.2;

// system: AzureSdk
pub static AZURE_SDK: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `Retry.Mode = RetryMode.Exponential` (each delay then varies by ±20% and doubles, up to `Retry.MaxDelay`)",
        bound: "set `Retry.MaxRetries` to 3-5 (its default is 3 retries)",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Azure SDK client retry", Layer::Sdk)
};

// system: SqlClientRetry
pub static SQL_CLIENT_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `SqlConfigurableRetryFactory.CreateExponentialRetryProvider(..)` (its intervals grow and vary by ±20%)",
        bound: "set `NumberOfTries` to 3-5 (it counts the first try)",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("SqlClient configurable retry logic", Layer::Sdk)
};

// system: Yarp
/// YARP, the .NET reverse proxy: it forwards each request once
/// ([`yarp`] cites dotnet/yarp); its layer on a call is one attempt and
/// its activity timeout.
pub static YARP: SystemSpec = SystemSpec::plain("YARP reverse proxy", Layer::Proxy);

// system: CSharpLoop
pub static CSHARP_LOOP: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "wait a random, growing time between tries (`await Task.Delay(TimeSpan.FromMilliseconds(Random.Shared.Next(0, (int)backoff.TotalMilliseconds)))` with `backoff` doubled each time), or use Polly's `AddRetry` with `BackoffType = DelayBackoffType.Exponential` and `UseJitter = true`",
        bound: "count the tries and stop after 3-5 (`for (var attempt = 1; attempt <= 3; attempt++)`), or use Polly's `AddRetry` with `MaxRetryAttempts`",
        ..Fixes::GENERIC
    },
    loop_body: true,
    ..SystemSpec::plain("C# retry loop", Layer::Application)
};

/// StackExchange.Redis connect settings (https://github.com/StackExchange/StackExchange.Redis,
/// commit 90bbf1fc): `DefaultOptionsProvider.ConnectRetry => 3`
/// (`src/StackExchange.Redis/Configuration/DefaultOptionsProvider.cs`),
/// counted as connect cycles, the first included
/// (`ConnectionMultiplexer.ReconfigureAsync`: `attemptsLeft =
/// RawConfig.ConnectRetry`, decremented before each cycle, repeated
/// `while (first && !healthy && attemptsLeft > 0)`: 0 or a negative count
/// is one cycle); `SyncTimeout => TimeSpan.FromSeconds(5)`; `ConnectTimeout
/// => null`, read as `Math.Max(5000, SyncTimeout)` ms
/// (`src/StackExchange.Redis/ConfigurationOptions.cs`, `ConnectTimeout`).
/// The connection string's `connectRetry=`, `connectTimeout=` and
/// `syncTimeout=` (keys compared ignoring case, `OptionKeys.TryNormalize`)
/// set the same, in milliseconds. Each cycle waits for the servers until
/// `ConnectTimeout` has passed since it began; a synchronous `Connect`
/// waits `ConnectTimeout x ConnectRetry` in all (+ at most 500 ms,
/// `SyncConnectTimeout`).
pub const REDIS_CONNECT_RETRY: u64 = 3;
pub const REDIS_SYNC_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
pub const REDIS_MIN_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

// system: RedisConnect
pub static REDIS_CONNECT: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set `ConnectRetry` (`connectRetry=` in the connection string) to 3-5: it counts connect cycles, the first included (its default is 3)",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("StackExchange.Redis connect retry", Layer::Sdk)
};
