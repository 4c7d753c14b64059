//! The tree writer's primitives, for both layouts. Writing takes two passes over the tree: the first counts node
//! kinds and strings so tables can be sorted by frequency (small varnums for common entries) and registers every
//! stream, the second emits. It knows nothing of the grammar: a node's fields are written by `grammar/tree_io.rs`
//! between `begin_node` and `end_node`.

use super::context_models::{by_recency, context_table, Models, PlaceKey};
use super::entropy::Encoder;
use super::hash::FnvMap;
use super::layout::Layout;
use super::reader::{NodeFrame, Places};
use super::roles::{stream_name, string_role, STRING_ROLES};
use super::varnum::write_varnum;
use crate::prelude::*;

/// Collects (first pass) or emits (second pass) a tree.
pub struct Writer {
    layout: Layout,
    emitting: bool,
    /// The field being written (set by the generated code before each field).
    pub(crate) field: &'static str,
    /// The parent field the current node sits in.
    role: &'static str,
    /// The interface of the node being written: operator/enum references get one stream per interface.
    node_name: &'static str,
    kind_counts: FnvMap<&'static str, u32>,
    string_counts: Vec<FnvMap<Vec<u8>, u32>>,
    kind_index: FnvMap<&'static str, u32>,
    string_index: Vec<FnvMap<Vec<u8>, u32>>,
    stream_ids: FnvMap<(&'static str, &'static str, &'static str), usize>,
    /// `stream_ids` by the names' addresses: hashing three pointers instead of three strings per value.
    stream_cache: FnvMap<(usize, usize, usize), usize>,
    /// Stream names (`category:key`) in directory order.
    pub(crate) stream_names: Vec<String>,
    pub(crate) streams: Vec<Vec<u8>>,
    /// How many lazy function bodies were written (for stats).
    pub(crate) lazy_bodies: u32,
    /// The context layout's coder and models (`None` for the other layouts).
    context: Option<Box<ContextWriter>>,
}

/// The context layout's state: the range coder, the models, and what the header declares.
struct ContextWriter {
    coder: Encoder,
    models: Models,
    /// Per role: each string seen so far and its number (order of first use).
    string_ids: Vec<FnvMap<Vec<u8>, u32>>,
    /// Values coded (the decoder's work budget) and bytes of new string text.
    symbols: u64,
    text_bytes: u64,
    /// The last small integer coded, for differences.
    last_number: u32,
}

/// What the context layout's header declares, so a decoder can check its budget before any work.
pub(crate) struct ContextTotals {
    pub(crate) symbols: u64,
    pub(crate) text_bytes: u64,
}

impl Writer {
    /// Whether scope annotations are in the file: not in the context layout, where they would only repeat what
    /// the function body says (a decoder that regenerates source has no use for them).
    pub(crate) fn carries_scopes(&self) -> bool {
        self.layout != Layout::Context
    }

    pub(crate) fn new(layout: Layout) -> Writer {
        let tables = match layout {
            Layout::Multipart => 1,
            Layout::Optimised | Layout::Context => STRING_ROLES.len(),
        };
        Writer {
            layout,
            emitting: false,
            field: "",
            role: "",
            node_name: "",
            kind_counts: FnvMap::default(),
            string_counts: vec![FnvMap::default(); tables],
            kind_index: FnvMap::default(),
            string_index: Vec::new(),
            stream_ids: FnvMap::default(),
            stream_cache: FnvMap::default(),
            stream_names: Vec::new(),
            streams: vec![Vec::new()],
            lazy_bodies: 0,
            context: None,
        }
    }

