//! One Spring property, as the Spring family's readers share it and as a
//! document reader is given the properties of other files.

use crate::source::Span;

/// One property: its dotted key segments (as written), where the key is,
/// and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Prop {
    /// Key segments as written; a list index is its own segment `[0]`.
    pub segments: Vec<String>,
    /// The span of each segment's key (segments split from one dotted key
    /// share its span).
    pub seg_spans: Vec<Span>,
    /// The span of the last key segment (the property's own key).
    pub key_span: Span,
    pub value: String,
    pub value_span: Span,
    /// For each byte of `value`, the source span of the text that produced
    /// it, where the value is not a verbatim slice of the file (escapes and
    /// line continuations in `.properties`). Empty otherwise.
    pub value_map: Vec<Span>,
}

impl Prop {
    /// The segments normalised for relaxed binding (lower case, no `-`/`_`).
    pub fn normalised(&self, i: usize) -> String {
        self.segments
            .get(i)
            .map(|s| crate::keys::normalise_key(s))
            .unwrap_or_default()
    }

    /// Whether segment `i` normalised is `want` (`self.normalised(i) ==
    /// want`), without building it.
    pub fn normalised_is(&self, i: usize, want: &str) -> bool {
        self.segments
            .get(i)
            .map_or(want.is_empty(), |s| crate::keys::normalises_to(s, want))
    }

    /// The key as written, dotted.
    pub fn key(&self) -> String {
        let mut out = String::new();
        for s in &self.segments {
            if !out.is_empty() && !s.starts_with('[') {
                out.push('.');
            }
            out.push_str(s);
        }
        out
    }

    /// The span from the key to the end of the value.
    pub fn span(&self) -> Span {
        self.key_span.cover(self.value_span)
    }

    /// The source span of `value[range]`: exact where the value is a
    /// verbatim slice of the file or has a byte map, the whole value's span
    /// otherwise (a quoted YAML scalar).
    pub fn sub_span(&self, range: std::ops::Range<usize>) -> Span {
        if range.start >= range.end || range.end > self.value.len() {
            return self.value_span;
        }
        if !self.value_map.is_empty() {
            return match (
                self.value_map.get(range.start),
                self.value_map.get(range.end - 1),
            ) {
                (Some(a), Some(b)) => a.cover(*b),
                _ => self.value_span,
            };
        }
        // Verbatim, or a quoted YAML scalar without escapes or folding.
        let lead = if self.value_span.len() == self.value.len() {
            0
        } else if self.value_span.len() == self.value.len() + 2 {
            1
        } else {
            return self.value_span;
        };
        let start = self.value_span.start + lead + range.start;
        Span::new(start, start + (range.end - range.start))
    }

    /// Whether segment `i` is a list index `[n]`.
    pub fn is_index(&self, i: usize) -> bool {
        self.segments.get(i).is_some_and(|s| {
            s.starts_with('[') && s[1..].trim_end_matches(']').parse::<usize>().is_ok()
        })
    }
}
