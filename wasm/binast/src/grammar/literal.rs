//! Literals. Their values are recomputed from the source text (`raw`) rather than taken from the parser's
//! `value`, because `value` cannot cross the bridge losslessly: strings with lone surrogates would be mangled into
//! U+FFFD, and BigInts beyond 64 bits make serde-wasm-bindgen fail.

use crate::prelude::*;
#[cfg(feature = "encoder")]
use serde::de::{Error as _, IgnoredAny, MapAccess};
#[cfg(feature = "encoder")]
use serde::Deserialize;

use crate::format::reader::Reader;
use crate::format::writer::Writer;
use crate::format::wtf8;
#[cfg(feature = "encoder")]
use crate::grammar::field::KeyName;
use crate::grammar::field::{utf8, Field};
use crate::DecodeError;

/// A literal value as the format stores it.
#[derive(Debug, Clone, PartialEq)]
pub enum LitValue {
    /// A string, as WTF-8 (may hold lone surrogates).
    Str(Vec<u8>),
    /// A number.
    Num(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `/pattern/flags`.
    RegExp {
        /// The source between the slashes.
        pattern: String,
        /// The flags after the last slash.
        flags: String,
    },
    /// A BigInt's decimal digits (what acorn puts in `bigint`), without the `n`.
    BigInt(String),
}

/// Which literal interface the reader is decoding.
#[derive(Debug, Clone, Copy)]
pub enum LitKind {
    /// `LiteralStringExpression`
    Str,
    /// `LiteralNumericExpression`
    Num,
    /// `LiteralBooleanExpression`
    Bool,
    /// `LiteralNullExpression`
    Null,
    /// `LiteralRegExpExpression`
    RegExp,
    /// `LiteralBigIntExpression`
    BigInt,
}

#[cfg(feature = "encoder")]
#[derive(Deserialize)]
struct RegexParts {
    pattern: String,
    flags: String,
}

impl LitValue {
    /// Shift's interface name for this kind of literal.
    pub fn interface_name(&self) -> &'static str {
        match self {
            LitValue::Str(_) => "LiteralStringExpression",
            LitValue::Num(_) => "LiteralNumericExpression",
            LitValue::Bool(_) => "LiteralBooleanExpression",
            LitValue::Null => "LiteralNullExpression",
            LitValue::RegExp { .. } => "LiteralRegExpExpression",
            LitValue::BigInt(_) => "LiteralBigIntExpression",
        }
    }

