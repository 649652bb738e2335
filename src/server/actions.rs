//! Requests about findings: hover (the rule's doc, as `retrylint explain`
//! prints it) and code actions (the findings' fixes).

use super::convert::{self, Encoding};
use super::workspace::Analysis;
use crate::fix::Applicability;
use crate::rules::Finding;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Hover, HoverContents,
    HoverParams, MarkupContent, MarkupKind, Position, Range, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::path::Path;

/// The kind of the action that applies every safe fix of a file.
pub static FIX_ALL: std::sync::LazyLock<CodeActionKind> =
    std::sync::LazyLock::new(|| CodeActionKind::new("source.fixAll.retrylint"));

/// Whether `pos` lies in `range` (ends included: a cursor just after a
/// finding is on it).
fn contains(range: &Range, pos: Position) -> bool {
    range.start <= pos && pos <= range.end
}

fn overlaps(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// The analysis holding `path`, and the findings in it with their ranges.
fn findings_at<'a>(
    analyses: &'a [Analysis],
    path: &Path,
    enc: Encoding,
) -> Option<(&'a Analysis, Vec<(&'a Finding, Range)>)> {
    let a = analyses.iter().find(|a| a.by_path.contains_key(path))?;
    let id = a.id_of(path)?;
    let source = &a.run.scan.files[id].source;
    let list = a
        .findings_in(path)
        .map(|f| (f, convert::range(&source.text, source.lines(), f.span, enc)))
        .collect();
    Some((a, list))
}

/// The doc of each rule with a finding under the cursor.
pub fn hover(analyses: &[Analysis], enc: Encoding, p: &HoverParams) -> Option<Hover> {
    let pos = &p.text_document_position_params;
    let path = convert::uri_to_path(&pos.text_document.uri)?;
    let (_, list) = findings_at(analyses, &path, enc)?;
    let here: Vec<&(&Finding, Range)> = list
        .iter()
        .filter(|(_, r)| contains(r, pos.position))
        .collect();
    let first = here.first()?;
    let mut rules: Vec<&crate::rules::Rule> = here.iter().map(|(f, _)| f.rule).collect();
    rules.sort_by_key(|r| r.code);
    rules.dedup_by_key(|r| r.code);
    let docs: Vec<String> = rules
        .iter()
        .map(|r| {
            format!(
                "{}\n\n[{}]({})",
                r.body().trim_end(),
                r.help_uri(),
                r.help_uri()
            )
        })
        .collect();
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: docs.join("\n\n---\n\n"),
        }),
        range: Some(first.1),
    })
}

/// The edits of `fixes` as a workspace edit (per file, on the text the
/// analysis read); `None` when a file of theirs is not in the analysis.
// lsp-types keys `WorkspaceEdit::changes` by `Uri`, whose parsed form
// has cells clippy cannot see through; it hashes by its text.
#[allow(clippy::mutable_key_type)]
fn workspace_edit<'f>(
    a: &Analysis,
    edits: impl IntoIterator<Item = &'f crate::fix::Edit>,
    enc: Encoding,
) -> Option<WorkspaceEdit> {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for e in edits {
        let (path, text, lines) = convert::Files::file(a, e.file)?;
        let uri = convert::path_to_uri(path)?;
        changes.entry(uri).or_default().push(TextEdit {
            range: convert::range(text, lines, e.span, enc),
            new_text: e.replacement.clone(),
        });
    }
    Some(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
}

/// Whether the client asked for actions of `kind` (`only` names kinds or
/// their prefixes; none: every kind).
fn wanted(only: Option<&Vec<CodeActionKind>>, kind: &CodeActionKind) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|k| {
            kind.as_str() == k.as_str() || kind.as_str().starts_with(&format!("{}.", k.as_str()))
        })
    })
}

/// The fixes of the findings in the requested range (quick fixes, the
/// safe ones preferred; an unsafe one says so in its title), and one
/// action that makes every safe fix of the file that does not clash with
/// another (`source.fixAll.retrylint`, what an editor runs on save).
pub fn code_actions(
    analyses: &[Analysis],
    enc: Encoding,
    p: &CodeActionParams,
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    let Some(path) = convert::uri_to_path(&p.text_document.uri) else {
        return out;
    };
    let Some((a, list)) = findings_at(analyses, &path, enc) else {
        return out;
    };
    let Some(id) = a.id_of(&path) else {
        return out;
    };
    let source = &a.run.scan.files[id].source;
    let only = p.context.only.as_ref();
    if wanted(only, &CodeActionKind::QUICKFIX) {
        for (f, _) in list.iter().filter(|(_, r)| overlaps(r, &p.range)) {
            let diagnostic = convert::diagnostic(f, &[], &source.text, source.lines(), a, enc);
            for fix in &f.fixes {
                let Some(edit) = workspace_edit(a, &fix.edits, enc) else {
                    continue;
                };
                let title = match fix.applicability {
                    Applicability::Safe => format!("{}: {}", f.rule.code, fix.title),
                    Applicability::Unsafe => format!("{}: {} (unsafe)", f.rule.code, fix.title),
                };
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(fix.is_safe()),
                    ..Default::default()
                }));
            }
        }
    }
    if wanted(only, &FIX_ALL) {
        // Safe fixes whose edits all lie in this file.
        let safe: Vec<&crate::fix::Fix> = list
            .iter()
            .flat_map(|(f, _)| &f.fixes)
            .filter(|x| x.is_safe() && x.edits.iter().all(|e| e.file == id))
            .collect();
        let applied = crate::fix::apply_fixes(&source.text, id, safe.iter().copied());
        if !applied.applied.is_empty()
            && let Some(edit) =
                workspace_edit(a, applied.applied.iter().flat_map(|&i| &safe[i].edits), enc)
        {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "retrylint: apply every safe fix".into(),
                kind: Some(FIX_ALL.clone()),
                edit: Some(edit),
                ..Default::default()
            }));
        }
    }
    out
}
