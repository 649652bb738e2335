//! `retrylint server`: the language server, over stdio (lsp-server, the
//! scaffold rust-analyzer runs on, with lsp-types).
//!
//! Each workspace folder is read once, as `retrylint check` reads it (the
//! nearest `.retrylint.toml`, nested ones per file, the facts cache), and
//! kept in memory ([`workspace::Workspace`]). An opened or edited buffer is
//! re-extracted alone, from the editor's text; then the whole folder is
//! linked, graphed and checked again, and the diagnostics of every file
//! whose findings changed are published (cleared when they are gone), so
//! that a path finding shows in the file that causes it whichever file
//! was edited. Messages that arrive while a check runs are taken together
//! before the next one.
//!
//! Diagnostics carry the rule's code, linked to its doc; hovering a
//! finding shows the doc (`retrylint explain`); code actions offer the
//! findings' fixes, safe ones preferred. Nothing here panics on what a
//! client sends: a bad message is answered with an error or logged
//! (`window/logMessage`), and a bug while handling one is caught and
//! logged; the server goes on.

mod actions;
mod convert;
#[cfg(test)]
mod tests;
mod workspace;

use convert::Encoding;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification as notif, request as req};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use workspace::{Analysis, Workspace};

pub use workspace::Configure;

/// Run the server on stdin and stdout until the client says `exit`;
/// `cwd` is the folder used when the client names none. Returns the
/// process exit code.
pub fn run_stdio(cwd: &Path, configure: &Configure<'_>) -> i32 {
    let (connection, io) = Connection::stdio();
    let code = match serve(&connection, cwd, configure) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("retrylint server: {e}");
            1
        }
    };
    drop(connection);
    match io.join() {
        Ok(()) => code,
        Err(e) => {
            eprintln!("retrylint server: {e}");
            1
        }
    }
}

fn capabilities(enc: Encoding) -> lsp_types::ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, actions::FIX_ALL.clone()]),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..Default::default()
    }
}

/// The folders the client opened (the process's folder when it names none).
#[allow(deprecated)] // `root_uri`: clients that predate workspace folders.
fn folders(params: &lsp_types::InitializeParams, cwd: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| convert::uri_to_path(&f.uri))
        .collect();
    if out.is_empty()
        && let Some(root) = params.root_uri.as_ref().and_then(convert::uri_to_path)
    {
        out.push(root);
    }
    if out.is_empty() {
        out.push(cwd.to_path_buf());
    }
    out
}

fn serve(conn: &Connection, cwd: &Path, configure: &Configure<'_>) -> Result<(), String> {
    let (id, params) = conn.initialize_start().map_err(|e| e.to_string())?;
    // A client whose request does not parse still gets a server, over the
    // folder it was started in.
    let params: lsp_types::InitializeParams = serde_json::from_value(params).unwrap_or_else(|e| {
        eprintln!("retrylint server: bad initialize request ({e}): reading the working directory");
        lsp_types::InitializeParams::default()
    });
    let utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&lsp_types::PositionEncodingKind::UTF8));
    let enc = if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let result = serde_json::json!({
        "capabilities": capabilities(enc),
        "serverInfo": { "name": "retrylint", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false);
    let mut server = Server {
        conn,
        enc,
        configure,
        folders: folders(&params, cwd),
        workspaces: Vec::new(),
        analyses: Vec::new(),
        open: HashMap::new(),
        published: HashMap::new(),
        dirty: true,
        next_id: 0,
    };
    if watch {
        server.watch_files();
    }
    server.load();
    server.refresh();
    loop {
        let Ok(msg) = conn.receiver.recv() else {
            return Ok(());
        };
        if server.handle(msg)? {
            return Ok(());
        }
        // Take what else has arrived before checking again.
        while let Ok(msg) = conn.receiver.try_recv() {
            if server.handle(msg)? {
                return Ok(());
            }
        }
        server.refresh();
    }
}

/// An open buffer: its text and the client's version of it.
struct Buffer {
    text: String,
    version: i32,
}

struct Server<'a> {
    conn: &'a Connection,
    enc: Encoding,
    configure: &'a Configure<'a>,
    folders: Vec<PathBuf>,
    workspaces: Vec<Workspace>,
    /// One per workspace, after [`Server::refresh`].
    analyses: Vec<Analysis>,
    open: HashMap<PathBuf, Buffer>,
    published: HashMap<PathBuf, Vec<lsp_types::Diagnostic>>,
    /// A file changed since the last analysis.
    dirty: bool,
    next_id: i32,
}

