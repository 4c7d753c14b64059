//! What coding a node kind or an integer as one symbol would cost in size (issue #17, part 2: the decoder spends 36–48 % of its
//! binary decisions on kinds, seven mixed decisions each). Decodes context-layout files with the `value-trace`
//! feature, which records every kind with its three contexts and the bits its mixed decisions cost, then replays the
//! kinds through multi-symbol adaptive models (frequency counts per context with escapes, as PPM codes, the shape a
//! table-lookup decoder can decode with one search per kind) and prints the bits each would spend, and the
//! nanoseconds per kind of the best chain run as a decoder would run it (`timed_chain`); then the integers' heads
//! and escaped lengths through the same chains, per category (`integers`).
//! Usage: `cargo run --release --features value-trace --example value_models -- <file.ctx>...`
//! (files from `node bench/binast/sizes.mjs <dir>`).

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use binast::{trace, File};

/// Kinds are references below 128.
const KINDS: usize = 128;

/// Adaptive frequency counts of one context.
#[derive(Default, Clone)]
struct Counts {
    symbols: Vec<(u8, u32)>,
    total: u32,
}

impl Counts {
    fn count(&self, symbol: u32) -> u32 {
        self.symbols
            .iter()
            .find(|(s, _)| u32::from(*s) == symbol)
            .map_or(0, |&(_, c)| c)
    }

    /// Adds `increment` to `symbol`, halving every count (rounding up) once the total passes `limit`.
    fn update(&mut self, symbol: u32, increment: u32, limit: u32) {
        match self
            .symbols
            .iter_mut()
            .find(|(s, _)| u32::from(*s) == symbol)
        {
            Some((_, c)) => *c += increment,
            None => self.symbols.push((symbol as u8, increment)),
        }
        self.total += increment;
        if self.total > limit {
            self.total = 0;
            for (_, c) in &mut self.symbols {
                *c = c.div_ceil(2);
                self.total += *c;
            }
        }
    }
}

/// A PPM-style chain over contexts: each context codes the symbol if it has seen it, else an escape (method C:
/// escape count = distinct symbols seen, times `escape_weight`), and the next context codes it with the symbols
/// already ruled out excluded; the last resort is uniform over the symbols no context ruled out.
struct Chain {
    limit: u32,
    increment: u32,
    escape_weight: f64,
    /// Update only the contexts down to the one that coded the symbol (update exclusion), or all of them.
    update_exclusion: bool,
    /// Every context's counts: the coder's kind (or integer) models by their index, coarse contexts with the high
    /// bit set, an integer's length contexts with the next bit set (so a follower that is the fine model is one
    /// context, as in the coder).
    tables: HashMap<u32, Counts>,
    bits: f64,
}

impl Chain {
    fn new(limit: u32, increment: u32, escape_weight: f64, update_exclusion: bool) -> Chain {
        Chain {
            limit,
            increment,
            escape_weight,
            update_exclusion,
            tables: HashMap::new(),
            bits: 0.0,
        }
    }

    /// Codes `symbol` (below `alphabet`, at most 128) in the contexts `keys` (one per level, most specific first;
    /// a repeated key is skipped).
    fn code(&mut self, keys: &[u32], symbol: u32, alphabet: usize) {
        let mut excluded = [false; KINDS];
        for ruled_out in excluded.iter_mut().skip(alphabet) {
            *ruled_out = true;
        }
        let mut used = 0usize;
        let mut found = false;
        for (level, &key) in keys.iter().enumerate() {
            if keys[..level].contains(&key) {
                continue;
            }
            used = level + 1;
            let Some(counts) = self.tables.get(&key) else {
                continue;
            };
            let live: Vec<(u8, u32)> = counts
                .symbols
                .iter()
                .copied()
                .filter(|&(s, _)| !excluded[s as usize])
                .collect();
            let total: u32 = live.iter().map(|&(_, c)| c).sum();
            if live.is_empty() {
                continue;
            }
            let escape = self.escape_weight * live.len() as f64;
            let denominator = f64::from(total) + escape;
            let count = live
                .iter()
                .find(|&&(s, _)| u32::from(s) == symbol)
                .map_or(0, |&(_, c)| c);
            if count > 0 {
                self.bits -= (f64::from(count) / denominator).log2();
                found = true;
                break;
            }
            self.bits -= (escape / denominator).log2();
            for &(s, _) in &live {
                excluded[s as usize] = true;
            }
        }
        if !found {
            let left = excluded.iter().filter(|&&e| !e).count().max(1);
            self.bits += (left as f64).log2();
        }
        let levels = if self.update_exclusion {
            used
        } else {
            keys.len()
        };
        for (level, &key) in keys.iter().enumerate().take(levels.max(1)) {
            if keys[..level].contains(&key) {
                continue;
            }
            let (limit, increment) = (self.limit, self.increment);
            self.tables
                .entry(key)
                .or_default()
                .update(symbol, increment, limit);
        }
    }
}

