//! Pretty output: miette snippets with a label on each span, the rule code
//! and name, help, and a pointer to `retrylint explain`.

use super::sanitize;
use crate::Scan;
use crate::rules::{Finding, Severity};
use crate::source::{LineIndex, Span};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use std::borrow::Cow;
use std::fmt;

/// A file's (sanitised) text under its display name, with the start of
/// each of its lines.
struct Named<'a> {
    name: String,
    text: &'a str,
    lines: &'a LineIndex,
}

impl SourceCode for Named<'_> {
    /// miette finds the lines around a span by counting from the start of
    /// the text; it is given only the lines around the span (found by
    /// binary search), so that a file with many findings is not rescanned
    /// for each label.
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.text.len() {
            return Err(miette::MietteError::OutOfBounds);
        }
        // One line of margin each side: miette then sees the same context
        // lines as in the whole text.
        let first = self.lines.line_of(start).saturating_sub(before + 1);
        let last = self.lines.line_of(end) + after + 2;
        let from = self.lines.line_start(first).min(self.text.len());
        let to = self.lines.line_start(last).min(self.text.len());
        let window = self.text.get(from..to).unwrap_or(self.text);
        let from = if window.len() == self.text.len() {
            0
        } else {
            from
        };
        let first = if from == 0 { 0 } else { first };
        let inner = window.read_span(
            &miette::SourceSpan::new((start - from).into(), span.len()),
            before,
            after,
        )?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            miette::SourceSpan::new((inner.span().offset() + from).into(), inner.span().len()),
            inner.line() + first,
            inner.column(),
            // miette's count is of the line ends it passed, from the start
            // of the text (it decides with it whether two labels share a
            // snippet).
            inner.line_count() + first,
        )))
    }
}

/// Each file's sanitised text and line starts, made once per file.
struct Prepared<'a> {
    files: Vec<Option<(Cow<'a, str>, LineIndex)>>,
}

impl<'a> Prepared<'a> {
    fn new(scan: &'a Scan, findings: &[Finding]) -> Self {
        let mut files: Vec<Option<(Cow<'a, str>, LineIndex)>> = Vec::new();
        files.resize_with(scan.files.len(), || None);
        for id in findings
            .iter()
            .flat_map(|f| std::iter::once(f.file).chain(f.related.iter().map(|r| r.file)))
        {
            if let Some(slot @ None) = files.get_mut(id) {
                let text = sanitize(&scan.file(id).text);
                let lines = LineIndex::lf_only(&text);
                *slot = Some((text, lines));
            }
        }
        Prepared { files }
    }

    fn get(&self, id: crate::source::FileId) -> (&str, &LineIndex) {
        match self.files.get(id).and_then(Option::as_ref) {
            Some((t, l)) => (t.as_ref(), l),
            None => ("", &EMPTY),
        }
    }
}

static EMPTY: LineIndex = LineIndex::EMPTY;

struct Shown<'a> {
    code: String,
    message: String,
    help: Option<String>,
    severity: miette::Severity,
    source: Named<'a>,
    labels: Vec<LabeledSpan>,
    related: Vec<Shown<'a>>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Shown<'_> {}

impl Diagnostic for Shown<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        (!self.code.is_empty()).then(|| Box::new(&self.code) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        (!self.source.text.is_empty()).then_some(&self.source as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.source.text.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn Diagnostic))
                as Box<dyn Iterator<Item = &'b dyn Diagnostic>>
        })
    }
}

fn clamp(text: &str, s: Span) -> (usize, usize) {
    let start = s.start.min(text.len());
    let end = s.end.min(text.len()).max(start);
    (start, end - start)
}

