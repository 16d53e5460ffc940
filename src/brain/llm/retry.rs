//! When to try a failed request again, and how long to wait first.
//!
//! Rate limits (429), server errors (5xx) and refused connections are retried
//! up to `llm.max_retries` times. The wait doubles from a base delay with
//! jitter (so clients that failed together do not return together), unless
//! the server says how long to wait (`Retry-After`, in seconds or as an HTTP
//! date, or `retry-after-ms`); that is honoured up to a cap, so a server
//! asking for an hour cannot freeze a turn. Pure apart from the jitter.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use jiff::Timestamp;

/// The longest wait a server's `Retry-After` can impose.
pub const RETRY_AFTER_CAP: Duration = Duration::from_secs(30);

/// The first backoff delay (doubled on each retry).
pub const BASE_DELAY: Duration = Duration::from_millis(500);

/// The longest backoff delay without a `Retry-After`.
pub const MAX_DELAY: Duration = Duration::from_secs(8);

/// How failed requests are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first backoff delay.
    pub base_delay: Duration,
}

impl RetryPolicy {
    /// The policy for `max_retries` with the default delays.
    pub fn new(max_retries: u32) -> Self {
        Self {
            max_retries,
            base_delay: BASE_DELAY,
        }
    }

    /// The wait before retry number `retry` (0-based): the server's
    /// `Retry-After` when it sent one (capped), else exponential backoff with
    /// jitter between half and all of the doubled delay.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(RETRY_AFTER_CAP);
        }
        let doubled = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry))
            .min(MAX_DELAY.max(self.base_delay));
        doubled.mul_f64(0.5 + 0.5 * jitter())
    }
}

/// A number in `[0, 1)` that differs from call to call.
fn jitter() -> f64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// The wait a server asked for: `retry-after-ms`, or `Retry-After` as
/// seconds or an HTTP date (relative to `now`).
pub fn retry_after(ms: Option<&str>, header: Option<&str>, now: Timestamp) -> Option<Duration> {
    if let Some(ms) = ms.and_then(|v| v.trim().parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    let value = header?.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let at = jiff::fmt::rfc2822::DateTimeParser::new()
        .parse_timestamp(value)
        .ok()?;
    let wait = at.duration_since(now);
    Some(Duration::try_from(wait).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        let p = RetryPolicy::new(5);
        for retry in 0..6 {
            let full = BASE_DELAY.saturating_mul(1 << retry).min(MAX_DELAY);
            for _ in 0..20 {
                let d = p.delay(retry, None);
                assert!(
                    d >= full / 2 && d <= full,
                    "retry {retry}: {d:?} vs {full:?}"
                );
            }
        }
        let spread: std::collections::BTreeSet<_> = (0..20).map(|_| p.delay(3, None)).collect();
        assert!(spread.len() > 1, "jitter varies the delay");
    }

    #[test]
    fn the_servers_wait_wins_but_is_capped() {
        let p = RetryPolicy::new(3);
        assert_eq!(
            p.delay(0, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert_eq!(p.delay(0, Some(Duration::from_secs(3600))), RETRY_AFTER_CAP);
    }

    #[test]
    fn retry_after_reads_seconds_dates_and_milliseconds() {
        let now: Timestamp = "2026-01-13T10:00:00Z".parse().unwrap();
        let secs = |s| retry_after(None, Some(s), now);
        assert_eq!(secs("7"), Some(Duration::from_secs(7)));
        assert_eq!(secs(" 1.5 "), Some(Duration::from_millis(1500)));
        assert_eq!(
            secs("Tue, 13 Jan 2026 10:00:20 GMT"),
            Some(Duration::from_secs(20))
        );
        assert_eq!(secs("Tue, 13 Jan 2026 09:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(secs("soon"), None);
        assert_eq!(secs("-3"), None);
        assert_eq!(
            retry_after(Some("250"), Some("9"), now),
            Some(Duration::from_millis(250))
        );
        assert_eq!(retry_after(None, None, now), None);
    }
}
