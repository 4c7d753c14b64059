//! Literal text: string escaping (from WTF-8, so lone surrogates survive as `\uXXXX`) and number formatting.

use crate::wtf8;

/// A double-quoted JavaScript string literal for the WTF-8 `value`.
pub fn string_literal(out: &mut String, value: &[u8]) {
    out.push('"');
    match std::str::from_utf8(value) {
        // Fast path: valid UTF-8 has no lone surrogates, so chars are code points.
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
    let plain = format!("{value}");
    let exponent = format!("{value:e}");
    if exponent.len() < plain.len() {
        exponent
    } else {
        plain
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
        string_literal(&mut lone, &crate::wtf8::from_utf16(&[0x41, 0xd800]));
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
    }
}
