use super::*;
use crate::extract::Facts;
use crate::systems::go::extract::{extract_with, wants};

fn bodies(src: &str) -> Vec<&str> {
    lex(src.as_bytes())
        .expect("lexed")
        .bodies
        .iter()
        .map(|b| &src[b.start..b.end])
        .collect()
}

#[test]
fn finds_declaration_bodies_past_type_braces_in_signatures() {
    let src = r#"package p

import "fmt"

type T struct{ a int }

func (t *T) M(x struct{ b int }, f func(int) error) (map[string]struct{}, error) { return nil, nil }

func R() interface{ N() } { return nil }

func noBody(x int)

var f = func() { fmt.Println("}") }

func G[K comparable](k K) {
	s := `}`
	r := '}'
	/* } */ // }
	_ = s; _ = r
}
"#;
    let got = bodies(src);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0].trim(), "return nil, nil");
    assert_eq!(got[1].trim(), "return nil");
    assert!(got[2].contains("s := `}`"), "{got:?}");
}

#[test]
fn doubt_blanks_nothing() {
    assert!(lex(b"package p\nfunc f() {\n").is_none());
    assert!(lex(b"package p\nfunc f() { s := \"unterminated\n}\n").is_none());
    assert!(lex(b"package p\nfunc f() { /* open }\n").is_none());
    // A dot import of a package the reader knows: its names have no
    // prefix to look for.
    let dot = format!(
        "package p\nimport . \"github.com/cenkalti/backoff/v4\"\nfunc f() {{\n{}\n}}\n",
        "x := 1 // padding padding padding padding padding padding padding"
    );
    assert!(blanked(&dot).is_none());
}

#[test]
fn keeps_bodies_by_the_names_the_file_gives_packages() {
    let pad = "// padding padding padding padding padding padding padding padding\n";
    let src = format!(
        r#"package p

import (
	rh "github.com/hashicorp/go-retryablehttp"
	t "time"
	"net/http"
)

func client() {{
{pad}	c := rh.NewClient()
	_ = c
}}

func wait() {{
{pad}	t.Sleep(1)
}}

func handler(w http.ResponseWriter, r *http.Request) {{
{pad}	w.WriteHeader(http.StatusOK)
}}
"#
    );
    let (out, skip) = blanked(&src).expect("one body blanked");
    assert_eq!(skip.len(), 1);
    assert!(!out.contains("StatusOK"));
    assert!(out.contains("rh.NewClient()") && out.contains("t.Sleep(1)"));
    assert_eq!(out.len(), src.len());
    assert_eq!(out.lines().count(), src.lines().count());
}

/// A retry naming its operation's function, a client variable used in
/// another function: the pruned read sees them blanked and parses the
/// file again with those two bodies kept, not whole (a third function
/// nothing reaches stays out).
#[test]
fn what_is_read_across_functions_is_parsed_again() {
    let pad = "\t// padding padding padding padding padding padding padding padding\n";
    let src = format!(
        r#"package p

import (
	"net/http"
	"github.com/cenkalti/backoff/v4"
	"github.com/google/uuid"
)

var client = &http.Client{{}}

func run() error {{
	return backoff.Retry(send, backoff.NewExponentialBackOff())
}}

func send() error {{
{pad}	key := uuid.NewString()
	_ = key
	return nil
}}

func fetch() {{
{pad}	client.Get("http://inventory:8080/items")
}}

func sum(xs []int) int {{
{pad}	n := 0
	for _, x := range xs {{
		n += x
	}}
	return n
}}
"#
    );
    let (_, skip) = blanked(&src).expect("bodies blanked");
    assert_eq!(skip.len(), 3);
    let (mut a, mut b) = (Facts::default(), Facts::default());
    let again = super::super::pruned_read::read_rounds(&src, &mut a, true);
    extract_with(&src, &mut b, false);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    // The second parse leaves out `sum`'s body (over 100 bytes).
    assert!(
        again > 0 && again + 100 < src.len(),
        "{again} of {}",
        src.len()
    );
    assert_eq!(a.edges.len(), 1, "{:?}", a.edges);
    assert_eq!(a.policies[0].idempotency.len(), 1);
}

fn go_files(roots: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    crate::systems::read::files_under(roots, |p| {
        p.extension().is_some_and(|x| x == "go") && !p.to_string_lossy().ends_with("_test.go")
    })
}

