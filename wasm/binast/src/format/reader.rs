//! The tree reader's primitives: streams, kind references, strings, numbers, lazy bodies. Every read is
//! bounds-checked and every index validated, so corrupt input is an error. It knows nothing of the grammar: a node's
//! fields are read by `grammar/tree_io.rs` between `begin_node` and `end_node`.

use super::context_models::{by_recency, context_table, Category, Models, PlaceKey, PLACES};
use super::entropy::Decoder;
use super::layout::Layout;
use super::roles::{split_stream_name, string_role, STRING_ROLES};
use super::varnum::read_varnum;
use crate::prelude::*;
use crate::DecodeError;

/// How deep the decoder (and the encoder's deserialiser) lets a tree nest: deep enough for real code (long
/// `a + b + …` chains nest one level per operator), shallow enough that recursion cannot exhaust the Wasm stack.
pub const MAX_DEPTH: usize = 2_000;

/// Whether this build reads the stream layouts (multipart, optimised) as well as the context layout. The browser's
/// decode-only build (cargo feature `stream-layouts` off) reads the context layout alone: the stream layouts' reader,
/// their tables and their scope annotations would add about 6 KB gzipped to it.
pub const STREAM_LAYOUTS: bool = cfg!(feature = "stream-layouts");

/// The error a stream-layout file gets from a build without them. Always inlined, so the constant condition lets
/// the compiler drop the stream layouts' code from such a build.
#[inline(always)]
pub(crate) fn stream_layouts() -> Result<(), DecodeError> {
    if STREAM_LAYOUTS {
        Ok(())
    } else {
        Err(context_only())
    }
}

#[cold]
#[inline(never)]
fn context_only() -> DecodeError {
    DecodeError::BadHeader("this decoder reads the context layout (format 7) only".into())
}

/// What a node replaced in the reader or writer, put back when it ends.
pub(crate) struct NodeFrame {
    pub(crate) field: &'static str,
    pub(crate) role: &'static str,
    pub(crate) node_name: &'static str,
    /// The reader's place numbers (see `Reader::enter_field`); unused by the writer.
    pub(crate) places: Places,
}

/// Where the reader is, as numbers for the context cache: every (interface, field) it reads is the place
/// `interface index × 16 + field ordinal`, found by counting fields as the generated code enters them instead
/// of hashing names per value.
#[derive(Clone, Copy, Default)]
pub(crate) struct Places {
    /// The current field's place.
    field: u32,
    /// The place the current node was read at (its parent's field).
    outer: u32,
    /// The current node's first place, and how many of its fields were entered.
    first: u32,
    entered: u32,
}

impl Places {
    /// The context cache's key for a value of `category` in the current field.
    #[inline]
    fn key(&self, category: Category) -> PlaceKey {
        if self.field == UNNUMBERED || self.outer == UNNUMBERED {
            return PlaceKey::NONE;
        }
        PlaceKey::new(category, self.outer, self.field)
    }
}

/// The place of the program itself and of fields past the 15th of an interface (none has that many).
const UNNUMBERED: u32 = PLACES - 1;

/// Decoding state: stream positions and the resolved tables.
pub struct Reader<'a> {
    layout: Layout,
    streams: Vec<&'a [u8]>,
    offsets: Vec<usize>,
    /// Bytes of all streams together, and how many of them were read: each item of a list takes at least one
    /// byte, so a corrupt count never makes the reader reserve more than the file could hold.
    total_bytes: usize,
    consumed: usize,
    /// The stream directory split into (category, interface, key), in stream order.
    stream_ids: Vec<(&'a str, &'a str, &'a str)>,
    /// Stream lookups by the addresses of the grammar's static names, filled on first use.
    stream_cache: StreamCache,
    /// String table and stream per (field, role, interface) addresses, filled on first use.
    string_cache: StreamCache,
    /// Per grammar-table entry: the interface name and the grammar's own index for it (its reader).
    kinds: Vec<(&'static str, usize)>,
    strings: Vec<Vec<&'a [u8]>>,
    depth: usize,
    /// The field being read (set by the generated code before each field).
    pub(crate) field: &'static str,
    role: &'static str,
    node_name: &'static str,
    places: Places,
    /// The context layout's decoder and models (`None` for the other layouts).
    context: Option<Box<ContextReader<'a>>>,
}

/// The context layout's state: the range decoder, the models, the strings seen so far, and what is left of the
/// budget the header declared.
struct ContextReader<'a> {
    coder: Decoder<'a>,
    models: Models,
    /// Per role, every string seen so far by number.
    strings: Vec<Vec<Vec<u8>>>,
    symbols_left: usize,
    text_bytes_left: usize,
    /// What the header declared, and how many values (or bytes of text) one byte of input may hold: checked as
    /// the input is read, so a streaming input that is still arriving is held to the same budget as a whole one.
    declared: (usize, usize),
    per_input_byte: usize,
    /// The last small integer read, for differences.
    last_number: u32,
}

