//! Literal text: string escaping (from WTF-8, so lone surrogates survive as `\uXXXX`) and number formatting.

use crate::format::wtf8;
use crate::message::{decimal_digits, push_ascii, push_decimal};
use crate::prelude::*;

/// A double-quoted JavaScript string literal for the WTF-8 `value`.
pub fn string_literal(out: &mut String, value: &[u8]) {
    out.push('"');
    match core::str::from_utf8(value) {
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
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from(
            b"0123456789abcdef"[(unit >> shift & 0xf) as usize],
        ));
    }
}

/// Appends the shortest text that reads back as exactly `value` (Rust's float formatting is shortest-round-trip).
pub fn number_literal(out: &mut String, value: f64) {
    if value.is_nan() {
        out.push_str("(0 / 0)");
    } else if value.is_infinite() {
        // 2e308 is the literal the parser itself turns into Infinity.
        out.push_str(if value > 0.0 { "2e308" } else { "(-2e308)" });
    } else if value.is_sign_negative() {
        out.push_str("(-");
        number_literal(out, -value);
        out.push(')');
    } else if value.fract() == 0.0 && value < 9_007_199_254_740_992.0 {
        // Most literals are small integers: printed without float formatting, whose code is a third of the
        // decode-only Wasm module.
        integer_literal(out, value as u64);
    } else {
        shortest_float(out, value);
    }
}

/// An integer in the shorter of plain (`1500`) and exponent form (`1.5e6`), plain on a tie.
fn integer_literal(out: &mut String, value: u64) {
    let mut buffer = [0u8; 20];
    let plain = decimal_digits(value, &mut buffer);
    let zeros = plain
        .iter()
        .rev()
        .take_while(|&&digit| digit == b'0')
        .count();
    let significant = &plain[..plain.len() - zeros];
    let exponent = (plain.len() - 1) as u64;
    // `d.ddde<exponent>`: the digits, a point if more than one, `e`, the exponent's digits (at most 2).
    let exponent_len = significant.len()
        + usize::from(significant.len() > 1)
        + 1
        + if exponent < 10 { 1 } else { 2 };
    if significant.is_empty() || exponent_len >= plain.len() {
        push_ascii(out, plain);
        return;
    }
    out.push(char::from(significant[0]));
    if significant.len() > 1 {
        out.push('.');
        push_ascii(out, &significant[1..]);
    }
    out.push('e');
    push_decimal(out, exponent);
}

/// Rust's float formatting is shortest-round-trip; take the shorter of its plain and exponent forms.
#[cfg(any(feature = "encoder", not(target_arch = "wasm32")))]
fn shortest_float(out: &mut String, value: f64) {
    let plain = format!("{value}");
    let exponent = format!("{value:e}");
    out.push_str(if exponent.len() < plain.len() {
        &exponent
    } else {
        &plain
    });
}

/// The decode-only Wasm build asks JavaScript: `String(number)` is shortest-round-trip too (ECMA-262
/// Number::toString), and it keeps core's float formatting out of the module the browser downloads.
#[cfg(all(not(feature = "encoder"), target_arch = "wasm32"))]
fn shortest_float(out: &mut String, value: f64) {
    let mut buffer = [0u8; 32];
    let text = crate::stream_api::javascript_number_text(value, &mut buffer);
    // JavaScript writes `1e+21` where the literal needs no `+`; its text has no other `+`.
    for part in text.split(|&byte| byte == b'+') {
        push_ascii(out, part);
    }
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

    fn number(value: f64) -> String {
        let mut out = String::new();
        number_literal(&mut out, value);
        out
    }

    #[test]
    fn numbers_print_in_their_shortest_form() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(1e21), "1e21");
        assert_eq!(number(1e-7), "1e-7");
        assert_eq!(number(123456.0), "123456");
        assert_eq!(number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number(1000.0), "1e3");
        assert_eq!(number(1500000.0), "1.5e6");
        assert_eq!(number(100.0), "100");
        assert_eq!(number(9_007_199_254_740_993.0), "9007199254740992");
        assert_eq!(number(1e300), "1e300");
    }
}
