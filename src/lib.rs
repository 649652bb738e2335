//! retrylint reads the retry and timeout settings a code base spreads over
//! many files and formats, puts them on one call-path graph, and reports
//! the settings that turn a short outage into a long one.
//!
//! Pipeline ([`pipeline`], which every command runs): [`discover`] ->
//! classify and [`extract`] (per file, parallel, pure) -> [`link`] ->
//! [`graph`] (built once) -> [`check`] (every rule) -> suppress and the
//! run's selection ([`report`]) -> [`render`]. Paths are explicit: the
//! working directory is [`config::Settings::cwd`]; the library never reads
//! the process's.
//!
//! Imports point one way, each module naming only its own layer or those
//! below (`tests/suite/layering.rs` holds the table and checks it): [`source`];
//! the syntax ([`yaml`], [`duration`], [`keys`]); what extractors report
//! ([`diag`]); the [`model`] and the settings ([`config`]); the systems
//! ([`extract`]); [`link`] and the facts [`cache`]; the scan (this root);
//! [`graph`]; [`rules`]; [`check`], [`suppress`]; [`report`],
//! [`pipeline`]; [`render`]; [`cli`].

#![forbid(unsafe_code)]

pub mod cache;
pub(crate) mod changes;
pub mod check;
pub mod cli;
pub mod config;
pub mod config_file;
pub(crate) mod diag;
pub mod discover;
pub mod duration;
pub mod extract;
pub mod fix;
pub mod graph;
pub mod guard;
pub(crate) mod keys;
pub(crate) mod link;
pub mod model;
mod not_read;
pub mod org;
pub mod pipeline;
pub mod render;
pub mod report;
#[doc(hidden)]
pub mod robustness;
pub mod rules;
pub mod server;
pub mod simulate;
pub mod source;
pub(crate) mod suppress;
pub mod systems;
pub mod timings;
pub mod versions;
pub(crate) mod yaml;

use config::Settings;
use diag::Diagnostic;
use diag::unparsable_file;
use model::Facts;
use rayon::prelude::*;
use source::SourceFile;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use model::ScannedFile;

pub use stats::Stats;

/// A problem that is not a finding: a path that could not be walked, or an
/// internal error (a bug) while reading a file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Notice {
    pub path: Option<String>,
    pub message: String,
    pub internal: bool,
}

#[derive(Debug, Default)]
pub struct Scan {
    pub files: Vec<ScannedFile>,
    pub stats: Stats,
    pub notices: Vec<Notice>,
    /// The working directory the files' paths are shown relative to
    /// ([`Settings::cwd`]); `None`: as given.
    pub cwd: Option<PathBuf>,
    /// What the walk saw, which the link stage asks instead of the disk ([`discover::Tree`]);
    /// `None` (a scan of texts in memory, the language server's copies): the disk.
    pub tree: Option<std::sync::Arc<discover::Tree>>,
    /// The C# facts of the `.cs` files read and not kept (no call, no retry), by path as the
    /// link stage joins it (the working directory joined to a relative path): the link stage
    /// reads no C# file ([`model::csharp_source`]). `None` (the language server's copies, a
    /// scan of texts in memory): not collected, such files are read from disk.
    pub csharp: Option<std::sync::Arc<model::csharp_source::Sources>>,
    /// Where link steps keep results between runs ([`cache::Cache::place`]); `None`: no cache.
    pub cache_place: Option<(PathBuf, u64)>,
}

impl Scan {
    pub fn file(&self, id: source::FileId) -> &SourceFile {
        &self.files[id].source
    }
}

/// Told how a scan advances, for a progress bar; called from the reading
/// threads.
pub trait Progress: Sync {
    /// The walk found `files` files, each to be read once.
    fn found(&self, _files: usize) {}
    /// One more file was read (or skipped after a look).
    fn read(&self) {}
}

/// No progress to show.
impl Progress for () {}