/// A two-input linear mix of smoothed per-context distributions, weights per coarse context updated by each
/// input's probability of what was coded (a Bayesian mixture with a floor): the size a mixing multi-symbol coder
/// could reach. Not table-decodable as cheaply as the chain; for comparison.
struct Mix {
    limit: u32,
    coarse: HashMap<u32, Counts>,
    models: HashMap<u32, Counts>,
    weights: HashMap<u32, f64>,
    bits: f64,
}

impl Mix {
    fn smoothed(counts: Option<&Counts>, symbol: u32, prior: f64, strength: f64) -> f64 {
        let (count, total) = counts.map_or((0, 0), |c| (c.count(symbol), c.total));
        (f64::from(count) + strength * prior) / (f64::from(total) + strength)
    }

    fn code(&mut self, event: &trace::KindEvent) {
        let uniform = 1.0 / KINDS as f64;
        let prior = Mix::smoothed(self.coarse.get(&event.coarse), event.value, uniform, 0.5);
        let fine = Mix::smoothed(self.models.get(&event.fine), event.value, prior, 0.4);
        let follower = Mix::smoothed(self.models.get(&event.follower), event.value, prior, 0.4);
        let w = *self.weights.get(&event.coarse).unwrap_or(&0.5);
        let p = w * fine + (1.0 - w) * follower;
        self.bits -= p.log2();
        let posterior = (w * fine / p).clamp(0.02, 0.98);
        self.weights.insert(event.coarse, posterior);
        let limit = self.limit;
        self.coarse
            .entry(event.coarse)
            .or_default()
            .update(event.value, 1, limit);
        self.models
            .entry(event.fine)
            .or_default()
            .update(event.value, 1, limit);
        if event.follower != event.fine {
            self.models
                .entry(event.follower)
                .or_default()
                .update(event.value, 1, limit);
        }
    }
}

/// One chain to replay: its context order (0 fine, 1 follower, 2 coarse) and its counting.
struct ChainVariant {
    name: &'static str,
    order: [usize; 3],
    /// Counts halve once their total passes this.
    limit: u32,
    increment: u32,
    escape_weight: f64,
    update_exclusion: bool,
}

const fn chain(
    name: &'static str,
    order: [usize; 3],
    limit: u32,
    escape_weight: f64,
    update_exclusion: bool,
) -> ChainVariant {
    ChainVariant {
        name,
        order,
        limit,
        increment: 1,
        escape_weight,
        update_exclusion,
    }
}

/// The chains replayed: the plain PPM-C chain, then the changes that measured smaller (2026-11-27).
const CHAINS: [ChainVariant; 7] = [
    chain("fine>follower>coarse L255", [0, 1, 2], 255, 1.0, false),
    chain("follower>fine>coarse L255", [1, 0, 2], 255, 1.0, false),
    chain("fine>follower>coarse L1023", [0, 1, 2], 1023, 1.0, false),
    chain(
        "fine>follower>coarse L255 esc0.5",
        [0, 1, 2],
        255,
        0.5,
        false,
    ),
    chain(
        "fine>follower>coarse L255 upd-excl",
        [0, 1, 2],
        255,
        1.0,
        true,
    ),
    chain(
        "fine>follower>coarse L255 upd-excl esc0.5",
        [0, 1, 2],
        255,
        0.5,
        true,
    ),
    chain(
        "follower>fine>coarse L255 upd-excl esc0.5",
        [1, 0, 2],
        255,
        0.5,
        true,
    ),
];