impl ContextReader<'_> {
    /// Accounts for one more value: the file declared how many it holds.
    #[inline]
    fn spend(&mut self) -> Result<(), DecodeError> {
        if self.symbols_left == 0 {
            return Err(DecodeError::BadLength(
                "more values than the header declares".into(),
            ));
        }
        self.symbols_left -= 1;
        if self.declared.0 - self.symbols_left > self.budget() {
            return Err(DecodeError::BadLength(message!(
                "more than ",
                self.per_input_byte,
                " values per byte of input"
            )));
        }
        self.coder.overrun()
    }

    /// How many values the input read so far may hold.
    #[inline]
    fn budget(&self) -> usize {
        self.per_input_byte
            .saturating_mul(self.coder.position().saturating_add(1))
    }

    /// How many bytes of new text the input may hold, counted on the bytes received rather than read: a string's
    /// length is read before the bytes that code it, so a long string near the start of a file (a font or a Wasm
    /// module as a base64 data URL first in a bundle) was refused, whole or streamed, by a budget of the bytes read
    /// so far. A stream is first read ahead until its bytes cover the text the header declares (at most 4 KiB at
    /// 16 KiB of text a byte) or it ends: a file still arriving is judged as the same file whole, and never does
    /// more work than the bytes it sent allow.
    #[inline]
    fn text_budget(&mut self) -> usize {
        self.coder
            .read_ahead(self.declared.1.div_ceil(self.per_input_byte));
        self.per_input_byte
            .saturating_mul(self.coder.received().saturating_add(1))
    }

    fn string(
        &mut self,
        table: usize,
        place: (&'static str, &'static str, &'static str),
        key: PlaceKey,
    ) -> Result<Option<Vec<u8>>, DecodeError> {
        self.spend()?;
        let text_used = self.declared.1 - self.text_bytes_left;
        let text_allowed = self
            .text_bytes_left
            .min(self.text_budget().saturating_sub(text_used));
        let symbol = self.models.uint(&mut self.coder, "string", place, key, 0) as usize;
        let strings = &mut self.strings[table];
        let recency = &mut self.models.recency[table];
        match symbol {
            0 => Ok(None),
            1 => {
                let mut text = Vec::new();
                let max_len = text_allowed;
                self.models.text(
                    &mut self.coder,
                    (table, STRING_ROLES[table]),
                    &mut text,
                    max_len,
                )?;
                self.text_bytes_left -= text.len();
                self.coder.overrun()?;
                let id = strings.len() as u32;
                strings.push(text.clone());
                self.models.recency[table].push(id);
                Ok(Some(text))
            }
            _ if !by_recency(table) => strings
                .get(symbol - 2)
                .cloned()
                .map(Some)
                .ok_or_else(|| DecodeError::BadReference(message!("string ", symbol - 2))),
            _ => {
                let position = symbol - 2;
                if position >= recency.len() {
                    return Err(DecodeError::BadReference(message!(
                        "string ",
                        position,
                        " back of ",
                        recency.len()
                    )));
                }
                let index = recency.len() - 1 - position;
                let id = recency.remove(index);
                recency.push(id);
                Ok(strings.get(id as usize).cloned())
            }
        }
    }
}

