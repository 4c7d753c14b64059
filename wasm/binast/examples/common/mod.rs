//! What the timing examples share: their `<runs> <file>...` arguments and the median of their samples.

/// The run count (at least 1) and the files, or the usage line as the error.
pub fn runs_and_files(
    usage: &'static str,
) -> Result<(usize, Vec<String>), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().ok_or(usage)?.parse()?;
    Ok((runs.max(1), args.collect()))
}

/// The median (upper middle for an even count) of non-empty samples.
pub fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
