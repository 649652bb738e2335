#!/usr/bin/env bash
# Fill fuzz/corpus/<target>/ with seeds from testdata/ (the rule fixtures
# and the clean examples), so each fuzzer starts from real files of its
# format. `extract` and `pipeline` take a first byte that picks the syntax
# (see src/robustness.rs `pick_syntax`). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
c=fuzz/corpus
mkdir -p $c/{yaml,jsonc,nginx_lexer,nginx,properties,ini,rust,java,config,extract,pipeline,link,numbers}
seed() { # target file [pick-byte]
  local name; name=$(printf '%s' "$2" | sha1sum | cut -c1-16)
  if [ $# -eq 3 ]; then
    { printf "\\x$(printf %02x "$3")"; cat "$2"; } > "$c/$1/$name"
  else
    cp "$2" "$c/$1/$name"
  fi
}
while IFS= read -r -d '' f; do
  case "$f" in
    *.yaml|*.yml) seed yaml "$f"; seed extract "$f" 0; seed pipeline "$f" 0 ;;
    *.json) seed yaml "$f"; seed jsonc "$f"; seed extract "$f" 4; seed pipeline "$f" 4 ;;
    *.properties) seed properties "$f"; seed extract "$f" 5; seed pipeline "$f" 5 ;;
    *.conf) seed nginx "$f"; seed nginx_lexer "$f"; seed extract "$f" 8; seed pipeline "$f" 8 ;;
    *.rs) seed rust "$f"; seed extract "$f" 9; seed pipeline "$f" 9 ;;
    *.java) seed java "$f"; seed extract "$f" 10; seed pipeline "$f" 10 ;;
    *.ini|*.config|*.credentials|*/config|*/credentials) seed ini "$f"; seed extract "$f" 6; seed pipeline "$f" 6 ;;
    */pom.xml) seed extract "$f" 17; seed pipeline "$f" 17 ;;
    */libs.versions.toml) seed config "$f"; seed extract "$f" 19; seed pipeline "$f" 19 ;;
    */Cargo.lock) seed extract "$f" 20; seed pipeline "$f" 20 ;;
    */queue.xml) seed extract "$f" 12; seed pipeline "$f" 12 ;;
    *.vcl) seed extract "$f" 11; seed pipeline "$f" 11 ;;
    *.tf) seed extract "$f" 13; seed pipeline "$f" 13 ;;
    *.py) seed extract "$f" 14; seed pipeline "$f" 14 ;;
    *.cs) seed extract "$f" 15; seed pipeline "$f" 15 ;;
    *.go) seed extract "$f" 16; seed pipeline "$f" 16 ;;
    *.gradle|*.gradle.kts) seed extract "$f" 18; seed pipeline "$f" 18 ;;
    *.csproj|*.props) seed extract "$f" 21; seed pipeline "$f" 21 ;;
    *.toml) seed config "$f" ;;
  esac
done < <(find testdata -type f -print0)
while IFS= read -r -d "" f; do seed config "$f"; done < <(find . -name .retrylint.toml -not -path "./target/*" -not -path "./fuzz/*" -print0)
# `link`: each multi-file fixture as one input, its files separated by
# "\n\0\n", each led by the byte that picks its name (`LINKED` in
# src/robustness.rs).
pick() {
  case "$1" in
    */nginx.conf) echo 0 ;;
    */snippets/*) echo 3 ;;
    *.conf) echo 1 ;;
    */application*) echo 6 ;;
    *configmap*|*controller*) echo 5 ;;
    *.yaml|*.yml) echo 4 ;;
    *.java) if [ "$java_seen" -eq 0 ]; then echo 7; else echo 8; fi ;;
    *) echo 9 ;;
  esac
}
while IFS= read -r -d '' d; do
  name=$(printf '%s' "$d" | sha1sum | cut -c1-16)
  out="$c/link/$name"
  : > "$out"
  first=1
  java_seen=0
  while IFS= read -r -d '' f; do
    [ $first -eq 1 ] || printf '\n\0\n' >> "$out"
    first=0
    printf "\\x$(printf %02x "$(pick "$f")")" >> "$out"
    case "$f" in *.java) java_seen=1 ;; esac
    cat "$f" >> "$out"
  done < <(find "$d" -type f -print0 | sort -z | head -z -n 8)
done < <(find testdata/rules -mindepth 3 -maxdepth 3 -type d -print0)
# `numbers`: a byte that picks the setting (`SETTINGS` in
# src/robustness/numbers.rs), then a value: a few extremes for each.
settings=$(grep -c '^    Setting {' src/robustness/numbers.rs)
for ((i = 0; i < settings; i++)); do
  for v in 3 0 -1 2147483647 4294967295 18446744073709551616 1e309 NaN 9999999999999999s 1ms; do
    { printf "\\x$(printf %02x "$i")"; printf '%s' "$v"; } > "$c/numbers/$i-$(printf '%s' "$v" | sha1sum | cut -c1-8)"
  done
done
for t in $c/*; do echo "$(ls "$t" | wc -l) seeds in $t"; done