/// Walk `roots`, read and extract every supported file in parallel, then
/// link them (the first stage of [`pipeline::Pipeline`]). A relative root
/// is opened as the operating system resolves it; its files are shown as
/// found, or relative to [`Settings::cwd`] when below it.
pub fn scan(roots: &[PathBuf], settings: &Settings) -> Result<Scan, String> {
    scan_with_progress(roots, settings, &())
}

/// [`scan`], telling `progress` how far it got.
pub fn scan_with_progress(
    roots: &[PathBuf],
    settings: &Settings,
    progress: &dyn Progress,
) -> Result<Scan, String> {
    let start = Instant::now();
    let (walk, cache) = walk_and_open(roots, settings)?;
    Ok(read_walked(walk, cache, roots, settings, progress, start))
}

/// The first half of [`scan`]: walk `roots` (the run's `exclude`) and,
/// meanwhile, read the facts cache.
pub fn walk_and_open(
    roots: &[PathBuf],
    settings: &Settings,
) -> Result<(discover::Walk, cache::Cache), String> {
    let dir = settings.cache_dir.as_deref();
    let salt = dir.map_or(0, |_| cache::salt());
    let (walk, cache) = rayon::join(
        // The walk's files from the cache's listing when no folder changed.
        || cache::listing::walk(dir, salt, roots, &settings.exclude, settings.cwd.as_deref()),
        || dir.map_or_else(cache::Cache::disabled, |d| cache::Cache::open(d, salt)),
    );
    timings::mark("walk");
    Ok((walk?, cache))
}

/// Read, extract and link the files of a finished walk of `roots`, with
/// no cache (the second half of [`scan`]; separate so that tests can
/// change the tree between the two).
pub fn read_walk(
    walk: discover::Walk,
    roots: &[PathBuf],
    settings: &Settings,
    start: Instant,
) -> Scan {
    read_walked(walk, cache::Cache::disabled(), roots, settings, &(), start)
}

/// The second half of [`scan`]: read, extract and link the files of a
/// walk, each file with its own settings ([`Settings::for_path`]).
pub fn read_walked(
    walk: discover::Walk,
    cache: cache::Cache,
    roots: &[PathBuf],
    settings: &Settings,
    progress: &dyn Progress,
    start: Instant,
) -> Scan {
    let mut scan = read_unlinked(walk, cache, roots, settings, progress);
    link_read(&mut scan, roots, settings);
    scan.stats.elapsed = start.elapsed();
    scan
}

