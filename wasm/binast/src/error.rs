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

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::UnexpectedEnd { offset } => {
                write!(f, "input ends inside the value starting at byte {offset}")
            }
            DecodeError::VarnumOverflow { offset } => {
                write!(f, "varnum at byte {offset} does not fit in 32 bits")
            }
            DecodeError::BadHeader(what) => write!(f, "not a BinaryAST file: {what}"),
            DecodeError::BadReference(what) => write!(f, "corrupt BinaryAST: {what}"),
            DecodeError::BadLength(what) => write!(f, "corrupt BinaryAST: {what}"),
            DecodeError::TooDeep { limit } => {
                write!(f, "tree nests deeper than {limit} levels")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why a syntax tree could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode: {}", self.0)
    }
}

impl std::error::Error for EncodeError {}
