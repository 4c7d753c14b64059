//! Native decode timing, split into its phases, for profiling the decoder (`perf record`) without the Wasm bridge.
//! Usage: `native_decode <runs> <file.binjs>...`; prints one JSON line per file (medians, ms) and the MB/s of
//! regenerated JavaScript. Times are this thread's CPU time where Linux reports it (`/proc/thread-self/schedstat`),
//! so a loaded machine slows the numbers less than wall time would; elsewhere wall time.

mod common;

use std::time::Instant;

use common::{median, runs_and_files};

use binast::{to_javascript, File};

/// Milliseconds of this thread's CPU time, or of wall time since `origin` where that is not available.
fn now_ms(origin: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| origin.elapsed().as_secs_f64() * 1000.0, |ns| ns / 1e6)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (runs, files) = runs_and_files("usage: native_decode <runs> <file.binjs>...")?;
    let origin = Instant::now();
    for path in files {
        let bytes = std::fs::read(&path)?;
        let (mut tree_ms, mut regenerate_ms) = (Vec::new(), Vec::new());
        let mut output_bytes = 0;
        for _ in 0..runs {
            let start = now_ms(origin);
            let program = File::parse(&bytes)?.decode()?;
            let decoded = now_ms(origin);
            let source = to_javascript(&program);
            regenerate_ms.push(now_ms(origin) - decoded);
            tree_ms.push(decoded - start);
            output_bytes = source.len();
            std::hint::black_box(source);
        }
        let (tree, regenerate) = (median(tree_ms), median(regenerate_ms));
        println!(
            "{{\"file\":{path:?},\"treeMs\":{tree:.3},\"regenerateMs\":{regenerate:.3},\"outputBytes\":{output_bytes},\"MBps\":{:.1}}}",
            output_bytes as f64 / 1e3 / (tree + regenerate)
        );
    }
    Ok(())
}
