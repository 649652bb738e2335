#!/usr/bin/env bash
# Run every fuzz target for SECONDS (default 3600) each, one after the
# other, with libFuzzer through cargo-fuzz. Stable toolchain: the build
# uses RUSTC_BOOTSTRAP=1 and no sanitizer (`-s none`); on nightly drop
# both to get AddressSanitizer. Crashes land in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
bash scripts/fuzz-seeds.sh >/dev/null
cd fuzz
export RUSTC_BOOTSTRAP=1
cargo fuzz build -s none
for t in $(cargo fuzz list); do
  echo "== $t for ${secs}s"
  cargo fuzz run -s none "$t" -- -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 2>&1 | tail -25
done
