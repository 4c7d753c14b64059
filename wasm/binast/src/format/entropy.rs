//! The context layout's entropy coder: a binary range coder (carry-propagating, 32-bit range, 16-bit
//! probabilities) and the adaptive models it codes with. Every value is split into binary decisions, and each
//! decision has its own probability that adapts as the file is coded, so a field that almost always holds the same
//! value costs a small fraction of a bit. The models are zero-initialised (a zeroed `Bit` means "p = ½, nothing
//! seen"), so a fresh set of tables costs an allocation, not a loop.
//!
//! Reading past the end of the input yields zero bytes and counts them; the reader refuses a file once it has
//! read more than the coder's flush could explain (`overrun`), so corrupt input ends in an error, never a loop.

use crate::prelude::*;
use alloc::borrow::Cow;

use crate::DecodeError;

/// An adaptive probability that the next bit is 1, with how many bits it has seen (its adaptation rate slows
/// from "jump halfway" to 1/`RATE_LIMIT` as evidence accumulates). Stored as `p ^ 0x8000` so zero means ½.
#[derive(Clone, Copy, Default)]
pub struct Bit {
    p_xor: u16,
    seen: u16,
}

/// The surest any decision is ever coded (of 65,536): no bit costs less than 0.0007 bits, which bounds how many
/// values a byte of input can hold (see `container::MAX_VALUES_PER_BYTE`).
pub const P_MIN: u32 = 32;
/// See [`P_MIN`].
pub const P_MAX: u32 = 65_536 - P_MIN;

/// After this many bits a model adapts at 1/(limit + 1.5) per bit.
const RATE_LIMIT: usize = 16;

/// `65536 / (n + 1.5)` for n = 0..=RATE_LIMIT: the update weight of the n-th observation. Padded to 32 entries (the
/// padding repeats the last rate, never read: `seen` stops at `RATE_LIMIT`) so `seen & 31` indexes it with no
/// clamp or bounds check per update.
const RATES: [i32; 32] = {
    let mut table = [0i32; 32];
    let mut n = 0;
    while n < 32 {
        let seen = if n < RATE_LIMIT { n } else { RATE_LIMIT };
        table[n] = 65536 * 2 / (2 * seen as i32 + 3);
        n += 1;
    }
    table
};

impl Bit {
    /// P(bit = 1) in 1/65536.
    #[inline]
    fn p1(self) -> u32 {
        u32::from(self.p_xor ^ 0x8000)
    }

    /// P(bit = 1) in 1/4096 with its top bit flipped (the stored form's top 12 bits), for the mixers' stretch
    /// table, which is laid out by this index (`mixing::stretch_table`): one instruction fewer per input than
    /// flipping the bit back first.
    #[inline(always)]
    pub fn stretch_index(self) -> usize {
        usize::from(self.p_xor >> 4)
    }

    /// Adapts to a bit coded with some other probability.
    #[inline]
    pub fn observe(&mut self, bit: bool) {
        self.update(bit);
    }

    /// Moves p towards the bit by the rate of `seen` and clamps it to `P_MIN..=P_MAX`. Only the bound on the side p
    /// moves to can bind (p starts at ½ and stays within the bounds; a rate is below 1, so a step towards 0 ends at
    /// 0 or above and a step towards 65,535 at or below it), so each side clamps once: the same values as
    /// clamping both ways, two compares fewer per update (issue #17 part 2: an update runs two to four times per
    /// decision).
    #[inline]
    fn update(&mut self, bit: bool) {
        let p = self.p1() as i32;
        let rate = RATES[usize::from(self.seen) & 31];
        let next = if bit {
            (p + (((65535 - p) * rate) >> 16)).min(P_MAX as i32)
        } else {
            (p + ((-p * rate) >> 16)).max(P_MIN as i32)
        };
        self.p_xor = (next as u16) ^ 0x8000;
        self.seen += u16::from(usize::from(self.seen) < RATE_LIMIT);
    }
}

/// The writing half of the range coder.
pub struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: Vec<u8>,
    first: bool,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out: Vec::new(),
            first: true,
        }
    }
}

