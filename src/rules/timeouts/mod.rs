//! Rules of the `timeouts` category (RL3xx).

pub mod missing_per_try_timeout;
pub mod missing_timeout;
pub mod nested_timeout_inversion;
pub mod retries_exceed_timeout;
pub mod retry_delay_past_redelivery;

/// `d` rounded down to a value people write: whole seconds from 10 s,
/// tenths of a second from 1 s, hundredths below.
pub(super) fn round_down(d: std::time::Duration) -> std::time::Duration {
    let ms = d.as_millis() as u64;
    let step = match ms {
        10_000.. => 1000,
        1000.. => 100,
        _ => 10,
    };
    std::time::Duration::from_millis(ms / step * step)
}
