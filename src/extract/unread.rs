//! What was not read: files in languages and formats retrylint does not
//! read yet that look like they hold retry or timeout settings or calls,
//! by a word sniff. The scan lists them (the summary line, JSON, SARIF as
//! a notification, the audit), so that "nothing found" is never taken for
//! "nothing there".

/// Folders of third-party code kept in a repository: not the project's
/// settings, so not listed.
const VENDORED: &[&str] = &[
    "node_modules",
    "bower_components",
    "vendor",
    "third_party",
    "third-party",
    "site-packages",
    ".venv",
    "venv",
    "dist",
];

/// The language or format of a file retrylint does not read, by its path
/// (`None` for a file it reads, or vendored or minified code).
pub fn language_of(path: &std::path::Path) -> Option<&'static str> {
    if path
        .components()
        .any(|c| VENDORED.iter().any(|v| c.as_os_str() == *v))
    {
        return None;
    }
    let lower = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if lower.ends_with(".min.js") || lower.ends_with("-min.js") || lower.ends_with(".bundle.js") {
        return None;
    }
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    Some(match ext {
        "fs" => "F#",
        "ts" | "tsx" | "mts" | "cts" => "TypeScript",
        "js" | "jsx" | "mjs" | "cjs" => "JavaScript",
        "kt" | "kts" => "Kotlin",
        "scala" => "Scala",
        "groovy" => "Groovy",
        "rb" => "Ruby",
        "php" => "PHP",
        "swift" => "Swift",
        "ex" | "exs" => "Elixir",
        "tf" | "hcl" => "Terraform/HCL",
        _ => return None,
    })
}

/// Words that make an unread file worth listing (ASCII case ignored):
/// retry and timeout settings, and calls (a quoted URL, an HTTP or gRPC
/// client). A URL in a comment (a licence header) has no quote before it.
const WORDS: &[&str] = &[
    "retry",
    "retries",
    "backoff",
    "timeout",
    "resilien",
    "polly",
    "tenacity",
    "\"http://",
    "\"https://",
    "'http://",
    "'https://",
    "`http://",
    "`https://",
    "httpclient",
    "urlopen",
    "requests.",
    "axios",
    "fetch(",
    "http.get(",
    "http.newrequest",
    "grpc.dial",
    "grpc.newclient",
    "channel(",
];

/// Whether the bytes mention retries, timeouts or calls.
pub fn mentions_retries(bytes: &[u8]) -> bool {
    if library_build(bytes) {
        return false;
    }
    static FINDER: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(WORDS)
                .expect("a few short literal needles always build")
        });
    FINDER.is_match(bytes)
}

/// A third-party library's distributed build copied into the tree
/// (`static/js/vue.js`): it opens with a preserved banner (`/*!`, kept by
/// minifiers on purpose) or names its `@license` in its first lines. Not
/// the project's settings or calls, so not listed.
fn library_build(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    head[start..].starts_with(b"/*!") || memchr::memmem::find(head, b"@license").is_some()
}

/// Files the scan did not read although they mention retries, timeouts or calls,
/// by language, for the summary and the notice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unread {
    /// Language -> the files' shown paths, sorted.
    pub by_language: std::collections::BTreeMap<&'static str, Vec<String>>,
}

impl Unread {
    pub fn add(&mut self, language: &'static str, path: String) {
        self.by_language.entry(language).or_default().push(path);
    }

    pub fn count(&self) -> usize {
        self.by_language.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_language.is_empty()
    }

    /// `Python 7, Go 5`, most first.
    pub fn tally(&self) -> String {
        let mut v: Vec<(&str, usize)> = self
            .by_language
            .iter()
            .map(|(l, p)| (*l, p.len()))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.iter()
            .map(|(l, n)| format!("{l} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The notice's message: how many, by language, and the first few.
    pub fn message(&self) -> String {
        let mut all: Vec<&String> = self.by_language.values().flatten().collect();
        all.sort();
        let shown: Vec<String> = all.iter().take(8).map(|p| format!("`{p}`")).collect();
        let more = all.len().saturating_sub(shown.len());
        let n = self.count();
        format!(
            "{n} file{} in languages retrylint does not read yet mention{} retries, timeouts or calls ({}): {}{}; their settings and calls are not checked",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            self.tally(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unread_languages_and_words() {
        let l = |p: &str| language_of(std::path::Path::new(p));
        // Python, C# and Go are read (src/systems/python, src/systems/csharp,
        // src/systems/go): never listed as unread.
        assert_eq!(l("app/client.py"), None);
        assert_eq!(l("app/client.go"), None);
        assert_eq!(l("app/client.rb"), Some("Ruby"));
        assert_eq!(l("Program.cs"), None);
        assert_eq!(l("Program.fs"), Some("F#"));
        assert_eq!(l("App.java"), None);
        assert_eq!(l("web/node_modules/express/lib/express.js"), None);
        assert_eq!(l("static/js/jquery.min.js"), None);
        assert!(mentions_retries(
            b"services.AddHttpClient().AddStandardResilienceHandler()"
        ));
        assert!(mentions_retries(b"@retry(stop=stop_after_attempt(3))"));
        assert!(mentions_retries(b"url='http://ts-order-service:12031/api'"));
        assert!(!mentions_retries(
            b"# see http://www.apache.org/licenses/\nprint('hello')"
        ));
        let mut u = Unread::default();
        u.add("Python", "a.py".into());
        u.add("Go", "b.go".into());
        u.add("Python", "c.py".into());
        assert_eq!(u.tally(), "Python 2, Go 1");
        assert!(
            u.message().starts_with("3 files in languages"),
            "{}",
            u.message()
        );
    }

    #[test]
    fn a_library_build_copied_into_the_tree_is_not_listed() {
        for head in [
            "/*!\n * Vue.js v2.5.16\n */\nfunction retry() {}",
            "  /*! iScroll v5.2.0 */ var timeout = 1;",
            "/**\n * @license AngularJS v1.5.8\n */\n$http.get('http://x/')",
        ] {
            assert!(!mentions_retries(head.as_bytes()), "{head}");
        }
        // The project's own code, with an ordinary comment, is listed.
        assert!(mentions_retries(
            b"/* client */\nconst retries = 3;\nfetch('http://orders/')"
        ));
    }
}
