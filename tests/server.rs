//! `retrylint server`, driven over stdio as an editor drives it: the real
//! binary, LSP messages in, diagnostics, hovers, code actions out.

use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Read as _, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Long enough for a debug build on a loaded machine; only a hang fails.
const PATIENCE: Duration = Duration::from_secs(120);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: mpsc::Receiver<Value>,
    /// Messages read while waiting for something else.
    queue: VecDeque<Value>,
    next_id: i64,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start(root: &Path, args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_retrylint"))
            .arg("server")
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start retrylint server");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(msg) = read_message(&mut r) {
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            queue: VecDeque::new(),
            next_id: 0,
        }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self) -> Value {
        self.incoming
            .recv_timeout(PATIENCE)
            .expect("the server answers")
    }

    /// Send a request; its response (`result`, or the whole response when
    /// it is an error). Notifications read meanwhile are kept.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.next();
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return match msg.get("error") {
                    Some(_) => msg,
                    None => msg["result"].clone(),
                };
            }
            self.queue.push_back(msg);
        }
    }

    /// The diagnostics published until the server says it has checked
    /// (its `checked in` log line), by file name; a file published twice
    /// keeps the last.
    fn checked(&mut self) -> BTreeMap<String, Vec<String>> {
        let mut out = BTreeMap::new();
        loop {
            let msg = match self.queue.pop_front() {
                Some(m) => m,
                None => self.next(),
            };
            match msg["method"].as_str() {
                Some("textDocument/publishDiagnostics") => {
                    let uri = msg["params"]["uri"].as_str().unwrap();
                    let name = uri.rsplit('/').next().unwrap().to_string();
                    let list = msg["params"]["diagnostics"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(describe)
                        .collect();
                    out.insert(name, list);
                }
                Some("window/logMessage")
                    if msg["params"]["message"]
                        .as_str()
                        .is_some_and(|m| m.starts_with("checked in")) =>
                {
                    return out;
                }
                // The file watcher's registration.
                Some("client/registerCapability") => {
                    let id = msg["id"].clone();
                    self.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
                }
                _ => {}
            }
        }
    }

    fn stop(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// A diagnostic as one line: `line:col-line:col CODE severity message`
/// (0-based, as LSP counts), the first line of its message.
fn describe(d: &Value) -> String {
    let r = &d["range"];
    format!(
        "{}:{}-{}:{} {} {} {}",
        r["start"]["line"],
        r["start"]["character"],
        r["end"]["line"],
        r["end"]["character"],
        d["code"].as_str().unwrap_or("?"),
        d["severity"],
        d["message"].as_str().unwrap_or("").lines().next().unwrap_or(""),
    )
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn initialize(c: &mut Client, root: &Path) -> Value {
    let caps = c.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": uri(root),
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}},
            },
        }),
    );
    c.notify("initialized", json!({}));
    caps
}

const R4J: &str = "\
resilience4j.retry:
  configs:
    default:
      maxAttempts: 4
      waitDuration: 1s
      enable-exponential-backoff: true
      exponential-backoff-multiplier: 2
  instances:
    orders:
      baseConfig: default
";

#[test]
fn a_session_open_change_hover_code_action_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let file = root.join("application.yml");
    std::fs::write(&file, R4J).unwrap();
    let mut c = Client::start(&root, &[]);
    let init = initialize(&mut c, &root);
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["textDocumentSync"]["change"], 1);
    assert_eq!(caps["codeActionProvider"]["codeActionKinds"][0], "quickfix");
    let first = c.checked();
    println!("{first:#?}");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&file), "languageId": "yaml", "version": 1, "text": R4J}}),
    );
    let opened = c.checked();
    println!("{opened:#?}");
    let jittered = R4J.replace(
        "      enable-exponential-backoff: true\n",
        "      enable-exponential-backoff: true\n      enable-randomized-wait: true\n",
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [{"text": jittered}]}),
    );
    let changed = c.checked();
    println!("{changed:#?}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 3}, "contentChanges": [{"text": R4J}]}),
    );
    let back = c.checked();
    println!("{back:#?}");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 5, "character": 8}}),
    );
    println!("{}", &hover.to_string()[..300.min(hover.to_string().len())]);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)},
               "range": {"start": {"line": 5, "character": 6}, "end": {"line": 5, "character": 6}},
               "context": {"diagnostics": []}}),
    );
    println!("{actions:#}");
    c.stop();
}