/// The best chain (fine → follower → coarse, counts halved past 255, escape weight ½, update exclusion) as a decoder
/// would run it: contexts in one dense table, exclusions as a bit mask, and per context the search a range decoder
/// makes (the live total, one division, then the running sum up to the symbol). Returns the nanoseconds per kind of
/// the fastest of `rounds` replays (model work and the division only: no bit input, no tree) and the bits, which
/// must equal the slow chain's.
fn timed_chain(events: &[trace::KindEvent], rounds: usize) -> (f64, f64) {
    let mut ids: HashMap<u32, u32> = HashMap::new();
    let keys: Vec<[u32; 3]> = events
        .iter()
        .map(|event| {
            [event.fine, event.follower, event.coarse | 0x8000_0000].map(|key| {
                let next = ids.len() as u32;
                *ids.entry(key).or_insert(next)
            })
        })
        .collect();
    let mut best_ns = f64::INFINITY;
    let mut bits = 0.0;
    for _ in 0..rounds {
        let mut tables: Vec<Counts> = vec![Counts::default(); ids.len()];
        let mut range: u32 = black_box(0xFFFF_FFFF);
        let mut cost = 0.0f64;
        let start = Instant::now();
        for (event, key) in events.iter().zip(&keys) {
            let symbol = event.value as u8;
            let mut excluded: u128 = 0;
            let mut used = 0;
            let mut found = false;
            for level in 0..3 {
                let id = key[level] as usize;
                if key[..level].contains(&key[level]) {
                    continue;
                }
                used = level + 1;
                let counts = &tables[id];
                let (mut total, mut live) = (0u32, 0u32);
                for &(s, c) in &counts.symbols {
                    if excluded >> s & 1 == 0 {
                        total += c;
                        live += 1;
                    }
                }
                if live == 0 {
                    continue;
                }
                // Escape weight ½: counts doubled, the escape count is the live symbols.
                let denominator = 2 * total + live;
                let unit = range / denominator;
                let mut below = 0u32;
                let mut hit = 0u32;
                for &(s, c) in &counts.symbols {
                    if excluded >> s & 1 == 1 {
                        continue;
                    }
                    if s == symbol {
                        hit = c;
                        break;
                    }
                    below += c;
                }
                if hit > 0 {
                    range = black_box(unit.max(1) * 2 * hit + (below & 1));
                    cost -= (f64::from(2 * hit) / f64::from(denominator)).log2();
                    found = true;
                    break;
                }
                range = black_box(unit.max(1) * live);
                cost -= (f64::from(live) / f64::from(denominator)).log2();
                for &(s, _) in &counts.symbols {
                    excluded |= 1u128 << s;
                }
            }
            if !found {
                let left = (128 - excluded.count_ones()).max(1);
                cost += f64::from(left).log2();
            }
            for level in 0..used.max(1) {
                if !key[..level].contains(&key[level]) {
                    tables[key[level] as usize].update(event.value, 1, 255);
                }
            }
            range = range.max(1 << 16) | 0xFFFF;
        }
        best_ns = best_ns.min(start.elapsed().as_secs_f64() * 1e9 / events.len() as f64);
        bits = cost;
        black_box(range);
    }
    (best_ns, bits)
}