impl Encoder {
    /// Codes `bit` with probability `p1` (of a 1, in 1/65536, 1..=65535).
    #[inline]
    fn code(&mut self, bit: bool, p1: u32) {
        super::counts::add(super::counts::DECISIONS, 1);
        let bound = (self.range >> 16) * p1;
        if bit {
            self.range = bound;
        } else {
            self.low += u64::from(bound);
            self.range -= bound;
        }
        while self.range < (1 << 24) {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if (self.low as u32) < 0xFF00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                // The very first byte is always 0 (nothing was coded before it): it is left out of the file.
                if !core::mem::replace(&mut self.first, false) {
                    self.out.push(byte.wrapping_add(carry));
                }
                byte = 0xFF;
                self.pending -= 1;
                if self.pending == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    /// Codes a bit with an adaptive model, then adapts it.
    #[inline]
    pub fn bit(&mut self, model: &mut Bit, bit: bool) {
        self.code(bit, model.p1());
        model.update(bit);
    }

    /// Codes the low `count` bits of `value`, high first, each with probability ½.
    pub fn direct(&mut self, value: u32, count: u32) {
        for i in (0..count).rev() {
            self.code(value >> i & 1 == 1, 32768);
        }
    }

    /// Flushes the coder and returns the coded bytes.
    pub fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// Where a streaming decoder gets its next bytes: fills the buffer it is given with up to that many bytes of the
/// coded tree and returns how many; 0 means the input has ended. The browser's decoder passes a host function that
/// waits for the next network chunk (see `stream_api.rs`), so decoding starts on the first bytes.
pub type Refill<'a> = Box<dyn FnMut(&mut [u8]) -> usize + 'a>;

/// How much a streaming decoder asks its source for at a time (64 KiB: a few network chunks).
const WINDOW_BYTES: usize = 64 * 1024;

/// The reading half of the range coder. It reads a window of the input: the whole input (`new`), or the latest
/// piece a [`Refill`] source gave (`streaming`), refilled when the coder has read it all.
pub struct Decoder<'a> {
    window: Cow<'a, [u8]>,
    /// Read position in `window`; past its end only once the input has ended (the look-ahead's zero bytes).
    offset: usize,
    /// Bytes of the windows before this one.
    before: usize,
    /// The source of further windows; `None` once it said the input ended (or for a whole input).
    source: Option<Refill<'a>>,
    range: u32,
    code: u32,
}

/// How many zero bytes past the end the decoder may read: the flush writes the last four bytes of `low`, and the
/// decoder's look-ahead is four bytes.
const MAX_OVERRUN_BYTES: usize = 4;

impl<'a> Decoder<'a> {
    /// Starts decoding `input` (what [`Encoder::finish`] returned).
    pub fn new(input: &'a [u8]) -> Decoder<'a> {
        Decoder::start(Cow::Borrowed(input), None)
    }

    /// Starts decoding an input that arrives in pieces: `first` (possibly empty), then whatever `source` gives.
    pub fn streaming(first: Vec<u8>, source: Refill<'a>) -> Decoder<'a> {
        Decoder::start(Cow::Owned(first), Some(source))
    }

    fn start(window: Cow<'a, [u8]>, source: Option<Refill<'a>>) -> Decoder<'a> {
        let mut decoder = Decoder {
            window,
            offset: 0,
            before: 0,
            source,
            range: u32::MAX,
            code: 0,
        };
        for _ in 0..4 {
            decoder.code = decoder.code << 8 | u32::from(decoder.next_byte());
        }
        decoder
    }

    #[inline]
    fn next_byte(&mut self) -> u8 {
        if self.offset == self.window.len() && self.source.is_some() {
            self.refill();
        }
        let byte = self.window.get(self.offset).copied().unwrap_or(0);
        self.offset += 1;
        byte
    }

    /// Replaces the window (all read) with the source's next bytes, or marks the end of the input.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        if self.source.is_none() {
            return;
        }
        let window = self.window.to_mut();
        self.before += window.len();
        window.clear();
        self.offset = 0;
        self.take_from_source();
    }

    /// Appends the source's next bytes to the window, or marks the end of the input.
    fn take_from_source(&mut self) {
        let Some(source) = self.source.as_mut() else {
            return;
        };
        let window = self.window.to_mut();
        let start = window.len();
        window.resize(start + WINDOW_BYTES, 0);
        let filled = source(&mut window[start..]).min(WINDOW_BYTES);
        window.truncate(start + filled);
        if filled == 0 {
            self.source = None;
        }
    }

    /// Bytes of input read so far (the look-ahead's zeros past the end included): what the per-byte budget of
    /// values is measured against while a streaming input is still arriving.
    #[inline]
    pub fn position(&self) -> usize {
        self.before + self.offset
    }

    /// Bytes of input the decoder holds: read, or in its window still to be read. The text budget is measured
    /// against these, since a string's length is read before the bytes that code it.
    #[inline]
    pub fn received(&self) -> usize {
        self.before + self.window.len()
    }

    /// Takes more of a streaming input into the window, after what it holds, until `bytes` have been received or
    /// the input has ended. Nothing changes for a whole input, nor once that much has arrived.
    #[inline]
    pub fn read_ahead(&mut self, bytes: usize) {
        if self.received() < bytes && self.source.is_some() {
            self.read_ahead_from_source(bytes);
        }
    }

    #[cold]
    #[inline(never)]
    fn read_ahead_from_source(&mut self, bytes: usize) {
        while self.received() < bytes && self.source.is_some() {
            self.take_from_source();
        }
    }

    #[inline]
    fn decode(&mut self, p1: u32) -> bool {
        super::counts::add(super::counts::DECISIONS, 1);
        let bound = (self.range >> 16) * p1;
        let bit = self.code < bound;
        if bit {
            self.range = bound;
        } else {
            self.code -= bound;
            self.range -= bound;
        }
        while self.range < (1 << 24) {
            self.range <<= 8;
            self.code = self.code << 8 | u32::from(self.next_byte());
        }
        bit
    }

    /// Decodes a bit with an adaptive model, then adapts it.
    #[inline]
    pub fn bit(&mut self, model: &mut Bit) -> bool {
        let bit = self.decode(model.p1());
        model.update(bit);
        bit
    }

    /// Decodes `count` bits of probability ½, high first.
    pub fn direct(&mut self, count: u32) -> u32 {
        let mut value = 0;
        for _ in 0..count {
            value = value << 1 | u32::from(self.decode(32768));
        }
        value
    }

    /// Checks the decoder read exactly the input: the encoder writes one byte per normalisation step plus four at
    /// the end, and the decoder reads four at the start plus one per step, so any other count is a truncated or
    /// padded file. A streaming input must end here: bytes still arriving after the tree are padding.
    pub fn finish(&mut self) -> Result<(), DecodeError> {
        if self.offset == self.window.len() && self.source.is_some() {
            self.refill();
        }
        if self.offset != self.window.len() || self.source.is_some() {
            return Err(DecodeError::BadLength(message!(
                "coded tree of ",
                self.before + self.window.len(),
                if self.source.is_some() {
                    " or more bytes, "
                } else {
                    " bytes, "
                },
                self.position(),
                " used"
            )));
        }
        Ok(())
    }

    /// An error once the decoder has read further past the end than a well-formed file makes it.
    #[inline]
    pub fn overrun(&self) -> Result<(), DecodeError> {
        if self.offset > self.window.len() + MAX_OVERRUN_BYTES {
            return Err(DecodeError::UnexpectedEnd {
                offset: self.before + self.window.len(),
            });
        }
        Ok(())
    }
}

/// Either half of the coder, so a model codes and decodes through the same code path.
pub trait Coder {
    /// Codes (encoder: `bit` is the value) or decodes (decoder: `bit` is ignored) one adaptive bit.
    fn bit(&mut self, model: &mut Bit, bit: bool) -> bool;
    /// Codes or decodes `count` bits of probability ½.
    fn direct(&mut self, value: u32, count: u32) -> u32;
    /// Codes or decodes one bit of a given probability of a 1 (1/65536, 1..=65535).
    fn fixed(&mut self, bit: bool, p1: u32) -> bool;
}

impl Coder for Encoder {
    #[inline]
    fn bit(&mut self, model: &mut Bit, bit: bool) -> bool {
        Encoder::bit(self, model, bit);
        bit
    }
    fn direct(&mut self, value: u32, count: u32) -> u32 {
        Encoder::direct(self, value, count);
        value
    }
    #[inline]
    fn fixed(&mut self, bit: bool, p1: u32) -> bool {
        self.code(bit, p1);
        bit
    }
}

impl Coder for Decoder<'_> {
    #[inline]
    fn bit(&mut self, model: &mut Bit, _bit: bool) -> bool {
        Decoder::bit(self, model)
    }
    fn direct(&mut self, _value: u32, count: u32) -> u32 {
        Decoder::direct(self, count)
    }
    #[inline]
    fn fixed(&mut self, _bit: bool, p1: u32) -> bool {
        self.decode(p1)
    }
}

