//! Duration syntaxes of the systems retrylint reads, and how durations are
//! printed in messages.

use std::time::Duration;

/// Go / Envoy / Istio / protobuf-JSON durations: `1.5s`, `100ms`, `1m30s`,
/// `2h`, `0s`, `250us`, `10ns`. A bare `0` is zero.
pub fn parse_go(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    if t == "0" {
        return Ok(Duration::ZERO);
    }
    if t.is_empty() {
        return Err("empty duration".into());
    }
    if t.starts_with('-') {
        return Err(format!("negative duration `{t}`"));
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    let mut total = 0f64;
    let mut rest = t;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_end == 0 {
            return Err(format!("`{s}` is not a duration"));
        }
        let num: f64 = rest[..num_end]
            .parse()
            .map_err(|_| format!("`{s}` is not a duration"))?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_end];
        rest = &rest[unit_end..];
        if unit.contains(char::is_whitespace) {
            return Err("a duration has no spaces (write `2s`)".into());
        }
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "" => return Err(format!("`{s}` has no unit")),
            other => return Err(format!("unknown unit `{other}` in `{s}`")),
        };
        total += num * scale;
    }
    secs(total, s)
}

/// Spring Boot durations (`DurationStyle.detectAndParse`): a simple form
/// `100`, `500ms`, `2s`, `1m`, `3h`, `1d` (case-insensitive units, unitless
/// = `default_unit`), or ISO-8601 (`PT10S`, `pt5s`, `P1DT2H`).
pub fn parse_spring(s: &str, default_unit: Duration) -> Result<Duration, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("empty duration".into());
    }
    if t.starts_with(['p', 'P', '-', '+'])
        && t.trim_start_matches(['-', '+']).starts_with(['p', 'P'])
    {
        return parse_iso8601(t);
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits = body
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(body.len());
    if digits == 0 {
        return Err(format!("`{s}` is not a duration"));
    }
    let n: u64 = body[..digits]
        .parse()
        .map_err(|_| format!("`{s}` is out of range"))?;
    if neg && n != 0 {
        return Err(format!("negative duration `{t}`"));
    }
    let unit = body[digits..].to_ascii_lowercase();
    if unit.contains(char::is_whitespace) {
        return Err("a duration has no spaces (write `2s`)".into());
    }
    let d = match unit.as_str() {
        "" => default_unit.saturating_mul(n.min(u32::MAX as u64) as u32),
        "ns" => Duration::from_nanos(n),
        "us" => Duration::from_micros(n),
        "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        "d" => Duration::from_secs(n.saturating_mul(86400)),
        other => return Err(format!("unknown unit `{other}` in `{s}`")),
    };
    Ok(d)
}

/// ISO-8601 durations as `java.time.Duration.parse` reads them:
/// `PnDTnHnMn.nS`, case-insensitive.
pub fn parse_iso8601(s: &str) -> Result<Duration, String> {
    let t = s.trim().to_ascii_uppercase();
    let bad = || format!("`{s}` is not an ISO-8601 duration");
    if t.starts_with('-') {
        return Err(format!("negative duration `{s}`"));
    }
    let t = t.strip_prefix('+').unwrap_or(&t);
    let body = t.strip_prefix('P').ok_or_else(bad)?;
    if body.is_empty() {
        return Err(bad());
    }
    let (date, time) = match body.split_once('T') {
        Some((d, t)) => {
            if t.is_empty() {
                return Err(bad());
            }
            (d, t)
        }
        None => (body, ""),
    };
    let mut total = 0f64;
    for (part, units) in [
        (date, &[('D', 86400.0)][..]),
        (time, &[('H', 3600.0), ('M', 60.0), ('S', 1.0)][..]),
    ] {
        let mut rest = part;
        let mut last = 0;
        while !rest.is_empty() {
            let end = rest
                .find(|c: char| c.is_ascii_alphabetic())
                .ok_or_else(bad)?;
            let num: f64 = rest[..end].replace(',', ".").parse().map_err(|_| bad())?;
            let unit = rest[end..].chars().next().ok_or_else(bad)?;
            let pos = units.iter().position(|(u, _)| *u == unit).ok_or_else(bad)?;
            if pos < last {
                return Err(bad());
            }
            last = pos + 1;
            total += num * units[pos].1;
            rest = &rest[end + 1..];
        }
    }
    secs(total, s)
}

fn secs(total: f64, s: &str) -> Result<Duration, String> {
    if !total.is_finite() || !(0.0..=1e15).contains(&total) {
        return Err(format!("`{s}` is out of range"));
    }
    Ok(Duration::from_secs_f64(total))
}

