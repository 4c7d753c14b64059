//! The context layout's models, shared by the writer and the reader so both adapt identically: one model per
//! context (value category, the interface being read, the field), numbered in order of first use, plus per-role
//! recency lists of the strings seen so far and the model of new string text.
//!
//! A string reference is coded as one symbol: 0 = null, 1 = a string not seen before (its text follows), 2 + n = the
//! string used n distinct strings ago in the same role (move-to-front). Minified code reuses a handful of short
//! names all the time, so most references are small recency positions.

use super::entropy::{Bit, Coder, KindModel, UIntModel};
use super::text_model::TextModel;
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
    by_address: Vec<((usize, usize, usize), u32)>,
    slots: Vec<u32>,
    names: Vec<(&'static str, &'static str, &'static str)>,
}

const SLOT_BITS: u32 = 12;

impl ContextMap {
    fn get(&mut self, category: &'static str, node: &'static str, key: &'static str) -> usize {
        if self.slots.is_empty() {
            self.slots = vec![0; 1 << SLOT_BITS];
        }
        let address = (
            category.as_ptr() as usize,
            node.as_ptr() as usize,
            key.as_ptr() as usize,
        );
        let mixed = (address.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (address.1 as u64)
                .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                .rotate_left(21)
            ^ (address.2 as u64)
                .wrapping_mul(0x1656_67b1_9e37_79f9)
                .rotate_left(42);
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
        let id = match self
            .names
            .iter()
            .position(|&(c, n, k)| c == category && n == node && k == key)
        {
            Some(id) => id,
            None => {
                self.names.push((category, node, key));
                self.names.len() - 1
            }
        };
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
    kinds: Vec<KindModel>,
    uints: Vec<UIntModel>,
    text: TextModel,
    float_bytes: Vec<Bit>,
    /// Per string role, string numbers by recency: the most recent last.
    pub(crate) recency: Vec<Vec<u32>>,
}

impl Models {
    /// Fresh models for `roles` string roles.
    pub fn new(roles: usize) -> Models {
        Models {
            contexts: ContextMap::default(),
            kinds: Vec::new(),
            uints: Vec::new(),
            text: TextModel::new(roles),
            float_bytes: vec![Bit::default(); 8 * 256],
            recency: vec![Vec::new(); roles],
        }
    }

    fn context(&mut self, category: &'static str, node: &'static str, key: &'static str) -> usize {
        let id = self.contexts.get(category, node, key);
        if id >= self.uints.len() {
            self.uints.resize(id + 1, UIntModel::default());
            self.kinds.resize(id + 1, KindModel::default());
        }
        id
    }

    /// Codes a node kind reference (< 128) in its context.
    pub fn kind<C: Coder>(
        &mut self,
        coder: &mut C,
        context: (&'static str, &'static str),
        value: u32,
    ) -> u32 {
        let id = self.context("kind", context.0, context.1);
        self.kinds[id].code(coder, value)
    }

    /// Codes an integer in its context.
    pub fn uint<C: Coder>(
        &mut self,
        coder: &mut C,
        category: &'static str,
        context: (&'static str, &'static str),
        value: u32,
    ) -> u32 {
        let id = self.context(category, context.0, context.1);
        self.uints[id].code(coder, value)
    }

    /// Codes the text of a new string of role `role` (its length, then its bytes); `bytes` is filled when
    /// decoding, read when encoding. `max_len` bounds a decoded length.
    pub fn text<C: Coder>(
        &mut self,
        coder: &mut C,
        role: (usize, &'static str),
        bytes: &mut Vec<u8>,
        max_len: usize,
    ) -> Result<(), DecodeError> {
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        let len = self.uint(coder, "text", ("", role.1), len) as usize;
        if len > max_len {
            return Err(DecodeError::BadLength(format!(
                "a string of {len} bytes exceeds the file's declared total"
            )));
        }
        let decoding = bytes.is_empty() && len > 0;
        let mut history = 0u32;
        for i in 0..len {
            let byte = if decoding { 0 } else { bytes[i] };
            let byte = self.text.code(coder, role.0, history, byte);
            if decoding {
                bytes.push(byte);
            }
            history = history << 8 | u32::from(byte);
        }
        Ok(())
    }

    /// Codes the 8 bytes of a number that is not a small integer.
    pub fn float<C: Coder>(&mut self, coder: &mut C, value: f64) -> f64 {
        let bytes = value.to_le_bytes();
        let mut out = [0u8; 8];
        for (i, (&byte, slot)) in bytes.iter().zip(&mut out).enumerate() {
            let tree = &mut self.float_bytes[i * 256..i * 256 + 256];
            *slot = super::entropy::tree_symbol(coder, tree, 8, u32::from(byte)) as u8;
        }
        f64::from_le_bytes(out)
    }
}