/// Read and extract the files of a walk, not linked yet: each file's own
/// facts, as the cache keeps them. [`link_read`] joins them; the language
/// server keeps these and links a copy after each edit.
pub fn read_unlinked(
    walk: discover::Walk,
    cache: cache::Cache,
    roots: &[PathBuf],
    settings: &Settings,
    progress: &dyn Progress,
) -> Scan {
    progress.found(walk.files.len());
    let cwd = settings.cwd.as_deref();
    let mut scan = Scan {
        cwd: settings.cwd.clone(),
        cache_place: cache.place(),
        ..Scan::default()
    };
    scan.stats.files_seen = walk.files.len();
    scan.stats.configs_seen = walk
        .files
        .iter()
        .filter(|c| c.path.file_name().is_some_and(|n| n == config::FILE_NAME))
        .map(|c| c.path.clone())
        .collect();
    scan.stats.symlinks = walk.symlinks;
    let listed = walk.listed;
    for n in walk.notices {
        scan.notices.push(Notice {
            path: n.path.map(|p| display(&p, cwd)),
            message: n.message,
            internal: false,
        });
    }
    // What the walk saw is indexed for the link stage while the files are
    // read (one thread's serial work beside the reading).
    let (mut tree, read) = rayon::join(
        || discover::Tree::new(roots, walk.files.iter().map(|c| c.path.as_path()), cwd),
        || {
            walk.files
                .par_iter()
                .map(|c| {
                    let shown = display(&c.path, cwd);
                    let relative = relative_to_root(&c.path, roots);
                    // Test code is not the service, unless the file itself was given.
                    if !settings.for_path(&c.path).read_test_code
                        && extract::test_code::is_test_source(&relative)
                        && !roots.contains(&c.path)
                        && !settings.named_files.contains(&c.path)
                    {
                        progress.read();
                        return (Read::TestCode, None, Noted::default());
                    }
                    let mut seen = None;
                    // Nor is generated code skipped when the file itself was given.
                    let mut noted = Noted {
                        named: roots.contains(&c.path) || settings.named_files.contains(&c.path),
                        ..Noted::default()
                    };
                    let read = schedule::guarded(&shown, || {
                        let s = settings.for_path(&c.path);
                        let (read, s) =
                            unchanged::read(&c.path, &relative, &shown, s, cwd, &cache, &mut noted);
                        // Generated code read because it was named is not
                        // what a run that skips it may take from the index.
                        seen = s.filter(|_| !noted.generated_named);
                        read
                    });
                    progress.read();
                    (read, seen, noted)
                })
                .collect::<Vec<_>>()
        },
    );
    tree.lacking_configmap(
        walk.files
            .iter()
            .zip(&read)
            .filter(|(_, (.., noted))| noted.yaml_without_configmap)
            .map(|(c, _)| c.path.as_path()),
        cwd,
    );
    scan.tree = Some(std::sync::Arc::new(tree));
    let (results, seen): (Vec<Read>, Vec<unchanged::Seen>) =
        read.into_iter().map(|(r, s, _)| (r, s)).unzip();
    timings::mark("read");
    let results = schedule::extract(results, &walk.files, roots, cwd, &cache);
    timings::mark("extract");
    unchanged::record(&results, &seen, &cache);
    // The cache entry of each file read: an index into `scan.files`, or
    // into `unkept` for a file whose facts are empty (they may still name
    // the extractors that claimed it).
    let mut keyed: Vec<(u128, Result<usize, usize>)> = Vec::new();
    let mut unkept: Vec<Facts> = Vec::new();
    let mut csharp = model::csharp_source::Sources::new();
    for (r, walked) in results.into_iter().zip(&walk.files) {
        match r {
            Read::Skipped | Read::Text(..) => {}
            Read::TestCode => scan.stats.test_files += 1,
            Read::Generated => scan.stats.generated_files += 1,
            Read::Unread(language, path) => scan.stats.unread.add(language, path),
            Read::Binary => scan.stats.binary += 1,
            Read::Oversized(f) => {
                scan.stats.oversized += 1;
                if let Some(f) = f {
                    scan.files.push(*f);
                }
            }
            Read::Unchanged(facts, k) => {
                scan.stats.files_parsed += 1;
                if facts.extractors.is_empty() {
                    scan.stats.nothing_found_in(&walked.path);
                }
                for e in &facts.extractors {
                    *scan.stats.per_extractor.entry(e).or_default() += 1;
                }
                link::keep_csharp(&mut csharp, &walked.path, &facts, cwd);
                keyed.push((k, Err(unkept.len())));
                unkept.push(*facts);
            }
            Read::Parsed(mut f, key) => {
                scan.stats.files_parsed += 1;
                test_inputs_at_info(&mut f.facts, &walked.path, roots);
                if f.facts.extractors.is_empty() {
                    scan.stats.nothing_found_in(&walked.path);
                }
                for e in &f.facts.extractors {
                    *scan.stats.per_extractor.entry(e).or_default() += 1;
                }
                let kept = unchanged::kept(&f.facts);
                if let Some(k) = key {
                    if kept {
                        keyed.push((k, Ok(scan.files.len())));
                    } else {
                        link::keep_csharp(&mut csharp, &walked.path, &f.facts, cwd);
                        keyed.push((k, Err(unkept.len())));
                        unkept.push(f.facts);
                        continue;
                    }
                }
                if kept {
                    scan.files.push(*f);
                } else {
                    link::keep_csharp(&mut csharp, &walked.path, &f.facts, cwd);
                }
            }
            Read::Failed(path, message) => scan.notices.push(Notice {
                path: Some(path),
                message,
                internal: false,
            }),
            Read::Internal(path, message) => scan.notices.push(Notice {
                path: Some(path),
                message: format!("internal error: {message}"),
                internal: true,
            }),
        }
    }
    // Saved before linking: an entry holds one file's own facts. A cache
    // that cannot be written only makes the next run cold.
    scan.stats.cache = cache::CacheStats {
        listed,
        ..cache.stats()
    };
    let _ = cache.save(keyed.iter().map(|(k, i)| {
        let facts = match i {
            Ok(i) => &scan.files[*i].facts,
            Err(i) => &unkept[*i],
        };
        (*k, facts)
    }));
    drop(unkept);
    scan.csharp = Some(std::sync::Arc::new(csharp));
    // Rust test modules declared in another file (`#[cfg(test)] mod x;`)
    // and the sources of .NET test projects.
    if !settings.read_test_code {
        let tests = declared_test_files(&scan.files);
        if !tests.is_empty() {
            scan.files
                .retain(|f| !tests.contains(&f.source.display_path()));
            // Counted whether or not they had anything to say (a file
            // whose facts are empty is not kept).
            scan.stats.test_files += walk
                .files
                .iter()
                .filter(|c| {
                    tests.contains(&display(&c.path, cwd))
                        && !extract::test_code::is_test_source(&relative_to_root(&c.path, roots))
                })
                .count();
        }
    }
    scan
}