/// The facts of `files` with and without pruning; the number of files
/// where something was blanked.
fn compare(files: &[std::path::PathBuf]) -> usize {
    let mut pruned_some = 0;
    let (mut kept, mut total, mut parsed) = (0usize, 0usize, 0usize);
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if !wants(text.as_bytes()) {
            continue;
        }
        total += text.len();
        // The fixed words' automaton built once and the file's own
        // beside it blank what one automaton over all of them did.
        assert_eq!(
            blanked(&text),
            super::blanked_one_automaton(&text),
            "{}",
            f.display()
        );
        match blanked(&text) {
            Some((_, skip)) => {
                pruned_some += 1;
                kept += text.len() - skip.iter().map(|b| b.end - b.start).sum::<usize>();
            }
            None => kept += text.len(),
        }
        parsed +=
            text.len() - pruned(&text).map_or(0, |p| p.skip.iter().map(|r| r.len()).sum::<usize>());
        let (mut a, mut b) = (Facts::default(), Facts::default());
        extract_with(&text, &mut a, true);
        extract_with(&text, &mut b, false);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", f.display());
    }
    if std::env::var_os("RETRYLINT_PRUNE_DIR").is_some() {
        println!(
            "wanted bytes {total}, parsed after blanking {kept}, on a first pruned parse {parsed}"
        );
    }
    pruned_some
}

/// Every Go file of the fixtures and the shared corpus: the facts are the
/// same whether or not bodies are blanked.
#[test]
fn pruning_changes_no_fact() {
    let roots = crate::extract::fixture_roots();
    let files = go_files(&roots);
    assert!(files.len() >= 15, "{}", files.len());
    compare(&files);
}

/// The same over a real checkout: `RETRYLINT_PRUNE_DIR=/path cargo test
/// --lib go_prune_real -- --ignored --nocapture`.
#[test]
#[ignore = "needs RETRYLINT_PRUNE_DIR=<a checkout>"]
fn go_prune_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_PRUNE_DIR");
    let files = go_files(&[dir]);
    let n = compare(&files);
    println!("{} Go files, {n} pruned, facts identical", files.len());
}

/// Every loop that calls something and goes round on its error (at once,
/// or by putting the item back on its channel) is kept, whatever names the
/// call: a client passed in as a parameter, a field, a method value. The
/// loop reader's facts are the same pruned or not, and a loop is found in
/// each.
#[test]
fn keeps_every_loop_that_goes_round_on_a_call_error() {
    let loops = [
        "for {\n\t\tr, err := c.Get(u)\n\t\tif err != nil {\n\t\t\tcontinue\n\t\t}\n\t\treturn r, nil\n\t}",
        "for i := 0; i < 3; i++ {\n\t\tr, err := s.api.Fetch(u)\n\t\tif err != nil {\n\t\t\tcontinue\n\t\t}\n\t\treturn r, nil\n\t}",
        "for {\n\t\tr, err := do(u)\n\t\tif err != nil {\n\t\t\tcontinue\n\t\t}\n\t\treturn r, nil\n\t}",
        "for u := range q {\n\t\tif _, err := c.Post(u, \"\", nil); err != nil {\n\t\t\tq <- u\n\t\t}\n\t}\n\treturn nil, nil",
        // The error sorted by its gRPC code after the success return.
        "for {\n\t\tr, err := c.Get(u)\n\t\tif err == nil {\n\t\t\treturn r, nil\n\t\t}\n\t\tif status.Code(err) == codes.Unavailable {\n\t\t\tcontinue\n\t\t}\n\t\treturn nil, err\n\t}",
        // A counted loop that returns on success; every other pass goes
        // round (no `continue`, no `err != nil`).
        "for i := 0; i < 3; i++ {\n\t\tr, err := c.Get(u)\n\t\tif err == nil || !errors.Is(err, io.EOF) {\n\t\t\treturn r, err\n\t\t}\n\t}\n\treturn nil, nil",
    ];
    for (i, l) in loops.iter().enumerate() {
        let text = format!(
            "package p\n\nimport \"net/http\"\n\nvar Default = &http.Client{{}}\n\n// padding padding padding padding padding padding padding padding\nfunc f{i}(c *http.Client, s *S, do func(string) (*http.Response, error), u string, q chan string) (*http.Response, error) {{\n\t{l}\n}}\n"
        );
        if let Some((_, skip)) = blanked(&text) {
            assert!(skip.is_empty(), "loop {i} blanked: {text}");
        }
        let (mut a, mut b) = (Facts::default(), Facts::default());
        extract_with(&text, &mut a, true);
        extract_with(&text, &mut b, false);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "loop {i}");
        // A function value (`do(u)`) is not a call the reader takes as
        // sent out; the others are retries.
        assert_eq!(a.policies.is_empty(), i == 2, "loop {i}: {:?}", a.policies);
    }
    // A body with no error path that goes round is still blanked.
    let plain = "package p\n\nimport \"net/http\"\n\nvar Default = &http.Client{}\n\nfunc g(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x // padding padding padding padding padding\n\t}\n\treturn n\n}\n";
    assert!(blanked(plain).is_some_and(|(_, s)| s.len() == 1));
}

