//! The file layout around the tree.
//!
//! ```text
//! BINJS  varnum(format)                       format 1 = multipart (what Firefox decoded), 2 = optimised
//! [GRAMMAR] identity; varnum(bytes) varnum(count) { varnum(len) name }*
//! [STRINGS] identity; varnum(bytes) varnum(count) ...          multipart: { varnum(len) wtf8 }*
//!                                                             optimised: varnum(len)* then all wtf8 bytes
//! [TREE]    identity; varnum(bytes) tree                      (multipart)
//! [STREAMS] identity; varnum(bytes) varnum(count) varnum(len)* then each stream   (optimised)
//! ```
//! Both tables are sorted by descending frequency. The optimised layout splits the tree into one stream per
//! value kind (node kinds, string references, lengths, flags, numbers) so a general-purpose compressor (brotli,
//! gzip) sees long runs of similar bytes instead of an interleaving.

use crate::ast::Node;
use crate::reader::Reader;
use crate::varnum::{read_varnum, write_varnum};
use crate::writer::Writer;
use crate::DecodeError;

/// Magic bytes every file starts with.
pub const MAGIC: &[u8] = b"BINJS";

/// Which arrangement of the tree the file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Format 1: one interleaved tree section, as in the BinaryAST proposal's multipart format.
    Multipart = 1,
    /// Format 2: the tree split into per-kind streams.
    Optimised = 2,
}

impl Layout {
    /// The layout for a format number, as written after the magic.
    pub fn from_format(format: u32) -> Option<Layout> {
        match format {
            1 => Some(Layout::Multipart),
            2 => Some(Layout::Optimised),
            _ => None,
        }
    }
}

/// The streams of the optimised layout (all one stream in the multipart layout).
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    /// Grammar references of nodes.
    Kinds = 0,
    /// String table references.
    Strings = 1,
    /// List lengths and lazy skip lengths.
    Lengths = 2,
    /// Booleans and small tags.
    Flags = 3,
    /// Numeric literals.
    Numbers = 4,
}

/// How many streams the optimised layout has.
pub const STREAM_COUNT: usize = 5;

/// Encodes an annotated tree (see [`crate::scope::annotate`]) into a file. Returns the bytes and the number of
/// lazy function bodies written.
pub fn write_file(program: &Node, layout: Layout) -> (Vec<u8>, u32) {
    let mut writer = Writer::new(layout);
    writer.node(program);
    let (kinds, strings) = writer.start_emitting();
    writer.node(program);

    let mut out = Vec::with_capacity(writer.streams.iter().map(Vec::len).sum::<usize>() + 1024);
    out.extend_from_slice(MAGIC);
    write_varnum(&mut out, layout as u32);

    let mut grammar = Vec::new();
    write_varnum(&mut grammar, kinds.len() as u32);
    for name in &kinds {
        write_varnum(&mut grammar, name.len() as u32);
        grammar.extend_from_slice(name.as_bytes());
    }
    section(&mut out, "[GRAMMAR]", &grammar);

    let mut table = Vec::new();
    write_varnum(&mut table, strings.len() as u32);
    match layout {
        Layout::Multipart => {
            for s in &strings {
                write_varnum(&mut table, s.len() as u32);
                table.extend_from_slice(s);
            }
        }
        Layout::Optimised => {
            for s in &strings {
                write_varnum(&mut table, s.len() as u32);
            }
            for s in &strings {
                table.extend_from_slice(s);
            }
        }
    }
    section(&mut out, "[STRINGS]", &table);

    match layout {
        Layout::Multipart => section(&mut out, "[TREE]", &writer.streams[0]),
        Layout::Optimised => {
            let mut body = Vec::new();
            write_varnum(&mut body, writer.streams.len() as u32);
            for stream in &writer.streams {
                write_varnum(&mut body, stream.len() as u32);
            }
            for stream in &writer.streams {
                body.extend_from_slice(stream);
            }
            section(&mut out, "[STREAMS]", &body);
        }
    }
    (out, writer.lazy_bodies)
}

fn section(out: &mut Vec<u8>, name: &str, body: &[u8]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"identity;");
    write_varnum(out, body.len() as u32);
    out.extend_from_slice(body);
}

