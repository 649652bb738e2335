//! Pretty output: miette snippets with a label on each span, the rule code
//! and name, help, and a pointer to `retrylint explain`.

use super::sanitize;
use crate::Scan;
use crate::rules::{Finding, Severity};
use crate::source::Span;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};
use std::borrow::Cow;
use std::fmt;

/// A file's text under its display name.
struct Named<'a> {
    name: String,
    text: Cow<'a, str>,
}

impl SourceCode for Named<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let inner = self.text.as_ref().read_span(span, before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

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

fn shown<'a>(scan: &'a Scan, f: &Finding) -> Shown<'a> {
    let file = scan.file(f.file);
    let text = sanitize(&file.text);
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        Some(f.rule.name.replace('-', " ")),
        clamp(&text, f.span),
    )];
    let mut related = Vec::new();
    for r in &f.related {
        let message = sanitize(&r.message).into_owned();
        if r.file == f.file {
            labels.push(LabeledSpan::new_with_span(
                Some(message),
                clamp(&text, r.span),
            ));
        } else {
            let other = scan.file(r.file);
            let otext = sanitize(&other.text);
            related.push(Shown {
                code: String::new(),
                labels: vec![LabeledSpan::new_primary_with_span(
                    None,
                    clamp(&otext, r.span),
                )],
                message,
                help: None,
                severity: miette::Severity::Advice,
                source: Named {
                    name: super::one_line(&other.display_path()),
                    text: otext,
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
    let mut out = String::new();
    for f in findings {
        let _ = handler.render_report(&mut out, &shown(scan, f));
    }
    out
}
