//! The context layout's model of string text (names and literals seen for the first time): each byte is coded
//! bit by bit, predicted from the string's role and the previous one, two and three bytes of the same string, and
//! from the match model (the byte that followed the last occurrence of the latest few bytes of text, across
//! strings); the predictions are combined by a small online logistic mixer (one weight set per role, match state
//! and bits of the byte so far), so whichever predicts best for this kind of string, at this point of a byte, gets
//! the most say. Contexts are hashed into one zero-initialised table.

use super::entropy::{Bit, Coder};
use super::match_model::Repeats;
use super::mixing::{self, squash_coded, stretch_table, Stretch};
use crate::prelude::*;

/// The hash table for the order-1..3 contexts has about four entries per bit of text to code (2^14 to 2^22 entries of
/// 4 bytes): large enough that contexts rarely collide, small enough that a small script does not pay for
/// clearing megabytes.
fn table_bits(text_bytes: usize) -> u32 {
    (usize::BITS - text_bytes.leading_zeros() + 5).clamp(14, 22)
}

/// Inputs of the mixer: orders 1, 2 and 3, order 0, then the match model.
const INPUTS: usize = 5;

/// The bits of one context's half byte: the 15 nodes of a 4-level tree (slot 0 unused). A context is looked up
/// once per half byte and its four bits then sit in one cache line, instead of one random access per bit: on a
/// large script the table is megabytes and those misses were most of the text's decoding time.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Nibble([Bit; 16]);

/// The string model: hashed context bits, per-role order-0 trees, mixer weights, and the stretch table.
pub struct TextModel {
    table: Vec<Nibble>,
    /// 32 - log2(number of `Nibble`s): a context hash's top bits pick one.
    shift: u32,
    /// Per role: the order-0 tree's bits, by node.
    order0: Vec<[Bit; 256]>,
    /// Per role and match state (`MatchModel::state`), then per bits of the byte so far (its tree node): the mixer's
    /// weights. One set per node, not per role alone: whether the order-3 context or the match is to be trusted
    /// differs between a byte's first bit and its last (format 7: the bench corpus 1.8 % smaller in all).
    weights: Vec<[[i32; INPUTS]; 256]>,
    stretch: Box<Stretch>,
    matches: MatchModel,
    /// Per role: where in the match model's history the role's latest string began (`u32::MAX`: none yet).
    starts: Vec<u32>,
}

impl TextModel {
    /// A model for `roles` string roles and `text_bytes` bytes of text in all.
    pub fn new(roles: usize, text_bytes: usize) -> TextModel {
        let bits = table_bits(text_bytes) - 4;
        TextModel {
            table: vec![Nibble::default(); 1 << bits],
            shift: 32 - bits,
            order0: vec![[Bit::default(); 256]; roles],
            weights: vec![[[1 << 14; INPUTS]; 256]; roles * MATCH_STATES],
            stretch: stretch_table(),
            matches: MatchModel::new(text_bytes),
            starts: vec![u32::MAX; roles],
        }
    }

    /// Starts a new string of role `role`. Unless a match is being followed, the match model's guess becomes the
    /// role's previous string, from its first byte: sorted keys and generated names share their beginnings (mime-db's
    /// "application/vnd.3gpp.pic-bw-large", then "…-small"), where the four bytes a match needs are not there yet.
    pub fn begin(&mut self, role: usize) {
        let here = self.matches.repeats.history().len();
        if let Some(start) = self.starts.get_mut(role) {
            if (*start as usize) < here {
                self.matches.repeats.follow(*start as usize);
            }
            *start = here as u32;
        }
    }

