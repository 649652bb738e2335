//! Settings rules (RL9xx): reported by extractors while they read a file.
//!
//! RL901-RL903 are registered here; their constructors live below the
//! extractors, in [`crate::diag`], and are re-exported, so that no
//! extractor imports a rule module.

pub mod unused_suppression;

/// RL901 unknown-setting ([`crate::diag::unknown_setting`]).
pub mod unknown_setting {
    pub use crate::diag::unknown_setting::*;
    pub const CHECK: crate::rules::Check = crate::rules::Check::Extractor;
}

/// RL902 invalid-setting ([`crate::diag::invalid_setting`]).
pub mod invalid_setting {
    pub use crate::diag::invalid_setting::*;
    pub const CHECK: crate::rules::Check = crate::rules::Check::Extractor;
}

/// RL903 unparsable-file ([`crate::diag::unparsable_file`]).
pub mod unparsable_file {
    pub use crate::diag::unparsable_file::*;
    pub const CHECK: crate::rules::Check = crate::rules::Check::Extractor;
}

#[cfg(test)]
mod tests {
    use crate::rules::Check;

    /// Every code an extractor reports is a registered extractor rule.
    #[test]
    fn diagnostic_codes_are_extractor_rules() {
        for code in crate::diag::CODES {
            assert!(matches!(code.rule().check, Check::Extractor), "{code}");
        }
    }
}