impl<'a> Reader<'a> {
    /// Whether scope annotations are in the file: not in the context layout, where they would only repeat what
    /// the function body says (a decoder that regenerates source has no use for them).
    pub(crate) fn carries_scopes(&self) -> bool {
        STREAM_LAYOUTS && self.layout != Layout::Context
    }

    /// A reader over a parsed file's tables; `kinds` is the file's grammar table resolved by the grammar.
    pub(crate) fn new(
        layout: Layout,
        streams: Vec<&'a [u8]>,
        stream_names: &[&'a str],
        strings: Vec<Vec<&'a [u8]>>,
        kinds: Vec<(&'static str, usize)>,
    ) -> Reader<'a> {
        // A name that does not split can never be looked up: it keeps its place with a key no field has.
        let stream_ids = stream_names
            .iter()
            .map(|name| split_stream_name(name).unwrap_or(("", "", "")))
            .collect();
        Reader {
            layout,
            offsets: vec![0; streams.len()],
            total_bytes: streams.iter().map(|s| s.len()).sum(),
            consumed: 0,
            streams,
            stream_ids,
            stream_cache: StreamCache::new(),
            string_cache: StreamCache::new(),
            kinds,
            strings,
            depth: 0,
            field: "",
            role: "",
            node_name: "",
            places: Places {
                field: UNNUMBERED,
                outer: UNNUMBERED,
                first: UNNUMBERED,
                entered: 0,
            },
            context: None,
        }
    }

    /// Makes `name` the field being read (the generated code calls this before each field, in order). Not
    /// inlined: the grammar has a few hundred fields, and a copy of this in each made the decoder 10 KB larger.
    #[inline(never)]
    pub(crate) fn enter_field(&mut self, name: &'static str) {
        self.field = name;
        let places = &mut self.places;
        places.field = if places.entered < 16 && places.first != UNNUMBERED {
            places.first + places.entered
        } else {
            UNNUMBERED
        };
        places.entered += 1;
    }

    /// A reader of a context-layout tree: `coder` reads the range-coded sequence, `kinds` is the grammar's own
    /// list, `declared` the values and bytes of new text the header declared (already checked against the
    /// decoder's limits), `per_input_byte` how many of either one byte of input may hold.
    pub(crate) fn new_context(
        coder: Decoder<'a>,
        kinds: Vec<(&'static str, usize)>,
        declared: (usize, usize),
        per_input_byte: usize,
    ) -> Reader<'a> {
        let (symbols, text_bytes) = declared;
        let mut reader = Reader::new(Layout::Context, Vec::new(), &[], Vec::new(), kinds);
        reader.context = Some(Box::new(ContextReader {
            coder,
            models: Models::new(STRING_ROLES.len(), text_bytes, symbols),
            strings: vec![Vec::new(); STRING_ROLES.len()],
            symbols_left: symbols,
            text_bytes_left: text_bytes,
            declared,
            per_input_byte,
            last_number: 0,
        }));
        reader
    }

    /// The stream of a value: by category and key, and for kinds, flags and lengths also by the current node.
    /// `per_node`: kinds, flags and lengths of fields (not lazy skip lengths) have one stream per interface.
    fn stream(
        &mut self,
        category: &'static str,
        per_node: bool,
        key: &'static str,
    ) -> Result<usize, DecodeError> {
        if self.layout == Layout::Multipart {
            return Ok(0);
        }
        let node = if per_node { self.node_name } else { "" };
        if let Some(index) = self.stream_cache.get(category, node, key) {
            return Ok(index);
        }
        let index = self
            .stream_ids
            .iter()
            .position(|&(c, n, k)| c == category && n == node && k == key)
            .ok_or_else(|| {
                DecodeError::BadReference(message!("no stream ", category, ":", node, ".", key))
            })?;
        self.stream_cache.insert(category, node, key, index);
        Ok(index)
    }

    fn varnum(
        &mut self,
        category: &'static str,
        per_node: bool,
        key: &'static str,
    ) -> Result<u32, DecodeError> {
        let i = self.stream(category, per_node, key)?;
        self.varnum_at(i)
    }

    fn varnum_at(&mut self, i: usize) -> Result<u32, DecodeError> {
        let start = self.offsets[i];
        let value = read_varnum(self.streams[i], &mut self.offsets[i])?;
        self.consumed += self.offsets[i] - start;
        Ok(value)
    }

    /// An upper bound on how many more items can follow (each takes at least one byte somewhere).
    pub(crate) fn remaining_hint(&self) -> usize {
        match &self.context {
            Some(context) => context.symbols_left,
            None => self.total_bytes - self.consumed,
        }
    }

    /// Starts a node or reads a null: the kind reference of the current field. For a node it checks the depth,
    /// makes the node current and returns the grammar's index of its interface plus what `end_node` restores.
    pub(crate) fn begin_node(&mut self) -> Result<Option<(usize, NodeFrame)>, DecodeError> {
        let field = self.field;
        let reference = match &mut self.context {
            Some(context) => {
                context.spend()?;
                let place = (self.role, self.node_name, field);
                let key = self.places.key(Category::Kind);
                context.models.kind(&mut context.coder, place, key, 0) as usize
            }
            None => {
                stream_layouts()?;
                self.varnum("kind", true, field)? as usize
            }
        };
        if reference == 0 {
            return Ok(None);
        }
        let (name, grammar_index) = *self
            .kinds
            .get(reference - 1)
            .ok_or_else(|| DecodeError::BadReference(message!("grammar index ", reference - 1)))?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep { limit: MAX_DEPTH });
        }
        // Interfaces past the 255th (none today) get no place numbers.
        let first = u32::try_from(grammar_index)
            .ok()
            .filter(|&index| index < PLACES / 16 - 1)
            .map_or(UNNUMBERED, |index| index * 16);
        let places = Places {
            field: self.places.field,
            outer: self.places.field,
            first,
            entered: 0,
        };
        let frame = NodeFrame {
            field,
            role: core::mem::replace(&mut self.role, field),
            node_name: core::mem::replace(&mut self.node_name, name),
            places: core::mem::replace(&mut self.places, places),
        };
        Ok(Some((grammar_index, frame)))
    }

    /// Ends the node `begin_node` started (also after its fields failed to read).
    pub(crate) fn end_node(&mut self, frame: NodeFrame) {
        self.role = frame.role;
        self.node_name = frame.node_name;
        self.field = frame.field;
        self.places = frame.places;
        self.depth -= 1;
    }

    /// A string table entry or null.
    pub(crate) fn string(&mut self) -> Result<Option<Vec<u8>>, DecodeError> {
        if let Some(context) = &mut self.context {
            let table = context_table(string_role(self.field, self.role));
            let key = self.places.key(Category::String);
            return context.string(table, (self.role, self.node_name, self.field), key);
        }
        stream_layouts()?;
        let (table, stream) = match self.layout {
            Layout::Multipart | Layout::Context => (0, 0),
            Layout::Optimised => self.string_stream()?,
        };
        let reference = self.varnum_at(stream)? as usize;
        if reference == 0 {
            return Ok(None);
        }
        self.strings
            .get(table)
            .and_then(|strings| strings.get(reference - 1))
            .map(|bytes| Some(bytes.to_vec()))
            .ok_or_else(|| DecodeError::BadReference(message!("string index ", reference - 1)))
    }

    /// The string table and stream of a string in the current field (optimised layout): by its role, and for
    /// operators and enums by the node too. Cached by the addresses of the field, role and node names.
    fn string_stream(&mut self) -> Result<(usize, usize), DecodeError> {
        let (field, role, node) = (self.field, self.role, self.node_name);
        if let Some(packed) = self.string_cache.get(field, role, node) {
            return Ok((packed % STRING_ROLES.len(), packed / STRING_ROLES.len()));
        }
        let table = string_role(field, role);
        let key = if table == 0 {
            node
        } else {
            STRING_ROLES[table]
        };
        let stream = self.stream("string", false, key)?;
        let packed = stream * STRING_ROLES.len() + table;
        self.string_cache.insert(field, role, node, packed);
        Ok((table, stream))
    }

    pub(crate) fn length(&mut self) -> Result<usize, DecodeError> {
        let field = self.field;
        if let Some(context) = &mut self.context {
            context.spend()?;
            let place = (self.role, self.node_name, field);
            let key = self.places.key(Category::Length);
            return Ok(context
                .models
                .uint(&mut context.coder, "length", place, key, 0) as usize);
        }
        stream_layouts()?;
        Ok(self.varnum("length", true, field)? as usize)
    }

    pub(crate) fn flag(&mut self) -> Result<u8, DecodeError> {
        if let Some(context) = &mut self.context {
            context.spend()?;
            let place = (self.role, self.node_name, self.field);
            let key = self.places.key(Category::Flag);
            let value = context.models.flag(&mut context.coder, place, key, 0);
            return u8::try_from(value)
                .map_err(|_| DecodeError::BadReference(message!("flag ", value)));
        }
        stream_layouts()?;
        let i = self.stream("flag", true, self.field)?;
        let offset = self.offsets[i];
        let byte = *self.streams[i]
            .get(offset)
            .ok_or(DecodeError::UnexpectedEnd { offset })?;
        self.offsets[i] += 1;
        self.consumed += 1;
        Ok(byte)
    }

    pub(crate) fn number(&mut self) -> Result<f64, DecodeError> {
        if let Some(context) = &mut self.context {
            context.spend()?;
            let place = ("", self.role, "");
            // Numbers are predicted from the literal's own place alone (its parent's field).
            let outer = self.places.outer;
            let (number_key, delta_key) = if outer == UNNUMBERED {
                (PlaceKey::NONE, PlaceKey::NONE)
            } else {
                (
                    PlaceKey::new(Category::Number, outer, 0),
                    PlaceKey::new(Category::Delta, outer, 0),
                )
            };
            let coder = &mut context.coder;
            let n = match context.models.uint(coder, "number", place, number_key, 0) {
                0 => return context.models.float(coder, 0.0),
                1 => {
                    let folded =
                        i64::from(context.models.uint(coder, "delta", place, delta_key, 0));
                    let delta = if folded & 1 == 1 {
                        -(folded + 1) / 2
                    } else {
                        folded / 2
                    };
                    let n = i64::from(context.last_number) + delta;
                    u32::try_from(n)
                        .ok()
                        .filter(|&n| n < 1 << 30)
                        .ok_or_else(|| DecodeError::BadReference("number out of range".into()))?
                }
                symbol => symbol - 2,
            };
            context.last_number = n;
            return Ok(f64::from(n));
        }
        stream_layouts()?;
        let i = self.stream("number", false, "")?;
        if self.layout == Layout::Optimised {
            let start = self.offsets[i];
            let tag = read_varnum(self.streams[i], &mut self.offsets[i])?;
            self.consumed += self.offsets[i] - start;
            if tag & 1 == 0 {
                return Ok(f64::from(tag >> 1));
            }
        }
        let offset = self.offsets[i];
        let bytes = self.streams[i]
            .get(offset..offset + 8)
            .ok_or(DecodeError::UnexpectedEnd { offset })?;
        self.offsets[i] += 8;
        self.consumed += 8;
        let mut le = [0u8; 8];
        le.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(le))
    }

    /// Reads a lazy body: its skip lengths, then the body, checking it used exactly those bytes. (A lazy engine
    /// would skip here and come back on first call; we regenerate source, so we read it now.)
    pub(crate) fn lazy<T>(
        &mut self,
        read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        if self.context.is_some() {
            // Written in place in the context layout (see `Writer::lazy`).
            let (field, places) = (self.field, self.places);
            let value = read(self)?;
            (self.field, self.places) = (field, places);
            return Ok(value);
        }
        stream_layouts()?;
        let mut lens = vec![0usize; self.streams.len()];
        match self.layout {
            Layout::Multipart | Layout::Context => {
                lens[0] = self.varnum("length", false, "lazy")? as usize;
            }
            Layout::Optimised => {
                let count = self.varnum("length", false, "lazy")? as usize;
                if count > lens.len() {
                    return Err(DecodeError::BadLength(message!(
                        "lazy body touches ",
                        count,
                        " streams"
                    )));
                }
                for _ in 0..count {
                    let index = self.varnum("length", false, "lazy")? as usize;
                    let len = self.varnum("length", false, "lazy")? as usize;
                    *lens
                        .get_mut(index)
                        .ok_or_else(|| DecodeError::BadReference(message!("stream ", index)))? =
                        len;
                }
            }
        }
        let starts = self.offsets.clone();
        for ((len, start), stream) in lens.iter().zip(&starts).zip(&self.streams) {
            if start.checked_add(*len).is_none_or(|end| end > stream.len()) {
                return Err(DecodeError::BadLength(message!(
                    "lazy body of ",
                    len,
                    " bytes overruns its stream"
                )));
            }
        }
        let field = self.field;
        let value = read(self)?;
        self.field = field;
        for ((len, start), end) in lens.iter().zip(&starts).zip(&self.offsets) {
            if end - start != *len {
                return Err(DecodeError::BadLength(message!(
                    "lazy body declared ",
                    len,
                    " bytes, used ",
                    end - start
                )));
            }
        }
        Ok(value)
    }

    /// Bytes of the context layout's coded tree read so far (0 for the stream layouts).
    pub(crate) fn coded_bytes_read(&self) -> usize {
        self.context
            .as_ref()
            .map_or(0, |context| context.coder.position())
    }

    /// Checks every stream was consumed exactly.
    pub(crate) fn finish(&mut self) -> Result<(), DecodeError> {
        if let Some(context) = &mut self.context {
            context.coder.finish()?;
            if context.symbols_left != 0 || context.text_bytes_left != 0 {
                return Err(DecodeError::BadLength(
                    "fewer values or less text than declared".into(),
                ));
            }
            return Ok(());
        }
        stream_layouts()?;
        for (stream, offset) in self.streams.iter().zip(&self.offsets) {
            if *offset != stream.len() {
                return Err(DecodeError::BadLength(message!(
                    stream.len() - offset,
                    " unread bytes in the tree"
                )));
            }
        }
        Ok(())
    }
}

