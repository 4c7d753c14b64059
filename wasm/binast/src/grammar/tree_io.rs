//! How grammar nodes go through the primitive reader and writer: a node is its kind reference, then its fields.
//! The `Field` implementations of the types that hold nodes live here, above the node kinds, so `field.rs` (the
//! field types without nodes) never refers to `Node`.

use super::field::Field;
use super::node::{FnBody, Node, READERS};
use super::scope::DeclKind;
use crate::format::reader::Reader;
use crate::format::writer::Writer;
use crate::prelude::*;
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
                .ok_or_else(|| DecodeError::BadReference(message!("unknown interface ", name)))
        })
        .collect()
}

impl Reader<'_> {
    /// A node or null. A function's parameter names are filled into its scope as soon as it is read (they are not
    /// written twice), so the decoded tree needs no second pass.
    pub(crate) fn node(&mut self) -> Result<Option<Node>, DecodeError> {
        let Some((grammar_index, frame)) = self.begin_node()? else {
            return Ok(None);
        };
        let node = READERS[grammar_index].1(self);
        self.end_node(frame);
        let mut node = node?;
        if self.carries_scopes() {
            restore_params(&mut node)?;
        }
        Ok(Some(node))
    }
}

/// Fills a decoded function's parameter names into its scope from its parameter patterns.
fn restore_params(node: &mut Node) -> Result<(), DecodeError> {
    let (Node::FunctionDeclaration { scope, params, .. }
    | Node::FunctionExpression { scope, params, .. }
    | Node::ArrowExpression { scope, params, .. }) = node
    else {
        return Ok(());
    };
    let mut names = Vec::new();
    for param in params.iter() {
        param.bound_names(&mut names);
    }
    let placeholders = scope
        .declared
        .iter()
        .take_while(|d| d.kind == DeclKind::Param)
        .count();
    let mut unique = 0;
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            continue;
        }
        let declared = scope
            .declared
            .get_mut(unique)
            .filter(|_| unique < placeholders);
        let declared = declared.ok_or_else(|| too_many_params(placeholders))?;
        declared.name.clone_from(name);
        unique += 1;
    }
    if placeholders != unique {
        return Err(DecodeError::BadReference(message!(
            "scope lists ",
            placeholders,
            " parameters, the function has ",
            unique
        )));
    }
    scope.params = names;
    Ok(())
}

fn too_many_params(placeholders: usize) -> DecodeError {
    DecodeError::BadReference(message!(
        "scope lists ",
        placeholders,
        " parameters, the function has more"
    ))
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

impl Field for Node {
    fn write(&self, w: &mut Writer) {
        w.node(self);
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        Node::read(r)
    }
}

impl Field for Box<Node> {
    fn write(&self, w: &mut Writer) {
        w.node(self);
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        Node::read(r).map(Box::new)
    }
}

impl Field for Option<Box<Node>> {
    fn write(&self, w: &mut Writer) {
        match self {
            Some(node) => w.node(node),
            None => w.null_node(),
        }
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        Ok(r.node()?.map(Box::new))
    }
    fn missing() -> Option<Self> {
        Some(None)
    }
}

impl Field for Option<Node> {
    fn write(&self, w: &mut Writer) {
        match self {
            Some(node) => w.node(node),
            None => w.null_node(),
        }
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        r.node()
    }
}

impl Field for FnBody {
    fn write(&self, w: &mut Writer) {
        w.flag(u8::from(self.lazy));
        if self.lazy {
            w.lazy(|w| w.node(&self.node));
        } else {
            w.node(&self.node);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        let lazy = bool::read(r)?;
        let node = if lazy {
            r.lazy(Node::read)?
        } else {
            Node::read(r)?
        };
        Ok(FnBody {
            node: Box::new(node),
            lazy,
        })
    }
}
