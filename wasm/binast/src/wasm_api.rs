//! The functions JavaScript calls. Every export returns `Result` so malformed input becomes a thrown JS `Error`,
//! never a Wasm trap.

use wasm_bindgen::prelude::*;

use crate::{read_varnum, write_varnum};

/// Encodes each number as a varnum, concatenated.
#[wasm_bindgen(js_name = encodeVarnums)]
pub fn encode_varnums(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 2);
    for &value in values {
        write_varnum(&mut out, value);
    }
    out
}

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
