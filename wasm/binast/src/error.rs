use std::fmt;

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
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::UnexpectedEnd { offset } => {
                write!(f, "input ends inside the value starting at byte {offset}")
            }
            DecodeError::VarnumOverflow { offset } => {
                write!(f, "varnum at byte {offset} does not fit in 32 bits")
            }
        }
    }
}

impl std::error::Error for DecodeError {}
