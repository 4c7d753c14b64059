use crate::prelude::*;
use core::fmt;

/// Why a byte sequence could not be decoded. Decoding never panics: every malformed input maps to one of these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The input ended inside a value that started at this byte offset.
    UnexpectedEnd {
        /// Byte offset where the truncated value began.
        offset: usize,
    },
    /// A varnum needs more than 32 bits; the format never writes one.
    VarnumOverflow {
        /// Byte offset where the oversized value began.
        offset: usize,
    },
    /// The container header is not what the writer produces (magic, version, section names).
    BadHeader(String),
    /// A table index, grammar name or tag that does not exist.
    BadReference(String),
    /// A length that disagrees with what was actually read (sections, lazy skip lengths).
    BadLength(String),
    /// Tree nesting deeper than the decoder allows (protects the Wasm stack).
    TooDeep {
        /// The nesting limit.
        limit: usize,
    },
}

impl DecodeError {
    /// What went wrong, for a person: the `Display` text, built without `core::fmt` so that the browser's
    /// decode-only module, which returns it to JavaScript, carries no formatting machinery.
    pub fn message(&self) -> String {
        match self {
            DecodeError::UnexpectedEnd { offset } => {
                message!("input ends inside the value starting at byte ", offset)
            }
            DecodeError::VarnumOverflow { offset } => {
                message!("varnum at byte ", offset, " does not fit in 32 bits")
            }
            DecodeError::BadHeader(what) => message!("not a BinaryAST file: ", what),
            DecodeError::BadReference(what) | DecodeError::BadLength(what) => {
                message!("corrupt BinaryAST: ", what)
            }
            DecodeError::TooDeep { limit } => {
                message!("tree nests deeper than ", limit, " levels")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl core::error::Error for DecodeError {}

/// Why a syntax tree could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode: {}", self.0)
    }
}

impl core::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use super::DecodeError;

    #[test]
    fn decode_errors_read_as_sentences_with_their_numbers() {
        assert_eq!(
            DecodeError::UnexpectedEnd { offset: 1234 }.to_string(),
            "input ends inside the value starting at byte 1234"
        );
        assert_eq!(
            DecodeError::BadLength(message!(
                "coded tree of ",
                40usize,
                " bytes, ",
                38usize,
                " used"
            ))
            .to_string(),
            "corrupt BinaryAST: coded tree of 40 bytes, 38 used"
        );
        assert_eq!(
            DecodeError::TooDeep { limit: 2000 }.to_string(),
            "tree nests deeper than 2000 levels"
        );
    }
}
