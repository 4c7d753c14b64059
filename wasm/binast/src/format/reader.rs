//! The tree reader's primitives: streams, kind references, strings, numbers, lazy bodies. Every read is
//! bounds-checked and every index validated, so corrupt input is an error. It knows nothing of the grammar: a node's
//! fields are read by `grammar/tree_io.rs` between `begin_node` and `end_node`.

use super::hash::FnvMap;
use super::layout::Layout;
use super::roles::{split_stream_name, string_role, STRING_ROLES};
use super::varnum::read_varnum;
use crate::DecodeError;

/// How deep the decoder (and the encoder's deserialiser) lets a tree nest: deep enough for real code (long
/// `a + b + …` chains nest one level per operator), shallow enough that recursion cannot exhaust the Wasm stack.
pub const MAX_DEPTH: usize = 2_000;

/// What a node replaced in the reader or writer, put back when it ends.
pub(crate) struct NodeFrame {
    pub(crate) field: &'static str,
    pub(crate) role: &'static str,
    pub(crate) node_name: &'static str,
}

/// Decoding state: stream positions and the resolved tables.
pub struct Reader<'a> {
    layout: Layout,
    streams: Vec<&'a [u8]>,
    offsets: Vec<usize>,
    stream_ids: FnvMap<(&'a str, &'a str, &'a str), usize>,
    /// `stream_ids` by the (static) names' addresses, filled on first use.
    stream_cache: FnvMap<(usize, usize, usize), usize>,
    /// Per grammar-table entry: the interface name and the grammar's own index for it (its reader).
    kinds: Vec<(&'static str, usize)>,
    strings: Vec<Vec<&'a [u8]>>,
    depth: usize,
    /// The field being read (set by the generated code before each field).
    pub(crate) field: &'static str,
    role: &'static str,
    node_name: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader over a parsed file's tables; `kinds` is the file's grammar table resolved by the grammar.
    pub(crate) fn new(
        layout: Layout,
        streams: Vec<&'a [u8]>,
        stream_names: &[&'a str],
        strings: Vec<Vec<&'a [u8]>>,
        kinds: Vec<(&'static str, usize)>,
    ) -> Reader<'a> {
        let stream_ids = stream_names
            .iter()
            .enumerate()
            .filter_map(|(i, name)| split_stream_name(name).map(|key| (key, i)))
            .collect();
        Reader {
            layout,
            offsets: vec![0; streams.len()],
            streams,
            stream_ids,
            stream_cache: FnvMap::default(),
            kinds,
            strings,
            depth: 0,
            field: "",
            role: "",
            node_name: "",
        }
    }

    fn stream(&mut self, category: &'static str, key: &'static str) -> Result<usize, DecodeError> {
        if self.layout == Layout::Multipart {
            return Ok(0);
        }
        let node = if matches!(category, "kind" | "flag" | "length") && key != "lazy" {
            self.node_name
        } else {
            ""
        };
        let address = (
            category.as_ptr() as usize,
            node.as_ptr() as usize,
            key.as_ptr() as usize,
        );
        if let Some(&index) = self.stream_cache.get(&address) {
            return Ok(index);
        }
        let index = self
            .stream_ids
            .get(&(category, node, key))
            .copied()
            .ok_or_else(|| {
                DecodeError::BadReference(format!("no stream {category}:{node}.{key}"))
            })?;
        self.stream_cache.insert(address, index);
        Ok(index)
    }

    fn varnum(&mut self, category: &'static str, key: &'static str) -> Result<u32, DecodeError> {
        let i = self.stream(category, key)?;
        read_varnum(self.streams[i], &mut self.offsets[i])
    }

    /// An upper bound on how many more items can follow (each takes at least one byte somewhere).
    pub(crate) fn remaining_hint(&self) -> usize {
        self.streams
            .iter()
            .zip(&self.offsets)
            .map(|(s, o)| s.len().saturating_sub(*o))
            .sum()
    }

    /// Starts a node or reads a null: the kind reference of the current field. For a node it checks the depth,
    /// makes the node current and returns the grammar's index of its interface plus what `end_node` restores.
    pub(crate) fn begin_node(&mut self) -> Result<Option<(usize, NodeFrame)>, DecodeError> {
        let field = self.field;
        let reference = self.varnum("kind", field)? as usize;
        if reference == 0 {
            return Ok(None);
        }
        let (name, grammar_index) = *self
            .kinds
            .get(reference - 1)
            .ok_or_else(|| DecodeError::BadReference(format!("grammar index {}", reference - 1)))?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep { limit: MAX_DEPTH });
        }
        let frame = NodeFrame {
            field,
            role: std::mem::replace(&mut self.role, field),
            node_name: std::mem::replace(&mut self.node_name, name),
        };
        Ok(Some((grammar_index, frame)))
    }

    /// Ends the node `begin_node` started (also after its fields failed to read).
    pub(crate) fn end_node(&mut self, frame: NodeFrame) {
        self.role = frame.role;
        self.node_name = frame.node_name;
        self.field = frame.field;
        self.depth -= 1;
    }

    /// A string table entry or null.
    pub(crate) fn string(&mut self) -> Result<Option<&'a [u8]>, DecodeError> {
        let table = match self.layout {
            Layout::Multipart => 0,
            Layout::Optimised => string_role(self.field, self.role),
        };
        let stream = if table == 0 {
            self.node_name
        } else {
            STRING_ROLES[table]
        };
        let reference = self.varnum("string", stream)? as usize;
        if reference == 0 {
            return Ok(None);
        }
        self.strings
            .get(table)
            .and_then(|strings| strings.get(reference - 1))
            .copied()
            .map(Some)
            .ok_or_else(|| DecodeError::BadReference(format!("string index {}", reference - 1)))
    }

    pub(crate) fn length(&mut self) -> Result<usize, DecodeError> {
        let field = self.field;
        Ok(self.varnum("length", field)? as usize)
    }

    pub(crate) fn flag(&mut self) -> Result<u8, DecodeError> {
        let i = self.stream("flag", self.field)?;
        let offset = self.offsets[i];
        let byte = *self.streams[i]
            .get(offset)
            .ok_or(DecodeError::UnexpectedEnd { offset })?;
        self.offsets[i] += 1;
        Ok(byte)
    }

    pub(crate) fn number(&mut self) -> Result<f64, DecodeError> {
        let i = self.stream("number", "")?;
        if self.layout == Layout::Optimised {
            let tag = read_varnum(self.streams[i], &mut self.offsets[i])?;
            if tag & 1 == 0 {
                return Ok(f64::from(tag >> 1));
            }
        }
        let offset = self.offsets[i];
        let bytes = self.streams[i]
            .get(offset..offset + 8)
            .ok_or(DecodeError::UnexpectedEnd { offset })?;
        self.offsets[i] += 8;
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
        let mut lens = vec![0usize; self.streams.len()];
        match self.layout {
            Layout::Multipart => lens[0] = self.varnum("length", "lazy")? as usize,
            Layout::Optimised => {
                let count = self.varnum("length", "lazy")? as usize;
                if count > lens.len() {
                    return Err(DecodeError::BadLength(format!(
                        "lazy body touches {count} streams"
                    )));
                }
                for _ in 0..count {
                    let index = self.varnum("length", "lazy")? as usize;
                    let len = self.varnum("length", "lazy")? as usize;
                    *lens
                        .get_mut(index)
                        .ok_or_else(|| DecodeError::BadReference(format!("stream {index}")))? = len;
                }
            }
        }
        let starts = self.offsets.clone();
        for ((len, start), stream) in lens.iter().zip(&starts).zip(&self.streams) {
            if start.checked_add(*len).is_none_or(|end| end > stream.len()) {
                return Err(DecodeError::BadLength(format!(
                    "lazy body of {len} bytes overruns its stream"
                )));
            }
        }
        let field = self.field;
        let value = read(self)?;
        self.field = field;
        for ((len, start), end) in lens.iter().zip(&starts).zip(&self.offsets) {
            if end - start != *len {
                return Err(DecodeError::BadLength(format!(
                    "lazy body declared {len} bytes, used {}",
                    end - start
                )));
            }
        }
        Ok(value)
    }

    /// Checks every stream was consumed exactly.
    pub(crate) fn finish(&self) -> Result<(), DecodeError> {
        for (stream, offset) in self.streams.iter().zip(&self.offsets) {
            if *offset != stream.len() {
                return Err(DecodeError::BadLength(format!(
                    "{} unread bytes in the tree",
                    stream.len() - offset
                )));
            }
        }
        Ok(())
    }
}
