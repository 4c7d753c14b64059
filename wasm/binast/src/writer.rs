//! The tree writer, for both layouts. Writing takes two passes over the tree: the first counts node kinds and
//! strings so both tables can be sorted by frequency (small varnums for common entries), the second emits.

use std::collections::HashMap;

use crate::ast::Node;
use crate::container::{Layout, Stream, STREAM_COUNT};
use crate::varnum::write_varnum;

/// Collects (first pass) or emits (second pass) a tree.
pub struct Writer {
    layout: Layout,
    emitting: bool,
    kind_counts: HashMap<&'static str, u32>,
    string_counts: HashMap<Vec<u8>, u32>,
    kind_index: HashMap<&'static str, u32>,
    string_index: HashMap<Vec<u8>, u32>,
    pub(crate) streams: Vec<Vec<u8>>,
    /// How many lazy function bodies were written (for stats).
    pub(crate) lazy_bodies: u32,
}

impl Writer {
    pub(crate) fn new(layout: Layout) -> Writer {
        let stream_count = match layout {
            Layout::Multipart => 1,
            Layout::Optimised => STREAM_COUNT,
        };
        Writer {
            layout,
            emitting: false,
            kind_counts: HashMap::new(),
            string_counts: HashMap::new(),
            kind_index: HashMap::new(),
            string_index: HashMap::new(),
            streams: vec![Vec::new(); stream_count],
            lazy_bodies: 0,
        }
    }

    /// Ends the counting pass: returns both tables sorted by descending frequency (ties by content, so output
    /// is deterministic) and switches to emitting.
    pub(crate) fn start_emitting(&mut self) -> (Vec<&'static str>, Vec<Vec<u8>>) {
        let mut kinds: Vec<(&'static str, u32)> = self.kind_counts.drain().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let mut strings: Vec<(Vec<u8>, u32)> = self.string_counts.drain().collect();
        strings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        self.kind_index = kinds
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i as u32))
            .collect();
        self.string_index = strings
            .iter()
            .enumerate()
            .map(|(i, (s, _))| (s.clone(), i as u32))
            .collect();
        self.emitting = true;
        (
            kinds.into_iter().map(|(k, _)| k).collect(),
            strings.into_iter().map(|(s, _)| s).collect(),
        )
    }

    fn stream(&mut self, stream: Stream) -> &mut Vec<u8> {
        let index = match self.layout {
            Layout::Multipart => 0,
            Layout::Optimised => stream as usize,
        };
        &mut self.streams[index]
    }

    /// A node: its kind (grammar index + 1; 0 is null) then its fields.
    pub(crate) fn node(&mut self, node: &Node) {
        let name = node.interface_name();
        if self.emitting {
            let index = self.kind_index.get(name).copied().unwrap_or(0);
            write_varnum(self.stream(Stream::Kinds), index + 1);
        } else {
            *self.kind_counts.entry(name).or_insert(0) += 1;
        }
        node.write_fields(self);
    }

    /// An absent optional node.
    pub(crate) fn null_node(&mut self) {
        if self.emitting {
            write_varnum(self.stream(Stream::Kinds), 0);
        }
    }

    /// A string table reference (index + 1; 0 is null, the table's special entry).
    pub(crate) fn string(&mut self, value: Option<&[u8]>) {
        if self.emitting {
            let reference = value.map_or(0, |bytes| {
                self.string_index.get(bytes).copied().unwrap_or(0) + 1
            });
            write_varnum(self.stream(Stream::Strings), reference);
        } else if let Some(bytes) = value {
            match self.string_counts.get_mut(bytes) {
                Some(count) => *count += 1,
                None => {
                    self.string_counts.insert(bytes.to_vec(), 1);
                }
            }
        }
    }

    /// A list length.
    pub(crate) fn length(&mut self, count: usize) {
        if self.emitting {
            write_varnum(
                self.stream(Stream::Lengths),
                u32::try_from(count).unwrap_or(u32::MAX),
            );
        }
    }

    /// A boolean or a small tag, one byte.
    pub(crate) fn flag(&mut self, value: u8) {
        if self.emitting {
            self.stream(Stream::Flags).push(value);
        }
    }

    /// A number: f64 little-endian in the multipart layout; small non-negative integers as a varnum in the
    /// optimised one (most numbers in real code are 0, 1, 2, array indices, char codes).
    pub(crate) fn number(&mut self, value: f64) {
        if !self.emitting {
            return;
        }
        let layout = self.layout;
        let out = self.stream(Stream::Numbers);
        let small_int = value.fract() == 0.0
            && (0.0..1_073_741_824.0).contains(&value)
            && !value.is_sign_negative();
        match layout {
            Layout::Optimised if small_int => write_varnum(out, (value as u32) << 1),
            Layout::Optimised => {
                write_varnum(out, 1);
                out.extend_from_slice(&value.to_le_bytes());
            }
            Layout::Multipart => out.extend_from_slice(&value.to_le_bytes()),
        }
    }

    /// Writes `body` so a decoder can skip it: the byte length of what it added to each stream comes first.
    pub(crate) fn lazy(&mut self, body: impl FnOnce(&mut Writer)) {
        if !self.emitting {
            body(self);
            return;
        }
        self.lazy_bodies += 1;
        let fresh = vec![Vec::new(); self.streams.len()];
        let outer = std::mem::replace(&mut self.streams, fresh);
        body(self);
        let inner = std::mem::replace(&mut self.streams, outer);
        for part in &inner {
            let len = u32::try_from(part.len()).unwrap_or(u32::MAX);
            write_varnum(self.stream(Stream::Lengths), len);
        }
        for (stream, part) in self.streams.iter_mut().zip(inner) {
            stream.extend_from_slice(&part);
        }
    }
}
