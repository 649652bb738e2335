//! What a Rust file leaves for the link step: the retry macros it defines
//! (their arms as templates) and the macro calls it makes, resolved
//! across files by `systems::rust::extract::link_macros`.

use crate::source::Span;
use serde::Serialize;
use std::time::Duration;

/// A retry macro a file defines (`macro_rules!` whose body retries), for
/// call sites in other files; resolved by `systems::rust::extract::link_macros`.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MacroDef {
    pub name: String,
    pub arms: Vec<MacroArm>,
    pub span: Span,
}

/// A call of a macro that may be a retry macro defined in another file.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MacroCall {
    pub name: String,
    pub span: Span,
    /// The top-level comma-separated arguments with their spans and their
    /// integer value when they are integer literals.
    pub args: Vec<MacroArg>,
    /// The enclosing function, for the policy's name.
    pub within: Option<String>,
}

/// What a Rust file leaves for the link step.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct RustFacts {
    /// The crate directory derived from the path (`systems::rust::extract::crate_dir`).
    pub crate_dir: Option<String>,
    pub macro_defs: Vec<MacroDef>,
    pub macro_calls: Vec<MacroCall>,
    /// Modules this file declares test-only in their own file
    /// (`#[cfg(test)] mod x;`): `x.rs` or `x/mod.rs` is test code.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub test_modules: Vec<String>,
}

impl RustFacts {
    pub fn is_empty(&self) -> bool {
        self.macro_defs.is_empty() && self.macro_calls.is_empty() && self.test_modules.is_empty()
    }
}

/// An argument of a macro call.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MacroArg {
    pub span: Span,
    pub int: Option<i128>,
    /// A macro parameter of the enclosing definition (`$f`), by name.
    pub param: Option<String>,
}

/// A count written as a literal or as a macro parameter plus an offset.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum Num {
    Const(i128),
    Param(String),
    Unknown,
}

/// Attempts of a loop or macro arm.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum AttemptsT {
    /// `value + offset` attempts.
    Count {
        value: Num,
        offset: i128,
        span: Span,
    },
    Unbounded {
        span: Span,
    },
    Unknown {
        span: Span,
    },
}

/// The delay of a loop or macro arm.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum DelayT {
    None,
    /// `value x unit` seconds.
    Fixed {
        value: Num,
        unit: f64,
        span: Span,
    },
    Exponential {
        base: Duration,
        multiplier: f64,
        cap: Option<Duration>,
        span: Span,
    },
    Custom {
        span: Span,
    },
}

/// What one loop does.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct LoopT {
    pub attempts: AttemptsT,
    pub delay: DelayT,
    pub randomised: bool,
    pub predicate: bool,
    pub span: Span,
    pub has_timeout: bool,
    /// Why the loop is a retry (see `RetryPolicy::why`).
    #[serde(default)]
    pub why: Vec<String>,
    /// The response statuses that go round (inclusive ranges), each with
    /// the test it comes from (issue 28).
    #[serde(default)]
    pub statuses: Vec<(u16, u16, Span)>,
    /// The write conflict that alone goes round (`SerializationFailure`),
    /// when the loop sorts its failures so.
    #[serde(default)]
    pub conflict: Option<String>,
}

/// One arm of a retry macro.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum MacroArm {
    Loop {
        params: Vec<String>,
        body: LoopT,
    },
    /// The arm calls the macro again with these arguments.
    Forward {
        params: Vec<String>,
        target: String,
        args: Vec<MacroArg>,
    },
    Other {
        params: Vec<String>,
    },
}
