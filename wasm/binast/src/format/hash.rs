//! FNV-1a for the encoder's and decoder's hash maps: keys are short (names, identifiers), where SipHash's
//! per-call setup dominates and its DoS resistance buys nothing (the input is our own parse of a script).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, 64-bit.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with FNV-1a.
pub type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
