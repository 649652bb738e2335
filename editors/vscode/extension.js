// The smallest client of `retrylint server`: it starts the server over
// stdio and sends it every file of the workspace that is opened; the
// server decides which it reads (see the README, "Editors").
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const config = vscode.workspace.getConfiguration("retrylint");
  const command = config.get("path", "retrylint");
  const args = ["server", ...config.get("args", [])];
  client = new LanguageClient(
    "retrylint",
    "retrylint",
    { command, args },
    { documentSelector: [{ scheme: "file" }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
