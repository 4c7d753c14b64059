//! How grammar nodes go through the primitive reader and writer: a node is its kind reference, then its fields.

use super::node::{Node, READERS};
use crate::format::reader::Reader;
use crate::format::writer::Writer;
use crate::DecodeError;

/// A file's grammar table resolved against the interfaces this grammar knows: per entry, its name and index in
/// `READERS`. An unknown name is an error.
pub(crate) fn resolve_kinds(names: &[&str]) -> Result<Vec<(&'static str, usize)>, DecodeError> {
    names
        .iter()
        .map(|name| {
            READERS
                .iter()
                .position(|(known, _)| known == name)
                .map(|index| (READERS[index].0, index))
                .ok_or_else(|| DecodeError::BadReference(format!("unknown interface {name}")))
        })
        .collect()
}

impl Reader<'_> {
    /// A node or null.
    pub(crate) fn node(&mut self) -> Result<Option<Node>, DecodeError> {
        let Some((grammar_index, frame)) = self.begin_node()? else {
            return Ok(None);
        };
        let node = READERS[grammar_index].1(self);
        self.end_node(frame);
        node.map(Some)
    }
}

impl Writer {
    /// A node: its kind then its fields.
    pub(crate) fn node(&mut self, node: &Node) {
        let frame = self.begin_node(node.interface_name());
        node.write_fields(self);
        self.end_node(frame);
    }
}

impl Node {
    /// Reads a node that must be present.
    pub(crate) fn read(r: &mut Reader) -> Result<Node, DecodeError> {
        r.node()?
            .ok_or_else(|| DecodeError::BadReference("null where a node is required".into()))
    }
}
