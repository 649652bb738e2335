//! The model's enums tagged by a `kind` field, in two encodings: as
//! written in the JSON output (`{"kind": "fixed", "delay": 500}`) for
//! human-readable formats, and externally tagged (`{"fixed": {"delay":
//! 500}}`) for binary ones, the facts cache's MessagePack
//! ([`crate::cache`]).
//!
//! serde reads an internally tagged enum by buffering the whole value
//! (every field, strings copied) before it knows the variant, whatever
//! the format; a policy holds six such values. An externally tagged value
//! names its variant first and is read in place: decoding a one-file
//! run's cached facts on the generated 10,000-file tree went 173 M ->
//! 147 M instructions (most of the rest was MessagePack's reading of each
//! struct as a map of field names, now an array: [`super::skip`]). The
//! encoding is chosen by the
//! format's `is_human_readable`, so the JSON output is byte for byte what
//! the plain derive writes.

/// Declares an enum tagged by `kind` (kebab-case variant names) whose
/// binary encoding is externally tagged: `kind_tagged! { "Name"; enum
/// Name { .. } }` (the string is the enum's name, as serde's `remote`
/// takes it). The enum's own attributes (docs, other derives) are kept;
/// it must not derive `Serialize` or `Deserialize` itself.
///
/// `kind_tagged! { "Name", content = "n"; enum Name { .. } }`: adjacently
/// tagged in human-readable formats (`{"kind": "finite", "n": 3}`). Its
/// binary encoding must not be the derive's either: as an array of
/// fields (the cache's structs) a unit variant is `["unbounded"]`, which
/// serde reads back expecting a second element (its content).
macro_rules! kind_tagged {
    (
        $remote:tt, content = $content:literal;
        $(#[$attr:meta])*
        $vis:vis enum $name:ident { $($body:tt)* }
    ) => {
        $(#[$attr])*
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(remote = "Self", rename_all = "kebab-case", tag = "kind", content = $content)]
        $vis enum $name { $($body)* }
        kind_tagged!(@binary $remote; $name { $($body)* });
    };
    (
        $remote:tt;
        $(#[$attr:meta])*
        $vis:vis enum $name:ident { $($body:tt)* }
    ) => {
        $(#[$attr])*
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(remote = "Self", rename_all = "kebab-case", tag = "kind")]
        $vis enum $name { $($body)* }
        kind_tagged!(@binary $remote; $name { $($body)* });
    };
    (@binary $remote:tt; $name:ident { $($body:tt)* }) => {
        const _: () = {
            /// The same variants and fields, externally tagged: serde's
            /// `remote` derive reads and writes the enum above through it.
            #[allow(dead_code)]
            #[derive(serde::Serialize, serde::Deserialize)]
            #[serde(remote = $remote, rename_all = "kebab-case")]
            enum Binary { $($body)* }

            impl serde::Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    if s.is_human_readable() {
                        $name::serialize(self, s)
                    } else {
                        Binary::serialize(self, s)
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    if d.is_human_readable() {
                        $name::deserialize(d)
                    } else {
                        Binary::deserialize(d)
                    }
                }
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use crate::model::{Budget, BudgetSite, Delay, Jitter, RetryOn, Timeout};
    use std::time::Duration;

    fn json<T: serde::Serialize>(v: &T) -> String {
        serde_json::to_string(v).unwrap()
    }

    fn binary_round_trip<T>(v: &T) -> T
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        let bytes = rmp_serde::to_vec_named(v).unwrap();
        rmp_serde::from_slice(&bytes).unwrap()
    }

    #[test]
    fn json_keeps_the_kind_field_and_binary_round_trips() {
        let delay = Delay::Exponential {
            base: Duration::from_millis(100),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(5)),
        };
        assert_eq!(
            json(&delay),
            r#"{"kind":"exponential","base":100.0,"multiplier":2.0,"cap":5000.0}"#
        );
        assert_eq!(json(&Delay::None), r#"{"kind":"none"}"#);
        let back: Delay = serde_json::from_str(&json(&delay)).unwrap();
        assert_eq!(back, delay);
        assert_eq!(binary_round_trip(&delay), delay);
        assert_eq!(binary_round_trip(&Delay::None), Delay::None);
        // The binary form names the variant, not a `kind` field.
        let bytes = rmp_serde::to_vec_named(&delay).unwrap();
        assert!(!bytes.windows(4).any(|w| w == b"kind"));
        for j in [Jitter::None, Jitter::Proportional { factor: 0.5 }] {
            assert_eq!(binary_round_trip(&j), j);
        }
        for t in [Timeout::Disabled, Timeout::after(Duration::from_secs(2))] {
            assert_eq!(binary_round_trip(&t), t);
            let back: Timeout = serde_json::from_str(&json(&t)).unwrap();
            assert_eq!(back, t);
        }
        let b = Budget::Ratio {
            ratio: 0.2,
            min_per_second: None,
        };
        assert_eq!(
            json(&b),
            r#"{"kind":"ratio","ratio":0.2,"min_per_second":null}"#
        );
        assert_eq!(binary_round_trip(&b), b);
        for r in [RetryOn::AllErrors, RetryOn::Listed { conditions: vec![] }] {
            assert_eq!(binary_round_trip(&r), r);
        }
        let site = BudgetSite::Block {
            span: crate::source::Span::default(),
            what: "cluster `a`".into(),
        };
        assert_eq!(binary_round_trip(&site), site);
    }

    /// The adjacently tagged enums: JSON as the derive writes it, and a
    /// unit variant read back from the cache's positional encoding.
    #[test]
    fn adjacently_tagged_json_is_unchanged_and_units_round_trip_positionally() {
        use crate::model::{AttemptCount, Condition, Methods};
        fn positional<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
            let bytes = crate::model::skip::every_field(|| rmp_serde::to_vec(v).unwrap());
            rmp_serde::from_slice(&bytes).unwrap()
        }
        assert_eq!(json(&AttemptCount::Finite(3)), r#"{"kind":"finite","n":3}"#);
        assert_eq!(json(&AttemptCount::Unbounded), r#"{"kind":"unbounded"}"#);
        assert_eq!(
            json(&Condition::Grpc("UNAVAILABLE".into())),
            r#"{"kind":"grpc","value":"UNAVAILABLE"}"#
        );
        assert_eq!(json(&Methods::All), r#"{"kind":"all"}"#);
        let back: AttemptCount = serde_json::from_str(r#"{"kind":"finite","n":3}"#).unwrap();
        assert_eq!(back, AttemptCount::Finite(3));
        for a in [
            AttemptCount::Finite(3),
            AttemptCount::Unbounded,
            AttemptCount::Unknown,
        ] {
            assert_eq!(positional(&a), a);
        }
        for c in [
            Condition::status(503),
            Condition::Predicate,
            Condition::Token("x".into()),
        ] {
            assert_eq!(positional(&c), c);
        }
        for m in [
            Methods::All,
            Methods::Set(vec!["GET".into()]),
            Methods::Unknown,
        ] {
            assert_eq!(positional(&m), m);
        }
    }
}
