//! Text built without `core::fmt`: error messages and integers for the decoder. `format!` pulls core's formatting
//! machinery (argument tables, padding, per-type `Display` code) into every module that uses it; the browser's
//! decode-only Wasm module only ever needs words and unsigned integers, so it builds them here and keeps about
//! 4 KB (gzip) of formatting code out of what the page downloads.

use crate::prelude::*;

/// A part of a message: a word or an unsigned integer.
pub(crate) trait Piece {
    /// Appends this part to `out`.
    fn push_to(&self, out: &mut String);
}

impl Piece for str {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

impl Piece for String {
    fn push_to(&self, out: &mut String) {
        out.push_str(self);
    }
}

macro_rules! integer_pieces {
    ($($integer:ty),+) => {
        $(impl Piece for $integer {
            fn push_to(&self, out: &mut String) {
                push_decimal(out, u64::from(*self));
            }
        })+
    };
}

integer_pieces!(u8, u32, u64);

impl Piece for usize {
    fn push_to(&self, out: &mut String) {
        // usize is 32 bits on Wasm and 64 natively: never wider than u64.
        push_decimal(out, *self as u64);
    }
}

/// The parts joined into one string; cold and out of line, so that each error site costs one call.
#[cold]
#[inline(never)]
pub(crate) fn join(parts: &[&dyn Piece]) -> String {
    let mut out = String::new();
    for part in parts {
        part.push_to(&mut out);
    }
    out
}

/// `message!("string ", index, " back of ", len)`: the parts (words and unsigned integers) as one `String`,
/// like `format!` without its machinery.
macro_rules! message {
    ($($part:expr),+ $(,)?) => {
        $crate::message::join(&[$(&$part as &dyn $crate::message::Piece),+])
    };
}

/// Appends `value` in decimal.
pub(crate) fn push_decimal(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    push_ascii(out, decimal_digits(value, &mut digits));
}

/// Appends ASCII bytes (digits, JavaScript's number text): one char per byte, with no UTF-8 check to fail.
pub(crate) fn push_ascii(out: &mut String, ascii: &[u8]) {
    out.extend(ascii.iter().map(|&byte| char::from(byte)));
}

/// `value`'s decimal digits (ASCII), written at the end of `buffer` (20 bytes hold `u64::MAX`).
pub(crate) fn decimal_digits(mut value: u64, buffer: &mut [u8; 20]) -> &[u8] {
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return &buffer[start..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_in_decimal() {
        let mut buffer = [0u8; 20];
        assert_eq!(decimal_digits(0, &mut buffer), b"0");
        assert_eq!(decimal_digits(1_500_000, &mut buffer), b"1500000");
        assert_eq!(
            decimal_digits(u64::MAX, &mut buffer),
            b"18446744073709551615"
        );
    }

    #[test]
    fn messages_join_words_and_integers() {
        let len = 3usize;
        assert_eq!(
            message!("string ", 7u32, " back of ", len),
            "string 7 back of 3"
        );
    }
}
