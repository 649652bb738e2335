#!/usr/bin/env bash
# Prove the pre-commit hook works with the real pre-commit (from PyPI, in a
# virtualenv under <target dir>/ci-tools): the hooks of this repository, installed
# by pre-commit from its HEAD (uncommitted changes included), run
# against a temporary git repository must fail on a bad file, pass on a
# good one, and report only the files it is given. Also validates the
# README's example .pre-commit-config.yaml. Fails loudly.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$(bash "$ROOT/scripts/target-dir.sh")/ci-tools"
PRE_COMMIT_VERSION=4.7.0
mkdir -p "$TOOLS"
# A virtualenv moved or restored from another path (a CI cache) keeps
# scripts whose first line names the old one: start it again.
if [ -e "$TOOLS/venv" ] && ! "$TOOLS/venv/bin/pip" --version >/dev/null 2>&1; then
  rm -rf "$TOOLS/venv"
fi

if [ ! -x "$TOOLS/venv/bin/pre-commit" ] || ! "$TOOLS/venv/bin/pre-commit" --version | grep -q "$PRE_COMMIT_VERSION"; then
  echo "-- installing pre-commit $PRE_COMMIT_VERSION into $TOOLS/venv"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
fi
PC="$TOOLS/venv/bin/pre-commit"
"$PC" --version

# Isolated state; the hook's cargo build reuses one target directory.
export PRE_COMMIT_HOME="$TOOLS/pre-commit-home"
export CARGO_TARGET_DIR="$TOOLS/hook-target"
# The hook is built with `cargo install` (release profile): trade speed of
# the binary for build time here.
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256
export CARGO_PROFILE_RELEASE_OPT_LEVEL=0
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid
export GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid
export PRE_COMMIT_COLOR=never

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
git -C "$WORK" init --quiet
BAD="$ROOT/testdata/rules/RL203/err/resilience4j-fixed-delay.yml"
GOOD="$ROOT/testdata/rules/RL203/ok/resilience4j-randomized.yml"
mkdir -p "$WORK/orders" "$WORK/payments"
cp "$BAD" "$WORK/orders/application.yml"
cp "$GOOD" "$WORK/payments/application.yml"
# Only the rule the fixtures are about, so new rules cannot change the
# outcome; this also exercises .retrylint.toml discovery.
printf 'select = ["RL203"]\n' > "$WORK/.retrylint.toml"
git -C "$WORK" add .

# `pre-commit try-repo` starts from an empty store each time, so each of
# its runs cloned this repository to a new path and `cargo install`ed the
# crate again (four release builds of it). Instead the hooks come from one
# config at a fixed commit, installed once into PRE_COMMIT_HOME: this
# repository's HEAD, or, with uncommitted changes, a commit of them in a
# shadow clone (what try-repo does).
REPO="$ROOT"
if [ -n "$(git -C "$ROOT" status --porcelain)" ]; then
  REPO="$WORK.shadow"
  trap 'rm -rf "$WORK" "$WORK.shadow"' EXIT
  git clone --quiet "$ROOT" "$REPO"
  git -C "$ROOT" diff HEAD --binary | git -C "$REPO" apply --binary --allow-empty
  (cd "$ROOT" && git ls-files --others --exclude-standard -z) \
    | (cd "$ROOT" && xargs -0 -r cp --parents -t "$REPO")
  git -C "$REPO" add -A
  git -C "$REPO" commit --quiet -m "uncommitted changes"
fi
CONFIG="$(mktemp)"
trap 'rm -rf "$WORK" "$WORK.shadow" "$CONFIG"' EXIT
printf 'repos:\n-   repo: %s\n    rev: %s\n    hooks:\n    -   id: retrylint\n    -   id: retrylint-fix\n' \
  "$REPO" "$(git -C "$REPO" rev-parse HEAD)" > "$CONFIG"

hook() {
  local id="$1"
  shift
  (cd "$WORK" && "$PC" run --config "$CONFIG" --verbose "$id" "$@")
}
try() { hook retrylint "$@"; }

echo "-- a bad file must fail the hook"
set +e
out="$(try --files orders/application.yml 2>&1)"
code=$?
set -e
echo "$out"
if [ "$code" -eq 0 ] || ! grep -q "RL203" <<<"$out"; then
  echo "FAIL: the hook passed a bad file (exit $code)" >&2
  exit 1
fi

echo "-- a good file must pass, even with a bad file elsewhere in the repository"
set +e
out="$(try --files payments/application.yml 2>&1)"
code=$?
set -e
echo "$out"
if [ "$code" -ne 0 ]; then
  echo "FAIL: the hook failed a good file (exit $code)" >&2
  exit 1
fi

echo "-- a file retrylint reads by its folder reaches the hook (sites-enabled/default)"
mkdir -p "$WORK/etc/nginx/sites-enabled"
cp "$ROOT/testdata/rules/RL103/err/nginx-error-non-idempotent.conf" "$WORK/etc/nginx/sites-enabled/default"
printf 'select = ["RL203", "RL103"]\n' > "$WORK/.retrylint.toml"
git -C "$WORK" add .
set +e
out="$(try --files etc/nginx/sites-enabled/default 2>&1)"
code=$?
set -e
echo "$out"
if [ "$code" -eq 0 ] || ! grep -q "RL103" <<<"$out"; then
  echo "FAIL: the hook was not given etc/nginx/sites-enabled/default, or passed it (exit $code)" >&2
  exit 1
fi

echo "-- retrylint-fix makes the safe fix and fails the commit so it can be staged"
mkdir -p "$WORK/inventory"
cp "$ROOT/testdata/fixes/RL203/resilience4j-yaml-kebab/before/application.yml" "$WORK/inventory/application.yml"
git -C "$WORK" add inventory/application.yml
set +e
out="$(hook retrylint-fix --files inventory/application.yml 2>&1)"
code=$?
set -e
echo "$out"
if [ "$code" -eq 0 ] || ! cmp -s "$WORK/inventory/application.yml" "$ROOT/testdata/fixes/RL203/resilience4j-yaml-kebab/after/application.yml"; then
  echo "FAIL: retrylint-fix did not make the fix, or passed (exit $code)" >&2
  exit 1
fi

echo "-- the README's .pre-commit-config.yaml is valid"
awk '/<!-- pre-commit-config:start -->/{f=1;next} /<!-- pre-commit-config:end -->/{f=0} f' "$ROOT/README.md" \
  | sed -e '/^```/d' > "$WORK/readme-pre-commit-config.yaml"
if [ ! -s "$WORK/readme-pre-commit-config.yaml" ]; then
  echo "FAIL: README has no <!-- pre-commit-config:start --> block" >&2
  exit 1
fi
"$PC" validate-config "$WORK/readme-pre-commit-config.yaml"
grep -q "id: retrylint" "$WORK/readme-pre-commit-config.yaml"
"$PC" validate-manifest "$ROOT/.pre-commit-hooks.yaml"

echo "pre-commit hook: ok"
