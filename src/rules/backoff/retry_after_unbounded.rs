//! RL208 retry-after-unbounded: a retry that waits exactly what the server
//! says (`Retry-After`, `grpc-retry-pushback-ms`, `x-ms-retry-after-ms`)
//! without a cap, or without a random wait on top: every client told
//! "come back in 30 s" comes back in the same second; or a retry that
//! ignores the header on 429 and 503 where its library could wait it.
//! Registered by
//! rules/RL208-retry-after-unbounded.md.

use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || p.use_of.is_some() {
        return;
    }
    let Some(d) = &p.server_delay else {
        return;
    };
    // The other half: the retry never waits the header, though its
    // library can.
    if let Some(fix) = &d.value.ignored {
        let default = if d.is_default() { " (the default)" } else { "" };
        e.emit(
            d.span,
            format!(
                "{} retries 429 and 503 but ignores the server's `{}`{default}: {} waits its own back-off",
                p.describe(),
                d.value.header,
                d.value.by
            ),
            format!(
                "{fix}, then cap that wait and add a random wait on top, so that the client neither comes back before the server can take it nor with every other client"
            ),
        );
        return;
    }
    let what = match (d.value.capped, d.value.jittered) {
        (true, true) => return,
        (false, false) => "with no cap and no jitter",
        (false, true) => "with no cap",
        (true, false) => "with no jitter on top",
    };
    let default = if d.is_default() { " (the default)" } else { "" };
    let mut fixes = Vec::new();
    if !d.value.capped {
        fixes.push("cap it (`min(wait, maxWait)`, a minute or two)");
    }
    if !d.value.jittered {
        fixes.push("add a random wait on top of it (up to half of it)");
    }
    e.emit(
        d.span,
        format!(
            "{} waits what the server says in `{}` as it is{default}, {what}",
            p.describe(),
            d.value.header
        ),
        format!(
            "{} takes the server's wait: {}, so that clients told the same time do not all come back at once",
            d.value.by,
            fixes.join(" and ")
        ),
    );
}
