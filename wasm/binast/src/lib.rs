//! BinaryAST for JavaScript: an encoder from a parser's ESTree objects to the BinaryAST container (the proposal's
//! multipart layout, plus a size-optimised layout of ours), a decoder back to a tree, and JavaScript regeneration.
//!
//! The crate is built natively for `cargo test` and benchmarks, and by wasm-pack for Workers, browsers and Node.
#![warn(missing_docs)]
// The browser's decode-only build is `no_std` (`alloc` only, see `prelude`): its panics, which the decoder's own
// checks leave to bugs, trap at once (`panic` below) instead of formatting a message, so the module carries none of
// std's panic and formatting code (1.4 KB gzip).
#![cfg_attr(all(target_arch = "wasm32", not(feature = "encoder")), no_std)]

extern crate alloc;

mod prelude;
use prelude::*;

#[macro_use]
mod grammar_macro;
#[macro_use]
mod message;

// Layers, bottom first, each using only the ones before it: `format` (varnums, strings, stream reader and writer),
// `grammar` (the AST and how it is read and written; its macros generate code in `from_js` too), then
// `scope_analysis`, the `container` file format and the adapters (`from_js`, `codegen`, `wasm_api`).
mod error;
mod format;

#[macro_use]
mod grammar;

#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
mod bump_alloc;
mod codegen;
mod container;
#[cfg(feature = "encoder")]
mod from_js;
mod scope_analysis;
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
mod stream_api;
#[cfg(feature = "encoder")]
mod wasm_api;

pub use format::counts;
pub use format::trace;
pub use format::wtf8;

#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
#[global_allocator]
pub(crate) static ALLOCATOR: bump_alloc::BumpAllocator = bump_alloc::BumpAllocator::new();

/// The decode-only build's panics: a trap. The host then drops the instance (stream_api.rs) and reports the error.
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

pub use codegen::to_javascript;
pub use container::File;
pub use error::{DecodeError, EncodeError};
pub use format::entropy::Refill;
pub use format::layout::{Layout, MAGIC};
pub use format::reader::MAX_DEPTH;
pub use format::varnum::{read_varnum, write_varnum};
pub use grammar::literal::LitValue;
pub use grammar::node::{FnBody, Node};
pub use grammar::scope::{AssertedScope, DeclKind, Declared};
pub use scope_analysis::annotate;

/// What an encoding produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The file.
    pub bytes: Vec<u8>,
    /// How many function bodies were written lazily (with skip lengths).
    pub lazy_functions: u32,
}

/// Encodes a parsed program: scope analysis, lazy marking (functions nested up to `lazy_level` deep), writing.
pub fn encode_program(
    mut program: Node,
    layout: Layout,
    lazy_level: u32,
) -> Result<Encoded, EncodeError> {
    if !matches!(program, Node::Program { .. }) {
        return Err(EncodeError(format!(
            "expected a Program, got {}",
            program.interface_name()
        )));
    }
    annotate(&mut program, lazy_level);
    let (bytes, lazy_functions) = container::write_file(&program, layout);
    Ok(Encoded {
        bytes,
        lazy_functions,
    })
}

#[cfg(feature = "encoder")]
/// Encodes an ESTree program given as JSON text (the JSON bridge, and the native benchmark's input).
pub fn encode_json(json: &str, layout: Layout, lazy_level: u32) -> Result<Encoded, EncodeError> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    deserializer.disable_recursion_limit();
    let program: Node = serde::Deserialize::deserialize(&mut deserializer)
        .map_err(|e| EncodeError(e.to_string()))?;
    encode_program(program, layout, lazy_level)
}

/// Decodes a file (either layout) back to a tree.
pub fn decode(bytes: &[u8]) -> Result<Node, DecodeError> {
    File::parse(bytes)?.decode()
}

/// Decodes a file (either layout) and regenerates JavaScript source.
pub fn decode_to_javascript(bytes: &[u8]) -> Result<String, DecodeError> {
    decode(bytes).map(|program| regenerate(&program, bytes.len()))
}

/// JavaScript source of a decoded program, its buffer sized from the file's: regenerated text is 1–2× the size of
/// the file on the library corpus, so 2× + 4 KB is reserved at once.
fn regenerate(program: &Node, file_bytes: usize) -> String {
    codegen::to_javascript_sized(program, file_bytes.saturating_mul(2).saturating_add(4096))
}

/// Decodes a context-layout file that arrives in pieces (see [`container::decode_streaming`]) and regenerates
/// JavaScript source: `source` fills a buffer with the next bytes of the file and returns how many, 0 at its end.
pub fn decode_stream_to_javascript(source: Refill<'_>) -> Result<String, DecodeError> {
    let (program, file_bytes) = container::decode_streaming(source)?;
    let javascript = regenerate(&program, file_bytes);
    // The decode-only module decodes one file per instance and the host then drops the instance (stream_api.rs),
    // whose bump allocator only counts frees: walking the tree to drop it was 2–3 % of a decode in V8's profile.
    #[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
    core::mem::forget(program);
    Ok(javascript)
}

/// Sizes and counts of a file, for the CLI's `stats`.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// 1 = multipart, 2 = optimised, 3 = context.
    pub format: u32,
    /// Distinct node kinds in the grammar table.
    pub grammar_entries: usize,
    /// Entries in the string table.
    pub string_entries: usize,
    /// Bytes of string table payload.
    pub string_bytes: usize,
    /// Bytes per tree stream.
    pub stream_bytes: Vec<usize>,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Functions whose bodies are lazy.
    pub lazy_functions: usize,
}

/// Parses and decodes a file and reports what is in it.
pub fn stats(bytes: &[u8]) -> Result<Stats, DecodeError> {
    let file = File::parse(bytes)?;
    let program = file.decode()?;
    fn walk(node: &Node, nodes: &mut usize, lazy_functions: &mut usize) {
        *nodes += 1;
        if let Node::FunctionDeclaration { body, .. }
        | Node::FunctionExpression { body, .. }
        | Node::ArrowExpression { body, .. } = node
        {
            *lazy_functions += usize::from(body.lazy);
        }
        node.for_each_child(&mut |child| walk(child, nodes, lazy_functions));
    }
    let (mut nodes, mut lazy_functions) = (0, 0);
    walk(&program, &mut nodes, &mut lazy_functions);
    Ok(Stats {
        format: file.layout as u32,
        // The context layout has no grammar table: it numbers kinds by the grammar's own list.
        grammar_entries: if file.layout == Layout::Context {
            0
        } else {
            file.kinds.len()
        },
        string_entries: file.strings.iter().map(Vec::len).sum(),
        string_bytes: file.strings.iter().flatten().map(|s| s.len()).sum(),
        stream_bytes: file.streams.iter().map(|s| s.len()).collect(),
        nodes,
        lazy_functions,
    })
}