/// Join the files of a scan read by [`read_unlinked`] (the link stage),
/// and list what was not read. A Rust test module is dropped again (the
/// language server may have read one, or its declaration, anew).
pub fn link_read(scan: &mut Scan, roots: &[PathBuf], settings: &Settings) {
    if !settings.read_test_code {
        let tests = declared_test_files(&scan.files);
        if !tests.is_empty() {
            scan.files
                .retain(|f| !tests.contains(&f.source.display_path()));
        }
    }
    // A stopped link leaves some files linked and some not: their own
    // findings stand, and the notice says what may be missing.
    let files = &mut scan.files;
    let cwd = settings.cwd.as_deref();
    // Fixtures and golden files are tests' inputs: marked before the link
    // steps (which join none of them to another file), off the graph after.
    let marks = if settings.read_test_code {
        Vec::new()
    } else {
        // Paths and roots may be given relative to the working folder.
        let roots = link::joined_roots(roots, cwd);
        timings::step("test_inputs::mark", || {
            link::test_inputs::mark(files, |f| {
                let path = &f.source.path;
                match cwd {
                    Some(c) if path.is_relative() => relative_to_root(&c.join(path), &roots),
                    _ => relative_to_root(path, &roots),
                }
            })
        })
    };
    let (tree, csharp) = (scan.tree.as_deref(), scan.csharp.as_deref());
    let disk = link::Disk::of(tree, csharp, scan.cache_place.as_ref());
    if let Err(stop) = guard::run(guard::budget(guard::STAGE_BUDGET), || {
        guard::inject("link");
        link::all_in(files, roots, cwd, disk)
    }) {
        scan.notices.push(stage_notice("linking the files", &stop));
    }
    if !settings.read_test_code {
        scan.stats.test_inputs = timings::step("test_inputs::not_deployed", || {
            link::test_inputs::not_deployed(&mut scan.files, &marks)
        });
    }
    timings::step("say_what_was_not_read", || say_what_was_not_read(scan));
    timings::mark("link");
}