    /// Codes (or decodes) one byte of a string of role `role`, after `history` (the previous bytes of the same
    /// string, most recent in the low byte; 0 at its start).
    pub fn code<C: Coder>(&mut self, coder: &mut C, role: usize, history: u32, byte: u8) -> u8 {
        let role_salt = (role as u32 + 1).wrapping_mul(0x9E37_79B1);
        let hashes = [
            (history & 0xFF).wrapping_add(1 << 8) ^ role_salt,
            (history & 0xFFFF).wrapping_add(2 << 16) ^ role_salt.rotate_left(7),
            (history & 0xFF_FFFF).wrapping_add(3 << 24) ^ role_salt.rotate_left(13),
        ];
        let stretch = &*self.stretch;
        let expected = self.matches.expected();
        let weight_sets = &mut self.weights[role * MATCH_STATES + self.matches.state()];
        let order0 = &mut self.order0[role];
        let matches = &mut self.matches;
        let mut node = 1usize;
        for half in 0..2 {
            // The second half byte's contexts include the first half (`node` is then 16..=31).
            let buckets = distinct(hashes.map(|hash| {
                let h = hash
                    .wrapping_add(node as u32 * 0x0100_0193)
                    .wrapping_mul(0x9E37_79B1);
                (h >> self.shift) as usize
            }));
            let mut low = 1usize;
            // Three distinct nibbles (`distinct`), reached once per half byte: no bounds check per bit.
            let Ok([a, b, c]) = self.table.get_disjoint_mut(buckets) else {
                // Not reached: the buckets are distinct and inside the table.
                break;
            };
            for i in (0..4).rev() {
                let (j, o) = (low & 15, node & 255);
                let [s0, s1, s2, s3] =
                    [a.0[j], b.0[j], c.0[j], order0[o]].map(|bit| mixing::stretched(stretch, bit));
                let guess = matches.guess(expected, node, stretch);
                let bit = byte >> (i + 4 * (1 - half)) & 1 == 1;
                let weights = &mut weight_sets[node & 255];
                let bit = mix_code(coder, weights, [s0, s1, s2, s3, guess.1], bit);
                a.0[j].observe(bit);
                b.0[j].observe(bit);
                c.0[j].observe(bit);
                order0[o].observe(bit);
                matches.learn(guess, bit);
                node = node << 1 | usize::from(bit);
                low = low << 1 | usize::from(bit);
            }
        }
        let byte = (node & 0xFF) as u8;
        self.matches.push(byte);
        byte
    }
}

/// The three orders' nibbles made distinct: an order whose hash lands on a lower order's nibble takes a neighbour
/// in the same group of four instead (c, then c ^ 1, then c ^ 3: of two taken places one can be among them), so the
/// three are always borrowed together, and the decode-only build has one path, not a second for the rare collision
/// (encodings within 2 bytes of the two-path version; about 260 B less after gzip). `bucket ^ 1..=3` stays inside
/// a table of at least 4 nibbles.
#[inline(always)]
fn distinct([a, b, c]: [usize; 3]) -> [usize; 3] {
    let b = if b == a { a ^ 1 } else { b };
    let taken = |n: usize| n == a || n == b;
    let mut c = c;
    for flip in [1, 2, 3] {
        if taken(c) {
            c ^= flip;
        }
    }
    [a, b, c]
}

/// Mixes one bit's stretched predictions with `weights`, codes (or decodes) the bit, and moves each weight along its
/// input by the prediction error, at 1.5/1024 of it (format 7; format 6 moved at 6/1024, which learnt too fast:
/// with the per-node sets, 1/1024 to 3/1024 made the bench corpus about 1.6 % smaller in all, 9/1024 larger).
#[inline(always)]
fn mix_code<C: Coder>(
    coder: &mut C,
    weights: &mut [i32; INPUTS],
    stretched: [i32; INPUTS],
    bit: bool,
) -> bool {
    // Scalars, not zipped arrays (see `mixing::mixed_bit`: arrays read back through the stack stalled).
    let [s0, s1, s2, s3, s4] = stretched;
    let [w0, w1, w2, w3, w4] = *weights;
    let dot = i64::from(s0) * i64::from(w0)
        + i64::from(s1) * i64::from(w1)
        + i64::from(s2) * i64::from(w2)
        + i64::from(s3) * i64::from(w3)
        + i64::from(s4) * i64::from(w4);
    let (p12, p16) = squash_coded((dot >> 16) as i32);
    let bit = coder.fixed(bit, p16);
    let error3 = ((i32::from(bit) << 12) - p12) * 3;
    *weights = [
        w0 + ((s0 * error3) >> 11),
        w1 + ((s1 * error3) >> 11),
        w2 + ((s2 * error3) >> 11),
        w3 + ((s3 * error3) >> 11),
        w4 + ((s4 * error3) >> 11),
    ];
    bit
}

