//! WTF-8: UTF-8 extended to encode lone surrogates, so every JavaScript string (a sequence of UTF-16 code units,
//! not necessarily valid Unicode) fits in the string table and comes back unchanged.

use crate::prelude::*;

/// Encodes UTF-16 code units as WTF-8. Surrogate pairs become one 4-byte sequence; lone surrogates 3 bytes.
pub fn from_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let unit = u32::from(units[i]);
        let next = units.get(i + 1).map(|&u| u32::from(u));
        let code = match next {
            Some(low) if (0xd800..0xdc00).contains(&unit) && (0xdc00..0xe000).contains(&low) => {
                i += 1;
                0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
            }
            _ => unit,
        };
        push_code_point(&mut out, code);
        i += 1;
    }
    out
}

fn push_code_point(out: &mut Vec<u8>, code: u32) {
    // Truncating casts are intended: each byte keeps 6 (or fewer) payload bits.
    match code {
        0..=0x7f => out.push(code as u8),
        0x80..=0x7ff => out.extend([0xc0 | (code >> 6) as u8, 0x80 | (code & 0x3f) as u8]),
        0x800..=0xffff => out.extend([
            0xe0 | (code >> 12) as u8,
            0x80 | ((code >> 6) & 0x3f) as u8,
            0x80 | (code & 0x3f) as u8,
        ]),
        _ => out.extend([
            0xf0 | (code >> 18) as u8,
            0x80 | ((code >> 12) & 0x3f) as u8,
            0x80 | ((code >> 6) & 0x3f) as u8,
            0x80 | (code & 0x3f) as u8,
        ]),
    }
}

/// Decodes WTF-8 back to UTF-16 code units; `None` on bytes no WTF-8 writer produces.
pub fn to_utf16(bytes: &[u8]) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let first = u32::from(bytes[i]);
        let (len, init) = match first {
            0x00..=0x7f => (1, first),
            0xc2..=0xdf => (2, first & 0x1f),
            0xe0..=0xef => (3, first & 0x0f),
            0xf0..=0xf4 => (4, first & 0x07),
            _ => return None,
        };
        let tail = bytes.get(i + 1..i + len)?;
        let mut code = init;
        for &byte in tail {
            if byte & 0xc0 != 0x80 {
                return None;
            }
            code = (code << 6) | u32::from(byte & 0x3f);
        }
        let min = [0, 0, 0x80, 0x800, 0x10000][len];
        if code < min {
            return None;
        }
        push_utf16(&mut out, code)?;
        i += len;
    }
    Some(out)
}

/// Appends a code point as UTF-16: one unit, or a surrogate pair above U+FFFF. None above U+10FFFF.
pub fn push_utf16(out: &mut Vec<u16>, code: u32) -> Option<()> {
    if code > 0x10ffff {
        return None;
    }
    if code >= 0x10000 {
        let offset = code - 0x10000;
        out.push((0xd800 + (offset >> 10)) as u16);
        out.push((0xdc00 + (offset & 0x3ff)) as u16);
    } else {
        out.push(code as u16);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_unicode_encodes_exactly_like_utf8() {
        let text = "héllo, 世界 🎉";
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(from_utf16(&units), text.as_bytes());
        assert_eq!(to_utf16(text.as_bytes()), Some(units));
    }

    #[test]
    fn lone_surrogates_survive_a_round_trip() {
        for units in [
            vec![0xd800],
            vec![0xdfff, 0x41],
            vec![0x41, 0xdc00, 0xd800],
            vec![0xdbff],
        ] {
            let bytes = from_utf16(&units);
            assert!(
                core::str::from_utf8(&bytes).is_err(),
                "a lone surrogate is not UTF-8"
            );
            assert_eq!(to_utf16(&bytes), Some(units));
        }
    }

    #[test]
    fn every_code_unit_pair_round_trips() {
        // Property over a deterministic sample of all pairs: boundaries plus a stride through the space.
        let interesting: Vec<u16> = (0..=0xffffu32)
            .step_by(97)
            .map(|u| u as u16)
            .chain([
                0, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff,
            ])
            .collect();
        for &a in &interesting {
            for &b in interesting.iter().step_by(7) {
                let units = [a, b];
                assert_eq!(to_utf16(&from_utf16(&units)).as_deref(), Some(&units[..]));
            }
        }
    }

    #[test]
    fn malformed_bytes_are_rejected() {
        assert_eq!(to_utf16(&[0xff]), None);
        assert_eq!(to_utf16(&[0xe0, 0x80]), None, "truncated");
        assert_eq!(to_utf16(&[0xc0, 0x80]), None, "overlong");
        assert_eq!(to_utf16(&[0xe2, 0x41, 0x41]), None, "bad continuation");
    }
}
