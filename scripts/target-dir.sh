#!/usr/bin/env bash
# Print cargo's target directory for the manifest given (default: the
# repository's): CARGO_TARGET_DIR, a configured build.target-dir, or
# target/ next to the manifest, exactly as cargo resolves it. Scripts use
# it instead of a hard-coded `target/`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
manifest="${1:-$ROOT/Cargo.toml}"
cargo metadata --format-version 1 --no-deps --offline --manifest-path "$manifest" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
