//! BinaryAST for JavaScript: the container format's primitives, an encoder and a decoder.
//!
//! The crate is built natively for `cargo test` and benchmarks, and by wasm-pack for Workers, browsers and Node.
#![warn(missing_docs)]

mod error;
mod varnum;
mod wasm_api;

pub use error::DecodeError;
pub use varnum::{read_varnum, write_varnum};
