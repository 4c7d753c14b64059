//! Native encode/decode timing for `npm run bench:binast`: the same crate as the Wasm build, fed the same ESTree
//! JSON. Usage: `native_bench <runs> <ast.json>...`; prints one JSON line per file.

mod common;

use std::time::Instant;

use common::{median, runs_and_files};

use binast::{decode_to_javascript, encode_json, Layout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (runs, files) = runs_and_files("usage: native_bench <runs> <ast.json>...")?;
    for path in files {
        let json = std::fs::read_to_string(&path)?;
        let mut encode_ms = Vec::new();
        let mut decode_ms = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let encoded = encode_json(&json, Layout::Context, 0)?;
            encode_ms.push(start.elapsed().as_secs_f64() * 1000.0);
            let start = Instant::now();
            let source = decode_to_javascript(&encoded.bytes)?;
            decode_ms.push(start.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(source);
        }
        println!(
            "{{\"file\":{:?},\"encodeMs\":{:.3},\"decodeMs\":{:.3}}}",
            path,
            median(encode_ms),
            median(decode_ms)
        );
    }
    Ok(())
}