/// The parsed header and tables of a file, ready to decode the tree.
pub struct File<'a> {
    /// Which layout the tree uses.
    pub layout: Layout,
    /// Grammar interface names, in table order.
    pub kinds: Vec<&'a str>,
    /// String table entries (WTF-8), in table order.
    pub strings: Vec<&'a [u8]>,
    /// The tree's streams (one for multipart).
    pub streams: Vec<&'a [u8]>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Cursor<'a> {
    fn varnum(&mut self) -> Result<u32, DecodeError> {
        read_varnum(self.bytes, &mut self.offset)
    }
    fn take(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .offset
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len());
        let end = end.ok_or(DecodeError::UnexpectedEnd {
            offset: self.offset,
        })?;
        let slice = &self.bytes[self.offset..end];
        self.offset = end;
        Ok(slice)
    }
    fn expect(&mut self, tag: &str) -> Result<(), DecodeError> {
        let at = self.offset;
        if self.take(tag.len()).ok() != Some(tag.as_bytes()) {
            return Err(DecodeError::BadHeader(format!(
                "expected {tag} at byte {at}"
            )));
        }
        Ok(())
    }
    fn section(&mut self, name: &str) -> Result<Cursor<'a>, DecodeError> {
        self.expect(name)?;
        self.expect("identity;")?;
        let len = self.varnum()? as usize;
        Ok(Cursor {
            bytes: self.take(len)?,
            offset: 0,
        })
    }
    fn count(&mut self) -> Result<usize, DecodeError> {
        let count = self.varnum()? as usize;
        // Every entry takes at least one byte: a larger count is corruption, not a reason to allocate.
        if count > self.bytes.len() - self.offset {
            return Err(DecodeError::BadLength(format!(
                "{count} entries in {} bytes",
                self.bytes.len()
            )));
        }
        Ok(count)
    }
}

impl<'a> File<'a> {
    /// Parses the header, both tables and the stream directory.
    pub fn parse(bytes: &'a [u8]) -> Result<File<'a>, DecodeError> {
        let mut cursor = Cursor { bytes, offset: 0 };
        if bytes.get(..MAGIC.len()) != Some(MAGIC) {
            return Err(DecodeError::BadHeader("missing BINJS magic".into()));
        }
        cursor.offset = MAGIC.len();
        let format = cursor.varnum()?;
        let layout = Layout::from_format(format)
            .ok_or_else(|| DecodeError::BadHeader(format!("unknown format {format}")))?;

        let mut grammar = cursor.section("[GRAMMAR]")?;
        let count = grammar.count()?;
        let mut kinds = Vec::with_capacity(count);
        for _ in 0..count {
            let len = grammar.varnum()? as usize;
            let name = std::str::from_utf8(grammar.take(len)?)
                .map_err(|_| DecodeError::BadReference("grammar name is not UTF-8".into()))?;
            kinds.push(name);
        }

        let mut table = cursor.section("[STRINGS]")?;
        let count = table.count()?;
        let mut strings = Vec::with_capacity(count);
        match layout {
            Layout::Multipart => {
                for _ in 0..count {
                    let len = table.varnum()? as usize;
                    strings.push(table.take(len)?);
                }
            }
            Layout::Optimised => {
                let mut lens = Vec::with_capacity(count);
                for _ in 0..count {
                    lens.push(table.varnum()? as usize);
                }
                for len in lens {
                    strings.push(table.take(len)?);
                }
            }
        }

        let streams = match layout {
            Layout::Multipart => vec![cursor.section("[TREE]")?.bytes],
            Layout::Optimised => {
                let mut body = cursor.section("[STREAMS]")?;
                let count = body.count()?;
                if count != STREAM_COUNT {
                    return Err(DecodeError::BadHeader(format!(
                        "{count} streams, expected {STREAM_COUNT}"
                    )));
                }
                let lens = (0..count)
                    .map(|_| body.varnum().map(|n| n as usize))
                    .collect::<Result<Vec<_>, _>>()?;
                lens.into_iter()
                    .map(|len| body.take(len))
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        if cursor.offset != bytes.len() {
            return Err(DecodeError::BadLength(format!(
                "{} bytes after the last section",
                bytes.len() - cursor.offset
            )));
        }
        Ok(File {
            layout,
            kinds,
            strings,
            streams,
        })
    }

    /// Decodes the tree.
    pub fn decode(&self) -> Result<Node, DecodeError> {
        let mut reader = Reader::new(self)?;
        let program = reader
            .node()?
            .ok_or_else(|| DecodeError::BadReference("empty tree".into()))?;
        reader.finish()?;
        Ok(program)
    }
}
