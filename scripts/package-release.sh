#!/usr/bin/env bash
# Package a built retrylint binary as a release archive and record its
# SHA-256 in OUTDIR/SHA256SUMS (the layout scripts/install-action.sh and
# cargo-binstall read):
#   package-release.sh TARGET BINARY OUTDIR
# gives OUTDIR/retrylint-TARGET.tar.gz holding retrylint-TARGET/{retrylint,
# README.md, LICENSE-MIT, LICENSE-APACHE, CHANGELOG.md}.
set -euo pipefail
TARGET="${1:?usage: package-release.sh TARGET BINARY OUTDIR}"
BINARY="${2:?usage: package-release.sh TARGET BINARY OUTDIR}"
OUTDIR="${3:?usage: package-release.sh TARGET BINARY OUTDIR}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
case "$TARGET" in
  *[!A-Za-z0-9_.-]*|"") echo "package-release: bad target \`$TARGET\`" >&2; exit 2 ;;
esac
exe=""
case "$TARGET" in *windows*) exe=".exe" ;; esac
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/retrylint-$TARGET"
mkdir -p "$dir"
install -m 0755 "$BINARY" "$dir/retrylint$exe"
cp "$ROOT/README.md" "$ROOT/LICENSE-MIT" "$ROOT/LICENSE-APACHE" "$ROOT/CHANGELOG.md" "$dir/"
archive="retrylint-$TARGET.tar.gz"
# Reproducible: fixed order, owner and times.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' \
  -C "$stage" -cf - "retrylint-$TARGET" | gzip -n > "$OUTDIR/$archive"
(cd "$OUTDIR" && sha256sum "$archive") >> "$OUTDIR/SHA256SUMS"
echo "$OUTDIR/$archive"