    /// A writer for the context layout: one pass, node kinds numbered by their place in `kinds` (the grammar's
    /// own list, so the file carries no grammar table).
    pub(crate) fn new_context(kinds: &[&'static str], text_bytes: usize) -> Writer {
        let mut writer = Writer::new(Layout::Context);
        writer.kind_index = kinds
            .iter()
            .enumerate()
            .map(|(i, name)| (*name, i as u32))
            .collect();
        writer.emitting = true;
        writer.context = Some(Box::new(ContextWriter {
            coder: Encoder::default(),
            models: Models::new(STRING_ROLES.len(), text_bytes, 0),
            string_ids: vec![FnvMap::default(); STRING_ROLES.len()],
            symbols: 0,
            text_bytes: 0,
            last_number: 0,
        }));
        writer
    }

    /// After a counting pass (`Writer::new(Layout::Context)`, then `node`): the bytes of distinct strings, which is
    /// the text the context layout codes.
    pub(crate) fn distinct_text_bytes(&self) -> usize {
        self.string_counts
            .iter()
            .flat_map(|counts| counts.keys())
            .map(Vec::len)
            .sum()
    }

    /// Ends a context-layout file: the coded bytes and the header's totals.
    pub(crate) fn finish_context(&mut self) -> (Vec<u8>, ContextTotals) {
        match self.context.take() {
            Some(context) => (
                context.coder.finish(),
                ContextTotals {
                    symbols: context.symbols,
                    text_bytes: context.text_bytes,
                },
            ),
            None => (
                Vec::new(),
                ContextTotals {
                    symbols: 0,
                    text_bytes: 0,
                },
            ),
        }
    }

    /// Ends the counting pass: returns the grammar table and the string tables, each sorted by descending
    /// frequency (ties by content, so output is deterministic), fixes the stream directory, and switches to
    /// emitting.
    pub(crate) fn start_emitting(&mut self) -> (Vec<&'static str>, Vec<Vec<Vec<u8>>>) {
        let mut kinds: Vec<(&'static str, u32)> =
            core::mem::take(&mut self.kind_counts).into_iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        self.kind_index = kinds
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i as u32))
            .collect();
        let mut tables = Vec::new();
        for counts in &mut self.string_counts {
            let mut strings: Vec<(Vec<u8>, u32)> = core::mem::take(counts).into_iter().collect();
            strings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            self.string_index.push(
                strings
                    .iter()
                    .enumerate()
                    .map(|(i, (s, _))| (s.clone(), i as u32))
                    .collect(),
            );
            tables.push(strings.into_iter().map(|(s, _)| s).collect());
        }
        if self.layout == Layout::Optimised {
            let mut keys: Vec<(&'static str, &'static str, &'static str)> =
                self.stream_ids.keys().copied().collect();
            keys.sort_unstable();
            self.stream_ids = keys.iter().enumerate().map(|(i, key)| (*key, i)).collect();
            self.stream_names = keys.iter().map(|(c, n, k)| stream_name(c, n, k)).collect();
            self.streams = vec![Vec::new(); keys.len()];
        }
        self.emitting = true;
        (kinds.into_iter().map(|(k, _)| k).collect(), tables)
    }

    /// The stream for a value (always the single tree stream in the multipart layout).
    fn stream(&mut self, category: &'static str, key: &'static str) -> Option<&mut Vec<u8>> {
        // Node kinds, flags and lengths are modelled per (interface, field): `kind:BinaryExpression.left`.
        let node = if matches!(category, "kind" | "flag" | "length") && key != "lazy" {
            self.node_name
        } else {
            ""
        };
        let index = match self.layout {
            Layout::Multipart | Layout::Context => 0,
            Layout::Optimised if !self.emitting => {
                self.stream_ids.entry((category, node, key)).or_insert(0);
                return None;
            }
            // Every key was registered by the counting pass over the same tree.
            Layout::Optimised => {
                let address = (
                    category.as_ptr() as usize,
                    node.as_ptr() as usize,
                    key.as_ptr() as usize,
                );
                match self.stream_cache.get(&address) {
                    Some(&index) => index,
                    None => {
                        let index = self
                            .stream_ids
                            .get(&(category, node, key))
                            .copied()
                            .unwrap_or(0);
                        self.stream_cache.insert(address, index);
                        index
                    }
                }
            }
        };
        if self.emitting {
            self.streams.get_mut(index)
        } else {
            None
        }
    }

    /// Starts a node of interface `name`: counts it (first pass), writes its kind (grammar index + 1; 0 is null)
    /// and makes it current. Returns what `end_node` restores.
    pub(crate) fn begin_node(&mut self, name: &'static str) -> NodeFrame {
        let field = self.field;
        if !self.emitting {
            *self.kind_counts.entry(name).or_insert(0) += 1;
        }
        let reference = self.kind_index.get(name).map_or(0, |i| i + 1);
        if let Some(context) = &mut self.context {
            context.symbols += 1;
            context.models.kind(
                &mut context.coder,
                (self.role, self.node_name, field),
                PlaceKey::NONE,
                reference,
            );
        } else if let Some(out) = self.stream("kind", field) {
            write_varnum(out, reference);
        }
        NodeFrame {
            field,
            role: core::mem::replace(&mut self.role, field),
            node_name: core::mem::replace(&mut self.node_name, name),
            places: Places::default(),
        }
    }

    /// Ends the node `begin_node` started.
    pub(crate) fn end_node(&mut self, frame: NodeFrame) {
        self.role = frame.role;
        self.node_name = frame.node_name;
        self.field = frame.field;
    }

    /// An absent optional node.
    pub(crate) fn null_node(&mut self) {
        let field = self.field;
        if let Some(context) = &mut self.context {
            context.symbols += 1;
            context.models.kind(
                &mut context.coder,
                (self.role, self.node_name, field),
                PlaceKey::NONE,
                0,
            );
        } else if let Some(out) = self.stream("kind", field) {
            write_varnum(out, 0);
        }
    }

    /// A string table reference (index + 1; 0 is null, the table's special entry).
    pub(crate) fn string(&mut self, value: Option<&[u8]>) {
        let table = match self.layout {
            Layout::Multipart => 0,
            Layout::Optimised | Layout::Context => string_role(self.field, self.role),
        };
        if let Some(context) = &mut self.context {
            let table = context_table(table);
            context.string(table, (self.role, self.node_name, self.field), value);
            return;
        }
        if !self.emitting {
            if let Some(bytes) = value {
                match self.string_counts[table].get_mut(bytes) {
                    Some(count) => *count += 1,
                    None => {
                        self.string_counts[table].insert(bytes.to_vec(), 1);
                    }
                }
            }
            self.stream("string", self.string_stream(table));
            return;
        }
        let reference = value.map_or(0, |bytes| {
            self.string_index[table].get(bytes).map_or(0, |i| i + 1)
        });
        if let Some(out) = self.stream("string", self.string_stream(table)) {
            write_varnum(out, reference);
        }
    }

    /// Enum-like strings (operators, declaration kinds) are written per interface, other roles per role.
    fn string_stream(&self, table: usize) -> &'static str {
        if table == 0 {
            self.node_name
        } else {
            STRING_ROLES[table]
        }
    }

