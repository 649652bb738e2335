//! What the link stage needs of every C# file, taken when the file is
//! read (issue 19): the types it declares, the type-like names its code
//! uses, and the string constants its types declare. A file with no call
//! and no retry is not kept by the scan, and the link stage used to read
//! it again from disk for these (`systems::csharp::link_programs`, the
//! queue-constant step of `systems::csharp::link`); now it asks the scan.

use serde::{Deserialize, Serialize};

/// The facts of the C# files a scan read and did not keep, by path.
pub type Sources = std::collections::BTreeMap<std::path::PathBuf, CsharpSource>;

/// One C# file's names and string constants.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CsharpSource {
    /// The types the file declares (`class`, `record`, `struct`,
    /// `interface`, `enum`), in order.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub types: Vec<String>,
    /// The identifiers its code names that begin with a capital letter
    /// (comments and strings left out), sorted and unique: a use of a
    /// type is one of them.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub names: Vec<String>,
    /// The string constants (`const string`, `static readonly string`)
    /// its types declare, in order.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub constants: Vec<CsharpConstant>,
    /// The number constants (`const int`, `static readonly double`, ..)
    /// its types declare, in order: a retry count or a delay another
    /// file reads as `Constants.MaxRetries` (`link::values`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub numbers: Vec<CsharpNumber>,
    /// The resilience pipelines the file registers by key
    /// (`services.AddResiliencePipeline("orders", b => b.AddRetry(..))`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub pipelines: Vec<PipelineKey>,
    /// The pipelines its code takes by key and runs around code
    /// (`provider.GetPipeline("orders").ExecuteAsync(ct => ..)`), joined
    /// to their registrations by `systems::csharp::pipelines`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub pipeline_uses: Vec<PipelineUse>,
}

/// A pipeline registered by key, and the retry it holds (an index into
/// the file's policies; none for a pipeline without a retry strategy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PipelineKey {
    /// The key as the code gives it: a string literal's value in quotes
    /// (`"orders"`), else the expression (`PipelineKeys.Orders`).
    pub key: String,
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub policy: Option<usize>,
}

/// A pipeline taken by key and run around the code from `start` to `end`
/// (the delegate given to `ExecuteAsync`), at `at` (the execution).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PipelineUse {
    pub key: String,
    /// Where the pipeline is taken, as written
    /// (`pipelines.GetPipeline("orders")`, `[FromKeyedServices("orders")]`).
    pub taken: String,
    pub at: crate::source::Span,
    /// The delegate's own text (empty for a method group).
    pub start: usize,
    pub end: usize,
    /// The bodies of the methods of the class the delegate runs
    /// (`ct => SendAsync(order, ct)`), which run again on every attempt.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub also: Vec<(usize, usize)>,
    /// Request keys minted inside the delegate: a new one per attempt.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub keys: Vec<crate::model::IdempotencyKey>,
}

/// `public const int MaxRetries = 3;` in `class Constants`, on line 7.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsharpNumber {
    pub class: String,
    pub name: String,
    /// A number, or a `TimeSpan` in seconds.
    pub value: f64,
    /// Whether it is a `TimeSpan` (`static readonly TimeSpan X =
    /// TimeSpan.FromSeconds(2)`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub secs: bool,
    /// The declaration's line (1-based).
    pub line: usize,
}

/// `public const string Orders = "orders";` in `class Queues`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsharpConstant {
    /// The type declaring it (`Queues`).
    pub class: String,
    /// The constant (`Orders`).
    pub name: String,
    /// Its value (`orders`).
    pub value: String,
}

impl CsharpSource {
    /// Whether the file's code names `word` (a type's name).
    pub fn names(&self, word: &str) -> bool {
        self.names
            .binary_search_by(|n| n.as_str().cmp(word))
            .is_ok()
    }

    /// The value of the string constant `name` of type `class`, if the
    /// file declares one.
    pub fn constant(&self, class: &str, name: &str) -> Option<&str> {
        self.constants
            .iter()
            .find(|c| c.class == class && c.name == name)
            .map(|c| c.value.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
            && self.names.is_empty()
            && self.constants.is_empty()
            && self.numbers.is_empty()
            && self.pipelines.is_empty()
            && self.pipeline_uses.is_empty()
    }
}
