//! C# source (`*.cs`): Polly v7 and v8 retry policies and the
//! `Microsoft.Extensions.Http.Resilience` handlers written in code. The
//! systems, their defaults (with their upstream sources) and the options
//! model are .NET's, in [`super::dotnet`] and [`super::dotnet::model`]
//! (shared with the `appsettings*.json` reader); this folder holds the
//! reader, [`extract`].

pub mod extract;

/// C# is source, read by file: no YAML/JSON document reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];