/// Mixer weight sets per role: no match, a short match, a long one (`MatchModel::state`).
const MATCH_STATES: usize = 3;

/// The most text the match model reserves room for up front (bytes): the header's declared total, up to this, so a
/// hostile header cannot make it reserve more.
const RESERVED_TEXT: usize = 1 << 24;

/// Bytes that must repeat before the match model predicts from an earlier occurrence.
const MIN_MATCH: usize = 4;

/// Long repeats in string text, which the order-1..3 contexts cannot see: a regular expression's character class
/// written out twice (json5's identifier tables), a message repeated with one word changed, a base64 blob. All new
/// text is kept in coding order (strings back to back) and searched for the latest `MIN_MATCH` bytes
/// ([`Repeats`]); while the bytes keep agreeing, the byte after the earlier occurrence is the guess for the next.
/// How far a guess of each length is to be trusted is learnt (one adaptive bit per length bucket).
struct MatchModel {
    repeats: Repeats<u8>,
    /// P(the guessed bit is right), by length bucket.
    trust: [Bit; 16],
}

/// A guess for one bit: the trust bucket it came from (`NO_GUESS` when none), its stretched prediction and the bit
/// guessed.
type Guess = (usize, i32, bool);
const NO_GUESS: usize = usize::MAX;

impl MatchModel {
    fn new(text_bytes: usize) -> MatchModel {
        // About one slot per byte of text, 2^10 to 2^18 (at most 1 MB); a match's length is measured up to 32 bytes
        // back, and a differing byte ends it.
        let bits = (usize::BITS - text_bytes.leading_zeros()).clamp(10, 18);
        MatchModel {
            repeats: Repeats::new(MIN_MATCH, bits, u32::MAX, 32, text_bytes.min(RESERVED_TEXT)),
            trust: [Bit::default(); 16],
        }
    }

    /// The mixer weight set: 0 no match, 1 under 16 bytes, 2 longer.
    #[inline(always)]
    fn state(&self) -> usize {
        match self.repeats.length() {
            0 => 0,
            1..16 => 1,
            _ => 2,
        }
    }

    /// The guessed next byte with a leading 1 (as the coder's `node` grows), or 0 with no match.
    #[inline(always)]
    fn expected(&self) -> usize {
        self.repeats
            .expected()
            .map_or(0, |byte| usize::from(byte) | 0x100)
    }

    /// The guess for the next bit of a byte whose bits so far are `node` (with its leading 1): none once the byte
    /// left the guessed one.
    #[inline(always)]
    fn guess(&self, expected: usize, node: usize, stretch: &Stretch) -> Guess {
        let done = usize::BITS - 1 - node.leading_zeros();
        if expected == 0 || expected >> (8 - done) != node {
            return (NO_GUESS, 0, false);
        }
        let bucket = (self.repeats.length() as usize).min(15);
        let trust = mixing::stretched(stretch, self.trust[bucket]);
        let one = expected >> (7 - done) & 1 == 1;
        (bucket, if one { trust } else { -trust }, one)
    }

    /// Learns whether the guess was right.
    #[inline(always)]
    fn learn(&mut self, (bucket, _, guessed): Guess, bit: bool) {
        if bucket != NO_GUESS {
            self.trust[bucket].observe(guessed == bit);
        }
    }

    /// Adds a coded byte; the window is the latest `MIN_MATCH` bytes with it, packed.
    fn push(&mut self, byte: u8) {
        let history = self.repeats.history();
        let window = history[history.len().saturating_sub(MIN_MATCH - 1)..]
            .iter()
            .chain(&[byte])
            .fold(0u64, |window, &b| window << 8 | u64::from(b));
        self.repeats.push(byte, window);
    }
}

#[cfg(test)]
mod tests {
    use super::distinct;

    #[test]
    fn three_buckets_always_come_out_distinct_and_within_their_group_of_four() {
        for a in 0..8 {
            for b in 0..8 {
                for c in 0..8 {
                    let [x, y, z] = distinct([a, b, c]);
                    assert!(x != y && y != z && x != z, "{a} {b} {c} -> {x} {y} {z}");
                    assert_eq!((x, y / 4, z / 4), (a, b / 4, c / 4));
                }
            }
        }
    }
}
