//! The decode-only Wasm build's interface, without wasm-bindgen: two host imports and one export, called by
//! `js/decode.js` alone. The host gives the file's bytes through `read` as they arrive; in browsers with JavaScript
//! Promise Integration, `read` suspends this module until the next network chunk is in, so decoding starts on the
//! first bytes and keeps pace with the download. A module instance decodes one file and is then dropped by the
//! host: a trap, a leak or a half-decoded state can never reach the next file.

use crate::format::entropy::Refill;
use crate::prelude::*;

#[link(wasm_import_module = "binast")]
extern "C" {
    /// Writes the file's next bytes at `into` (at most `capacity`) and returns how many; 0 once the file has ended.
    fn read(into: *mut u8, capacity: usize) -> usize;
    /// Writes JavaScript's `String(value)` (ASCII, at most `capacity` bytes) at `into` and returns its length.
    fn number_text(value: f64, into: *mut u8, capacity: usize) -> usize;
}

/// Decodes the file `read` delivers and regenerates its JavaScript. Returns the address of three `u32`: 0 when
/// UTF-8 JavaScript follows or 1 when an error message does, then the text's address and byte length. The text is
/// never freed: the host copies it and drops the instance.
#[no_mangle]
pub extern "C" fn binast_decode() -> *const u32 {
    let source: Refill<'_> = Box::new(|into: &mut [u8]| {
        // SAFETY: `into` is valid for `into.len()` bytes, the host writes no more than that (js/decode.js), and
        // nothing else holds the buffer during the call.
        let filled = unsafe { read(into.as_mut_ptr(), into.len()) };
        filled.min(into.len())
    });
    let (status, text) = match crate::decode_stream_to_javascript(source) {
        Ok(javascript) => (0, javascript),
        Err(error) => (1, error.message()),
    };
    let text = text.leak();
    let outcome = Box::leak(Box::new([status, text.as_ptr() as u32, text.len() as u32]));
    outcome.as_ptr()
}

/// JavaScript's `String(value)` (ASCII) in `buffer`: shortest round trip, like Rust's formatting, which it keeps
/// out of the module.
pub(crate) fn javascript_number_text(value: f64, buffer: &mut [u8; 32]) -> &[u8] {
    // SAFETY: `buffer` is valid for its length and the host writes at most that many bytes.
    let len = unsafe { number_text(value, buffer.as_mut_ptr(), buffer.len()) }.min(buffer.len());
    &buffer[..len]
}