impl Server<'_> {
    fn log(&self, typ: lsp_types::MessageType, message: String) {
        let params = lsp_types::LogMessageParams { typ, message };
        self.send(Notification::new(notif::LogMessage::METHOD.into(), params).into());
    }

    fn send(&self, msg: Message) {
        // The client has gone: the loop ends when the reader sees it.
        if self.conn.sender.send(msg).is_err() {
            eprintln!("retrylint server: the client closed the connection");
        }
    }

    fn watch_files(&mut self) {
        use lsp_types::*;
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher {
                glob_pattern: GlobPattern::String("**/*".into()),
                kind: None,
            }],
        };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "retrylint-watch".into(),
                method: notif::DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.next_id += 1;
        let id = RequestId::from(format!("retrylint-{}", self.next_id));
        self.send(Request::new(id, req::RegisterCapability::METHOD.into(), params).into());
    }

    /// Read every folder (again: a configuration file changed), with the
    /// open buffers over the files on disk.
    fn load(&mut self) {
        self.workspaces.clear();
        for folder in self.folders.clone() {
            let started = std::time::Instant::now();
            let loaded = guarded(|| Workspace::load(&folder, self.configure));
            match loaded {
                Ok(Ok(mut ws)) => {
                    for n in std::mem::take(&mut ws.notices) {
                        let path = n.path.map(|p| format!("{p}: ")).unwrap_or_default();
                        self.log(lsp_types::MessageType::INFO, format!("{path}{}", n.message));
                    }
                    for (path, buf) in &self.open {
                        if let Err(e) = ws.update(path, buf.text.clone()) {
                            self.log(lsp_types::MessageType::ERROR, e);
                        }
                    }
                    self.log(
                        lsp_types::MessageType::INFO,
                        format!(
                            "read `{}` in {} ms",
                            folder.display(),
                            started.elapsed().as_millis()
                        ),
                    );
                    self.workspaces.push(ws);
                }
                Ok(Err(e)) | Err(e) => self.log(
                    lsp_types::MessageType::ERROR,
                    format!("cannot read `{}`: {e}", folder.display()),
                ),
            }
        }
        self.dirty = true;
    }

    /// The workspace a file belongs to: the innermost folder holding it.
    fn workspace_of(&mut self, path: &Path) -> Option<&mut Workspace> {
        self.workspaces
            .iter_mut()
            .filter(|w| path.starts_with(w.root()))
            .max_by_key(|w| w.root().components().count())
    }

    fn update(&mut self, path: &Path, text: Option<String>) {
        let Some(ws) = self.workspace_of(path) else {
            return;
        };
        let done = guarded(|| match text {
            Some(text) => ws.update(path, text),
            None => ws.reread(path),
        });
        match done {
            Ok(Ok(changed)) => self.dirty |= changed,
            Ok(Err(e)) | Err(e) => {
                self.log(lsp_types::MessageType::ERROR, e);
                self.dirty = true;
            }
        }
    }

    /// Check again when something changed, and publish what differs.
    fn refresh(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let started = std::time::Instant::now();
        let mut analyses = Vec::new();
        for ws in &self.workspaces {
            match guarded(|| ws.analyse()) {
                Ok(a) => analyses.push(a),
                Err(e) => {
                    self.log(lsp_types::MessageType::ERROR, e);
                    // The last diagnostics stand.
                    return;
                }
            }
        }
        self.analyses = analyses;
        let mut now: HashMap<PathBuf, Vec<lsp_types::Diagnostic>> = HashMap::new();
        for a in &self.analyses {
            for (path, ids) in &a.by_path {
                let Some(id) = a.id_of(path) else { continue };
                let source = &a.run.scan.files[id].source;
                let list = now.entry(path.clone()).or_default();
                // One diagnostic per cause in the file, the other places
                // its related information.
                let refs: Vec<&crate::rules::Finding> =
                    ids.iter().map(|&i| &a.run.report.findings[i]).collect();
                for group in crate::render::by_cause(&refs) {
                    let others: Vec<&crate::rules::Finding> =
                        group[1..].iter().map(|&i| refs[i]).collect();
                    list.push(convert::diagnostic(
                        refs[group[0]],
                        &others,
                        &source.text,
                        source.lines(),
                        a,
                        self.enc,
                    ));
                }
            }
        }
        let mut paths: Vec<PathBuf> = now.keys().chain(self.published.keys()).cloned().collect();
        paths.sort();
        paths.dedup();
        let mut sent = 0;
        for path in paths {
            let new = now.remove(&path).unwrap_or_default();
            let old = self.published.get(&path);
            if old.map_or(new.is_empty(), |o| *o == new) {
                continue;
            }
            let Some(uri) = convert::path_to_uri(&path) else {
                continue;
            };
            let params = lsp_types::PublishDiagnosticsParams {
                uri,
                diagnostics: new.clone(),
                version: self.open.get(&path).map(|b| b.version),
            };
            self.send(Notification::new(notif::PublishDiagnostics::METHOD.into(), params).into());
            sent += 1;
            if new.is_empty() {
                self.published.remove(&path);
            } else {
                self.published.insert(path, new);
            }
        }
        self.log(
            lsp_types::MessageType::LOG,
            format!(
                "checked in {} ms; diagnostics published for {sent} files",
                started.elapsed().as_millis()
            ),
        );
    }

    /// Handle one message; `Ok(true)`: the client said `exit`.
    fn handle(&mut self, msg: Message) -> Result<bool, String> {
        match msg {
            Message::Request(r) => {
                if self.conn.handle_shutdown(&r).map_err(|e| e.to_string())? {
                    return Ok(true);
                }
                let id = r.id.clone();
                let method = r.method.clone();
                let answer = guarded(|| self.request(r));
                let response = match answer {
                    Ok(Ok(value)) => Response::new_ok(id, value),
                    Ok(Err((code, message))) => Response::new_err(id, code, message),
                    Err(message) => {
                        self.log(lsp_types::MessageType::ERROR, message.clone());
                        Response::new_err(
                            id,
                            lsp_server::ErrorCode::InternalError as i32,
                            format!("{method}: {message}"),
                        )
                    }
                };
                self.send(response.into());
            }
            Message::Notification(n) => {
                if n.method == notif::Exit::METHOD {
                    return Ok(true);
                }
                if let Err(e) = self.notification(n) {
                    self.log(lsp_types::MessageType::WARNING, e);
                }
            }
            Message::Response(_) => {}
        }
        Ok(false)
    }

    fn request(&mut self, r: Request) -> Result<serde_json::Value, (i32, String)> {
        let bad =
            |e: serde_json::Error| (lsp_server::ErrorCode::InvalidParams as i32, e.to_string());
        // Answer from what the client has sent so far.
        self.refresh();
        match r.method.as_str() {
            req::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams =
                    serde_json::from_value(r.params).map_err(bad)?;
                let actions = actions::code_actions(&self.analyses, self.enc, &p);
                Ok(serde_json::to_value(actions).unwrap_or_default())
            }
            req::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = serde_json::from_value(r.params).map_err(bad)?;
                let hover = actions::hover(&self.analyses, self.enc, &p);
                Ok(serde_json::to_value(hover).unwrap_or_default())
            }
            other => Err((
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("`{other}` is not supported"),
            )),
        }
    }

    fn notification(&mut self, n: Notification) -> Result<(), String> {
        let bad = |e: serde_json::Error| format!("bad `{}` notification: {e}", n.method);
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams =
                    serde_json::from_value(n.params.clone()).map_err(bad)?;
                let Some(path) = convert::uri_to_path(&p.text_document.uri) else {
                    return Ok(());
                };
                let buf = Buffer {
                    text: p.text_document.text,
                    version: p.text_document.version,
                };
                self.update(&path, Some(buf.text.clone()));
                self.open.insert(path, buf);
            }
            notif::DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams =
                    serde_json::from_value(n.params.clone()).map_err(bad)?;
                let Some(path) = convert::uri_to_path(&p.text_document.uri) else {
                    return Ok(());
                };
                let enc = self.enc;
                let buf = self.open.entry(path.clone()).or_insert(Buffer {
                    text: String::new(),
                    version: 0,
                });
                buf.version = p.text_document.version;
                for change in p.content_changes {
                    match change.range {
                        None => buf.text = change.text,
                        // Incremental changes, should a client send them.
                        Some(range) => {
                            let lines = crate::source::LineIndex::new(&buf.text);
                            let start = convert::offset(&buf.text, &lines, range.start, enc);
                            let end = convert::offset(&buf.text, &lines, range.end, enc);
                            buf.text
                                .replace_range(start.min(end)..end.max(start), &change.text);
                        }
                    }
                }
                let text = buf.text.clone();
                self.update(&path, Some(text));
            }
            notif::DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams =
                    serde_json::from_value(n.params.clone()).map_err(bad)?;
                if let Some(path) = convert::uri_to_path(&p.text_document.uri) {
                    self.open.remove(&path);
                    self.update(&path, None);
                }
            }
            notif::DidSaveTextDocument::METHOD => {
                let p: lsp_types::DidSaveTextDocumentParams =
                    serde_json::from_value(n.params.clone()).map_err(bad)?;
                if let Some(path) = convert::uri_to_path(&p.text_document.uri) {
                    self.changed_on_disk(&path);
                }
            }
            notif::DidChangeWatchedFiles::METHOD => {
                let p: lsp_types::DidChangeWatchedFilesParams =
                    serde_json::from_value(n.params.clone()).map_err(bad)?;
                for change in p.changes {
                    if let Some(path) = convert::uri_to_path(&change.uri) {
                        self.changed_on_disk(&path);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A file changed on disk: a configuration file reloads everything;
    /// any other file is read again unless the editor holds it open.
    fn changed_on_disk(&mut self, path: &Path) {
        if path
            .file_name()
            .is_some_and(|n| n == crate::config::FILE_NAME)
        {
            self.load();
        } else if !self.open.contains_key(path) {
            self.update(path, None);
        }
    }
}

/// Run `f`, turning a panic into an error message (a bug: the server
/// logs it and goes on).
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!("internal error: {msg}")
    })
}