/// A duration as people write it: `100ms`, `2s`, `1.5s`, `2m`, `1h30m`.
pub fn human(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms == 0.0 {
        return "0s".into();
    }
    if ms < 1.0 {
        return format!("{}us", trim(d.as_secs_f64() * 1e6));
    }
    if ms < 1000.0 {
        return format!("{}ms", trim(ms));
    }
    let s = d.as_secs_f64();
    if s < 60.0 {
        return format!("{}s", trim(s));
    }
    let whole = d.as_secs();
    if s.fract() == 0.0 && whole >= 60 {
        let (h, m, sec) = (whole / 3600, (whole % 3600) / 60, whole % 60);
        let mut out = String::new();
        if h >= 24 && h % 24 == 0 && m == 0 && sec == 0 {
            return format!("{}d", h / 24);
        }
        if h > 0 {
            out.push_str(&format!("{h}h"));
        }
        if m > 0 {
            out.push_str(&format!("{m}m"));
        }
        if sec > 0 {
            out.push_str(&format!("{sec}s"));
        }
        return out;
    }
    format!("{}s", trim(s))
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Serialise durations as milliseconds (f64) in JSON.
pub mod serde_ms {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    /// Milliseconds as an f64, or as a whole number when an f64 would not
    /// hold the value exactly (from about 104 days up: a duration of
    /// `9999999999999999s` must read back the same from the facts cache).
    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        let ns = d.as_nanos();
        if ns >= 1u128 << 53
            && ns.is_multiple_of(1_000_000)
            && let Ok(ms) = u64::try_from(ns / 1_000_000)
        {
            return s.serialize_u64(ms);
        }
        s.serialize_f64(d.as_secs_f64() * 1000.0)
    }
    /// The inverse of [`serialize`] (for the facts cache), rounded to the
    /// nearest nanosecond, which is exact for any duration below 100 days
    /// and for whole milliseconds.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(Ms::deserialize(d)?.0)
    }
    pub(super) struct Ms(pub Duration);
    impl<'de> Deserialize<'de> for Ms {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Ms;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("milliseconds")
                }
                fn visit_u64<E: serde::de::Error>(self, ms: u64) -> Result<Ms, E> {
                    Ok(Ms(Duration::from_millis(ms)))
                }
                fn visit_i64<E: serde::de::Error>(self, ms: i64) -> Result<Ms, E> {
                    u64::try_from(ms)
                        .map(|ms| Ms(Duration::from_millis(ms)))
                        .map_err(|_| E::custom("bad duration"))
                }
                fn visit_f64<E: serde::de::Error>(self, ms: f64) -> Result<Ms, E> {
                    from_ms(ms).map(Ms).ok_or_else(|| E::custom("bad duration"))
                }
            }
            d.deserialize_any(V)
        }
    }
    pub(super) fn from_ms(ms: f64) -> Option<Duration> {
        let ns = (ms * 1e6).round();
        (ns.is_finite() && ns >= 0.0 && ns < u64::MAX as f64)
            .then(|| {
                let ns = ns as u64;
                Duration::new(ns / 1_000_000_000, (ns % 1_000_000_000) as u32)
            })
            .or_else(|| Duration::try_from_secs_f64(ms / 1000.0).ok())
    }
}

pub mod serde_opt_ms {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;
    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => super::serde_ms::serialize(d, s),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<super::serde_ms::Ms>::deserialize(d)?.map(|m| m.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_back_exactly_from_json() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct T {
            #[serde(with = "serde_ms")]
            d: Duration,
            #[serde(with = "serde_opt_ms")]
            o: Option<Duration>,
        }
        for d in [
            Duration::from_millis(250),
            Duration::from_nanos(1_500),
            Duration::from_secs(9_999_999_999_999_999),
            Duration::from_secs(86_400 * 200),
        ] {
            let t = T { d, o: Some(d) };
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(serde_json::from_str::<T>(&json).unwrap(), t, "{json}");
        }
        // Short durations keep their f64 form (the JSON output's).
        let json = serde_json::to_string(&T {
            d: Duration::from_millis(250),
            o: None,
        })
        .unwrap();
        assert_eq!(json, r#"{"d":250.0,"o":null}"#);
    }

    #[test]
    fn go_durations() {
        assert_eq!(parse_go("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_go("0.200s").unwrap(), Duration::from_millis(200));
        assert_eq!(parse_go("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_go("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_go("0").unwrap(), Duration::ZERO);
        assert!(parse_go("5").is_err());
        assert!(parse_go("-1s").is_err());
        assert!(parse_go("2 seconds").is_err());
    }

    #[test]
    fn spring_durations() {
        let ms = Duration::from_millis(1);
        assert_eq!(parse_spring("100", ms).unwrap(), Duration::from_millis(100));
        assert_eq!(parse_spring("2s", ms).unwrap(), Duration::from_secs(2));
        assert_eq!(parse_spring("2S", ms).unwrap(), Duration::from_secs(2));
        assert_eq!(
            parse_spring("500ms", ms).unwrap(),
            Duration::from_millis(500)
        );
        assert_eq!(parse_spring("PT10S", ms).unwrap(), Duration::from_secs(10));
        assert_eq!(parse_spring("PT5s", ms).unwrap(), Duration::from_secs(5));
        assert_eq!(
            parse_spring("pt0.5s", ms).unwrap(),
            Duration::from_millis(500)
        );
        assert_eq!(
            parse_spring("P1DT1H", ms).unwrap(),
            Duration::from_secs(90000)
        );
        assert!(parse_spring("PT", ms).is_err());
        assert!(parse_spring("ten", ms).is_err());
        assert!(parse_spring("-5s", ms).is_err());
        assert!(parse_spring("5 s", ms).is_err());
    }

    #[test]
    fn human_durations() {
        assert_eq!(human(Duration::from_millis(100)), "100ms");
        assert_eq!(human(Duration::from_millis(1500)), "1.5s");
        assert_eq!(human(Duration::from_secs(90)), "1m30s");
        assert_eq!(human(Duration::from_secs(86400 * 2)), "2d");
        assert_eq!(human(Duration::ZERO), "0s");
    }
}
