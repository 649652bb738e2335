//! `retrylint server`, driven over stdio as an editor drives it: the real
//! binary, LSP messages in, diagnostics, hovers, code actions out.

use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
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
    /// The last diagnostics published for each file, as sent.
    raw: BTreeMap<String, Vec<Value>>,
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
            raw: BTreeMap::new(),
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
                    let raw = msg["params"]["diagnostics"].as_array().unwrap().clone();
                    self.raw.insert(name.clone(), raw);
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

    /// Whether the server published nothing: a request is answered after
    /// any check it had to make, so its diagnostics would come first.
    fn quiet(&mut self) -> bool {
        let answer = self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///nowhere.yaml"}, "position": {"line": 0, "character": 0}}),
        );
        assert_eq!(answer, Value::Null);
        !self
            .queue
            .drain(..)
            .any(|m| m["method"] == "textDocument/publishDiagnostics")
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
        d["message"]
            .as_str()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or(""),
    )
}

/// `text` with LSP text edits made (UTF-16 positions; ASCII here).
fn apply(text: &str, edits: &[Value]) -> String {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let at = |p: &Value| {
        lines[p["line"].as_u64().unwrap() as usize] + p["character"].as_u64().unwrap() as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                at(&e["range"]["start"]),
                at(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
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

fn open(c: &mut Client, path: &Path, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(path), "languageId": "yaml", "version": 1, "text": text}}),
    );
}

fn change(c: &mut Client, path: &Path, version: i32, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]}),
    );
}

fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    for (name, text) in files {
        std::fs::write(root.join(name), text).unwrap();
    }
    (dir, root)
}

const RL102: &str = "2:4-2:11 RL102 2 `configs.default` (Resilience4j) retries every error (no retry predicate: Resilience4j's default), client errors and bugs included";
const RL203: &str = "5:6-6:39 RL203 2 `configs.default` (Resilience4j) waits exponential backoff from `1s` (x2) between attempts with no jitter";