    #[cfg(feature = "encoder")]
    pub(crate) fn from_estree<'de, A: MapAccess<'de>>(mut map: A) -> Result<LitValue, A::Error> {
        let mut raw: Option<String> = None;
        let mut regex: Option<RegexParts> = None;
        let mut bigint: Option<String> = None;
        while let Some(key) = map.next_key::<KeyName>()? {
            match key.as_str() {
                "raw" => raw = Some(map.next_value()?),
                "regex" => regex = map.next_value()?,
                "bigint" => bigint = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if let Some(RegexParts { pattern, flags }) = regex {
            return Ok(LitValue::RegExp { pattern, flags });
        }
        if let Some(digits) = bigint {
            return Ok(LitValue::BigInt(digits));
        }
        let raw = raw.ok_or_else(|| A::Error::missing_field("raw"))?;
        LitValue::from_raw(&raw)
            .ok_or_else(|| A::Error::custom(format!("unrecognised literal {raw}")))
    }

    /// The value of a string, number, boolean or null literal from its source text.
    pub fn from_raw(raw: &str) -> Option<LitValue> {
        match raw {
            "true" => Some(LitValue::Bool(true)),
            "false" => Some(LitValue::Bool(false)),
            "null" => Some(LitValue::Null),
            _ if raw.starts_with(['"', '\'']) => {
                let inner = raw.get(1..raw.len().checked_sub(1)?)?;
                Some(LitValue::Str(wtf8::from_utf16(&unescape_string(inner)?)))
            }
            _ => parse_number(raw).map(LitValue::Num),
        }
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.field = "value";
        match self {
            LitValue::Str(bytes) => w.string(Some(bytes)),
            LitValue::Num(value) => w.number(*value),
            LitValue::Bool(value) => value.write(w),
            LitValue::Null => {}
            LitValue::RegExp { pattern, flags } => {
                pattern.write(w);
                flags.write(w);
            }
            LitValue::BigInt(digits) => digits.write(w),
        }
    }

    pub(crate) fn read(r: &mut Reader, kind: LitKind) -> Result<LitValue, DecodeError> {
        r.enter_field("value");
        Ok(match kind {
            LitKind::Str => {
                let bytes = r
                    .string()?
                    .ok_or_else(|| DecodeError::BadReference("null string literal".into()))?;
                LitValue::Str(bytes)
            }
            LitKind::Num => LitValue::Num(r.number()?),
            LitKind::Bool => LitValue::Bool(bool::read(r)?),
            LitKind::Null => LitValue::Null,
            LitKind::RegExp => LitValue::RegExp {
                pattern: String::read(r)?,
                flags: String::read(r)?,
            },
            LitKind::BigInt => {
                let digits = r
                    .string()?
                    .ok_or_else(|| DecodeError::BadReference("null BigInt".into()))?;
                LitValue::BigInt(utf8(digits)?)
            }
        })
    }
}

/// The UTF-16 code units a string literal's body (between the quotes) stands for, including legacy octal escapes
/// (sloppy scripts) and line continuations. `None` on an escape the parser would have rejected.
pub fn unescape_string(body: &str) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let escaped = chars.next()?;
        match escaped {
            'n' => out.push(0x0a),
            't' => out.push(0x09),
            'r' => out.push(0x0d),
            'b' => out.push(0x08),
            'f' => out.push(0x0c),
            'v' => out.push(0x0b),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            'x' => {
                let hex: String = [chars.next()?, chars.next()?].iter().collect();
                out.push(u16::from_str_radix(&hex, 16).ok()?);
            }
            'u' => {
                let code = if chars.peek() == Some(&'{') {
                    chars.next();
                    let mut hex = String::new();
                    for d in chars.by_ref() {
                        if d == '}' {
                            break;
                        }
                        hex.push(d);
                    }
                    u32::from_str_radix(&hex, 16).ok()?
                } else {
                    let hex: String = [chars.next()?, chars.next()?, chars.next()?, chars.next()?]
                        .iter()
                        .collect();
                    u32::from_str_radix(&hex, 16).ok()?
                };
                wtf8::push_utf16(&mut out, code)?;
            }
            '0'..='7' => {
                // Legacy octal: up to three digits when the first is 0-3, two otherwise, value <= 0o377.
                let max_digits = if escaped <= '3' { 3 } else { 2 };
                let mut value = escaped.to_digit(8)?;
                for _ in 1..max_digits {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(digit) => {
                            value = value * 8 + digit;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(value as u16);
            }
            other => {
                let mut buf = [0u16; 2];
                out.extend_from_slice(other.encode_utf16(&mut buf));
            }
        }
    }
    Some(out)
}

/// A numeric literal's value: decimal, `0x`/`0o`/`0b`, legacy octal (`017`), with `_` separators.
pub fn parse_number(raw: &str) -> Option<f64> {
    let text: String = raw.chars().filter(|&c| c != '_').collect();
    let radix_digits = |digits: &str, radix: u32| -> Option<f64> {
        if digits.is_empty() {
            return None;
        }
        if let Ok(exact) = u128::from_str_radix(digits, radix) {
            // u128 -> f64 rounds to nearest, as the language requires.
            return Some(exact as f64);
        }
        digits.chars().try_fold(0f64, |acc, d| {
            Some(acc * f64::from(radix) + f64::from(d.to_digit(radix)?))
        })
    };
    let lower = text.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return radix_digits(hex, 16);
    }
    if let Some(octal) = lower.strip_prefix("0o") {
        return radix_digits(octal, 8);
    }
    if let Some(binary) = lower.strip_prefix("0b") {
        return radix_digits(binary, 2);
    }
    let legacy =
        lower.len() > 1 && lower.starts_with('0') && lower.bytes().all(|b| b.is_ascii_digit());
    if legacy && lower.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return radix_digits(&lower, 8);
    }
    lower.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_in_every_notation() {
        assert_eq!(parse_number("42"), Some(42.0));
        assert_eq!(parse_number("1_000_000"), Some(1e6));
        assert_eq!(parse_number(".5"), Some(0.5));
        assert_eq!(parse_number("5."), Some(5.0));
        assert_eq!(parse_number("1e21"), Some(1e21));
        assert_eq!(parse_number("0xFF"), Some(255.0));
        assert_eq!(parse_number("0o17"), Some(15.0));
        assert_eq!(parse_number("0b101"), Some(5.0));
        assert_eq!(parse_number("017"), Some(15.0), "legacy octal");
        assert_eq!(
            parse_number("089"),
            Some(89.0),
            "leading zero but not octal"
        );
    }

    #[test]
    fn string_escapes_become_code_units() {
        let units = |s: &str| unescape_string(s).map(|u| String::from_utf16_lossy(&u));
        assert_eq!(units(r"a\nb").as_deref(), Some("a\nb"));
        assert_eq!(units(r"\x41\u0042\u{43}").as_deref(), Some("ABC"));
        assert_eq!(units(r"\101").as_deref(), Some("A"), "legacy octal");
        assert_eq!(units("a\\\nb").as_deref(), Some("ab"), "line continuation");
        assert_eq!(units(r"\u{1F600}").as_deref(), Some("😀"));
        assert_eq!(
            unescape_string(r"\ud800"),
            Some(vec![0xd800]),
            "lone surrogate kept"
        );
    }

    #[test]
    fn literal_kinds_come_from_raw_text() {
        assert_eq!(LitValue::from_raw("true"), Some(LitValue::Bool(true)));
        assert_eq!(LitValue::from_raw("null"), Some(LitValue::Null));
        assert_eq!(
            LitValue::from_raw("'hi'"),
            Some(LitValue::Str(b"hi".to_vec()))
        );
        assert_eq!(LitValue::from_raw("0x10"), Some(LitValue::Num(16.0)));
    }
}
