//! What coding a node kind or an integer as one symbol would cost in size (issue #17, part 2: the decoder spends 36–48 % of its
//! binary decisions on kinds, seven mixed decisions each). Decodes context-layout files with the `value-trace`
//! feature, which records every kind with its three contexts and the bits its mixed decisions cost, then replays the
//! kinds through multi-symbol adaptive models (frequency counts per context with escapes, as PPM codes, the shape a
//! table-lookup decoder can decode with one search per kind) and prints the bits each would spend, and the
//! nanoseconds per kind of the best chain (`Chain::code` runs as a decoder would: see there); then the integers'
//! heads and escaped lengths through the same chains, per category (`integers`).
//! Usage: `cargo run --release --features value-trace --example value_models -- <file.ctx>...`
//! (files from `node bench/binast/sizes.mjs <dir>`).

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use binast::{trace, File};

/// Kinds are references below 128.
const KINDS: u32 = 128;

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

    /// Counts one `symbol`, halving every count (rounding up) once the total passes `limit`.
    fn update(&mut self, symbol: u32, limit: u32) {
        match self
            .symbols
            .iter_mut()
            .find(|(s, _)| u32::from(*s) == symbol)
        {
            Some((_, c)) => *c += 1,
            None => self.symbols.push((symbol as u8, 1)),
        }
        self.total += 1;
        if self.total > limit {
            self.total = 0;
            for (_, c) in &mut self.symbols {
                *c = c.div_ceil(2);
                self.total += *c;
            }
        }
    }
}

/// Dense numbers for context keys, as a decoder holds its contexts by index (kind or integer models by their index,
/// coarse contexts with the high bit set, an integer's length contexts with the next bit set; so a follower that is
/// the fine model is one context, as in the coder).
#[derive(Default)]
struct Dense(HashMap<u32, u32>);

impl Dense {
    fn id(&mut self, key: u32) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(key).or_insert(next)
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A PPM-style chain over contexts: each context codes the symbol if it has seen it, else an escape (method C:
/// escape count = distinct symbols seen, times `escape_weight`), and the next context codes it with the symbols
/// already ruled out excluded; the last resort is uniform over the symbols no context ruled out.
struct Chain<'a> {
    variant: &'a ChainVariant,
    /// Every context's counts, by dense number (`Dense`).
    tables: Vec<Counts>,
    bits: f64,
}

impl Chain<'_> {
    fn new(variant: &ChainVariant, contexts: usize) -> Chain<'_> {
        Chain {
            variant,
            tables: vec![Counts::default(); contexts],
            bits: 0.0,
        }
    }

    /// Codes `symbol` (below `alphabet`, at most 128) in the contexts `ids` (dense numbers, in the chain's order; a
    /// repeated one is skipped). It runs as a decoder would: exclusions as a bit mask, and per context visited the
    /// live total, one division (a range decoder's) and the running search up to the symbol; the bits are counted
    /// on the side.
    fn code(&mut self, ids: [u32; 3], symbol: u32, alphabet: u32) {
        let mut excluded: u128 = if alphabet >= 128 { 0 } else { !0 << alphabet };
        let mut used = 0usize;
        let mut found = false;
        for level in 0..3 {
            if ids[..level].contains(&ids[level]) {
                continue;
            }
            used = level + 1;
            let counts = &self.tables[ids[level] as usize];
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
            let escape = self.variant.escape_weight * f64::from(live);
            let denominator = f64::from(total) + escape;
            black_box(u32::MAX / ((2.0 * denominator) as u32).max(1));
            let hit = counts
                .symbols
                .iter()
                .find(|&&(s, _)| excluded >> s & 1 == 0 && u32::from(s) == symbol)
                .map_or(0, |&(_, c)| c);
            if hit > 0 {
                self.bits -= (f64::from(hit) / denominator).log2();
                found = true;
                break;
            }
            self.bits -= (escape / denominator).log2();
            for &(s, _) in &counts.symbols {
                excluded |= 1 << s;
            }
        }
        if !found {
            self.bits += f64::from((128 - excluded.count_ones()).max(1)).log2();
        }
        let levels = if self.variant.update_exclusion {
            used.max(1)
        } else {
            3
        };
        for level in 0..levels {
            if !ids[..level].contains(&ids[level]) {
                self.tables[ids[level] as usize].update(symbol, self.variant.limit);
            }
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
        let uniform = 1.0 / f64::from(KINDS);
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
            .update(event.value, limit);
        self.models
            .entry(event.fine)
            .or_default()
            .update(event.value, limit);
        if event.follower != event.fine {
            self.models
                .entry(event.follower)
                .or_default()
                .update(event.value, limit);
        }
    }
}