fn shown<'a>(scan: &'a Scan, prepared: &'a Prepared<'a>, f: &Finding) -> Shown<'a> {
    let file = scan.file(f.file);
    let (text, lines) = prepared.get(f.file);
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        Some(f.rule.name.replace('-', " ")),
        clamp(text, f.span),
    )];
    let mut related = Vec::new();
    for r in &f.related {
        let message = sanitize(&r.message).into_owned();
        if r.file == f.file {
            labels.push(LabeledSpan::new_with_span(
                Some(message),
                clamp(text, r.span),
            ));
        } else {
            let other = scan.file(r.file);
            let (otext, olines) = prepared.get(r.file);
            related.push(Shown {
                code: String::new(),
                labels: vec![LabeledSpan::new_primary_with_span(
                    None,
                    clamp(otext, r.span),
                )],
                message,
                help: None,
                severity: miette::Severity::Advice,
                source: Named {
                    name: super::one_line(&other.display_path()),
                    text: otext,
                    lines: olines,
                },
                related: Vec::new(),
            });
        }
    }
    Shown {
        code: format!("{} {}", f.rule.code, f.rule.name),
        message: sanitize(&f.message).into_owned(),
        help: Some(format!(
            "{}\n`retrylint explain {}` tells more",
            sanitize(&f.help),
            f.rule.code
        )),
        severity: match f.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        },
        source: Named {
            name: super::one_line(&file.display_path()),
            text,
            lines,
        },
        labels,
        related,
    }
}

/// Render every finding. `color` picks the coloured unicode theme.
pub fn render(scan: &Scan, findings: &[Finding], color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false)
        .with_context_lines(1);
    let prepared = Prepared::new(scan, findings);
    let refs: Vec<&Finding> = findings.iter().collect();
    // Each block alone, on every core (miette lays out and wraps each
    // report by itself: 8,000 findings took a third of a second on one
    // thread), then joined in order.
    use rayon::prelude::*;
    let blocks: Vec<String> = super::by_cause(&refs)
        .par_iter()
        .map(|ids| {
            let group: Vec<&Finding> = ids.iter().map(|&i| refs[i]).collect();
            let first = group[0];
            let mut s = shown(scan, &prepared, first);
            if group.len() > 1 {
                s.message = format!("{}\n{}", s.message, sanitize(&same_cause(scan, &group)));
            }
            let mut out = String::new();
            let _ = handler.render_report(&mut out, &s);
            out
        })
        .collect();
    blocks.concat()
}

/// Places of a group listed before "and n more" (JSON and SARIF list
/// every one as a related location).
const PLACES: usize = 12;

/// The line under a group's message: how many places share the cause and
/// where the others are, with the quoted values that differ.
fn same_cause(scan: &Scan, group: &[&Finding]) -> String {
    let first = super::audit::quoted(&group[0].message);
    let file = scan.file(group[0].file);
    let places: Vec<String> = group
        .iter()
        .skip(1)
        .take(PLACES)
        .map(|f| {
            let (at, _) = super::range(file, f.span);
            let differ: Vec<&str> = super::audit::quoted(&f.message)
                .into_iter()
                .enumerate()
                .filter(|(i, q)| first.get(*i) != Some(q))
                .map(|(_, q)| q)
                .collect();
            if differ.is_empty() {
                format!("line {}", at.line)
            } else {
                format!("line {} (`{}`)", at.line, differ.join("`, `"))
            }
        })
        .collect();
    let more = group.len().saturating_sub(PLACES + 1);
    format!(
        "the same in {} places of this file: here and {}{}",
        group.len(),
        places.join(", "),
        if more > 0 {
            format!(" and {more} more (`--format json` lists every one)")
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines miette is given around a span read exactly as the whole
    /// text would: same data, span, line, column and line count.
    #[test]
    fn windowed_spans_read_as_the_whole_text() {
        let text = "a: 1\r\n  b:\n    c: [1, 2]\n\n  d: x\ne: \u{e9}t\u{e9}\nlast";
        let lines = LineIndex::lf_only(text);
        let named = Named {
            name: "f".into(),
            text,
            lines: &lines,
        };
        for start in 0..=text.len() {
            for len in 0..=(text.len() - start).min(12) {
                if !text.is_char_boundary(start) || !text.is_char_boundary(start + len) {
                    continue;
                }
                for ctx in 0..3 {
                    let span = miette::SourceSpan::new(start.into(), len);
                    let whole = text.read_span(&span, ctx, ctx).ok();
                    let part = named.read_span(&span, ctx, ctx).ok();
                    let key = |c: &(dyn miette::SpanContents<'_> + '_)| {
                        (
                            c.data().to_vec(),
                            *c.span(),
                            c.line(),
                            c.column(),
                            c.line_count(),
                        )
                    };
                    assert_eq!(
                        whole.as_deref().map(key),
                        part.as_deref().map(key),
                        "{start}+{len} ctx {ctx}"
                    );
                }
            }
        }
    }
}
