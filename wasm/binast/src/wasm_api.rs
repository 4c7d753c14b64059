//! The full build's functions JavaScript calls, through wasm-bindgen (the decode-only build has its own plain
//! interface, `stream_api.rs`). Every export returns `Result` so malformed input becomes a thrown JS `Error`, never a
//! Wasm trap.

use wasm_bindgen::prelude::*;

#[cfg(feature = "encoder")]
use crate::{read_varnum, write_varnum, Layout, Node};

// The diagnostics (varnums, stats) are in the full build only: the browser's decode-only module exports
// `decodeToJavaScript` alone.
#[cfg(feature = "encoder")]
/// Encodes each number as a varnum, concatenated.
#[wasm_bindgen(js_name = encodeVarnums)]
pub fn encode_varnums(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 2);
    for &value in values {
        write_varnum(&mut out, value);
    }
    out
}

#[cfg(feature = "encoder")]
/// Decodes a concatenation of varnums; throws on truncated or oversized values.
#[wasm_bindgen(js_name = decodeVarnums)]
pub fn decode_varnums(bytes: &[u8]) -> Result<Vec<u32>, JsError> {
    let mut offset = 0;
    let mut values = Vec::new();
    while offset < bytes.len() {
        values.push(read_varnum(bytes, &mut offset).map_err(|e| JsError::new(&e.to_string()))?);
    }
    Ok(values)
}

#[cfg(feature = "encoder")]
fn layout(format: u32) -> Result<Layout, JsError> {
    Layout::from_format(format)
        .ok_or_else(|| JsError::new(&format!("unknown layout {format}: use 1, 2 or 4")))
}

#[cfg(feature = "encoder")]
/// Encodes an ESTree `Program` object (from acorn) read directly through serde-wasm-bindgen (see `from_js.rs`).
/// `format`: 1 = multipart, 2 = optimised, 3 = context. `lazyLevel`: 0-3.
#[wasm_bindgen(js_name = encodeAst)]
pub fn encode_ast(program: JsValue, format: u32, lazy_level: u32) -> Result<Vec<u8>, JsError> {
    let layout = layout(format)?;
    let program: Node =
        crate::from_js::node_from_js(program).map_err(|e| JsError::new(e.as_str()))?;
    crate::encode_program(program, layout, lazy_level)
        .map(|e| e.bytes)
        .map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(feature = "encoder")]
/// The same encoder fed by `JSON.stringify(program)`: the JSON bridge the benchmark compares against.
#[wasm_bindgen(js_name = encodeAstJson)]
pub fn encode_ast_json(json: &str, format: u32, lazy_level: u32) -> Result<Vec<u8>, JsError> {
    let layout = layout(format)?;
    crate::encode_json(json, layout, lazy_level)
        .map(|e| e.bytes)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// BinaryAST (either layout) -> JavaScript source. Throws an `Error` on corrupt or unknown input.
#[wasm_bindgen(js_name = decodeToJavaScript)]
pub fn decode_to_javascript(bytes: &[u8]) -> Result<String, JsError> {
    crate::decode_to_javascript(bytes).map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(feature = "encoder")]
/// What is inside a file, as JSON text: format, table sizes, stream sizes, node and lazy function counts.
#[wasm_bindgen(js_name = binastStats)]
pub fn binast_stats(bytes: &[u8]) -> Result<String, JsError> {
    let s = crate::stats(bytes).map_err(|e| JsError::new(&e.to_string()))?;
    let streams: Vec<String> = s.stream_bytes.iter().map(usize::to_string).collect();
    Ok(format!(
        "{{\"format\":{},\"layout\":\"{}\",\"grammarEntries\":{},\"stringEntries\":{},\"stringBytes\":{},\"streamBytes\":[{}],\"nodes\":{},\"lazyFunctions\":{}}}",
        s.format,
        match s.format {
            1 => "multipart",
            2 => "optimised",
            _ => "context",
        },
        s.grammar_entries,
        s.string_entries,
        s.string_bytes,
        streams.join(","),
        s.nodes,
        s.lazy_functions
    ))
}