/// Values below `DIRECT_LIMIT` go through a 4-bit tree; larger ones are an escape, then Elias-gamma style:
/// the bit length through a 5-bit tree, the two bits under the leading one through a small tree per length, and
/// the rest with probability ½.
const DIRECT_LIMIT: u32 = 15;
const HEAD: usize = 0;
const LENGTH: usize = 16;
const TOP: usize = 48;
/// Adaptive bits in a [`UIntModel`].
pub const UINT_BITS: usize = TOP + 32 * 4;

/// An adaptive model of a non-negative integer (list lengths, string references, flags, small numbers): the bits
/// of the trees described at `DIRECT_LIMIT`, in one array so two models can be walked in step and mixed.
#[derive(Clone)]
pub struct UIntModel {
    /// The adaptive bits, by the index `uint_symbol` passes to its bit function.
    pub bits: [Bit; UINT_BITS],
}

impl Default for UIntModel {
    fn default() -> Self {
        UIntModel {
            bits: [Bit::default(); UINT_BITS],
        }
    }
}

/// How [`uint_symbol`], [`tree_walk`] and [`kind_symbol`] code each binary decision: `decide(coder, slot, bit)`
/// codes (or decodes) the decision held at model slot `slot`. The mixed models implement it with
/// `#[inline(always)]`, so every decision of a walk is compiled into the walk: as a closure it was a call per
/// decision that also reloaded the range coder's state from memory, since the compiler would not inline a closure
/// at the walk's seven call sites.
pub trait Decide<C> {
    /// Codes or decodes one decision at `slot`.
    fn decide(&mut self, coder: &mut C, slot: usize, bit: bool) -> bool;
}

