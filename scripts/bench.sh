#!/usr/bin/env bash
# The performance benchmark (issue 9; budget in docs/architecture.md,
# "Performance budget"; results in PERFORMANCE.md). One command:
#
#   scripts/bench.sh                 # 1,000, 10,000 and 100,000 files
#   scripts/bench.sh 10000           # some sizes only
#   RUNS=9 scripts/bench.sh 10000    # more runs per measurement (default 5)
#   scripts/bench.sh --repo DIR...   # real checkouts, side by side with ripgrep
#   scripts/bench.sh --simulate      # `retrylint simulate`: 10 layers, 1,000 rps, 120 s
#
# With --repo, each DIR (any checkout, e.g. `git archive` of a public
# repository) is timed as it is, nothing generated: rg, cold (an empty
# cache folder), no-cache and warm (the cache the cold run wrote) on the
# whole tree, each pair of runs back to back. The cache goes to a temporary
# folder (--cache-dir), never into the checkout. BIN=path/to/retrylint
# times that binary instead of building one (to compare two builds);
# NICE=n runs ripgrep and retrylint at the same `nice` level. The commit is
# the checkout's `git rev-parse HEAD`, or COMMIT_<n>=sha for the n-th DIR
# (1-based) when it is not a git checkout.
#
# For each size it generates a synthetic monorepo (examples/gen_monorepo.rs,
# seed 1) under <target dir>/bench/tree-N (once; kept for later runs; `git init`ed
# so that a pre-commit style run finds its repository), then times on that
# tree, in the same run:
#   rg        `rg -c -i retr .`: the cost of walking and reading the bytes
#   cold      `retrylint check .` with an empty facts cache (it writes one)
#   no-cache  `retrylint check --no-cache .`
#   warm      `retrylint check .` with the cache of the previous run
#   one-file  `retrylint check <one changed file>` with a warm cache, as
#             pre-commit runs it (the whole repository is read for the
#             graph; the file's content changes before every run)
# and prints, per measurement, the median wall time, the median CPU time
# (user + sys, steadier than wall time on a shared machine), the peak RSS,
# files per second and the ratio to ripgrep's wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
if [ "${1:-}" = --simulate ]; then
    # The simulation alone: no tree, no ripgrep (examples/simulate_bench.rs).
    exec cargo run --quiet --release --locked --example simulate_bench
fi
RUNS=${RUNS:-5}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000 100000)

say() { printf '%s\n' "$*" >&2; }

# ripgrep: found on PATH, or installed with apt-get when we may.
if ! command -v rg >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "bench: ripgrep not found; installing it with apt-get"
        apt-get update -qq >/dev/null && apt-get install -y -qq ripgrep >/dev/null
    else
        say "bench: ripgrep (rg) is needed: install it (apt-get install ripgrep, brew install ripgrep, cargo install ripgrep)"
        exit 2
    fi
fi
if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "bench: /usr/bin/time not found; installing package time with apt-get"
        apt-get update -qq >/dev/null && apt-get install -y -qq time >/dev/null
    else
        say "bench: /usr/bin/time (GNU time, package \`time\`) is needed for peak RSS"
        exit 2
    fi
fi
say "bench: using $(command -v rg) ($(rg --version | sed -n 1p))"