/// One file of the scan of `roots` read from `text` (an editor's buffer)
/// rather than from disk: classified, extracted (under the file's time
/// and panic guard) and not linked, as [`read_unlinked`] reads it. `None`:
/// no reader wants it, or it is test code the run does not read; `Err`:
/// the reader panicked (a bug), with its message.
pub fn read_text(
    path: &Path,
    text: String,
    roots: &[PathBuf],
    settings: &Settings,
) -> Result<Option<ScannedFile>, String> {
    let relative = relative_to_root(path, roots);
    let file_settings = settings.for_path(path);
    if !file_settings.read_test_code
        && extract::test_code::is_test_source(&relative)
        && !roots.iter().any(|r| r == path)
        && !settings.named_files.iter().any(|f| f == path)
    {
        return Ok(None);
    }
    if !systems::wanted_by_name(path) {
        return Ok(None);
    }
    let shown = display(path, settings.cwd.as_deref());
    if text.len() as u64 > file_settings.max_file_size {
        return Ok(systems::supported_by_name(path)
            .then(|| too_large(&shown, text.len() as u64, file_settings.max_file_size)));
    }
    let Some(syntax) = systems::classify(path, text.as_bytes()) else {
        return Ok(None);
    };
    let cache = cache::Cache::disabled();
    match extract_text(path, &relative, &shown, text, syntax, &cache, None) {
        Read::Parsed(mut f, _) => {
            test_inputs_at_info(&mut f.facts, path, roots);
            Ok(Some(*f))
        }
        Read::Internal(_, message) => Err(message),
        _ => Ok(None),
    }
}

/// Files in languages not read yet that mention retries, and call targets
/// that could not be resolved: listed as notices (the JSON output, SARIF
/// notifications, the audit), never taken for "nothing there".
fn say_what_was_not_read(scan: &mut Scan) {
    for v in scan.stats.unread.by_language.values_mut() {
        v.sort();
    }
    let unresolved = not_read::unresolved(&scan.files);
    let messages = [
        (!scan.stats.unread.is_empty()).then(|| scan.stats.unread.message()),
        not_read::unresolved_message(&unresolved),
    ];
    for message in messages.into_iter().flatten() {
        scan.notices.push(Notice {
            path: None,
            message,
            internal: false,
        });
    }
    scan.stats.unresolved = unresolved;
}

/// The internal-error notice of a stage that panicked or overran.
pub fn stage_notice(stage: &str, stop: &guard::Stop) -> Notice {
    Notice {
        path: None,
        message: format!(
            "internal error: {stage} {}; the findings that depend on it may be missing",
            stop.describe()
        ),
        internal: true,
    }
}

/// A file that did not parse in a folder of test inputs is reported at
/// `info` ([`diag::unparsable_file::in_test_inputs`]); decided on the
/// path relative to the scan root, so that a repository's own `testdata/`
/// above the scan does not count.
fn test_inputs_at_info(facts: &mut Facts, path: &Path, roots: &[PathBuf]) {
    if facts.diagnostics.is_empty() {
        return;
    }
    let relative = relative_to_root(path, roots);
    if let Some(folder) = extract::test_code::test_inputs_folder(&relative) {
        for d in &mut facts.diagnostics {
            diag::unparsable_file::in_test_inputs(d, folder);
        }
    }
}

