#!/usr/bin/env bash
# Scaffold a system: docs/architecture.md, "Add a system", step by step.
#
#   scripts/new-system.sh name          # name: lowercase snake_case, e.g. acme_retry
#
# Writes, in the repository this script belongs to (or $RETRYLINT_ROOT), a
# hypothetical YAML system with one retry setting (`attempts`) under a
# top-level `<name>:` key:
#   src/systems/<name>/mod.rs     what the system is (label, layer, fix
#                                 texts), its default with its upstream
#                                 source, and its document reader with its
#                                 sniff word (`DOC_READERS`)
#   src/systems/<name>/extract.rs its reader: one YAML document in, facts out
#   the registry line `pub mod <name>;` (src/systems/mod.rs): build.rs makes
#   the registry from the declared folders, and the `// system: <Name>`
#   line above `pub static SPEC` in the folder's mod.rs makes the
#   `System::<Name>` variant, its arm in `System::spec` and its reader's
#   entry
#   fixtures: testdata/rules/RL206/{err,ok}/<prefix>-attempts.yml, and the
#   format <prefix> added to RL206's doc (`formats:`)
# Then
#   INSTA_UPDATE=always cargo test --test rules <prefix>   (and read the snapshot)
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 name   (lowercase snake_case, e.g. acme_retry)" >&2; exit 2; }
name=$1
[[ $name =~ ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ ]] || {
  echo "\`$name\` is not a lowercase snake_case name" >&2; exit 2; }
root=${RETRYLINT_ROOT:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"

# acme_retry -> AcmeRetry (the variant), "Acme Retry" (the label), acmeretry
# (the fixture prefix: a format name has no `-` or `_`).
variant=$(echo "$name" | awk -F_ '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i, 1, 1)), substr($i, 2) }')
label=$(echo "$name" | awk -F_ '{ for (i = 1; i <= NF; i++) printf "%s%s%s", (i > 1 ? " " : ""), toupper(substr($i, 1, 1)), substr($i, 2) }')
prefix=${name//_/}
folder="src/systems/$name"
sys_rs="$folder/mod.rs"
ext_rs="$folder/extract.rs"
rl206=$(ls rules/RL206-*.md)
for p in "$folder" "src/systems/$name.rs" "src/extract/$name.rs" "src/extract/$name"; do
  [ ! -e "$p" ] || { echo "$p exists" >&2; exit 1; }
done
if grep -Eqr "^// system: $variant( |$)" src/systems; then
  echo "System::$variant exists" >&2; exit 1
fi
if grep -q "^formats: .*[[ ]$prefix[],]" "$rl206"; then
  echo "the format $prefix exists" >&2; exit 1
fi

# `pub mod name;` in order among a file's first block of `pub mod` lines.
insert_mod() {
  local file=$1
  awk -v m="$name" '
    !done && /^pub mod [a-z0-9_]+;$/ {
      seen = 1
      cur = $3; sub(/;$/, "", cur)
      if (cur > m) { print "pub mod " m ";"; done = 1 }
    }
    !done && seen && !/^pub mod / { print "pub mod " m ";"; done = 1 }
    { print }
  ' "$file" >"$file.new" && mv "$file.new" "$file"
}

mkdir -p "$folder"
cat >"$sys_rs" <<RS
//! $label (scaffolded by scripts/new-system.sh): what the system is, its
//! defaults, each with the upstream source it comes from, and its reader
//! (docs/architecture.md, "The system registry").

pub mod extract;

use super::SystemSpec;
use crate::extract::DocReader;
use crate::model::{AttemptCount, Attempts, Layer, Located};
use crate::source::Span;

/// Label, layer and fix texts. \`SystemSpec::plain\` has the generic fix
/// texts; write the system's own with \`SystemSpec { fixes: Fixes { .. }, .. }\`
/// (see \`super::resilience4j::SPEC\`).
// system: $variant - $label (scaffolded by scripts/new-system.sh).
pub static SPEC: SystemSpec = SystemSpec::plain("$label", Layer::Application);

/// Attempts when a \`$name\` block writes no \`attempts\`, the first call
/// included. Source: the upstream file and constant this comes from
/// (e.g. \`RetryConfig.DEFAULT_MAX_ATTEMPTS\`), and its version.
pub const DEFAULT_ATTEMPTS: u64 = 3;

/// The default attempts of a block that writes none, at \`anchor\`.
pub fn default_attempts(anchor: Span) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count: AttemptCount::Finite(DEFAULT_ATTEMPTS),
            written_as: format!("no attempts: $label default of {DEFAULT_ATTEMPTS}"),
        },
        anchor,
    )
}

/// Its document reader: a file is offered to it when it holds the sniff
/// word; \`order\` places it among the other readers (after them).
pub const DOC_READERS: &[DocReader] = &[DocReader {
    name: "$name",
    needles: &["$name"],
    read: extract::extract,
    order: 1000,
}];
RS

cat >"$ext_rs" <<RS
//! $label (scaffolded by scripts/new-system.sh): a YAML document whose
//! top-level \`$name\` block holds one retry setting, \`attempts\` (total
//! attempts, the first call included). Defaults: [\`crate::systems::$name\`].

use super as system;
use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts, check_yaml_keys};
use crate::model::{AttemptCount, Attempts, Located, RetryPolicy, System};

/// The settings a \`$name\` block may hold; any other is RL901.
const KEYS: &[&str] = &["attempts"];

/// Claims a document with a top-level \`$name\` block.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let Some(block) = ctx.root().get("$name") else {
        return false;
    };
    check_yaml_keys(block, KEYS, "a \`$name\` block", facts);
    let attempts = match block.get("attempts") {
        Some(v) => match v.as_i64().filter(|n| *n >= 1) {
            Some(n) => Located::written(
                Attempts {
                    count: AttemptCount::Finite(n as u64),
                    written_as: format!("attempts: {n}"),
                },
                v.span(),
            ),
            None => {
                let text = ctx.text.get(v.span().start..v.span().end).unwrap_or("");
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "attempts",
                    text,
                    "it counts attempts: a whole number, 1 or more",
                ));
                return true;
            }
        },
        None => system::default_attempts(block.span()),
    };
    facts
        .policies
        .push(RetryPolicy::new(System::$variant, block.span(), attempts));
    true
}
RS

# The registry line: the folder's module.
insert_mod src/systems/mod.rs

# Fixtures: RL206 (more attempts than the threshold, 5) fires on the
# written setting; the system's default stays below it.
mkdir -p testdata/rules/RL206/err testdata/rules/RL206/ok
cat >"testdata/rules/RL206/err/$prefix-attempts.yml" <<YML
# $label: ten attempts, above the threshold of 5.
$name:
  attempts: 10
YML
cat >"testdata/rules/RL206/ok/$prefix-attempts.yml" <<YML
# $label: three attempts.
$name:
  attempts: 3
YML
sed -i "s/^formats: \[\(.*\)\]$/formats: [\1, $prefix]/" "$rl206"

cat <<MSG
created $folder/ ($sys_rs, $ext_rs)
registered System::$variant, its spec and its reader (one line: pub mod $name; in src/systems/mod.rs)
created testdata/rules/RL206/{err,ok}/$prefix-attempts.yml; $rl206 names the format $prefix
next:
  INSTA_UPDATE=always cargo test --test rules $prefix   # writes the RL206 snapshot: read it
MSG