/// The integers' heads (values below 15, or 15 for the escape) and escaped lengths (bit lengths below 32) through
/// the best chain of `CHAINS` and the plain one, per category: bits against the mixed walks' (the top bits and raw
/// bits below them stay as they are).
fn integers(events: &[trace::UintEvent], totals: &mut HashMap<String, f64>) {
    for (name, variant) in [("best", &CHAINS[5]), ("plain", &CHAINS[0])] {
        let mut chain = Chain::new(
            variant.limit,
            variant.increment,
            variant.escape_weight,
            variant.update_exclusion,
        );
        for event in events {
            let by_level = [event.fine, event.follower, event.coarse | 0x8000_0000];
            let keys = variant.order.map(|level| by_level[level]);
            let before = chain.bits;
            chain.code(&keys, event.value.min(15), 16);
            if event.value >= 15 {
                let length = 63 - (u64::from(event.value) - 14).max(1).leading_zeros();
                chain.code(&keys.map(|key| key | 0x4000_0000), length, 32);
            }
            *totals
                .entry(format!("{} chain {name}", event.category))
                .or_default() += chain.bits - before;
            if name == "best" {
                *totals
                    .entry(format!("{} mixed", event.category))
                    .or_default() += event.head_bits + event.length_bits;
                *totals
                    .entry(format!("{} count", event.category))
                    .or_default() += 1.0;
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: value_models <file.ctx>... (build with --features value-trace)".into());
    }
    let mut totals: HashMap<&'static str, f64> = HashMap::new();
    let mut integer_totals: HashMap<String, f64> = HashMap::new();
    println!("file\tkinds\tmixed KB\tvariant KB (× mixed)...");
    for path in &files {
        let bytes = std::fs::read(path)?;
        trace::take_kinds();
        trace::take_uints();
        File::parse(&bytes)?.decode()?;
        let events = trace::take_kinds();
        integers(&trace::take_uints(), &mut integer_totals);
        if events.is_empty() {
            return Err("no kinds recorded: build with --features value-trace".into());
        }
        let mixed: f64 = events.iter().map(|e| e.bits).sum();
        let mut variants: Vec<(&'static str, f64)> = Vec::new();
        for variant in CHAINS {
            let mut chain = Chain::new(
                variant.limit,
                variant.increment,
                variant.escape_weight,
                variant.update_exclusion,
            );
            for event in &events {
                let by_level = [event.fine, event.follower, event.coarse | 0x8000_0000];
                let keys = variant.order.map(|level| by_level[level]);
                chain.code(&keys, event.value, KINDS);
            }
            variants.push((variant.name, chain.bits));
        }
        for limit in [255, 1023] {
            let mut mix = Mix {
                limit,
                coarse: HashMap::new(),
                models: HashMap::new(),
                weights: HashMap::new(),
                bits: 0.0,
            };
            for event in &events {
                mix.code(event);
            }
            variants.push((
                if limit == 255 {
                    "linear mix L255"
                } else {
                    "linear mix L1023"
                },
                mix.bits,
            ));
        }
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let mut line = format!("{name}\t{}\t{:.1}", events.len(), mixed / 8192.0);
        *totals.entry("mixed").or_default() += mixed;
        for (variant, bits) in &variants {
            line.push_str(&format!(
                "\t{variant}: {:.1} ({:.3})",
                bits / 8192.0,
                bits / mixed
            ));
            *totals.entry(variant).or_default() += bits;
        }
        let (ns, fast_bits) = timed_chain(&events, 5);
        *totals
            .entry("timed chain (same as the upd-excl esc0.5 chain)")
            .or_default() += fast_bits;
        println!(
            "{line} | file {:.1} KB | timed chain {ns:.1} ns per kind",
            bytes.len() as f64 / 1024.0
        );
    }
    let mixed = totals["mixed"];
    let mut rows: Vec<_> = totals.iter().filter(|(k, _)| **k != "mixed").collect();
    rows.sort_by(|a, b| a.1.total_cmp(b.1));
    println!("all files: mixed {:.1} KB", mixed / 8192.0);
    for (variant, bits) in rows {
        println!(
            "  {variant}: {:.1} KB ({:.3}× mixed)",
            bits / 8192.0,
            bits / mixed
        );
    }
    println!("integers, all files (heads and escaped lengths; top and raw bits unchanged):");
    let mut categories: Vec<&str> = integer_totals
        .keys()
        .filter_map(|key| key.strip_suffix(" count"))
        .collect();
    categories.sort_unstable();
    for category in categories {
        let mixed = integer_totals[&format!("{category} mixed")];
        let best = integer_totals[&format!("{category} chain best")];
        let plain = integer_totals[&format!("{category} chain plain")];
        println!(
            "  {category}: {} values, mixed {:.1} KB, best chain {:.1} KB ({:.3}×), plain chain {:.1} KB ({:.3}×)",
            integer_totals[&format!("{category} count")],
            mixed / 8192.0,
            best / 8192.0,
            best / mixed,
            plain / 8192.0,
            plain / mixed
        );
    }
    Ok(())
}
