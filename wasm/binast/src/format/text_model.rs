//! The context layout's model of string text (names and literals seen for the first time): each byte is coded
//! bit by bit, predicted from the string's role and the previous one, two and three bytes of the same string; the
//! predictions are combined by a small online logistic mixer (one weight set per role), so whichever context
//! predicts best for this kind of string gets the most say. Contexts are hashed into one zero-initialised table.

use super::entropy::{Bit, Coder};
use super::mixing::{self, squash_coded, stretch_table, Stretch};

/// The hash table for the order-1..3 contexts has about four entries per bit of text to code (2^14 to 2^22 entries of
/// 4 bytes): large enough that contexts rarely collide, small enough that a small script does not pay for
/// clearing megabytes.
fn table_bits(text_bytes: usize) -> u32 {
    (usize::BITS - text_bytes.leading_zeros() + 5).clamp(14, 22)
}

/// Inputs of the mixer: orders 1, 2 and 3, then order 0.
const INPUTS: usize = 4;
const ORDERS: usize = 3;

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
    /// Per role: the mixer's weights.
    weights: Vec<[i32; INPUTS]>,
    stretch: Box<Stretch>,
}

impl TextModel {
    /// A model for `roles` string roles and `text_bytes` bytes of text in all.
    pub fn new(roles: usize, text_bytes: usize) -> TextModel {
        let bits = table_bits(text_bytes) - 4;
        TextModel {
            table: vec![Nibble::default(); 1 << bits],
            shift: 32 - bits,
            order0: vec![[Bit::default(); 256]; roles],
            weights: vec![[1 << 14; INPUTS]; roles],
            stretch: stretch_table(),
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
        let weights = &mut self.weights[role];
        let order0 = &mut self.order0[role];
        let mut node = 1usize;
        for half in 0..2 {
            // The second half byte's contexts include the first half (`node` is then 16..=31).
            let buckets = hashes.map(|hash| {
                let h = hash
                    .wrapping_add(node as u32 * 0x0100_0193)
                    .wrapping_mul(0x9E37_79B1);
                (h >> self.shift) as usize
            });
            let mut low = 1usize;
            // Almost always three distinct nibbles, reached once per half byte (no bounds check per bit). Two orders
            // that hash to one nibble share its bits and each adapts them in turn: that case takes the indexed path,
            // which does exactly that.
            match self.table.get_disjoint_mut(buckets) {
                Ok([a, b, c]) => {
                    for i in (0..4).rev() {
                        let (j, o) = (low & 15, node & 255);
                        let stretched = [a.0[j], b.0[j], c.0[j], order0[o]]
                            .map(|bit| mixing::stretched(stretch, bit));
                        let bit = byte >> (i + 4 * (1 - half)) & 1 == 1;
                        let bit = mix_code(coder, weights, stretched, bit);
                        a.0[j].observe(bit);
                        b.0[j].observe(bit);
                        c.0[j].observe(bit);
                        order0[o].observe(bit);
                        node = node << 1 | usize::from(bit);
                        low = low << 1 | usize::from(bit);
                    }
                }
                Err(_) => {
                    for i in (0..4).rev() {
                        let (j, o) = (low & 15, node & 255);
                        let mut stretched = [0i32; INPUTS];
                        for (k, &bucket) in buckets.iter().enumerate() {
                            stretched[k] = mixing::stretched(stretch, self.table[bucket].0[j]);
                        }
                        stretched[ORDERS] = mixing::stretched(stretch, order0[o]);
                        let bit = byte >> (i + 4 * (1 - half)) & 1 == 1;
                        let bit = mix_code(coder, weights, stretched, bit);
                        for &bucket in &buckets {
                            self.table[bucket].0[j].observe(bit);
                        }
                        order0[o].observe(bit);
                        node = node << 1 | usize::from(bit);
                        low = low << 1 | usize::from(bit);
                    }
                }
            }
        }
        (node & 0xFF) as u8
    }
}

/// Mixes one bit's four stretched predictions with `weights`, codes (or decodes) the bit, and moves each weight
/// along its input by the prediction error.
#[inline(always)]
fn mix_code<C: Coder>(
    coder: &mut C,
    weights: &mut [i32; INPUTS],
    stretched: [i32; INPUTS],
    bit: bool,
) -> bool {
    // Scalars, not zipped arrays (see `mixing::mixed_bit`: arrays read back through the stack stalled).
    let [s0, s1, s2, s3] = stretched;
    let [w0, w1, w2, w3] = *weights;
    let dot = i64::from(s0) * i64::from(w0)
        + i64::from(s1) * i64::from(w1)
        + i64::from(s2) * i64::from(w2)
        + i64::from(s3) * i64::from(w3);
    let (p12, p16) = squash_coded((dot >> 16) as i32);
    let bit = coder.fixed(bit, p16);
    let error6 = ((i32::from(bit) << 12) - p12) * 6;
    *weights = [
        w0 + ((s0 * error6) >> 10),
        w1 + ((s1 * error6) >> 10),
        w2 + ((s2 * error6) >> 10),
        w3 + ((s3 * error6) >> 10),
    ];
    bit
}
