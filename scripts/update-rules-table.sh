#!/usr/bin/env bash
# Regenerate the rules table in README.md from the registry
# (`retrylint rules --format markdown`); tests/suite/registry.rs checks it.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(cargo run -q -- rules --format markdown)
python3 - "$table" <<'PY'
import re, sys
table = sys.argv[1] + "\n"
s = open("README.md").read()
s = re.sub(r"<!-- rules:start -->\n.*?<!-- rules:end -->",
           lambda m: "<!-- rules:start -->\n" + table + "<!-- rules:end -->", s, flags=re.S)
open("README.md", "w").write(s)
PY
