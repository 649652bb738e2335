//! RL201 missing-backoff: attempts follow each other with no delay.

use crate::model::{AttemptCount, Delay, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// The most attempts of a conflict retry that goes round at once without
/// a finding (client-go's `retry.DefaultRetry` for `RetryOnConflict`
/// tries 5 times, 10 ms apart).
const CONFLICT_ATTEMPTS: u64 = 10;

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // A write retried a few times on a conflict alone (read again, write
    // again) needs no delay: it waits for the other writer, not for a
    // service to come back. Hundreds of passes (Square's 2017 Multipass
    // transaction retried 500 times) hammer the store still.
    let few_conflicts = super::conflicts_only(&p.retry_on.value)
        && matches!(p.attempts.value.count, AttemptCount::Finite(n) if n <= CONFLICT_ATTEMPTS);
    if !p.retries()
        || p.platform_backoff
        || p.delay.provenance == Provenance::Inherited
        || few_conflicts
    {
        return;
    }
    let immediate = match &p.delay.value {
        Delay::None => true,
        Delay::Fixed { delay } => delay.is_zero(),
        Delay::Exponential { base, .. }
        | Delay::Linear { base, .. }
        | Delay::Quadratic { base, .. } => base.is_zero(),
        Delay::Fibonacci { first, second, .. } => first.is_zero() && second.is_zero(),
        _ => false,
    };
    if !immediate {
        return;
    }
    let written = ctx.file.slice(p.delay.span).trim();
    // Only a value from the file goes in backticks: the delay as written,
    // else the first line of the retry as written (`for attempt := 0;
    // attempt < 3; attempt++`, `Retry(status=0)`), else of its attempts,
    // else nothing.
    let first_line = |span| {
        let t = ctx.file.slice(span).trim();
        let line = t.lines().next().unwrap_or("").trim();
        closed(line.trim_end_matches(['{', ':']).trim_end())
    };
    let retry = [p.span, p.attempts.span]
        .into_iter()
        .map(first_line)
        .find(|l| !l.is_empty() && l.len() < 80 && !l.contains('`'));
    let how = if p.delay.is_written() && !written.is_empty() && written.len() < 80 {
        format!(" (`{written}`)")
    } else if let Some(r) = retry {
        format!(" (nothing waits between the attempts of `{r}`)")
    } else {
        String::new()
    };
    e.emit(
        p.delay.span,
        format!(
            "{} retries at once, with no delay between attempts{how}",
            p.describe()
        ),
        format!(
            "wait between attempts, growing and randomised: {}",
            p.system.spec().fixes.jitter
        ),
    );
}

/// A first line that leaves a call open (`Retry(retryCount, (exception,
/// retryAttempt, context) =>`, its lambda on the lines below) cut to its
/// first argument and closed: `Retry(retryCount, ..)`. A line whose
/// brackets all close is kept as it is.
fn closed(line: &str) -> String {
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' => open.push((i, ')')),
            '[' => open.push((i, ']')),
            ')' | ']' => {
                open.pop();
            }
            _ => {}
        }
    }
    let Some(&(at, close)) = open.first() else {
        return line.to_string();
    };
    // The first argument: up to the first comma at the open bracket's own
    // depth.
    let mut depth = 0usize;
    let mut quoted = false;
    let mut end = None;
    for (i, c) in line[at + 1..].char_indices() {
        match c {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                end = Some(at + 1 + i);
                break;
            }
            _ => {}
        }
    }
    match end {
        Some(e) => format!("{}, ..{close}", line[..e].trim_end()),
        None => format!("{}..{close}", &line[..=at]),
    }
}

#[cfg(test)]
mod tests {
    use super::closed;

    #[test]
    fn an_open_call_is_cut_to_its_first_argument() {
        assert_eq!(
            closed("Retry(retryCount, (exception, retryAttempt, context) =>"),
            "Retry(retryCount, ..)"
        );
        assert_eq!(closed("WaitAndRetryAsync((n) =>"), "WaitAndRetryAsync(..)");
        assert_eq!(closed("call(f(a, b), [1, 2],"), "call(f(a, b), ..)");
        assert_eq!(closed("x = retry(\"a(,\", y,"), "x = retry(\"a(,\", ..)");
    }

    #[test]
    fn a_closed_line_is_kept() {
        for l in [
            "for attempt := 0; attempt < 3; attempt++",
            "Retry(status=0)",
            "while (true)",
            "loop",
        ] {
            assert_eq!(closed(l), l);
        }
    }
}
