//! C# source (`*.cs`): Polly v7 and v8 retry policies and the
//! `Microsoft.Extensions.Http.Resilience` handlers written in code. The
//! systems, their defaults (with their upstream sources) and the options
//! model are .NET's, in [`super::dotnet`] and [`super::dotnet::model`]
//! (shared with the `appsettings*.json` reader); this folder holds the
//! reader, [`extract`].

pub mod extract;
pub mod link;

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

/// C# is source, read by file: no YAML/JSON document reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];

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
