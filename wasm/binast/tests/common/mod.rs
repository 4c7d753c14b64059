//! What the codec's integration tests share: a deterministic generator and the byte mutations they feed the decoder.

/// The next number of a xorshift generator (deterministic, so a failure reproduces).
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `good` with one random byte flipped, inserted or removed; returns the position touched.
pub fn mutate(good: &[u8], seed: &mut u64) -> (Vec<u8>, usize) {
    let mut bytes = good.to_vec();
    let position = (xorshift(seed) as usize) % bytes.len();
    match xorshift(seed) % 3 {
        0 => bytes[position] ^= 1 << (xorshift(seed) % 8),
        1 => bytes.insert(position, xorshift(seed) as u8),
        _ => {
            bytes.remove(position);
        }
    }
    (bytes, position)
}
