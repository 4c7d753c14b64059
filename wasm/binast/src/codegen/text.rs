//! Literal text: string escaping (from WTF-8, so lone surrogates survive as `\uXXXX`) and number formatting.

use crate::format::wtf8;

/// A double-quoted JavaScript string literal for the WTF-8 `value`.
pub fn string_literal(out: &mut String, value: &[u8]) {
    out.push('"');
    match std::str::from_utf8(value) {
        // Most literals need no escape at all: copied in one go.
        Ok(text) if !text.bytes().any(needs_escape) => out.push_str(text),
        // Valid UTF-8 has no lone surrogates, so chars are code points.
        Ok(text) => {
            for c in text.chars() {
                escape_char(out, c);
            }
        }
        Err(_) => {
            let units = wtf8::to_utf16(value).unwrap_or_default();
            for decoded in char::decode_utf16(units) {
                match decoded {
                    Ok(c) => escape_char(out, c),
                    Err(lone) => push_unit_escape(out, u32::from(lone.unpaired_surrogate())),
                }
            }
        }
    }
    out.push('"');
}

/// A byte that starts something `escape_char` would escape: quotes, backslashes, controls, DEL, and the lead bytes
/// of U+2028, U+2029 (0xE2) and U+FEFF (0xEF), which are then looked at char by char.
fn needs_escape(byte: u8) -> bool {
    matches!(byte, b'"' | b'\\' | 0..=0x1f | 0x7f | 0xe2 | 0xef)
}

fn escape_char(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{2028}' | '\u{2029}' | '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{feff}' => {
            push_unit_escape(out, c as u32)
        }
        _ => out.push(c),
    }
}

fn push_unit_escape(out: &mut String, unit: u32) {
    out.push_str(&format!("\\u{unit:04x}"));
}

/// The shortest text that reads back as exactly `value` (Rust's float formatting is shortest-round-trip).
pub fn number_literal(value: f64) -> String {
    if value.is_nan() {
        return "(0 / 0)".into();
    }
    if value.is_infinite() {
        // 2e308 is the literal the parser itself turns into Infinity.
        return if value > 0.0 {
            "2e308".into()
        } else {
            "(-2e308)".into()
        };
    }
    if value.is_sign_negative() {
        return format!("(-{})", number_literal(-value));
    }
    // Most literals are small integers: printed without float formatting, whose code is a third of the
    // decode-only Wasm module.
    if value.fract() == 0.0 && value < 9_007_199_254_740_992.0 {
        return integer_literal(value as u64);
    }
    shortest_float(value)
}

/// An integer in the shorter of plain (`1500`) and exponent form (`1.5e6`), plain on a tie.
fn integer_literal(value: u64) -> String {
    let plain = value.to_string();
    let significant = plain.trim_end_matches('0');
    if significant.is_empty() {
        return plain;
    }
    let exponent_digits = (plain.len() - 1).to_string();
    let mut exponent = String::with_capacity(plain.len());
    exponent.push_str(&significant[..1]);
    if significant.len() > 1 {
        exponent.push('.');
        exponent.push_str(&significant[1..]);
    }
    exponent.push('e');
    exponent.push_str(&exponent_digits);
    if exponent.len() < plain.len() {
        exponent
    } else {
        plain
    }
}

/// Rust's float formatting is shortest-round-trip; take the shorter of its plain and exponent forms.
#[cfg(any(feature = "encoder", not(target_arch = "wasm32")))]
fn shortest_float(value: f64) -> String {
    let plain = format!("{value}");
    let exponent = format!("{value:e}");
    if exponent.len() < plain.len() {
        exponent
    } else {
        plain
    }
}

/// The decode-only Wasm build asks JavaScript: `String(number)` is shortest-round-trip too (ECMA-262
/// Number::toString), and it keeps core's float formatting out of the module the browser downloads.
#[cfg(all(not(feature = "encoder"), target_arch = "wasm32"))]
fn shortest_float(value: f64) -> String {
    crate::stream_api::number_to_string(value).replace("e+", "e")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_controls_and_lone_surrogates() {
        let mut out = String::new();
        string_literal(&mut out, b"a\"b\\c\n\x01");
        assert_eq!(out, r#""a\"b\\c\n\u0001""#);
        let mut lone = String::new();
        string_literal(&mut lone, &crate::format::wtf8::from_utf16(&[0x41, 0xd800]));
        assert_eq!(lone, r#""A\ud800""#);
    }

    #[test]
    fn numbers_print_in_their_shortest_form() {
        assert_eq!(number_literal(0.0), "0");
        assert_eq!(number_literal(1.5), "1.5");
        assert_eq!(number_literal(1e21), "1e21");
        assert_eq!(number_literal(1e-7), "1e-7");
        assert_eq!(number_literal(123456.0), "123456");
        assert_eq!(number_literal(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number_literal(1000.0), "1e3");
        assert_eq!(number_literal(1500000.0), "1.5e6");
        assert_eq!(number_literal(100.0), "100");
        assert_eq!(number_literal(9_007_199_254_740_993.0), "9007199254740992");
        assert_eq!(number_literal(1e300), "1e300");
    }
}