/// Where a real checkout's wanted Go goes, per keep word: the bytes
/// outside bodies (always parsed), each kept body under the word that
/// kept it (`+n`: n more words), the bodies blanked, and the files a
/// pruned parse reads again whole: `RETRYLINT_PRUNE_DIR=/path cargo test
/// --lib go_keep_words_real -- --ignored --nocapture` (PERFORMANCE.md).
/// The attribution repeats the pruner's decision per body, so it asserts
/// that it blanks exactly the bodies the pruner blanks, file by file.
#[test]
#[ignore = "needs RETRYLINT_PRUNE_DIR=<a checkout>"]
fn go_keep_words_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_PRUNE_DIR");
    let mut per_word: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let (mut wanted, mut outside, mut blank_bytes, mut rereads) = (0usize, 0usize, 0usize, 0usize);
    let mut again = 0usize;
    for f in go_files(&[dir]) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if !wants(text.as_bytes()) {
            continue;
        }
        wanted += text.len();
        let lexed = lex(text.as_bytes());
        let Some((lexed, ws)) = lexed.and_then(|l| words(&text, &l.imports).map(|w| (l, w))) else {
            outside += text.len();
            continue;
        };
        outside += text.len() - lexed.bodies.iter().map(|b| b.end - b.start).sum::<usize>();
        let mut file_blank = 0usize;
        for b in &lexed.bodies {
            let body = &text.as_bytes()[b.start..b.end];
            let hit: Vec<&String> = ws
                .iter()
                .filter(|w| memchr::memmem::find(body, w.as_bytes()).is_some())
                .collect();
            let key = match hit.first() {
                _ if body.len() < MIN_BODY => "(under MIN_BODY)".to_string(),
                Some(w) if hit.len() == 1 => w.to_string(),
                Some(w) => format!("{w} (+{})", hit.len() - 1),
                None if sets_timeout(body) => "(sets_timeout)".into(),
                None if retries_at_once(body) => "(retries_at_once)".into(),
                None => {
                    file_blank += body.len();
                    continue;
                }
            };
            let e = per_word.entry(key).or_default();
            e.0 += 1;
            e.1 += body.len();
        }
        blank_bytes += file_blank;
        let pruned = blanked(&text);
        let by_pruner: usize = pruned.as_ref().map_or(0, |(_, bodies)| {
            bodies.iter().map(|b| b.end - b.start).sum()
        });
        assert_eq!(file_blank, by_pruner, "{}", f.display());
        if let Some((blank, bodies)) = pruned {
            let skip: Vec<std::ops::Range<usize>> = bodies.iter().map(|b| b.start..b.end).collect();
            if super::super::read(&blank, &skip, &mut Facts::default())
                .is_some_and(|needs| needs.reaches(&text, &bodies))
            {
                rereads += text.len();
            }
        }
        again += super::super::pruned_read::read_rounds(&text, &mut Facts::default(), true);
    }
    println!(
        "wanted {wanted} B: outside bodies {outside} B, blanked {blank_bytes} B, reached blanked bodies in {rereads} B, parsed again with them kept {again} B"
    );
    let mut v: Vec<_> = per_word.into_iter().collect();
    v.sort_by_key(|(_, (_, b))| std::cmp::Reverse(*b));
    for (w, (n, b)) in v.iter().take(25) {
        println!("{b:>10} B {n:>5} bodies  {w}");
    }
}

