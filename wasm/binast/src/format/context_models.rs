//! The context layout's models, shared by the writer and the reader so both adapt identically: one model per
//! context (value category, the interface being read, the field), numbered in order of first use, plus per-role
//! recency lists of the strings seen so far and the model of new string text.
//!
//! A string reference is coded as one symbol: 0 = null, 1 = a string not seen before (its text follows), 2 + n = the
//! string used n distinct strings ago in the same role (move-to-front). Minified code reuses a handful of short
//! names all the time, so most references are small recency positions.

use super::base64;
use super::counts;
use super::entropy::{
    kind_path, kind_symbol, tree_walk, uint_path, uint_symbol, Bit, Coder, Decide, KindModel,
    UIntModel,
};
use super::match_model::Repeats;
use super::mixing::{self, mixed_bit, stretch_table, Stretch, Weights, WEIGHTS};
use super::text_model::TextModel;
use super::trace;
use crate::prelude::*;
use crate::DecodeError;

/// Whether references to strings of this role are coded by recency (names: the same few recur locally) or by
/// number in order of first use (operators and other enums: a stable distribution per field that recency would
/// scramble).
pub fn by_recency(table: usize) -> bool {
    table != 0
}

/// The table a string role uses in the context layout: scope annotations share the variable names' table, so a
/// declared name primes the recency list for the uses that follow (and its text is coded once).
pub fn context_table(table: usize) -> usize {
    if table == 4 {
        1
    } else {
        table
    }
}