enum Read {
    Skipped,
    /// Test code, not read ([`extract::test_code`]).
    TestCode,
    /// Source code a generator wrote, not read ([`extract::generated`]).
    Generated,
    /// A file in a language not read yet that mentions retries or
    /// timeouts: its language and shown path.
    Unread(&'static str, String),
    Binary,
    Oversized(Option<Box<ScannedFile>>),
    /// A file read, with its facts cache key when a cache is on.
    Parsed(Box<ScannedFile>, Option<u128>),
    /// A file not opened: unchanged since a run that found its facts
    /// empty ([`unchanged`]), with them and their cache key.
    Unchanged(Box<Facts>, u128),
    /// A text some reader wants, extracted after every file is read, with
    /// what its sniff found out (`systems::classify_sniffed`).
    Text(String, extract::Syntax, systems::Sniffed),
    Failed(String, String),
    Internal(String, String),
}

/// The RL903 of a file larger than `max-file-size`.
fn too_large(shown: &str, size: u64, limit: u64) -> ScannedFile {
    unreadable(
        shown,
        unparsable_file::file(
            &format!("{} is larger than the {} limit", bytes(size), bytes(limit)),
            "raise `max-file-size` in .retrylint.toml or `--max-file-size` if this file should be checked",
        ),
    )
}

fn unreadable(shown: &str, diag: Diagnostic) -> ScannedFile {
    let mut facts = Facts::default();
    facts.diagnostics.push(diag);
    ScannedFile {
        source: SourceFile::new(shown, String::new()),
        facts,
        syntax: None,
    }
}

/// What reading a file's text told beyond its [`Read`] (and one thing
/// the reading is told).
#[derive(Clone, Copy, Default)]
struct Noted {
    /// Given: the file was named on the command line (or is a root), so
    /// it is read even when a generator wrote it.
    named: bool,
    /// A YAML file whose whole text was read and holds no `ConfigMap`
    /// (for the link stage's look at files no reader kept,
    /// [`discover::Tree::lacks_configmap`]).
    yaml_without_configmap: bool,
    /// Generated code read only because it was named: what it gave is
    /// not what a run that skips it would take from the stat index.
    generated_named: bool,
}

/// Read one file and sniff it, knowing what its name says: `unread` is
/// `None` when some reader may want the file by its name
/// (`systems::wanted_by_name`), else the language not read yet it is in,
/// if any (`extract::unread::language_of`). The caller ([`unchanged::read`])
/// has asked both already, each a walk of the path, not asked again here.
fn read_named(
    path: &Path,
    shown: &str,
    settings: &Settings,
    unread: Option<Option<&'static str>>,
    noted: &mut Noted,
) -> Read {
    // A name no extractor can want is not worth a read (nor a stat),
    // unless it is in a language not read yet: then a word sniff says
    // whether it is worth listing as not read.
    if let Some(language) = unread {
        if let Some(language) = language
            && let Ok(Ok(data)) = read_regular_file(path, settings.max_file_size)
            && extract::unread::mentions_retries(&data)
        {
            return Read::Unread(language, shown.to_string());
        }
        return Read::Skipped;
    }
    let data = match read_regular_file(path, settings.max_file_size) {
        Ok(Ok(d)) => d,
        Ok(Err(size)) => {
            // Only a file whose name says it is ours is worth a finding.
            return Read::Oversized(
                systems::supported_by_name(path)
                    .then(|| Box::new(too_large(shown, size, settings.max_file_size))),
            );
        }
        Err(e) => return Read::Failed(shown.to_string(), format!("cannot read: {e}")),
    };
    #[cfg(debug_assertions)]
    inject_panic(path);
    let text = match decode(data) {
        Decoded::Text(t) | Decoded::Utf16(t) => t,
        Decoded::Binary => return Read::Binary,
        // `.properties` files are ISO-8859-1 unless they are UTF-8
        // (`java.util.Properties.load(InputStream)`, Spring Boot's loader):
        // every byte is a character.
        Decoded::Invalid(_, data)
            if systems::classify(path, &data) == Some(extract::Syntax::Properties) =>
        {
            data.iter().map(|&b| b as char).collect()
        }
        // nginx reads bytes: a Latin-1 letter in a comment or a value is
        // no error there. Each byte that is not UTF-8 becomes one `?`, so
        // that every byte offset stays where it was.
        Decoded::Invalid(_, data)
            if systems::classify(path, &data) == Some(extract::Syntax::Nginx) =>
        {
            placeholders(&data)
        }
        Decoded::Invalid(at, data) => {
            // A build file is read for versions only, not checked: its
            // encoding is not worth a finding.
            let checked = systems::classify(path, &data)
                .is_some_and(|s| !matches!(s, extract::Syntax::Build(_)));
            if checked {
                return Read::Parsed(
                    Box::new(unreadable(
                        shown,
                        unparsable_file::file(
                            &format!("not valid UTF-8 (byte {at})"),
                            "save the file as UTF-8 so that its settings can be checked",
                        ),
                    )),
                    None,
                );
            }
            return Read::Skipped;
        }
    };
    noted.yaml_without_configmap = discover::is_yaml_name(path)
        && memchr::memmem::find(text.as_bytes(), b"ConfigMap").is_none();
    // Sniffed now, so that a text no reader wants is dropped while its
    // thread reads the next file, not held until every file is read.
    match systems::classify_sniffed(path, text.as_bytes()) {
        Some((syntax, _))
            if !settings.read_generated_code
                && extract::generated::is_generated(path, syntax, &text)
                && !noted.named =>
        {
            Read::Generated
        }
        Some((syntax, sniffed)) => {
            noted.generated_named = !settings.read_generated_code
                && noted.named
                && extract::generated::is_generated(path, syntax, &text);
            Read::Text(text, syntax, sniffed)
        }
        None => Read::Skipped,
    }
}

/// The second half of [`read_named`]: extract the facts of a file's text
/// that `classify` gave `syntax` (from the cache when it has them).
fn extract_text(
    path: &Path,
    relative: &str,
    shown: &str,
    text: String,
    syntax: extract::Syntax,
    cache: &cache::Cache,
    sniffed: Option<systems::Sniffed>,
) -> Read {
    // AWS config and credentials files hold secrets: blank them before
    // anything (a rendered snippet) can show them.
    let text = match syntax {
        extract::Syntax::Ini => systems::aws::extract::redact(&text),
        _ => text,
    };
    // The key covers what the extractor is given (see `Cache::key`).
    let key = cache.enabled().then(|| cache.key(relative, syntax, &text));
    let facts = match key.and_then(|k| cache.take_for(k, path, syntax)) {
        Some(facts) => facts,
        None => {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let budget = guard::budget(guard::file_budget(text.len()));
            match guard::run(budget, || {
                guard::inject(&format!("file:{name}"));
                timings::extracting(shown, syntax, &text, || match sniffed {
                    Some(sniffed) => systems::extract_sniffed(path, &text, syntax, sniffed),
                    None => systems::extract(path, &text, syntax),
                })
            }) {
                Ok(facts) => facts,
                Err(guard::Stop::Panic(msg)) => return Read::Internal(shown.to_string(), msg),
                // Not cached: the next run tries again.
                Err(guard::Stop::Overrun(_)) => {
                    let mut facts = Facts::default();
                    facts.diagnostics.push(unparsable_file::file(
                        &format!(
                            "reading it took longer than the `{}` budget of one file",
                            duration::human(budget)
                        ),
                        "this is a bug: please report it with the file; split or exclude the file meanwhile",
                    ));
                    return Read::Parsed(
                        Box::new(ScannedFile {
                            source: SourceFile::new(shown, text),
                            facts,
                            syntax: Some(syntax),
                        }),
                        None,
                    );
                }
            }
        }
    };
    Read::Parsed(
        Box::new(ScannedFile {
            source: SourceFile::new(shown, text),
            facts,
            syntax: Some(syntax),
        }),
        key,
    )
}

/// A test seam for the internal-error path (debug builds only): a file
/// whose name is `RETRYLINT_TEST_PANIC_ON` panics while it is read, as a
/// bug in an extractor would.
#[cfg(debug_assertions)]
fn inject_panic(path: &Path) {
    if let Some(name) = std::env::var_os("RETRYLINT_TEST_PANIC_ON")
        && path.file_name() == Some(name.as_os_str())
    {
        panic!("injected panic (RETRYLINT_TEST_PANIC_ON)");
    }
}

fn bytes(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    } else if n >= 1 << 10 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else {
        format!("{n} bytes")
    }
}

#[path = "lib/paths.rs"]
mod paths;
#[path = "lib/test_files.rs"]
mod test_files;
use paths::{display, relative_to_root};
use test_files::declared_test_files;

#[path = "lib/decode.rs"]
mod decode;
#[path = "lib/regular_file.rs"]
mod regular_file;
use regular_file::read_regular_file;
#[path = "lib/schedule.rs"]
mod schedule;
use decode::{Decoded, decode, placeholders};
#[path = "lib/stats.rs"]
mod stats;
#[path = "lib/unchanged.rs"]
mod unchanged;

#[cfg(test)]
#[path = "lib/latin1_tests.rs"]
mod latin1_tests;