/// Top-level type declarations and runs of comments of [`MIN_COMMENTS`]
/// bytes or more are left out of the parse, merged where only blanks part
/// them; a type sharing its line with another declaration, or ended by a
/// comment holding a newline (which Go reads as the end of the line),
/// is left out only up to there.
#[test]
fn leaves_out_type_declarations_and_long_comment_runs() {
    let src = "package p\n\n// A is a thing, said at length: padding padding padding padding padding\n// padding padding padding padding.\ntype A struct {\n\tX int `json:\"x\"`\n\tF func() error\n}\n\ntype (\n\tB int\n\tC[K any] interface{ M(K) }\n)\n\ntype D int; var d = 1\n\ntype E int /* one\nmore */ var e = 2\n\nfunc f() {\n\t// short\n\t_ = d\n}\n";
    let lexed = lex(src.as_bytes()).expect("lexed");
    let types: Vec<&str> = lexed.types.iter().map(|r| &src[r.clone()]).collect();
    assert_eq!(
        types,
        [
            "type A struct {\n\tX int `json:\"x\"`\n\tF func() error\n}",
            "type (\n\tB int\n\tC[K any] interface{ M(K) }\n)",
            "type E int ",
        ]
    );
    let skip: Vec<&str> = left_out(src.as_bytes(), &[], &[], &lexed)
        .into_iter()
        .map(|r| &src[r])
        .collect();
    // The doc comment, its type and the group after it as one range; the
    // short comment in `f` stays.
    assert_eq!(skip.len(), 2, "{skip:?}");
    assert!(skip[0].starts_with("// A is") && skip[0].ends_with("M(K) }\n)"));
    assert_eq!(skip[1], "type E int ");
    let (mut a, mut b) = (Facts::default(), Facts::default());
    extract_with(src, &mut a, true);
    extract_with(src, &mut b, false);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// On every Go file of the fixtures and the shared corpus, what a pruned
/// parse leaves out is sorted and apart, each range that is not a blanked
/// body ends before a newline (or at the end), and the pruned parse has a
/// syntax error only where the whole parse has one.
#[test]
fn what_is_left_out_parses_without_new_errors() {
    let mut roots = vec![std::path::PathBuf::from("testdata")];
    let shared = std::path::PathBuf::from("../shared/corpus");
    if shared.is_dir() {
        roots.push(shared);
    }
    let (mut files, mut types) = (0, 0);
    for f in go_files(&roots) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let Some(p) = pruned(&text) else { continue };
        files += 1;
        types += lex(text.as_bytes()).map_or(0, |l| l.types.len());
        for w in p.skip.windows(2) {
            assert!(w[0].end < w[1].start, "{}: {:?}", f.display(), p.skip);
        }
        for r in &p.skip {
            let body = p.bodies.iter().any(|b| b.end == r.end);
            assert!(
                body || r.end == text.len() || text.as_bytes()[r.end] == b'\n',
                "{}: {:?}",
                f.display(),
                &text[r.clone()]
            );
        }
        let parse = |src: &str, skip: &[std::ops::Range<usize>]| {
            crate::extract::tree_sitter::parse_source_skipping(
                tree_sitter_go::LANGUAGE.into(),
                src,
                skip,
                "Go",
                "build",
                "go",
                &mut Facts::default(),
            )
            .map(|t| t.root_node().has_error())
        };
        let whole = parse(&text, &[]);
        let part = parse(p.text.as_deref().unwrap_or(&text), &p.skip);
        assert!(
            whole == Some(true) || part == Some(false),
            "{}",
            f.display()
        );
    }
    assert!(files >= 10 && types >= 10, "{files} files, {types} types");
}