/// One chain to replay: its context order (0 fine, 1 follower, 2 coarse) and its counting.
struct ChainVariant {
    name: &'static str,
    order: [usize; 3],
    /// Counts halve once their total passes this.
    limit: u32,
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

/// The best of `CHAINS` (fine → follower → coarse, counts halved past 255, escape weight ½, update exclusion),
/// timed on the kinds.
const BEST: usize = 5;

/// Replays `symbols` (each with its context keys, in fine, follower, coarse order) through `variant`: its bits, and
/// the nanoseconds per symbol of the fastest of `rounds` replays (the chain's work only: no bit input, no tree).
fn replay(
    variant: &ChainVariant,
    symbols: &[([u32; 3], u32)],
    alphabet: u32,
    rounds: usize,
) -> (f64, f64) {
    let mut dense = Dense::default();
    let ids: Vec<[u32; 3]> = symbols
        .iter()
        .map(|(keys, _)| variant.order.map(|level| dense.id(keys[level])))
        .collect();
    let (mut bits, mut best_ns) = (0.0, f64::INFINITY);
    for _ in 0..rounds.max(1) {
        let mut chain = Chain::new(variant, dense.len());
        let start = Instant::now();
        for (ids, (_, symbol)) in ids.iter().zip(symbols) {
            chain.code(*ids, *symbol, alphabet);
        }
        best_ns = best_ns.min(start.elapsed().as_secs_f64() * 1e9 / symbols.len().max(1) as f64);
        bits = chain.bits;
    }
    (bits, best_ns)
}

/// The integers' heads (values below 15, or 15 for the escape) and escaped lengths (bit lengths below 32) through
/// the best chain of `CHAINS` and the plain one, per category: bits against the mixed walks' (the top bits and raw
/// bits below them stay as they are).
fn integers(events: &[trace::UintEvent], totals: &mut HashMap<String, f64>) {
    for (name, variant) in [("best", &CHAINS[BEST]), ("plain", &CHAINS[0])] {
        let mut dense = Dense::default();
        let mut chain_ids = |keys: [u32; 3]| variant.order.map(|level| dense.id(keys[level]));
        // Every context numbered first, so the chain's tables are allocated once.
        let coded: Vec<_> = events
            .iter()
            .map(|event| {
                let keys = [event.fine, event.follower, event.coarse | 0x8000_0000];
                (
                    chain_ids(keys),
                    chain_ids(keys.map(|key| key | 0x4000_0000)),
                )
            })
            .collect();
        let mut chain = Chain::new(variant, dense.len());
        for (event, (head_ids, length_ids)) in events.iter().zip(coded) {
            let before = chain.bits;
            chain.code(head_ids, event.value.min(15), 16);
            if event.value >= 15 {
                let length = 63 - (u64::from(event.value) - 14).max(1).leading_zeros();
                chain.code(length_ids, length, 32);
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
        let symbols: Vec<([u32; 3], u32)> = events
            .iter()
            .map(|e| ([e.fine, e.follower, e.coarse | 0x8000_0000], e.value))
            .collect();
        let mut best_ns = f64::NAN;
        for (index, variant) in CHAINS.iter().enumerate() {
            let rounds = if index == BEST { 5 } else { 1 };
            let (bits, ns) = replay(variant, &symbols, KINDS, rounds);
            if index == BEST {
                best_ns = ns;
            }
            variants.push((variant.name, bits));
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
        println!(
            "{line} | file {:.1} KB | best chain {best_ns:.1} ns per kind",
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