/// The context map: (category, interface, key) → context number, by the names' addresses (fast path) and by
/// content (so two copies of one name, e.g. an interface name in the reader's and the writer's tables, are one
/// context on both sides).
#[derive(Default)]
struct ContextMap {
    by_address: Vec<([usize; 4], u32)>,
    slots: Vec<u32>,
    names: Vec<[&'static str; 4]>,
    /// `names` by a hash of their text: index + 1, 0 = empty. Twice the size of `slots`, so it never fills.
    content_slots: Vec<u32>,
}

const SLOT_BITS: u32 = 12;

impl ContextMap {
    /// The number of a context by its names' text, numbering it if new (the slow path: once per distinct address).
    fn by_content(&mut self, names: [&'static str; 4]) -> usize {
        if self.content_slots.is_empty() {
            self.content_slots = vec![0; 1 << (SLOT_BITS + 1)];
        }
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for name in names {
            for &byte in name.as_bytes().iter().chain(&[0xff]) {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        let mask = (1usize << (SLOT_BITS + 1)) - 1;
        let mut slot = (hash >> 40) as usize & mask;
        loop {
            match self.content_slots[slot] {
                0 => break,
                entry if self.names[entry as usize - 1] == names => return entry as usize - 1,
                _ => slot = (slot + 1) & mask,
            }
        }
        self.names.push(names);
        // Past half full, new contexts are still numbered but not indexed (found by a scan): never on real input.
        if self.names.len() < (1 << SLOT_BITS) {
            self.content_slots[slot] = self.names.len() as u32;
            return self.names.len() - 1;
        }
        let id = self.names.len() - 1;
        self.names[..id]
            .iter()
            .position(|known| *known == names)
            .inspect(|_| {
                self.names.pop();
            })
            .unwrap_or(id)
    }

    fn get(&mut self, names: [&'static str; 4]) -> usize {
        if self.slots.is_empty() {
            self.slots = vec![0; 1 << SLOT_BITS];
        }
        let address = names.map(|name| name.as_ptr() as usize);
        let mixed = address.iter().fold(0u64, |hash, &a| {
            (hash ^ a as u64)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(23)
        });
        let mask = (1usize << SLOT_BITS) - 1;
        let mut slot = (mixed >> 40) as usize & mask;
        // Slots hold an index + 1 into `by_address`; the table is never more than half full (see below).
        loop {
            match self.slots[slot] {
                0 => break,
                entry => {
                    let (known, id) = self.by_address[entry as usize - 1];
                    if known == address {
                        return id as usize;
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
        let id = self.by_content(names);
        if self.by_address.len() < (1 << (SLOT_BITS - 1)) {
            self.by_address.push((address, id as u32));
            self.slots[slot] = self.by_address.len() as u32;
        }
        id
    }
}

/// Every adaptive model of one file.
pub struct Models {
    contexts: ContextMap,
    /// How many context numbers are in use (the next follower context gets this number).
    numbered: usize,
    /// Per context number: its kind or integer model's index in `kinds` or `uints`, + 1; 0 = none yet. A context
    /// is used for kinds or for integers, so each gets only the model it uses (the two were both allocated per
    /// context: megabytes on a large script, mostly never read).
    kind_index: Vec<u32>,
    uint_index: Vec<u32>,
    kinds: Vec<KindModel>,
    uints: Vec<UIntModel>,
    /// Per context number (read for coarse contexts): the mixer's weights and the last value coded there, side by
    /// side so a value reads one line for both.
    coarse: Vec<Coarse>,
    /// (coarse context, last value) → the context of "what followed that value here".
    followers: FollowerMap,
    /// The reader's shortcut to `contexts`: (coarse, fine) by small numbers instead of hashed names.
    places: PlaceCache,
    stretch: Box<Stretch>,
    text: TextModel,
    /// The text model's roles for the bytes of base64 text and of hex text (the two after the string roles).
    binary_role: usize,
    /// Whether a long string is coded as the bytes of its base64 text, its padding (two decisions), and whether the
    /// bytes are stored (`text`).
    base64: [Bit; 4],
    /// Whether a long string is coded as the bytes of its hex text, their case, and whether they are stored.
    hex: [Bit; 3],
    float_bytes: Vec<Bit>,
    /// Whether a number that is not a small integer is coded in its decimal form (`float`).
    float_decimal: Bit,
    /// Per string role, string numbers by recency: the most recent last.
    pub(crate) recency: Vec<Vec<u32>>,
    /// Repeats of whole runs of values (code written twice).
    values: ValueMatch,
}

/// A coarse context's mixer weights and the last value coded there.
#[derive(Clone, Copy)]
struct Coarse {
    weights: [Weights; DEPTHS],
    last: u32,
}

/// Mixer weight sets per coarse context: one for each of a value's first seven decisions, the last for the rest
/// (format 7: which of the two contexts to trust differs between a kind's first bit and its last; 0.3 % smaller on
/// both corpora; 4 or 16 sets were larger than 8).
const DEPTHS: usize = 8;

const FRESH_COARSE: Coarse = Coarse {
    weights: [WEIGHTS; DEPTHS],
    last: 0,
};

/// Where a value sits: the parent node's field in its own parent (`role`), the node's interface, the field.
pub type Place = (&'static str, &'static str, &'static str);

/// The contexts of a value: the two it is predicted from, and the one that holds the mixer's weights and the
/// previous value.
#[derive(Clone, Copy)]
struct Contexts {
    /// (interface, field): holds the weights and the previous value (its own bits are no longer mixed in).
    coarse: usize,
    /// (parent's field, interface, field): its model's index in `kinds` or `uints`.
    fine: usize,
    /// (interface, field, the previous value there): sequences such as a statement list's kinds. Its model's index.
    follower: usize,
}

/// One decision of a value: the bits at a slot of its fine and follower models, mixed with its coarse context's
/// weights for the value's `decided`-th decision and the value match model's guess while it holds (see [`Decide`]).
struct Mixed<'a, const N: usize> {
    stretch: &'a Stretch,
    fine: &'a mut [Bit; N],
    follower: &'a mut [Bit; N],
    weights: &'a mut [Weights; DEPTHS],
    guess: &'a mut Guess,
    /// How many of the value's decisions were taken before this one.
    decided: usize,
}

impl<C: Coder, const N: usize> Decide<C> for Mixed<'_, N> {
    #[inline(always)]
    fn decide(&mut self, coder: &mut C, slot: usize, bit: bool) -> bool {
        let (fine, follower) = (&mut self.fine[slot], &mut self.follower[slot]);
        let weights = &mut self.weights[self.decided.min(DEPTHS - 1)];
        self.decided += 1;
        if self.guess.left == 0 {
            // No guess: a copy of the decision without the third input (its product and update are zero).
            return mixed_bit(coder, self.stretch, fine, follower, weights, 0, bit);
        }
        let (input, expected) = self.guess.next(self.stretch);
        let bit = mixed_bit(coder, self.stretch, fine, follower, weights, input, bit);
        self.guess.learn(expected, bit);
        bit
    }
}

/// Runs `walk` on the fine and follower models of `at` (the per-value lookup, so each decision of the value then
/// indexes the models' own bits instead of copying two bits out of the tables and back). When both are one
/// context (a place with no parent's field and no follower of its own), a copy of the model stands in for the
/// second: both then see identical bits and identical updates, as two copies of one bit did, and the copy is
/// dropped, which leaves the model adapted once per decision, as before.
#[inline(always)]
fn with_pair<M: Clone, R>(
    models: &mut [M],
    at: Contexts,
    walk: impl FnOnce(&mut M, &mut M) -> R,
) -> R {
    match models.get_disjoint_mut([at.fine, at.follower]) {
        Ok([fine, follower]) => walk(fine, follower),
        Err(_) => {
            // In bounds: `contexts` allocated both models; so here fine == follower.
            let fine = &mut models[at.fine];
            let mut copy = fine.clone();
            walk(fine, &mut copy)
        }
    }
}

impl Models {
    /// Fresh models for `roles` string roles, `text_bytes` bytes of new string text and `values` values (the
    /// header's totals; 0 when not known).
    pub fn new(roles: usize, text_bytes: usize, values: usize) -> Models {
        Models {
            contexts: ContextMap::default(),
            numbered: 0,
            kind_index: Vec::new(),
            uint_index: Vec::new(),
            kinds: Vec::new(),
            uints: Vec::new(),
            coarse: Vec::new(),
            followers: FollowerMap::default(),
            places: PlaceCache::default(),
            stretch: stretch_table(),
            text: TextModel::new(roles + 2, text_bytes),
            binary_role: roles,
            base64: [Bit::default(); 4],
            hex: [Bit::default(); 3],
            float_bytes: vec![Bit::default(); 8 * 256],
            float_decimal: Bit::default(),
            recency: vec![Vec::new(); roles],
            values: ValueMatch::new(values),
        }
    }

    /// The contexts of a value of `category` at `place` (`kind`: a node kind, else an integer), with the fine and
    /// follower contexts' models allocated.
    fn contexts(
        &mut self,
        category: &'static str,
        place: Place,
        key: PlaceKey,
        kind: bool,
    ) -> Contexts {
        let cached = self.places.get(key);
        if let Some(&PlaceEntry {
            coarse,
            fine_model,
            row,
            ..
        }) = cached.and_then(|slot| self.places.slots.get(slot))
        {
            if fine_model != NOT_YET {
                // A place seen before: its coarse context, its fine context's model and its coarse context's row
                // of followers never change once known, so only the follower is looked up (the same steps as
                // below, in the same order, so the contexts and models are numbered identically).
                let coarse = coarse as usize;
                let last = last_bucket(self.coarse[coarse].last);
                let next = self.numbered;
                let follower = self
                    .followers
                    .get_in_row(row as usize, last, next)
                    .unwrap_or(coarse);
                self.grow(follower + 1);
                let follower = if kind {
                    self.kind_model(follower)
                } else {
                    self.uint_model(follower)
                };
                return Contexts {
                    coarse,
                    fine: fine_model as usize,
                    follower,
                };
            }
        }
        let (coarse, fine) = match cached.and_then(|slot| self.places.slots.get(slot)) {
            Some(entry) => (entry.coarse as usize, entry.fine as usize),
            None => {
                let coarse = self.contexts.get([category, "", place.1, place.2]);
                let fine = self.contexts.get([category, place.0, place.1, place.2]);
                self.places.insert(key, (coarse, fine));
                (coarse, fine)
            }
        };
        self.grow(coarse.max(fine) + 1);
        let last = last_bucket(self.coarse[coarse].last);
        let next = self.numbered;
        let follower = self.followers.get(coarse, last, next).unwrap_or(coarse);
        self.grow(follower + 1);
        let (fine, follower) = if kind {
            (self.kind_model(fine), self.kind_model(follower))
        } else {
            (self.uint_model(fine), self.uint_model(follower))
        };
        // Remember the fine model and the followers' row for the next value at this place.
        let row = self.followers.row_of.get(coarse).copied().unwrap_or(0);
        if let Some(entry) = self
            .places
            .get(key)
            .and_then(|slot| self.places.slots.get_mut(slot))
        {
            if row != 0 {
                entry.fine_model = fine as u32;
                entry.row = row - 1;
            }
        }
        Contexts {
            coarse,
            fine,
            follower,
        }
    }

    /// Numbers contexts up to `needed` (fresh weights, no value seen, no models yet).
    fn grow(&mut self, needed: usize) {
        if needed > self.numbered {
            self.numbered = needed;
            self.coarse.resize(needed, FRESH_COARSE);
            self.kind_index.resize(needed, 0);
            self.uint_index.resize(needed, 0);
        }
    }

    /// The index in `kinds` of context `context`'s kind model, a fresh one on first use.
    #[inline]
    fn kind_model(&mut self, context: usize) -> usize {
        match self.kind_index[context] {
            0 => {
                self.kinds.push(KindModel::default());
                self.kind_index[context] = self.kinds.len() as u32;
                self.kinds.len() - 1
            }
            index => index as usize - 1,
        }
    }

    /// The index in `uints` of context `context`'s integer model, a fresh one on first use.
    #[inline]
    fn uint_model(&mut self, context: usize) -> usize {
        match self.uint_index[context] {
            0 => {
                self.uints.push(UIntModel::default());
                self.uint_index[context] = self.uints.len() as u32;
                self.uints.len() - 1
            }
            index => index as usize - 1,
        }
    }

    /// Codes a node kind reference (< 128) at `place`.
    pub fn kind<C: Coder>(
        &mut self,
        coder: &mut C,
        place: Place,
        key: PlaceKey,
        value: u32,
    ) -> u32 {
        let at = self.contexts("kind", place, key, true);
        let decisions = counts::get(counts::DECISIONS);
        let cost_before = trace::cost_so_far();
        let (stretch, models) = (&self.stretch, &mut self.kinds);
        let weights = &mut self.coarse[at.coarse].weights;
        let mut guess = self.values.guess(KIND_TAG, kind_path);
        let value = with_pair(models, at, |fine, follower| {
            kind_symbol(
                coder,
                value,
                &mut Mixed {
                    stretch,
                    fine: &mut fine.bits,
                    follower: &mut follower.bits,
                    weights,
                    guess: &mut guess,
                    decided: 0,
                },
            )
        });
        self.values.end(guess, KIND_TAG, value);
        self.coarse[at.coarse].last = value;
        counts::value(counts::KINDS, decisions);
        trace::kind(trace::KindEvent {
            coarse: at.coarse as u32,
            fine: at.fine as u32,
            follower: at.follower as u32,
            value,
            bits: trace::cost_so_far() - cost_before,
        });
        value
    }

    /// Codes an integer of `category` at `place`.
    pub fn uint<C: Coder>(
        &mut self,
        coder: &mut C,
        category: &'static str,
        place: Place,
        key: PlaceKey,
        value: u32,
    ) -> u32 {
        let at = self.contexts(category, place, key, false);
        let decisions = counts::get(counts::DECISIONS);
        let cost_before = trace::cost_so_far();
        trace::take_marks();
        let tag = uint_tag(category);
        let mut guess = self.values.guess(tag, uint_path);
        let value = self.uint_at(coder, at, value, &mut guess);
        self.values.end(guess, tag, value);
        if let Some(counter) = counts::uint_counter(category) {
            counts::value(counter, decisions);
        }
        if cfg!(feature = "value-trace") {
            let (marks, cost_after) = (trace::take_marks(), trace::cost_so_far());
            let head_end = marks.first().copied().unwrap_or(cost_after);
            let length_end = marks.get(1).copied().unwrap_or(head_end);
            trace::uint(trace::UintEvent {
                category,
                coarse: at.coarse as u32,
                fine: at.fine as u32,
                follower: at.follower as u32,
                value,
                head_bits: head_end - cost_before,
                length_bits: length_end - head_end,
                top_bits: cost_after - length_end,
            });
        }
        value
    }

    /// Codes an integer with the models of `at` (one copy of the integer code for `uint` and `flag`: it is large).
    #[inline(never)]
    fn uint_at<C: Coder>(
        &mut self,
        coder: &mut C,
        at: Contexts,
        value: u32,
        guess: &mut Guess,
    ) -> u32 {
        let (stretch, models) = (&self.stretch, &mut self.uints);
        let weights = &mut self.coarse[at.coarse].weights;
        let value = with_pair(models, at, |fine, follower| {
            uint_symbol(
                coder,
                value,
                &mut Mixed {
                    stretch,
                    fine: &mut fine.bits,
                    follower: &mut follower.bits,
                    weights,
                    guess,
                    decided: 0,
                },
            )
        });
        self.coarse[at.coarse].last = value;
        value
    }

    /// Codes a flag or small tag at `place`: first whether it is 0 (most flags are false), then, if not, the
    /// integer. A bare integer costs four decisions even for a 0; this is one for a 0 and five otherwise, and the
    /// files came out slightly smaller too (the zero decision learns faster than a 4-level tree).
    pub fn flag<C: Coder>(
        &mut self,
        coder: &mut C,
        place: Place,
        key: PlaceKey,
        value: u32,
    ) -> u32 {
        let at = self.contexts("flag", place, key, false);
        let decisions = counts::get(counts::DECISIONS);
        let (stretch, models) = (&self.stretch, &mut self.uints);
        let weights = &mut self.coarse[at.coarse].weights;
        let mut guess = self.values.guess(FLAG_TAG, flag_path);
        // Bit 0 of an integer model is not a node of its trees, so it holds this decision.
        let zero = with_pair(models, at, |fine, follower| {
            let (input, expected) = guess.next(stretch);
            let zero = mixed_bit(
                coder,
                stretch,
                &mut fine.bits[0],
                &mut follower.bits[0],
                // The first set: the integer after a non-zero flag (`uint_at`) starts there too.
                &mut weights[0],
                input,
                value == 0,
            );
            guess.learn(expected, zero);
            zero
        });
        let value = if zero {
            self.coarse[at.coarse].last = 0;
            0
        } else {
            self.uint_at(coder, at, value, &mut guess)
        };
        self.values.end(guess, FLAG_TAG, value);
        if let Some(counter) = counts::uint_counter("flag") {
            counts::value(counter, decisions);
        }
        value
    }

    /// Codes the text of a new string of role `role`: its length, then whether it is hex (from `HEX_MIN_TEXT`
    /// bytes on), then whether it is base64, whole or after a data URL's header (from `BASE64_MIN_TEXT` on), then its
    /// bytes, or those the hex or base64 stands for (and the header's). `bytes` is filled when decoding, read when
    /// encoding. `max_len` bounds a decoded length.
    pub fn text<C: Coder>(
        &mut self,
        coder: &mut C,
        role: (usize, &'static str),
        bytes: &mut Vec<u8>,
        max_len: usize,
    ) -> Result<(), DecodeError> {
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        let key = PlaceKey::new(Category::Text, 0, role.0 as u32);
        let len = self.uint(coder, "text", ("", "", role.1), key, len) as usize;
        if len > max_len {
            return Err(DecodeError::BadLength(message!(
                "a string of ",
                len,
                " bytes exceeds the file's declared total"
            )));
        }
        let decoding = bytes.is_empty() && len > 0;
        if decoding {
            // One allocation for the text instead of a regrowth every few bytes.
            bytes.reserve_exact(len);
        }
        if len >= HEX_MIN_TEXT && len.is_multiple_of(2) {
            let hex = if decoding {
                None
            } else {
                base64::hex_decode(bytes)
            };
            if coder.bit(&mut self.hex[0], hex.is_some()) {
                return self.hex_bytes(coder, len, hex, bytes, decoding);
            }
        }
        if len >= BASE64_MIN_TEXT {
            let split = if decoding {
                None
            } else {
                base64::split(bytes, BASE64_MIN_TEXT)
            };
            if coder.bit(&mut self.base64[0], split.is_some()) {
                let (prefix, raw) = split.map_or((0, None), |(prefix, raw)| (prefix, Some(raw)));
                let key = PlaceKey::new(Category::Text, 1, 0);
                let prefix = self.uint(coder, "text", ("", "", "base64 prefix"), key, prefix as u32)
                    as usize;
                if prefix > len
                    || !(len - prefix).is_multiple_of(4)
                    || len - prefix < BASE64_MIN_TEXT
                {
                    return Err(DecodeError::BadLength(message!(
                        "a base64 tail after ",
                        prefix,
                        " of ",
                        len,
                        " bytes"
                    )));
                }
                self.plain_text(coder, role.0, prefix, bytes, decoding);
                return self.base64_bytes(coder, len - prefix, raw, bytes, decoding);
            }
        }
        self.plain_text(coder, role.0, len, bytes, decoding);
        Ok(())
    }

    /// Codes `len` bytes of text of string role `role`: decoding, appended to `bytes`; encoding, read from its start.
    fn plain_text<C: Coder>(
        &mut self,
        coder: &mut C,
        role: usize,
        len: usize,
        bytes: &mut Vec<u8>,
        decoding: bool,
    ) {
        self.text.begin(role);
        let mut history = 0u32;
        for i in 0..len {
            let byte = if decoding { 0 } else { bytes[i] };
            let byte = self.text.code(coder, role, history, byte);
            if decoding {
                bytes.push(byte);
            }
            history = history << 8 | u32::from(byte);
        }
    }

    /// Codes the bytes that `len` hex digits stand for: their case, then the bytes (`data_bytes`). Encoding, `hex`
    /// holds them and the case; decoding, their hex text is appended to `bytes`.
    fn hex_bytes<C: Coder>(
        &mut self,
        coder: &mut C,
        len: usize,
        hex: Option<(Vec<u8>, bool)>,
        bytes: &mut Vec<u8>,
        decoding: bool,
    ) -> Result<(), DecodeError> {
        let upper = coder.bit(&mut self.hex[1], hex.as_ref().is_some_and(|hex| hex.1));
        let mut decoded = hex.map_or_else(|| vec![0; len / 2], |hex| hex.0);
        self.data_bytes(coder, Data::Hex, &mut decoded, decoding);
        if decoding {
            base64::hex_encode_into(&decoded, upper, bytes);
        }
        Ok(())
    }

    /// Codes the bytes that `len` characters of base64 text stand for: the padding (none, `=` or `==`), then the
    /// bytes (`data_bytes`). Encoding, `raw` holds them; decoding, their base64 text is appended to `bytes`.
    fn base64_bytes<C: Coder>(
        &mut self,
        coder: &mut C,
        len: usize,
        raw: Option<Vec<u8>>,
        bytes: &mut Vec<u8>,
        decoding: bool,
    ) -> Result<(), DecodeError> {
        let full = len / 4 * 3;
        let padding = raw.as_ref().map_or(0, |raw| full - raw.len());
        let padding = if coder.bit(&mut self.base64[1], padding > 0) {
            1 + usize::from(coder.bit(&mut self.base64[2], padding == 2))
        } else {
            0
        };
        let mut decoded = raw.unwrap_or_else(|| vec![0; full - padding]);
        self.data_bytes(coder, Data::Base64, &mut decoded, decoding);
        if decoding {
            base64::encode_into(&decoded, bytes);
        }
        Ok(())
    }

    /// Codes the bytes a base64 or hex text stands for, in place (decoding overwrites them): stored at 8 bits a byte
    /// when they look compressed or random already (`base64::looks_compressed`: an image, a font, a hash), where the
    /// models would spend 1–2 % more learning that nothing predicts them; else through the text model under the
    /// kind's own role. Base64 bytes are predicted from the bytes before them, as text is; hex bytes from the byte
    /// three back (the same channel of the previous colour in a table of RGB colours: d3's colour schemes), its place
    /// in a group of three, and the byte before.
    fn data_bytes<C: Coder>(
        &mut self,
        coder: &mut C,
        kind: Data,
        decoded: &mut [u8],
        decoding: bool,
    ) {
        // Only an encoder has the bytes to look at (decoding, they are all 0 here): a decoder skips the pass, and the
        // decode-only build leaves it out.
        let stored = !decoding && cfg!(feature = "encoder") && base64::looks_compressed(decoded);
        let (stored_bit, role) = match kind {
            Data::Base64 => (&mut self.base64[3], self.binary_role),
            Data::Hex => (&mut self.hex[2], self.binary_role + 1),
        };
        if coder.bit(stored_bit, stored) {
            for byte in decoded.iter_mut() {
                *byte = coder.direct(u32::from(*byte), 8) as u8;
            }
            return;
        }
        for i in 0..decoded.len() {
            let back = |n: usize| i.checked_sub(n).map_or(0, |at| u32::from(decoded[at]));
            let history = match kind {
                Data::Base64 => back(1) | back(2) << 8 | back(3) << 16 | back(4) << 24,
                Data::Hex => back(3) | (i as u32 % 3) << 8 | back(1) << 16,
            };
            decoded[i] = self.text.code(coder, role, history, decoded[i]);
        }
    }

    /// Codes a number that is not a small integer. Most are short decimals (0.5, 1e-6, 0.130275): those are coded as
    /// m × 10^e, the integer m (below 2^32) and the exponent e (−22..=22) through the integer models, when one
    /// multiplication or division of the two, as the decoder does it, gives the number back exactly (`decimal`);
    /// the rest as their 8 bytes. Eight bytes cost about 40 bits even for 0.5; its decimal form, a few.
    pub fn float<C: Coder>(&mut self, coder: &mut C, value: f64) -> Result<f64, DecodeError> {
        let decimal = decimal_form(value);
        let place = ("", "", "float");
        if coder.bit(&mut self.float_decimal, decimal.is_some()) {
            let (m, e) = decimal.unwrap_or_default();
            let key = PlaceKey::new(Category::Number, 0, 1);
            let e = self.uint(coder, "exponent", place, key, (e + MAX_EXPONENT) as u32);
            let m = self.uint(
                coder,
                "mantissa",
                place,
                PlaceKey::new(Category::Number, 0, 2),
                m,
            );
            let e = i64::from(e) - i64::from(MAX_EXPONENT);
            if e.unsigned_abs() > MAX_EXPONENT as u64 {
                return Err(DecodeError::BadReference("number out of range".into()));
            }
            return Ok(from_decimal(m, e as i32));
        }
        let bytes = value.to_le_bytes();
        let mut out = [0u8; 8];
        for (i, (&byte, slot)) in bytes.iter().zip(&mut out).enumerate() {
            let tree = &mut self.float_bytes[i * 256..i * 256 + 256];
            *slot = tree_walk(coder, 8, u32::from(byte), 0, &mut |c: &mut C, node, bit| {
                c.bit(&mut tree[node], bit)
            }) as u8;
        }
        Ok(f64::from_le_bytes(out))
    }
}

/// The largest decimal exponent of a number coded as m × 10^e: 10^22 is the largest power of ten an f64 holds
/// exactly, so one multiplication or division by it is correctly rounded.
const MAX_EXPONENT: i32 = 22;

/// 10^|e| (`e` in −22..=22), exact: every product on the way is a power of ten an f64 holds exactly. A loop, not a
/// table of 23 constants: with the error message shared with the reader's, 175 bytes less of the decode-only build
/// after gzip.
fn power_of_ten(e: i32) -> f64 {
    (0..e.unsigned_abs()).fold(1.0, |power, _| power * 10.0)
}

/// m × 10^e as one correctly rounded operation (`e` in −22..=22).
fn from_decimal(m: u32, e: i32) -> f64 {
    if e >= 0 {
        f64::from(m) * power_of_ten(e)
    } else {
        f64::from(m) / power_of_ten(e)
    }
}

/// The decimal form an encoder codes `value` in; the decode-only build, which only reads the decision, leaves the
/// search out.
#[cfg(feature = "encoder")]
fn decimal_form(value: f64) -> Option<(u32, i32)> {
    shortest_decimal(value)
}

/// See the encoder's `decimal_form`.
#[cfg(not(feature = "encoder"))]
fn decimal_form(_value: f64) -> Option<(u32, i32)> {
    None
}

/// The decimal form of `value` with the fewest digits that `from_decimal` turns back into exactly `value`: the
/// largest exponent first, so m has no trailing zeros. `None` for numbers that have none (more than 10 significant
/// digits, beyond 10^±22, negative, not finite).
#[cfg(feature = "encoder")]
fn shortest_decimal(value: f64) -> Option<(u32, i32)> {
    if !(value > 0.0 && value.is_finite()) {
        return None;
    }
    (-MAX_EXPONENT..=MAX_EXPONENT).rev().find_map(|e| {
        let power = power_of_ten(e);
        let m = if e >= 0 { value / power } else { value * power }.round();
        (m >= 1.0 && m <= f64::from(u32::MAX))
            .then_some(m as u32)
            .filter(|&m| from_decimal(m, e) == value)
            .map(|m| (m, e))
    })
}

/// The fewest characters of base64 (after a data URL's header, if any) that are coded as the bytes they stand for.
/// Every new string at least this long pays one adaptive decision for it. Shorter canonical base64 is mostly words
/// that happen to fit the alphabet ("addEventListener" is 16 characters of it), which the text model codes better as
/// text.
const BASE64_MIN_TEXT: usize = 64;

/// What a string's text stands for when it is coded as bytes (`Models::data_bytes`).
#[derive(Clone, Copy)]
enum Data {
    Base64,
    Hex,
}

/// The fewest hex digits that are coded as the bytes they stand for (every new string of at least this many
/// characters and an even length pays one decision for it). Shorter hex is mostly single colours and short ids,
/// which the string table and the text model code well: on d3, a limit of 18 saved 1,198 bytes, 32 1,077, 64 1,279,
/// 128 and 256 1,572.
const HEX_MIN_TEXT: usize = 128;

/// The value match model's tag of a node kind, a flag, and each integer category (`uint_tag`).
const KIND_TAG: u32 = 0;
const FLAG_TAG: u32 = 1;

/// The tag of an integer of `category`: a run of values only matches values of the same categories.
fn uint_tag(category: &str) -> u32 {
    match category {
        "string" => 2,
        "length" => 3,
        "number" => 4,
        "delta" => 5,
        "text" => 6,
        _ => 7,
    }
}

/// A flag's decisions: "is it 0", then the integer's.
fn flag_path(value: u32) -> (u32, u32) {
    if value == 0 {
        return (1, 1);
    }
    let (path, count) = uint_path(value);
    (path, count + 1)
}

/// The guess of one value: the decisions it expects, in order, while they keep coming true.
pub(crate) struct Guess {
    path: u32,
    /// Decisions still guessed (0: none, or the value left the guessed one).
    left: u32,
    /// The trust bit this guess reads and teaches (its tag and match length bucket).
    trust: Bit,
}

impl Guess {
    /// The stretched guess for the next decision (0 for none) and the bit it expects.
    #[inline(always)]
    fn next(&self, stretch: &Stretch) -> (i32, bool) {
        if self.left == 0 {
            return (0, false);
        }
        let expected = self.path >> (self.left - 1) & 1 == 1;
        let trust = mixing::stretched(stretch, self.trust);
        (if expected { trust } else { -trust }, expected)
    }

    /// Learns from the coded bit: the trust adapts, and a wrong guess ends the value's guessing.
    #[inline(always)]
    fn learn(&mut self, expected: bool, bit: bool) {
        if self.left == 0 {
            return;
        }
        self.trust.observe(expected == bit);
        self.left = if expected == bit { self.left - 1 } else { 0 };
    }
}

/// Values that follow the same run of values as before: code written twice (a bundle's repeated helpers, generated
/// arithmetic, a pattern of calls) is the same run of kinds, string references and lengths. The latest
/// `VALUE_MATCH_MIN` values are searched for ([`Repeats`]; a run of `RECOVER_FROM` or more survives one value that
/// differs); while the values keep agreeing, the value after the earlier occurrence is the guess, fed to every
/// decision of the next value as a third mixer input.
struct ValueMatch {
    /// (tag << 28 | value) of every value so far.
    repeats: Repeats<u32>,
    /// The latest `VALUE_MATCH_MIN` tokens as a polynomial in `ROLL`: the window's hash, updated in place.
    rolling: u64,
    /// P(a guessed decision is right), by tag and match length bucket.
    trust: [[Bit; 16]; 8],
}

const VALUE_MATCH_MIN: usize = 4;
const VALUE_MATCH_BITS: u32 = 16;
/// The rolling hash's base, and its power that takes the oldest token out of the window.
const ROLL: u64 = 0x0000_0100_0000_01B3;
const ROLL_OUT: u64 = {
    // ROLL^(VALUE_MATCH_MIN - 1): the oldest token's factor.
    let mut power = 1u64;
    let mut i = 1;
    while i < VALUE_MATCH_MIN {
        power = power.wrapping_mul(ROLL);
        i += 1;
    }
    power
};
/// The most values the value match model reserves room for up front (16 MB of history).
const RESERVED_VALUES: usize = 1 << 22;
/// A run at least this long survives one value that differs.
const RECOVER_FROM: u32 = 5;

impl ValueMatch {
    /// A model with room for `values` values (up to `RESERVED_VALUES`: a hostile header cannot make it reserve more).
    fn new(values: usize) -> ValueMatch {
        ValueMatch {
            repeats: Repeats::new(
                VALUE_MATCH_MIN,
                VALUE_MATCH_BITS,
                RECOVER_FROM,
                0,
                values.min(RESERVED_VALUES),
            ),
            rolling: 0,
            trust: [[Bit::default(); 16]; 8],
        }
    }

    /// The guess for a value of `tag`, whose decisions `path` lists.
    #[inline(always)]
    fn guess(&self, tag: u32, path: fn(u32) -> (u32, u32)) -> Guess {
        let bucket = (self.repeats.length() as usize).min(15);
        let trust = self.trust[tag as usize & 7][bucket];
        match self.repeats.expected() {
            Some(token) if token >> 28 == tag => {
                let (path, left) = path(token & 0x0FFF_FFFF);
                Guess { path, left, trust }
            }
            _ => Guess {
                path: 0,
                left: 0,
                trust,
            },
        }
    }

    /// Keeps what the guess learnt and adds the coded value.
    fn end(&mut self, guess: Guess, tag: u32, value: u32) {
        let bucket = (self.repeats.length() as usize).min(15);
        self.trust[tag as usize & 7][bucket] = guess.trust;
        let token = tag << 28 | value.min(0x0FFF_FFFF);
        let history = self.repeats.history();
        // The token leaving the window is taken out of the hash, the new one put in.
        let leaving = if history.len() >= VALUE_MATCH_MIN {
            u64::from(history[history.len() - VALUE_MATCH_MIN])
        } else {
            0
        };
        self.rolling = self
            .rolling
            .wrapping_sub(leaving.wrapping_mul(ROLL_OUT))
            .wrapping_mul(ROLL)
            .wrapping_add(u64::from(token));
        self.repeats.push(token, self.rolling);
    }
}

/// The follower bucket of a coarse context's previous value: small values keep their own follower context, larger
/// ones share one per power of two.
#[inline(always)]
fn last_bucket(last: u32) -> u32 {
    match last {
        small @ 0..64 => small,
        large => 64 + large.ilog2(),
    }
}

/// From (coarse context, previous value's bucket) to the context numbered for it: one row of buckets per coarse
/// context, indexed directly (a hashed table cost a hash and a probe into 256 KB per value). At most
/// `FOLLOWER_LIMIT` followers are numbered; after that a new pair gets none (the coarse context stands in), so
/// memory stays bounded and the numbering is the one the hashed table gave.
#[derive(Default)]
struct FollowerMap {
    /// Per context number: its row in `rows` + 1; 0 = no row yet.
    row_of: Vec<u32>,
    /// `LAST_BUCKETS` entries per row: the follower context + 1; 0 = not numbered yet.
    rows: Vec<u32>,
    used: usize,
}

/// Buckets of previous values: 0..64 themselves, then one per power of two up to 2^31 (see `Models::contexts`).
const LAST_BUCKETS: usize = 96;
const FOLLOWER_LIMIT: usize = 1 << 13;

impl FollowerMap {
    /// The context for `(coarse, last)`, numbering a new one `next` if the pair is new and there is room.
    #[inline]
    fn get(&mut self, coarse: usize, last: u32, next: usize) -> Option<usize> {
        if coarse >= self.row_of.len() {
            self.row_of.resize(coarse + 1, 0);
        }
        let row = match self.row_of[coarse] {
            0 => {
                self.rows.resize(self.rows.len() + LAST_BUCKETS, 0);
                let rows = self.rows.len() / LAST_BUCKETS;
                self.row_of[coarse] = rows as u32;
                rows - 1
            }
            row => row as usize - 1,
        };
        self.get_in_row(row, last, next)
    }

    /// [`FollowerMap::get`] for a coarse context whose row is `row`.
    #[inline]
    fn get_in_row(&mut self, row: usize, last: u32, next: usize) -> Option<usize> {
        let slot = self
            .rows
            .get_mut(row * LAST_BUCKETS + last as usize % LAST_BUCKETS)?;
        if *slot != 0 {
            return Some(*slot as usize - 1);
        }
        if self.used >= FOLLOWER_LIMIT {
            return None;
        }
        self.used += 1;
        *slot = next as u32 + 1;
        Some(next)
    }
}

/// A value's category, for [`PlaceKey`]s.
#[derive(Clone, Copy)]
pub enum Category {
    /// Node kinds.
    Kind = 1,
    /// String references.
    String,
    /// List lengths.
    Length,
    /// Flags and small tags.
    Flag,
    /// Number tags.
    Number,
    /// Differences between small numbers.
    Delta,
    /// String text lengths.
    Text,
}

/// Where a value sits as small numbers, for the reader's context cache: its category, the place of the node
/// around it and its own place, each place a number the reader gives every (interface, field) it reads (see
/// `Reader::enter_field`). The cache is only a shortcut: the contexts are still named by their text, so the
/// writer (which passes [`PlaceKey::NONE`]) numbers them identically.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PlaceKey(u32);

/// Places are below this (interface index × 16 + field ordinal).
pub const PLACES: u32 = 1 << 12;

impl PlaceKey {
    /// No shortcut: look the contexts up by name.
    pub const NONE: PlaceKey = PlaceKey(0);

    /// The key of a value of `category` at `place` inside a node read at `outer` (both below [`PLACES`]).
    #[inline]
    pub fn new(category: Category, outer: u32, place: u32) -> PlaceKey {
        PlaceKey((category as u32) << 24 | (outer & (PLACES - 1)) << 12 | (place & (PLACES - 1)))
    }
}

/// An open-addressing table from [`PlaceKey`] to (coarse, fine) context numbers, and once known the fine context's
/// model and the coarse context's row of followers; fixed size, at most half full (then new places are simply not
/// cached).
#[derive(Default)]
struct PlaceCache {
    slots: Vec<PlaceEntry>,
    used: usize,
}

/// One place's cached contexts; key 0 marks an empty slot.
#[derive(Clone, Copy)]
struct PlaceEntry {
    key: u32,
    coarse: u32,
    fine: u32,
    /// The fine context's model (in `kinds` or `uints`, by the key's category), or `NOT_YET`.
    fine_model: u32,
    /// The coarse context's row in `FollowerMap::rows`.
    row: u32,
}

const NOT_YET: u32 = u32::MAX;

const EMPTY_PLACE: PlaceEntry = PlaceEntry {
    key: 0,
    coarse: 0,
    fine: 0,
    fine_model: NOT_YET,
    row: 0,
};

const PLACE_CACHE_BITS: u32 = 13;

impl PlaceCache {
    #[inline]
    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - PLACE_CACHE_BITS)) as usize
    }

    /// The slot holding `key`, if it is cached.
    #[inline]
    fn get(&self, key: PlaceKey) -> Option<usize> {
        if key == PlaceKey::NONE || self.slots.is_empty() {
            return None;
        }
        let mask = (1usize << PLACE_CACHE_BITS) - 1;
        let mut slot = Self::slot(key.0);
        loop {
            match self.slots.get(slot)?.key {
                0 => return None,
                known if known == key.0 => return Some(slot),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn insert(&mut self, key: PlaceKey, (coarse, fine): (usize, usize)) {
        if key == PlaceKey::NONE || self.used >= 1 << (PLACE_CACHE_BITS - 1) {
            return;
        }
        if self.slots.is_empty() {
            self.slots = vec![EMPTY_PLACE; 1 << PLACE_CACHE_BITS];
        }
        let mask = (1usize << PLACE_CACHE_BITS) - 1;
        let mut slot = Self::slot(key.0);
        while self.slots[slot].key != 0 {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = PlaceEntry {
            key: key.0,
            coarse: coarse as u32,
            fine: fine as u32,
            ..EMPTY_PLACE
        };
        self.used += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{from_decimal, shortest_decimal};

    #[test]
    fn short_decimals_come_back_exactly_and_long_ones_stay_bytes() {
        let expected = [
            (0.5, Some((5, -1))),
            (1e-6, Some((1, -6))),
            (0.130275, Some((130_275, -6))),
            (2.55, Some((255, -2))),
            (16.66, Some((1666, -2))),
            (1e21, Some((1, 21))),
            (4_294_967_295.0, Some((4_294_967_295, 0))),
            (1e-22, Some((1, -22))),
            // 10^23 is 10 × 10^22, one correctly rounded product.
            (1e23, Some((10, 22))),
            // More than 10 significant digits, beyond 10^±22, or not a positive finite number.
            (0.123_456_789_012_345_6, None),
            (1.110_223_024_625_156_5e-16, None),
            (1e-23, None),
            (0.0, None),
            (f64::INFINITY, None),
            (f64::NAN, None),
        ];
        for (value, form) in expected {
            assert_eq!(shortest_decimal(value), form, "{value}");
            if let Some((m, e)) = form {
                assert_eq!(from_decimal(m, e).to_bits(), value.to_bits(), "{value}");
            }
        }
    }

    #[test]
    fn every_decimal_form_found_reads_back_bit_for_bit() {
        // Doubles of every magnitude the form covers, and neighbours of short decimals (one bit away).
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let exponent = (state % 60) as i32 - 30;
            let short = (state >> 20) as u32 % 100_000;
            let value = f64::from(short) * 10f64.powi(exponent);
            for candidate in [value, f64::from_bits(value.to_bits() + 1)] {
                if let Some((m, e)) = shortest_decimal(candidate) {
                    assert_eq!(
                        from_decimal(m, e).to_bits(),
                        candidate.to_bits(),
                        "{candidate}"
                    );
                }
            }
        }
    }
}
