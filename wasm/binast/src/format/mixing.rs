//! Logistic mixing: two (or more) predictions of one bit, each from a different context, combined as a weighted
//! sum in the logistic domain with weights that learn online which context predicts better. The context layout
//! (formats 4 and 5) mixes two: (parent's field, interface, field) and (interface, field, the previous value
//! there), with one weight set per (interface, field). Format 3 mixed (interface, field) in as a third input:
//! 1.5 % smaller files, about 15 % slower decoding in Chromium (issue #17).

use super::entropy::{Bit, Coder, P_MAX, P_MIN};
use crate::prelude::*;

/// `squash(x) = 4096 / (1 + e^(-x/256))` sampled every 128 steps of x in -2048..=2048; interpolated between.
/// (One spare entry, so the interpolation's second index is in bounds by construction: no check per decision.)
const SQUASH_POINTS: [i32; 34] = [
    1, 2, 3, 6, 10, 16, 27, 45, 73, 120, 194, 310, 488, 747, 1101, 1546, 2047, 2549, 2994, 3348,
    3607, 3785, 3901, 3975, 4022, 4050, 4068, 4079, 4085, 4089, 4092, 4093, 4094, 4094,
];

/// The logistic function on the mixer's scale: x in 1/256 units → probability in 1/4096.
#[inline]
pub fn squash(x: i32) -> i32 {
    squash_coded(x).0
}

/// [`squash`] and the probability a decision is coded with, `(p12 << 4).clamp(P_MIN, P_MAX)`, in one: the clamp
/// can only bind where `squash` returns its extremes (1 and 4,095, from its two early returns; interpolation gives
/// 1 only near -2,048 and never more than 4,094, whose 65,504 is `P_MAX`), so those returns carry the clamped value
/// and the interpolated one needs only the lower bound: three compares fewer per decision, the same values.
#[inline(always)]
pub fn squash_coded(x: i32) -> (i32, u32) {
    if x > 2047 {
        return (4095, P_MAX);
    }
    if x < -2047 {
        return (1, P_MIN);
    }
    let w = x & 127;
    // x is within ±2047 here, so i is 0..=31 and the mask changes nothing.
    let i = ((x >> 7) + 16) as usize & 31;
    let p12 = (SQUASH_POINTS[i] * (128 - w) + SQUASH_POINTS[i + 1] * w + 64) >> 7;
    (p12, ((p12 as u32) << 4).max(P_MIN))
}

/// `stretch_table`: a fixed size, so indexing by a 12-bit probability needs no bounds check.
pub type Stretch = [i16; 4096];

/// The inverse of `squash` for every 12-bit probability p, stored at `p ^ 0x800` (see [`Bit::stretch_index`]).
pub fn stretch_table() -> Box<Stretch> {
    let mut stretch = Box::new([0i16; 4096]);
    let mut next = 0usize;
    for x in -2047..=2047 {
        let p = squash(x) as usize;
        while next <= p && next < 4096 {
            stretch[next ^ 0x800] = x as i16;
            next += 1;
        }
    }
    while next < 4096 {
        stretch[next ^ 0x800] = 2047;
        next += 1;
    }
    stretch
}

/// A bit's prediction in the logistic domain.
#[inline(always)]
pub fn stretched(stretch: &Stretch, bit: Bit) -> i32 {
    i32::from(stretch[bit.stretch_index() & 4095])
}

/// Mixer weights for two inputs, a bias and the value match model's guess, 16.16 fixed point.
pub type Weights = [i32; 4];

/// Fresh weights: about the sum of the inputs' stretches times 0.67 (tried 0.33, 0.5 and 0.67; 0.67 was smallest);
/// the match model's guess starts at about half that.
pub const WEIGHTS: Weights = [44_000, 44_000, 0, 20_000];

/// Codes one bit predicted by `fine` and `follower` (and `guess`, the match model's stretched guess, 0 for none)
/// mixed with `weights`, then adapts the weights and both bits. The two bits are passed separately (not as a copied
/// pair) so a caller can hand in the models' own bits and skip copying them out and back per decision.
#[inline(always)]
pub fn mixed_bit<C: Coder>(
    coder: &mut C,
    stretch: &Stretch,
    fine: &mut Bit,
    follower: &mut Bit,
    weights: &mut Weights,
    guess: i32,
    bit: bool,
) -> bool {
    // Scalars, not arrays and iterators: the zipped arrays went through the stack, and reading them back as one
    // 16-byte load stalled on store forwarding (a fifth of the kind decoder's time in `perf`).
    let (s0, s1) = (stretched(stretch, *fine), stretched(stretch, *follower));
    let dot = i64::from(s0) * i64::from(weights[0])
        + i64::from(s1) * i64::from(weights[1])
        + 256 * i64::from(weights[2])
        + i64::from(guess) * i64::from(weights[3]);
    let (p12, p16) = squash_coded((dot >> 16) as i32);
    let bit = coder.fixed(bit, p16);
    super::trace::mixed_cost(bit, p16);
    let error3 = ((i32::from(bit) << 12) - p12) * 3;
    weights[0] += (s0 * error3) >> 12;
    weights[1] += (s1 * error3) >> 12;
    // The bias input is 256: (256 * error3) >> 12 is error3 >> 4 (an arithmetic shift floors both alike).
    weights[2] += error3 >> 4;
    weights[3] += (guess * error3) >> 12;
    fine.observe(bit);
    follower.observe(bit);
    bit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squash_coded_is_the_clamped_squash() {
        for x in -70_000..=70_000 {
            let (p12, p16) = squash_coded(x);
            assert!((1..=4095).contains(&p12), "{x}");
            assert_eq!(p16, ((p12 as u32) << 4).clamp(P_MIN, P_MAX), "{x}");
        }
    }
}
