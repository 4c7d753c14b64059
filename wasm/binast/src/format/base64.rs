//! Base64 and hex text inside strings (format 6): an inlined Wasm module, a font or a packed table is often shipped
//! as one long base64 string, whose 6 bits per character the text model can only learn character by character, and
//! colour tables as hex. Coded as the bytes they stand for instead, the models see the data itself:
//! es-module-lexer's 15,736-character Wasm string is 6,413 bytes after brotli as text, 4,693 as the bytes. Only
//! canonical text is taken (base64: the standard alphabet, `=` padding to a multiple of 4, zero bits where the
//! padding starts; hex: digits of one case), so writing the bytes back gives exactly the original characters.

use crate::prelude::*;

/// The standard alphabet (RFC 4648 §4), by 6-bit value.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of an alphabet character, or `None`.
fn sextet(character: u8) -> Option<u32> {
    match character {
        b'A'..=b'Z' => Some(u32::from(character - b'A')),
        b'a'..=b'z' => Some(u32::from(character - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(character - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The bytes `text` encodes when it is canonical padded base64 (its length a multiple of 4, at most two `=` and only
/// at the end, the unused bits before them zero), else `None`. Empty text is not taken.
pub fn decode_canonical(text: &[u8]) -> Option<Vec<u8>> {
    if text.is_empty() || !text.len().is_multiple_of(4) {
        return None;
    }
    let padding = text.iter().rev().take_while(|&&c| c == b'=').count();
    if padding > 2 {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    let last_group = text.len() / 4 - 1;
    for (index, group) in text.chunks_exact(4).enumerate() {
        // Padding characters read as zero bits; the checks below make sure those bits were not needed.
        let pad_here = if index == last_group { padding } else { 0 };
        let mut word = 0u32;
        for &character in &group[..4 - pad_here] {
            word = word << 6 | sextet(character)?;
        }
        word <<= 6 * pad_here;
        let [_, a, b, c] = word.to_be_bytes();
        match pad_here {
            0 => bytes.extend_from_slice(&[a, b, c]),
            1 if c == 0 => bytes.extend_from_slice(&[a, b]),
            2 if b == 0 && c == 0 => bytes.push(a),
            _ => return None,
        }
    }
    Some(bytes)
}

/// Where `text`'s base64 starts and the bytes it stands for, when it has at least `min_len` characters of it: all of
/// `text`, or what follows the first `;base64,` (a data URL: an inlined image, font or Wasm module). Hex digits are
/// left as text (`is_hex`).
pub fn split(text: &[u8], min_len: usize) -> Option<(usize, Vec<u8>)> {
    let start = if text.starts_with(b"data:") {
        text.windows(MARKER.len())
            .position(|window| window == MARKER)?
            + MARKER.len()
    } else {
        0
    };
    let tail = &text[start..];
    if tail.len() < min_len || is_hex(tail) {
        return None;
    }
    decode_canonical(tail).map(|bytes| (start, bytes))
}

/// What ends a data URL's header when its data is base64.
const MARKER: &[u8] = b";base64,";

/// Whether `text` is hex digits only, of one case: a colour table or a hash, whose characters carry 4 bits each, which
/// base64's 6-bit groups would cut across (d3's colour schemes coded as base64 bytes took 798 bytes more).
pub fn is_hex(text: &[u8]) -> bool {
    text.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))
        || text.iter().all(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F'))
}

/// Whether `bytes` look compressed already (a PNG, JPEG or WOFF2 inside a data URL): two bytes drawn from them are
/// about as rarely equal as two random bytes. The chance of a match, estimated without bias from the counts
/// (Σ c(c − 1) / n(n − 1)), is at most 2^−7.8 (collision entropy at least 7.8 bits a byte; random bytes read 8,
/// Wasm modules and packed tables far less). Integers only: no float logarithm in the decoder's build.
pub fn looks_compressed(bytes: &[u8]) -> bool {
    let mut counts = [0u64; 256];
    for &byte in bytes {
        counts[usize::from(byte)] += 1;
    }
    let n = bytes.len() as u64;
    let matches: u64 = counts
        .iter()
        .map(|&count| count * count.saturating_sub(1))
        .sum();
    // 2^7.8 ≈ 222.9.
    n >= 2 && matches * 223 <= n * (n - 1)
}

/// The bytes of hex text of one case (and whether it is upper case), or `None`.
pub fn hex_decode(text: &[u8]) -> Option<(Vec<u8>, bool)> {
    if !text.len().is_multiple_of(2) || !is_hex(text) {
        return None;
    }
    let upper = text.iter().any(|c| matches!(c, b'A'..=b'F'));
    let digit = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    };
    Some((
        text.chunks_exact(2)
            .map(|pair| digit(pair[0]) << 4 | digit(pair[1]))
            .collect(),
        upper,
    ))
}

/// Appends the hex text of `bytes`.
pub fn hex_encode_into(bytes: &[u8], upper: bool, out: &mut Vec<u8>) {
    let digits: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    for &byte in bytes {
        out.extend_from_slice(&[
            digits[usize::from(byte >> 4)],
            digits[usize::from(byte & 15)],
        ]);
    }
}

/// Appends the padded base64 text of `bytes` to `out`.
pub fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let word = group.iter().enumerate().fold(0u32, |word, (i, &byte)| {
            word | u32::from(byte) << (16 - 8 * i)
        });
        let characters = group.len() + 1;
        for i in 0..4 {
            out.push(if i < characters {
                ALPHABET[(word >> (18 - 6 * i) & 63) as usize]
            } else {
                b'='
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_into(bytes, &mut out);
        out
    }

    #[test]
    fn rfc4648_vectors_both_ways() {
        let vectors: [(&[u8], &[u8]); 6] = [
            (b"f", b"Zg=="),
            (b"fo", b"Zm8="),
            (b"foo", b"Zm9v"),
            (b"foob", b"Zm9vYg=="),
            (b"fooba", b"Zm9vYmE="),
            (b"foobar", b"Zm9vYmFy"),
        ];
        for (bytes, text) in vectors {
            assert_eq!(encoded(bytes), text);
            assert_eq!(decode_canonical(text).as_deref(), Some(bytes));
        }
    }

    #[test]
    fn non_canonical_or_foreign_text_is_refused() {
        for text in [
            &b""[..],
            b"Zm9",      // not a multiple of 4
            b"Zg=",      // not a multiple of 4
            b"Zh==",     // bits under the padding not zero
            b"Zm9=",     // the same with one `=`
            b"Z===",     // three `=`
            b"Zg==Zg==", // `=` inside
            b"Zm9-",     // base64url
            b"Zm9 ",     // a space
            b"\xC3\xA9abc",
        ] {
            assert_eq!(
                decode_canonical(text),
                None,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn hex_of_one_case_round_trips_and_mixed_case_is_refused() {
        for (text, bytes, upper) in [
            (&b"00ff7f"[..], &[0x00, 0xFF, 0x7F][..], false),
            (b"00FF7F", &[0x00, 0xFF, 0x7F], true),
            (b"1234", &[0x12, 0x34], false),
        ] {
            assert_eq!(hex_decode(text), Some((bytes.to_vec(), upper)));
            let mut out = Vec::new();
            hex_encode_into(bytes, upper, &mut out);
            assert_eq!(out, text);
        }
        for text in [&b"00fF"[..], b"0g", b"abc", b"12 4"] {
            assert_eq!(
                hex_decode(text),
                None,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn random_bytes_look_compressed_and_structured_ones_do_not() {
        let mut state = 0x9E37_79B9u32;
        let random: Vec<u8> = (0..4000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect();
        assert!(looks_compressed(&random));
        // Text, and 16-bit values whose high bytes repeat.
        assert!(!looks_compressed(&b"function(a,b){return a+b}".repeat(100)));
        let table: Vec<u8> = (0..2000u16).flat_map(|i| (i * 3).to_le_bytes()).collect();
        assert!(!looks_compressed(&table));
        assert!(!looks_compressed(&[]));
    }

    #[test]
    fn every_byte_sequence_round_trips() {
        // A simple generator (xorshift): lengths 1..300, all byte values.
        let mut state = 0x2545_F491u32;
        for len in 1..300 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    state as u8
                })
                .collect();
            let text = encoded(&bytes);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(decode_canonical(&text), Some(bytes));
        }
    }
}
