//! jpillora/backoff: a `backoff.Backoff{Min, Max, Factor, Jitter}` counter
//! whose `Duration()` a hand-written loop waits (`time.Sleep(b.Duration())`,
//! or `w := b.Duration()` then `<-time.After(w)`). Read as the loop's
//! delay: exponential from `Min` by `Factor` up to `Max`, randomised when
//! `Jitter` is true. Defaults: [`crate::systems::go`].

use super::super::eval;
use super::super::{Ctx, MAX_DEPTH, Pkg, composite, field, keyed, span};
use crate::model::{CapOrder, Delay, Jitter};
use crate::source::Span;
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// What a jpillora/backoff counter makes a loop wait.
pub struct Wait {
    pub delay: Delay,
    pub jitter: Jitter,
    pub cap_order: CapOrder,
    /// The counter's literal, where the settings are written.
    pub at: Span,
}

/// The wait of `arg` (the argument of `time.Sleep` or `time.After`) when
/// it is a jpillora/backoff counter's `Duration()`, directly or through a
/// variable bound to it.
pub fn wait(ctx: &Ctx<'_>, arg: Node<'_>) -> Option<Wait> {
    if !ctx.imports(Pkg::Jpillora) {
        return None;
    }
    let call = resolve(ctx, arg)?;
    if call.kind_name() != "call_expression" {
        return None;
    }
    let f = field(call, "function")?;
    if f.kind_name() != "selector_expression" || ctx.text(field(f, "field")?) != "Duration" {
        return None;
    }
    let counter = field(f, "operand")?;
    let lit = composite(resolve(ctx, counter)?)?;
    let ty = field(lit, "type")?;
    let (pkg, name) = ctx.text(ty).split_once('.')?;
    if name != "Backoff" || ctx.pkg(pkg) != Some(Pkg::Jpillora) {
        return None;
    }
    let (mut min, mut max, mut factor, mut jitter) = (
        Some(sys::JPILLORA_MIN),
        Some(sys::JPILLORA_MAX),
        Some(sys::JPILLORA_FACTOR),
        Some(false),
    );
    for (k, v) in keyed(ctx, lit) {
        match k {
            // A zero (or negative) value is the default.
            "Min" => min = eval::duration(ctx, v).map(|d| non_zero(d, sys::JPILLORA_MIN)),
            "Max" => max = eval::duration(ctx, v).map(|d| non_zero(d, sys::JPILLORA_MAX)),
            "Factor" => {
                factor =
                    eval::float(ctx, v).map(|f| if f > 0.0 { f } else { sys::JPILLORA_FACTOR });
            }
            "Jitter" => {
                jitter = match ctx.text(v) {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    let delay = match (min, max, factor) {
        // `min >= max` returns `Max` every time.
        (Some(min), Some(max), _) if min >= max => Delay::Fixed { delay: max },
        (Some(base), Some(cap), Some(multiplier)) if multiplier > 1.0 => Delay::Exponential {
            base,
            multiplier,
            cap: Some(cap),
        },
        (Some(base), Some(_), Some(_)) => Delay::Fixed { delay: base },
        _ => Delay::Custom,
    };
    let jitter = match jitter {
        // Uniform in `[Min, d]`: the whole delay above the floor is
        // random, full jitter over `Min`.
        Some(true) => Jitter::Full,
        Some(false) => Jitter::None,
        None => Jitter::Unknown,
    };
    Some(Wait {
        delay,
        jitter,
        cap_order: CapOrder::AfterJitter,
        at: span(lit),
    })
}

fn non_zero(d: std::time::Duration, default: std::time::Duration) -> std::time::Duration {
    if d.is_zero() { default } else { d }
}

/// An identifier followed to the value bound to it (a few steps).
fn resolve<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        if cur.kind_name() != "identifier" {
            return Some(cur);
        }
        cur = ctx.binding(ctx.text(cur), cur.start_byte())?;
    }
    None
}
