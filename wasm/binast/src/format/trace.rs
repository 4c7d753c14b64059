//! A record of every node kind and integer the context coder codes: its three contexts, its value and the bits the
//! binary mixed coding spent on it (cargo feature `value-trace`, off in every shipped build: without it nothing is
//! recorded and `mixed_cost` is empty). `examples/value_models` replays the record through multi-symbol models, to
//! measure what coding a value as one symbol instead of several mixed decisions would cost in size (issue #17).

#[cfg(not(feature = "value-trace"))]
use alloc::vec::Vec;

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

/// One integer as the context coder saw it (`Models::uint`; flags' integers are not recorded).
#[derive(Clone, Copy, Debug)]
pub struct UintEvent {
    /// Its category: "string", "length", "number", "delta", "text", ...
    pub category: &'static str,
    /// (interface, field) context.
    pub coarse: u32,
    /// The fine context's integer model.
    pub fine: u32,
    /// The follower context's integer model.
    pub follower: u32,
    /// The integer.
    pub value: u32,
    /// Bits the head walk (values below 15, or the escape) cost.
    pub head_bits: f64,
    /// Bits the length walk of an escaped value cost (0 when not escaped).
    pub length_bits: f64,
    /// Bits the mixed top bits after the length cost (the raw bits below them are not counted).
    pub top_bits: f64,
}

#[cfg(feature = "value-trace")]
mod recording {
    use super::{KindEvent, UintEvent};
    use core::cell::{Cell, RefCell};

    thread_local! {
        static COST_BITS: Cell<f64> = const { Cell::new(0.0) };
        static KINDS: RefCell<Vec<KindEvent>> = const { RefCell::new(Vec::new()) };
        static UINTS: RefCell<Vec<UintEvent>> = const { RefCell::new(Vec::new()) };
        static MARKS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    }

    /// Marks the end of a stage of an integer's walk (its cost so far).
    pub fn mark() {
        let cost = cost_so_far();
        MARKS.with(|marks| marks.borrow_mut().push(cost));
    }

    /// The marks since the last call.
    pub fn take_marks() -> Vec<f64> {
        MARKS.with(|marks| core::mem::take(&mut *marks.borrow_mut()))
    }

    /// Records one integer.
    pub fn uint(event: UintEvent) {
        UINTS.with(|uints| uints.borrow_mut().push(event));
    }

    /// The integers recorded since the last call.
    pub fn take_uints() -> Vec<UintEvent> {
        UINTS.with(|uints| core::mem::take(&mut *uints.borrow_mut()))
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
        KINDS.with(|kinds| core::mem::take(&mut *kinds.borrow_mut()))
    }
}

#[cfg(feature = "value-trace")]
pub use recording::{
    cost_so_far, kind, mark, mixed_cost, take_kinds, take_marks, take_uints, uint,
};

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

/// Marks the end of a stage of an integer's walk (nothing without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn mark() {}

/// The marks since the last call (none without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn take_marks() -> Vec<f64> {
    Vec::new()
}

/// Records one integer (nothing without the feature).
#[cfg(not(feature = "value-trace"))]
#[inline(always)]
pub fn uint(_event: UintEvent) {}

/// The integers recorded since the last call (none without the feature).
#[cfg(not(feature = "value-trace"))]
pub fn take_uints() -> Vec<UintEvent> {
    Vec::new()
}
