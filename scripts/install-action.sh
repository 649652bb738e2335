#!/usr/bin/env bash
# Install retrylint for the GitHub Action into ROOT/bin/retrylint.
#   install-action.sh VERSION ROOT
# VERSION (`v0.2.0`): download the release archive for this runner and
# check it against the release's SHA256SUMS; if the release has no
# archive for this platform, build that tag from the action's source with
# cargo. Empty VERSION: build the action's own checkout with cargo.
# RETRYLINT_RELEASES overrides where releases are read from (a URL or a
# local folder holding VERSION/retrylint-TARGET.tar.gz, used by the tests);
# by default it is the action's own repository's GitHub releases.
set -euo pipefail
VERSION="${1:-}"
ROOT="${2:?usage: install-action.sh VERSION ROOT}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$ROOT/bin"

build_from_source() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "::error title=retrylint::no Rust toolchain on this runner and no release binary to download: set the action's \`version\` input to a release (e.g. v0.2.0), or install Rust first (for example with a rustup step)" >&2
    exit 2
  fi
  echo "building retrylint from $SRC with cargo (a release binary installs in seconds: set \`version\`)"
  cargo install --locked --path "$SRC" --root "$ROOT"
}

target_triple() {
  local os arch
  os="$(uname -s)"; arch="$(uname -m)"
  case "$arch" in
    x86_64|amd64) arch=x86_64 ;;
    aarch64|arm64) arch=aarch64 ;;
    *) return 1 ;;
  esac
  case "$os" in
    # Static musl on x86_64; glibc on aarch64 (release.yml builds both).
    Linux) if [ "$arch" = x86_64 ]; then echo "x86_64-unknown-linux-musl"; else echo "aarch64-unknown-linux-gnu"; fi ;;
    Darwin) echo "$arch-apple-darwin" ;;
    MINGW*|MSYS*|CYGWIN*|Windows_NT) [ "$arch" = x86_64 ] && echo "x86_64-pc-windows-msvc" ;;
    *) return 1 ;;
  esac
}

if [ -z "$VERSION" ]; then
  build_from_source
  exit 0
fi
case "$VERSION" in
  v[0-9]*) ;;
  *) echo "::error title=retrylint::\`version\` must be a release tag such as v0.2.0, not \`$VERSION\`" >&2; exit 2 ;;
esac

if ! target="$(target_triple)"; then
  echo "::warning title=retrylint::no release binary for $(uname -s) $(uname -m); building from source"
  build_from_source
  exit 0
fi
releases="${RETRYLINT_RELEASES:-}"
if [ -z "$releases" ]; then
  # GITHUB_ACTION_PATH is .../_actions/OWNER/REPO/REF for a used action.
  repo="$(echo "${GITHUB_ACTION_PATH:-}" | sed -n 's#.*/_actions/\([^/]*/[^/]*\)/[^/]*$#\1#p')"
  repo="${repo:-retrylint/retrylint}"
  releases="https://github.com/$repo/releases/download"
fi
archive="retrylint-$target.tar.gz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fetch() { # URL-or-path, destination
  case "$1" in
    http://*|https://*) curl --proto '=https' --tlsv1.2 -fsSL --retry 3 -o "$2" "$1" ;;
    *) cp "$1" "$2" ;;
  esac
}
if ! fetch "$releases/$VERSION/$archive" "$work/$archive" \
  || ! fetch "$releases/$VERSION/SHA256SUMS" "$work/SHA256SUMS"; then
  echo "::warning title=retrylint::no release archive $archive for $VERSION; building from source"
  build_from_source
  exit 0
fi
expected="$(awk -v f="$archive" '$2 == f || $2 == "*"f {print $1}' "$work/SHA256SUMS")"
actual="$(sha256sum "$work/$archive" | cut -d' ' -f1)"
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  echo "::error title=retrylint::$archive does not match the release's SHA256SUMS (expected ${expected:-nothing}, got $actual)" >&2
  exit 2
fi
exe=""
case "$target" in *windows*) exe=".exe" ;; esac
tar -xzf "$work/$archive" -C "$work"
install -m 0755 "$work/retrylint-$target/retrylint$exe" "$ROOT/bin/retrylint$exe"
"$ROOT/bin/retrylint$exe" --version
