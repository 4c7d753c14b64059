//! Native decode timing, split into its phases, for profiling the decoder (`perf record`) without the Wasm bridge.
//! Usage: `native_decode <runs> <file.binjs>...`; prints one JSON line per file (medians, ms) and the MB/s of
//! regenerated JavaScript. Times are this thread's CPU time where Linux reports it (`/proc/thread-self/schedstat`),
//! so a loaded machine slows the numbers less than wall time would; elsewhere wall time.

mod common;

use std::time::Instant;

use common::{median, runs_and_files};

use binast::{counts, to_javascript, File};

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
        counts::take();
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
        if cfg!(feature = "decision-counts") {
            print_counts(&counts::take(), runs as u64);
        }
    }
    Ok(())
}

/// One JSON line of decision counts per decode (built with `--features decision-counts`): decisions in all, per node
/// kind and per integer category.
fn print_counts(totals: &[u64; counts::COUNTERS], runs: u64) {
    let per_run = |counter: usize| totals[counter] / runs;
    let share = |part: u64, whole: u64| part as f64 / whole.max(1) as f64;
    let kinds = per_run(counts::KINDS);
    let mut line = format!(
        "{{\"decisions\":{},\"kinds\":{kinds},\"decisionsPerKind\":{:.2}",
        per_run(counts::DECISIONS),
        share(per_run(counts::KIND_DECISIONS), kinds),
    );
    for (i, category) in counts::UINT_CATEGORIES.iter().enumerate() {
        let counter = counts::UINTS + 2 * i;
        let values = per_run(counter);
        line += &format!(
            ",\"{category}\":{{\"values\":{values},\"decisionsPerValue\":{:.2}}}",
            share(per_run(counter + 1), values),
        );
    }
    println!("{line}}}");
}
