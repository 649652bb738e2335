#!/usr/bin/env bash
# Render an audit report (report.html of `retrylint audit`) into a PNG with
# headless Chromium, to look at it as a reader would or to refresh the
# screenshot in docs/.
#
#   scripts/screenshot-report.sh [REPORT_HTML] [OUT_PNG] [WIDTH,HEIGHT]
#
# Defaults: audit-report/report.html, audit-report/report.png, 1400,2000.
# Needs Debian's `chromium` package (apt-get install chromium); without a
# Chromium it prints a notice and exits 0, so that CI without a browser
# skips it.
set -euo pipefail

html=${1:-audit-report/report.html}
out=${2:-audit-report/report.png}
size=${3:-1400,2000}

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    browser=$(command -v "$b")
    break
  fi
done
if [ -z "$browser" ]; then
  echo "notice: no chromium found (apt-get install chromium); no screenshot taken" >&2
  exit 0
fi
if [ ! -f "$html" ]; then
  echo "error: $html does not exist; run \`retrylint audit PATH --out DIR\` first" >&2
  exit 2
fi

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$out")"
# No network is needed or allowed: the page is self-contained.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$profile" --no-first-run --no-default-browser-check \
  --window-size="$size" --screenshot="$(realpath -m "$out")" \
  "file://$(realpath "$html")" >/dev/null 2>&1
if [ ! -s "$out" ]; then
  echo "error: chromium wrote no screenshot to $out" >&2
  exit 1
fi
echo "wrote $out"
