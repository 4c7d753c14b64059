//! A record of every node kind the context coder codes: its three contexts, its value and the bits the binary
//! mixed coding spent on it (cargo feature `value-trace`, off in every shipped build: without it nothing is
//! recorded and `mixed_cost` is empty). `examples/kind_models` replays the record through multi-symbol models, to
//! measure what coding a kind as one symbol instead of seven mixed decisions would cost in size (issue #17).

/// One node kind as the context coder saw it.
#[derive(Clone, Copy, Debug)]
pub struct KindEvent {
    /// (interface, field) context.
    pub coarse: u32,
    /// The (parent's field, interface, field) context's model.
    pub fine: u32,
    /// The (interface, field, previous value) context's model; equal to `fine` when they are one.
    pub follower: u32,
    /// The kind (< 128).
    pub value: u32,
    /// Bits the mixed binary decisions of this kind cost: the sum of −log2 of each coded bit's probability.
    pub bits: f64,
}

#[cfg(feature = "value-trace")]
mod recording {
    use super::KindEvent;
    use std::cell::{Cell, RefCell};

    thread_local! {
        static COST_BITS: Cell<f64> = const { Cell::new(0.0) };
        static KINDS: RefCell<Vec<KindEvent>> = const { RefCell::new(Vec::new()) };
    }

    /// Adds the cost of one mixed decision.
    pub fn mixed_cost(bit: bool, p1: u32) {
        let p = f64::from(if bit { p1 } else { 65_536 - p1 }) / 65_536.0;
        COST_BITS.with(|cost| cost.set(cost.get() - p.log2()));
    }

    /// The mixed decisions' cost so far (bits).
    pub fn cost_so_far() -> f64 {
        COST_BITS.with(Cell::get)
    }

    /// Records one kind.
    pub fn kind(event: KindEvent) {
        KINDS.with(|kinds| kinds.borrow_mut().push(event));
    }

    /// The kinds recorded since the last call.
    pub fn take_kinds() -> Vec<KindEvent> {
        KINDS.with(|kinds| std::mem::take(&mut *kinds.borrow_mut()))
    }
}

#[cfg(feature = "value-trace")]
pub use recording::{cost_so_far, kind, mixed_cost, take_kinds};

/// Adds the cost of one mixed decision (nothing without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn mixed_cost(_bit: bool, _p1: u32) {}

/// The mixed decisions' cost so far (0 without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn cost_so_far() -> f64 {
    0.0
}

/// Records one kind (nothing without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn kind(_event: KindEvent) {}

/// The kinds recorded since the last call (none without the feature).
#[cfg(not(feature = "value-trace"))]
pub fn take_kinds() -> Vec<KindEvent> {
    Vec::new()
}