/// A declaration whose body is blanked and whose name no other word of
/// the code is, is left out whole with the comments right above it; a
/// function the code calls (`used`), takes as a value (`asValue`), or
/// whose name another method shares (`Close`), keeps its signature; a
/// name said only in a comment or a string uses nothing.
#[test]
fn leaves_out_whole_declarations_no_code_names() {
    let pad = "\tn := 0 // padding padding padding padding padding padding padding\n\t_ = n\n";
    let src = format!(
        "package p\n\nimport \"time\"\n\n// unused says \"used\" and asValue.\nfunc unused() {{\n{pad}}}\n\nfunc used() {{\n{pad}}}\n\nfunc asValue() {{\n{pad}}}\n\nfunc (a *A) Close() {{\n{pad}}}\n\nfunc (b *B) Close() {{\n{pad}}}\n\nfunc main() {{\n\tused()\n\tf := asValue\n\t_ = f\n\ttime.Sleep(1)\n\tprintln(\"unused\")\n}}\n"
    );
    let p = pruned(&src).expect("pruned");
    let out: Vec<&str> = p
        .skip
        .iter()
        .map(|r| &src[r.clone()])
        .filter(|s| s.contains("func"))
        .collect();
    assert_eq!(
        out,
        [format!(
            "// unused says \"used\" and asValue.\nfunc unused() {{\n{pad}}}"
        )],
        "{:?}",
        p.skip
    );
    // The other blanked bodies are still left out, their signatures not.
    assert_eq!(p.bodies.len(), 5, "{:?}", p.bodies);
    let (mut a, mut b) = (Facts::default(), Facts::default());
    extract_with(&src, &mut a, true);
    extract_with(&src, &mut b, false);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// Each `for` statement is found from its keyword to its block's closing
/// brace, past composite literals, function literals and braces in
/// strings, runes and comments of its header; a keyword whose block is
/// not found is doubt.
#[test]
fn finds_each_for_statement_of_a_body() {
    fn found(b: &str) -> Option<Vec<&str>> {
        for_statements(b.as_bytes()).map(|v| v.into_iter().map(|r| &b[r]).collect())
    }
    let b = "\n\tfor _, s := range []string{\"{\", `}`} { // }\n\t\tif s == \"x\" {\n\t\t\tcontinue\n\t\t}\n\t}\n\tx := T{a: 1}\n\tfor i := range f(func() { for {} }) { g('}') }\n";
    assert_eq!(
        found(b),
        Some(vec![
            "for _, s := range []string{\"{\", `}`} { // }\n\t\tif s == \"x\" {\n\t\t\tcontinue\n\t\t}\n\t}",
            "for {}",
            "for i := range f(func() { for {} }) { g('}') }",
        ])
    );
    // Nested loops, a block closed before a `;` or a comment.
    assert_eq!(
        found("for { for x := range xs { f(x) }; g() } /* c */\n"),
        Some(vec![
            "for x := range xs { f(x) }",
            "for { for x := range xs { f(x) }; g() }"
        ])
    );
    assert_eq!(found("for x := range xs"), None);
    assert_eq!(found("{ for x := range xs }"), None);
    assert_eq!(found("for { \"open }"), None);
}

/// Only a loop that holds its own error path keeps a body: an `if err !=
/// nil` before a loop whose `continue` skips an item, or an `err == nil`
/// outside the loop, keeps nothing; inside it, it keeps the body. The
/// facts are the same either way.
#[test]
fn keeps_a_body_for_a_loop_only_by_what_the_loop_holds() {
    let wrap = |body: &str| {
        format!(
            "package p\n\nimport \"net/http\"\n\nvar Default = &http.Client{{}}\n\nfunc f(c *C, xs []string) error {{\n{body}\n}}\n"
        )
    };
    let spread = [
        "\terr := c.Open()\n\tif err != nil {\n\t\treturn err\n\t}\n\tfor _, x := range xs {\n\t\tif x == \"\" {\n\t\t\tcontinue\n\t\t}\n\t\tc.Add(x)\n\t}\n\treturn nil",
        "\tfor _, x := range xs {\n\t\tc.Add(x)\n\t}\n\tif err := c.Close(); err == nil {\n\t\treturn nil\n\t}\n\treturn c.Err()",
    ];
    for body in spread {
        let text = wrap(body);
        assert!(
            blanked(&text).is_some_and(|(_, s)| s.len() == 1),
            "kept: {text}"
        );
        let (mut a, mut b) = (Facts::default(), Facts::default());
        extract_with(&text, &mut a, true);
        extract_with(&text, &mut b, false);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
    let held =
        "\tfor {\n\t\tif err := c.Open(); err != nil {\n\t\t\tcontinue\n\t\t}\n\t\treturn nil\n\t}";
    assert!(blanked(&wrap(held)).is_none(), "blanked: {held}");
}

#[test]
fn a_word_only_a_comment_holds_keeps_no_body() {
    let pad = "x := 1 // padding padding padding padding padding padding padding\n";
    let src = format!(
        "package p\n\nfunc commented() {{\n\t// retry on failure\n\t{pad}\t/* the Retry\n\tpolicy */\n\t_ = x\n}}\n\nfunc called() {{\n\t{pad}\tretry(x)\n}}\n\nfunc quoted() {{\n\t{pad}\tlog.Info(\"will retry\")\n}}\n"
    );
    // The comment's words keep nothing; the code's and a string's do.
    assert_eq!(blanked_names(&src), ["commented"]);
    // The same text with the comment's word in the code is kept.
    let code = src.replace("// retry on failure", "retry()");
    assert!(
        blanked_names(&code).is_empty(),
        "{:?}",
        blanked_names(&code)
    );
}

fn blanked_names(src: &str) -> Vec<String> {
    blanked(src)
        .map(|(_, b)| b)
        .unwrap_or_default()
        .iter()
        .map(|b| {
            let before = &src[..b.start];
            let line = before.rfind("func ").map_or("", |i| &before[i + 5..]);
            line.split('(').next().unwrap_or("").to_string()
        })
        .collect()
}
