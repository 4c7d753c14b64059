//! The tree reader. Every read is bounds-checked and every index validated, so corrupt input is an error.

use crate::ast::{Node, READERS};
use crate::container::{File, Layout, Stream};
use crate::varnum::read_varnum;
use crate::DecodeError;

/// Reads one interface's fields.
pub type ReadFn = fn(&mut Reader) -> Result<Node, DecodeError>;

/// How deep the decoder lets a tree nest: deep enough for real code (long `a + b + …` chains nest one level per
/// operator), shallow enough that recursion cannot exhaust the Wasm stack.
pub const MAX_DEPTH: usize = 2_000;

/// Decoding state: stream positions and the resolved tables.
pub struct Reader<'a> {
    layout: Layout,
    streams: Vec<&'a [u8]>,
    offsets: Vec<usize>,
    kinds: Vec<ReadFn>,
    strings: Vec<&'a [u8]>,
    depth: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(file: &File<'a>) -> Result<Reader<'a>, DecodeError> {
        let kinds = file
            .kinds
            .iter()
            .map(|name| {
                READERS
                    .iter()
                    .find(|(known, _)| known == name)
                    .map(|(_, read)| *read)
                    .ok_or_else(|| DecodeError::BadReference(format!("unknown interface {name}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Reader {
            layout: file.layout,
            offsets: vec![0; file.streams.len()],
            streams: file.streams.clone(),
            kinds,
            strings: file.strings.clone(),
            depth: 0,
        })
    }

    fn index(&self, stream: Stream) -> usize {
        match self.layout {
            Layout::Multipart => 0,
            Layout::Optimised => stream as usize,
        }
    }

    fn varnum(&mut self, stream: Stream) -> Result<u32, DecodeError> {
        let i = self.index(stream);
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

    /// A node or null.
    pub(crate) fn node(&mut self) -> Result<Option<Node>, DecodeError> {
        let reference = self.varnum(Stream::Kinds)? as usize;
        if reference == 0 {
            return Ok(None);
        }
        let read = *self
            .kinds
            .get(reference - 1)
            .ok_or_else(|| DecodeError::BadReference(format!("grammar index {}", reference - 1)))?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep { limit: MAX_DEPTH });
        }
        let node = read(self);
        self.depth -= 1;
        node.map(Some)
    }

    /// A string table entry or null.
    pub(crate) fn string(&mut self) -> Result<Option<&'a [u8]>, DecodeError> {
        let reference = self.varnum(Stream::Strings)? as usize;
        if reference == 0 {
            return Ok(None);
        }
        self.strings
            .get(reference - 1)
            .copied()
            .map(Some)
            .ok_or_else(|| DecodeError::BadReference(format!("string index {}", reference - 1)))
    }

    pub(crate) fn length(&mut self) -> Result<usize, DecodeError> {
        Ok(self.varnum(Stream::Lengths)? as usize)
    }

    pub(crate) fn flag(&mut self) -> Result<u8, DecodeError> {
        let i = self.index(Stream::Flags);
        let offset = self.offsets[i];
        let byte = *self.streams[i]
            .get(offset)
            .ok_or(DecodeError::UnexpectedEnd { offset })?;
        self.offsets[i] += 1;
        Ok(byte)
    }

    pub(crate) fn number(&mut self) -> Result<f64, DecodeError> {
        let i = self.index(Stream::Numbers);
        if self.layout == Layout::Optimised {
            let tag = self.varnum(Stream::Numbers)?;
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
        let lens = (0..self.streams.len())
            .map(|_| self.length())
            .collect::<Result<Vec<_>, _>>()?;
        let starts = self.offsets.clone();
        for ((len, start), stream) in lens.iter().zip(&starts).zip(&self.streams) {
            if start.checked_add(*len).is_none_or(|end| end > stream.len()) {
                return Err(DecodeError::BadLength(format!(
                    "lazy body of {len} bytes overruns its stream"
                )));
            }
        }
        let value = read(self)?;
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

impl Node {
    /// Reads a node that must be present.
    pub(crate) fn read(r: &mut Reader) -> Result<Node, DecodeError> {
        r.node()?
            .ok_or_else(|| DecodeError::BadReference("null where a node is required".into()))
    }
}
