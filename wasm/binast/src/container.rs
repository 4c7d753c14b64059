//! The file layout around the tree.
//!
//! ```text
//! BINJS  varnum(format)                       format 1 = multipart (what Firefox decoded), 2 = optimised
//! [GRAMMAR] identity; varnum(bytes) varnum(count) { varnum(len) name }*
//! [STRINGS] identity; varnum(bytes) ...   multipart: varnum(count) { varnum(len) wtf8 }*
//!                                         optimised: varnum(tables) { varnum(count) varnum(len)* wtf8* }*
//! [TREE]    identity; varnum(bytes) tree                                                      (multipart)
//! [STREAMS] identity; varnum(bytes) varnum(count) { varnum(len) name varnum(bytes) }* streams (optimised)
//! ```
//! Tables are sorted by descending frequency. The optimised layout splits the tree into streams named
//! `category:field` (see `roles.rs`) and keeps one string table per role, so a general-purpose compressor
//! (brotli, gzip) sees runs of similar values instead of an interleaving.

use crate::format::entropy::{Decoder, Refill};
use crate::format::layout::{Layout, MAGIC};
use crate::format::reader::{stream_layouts, Reader};
use crate::format::roles::STRING_ROLES;
use crate::format::varnum::{read_varnum, write_varnum};
use crate::format::writer::Writer;
use crate::grammar::node::{Node, READERS};
use crate::grammar::tree_io::resolve_kinds;
use crate::prelude::*;
use crate::DecodeError;