/// An open-addressing table from the addresses of a (category, interface, key) triple of static names to a stream
/// index. The grammar has a few hundred such triples, so it never fills; hashing three addresses is far cheaper
/// than hashing or comparing the names on every value read.
struct StreamCache {
    /// (category, interface, key addresses, stream index + 1); index 0 marks an empty slot.
    slots: Vec<(usize, usize, usize, usize)>,
    used: usize,
}

const CACHE_SLOTS: usize = 1 << 12;

impl StreamCache {
    fn new() -> StreamCache {
        StreamCache {
            slots: vec![(0, 0, 0, 0); CACHE_SLOTS],
            used: 0,
        }
    }

    fn key(category: &str, node: &str, key: &str) -> (usize, usize, usize) {
        (
            category.as_ptr() as usize,
            node.as_ptr() as usize,
            key.as_ptr() as usize,
        )
    }

    fn slot(address: (usize, usize, usize)) -> usize {
        let mixed = (address.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (address.1 as u64)
                .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                .rotate_left(21)
            ^ (address.2 as u64)
                .wrapping_mul(0x1656_67b1_9e37_79f9)
                .rotate_left(42);
        (mixed >> 40) as usize & (CACHE_SLOTS - 1)
    }

    fn get(&self, category: &str, node: &str, key: &str) -> Option<usize> {
        let address = Self::key(category, node, key);
        let mut slot = Self::slot(address);
        loop {
            let (a, b, c, index) = self.slots[slot];
            if index == 0 {
                return None;
            }
            if (a, b, c) == address {
                return Some(index - 1);
            }
            slot = (slot + 1) & (CACHE_SLOTS - 1);
        }
    }

    fn insert(&mut self, category: &str, node: &str, key: &str, index: usize) {
        // Kept at most half full so probes stay short (and always end at an empty slot).
        if self.used >= CACHE_SLOTS / 2 {
            return;
        }
        let address = Self::key(category, node, key);
        let mut slot = Self::slot(address);
        while self.slots[slot].3 != 0 {
            slot = (slot + 1) & (CACHE_SLOTS - 1);
        }
        self.slots[slot] = (address.0, address.1, address.2, index + 1);
        self.used += 1;
    }
}
