//! What the parse leaves out beyond member bodies and comments: the
//! `import` declarations (their names read from the text), and the
//! blanks between two left-out ranges.

/// A top-level statement from `stmt.start` to its `;` at `stmt.end`: when
/// it is an `import` declaration, its span from `import` through the `;`
/// joins `imports`; one holding a comment or anything but ASCII names,
/// dots, `*` and whitespace turns `imports` to `None`.
pub(super) fn import_declaration(
    b: &[u8],
    code: &[u8],
    stmt: std::ops::Range<usize>,
    imports: &mut Option<Vec<std::ops::Range<usize>>>,
) {
    let Some(list) = imports else {
        return;
    };
    let Some(at) = code[stmt.clone()]
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .map(|k| stmt.start + k)
    else {
        return;
    };
    let raw = &b[at..stmt.end];
    if !raw.starts_with(b"import") || raw.get(6).is_none_or(|c| !c.is_ascii_whitespace()) {
        return;
    }
    if raw != &code[at..stmt.end]
        || !raw.iter().all(|&c| {
            c.is_ascii_alphanumeric()
                || c.is_ascii_whitespace()
                || matches!(c, b'_' | b'$' | b'.' | b'*')
        })
    {
        *imports = None;
        return;
    }
    list.push(at..stmt.end + 1);
}

/// `ranges` (in order, apart) with each two separated by nothing but
/// whitespace joined into one. The parser lexes no blank between them,
/// and tree-sitter looks for its place among the included ranges from
/// the first one on each jump (`ts_lexer_goto`): a licence, the imports
/// and the comments between them become one range at the top of the
/// file instead of dozens. No token can join across the join: the byte
/// before a left-out range is a blank (a comment), a `;`, `{` or `}` or
/// the end of a comment (an import), or the `{` of a body.
pub(super) fn join_blank_gaps(
    src: &str,
    ranges: Vec<std::ops::Range<usize>>,
) -> Vec<std::ops::Range<usize>> {
    let b = src.as_bytes();
    let mut out: Vec<std::ops::Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last)
                if last.end <= r.start
                    && b[last.end..r.start].iter().all(u8::is_ascii_whitespace) =>
            {
                last.end = r.end
            }
            _ => out.push(r),
        }
    }
    out
}
