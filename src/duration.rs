//! Duration syntaxes of the systems retrylint reads, each parsed here and
//! nowhere else (Go, protobuf JSON, nginx, .NET `TimeSpan`, Gateway API,
//! Spring, ISO-8601), and how durations are printed in messages.

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

/// Why a protobuf JSON duration did not parse ([`parse_protobuf`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtobufDurationError {
    /// `-1s`: the JSON mapping allows a sign, but neither Envoy nor gRPC
    /// accepts a negative timeout or backoff.
    Negative,
    /// Not decimal seconds with an `s` suffix (`250ms`, `5`, `.5s`, `1.s`).
    Malformed,
    /// More than 315,576,000,000 seconds (10,000 years).
    OutOfRange,
}

/// The largest `google.protobuf.Duration`: 10,000 years of seconds
/// (`kMaxSeconds = int64_t{3652500} * 86400` in protobuf's
/// `src/google/protobuf/json/internal/parser.cc`, `ParseDuration`).
pub const PROTOBUF_MAX_SECONDS: u64 = 315_576_000_000;

/// A `google.protobuf.Duration` in its JSON mapping, as Envoy and gRPC
/// service configs write it: decimal seconds with one `s` suffix (`1.5s`,
/// `0.100s`, `60s`). The grammar is that of protobuf's reference JSON
/// parser (`ParseDuration` and `TakeNanosAndAdvance` in
/// `src/google/protobuf/json/internal/parser.cc`): an integer part is
/// required ("duration must start with an integer", so `.5s` is rejected),
/// a `.` is followed by 1 to 9 digits (`1.s` is rejected), and the value is
/// at most [`PROTOBUF_MAX_SECONDS`]. Surrounding blanks are ignored.
pub fn parse_protobuf(text: &str) -> Result<Duration, ProtobufDurationError> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(ProtobufDurationError::Negative);
    }
    let body = t
        .strip_suffix('s')
        .ok_or(ProtobufDurationError::Malformed)?;
    let (whole, frac) = match body.split_once('.') {
        Some((_, "")) => return Err(ProtobufDurationError::Malformed),
        Some((w, f)) => (w, f),
        None => (body, ""),
    };
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 9
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ProtobufDurationError::Malformed);
    }
    let secs: u64 = whole
        .parse()
        .map_err(|_| ProtobufDurationError::OutOfRange)?;
    if secs > PROTOBUF_MAX_SECONDS {
        return Err(ProtobufDurationError::OutOfRange);
    }
    // At most nine digits, padded to nine: always a valid u32 below 10^9.
    let nanos: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}")
            .parse()
            .map_err(|_| ProtobufDurationError::Malformed)?
    };
    Ok(Duration::new(secs, nanos))
}

/// nginx time values (`ngx_parse_time`): `30s`, `1m30s`, `500ms`, `1h 30m`;
/// a number without a unit is seconds; units from largest to smallest, each
/// at most once: `y` (365d), `M` (30d), `w`, `d`, `h`, `m`, `s`, `ms`.
pub fn parse_nginx(s: &str) -> Result<Duration, String> {
    let b = s.as_bytes();
    let bad = || "not an nginx time (write `30s`, `1m30s` or `500ms`)".to_string();
    let mut i = 0;
    let mut total_ms: u128 = 0;
    let mut last_rank = 0u8;
    let mut any = false;
    while i < b.len() {
        if b[i] == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return Err(bad());
        }
        let n: u128 = s[start..i].parse().map_err(|_| bad())?;
        let (rank, scale, len) = match (b.get(i), b.get(i + 1)) {
            (Some(b'y'), _) => (1, 365 * 86_400_000, 1),
            (Some(b'M'), _) => (2, 30 * 86_400_000, 1),
            (Some(b'w'), _) => (3, 7 * 86_400_000, 1),
            (Some(b'd'), _) => (4, 86_400_000, 1),
            (Some(b'h'), _) => (5, 3_600_000, 1),
            (Some(b'm'), Some(b's')) => (8, 1, 2),
            (Some(b'm'), _) => (6, 60_000, 1),
            (Some(b's'), _) => (7, 1000, 1),
            (None | Some(b' '), _) => (9, 1000, 0),
            _ => return Err(bad()),
        };
        if rank <= last_rank {
            return Err(bad());
        }
        last_rank = rank;
        total_ms = total_ms.saturating_add(n.saturating_mul(scale));
        i += len;
        any = true;
        if rank == 9 {
            // A bare number ends the value.
            while i < b.len() && b[i] == b' ' {
                i += 1;
            }
            if i < b.len() {
                return Err(bad());
            }
        }
    }
    if !any {
        return Err("empty time".into());
    }
    // ngx_parse_time refuses values past NGX_MAX_INT_T_VALUE.
    if total_ms > i64::MAX as u128 {
        return Err("out of range".into());
    }
    Ok(Duration::from_millis(total_ms as u64))
}