    /// A list length.
    pub(crate) fn length(&mut self, count: usize) {
        let field = self.field;
        let count32 = u32::try_from(count).unwrap_or(u32::MAX);
        if let Some(context) = &mut self.context {
            context.symbols += 1;
            let key = (self.role, self.node_name, field);
            context
                .models
                .uint(&mut context.coder, "length", key, PlaceKey::NONE, count32);
        } else if let Some(out) = self.stream("length", field) {
            write_varnum(out, count32);
        }
    }

    /// A boolean or a small tag, one byte.
    pub(crate) fn flag(&mut self, value: u8) {
        let field = self.field;
        if let Some(context) = &mut self.context {
            context.symbols += 1;
            let key = (self.role, self.node_name, field);
            context
                .models
                .flag(&mut context.coder, key, PlaceKey::NONE, u32::from(value));
        } else if let Some(out) = self.stream("flag", field) {
            out.push(value);
        }
    }

    /// A number: f64 little-endian in the multipart layout; small non-negative integers as a varnum in the
    /// optimised one (most numbers in real code are 0, 1, 2, array indices, char codes).
    pub(crate) fn number(&mut self, value: f64) {
        let layout = self.layout;
        if let Some(context) = &mut self.context {
            context.symbols += 1;
            // 0 = an f64 follows; 1 = a small integer as the difference from the last one (sorted tables of
            // code points, offsets); n + 2 = the small integer n.
            let key = ("", self.role, "");
            let coder = &mut context.coder;
            match small_integer(value) {
                Some(n) => {
                    let symbol = number_symbol(n, context.last_number);
                    context
                        .models
                        .uint(coder, "number", key, PlaceKey::NONE, symbol);
                    if symbol == 1 {
                        let delta = zigzag(i64::from(n) - i64::from(context.last_number));
                        context
                            .models
                            .uint(coder, "delta", key, PlaceKey::NONE, delta);
                    }
                    context.last_number = n;
                }
                None => {
                    context.models.uint(coder, "number", key, PlaceKey::NONE, 0);
                    // Encoding cannot fail: only a decoder reads an exponent out of range.
                    let _ = context.models.float(coder, value);
                }
            }
            return;
        }
        let Some(out) = self.stream("number", "") else {
            return;
        };
        match layout {
            Layout::Optimised if small_integer(value).is_some() => {
                write_varnum(out, (value as u32) << 1);
            }
            Layout::Optimised => {
                write_varnum(out, 1);
                out.extend_from_slice(&value.to_le_bytes());
            }
            Layout::Multipart | Layout::Context => out.extend_from_slice(&value.to_le_bytes()),
        }
    }

