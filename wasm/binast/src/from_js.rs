//! The Wasm bridge: acorn's objects read by serde-wasm-bindgen one node at a time, each through a struct listing
//! exactly that node kind's fields. serde-wasm-bindgen then fetches only those properties (`deserialize_struct`),
//! where deserialising a whole node as a map would enumerate every property (`Object.entries`: `start`, `end`,
//! `raw`, ...) across the JS boundary. Child nodes stay JS references (`preserve`) until their own turn.

use serde::Deserialize;
use wasm_bindgen::JsValue;

use crate::format::reader::MAX_DEPTH;
use crate::grammar::field::{KeyName, TemplateRaw};
use crate::grammar::literal::LitValue;
use crate::grammar::node::FnBody;
use crate::grammar::node::Node;
#[allow(unused_imports)]
use crate::grammar::node::{Holes, List, Opt, N};
use crate::grammar::scope::AssertedScope;

/// The bridge's part of the grammar (see `grammar_macro.rs`): one `Raw` struct per node kind and the conversion.
macro_rules! from_js_grammar {
    ( $( $(#[$doc:meta])* $variant:ident = $estree:literal { $( $field:ident $(= $js:literal)? : $ty:ty ),* $(,)? } )* ) => {
        /// One struct per node kind listing exactly its ESTree properties, for the Wasm bridge.
        #[cfg(feature = "encoder")]
        #[allow(non_snake_case, missing_docs)]
        mod raw {
            $( pub mod $variant {
                #[allow(unused_imports)]
                use crate::from_js::FromJs;
                #[allow(unused_imports)]
                use super::super::*;
                #[derive(serde::Deserialize)]
                pub struct Raw { $( $( #[serde(rename = $js)] )? #[serde(default)] pub $field: <$ty as FromJs>::Raw ),* }
            } )*
        }

        #[cfg(feature = "encoder")]
        impl Node {
            /// Reads a node of a known ESTree type from its JS object (see `from_js.rs`).
            pub(crate) fn from_js_typed(estree_type: &str, value: wasm_bindgen::JsValue) -> Result<Node, String> {
                use crate::from_js::FromJs;
                match estree_type {
                    $( $estree => {
                        #[allow(unused_variables)]
                        let raw: raw::$variant::Raw = serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())?;
                        Ok(Node::$variant { $( $field: <$ty as FromJs>::convert(raw.$field)? ),* })
                    } )*
                    other => Err(format!("unsupported node type {other}")),
                }
            }
        }

    };
}

with_grammar!(from_js_grammar);

/// A child node still on the JS side.
#[derive(Default)]
pub struct JsNode(JsValue);

impl<'de> Deserialize<'de> for JsNode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_wasm_bindgen::preserve::deserialize(deserializer).map(JsNode)
    }
}

/// Placeholder for fields the parser never sets (scope annotations are computed by the encoder).
#[derive(Default)]
pub struct Absent;

impl<'de> Deserialize<'de> for Absent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(Absent)
    }
}

/// A field type read from JS: `Raw` is what serde-wasm-bindgen produces, `convert` finishes the job.
pub trait FromJs: Sized {
    /// The shape serde-wasm-bindgen reads (child nodes as JS references).
    type Raw: for<'de> Deserialize<'de> + Default;
    /// Builds the field from its raw form.
    fn convert(raw: Self::Raw) -> Result<Self, String>;
}

impl FromJs for Node {
    type Raw = JsNode;
    fn convert(raw: JsNode) -> Result<Self, String> {
        node_from_js(raw.0)
    }
}

impl FromJs for Box<Node> {
    type Raw = JsNode;
    fn convert(raw: JsNode) -> Result<Self, String> {
        node_from_js(raw.0).map(Box::new)
    }
}

impl<T: FromJs> FromJs for Option<T> {
    type Raw = Option<T::Raw>;
    fn convert(raw: Option<T::Raw>) -> Result<Self, String> {
        raw.map(T::convert).transpose()
    }
}

impl<T: FromJs> FromJs for Vec<T> {
    type Raw = Vec<T::Raw>;
    fn convert(raw: Vec<T::Raw>) -> Result<Self, String> {
        raw.into_iter().map(T::convert).collect()
    }
}

impl FromJs for String {
    type Raw = String;
    fn convert(raw: String) -> Result<Self, String> {
        Ok(raw)
    }
}

impl FromJs for bool {
    type Raw = bool;
    fn convert(raw: bool) -> Result<Self, String> {
        Ok(raw)
    }
}

impl FromJs for FnBody {
    type Raw = JsNode;
    fn convert(raw: JsNode) -> Result<Self, String> {
        Ok(FnBody {
            node: Box::new(node_from_js(raw.0)?),
            lazy: false,
        })
    }
}

impl FromJs for AssertedScope {
    type Raw = Absent;
    fn convert(_: Absent) -> Result<Self, String> {
        Ok(AssertedScope::default())
    }
}

impl FromJs for TemplateRaw {
    type Raw = TemplateRaw;
    fn convert(raw: TemplateRaw) -> Result<Self, String> {
        Ok(raw)
    }
}

#[derive(Deserialize)]
struct NodeType {
    #[serde(rename = "type")]
    estree_type: KeyName,
}

#[derive(Deserialize)]
struct RegexParts {
    pattern: String,
    flags: String,
}

#[derive(Deserialize)]
struct LiteralFields {
    raw: Option<String>,
    regex: Option<RegexParts>,
    bigint: Option<String>,
}

thread_local! {
    static DEPTH: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

/// Reads one acorn node (and, recursively, its children).
pub fn node_from_js(value: JsValue) -> Result<Node, String> {
    let depth = DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get()
    });
    let result = if depth > MAX_DEPTH {
        Err(format!("syntax tree nests deeper than {MAX_DEPTH} levels"))
    } else {
        read_node(value)
    };
    DEPTH.with(|d| d.set(d.get() - 1));
    result
}

fn read_node(value: JsValue) -> Result<Node, String> {
    let NodeType { estree_type } =
        serde_wasm_bindgen::from_value(value.clone()).map_err(|e| e.to_string())?;
    if estree_type.as_str() == "Literal" {
        let fields: LiteralFields =
            serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())?;
        if let Some(RegexParts { pattern, flags }) = fields.regex {
            return Ok(Node::Literal(LitValue::RegExp { pattern, flags }));
        }
        if let Some(digits) = fields.bigint {
            return Ok(Node::Literal(LitValue::BigInt(digits)));
        }
        let raw = fields.raw.ok_or("a Literal without raw")?;
        return LitValue::from_raw(&raw)
            .map(Node::Literal)
            .ok_or_else(|| format!("unrecognised literal {raw}"));
    }
    Node::from_js_typed(estree_type.as_str(), value)
}
