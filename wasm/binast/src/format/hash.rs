//! FNV-1a for the encoder's and decoder's hash maps: keys are short (names, identifiers), where SipHash's
//! per-call setup dominates and its DoS resistance buys nothing (the input is our own parse of a script).

use core::hash::Hasher;

/// FNV-1a, 64-bit. Not in the decode-only build, which has no hash maps (`FnvMap` below).
#[cfg_attr(
    all(target_arch = "wasm32", not(feature = "encoder")),
    allow(dead_code)
)]
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
#[cfg(not(all(target_arch = "wasm32", not(feature = "encoder"))))]
pub type FnvMap<K, V> = std::collections::HashMap<K, V, core::hash::BuildHasherDefault<Fnv>>;

/// The decode-only build has no std (lib.rs) and never writes a file: the writer, which it compiles but does not
/// keep, gets a map of `alloc`'s.
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
pub type FnvMap<K, V> = alloc::collections::BTreeMap<K, V>;