    /// Writes `body` so a decoder can skip it. Multipart: the body's byte length first. Optimised: how many
    /// streams the body touched, then (stream index, byte length) for each.
    pub(crate) fn lazy(&mut self, body: impl FnOnce(&mut Writer)) {
        // The context layout codes everything in one adaptive sequence, so a body cannot be skipped: it is written
        // in place (the function's flag still says it was meant to be lazy).
        if !self.emitting || self.context.is_some() {
            if self.context.is_some() {
                self.lazy_bodies += 1;
            }
            self.stream("length", "lazy");
            body(self);
            return;
        }
        self.lazy_bodies += 1;
        let field = self.field;
        let fresh = vec![Vec::new(); self.streams.len()];
        let outer = core::mem::replace(&mut self.streams, fresh);
        body(self);
        self.field = field;
        let inner = core::mem::replace(&mut self.streams, outer);
        let used: Vec<(usize, u32)> = inner
            .iter()
            .enumerate()
            .filter(|(_, part)| !part.is_empty())
            .map(|(i, part)| (i, u32::try_from(part.len()).unwrap_or(u32::MAX)))
            .collect();
        let layout = self.layout;
        if let Some(out) = self.stream("length", "lazy") {
            match layout {
                Layout::Multipart | Layout::Context => {
                    write_varnum(out, used.first().map_or(0, |(_, len)| *len));
                }
                Layout::Optimised => {
                    write_varnum(out, used.len() as u32);
                    for (index, len) in &used {
                        write_varnum(out, *index as u32);
                        write_varnum(out, *len);
                    }
                }
            }
        }
        for (stream, part) in self.streams.iter_mut().zip(inner) {
            stream.extend_from_slice(&part);
        }
    }
}

/// A non-negative integer below 2^30 (most numbers in real code: 0, 1, array indices, char codes), else `None`.
fn small_integer(value: f64) -> Option<u32> {
    let small = value.fract() == 0.0
        && (0.0..1_073_741_824.0).contains(&value)
        && !value.is_sign_negative();
    small.then_some(value as u32)
}

/// How a small integer `n` is coded after `last`: as a difference (1) when that is smaller than `n`, else `n + 2`.
fn number_symbol(n: u32, last: u32) -> u32 {
    if (i64::from(n) - i64::from(last)).unsigned_abs() < u64::from(n) {
        1
    } else {
        n + 2
    }
}

/// A signed difference as an unsigned number: 0, -1, 1, -2, 2… → 0, 1, 2, 3, 4…
fn zigzag(delta: i64) -> u32 {
    let folded = if delta < 0 {
        (-delta) * 2 - 1
    } else {
        delta * 2
    };
    u32::try_from(folded).unwrap_or(u32::MAX)
}

impl ContextWriter {
    fn string(
        &mut self,
        table: usize,
        key: (&'static str, &'static str, &'static str),
        value: Option<&[u8]>,
    ) {
        self.symbols += 1;
        let coder = &mut self.coder;
        let Some(bytes) = value else {
            self.models.uint(coder, "string", key, PlaceKey::NONE, 0);
            return;
        };
        let recency = &mut self.models.recency[table];
        match self.string_ids[table].get(bytes) {
            Some(&id) if !by_recency(table) => {
                self.models
                    .uint(coder, "string", key, PlaceKey::NONE, id + 2);
            }
            Some(&id) => {
                let index = recency.iter().rposition(|&seen| seen == id).unwrap_or(0);
                let position = (recency.len() - 1 - index) as u32;
                recency.remove(index);
                recency.push(id);
                self.models
                    .uint(coder, "string", key, PlaceKey::NONE, position + 2);
            }
            None => {
                let id = self.string_ids[table].len() as u32;
                self.string_ids[table].insert(bytes.to_vec(), id);
                recency.push(id);
                self.models.uint(coder, "string", key, PlaceKey::NONE, 1);
                self.text_bytes += bytes.len() as u64;
                let mut text = bytes.to_vec();
                // Encoding never fails: the length bound only applies when decoding.
                let _ =
                    self.models
                        .text(coder, (table, STRING_ROLES[table]), &mut text, usize::MAX);
            }
        }
    }
}
