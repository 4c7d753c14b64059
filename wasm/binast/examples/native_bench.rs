//! Native encode/decode timing for `npm run bench:binast`: the same crate as the Wasm build, fed the same ESTree
//! JSON. Usage: `native_bench <runs> <ast.json>...`; prints one JSON line per file.

use std::time::Instant;

use binast::{decode_to_javascript, encode_json, Layout};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args
        .next()
        .ok_or("usage: native_bench <runs> <ast.json>...")?
        .parse()?;
    for path in args {
        let json = std::fs::read_to_string(&path)?;
        let mut encode_ms = Vec::new();
        let mut decode_ms = Vec::new();
        for _ in 0..runs.max(1) {
            let start = Instant::now();
            let encoded = encode_json(&json, Layout::Optimised, 0)?;
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
