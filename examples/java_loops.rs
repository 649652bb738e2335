//! Print every hand-written retry loop the Java extractor finds under a
//! directory, one per line, to measure the loop detector's precision on a
//! real code base: `cargo run --example java_loops -- DIR`.

use retrylint::extract::Syntax;
use retrylint::model::System;
use retrylint::source::LineIndex;
use retrylint::systems as extract;

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let (mut files, mut read, mut loops) = (0, 0, 0);
    for entry in ignore::WalkBuilder::new(&dir).build().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "java") {
            continue;
        }
        files += 1;
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if extract::classify(path, text.as_bytes()) != Some(Syntax::Java) {
            continue;
        }
        read += 1;
        let facts = extract::extract(path, &text, Syntax::Java);
        let lines = LineIndex::new(&text);
        for p in facts
            .policies
            .iter()
            .filter(|p| p.system == System::JavaLoop)
        {
            loops += 1;
            println!(
                "{}:{}\t{}\t{:?}\t{:?}",
                path.display(),
                lines.line_of(p.span.start) + 1,
                p.attempts.value.written_as,
                p.delay.value,
                p.retry_on.value
            );
        }
    }
    eprintln!("{files} Java files, {read} parsed, {loops} retry loops");
}