/// Encodes an annotated tree (see [`crate::scope_analysis::annotate`]) into a file. Returns the bytes and the number of
/// lazy function bodies written.
pub fn write_file(program: &Node, layout: Layout) -> (Vec<u8>, u32) {
    if layout == Layout::Context {
        return write_context_file(program);
    }
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
    match layout {
        Layout::Multipart | Layout::Context => {
            let strings = strings.first().map(Vec::as_slice).unwrap_or_default();
            write_varnum(&mut table, strings.len() as u32);
            for s in strings {
                write_varnum(&mut table, s.len() as u32);
                table.extend_from_slice(s);
            }
        }
        Layout::Optimised => {
            write_varnum(&mut table, strings.len() as u32);
            for strings in &strings {
                write_varnum(&mut table, strings.len() as u32);
                for s in strings {
                    write_varnum(&mut table, s.len() as u32);
                }
                for s in strings {
                    table.extend_from_slice(s);
                }
            }
        }
    }
    section(&mut out, "[STRINGS]", &table);

    match layout {
        Layout::Multipart | Layout::Context => section(&mut out, "[TREE]", &writer.streams[0]),
        Layout::Optimised => {
            let mut body = Vec::new();
            write_varnum(&mut body, writer.streams.len() as u32);
            for (name, stream) in writer.stream_names.iter().zip(&writer.streams) {
                write_varnum(&mut body, name.len() as u32);
                body.extend_from_slice(name.as_bytes());
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

/// The context layout: `BINJS varnum(5) varnum(values) varnum(text bytes)` then the range-coded tree to the end of
/// the file. No tables: node kinds are numbered by the grammar's own list, strings are coded where first used.
fn write_context_file(program: &Node) -> (Vec<u8>, u32) {
    let kinds: Vec<&'static str> = READERS.iter().map(|(name, _)| *name).collect();
    // The text model is sized by the text's total, which the header declares: count it first.
    let mut counter = Writer::new(Layout::Context);
    counter.node(program);
    let mut text_bytes = counter.distinct_text_bytes();
    let mut writer = Writer::new_context(&kinds, text_bytes);
    writer.node(program);
    let (mut coded, mut totals) = writer.finish_context();
    if totals.text_bytes != text_bytes as u64 {
        // The count and the coder disagree on what is new text: code again with the coder's total, so the decoder
        // sizes its model from the same number.
        text_bytes = usize::try_from(totals.text_bytes).unwrap_or(usize::MAX);
        writer = Writer::new_context(&kinds, text_bytes);
        writer.node(program);
        (coded, totals) = writer.finish_context();
    }
    let mut out = Vec::with_capacity(coded.len() + 32);
    out.extend_from_slice(MAGIC);
    write_varnum(&mut out, Layout::Context as u32);
    write_u64(&mut out, totals.symbols);
    write_u64(&mut out, totals.text_bytes);
    out.extend_from_slice(&coded);
    (out, writer.lazy_bodies)
}

/// A count as a varnum, saturating (no real file comes near 2^32 values).
fn write_u64(out: &mut Vec<u8>, value: u64) {
    write_varnum(out, u32::try_from(value).unwrap_or(u32::MAX));
}

/// How many values a context-layout file may declare per byte of coded input: a budget checked before any work.
/// Every value is at least one binary decision, and the coder never predicts a decision surer than 65,504/65,536
/// (0.0007 bits), so no file our writer makes exceeds about 11,400 per byte; real code has about 3 (the library
/// corpus), deliberately repetitive code a few hundred.
pub const MAX_VALUES_PER_BYTE: usize = 16_384;
/// The most values (or bytes of string text) any context-layout file may declare: about a 100 MB script.
pub const MAX_VALUES: usize = 64 << 20;

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
    /// String tables (one for multipart, one per role for optimised), entries WTF-8, in table order.
    pub strings: Vec<Vec<&'a [u8]>>,
    /// Stream names (`category:field`; empty for multipart).
    pub stream_names: Vec<&'a str>,
    /// The tree's streams (one for multipart and for context, where it is the range-coded sequence).
    pub streams: Vec<&'a [u8]>,
    /// Context layout: the values and bytes of new string text the header declares.
    pub declared: (usize, usize),
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
            return Err(DecodeError::BadHeader(message!(
                "expected ",
                tag,
                " at byte ",
                at
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
            return Err(DecodeError::BadLength(message!(
                count,
                " entries in ",
                self.bytes.len(),
                " bytes"
            )));
        }
        Ok(count)
    }
}

impl<'a> File<'a> {
    /// Parses the header, both tables and the stream directory.
    pub fn parse(bytes: &'a [u8]) -> Result<File<'a>, DecodeError> {
        let mut cursor = Cursor { bytes, offset: 0 };
        let (layout, _) = file_layout(&mut cursor)?;
        if layout == Layout::Context {
            let (symbols, text_bytes) = context_totals(&mut cursor)?;
            let coded = &bytes[cursor.offset..];
            let limit = (coded.len() + 1)
                .saturating_mul(MAX_VALUES_PER_BYTE)
                .min(MAX_VALUES);
            if symbols > limit || text_bytes > limit {
                return Err(DecodeError::BadLength(message!(
                    symbols,
                    " values and ",
                    text_bytes,
                    " bytes of text declared in ",
                    coded.len(),
                    " bytes"
                )));
            }
            return Ok(File {
                layout,
                kinds: READERS.iter().map(|(name, _)| *name).collect(),
                strings: Vec::new(),
                stream_names: Vec::new(),
                streams: vec![coded],
                declared: (symbols, text_bytes),
            });
        }

        stream_layouts()?;
        let mut grammar = cursor.section("[GRAMMAR]")?;
        let count = grammar.count()?;
        let mut kinds = Vec::with_capacity(count);
        for _ in 0..count {
            let len = grammar.varnum()? as usize;
            let name = core::str::from_utf8(grammar.take(len)?)
                .map_err(|_| DecodeError::BadReference("grammar name is not UTF-8".into()))?;
            kinds.push(name);
        }

        let mut table = cursor.section("[STRINGS]")?;
        let mut strings = Vec::new();
        match layout {
            Layout::Multipart | Layout::Context => {
                let count = table.count()?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let len = table.varnum()? as usize;
                    entries.push(table.take(len)?);
                }
                strings.push(entries);
            }
            Layout::Optimised => {
                let tables = table.count()?;
                if tables != STRING_ROLES.len() {
                    return Err(DecodeError::BadHeader(message!(tables, " string tables")));
                }
                for _ in 0..tables {
                    let count = table.count()?;
                    let lens = (0..count)
                        .map(|_| table.varnum().map(|n| n as usize))
                        .collect::<Result<Vec<_>, _>>()?;
                    strings.push(
                        lens.into_iter()
                            .map(|len| table.take(len))
                            .collect::<Result<Vec<_>, _>>()?,
                    );
                }
            }
        }

        let mut stream_names = Vec::new();
        let streams = match layout {
            Layout::Multipart | Layout::Context => vec![cursor.section("[TREE]")?.bytes],
            Layout::Optimised => {
                let mut body = cursor.section("[STREAMS]")?;
                let count = body.count()?;
                let mut lens = Vec::with_capacity(count);
                for _ in 0..count {
                    let len = body.varnum()? as usize;
                    let name = core::str::from_utf8(body.take(len)?)
                        .map_err(|_| DecodeError::BadHeader("stream name is not UTF-8".into()))?;
                    stream_names.push(name);
                    lens.push(body.varnum()? as usize);
                }
                lens.into_iter()
                    .map(|len| body.take(len))
                    .collect::<Result<Vec<_>, _>>()?
            }
        };
        if cursor.offset != bytes.len() {
            return Err(DecodeError::BadLength(message!(
                bytes.len() - cursor.offset,
                " bytes after the last section"
            )));
        }
        Ok(File {
            layout,
            kinds,
            strings,
            stream_names,
            streams,
            declared: (0, 0),
        })
    }

    /// Decodes the tree.
    pub fn decode(&self) -> Result<Node, DecodeError> {
        let reader = if self.layout == Layout::Context {
            let coded = self.streams.first().copied().unwrap_or_default();
            let kinds = resolve_kinds(&self.kinds)?;
            Reader::new_context(
                Decoder::new(coded),
                kinds,
                self.declared,
                MAX_VALUES_PER_BYTE,
            )
        } else {
            self.stream_reader()?
        };
        read_tree(reader).map(|(program, _)| program)
    }

    fn stream_reader(&self) -> Result<Reader<'_>, DecodeError> {
        stream_layouts()?;
        Ok(Reader::new(
            self.layout,
            self.streams.clone(),
            &self.stream_names,
            self.strings.clone(),
            resolve_kinds(&self.kinds)?,
        ))
    }
}

/// The program in a reader, once it checked it used its input exactly, and how many bytes of the coded tree it
/// read (0 for the stream layouts).
fn read_tree(mut reader: Reader<'_>) -> Result<(Node, usize), DecodeError> {
    let program = reader
        .node()?
        .ok_or_else(|| DecodeError::BadReference("empty tree".into()))?;
    reader.finish()?;
    Ok((program, reader.coded_bytes_read()))
}

/// The layout (and its format number) after the magic every file starts with.
fn file_layout(cursor: &mut Cursor<'_>) -> Result<(Layout, u32), DecodeError> {
    if cursor.bytes.get(..MAGIC.len()) != Some(MAGIC) {
        return Err(DecodeError::BadHeader("missing BINJS magic".into()));
    }
    cursor.offset = MAGIC.len();
    let format = cursor.varnum()?;
    let layout = Layout::from_format(format)
        .ok_or_else(|| DecodeError::BadHeader(message!("unknown format ", format)))?;
    Ok((layout, format))
}

/// The values and bytes of new text a context-layout header declares, within the limit any file has.
fn context_totals(cursor: &mut Cursor<'_>) -> Result<(usize, usize), DecodeError> {
    let symbols = cursor.varnum()? as usize;
    let text_bytes = cursor.varnum()? as usize;
    if symbols > MAX_VALUES || text_bytes > MAX_VALUES {
        return Err(DecodeError::BadLength(message!(
            symbols,
            " values and ",
            text_bytes,
            " bytes of text declared, more than ",
            MAX_VALUES
        )));
    }
    Ok((symbols, text_bytes))
}

/// The longest header a context-layout file has: the magic and three varnums of up to 5 bytes.
const CONTEXT_HEADER_MAX_BYTES: usize = MAGIC.len() + 3 * 5;

/// Decodes a context-layout file that arrives in pieces, starting on the first ones: `source` fills a buffer with
/// the next bytes and returns how many (0 = the end). The per-byte budgets are checked against the bytes read so
/// far, so a file still arriving never does more work than the same bytes would allow in a whole file. Returns the
/// program and the file's size in bytes. The other layouts cannot be decoded this way (their streams lie one after
/// another: see the README's "Streaming").
pub fn decode_streaming(mut source: Refill<'_>) -> Result<(Node, usize), DecodeError> {
    let mut head = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    while head.len() < CONTEXT_HEADER_MAX_BYTES {
        let filled = source(&mut chunk).min(chunk.len());
        if filled == 0 {
            break;
        }
        head.extend_from_slice(&chunk[..filled]);
    }
    drop(chunk);
    let mut cursor = Cursor {
        bytes: &head,
        offset: 0,
    };
    let (layout, format) = file_layout(&mut cursor)?;
    if layout != Layout::Context {
        // The decode-only build says it reads the context layout alone, as for a whole file.
        stream_layouts()?;
        return Err(DecodeError::BadHeader(message!(
            "format ",
            format,
            " cannot be decoded as a stream: only the context layout (format ",
            Layout::Context as u32,
            ") can"
        )));
    }
    let declared = context_totals(&mut cursor)?;
    let header_bytes = cursor.offset;
    let first = head.split_off(header_bytes);
    let coder = Decoder::streaming(first, source);
    let kinds = resolve_kinds(&READERS.iter().map(|(name, _)| *name).collect::<Vec<_>>())?;
    let reader = Reader::new_context(coder, kinds, declared, MAX_VALUES_PER_BYTE);
    read_tree(reader).map(|(program, coded_bytes)| (program, header_bytes + coded_bytes))
}