REPOS=()
if [ "${SIZES[0]:-}" = "--repo" ]; then
    REPOS=("${SIZES[@]:1}")
    SIZES=()
    [ ${#REPOS[@]} -gt 0 ] || { say "bench: --repo needs at least one folder"; exit 2; }
fi
NICE=${NICE:-0}
TARGET_DIR=$(bash scripts/target-dir.sh)
if [ -n "${BIN:-}" ]; then
    say "bench: timing $BIN (not building)"
else
    say "bench: building retrylint (release)"
    cargo build --quiet --release --locked --bin retrylint
    BIN=$TARGET_DIR/release/retrylint
fi
BIN=$(realpath "$BIN")
if [ ${#SIZES[@]} -gt 0 ]; then
    say "bench: building the generator"
    cargo build --quiet --locked --example gen_monorepo
fi
GEN=$TARGET_DIR/debug/examples/gen_monorepo

echo "# retrylint benchmark"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "- retrylint: $($BIN --version) ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "- ripgrep: $(rg --version | sed -n 1p)"
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "- runs per measurement: $RUNS (median; peak RSS is the maximum); nice $NICE"
echo

# measure NAME PREP -- CMD...: run CMD $RUNS times in the tree (after PREP,
# a shell snippet, each time); print one table row.
measure() {
    local name=$1 prep=$2
    shift 3
    local walls=() cpus=() rss=0 tf w u s m t0 t1
    tf=$(mktemp)
    for _ in $(seq "$RUNS"); do
        eval "$prep"
        # Wall time from bash's microsecond clock: GNU time's `%e` ticks
        # in 10 ms, which doubled the ratio of a 10-20 ms ripgrep run.
        # CPU and peak RSS still come from GNU time.
        t0=$EPOCHREALTIME
        nice -n "$NICE" /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
        t1=$EPOCHREALTIME
        read -r w u s m < <(tail -1 "$tf") || true
        # A run GNU time could not report on is left out.
        [[ "$m" =~ ^[0-9]+$ ]] || continue
        w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
        walls+=("$w")
        cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
        if [ "$m" -gt "$rss" ]; then rss=$m; fi
    done
    rm -f "$tf"
    local wall cpu
    wall=$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    printf '%s %s %s %s\n' "$name" "$wall" "$cpu" "$rss"
}

# table ROWS FILES: the Markdown table of measure's rows.
table() {
    local rows=$1 files=$2 rg_wall
    rg_wall=$(awk '$1 == "rg" { print $2 }' <<<"$rows")
    echo "| run | median wall | median CPU (user+sys) | peak RSS | files/s (wall) | x ripgrep (wall) |"
    echo "|---|---:|---:|---:|---:|---:|"
    while read -r name wall cpu rss; do
        awk -v n="$name" -v w="$wall" -v c="$cpu" -v r="$rss" -v f="$files" -v g="$rg_wall" 'BEGIN {
            fps = (w > 0) ? sprintf("%.0f", f / w) : "-";
            x = (g > 0) ? sprintf("%.1f", w / g) : "-";
            printf "| %s | %.3f s | %.2f s | %.0f MB | %s | %s |\n", n, w, c, r / 1024, fps, x
        }'
    done <<<"$rows"
    echo
}

idx=0
for repo in "${REPOS[@]}"; do
    idx=$((idx + 1))
    repo=$(realpath "$repo")
    cd "$repo"
    commit_var=COMMIT_$idx
    commit=$(git rev-parse HEAD 2>/dev/null || echo "${!commit_var:-unknown}")
    cache=$(mktemp -d)
    code=0
    "$BIN" check --no-cache --format concise -q . >/dev/null 2>"$cache/stderr" || code=$?
    if [ "$code" -gt 1 ]; then
        say "bench: retrylint failed on $repo (exit $code):"
        cat "$cache/stderr" >&2
        exit 1
    fi
    files=$(rg --files . | wc -l)
    # Pairs back to back: each retrylint measurement right after ripgrep's.
    rows=$(
        measure rg : -- rg -c -i retr .
        measure cold 'rm -rf "$cache/c"' -- "$BIN" check --cache-dir "$cache/c" --format concise -q .
        measure no-cache : -- "$BIN" check --no-cache --format concise -q .
        "$BIN" check --cache-dir "$cache/c" --format concise -q . >/dev/null 2>&1 || true
        measure warm : -- "$BIN" check --cache-dir "$cache/c" --format concise -q .
    )
    rm -rf "$cache"
    echo "## $(basename "$repo") ($commit): $files files not ignored, $(du -sh --exclude=.git . | cut -f1)"
    echo
    table "$rows" "$files"
    cd "$ROOT"
done

for n in "${SIZES[@]}"; do
    tree=$TARGET_DIR/bench/tree-$n
    if [ ! -d "$tree/services" ]; then
        rm -rf "$tree"
        say "bench: generating $n files"
        "$GEN" --files "$n" --seed 1 "$tree" >&2
    fi
    [ -d "$tree/.git" ] || git -C "$tree" init -q
    cd "$tree"
    rm -rf .retrylint-cache
    # Sanity: the tree scans without an internal error (exit 0 or 1).
    code=0
    "$BIN" check --no-cache --format concise -q . >/dev/null 2>"$TARGET_DIR/bench/stderr-$n" || code=$?
    if [ "$code" -gt 1 ]; then
        say "bench: retrylint failed on $tree (exit $code):"
        cat "$TARGET_DIR/bench/stderr-$n" >&2
        exit 1
    fi
    files=$(rg --files . | wc -l)
    changed=services/svc-00000/src/main/resources/application.yml
    cp "$changed" "$TARGET_DIR/bench/changed-$n.orig"
    k=0
    rows=$(
        measure rg : -- rg -c -i retr .
        measure cold 'rm -rf .retrylint-cache' -- "$BIN" check --format concise -q .
        measure no-cache : -- "$BIN" check --no-cache --format concise -q .
        "$BIN" check --format concise -q . >/dev/null 2>&1 || true
        measure warm : -- "$BIN" check --format concise -q .
        measure one-file 'k=$((k + 1)); cp "$TARGET_DIR/bench/changed-$n.orig" "$changed"; echo "# edit $k" >>"$changed"' -- "$BIN" check --format concise -q "$changed"
    )
    cp "$TARGET_DIR/bench/changed-$n.orig" "$changed"
    echo "## $n files generated ($files not ignored), $(du -sh --exclude=.git . | cut -f1)"
    echo
    table "$rows" "$files"
    cd "$ROOT"
done
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
