//! Sizes of the optimised and context layouts side by side, with a round-trip check (both must regenerate the
//! same JavaScript) and the context layout's decode time. Usage: `context_sizes <ast.json>...`; one line per file.

use std::time::Instant;

use binast::{decode_to_javascript, encode_json, Layout};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for path in std::env::args().skip(1) {
        let json = std::fs::read_to_string(&path)?;
        let optimised = encode_json(&json, Layout::Optimised, 0)?;
        let start = Instant::now();
        let context = encode_json(&json, Layout::Context, 0)?;
        let encode_ms = start.elapsed().as_secs_f64() * 1000.0;
        let expected = decode_to_javascript(&optimised.bytes)?;
        let start = Instant::now();
        let actual = decode_to_javascript(&context.bytes)?;
        let decode_ms = start.elapsed().as_secs_f64() * 1000.0;
        let same = expected == actual;
        println!(
            "{path}\toptimised {}\tcontext {}\tsame {same}\tencode {encode_ms:.0} ms\tdecode {decode_ms:.0} ms\t{:.1} MB/s",
            optimised.bytes.len(),
            context.bytes.len(),
            actual.len() as f64 / 1e3 / decode_ms
        );
        std::fs::write(format!("{path}.ctx"), &context.bytes)?;
    }
    Ok(())
}