impl<C, F: FnMut(&mut C, usize, bool) -> bool> Decide<C> for F {
    #[inline(always)]
    fn decide(&mut self, coder: &mut C, slot: usize, bit: bool) -> bool {
        self(coder, slot, bit)
    }
}

/// Codes (or decodes) `value` as the decisions of a [`UIntModel`], each through `decide` with the model slot it
/// uses.
#[inline]
pub fn uint_symbol<C: Coder>(coder: &mut C, value: u32, decide: &mut impl Decide<C>) -> u32 {
    let head = tree_walk(coder, 4, value.min(DIRECT_LIMIT), HEAD, decide);
    super::trace::mark();
    if head < DIRECT_LIMIT {
        return head;
    }
    // value - 14 >= 1, so it has a leading one at `bits`.
    let rest = u64::from(value.wrapping_sub(DIRECT_LIMIT - 1));
    let bits = 63 - rest.max(1).leading_zeros();
    let bits = tree_walk(coder, 5, bits, LENGTH, decide);
    super::trace::mark();
    let mut out: u64 = 1;
    let top = TOP + bits as usize * 4;
    let top_bits = bits.min(2);
    let mut node = 1usize;
    for i in 0..top_bits {
        let b = decide.decide(coder, top + node, rest >> (bits - 1 - i) & 1 == 1);
        node = node << 1 | usize::from(b);
        out = out << 1 | u64::from(b);
    }
    let low_bits = bits - top_bits;
    let low = coder.direct((rest & ((1u64 << low_bits) - 1)) as u32, low_bits);
    out = out << low_bits | u64::from(low);
    // Only a corrupt file decodes a value above u32::MAX; it saturates and fails the caller's range check.
    u32::try_from(out + u64::from(DIRECT_LIMIT) - 1).unwrap_or(u32::MAX)
}

/// The modelled decisions [`uint_symbol`] takes for `value`, in order (bits, count): the head, then for an escaped
/// value its bit length and up to two top bits (the raw bits under them are not modelled). The value match model
/// guesses a value decision by decision along this path.
pub fn uint_path(value: u32) -> (u32, u32) {
    let head = value.min(DIRECT_LIMIT);
    if head < DIRECT_LIMIT {
        return (head, 4);
    }
    let rest = u64::from(value - (DIRECT_LIMIT - 1));
    let bits = 63 - rest.max(1).leading_zeros();
    let mut path = head << 5 | bits;
    let mut count = 9;
    for i in 0..bits.min(2) {
        path = path << 1 | (rest >> (bits - 1 - i) & 1) as u32;
        count += 1;
    }
    (path, count)
}

/// Walks a binary tree of `bits` levels for `value`; the decision at tree node `node` (1-based) is slot
/// `base + node` of `decide`.
#[inline]
pub fn tree_walk<C: Coder>(
    coder: &mut C,
    bits: u32,
    value: u32,
    base: usize,
    decide: &mut impl Decide<C>,
) -> u32 {
    let mut node = 1usize;
    for i in (0..bits).rev() {
        let b = decide.decide(coder, base + node, value >> i & 1 == 1);
        node = node << 1 | usize::from(b);
    }
    (node - (1 << bits)) as u32
}

