#!/usr/bin/env bash
# Run fuzz targets for SECONDS (default 3600) each with libFuzzer through
# cargo-fuzz: every target, or the ones named after SECONDS. PARALLEL=N
# (default 1) runs N targets at a time, one process each; NICE=n runs them
# at that niceness. Stable toolchain: the build uses RUSTC_BOOTSTRAP=1 and
# no sanitizer (`-s none`); on nightly drop both to get AddressSanitizer.
# Crashes land in fuzz/artifacts/<target>/, each run's log in
# fuzz/logs/<target>.log and its CPU time in fuzz/logs/<target>.cpu; the
# last lines of each log (executions, crashes) are printed when it ends.
#
#   bash scripts/fuzz-all.sh 3600                  # every target, one by one
#   PARALLEL=2 bash scripts/fuzz-all.sh 3600 yaml nginx rust java
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
shift || true
parallel=${PARALLEL:-1}
nice_level=${NICE:-0}
bash scripts/fuzz-seeds.sh >/dev/null
cd fuzz
export RUSTC_BOOTSTRAP=1
cargo fuzz build -s none
# cargo fuzz builds into the fuzz crate's target directory (CARGO_TARGET_DIR
# when set).
bin_dir="$(bash ../scripts/target-dir.sh "$PWD/Cargo.toml")/$(rustc -vV | sed -n 's/^host: //p')/release"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
fi
mkdir -p logs
run() {
  local t=$1
  echo "== $t for ${secs}s (started $(date -u +%H:%M:%SZ))"
  # The binary directly: `cargo fuzz run` would rebuild and lock the
  # build directory, which parallel runs share.
  # `time` records the CPU seconds the run got, which is less than its
  # wall-clock seconds when runs share cores.
  local status=0 TIMEFORMAT='cpu %U s user, %S s system, %R s wall'
  { time nice -n "$nice_level" "$bin_dir/$t" \
    -artifact_prefix="artifacts/$t/" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    "corpus/$t" >"logs/$t.log" 2>&1; } 2>"logs/$t.cpu" || status=$?
  echo "== $t ended with status $status ($(date -u +%H:%M:%SZ)): $(cat "logs/$t.cpu")"
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|panicked|ERROR' \
    "logs/$t.log" | tail -5
  return "$status"
}
mkdir -p artifacts
for t in "${targets[@]}"; do mkdir -p "artifacts/$t" "corpus/$t"; done
failed=0
running=0
for t in "${targets[@]}"; do
  run "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
