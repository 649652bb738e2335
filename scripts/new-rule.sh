#!/usr/bin/env bash
# Scaffold a rule: docs/architecture.md, "Add a rule", step by step.
#
#   scripts/new-rule.sh RLnnn name category
#   scripts/new-rule.sh RL207 backoff-without-cap backoff
#
# Writes, in the repository this script belongs to (or $RETRYLINT_ROOT):
#   rules/RLnnn-name.md                       the doc, which registers the rule
#   src/rules/<category>/<name_>.rs           the check (a policy rule)
#   one `pub mod <name_>;` line in src/rules/<category>/mod.rs
#   testdata/rules/RLnnn/err/resilience4j-example.yml   must fire
#   testdata/rules/RLnnn/ok/resilience4j-example.yml    must not
# The check is an example that fires on every written attempt count:
# replace it, the doc's text and the fixtures with the rule's own. Then
#   INSTA_UPDATE=always cargo test --test rules RLnnn   (and read the snapshot)
#   bash scripts/update-rules-table.sh                  (the README table)
set -euo pipefail

usage() {
  echo "usage: $0 RLnnn name category" >&2
  echo "  category: conditions (RL1nn) backoff (RL2nn) timeouts (RL3nn) paths (RL4nn)" >&2
  echo "            idempotency (RL5nn) budget (RL6nn) settings (RL9nn)" >&2
  exit 2
}
[ $# -eq 3 ] || usage
code=$1 name=$2 category=$3
root=${RETRYLINT_ROOT:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"

case $category in
  conditions) digit=1 ;; backoff) digit=2 ;; timeouts) digit=3 ;; paths) digit=4 ;;
  idempotency) digit=5 ;; budget) digit=6 ;; settings) digit=9 ;;
  *) echo "unknown category \`$category\`" >&2; usage ;;
esac
[[ $code =~ ^RL[1-9][0-9][0-9]$ ]] || { echo "\`$code\` is not a code like RL207" >&2; exit 2; }
[ "${code:2:1}" = "$digit" ] || { echo "$code is not a $category code (RL${digit}nn)" >&2; exit 2; }
[[ $name =~ ^[a-z]+(-[a-z]+)*$ ]] || { echo "\`$name\` is not a kebab-case name" >&2; exit 2; }

module=${name//-/_}
doc="rules/$code-$name.md"
src="src/rules/$category/$module.rs"
mod_rs="src/rules/$category/mod.rs"
fixtures="testdata/rules/$code"
if compgen -G "rules/$code-*.md" >/dev/null; then
  echo "$code is taken: $(ls rules/"$code"-*.md)" >&2; exit 1
fi
if compgen -G "rules/RL*-$name.md" >/dev/null; then
  echo "the name $name is taken: $(ls rules/RL*-"$name".md)" >&2; exit 1
fi
for p in "$src" "$fixtures"; do
  [ ! -e "$p" ] || { echo "$p exists" >&2; exit 1; }
done
[ -f "$mod_rs" ] || { echo "$mod_rs is missing" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

cat >"$doc" <<DOC
---
code: $code
name: $name
category: $category
severity: warning
since: $version
formats: [resilience4j]
summary: one line, lowercase, no trailing period, what the rule flags
---
# $code $name

## What it does
Flags a retry policy that ... (what the rule looks at, in the words of
the systems it reads, and what it leaves alone).

## Why is this bad?
What goes wrong in production because of it, and how badly.

## Example
\`\`\`yaml
resilience4j.retry:
  instances:
    payments:
      maxAttempts: 3
\`\`\`

## Use instead
\`\`\`yaml
resilience4j.retry:
  instances:
    payments:
      maxAttempts: 1
\`\`\`

## Options
None. Select or ignore it with \`--select $code\` / \`--ignore $code\`.

## References
- The upstream source of every default the rule relies on (file and
  constant), e.g. Resilience4j \`RetryConfig.DEFAULT_MAX_ATTEMPTS\` (3).
DOC

cat >"$src" <<RS
//! $code $name: one line saying what the rule flags (docs/architecture.md,
//! "Add a rule"). Registered by rules/$code-$name.md.

use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // The example condition (every written attempt count of a policy that
    // retries): replace it with the rule's own.
    if !p.retries() || !p.attempts.is_written() {
        return;
    }
    e.emit(
        p.attempts.span,
        format!(
            "{} makes \`{}\` attempts",
            p.describe(),
            p.attempts.value.written_as
        ),
        // The fix in the system's own words: p.system.spec().fixes.
        "say what to write instead",
    );
}
RS

# The module line, in order among the category's `pub mod` lines.
awk -v m="$module" '
  !done && /^pub mod [a-z0-9_]+;$/ {
    seen = 1
    cur = $3; sub(/;$/, "", cur)
    if (cur > m) { print "pub mod " m ";"; done = 1 }
  }
  !done && seen && !/^pub mod / { print "pub mod " m ";"; done = 1 }
  { print }
  END { if (!done) print "pub mod " m ";" }
' "$mod_rs" >"$mod_rs.new" && mv "$mod_rs.new" "$mod_rs"

mkdir -p "$fixtures/err" "$fixtures/ok"
cat >"$fixtures/err/resilience4j-example.yml" <<'YML'
# Must make the rule fire: replace with the smallest real case.
resilience4j.retry:
  instances:
    payments:
      maxAttempts: 3
YML
cat >"$fixtures/ok/resilience4j-example.yml" <<'YML'
# Must not make the rule fire: the fixed version of the err fixture.
resilience4j.retry:
  instances:
    payments:
      maxAttempts: 1
YML

cat <<MSG
created $doc
created $src (and its line in $mod_rs)
created $fixtures/err/resilience4j-example.yml, $fixtures/ok/resilience4j-example.yml
next:
  INSTA_UPDATE=always cargo test --test rules $code   # writes tests/snapshots/rules__${code}__err__*.snap: read it
  bash scripts/update-rules-table.sh                  # the README rules table
MSG