/// .NET `TimeSpan.Parse` (invariant culture): `[-][d.]hh:mm[:ss[.fffffff]]`
/// or a whole number of days.
pub fn parse_dotnet_timespan(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let bad = || {
        format!(
            "`{t}` is not a TimeSpan: write `hh:mm:ss` (`00:00:02` is 2 seconds) or `d.hh:mm:ss`; the binder throws at start-up"
        )
    };
    if t.is_empty() {
        return Err(bad());
    }
    if let Some(rest) = t.strip_prefix('-') {
        return match parse_dotnet_timespan(rest) {
            Ok(d) if d.is_zero() => Ok(d),
            Ok(_) => Err(format!("negative TimeSpan `{t}`")),
            Err(e) => Err(e),
        };
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        let days: u64 = t.parse().map_err(|_| bad())?;
        if days > 10_675_199 {
            return Err(format!("`{t}` is out of range"));
        }
        return Ok(Duration::from_secs(days * 86_400));
    }
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return Err(bad());
    }
    let (days, hours) = match parts[0].split_once('.') {
        Some((d, h)) => (d, h),
        None => ("0", parts[0]),
    };
    let (secs, frac) = match parts.get(2) {
        Some(s) => match s.split_once('.') {
            Some((s, f)) => (s, f),
            None => (*s, ""),
        },
        None => ("0", ""),
    };
    let num = |x: &str, max: u64| -> Result<u64, String> {
        if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: u64 = x.parse().map_err(|_| bad())?;
        if n > max {
            return Err(format!(
                "`{t}` is out of range (hours 0-23, minutes and seconds 0-59)"
            ));
        }
        Ok(n)
    };
    let d = num(days, 10_675_199)?;
    let h = num(hours, 23)?;
    let m = num(parts[1], 59)?;
    let sec = num(secs, 59)?;
    if frac.len() > 7 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let nanos: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}").parse().map_err(|_| bad())?
    };
    Ok(Duration::new(d * 86_400 + h * 3600 + m * 60 + sec, nanos))
}

/// Whether `s` is a Gateway API duration (GEP-2257): one to four
/// `<1-5 digits><h|m|s|ms>` parts, such as `1m30s` or `500ms`.
pub fn is_gep2257(s: &str) -> bool {
    let mut rest = s;
    let mut parts = 0;
    while !rest.is_empty() {
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 5 {
            return false;
        }
        rest = &rest[digits..];
        let unit = if rest.starts_with("ms") {
            2
        } else if rest.starts_with(['h', 'm', 's']) {
            1
        } else {
            return false;
        };
        rest = &rest[unit..];
        parts += 1;
        if parts > 4 {
            return false;
        }
    }
    parts > 0
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
    fn protobuf_durations() {
        use ProtobufDurationError::*;
        let ok = |t: &str| parse_protobuf(t).unwrap();
        assert_eq!(ok("0.100s"), Duration::from_millis(100));
        assert_eq!(ok("60s"), Duration::from_secs(60));
        assert_eq!(ok("0s"), Duration::ZERO);
        assert_eq!(ok(" 1.000000001s "), Duration::new(1, 1));
        assert_eq!(ok("0000000000001s"), Duration::from_secs(1));
        assert_eq!(ok("315576000000s"), Duration::from_secs(315_576_000_000));
        for bad in [
            "250ms",
            "5",
            "s",
            ".5s",
            "1.s",
            "1.0000000001s",
            "1ss",
            "+1s",
            "1e3s",
            "1.5 s",
            "",
        ] {
            assert_eq!(parse_protobuf(bad), Err(Malformed), "{bad}");
        }
        assert_eq!(parse_protobuf("-1s"), Err(Negative));
        assert_eq!(parse_protobuf("315576000001s"), Err(OutOfRange));
        assert_eq!(parse_protobuf("99999999999999999999999s"), Err(OutOfRange));
    }

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