/// Adaptive bits in a [`KindModel`]: the top four levels of the 7-level tree (nodes 1..=15, slot 0 unused), then
/// the 3-level subtree under each of the 16 nodes of level 4 in a group of 8 slots (its 7 nodes, the first slot
/// unused). Which bit predicts which decision is the plain tree's; only where the bits sit changed (issue #17
/// part 2): a kind's walk now reads two 64-byte lines of a model instead of four (levels 4, 5 and 6 each sat in a
/// line of their own), and the models of a large script are megabytes, so those reads were mostly cache misses.
pub const KIND_BITS: usize = 16 + 16 * 8;

/// An adaptive model of a symbol below 128 (node kinds): a 7-level tree, laid out as [`KIND_BITS`] says.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct KindModel {
    /// The tree's bits, by slot.
    pub bits: [Bit; KIND_BITS],
}

impl Default for KindModel {
    fn default() -> Self {
        KindModel {
            bits: [Bit::default(); KIND_BITS],
        }
    }
}

/// Codes (or decodes) a kind below 128 with the bits of a [`KindModel`], high bit first: the plain 7-level tree's
/// decisions in its order, each through `decide` with the slot [`KIND_BITS`] describes.
#[inline(always)]
pub fn kind_symbol<C: Coder>(coder: &mut C, value: u32, decide: &mut impl Decide<C>) -> u32 {
    let mut top = 1usize;
    for i in (3..7).rev() {
        let b = decide.decide(coder, top, value >> i & 1 == 1);
        top = top << 1 | usize::from(b);
    }
    // `top` is 16..=31: its subtree's group starts at slot 16 + (top - 16) * 8 = top * 8 - 112.
    let group = top * 8 - 112;
    let mut low = 1usize;
    for i in (0..3).rev() {
        let b = decide.decide(coder, group + low, value >> i & 1 == 1);
        low = low << 1 | usize::from(b);
    }
    ((top - 16) << 3 | (low - 8)) as u32
}

/// The decisions [`kind_symbol`] takes for `value` (bits, count): its seven bits, high first.
pub fn kind_path(value: u32) -> (u32, u32) {
    (value & 127, 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits `walk` decides for `value`, as (bits, count) with the first decision highest.
    fn walked(
        value: u32,
        walk: fn(&mut Encoder, u32, &mut dyn FnMut(usize, bool) -> bool),
    ) -> (u32, u32) {
        let (mut path, mut count) = (0u32, 0u32);
        walk(&mut Encoder::default(), value, &mut |_slot, bit| {
            path = path << 1 | u32::from(bit);
            count += 1;
            bit
        });
        (path, count)
    }

    #[test]
    fn paths_are_the_decisions_the_walks_take() {
        let values = (0..300).chain([1 << 10, 12_345, 1 << 20, 0x0FFF_FFFF, u32::MAX - 20]);
        for value in values {
            let uint = walked(value, |coder, value, decide| {
                uint_symbol(coder, value, &mut |_: &mut Encoder, slot, bit| {
                    decide(slot, bit)
                });
            });
            assert_eq!(uint_path(value), uint, "integer {value}");
            if value < 128 {
                let kind = walked(value, |coder, value, decide| {
                    kind_symbol(coder, value, &mut |_: &mut Encoder, slot, bit| {
                        decide(slot, bit)
                    });
                });
                assert_eq!(kind_path(value), kind, "kind {value}");
            }
        }
    }

    /// The update as it was written before it clamped one side only (issue #17 part 2): every reachable state
    /// must move to the same next state.
    fn update_both_sides(p: i32, seen: usize, bit: bool) -> i32 {
        let target = if bit { 65535 } else { 0 };
        let rate = 65536 * 2 / (2 * seen.min(RATE_LIMIT) as i32 + 3);
        (p + (((target - p) * rate) >> 16)).clamp(P_MIN as i32, P_MAX as i32)
    }

    #[test]
    fn one_sided_clamp_matches_both_sides() {
        // seen 0 only ever holds p = ½ (a fresh bit); later states hold any p within the bounds.
        for (p, seen) in core::iter::once((32768, 0)).chain(
            (1..=RATE_LIMIT).flat_map(|seen| (P_MIN as i32..=P_MAX as i32).map(move |p| (p, seen))),
        ) {
            for bit in [false, true] {
                let mut model = Bit {
                    p_xor: (p as u16) ^ 0x8000,
                    seen: seen as u16,
                };
                model.update(bit);
                assert_eq!(
                    model.p1() as i32,
                    update_both_sides(p, seen, bit),
                    "{p} {seen} {bit}"
                );
                assert_eq!(usize::from(model.seen), (seen + 1).min(RATE_LIMIT));
            }
        }
    }
}
