//! Counters of the context coder's work, for measuring where decisions go (cargo feature `decision-counts`, off in
//! every shipped build: without it `add` is empty and the counters are never touched). `examples/native_decode`
//! prints them per file when the feature is on:
//! `cargo run --release --features decision-counts --example native_decode -- 1 file.binjs`.

#[cfg(feature = "decision-counts")]
use core::sync::atomic::{AtomicU64, Ordering};

/// Binary decisions coded or decoded (every kind, integer, text and float decision).
pub const DECISIONS: usize = 0;
/// Node kinds coded (nulls included); the next counter holds the decisions spent on them (see `value`).
pub const KINDS: usize = 1;
/// Binary decisions spent on node kinds.
pub const KIND_DECISIONS: usize = KINDS + 1;
/// Integers coded per category (string references, list lengths, flags, number tags, differences, text lengths),
/// each as two counters from `UINTS + 2 × category`: values, decisions.
pub const UINTS: usize = 3;
/// How many counters there are.
pub const COUNTERS: usize = UINTS + 2 * UINT_CATEGORIES.len();
/// The integer categories, in counter order.
pub const UINT_CATEGORIES: [&str; 6] = ["string", "length", "flag", "number", "delta", "text"];

#[cfg(feature = "decision-counts")]
static COUNTS: [AtomicU64; COUNTERS] = [const { AtomicU64::new(0) }; COUNTERS];

/// Adds `n` to counter `counter`.
#[cfg(feature = "decision-counts")]
#[inline(always)]
pub fn add(counter: usize, n: u64) {
    if let Some(count) = COUNTS.get(counter) {
        count.fetch_add(n, Ordering::Relaxed);
    }
}

/// Adds `n` to counter `counter` (nothing without the feature).
#[cfg(not(feature = "decision-counts"))]
#[inline(always)]
pub fn add(_counter: usize, _n: u64) {}

/// The current count of `counter`.
#[cfg(feature = "decision-counts")]
#[inline(always)]
pub fn get(counter: usize) -> u64 {
    COUNTS
        .get(counter)
        .map_or(0, |count| count.load(Ordering::Relaxed))
}

/// The current count of `counter` (0 without the feature).
#[cfg(not(feature = "decision-counts"))]
#[inline(always)]
pub fn get(_counter: usize) -> u64 {
    0
}

/// Every counter's value, reset to zero.
#[cfg(feature = "decision-counts")]
pub fn take() -> [u64; COUNTERS] {
    COUNTS
        .each_ref()
        .map(|count| count.swap(0, Ordering::Relaxed))
}

/// Every counter's value (zeros without the feature).
#[cfg(not(feature = "decision-counts"))]
pub fn take() -> [u64; COUNTERS] {
    [0; COUNTERS]
}

/// Counts one value coded under `counter` and, in the counter after it, the decisions spent on it: those since
/// `decisions_before` (`get(DECISIONS)` read before the value was coded). Every value counter is followed by its
/// decisions counter (`KINDS`, and each integer category's from `UINTS`).
#[inline(always)]
pub fn value(counter: usize, decisions_before: u64) {
    add(counter, 1);
    add(counter + 1, get(DECISIONS) - decisions_before);
}

/// The counter index of an integer category's values (its decisions follow), if it is one; always
/// `None` without the feature, so no build that ships compares category names per value.
#[inline(always)]
pub fn uint_counter(category: &str) -> Option<usize> {
    if !cfg!(feature = "decision-counts") {
        return None;
    }
    UINT_CATEGORIES
        .iter()
        .position(|&known| known == category)
        .map(|i| UINTS + 2 * i)
}
