//! Format primitives, the bottom layer: varnums, WTF-8 strings, stream roles, the layouts, and the stream reader
//! and writer. Nothing here knows the grammar (`grammar/`) or the container (`container.rs`).

pub mod base64;
pub mod context_models;
pub mod counts;
pub mod entropy;
pub mod hash;
pub mod layout;
pub mod match_model;
pub mod mixing;
pub mod reader;
pub mod roles;
pub mod text_model;
pub mod trace;
pub mod varnum;
pub mod writer;
pub mod wtf8;