#[test]
fn a_session_open_change_hover_code_action_shutdown() {
    let (_dir, root) = workspace(&[("application.yml", R4J)]);
    let file = root.join("application.yml");
    let mut c = Client::start(&root, &[]);
    let init = initialize(&mut c, &root);
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["textDocumentSync"]["change"], 1);
    assert_eq!(caps["codeActionProvider"]["codeActionKinds"][0], "quickfix");
    // Every file's findings, before any is opened.
    let name = "application.yml".to_string();
    assert_eq!(
        c.checked(),
        BTreeMap::from([(name.clone(), vec![RL102.to_string(), RL203.to_string()])])
    );
    // Opening it as it is on disk changes nothing: nothing is sent again.
    open(&mut c, &file, R4J);
    assert!(c.quiet());
    // Jitter on: RL203 goes, from the buffer (the file on disk is as it was).
    let jittered = R4J.replace(
        "      enable-exponential-backoff: true\n",
        "      enable-exponential-backoff: true\n      enable-randomized-wait: true\n",
    );
    change(&mut c, &file, 2, &jittered);
    assert_eq!(
        c.checked(),
        BTreeMap::from([(name.clone(), vec![RL102.to_string()])])
    );
    // A suppression comment is honoured as it is typed.
    let suppressed = R4J.replace(
        "    default:\n",
        "    # retrylint: ignore[RL102] every error is transient here\n    default:\n",
    );
    change(&mut c, &file, 3, &suppressed);
    let shifted = RL203.replacen("5:6-6:39", "6:6-7:39", 1);
    assert_eq!(c.checked(), BTreeMap::from([(name.clone(), vec![shifted])]));
    change(&mut c, &file, 4, R4J);
    assert_eq!(
        c.checked(),
        BTreeMap::from([(name.clone(), vec![RL102.to_string(), RL203.to_string()])])
    );
    // The full diagnostic: code linked to the rule's doc, help, source.
    assert_eq!(
        c.raw["application.yml"][1],
        json!({
            "range": {"start": {"line": 5, "character": 6}, "end": {"line": 6, "character": 39}},
            "severity": 2,
            "code": "RL203",
            "codeDescription": {"href": "https://github.com/retrylint/retrylint/blob/main/rules/RL203-unjittered-backoff.md"},
            "source": "retrylint",
            "message": "`configs.default` (Resilience4j) waits exponential backoff from `1s` (x2) between attempts with no jitter\nhelp: add jitter: set `enableRandomizedWait: true` (with `randomizedWaitFactor`, default 0.5) and `enableExponentialBackoff: true`",
        })
    );
    // Hover on the finding: the rule's doc, as `retrylint explain` prints it.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 5, "character": 8}}),
    );
    let doc = hover["contents"]["value"].as_str().unwrap();
    assert!(
        doc.starts_with("# RL203 unjittered-backoff\n\n## What it does\n"),
        "{doc}"
    );
    assert!(
        doc.ends_with(
            "(https://github.com/retrylint/retrylint/blob/main/rules/RL203-unjittered-backoff.md)"
        ),
        "{doc}"
    );
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 5, "character": 6}, "end": {"line": 6, "character": 39}})
    );
    // Nothing under the cursor: no hover.
    let none = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(none, Value::Null);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)},
               "range": {"start": {"line": 5, "character": 6}, "end": {"line": 5, "character": 6}},
               "context": {"diagnostics": []}}),
    );
    // Each quick fix offered for RL203, applied as an editor applies it,
    // clears RL203 (the edits are in this file, on the text checked).
    // The fixes themselves come from the rules (`check --fix`); the
    // exact edits of code actions are in src/server/tests.rs.
    // RL203's doc names its fixes (a "## Fix" section, safe first) when
    // the rule has one for Resilience4j's exponential backoff: then the
    // server offers it, preferred.
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/RL203-unjittered-backoff.md"),
    )
    .unwrap();
    let documented = doc.contains("## Fix\n\n- **safe** (Resilience4j, an exponential backoff)");
    let preferred = actions
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["isPreferred"] == true && a["diagnostics"][0]["code"] == "RL203")
        .count();
    assert_eq!(preferred > 0, documented, "{actions:#}");
    let mut version = 5;
    for action in actions.as_array().expect("a list of code actions") {
        if action["kind"] != "quickfix" || action["diagnostics"][0]["code"] != "RL203" {
            continue;
        }
        let edits = action["edit"]["changes"][uri(&file)].as_array().unwrap();
        let fixed = apply(R4J, edits);
        change(&mut c, &file, version, &fixed);
        version += 1;
        let after = c.checked();
        assert!(
            after[&name].iter().all(|d| !d.contains("RL203")),
            "{}: {after:?}",
            action["title"]
        );
        change(&mut c, &file, version, R4J);
        version += 1;
        c.checked();
    }
    // Bad input is answered or logged, never fatal.
    c.notify("textDocument/didOpen", json!({"nonsense": true}));
    let bad = c.request("textDocument/hover", json!({"textDocument": 5}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let unknown = c.request("workspace/symbol", json!({"query": ""}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    c.stop();
}

#[test]
fn the_configuration_file_applies() {
    let (_dir, root) = workspace(&[
        ("application.yml", R4J),
        (".retrylint.toml", "ignore = [\"RL102\"]\n"),
    ]);
    let mut c = Client::start(&root, &[]);
    initialize(&mut c, &root);
    assert_eq!(
        c.checked(),
        BTreeMap::from([("application.yml".to_string(), vec![RL203.to_string()])])
    );
    // Edited on disk (the client's file watcher says so): read again.
    let toml = root.join(".retrylint.toml");
    std::fs::write(&toml, "ignore = [\"RL203\"]\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&toml), "type": 2}]}),
    );
    assert_eq!(
        c.checked(),
        BTreeMap::from([("application.yml".to_string(), vec![RL102.to_string()])])
    );
    c.stop();
}

#[test]
fn a_path_finding_follows_an_edit_in_another_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/rules/RL402/err/kubernetes-two-layers");
    let deployments = std::fs::read_to_string(dir.join("deployments.yaml")).unwrap();
    let services = std::fs::read_to_string(dir.join("virtual-services.yaml")).unwrap();
    let (_dir, root) = workspace(&[
        ("deployments.yaml", &deployments),
        ("virtual-services.yaml", &services),
    ]);
    let file = root.join("deployments.yaml");
    let mut c = Client::start(&root, &["--no-cache"]);
    initialize(&mut c, &root);
    let rl402 = "14:6-14:17 RL402 2 2 layers retry on the path from `gateway`: `3` (gateway -> orders, `orders/http[0]` (Istio)) x `2` (orders -> payments, `payments/http[0]` (Istio)) = `6` attempts per call";
    let rl303 = "15:6-15:23 RL303 1 `gateway` gives `orders` up to `1s` per call, but `orders`'s own retries can take `2.025s`: the caller abandons work the callee keeps doing, and every abandoned attempt is retried again";
    let both = BTreeMap::from([(
        "virtual-services.yaml".to_string(),
        vec![rl402.to_string(), rl303.to_string()],
    )]);
    assert_eq!(c.checked(), both);
    // `orders` no longer calls `payments`: the two-layer path is gone, and
    // so are `orders`'s own retries behind `gateway`'s per-try timeout;
    // the file that says so (virtual-services.yaml) is told, though the
    // edit was in deployments.yaml (`retrylint check` agrees).
    open(&mut c, &file, &deployments);
    assert!(c.quiet());
    let no_call = deployments.replace(
        "        env:\n        - name: PAYMENTS_URL\n          value: http://payments:8080\n",
        "",
    );
    assert_ne!(no_call, deployments);
    change(&mut c, &file, 2, &no_call);
    assert_eq!(
        c.checked(),
        BTreeMap::from([("virtual-services.yaml".to_string(), vec![])])
    );
    // The call is back: so is the finding.
    change(&mut c, &file, 3, &deployments);
    assert_eq!(c.checked(), both);
    // Closed with the text on disk: nothing to say again.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&file)}}),
    );
    assert!(c.quiet());
    c.stop();
}

#[test]
fn a_bad_initialize_request_still_gets_a_server() {
    let (_dir, root) = workspace(&[("application.yml", R4J)]);
    let mut c = Client::start(&root, &["--no-cache"]);
    let init = c.request(
        "initialize",
        json!({"processId": "not a number", "capabilities": 7}),
    );
    assert_eq!(init["capabilities"]["hoverProvider"], true, "{init}");
    c.notify("initialized", json!({}));
    // The folder it was started in.
    assert_eq!(
        c.checked(),
        BTreeMap::from([(
            "application.yml".to_string(),
            vec![RL102.to_string(), RL203.to_string()]
        )])
    );
    c.stop();
}

/// One cause on three routes of a file is one diagnostic, the other
/// routes its related information (as the pretty output shows it).
#[test]
fn one_diagnostic_per_cause_with_the_other_places_related() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/rules/RL304/err/linkerd-routes-without-timeout.yaml"),
    )
    .unwrap();
    let (_dir, root) = workspace(&[("profile.yaml", &text)]);
    let mut c = Client::start(&root, &["--select", "RL304"]);
    initialize(&mut c, &root);
    let got = c.checked();
    assert_eq!(got["profile.yaml"].len(), 1, "{got:?}");
    let related = c.raw["profile.yaml"][0]["relatedInformation"]
        .as_array()
        .unwrap()
        .clone();
    let lines: Vec<u64> = related
        .iter()
        .filter(|r| {
            r["message"]
                .as_str()
                .unwrap()
                .starts_with("the same cause here: ")
        })
        .map(|r| r["location"]["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    // 0-based: lines 21 and 26.
    assert_eq!(lines, [20, 25]);
    c.stop();
}

/// A buffer the walk never saw (not on disk yet) is read unless an ignore
/// file on the way down to it leaves it out: a nested `.gitignore` counts
/// as the walk counts it.
#[test]
fn a_new_buffer_under_a_nested_gitignore_is_not_read() {
    let (_dir, root) = workspace(&[(".gitignore", "*.log\n")]);
    std::fs::create_dir(root.join("deploy")).unwrap();
    std::fs::write(root.join("deploy/.gitignore"), "rendered/\n").unwrap();
    let mut c = Client::start(&root, &["--no-cache"]);
    initialize(&mut c, &root);
    assert_eq!(c.checked(), BTreeMap::new());
    std::fs::create_dir(root.join("deploy/rendered")).unwrap();
    open(&mut c, &root.join("deploy/rendered/application.yml"), R4J);
    assert!(c.quiet());
    // Beside the ignored folder: read.
    open(&mut c, &root.join("deploy/application.yml"), R4J);
    assert_eq!(
        c.checked(),
        BTreeMap::from([(
            "application.yml".to_string(),
            vec![RL102.to_string(), RL203.to_string()]
        )])
    );
    c.stop();
}
