//! One declaration per node kind generates everything that must agree on field order: the Rust enum, its
//! deserialiser from the parser's objects, the tree writer, the tree reader and child traversal. Hand-writing
//! those five per kind would let them drift apart; a new node kind is one line in `grammar/node.rs`. The Wasm
//! bridge (`from_js.rs`) generates its part from the same list with its own macro, through `with_grammar!`.

/// The ESTree property name of a field: the explicit one when given, else the Rust field name.
#[cfg_attr(not(feature = "encoder"), allow(unused_macros))]
macro_rules! js_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $js:literal) => {
        $js
    };
}

macro_rules! grammar {
    ( $( $(#[$doc:meta])* $variant:ident = $estree:literal { $( $field:ident $(= $js:literal)? : $ty:ty ),* $(,)? } )* ) => {
        /// A JavaScript syntax tree node. Names follow the BinaryAST/Shift grammar where a kind maps one to one,
        /// ESTree otherwise (modern syntax Shift never had).
        #[derive(Debug, Clone, PartialEq)]
        pub enum Node {
            /// A literal; its interface name depends on the value (see [`LitValue`]).
            Literal(LitValue),
            $( $(#[$doc])* #[doc = concat!("ESTree `", $estree, "`.")] $variant { $( #[allow(missing_docs)] $field: $ty ),* }, )*
        }

        impl Node {
            /// The grammar interface name written in the `[GRAMMAR]` table.
            pub fn interface_name(&self) -> &'static str {
                match self {
                    Node::Literal(value) => value.interface_name(),
                    $( Node::$variant { .. } => stringify!($variant), )*
                }
            }

            /// Writes this node's fields in IDL order (the kind was written by the caller).
            pub(crate) fn write_fields(&self, w: &mut Writer) {
                match self {
                    Node::Literal(value) => value.write(w),
                    $( Node::$variant { $( $field ),* } => { $( w.field = stringify!($field); Field::write($field, w); )* } )*
                }
            }

            /// Calls `f` on every direct child node.
            pub fn for_each_child(&self, f: &mut dyn FnMut(&Node)) {
                match self {
                    Node::Literal(_) => {}
                    $( Node::$variant { $( $field ),* } => { $( Children::visit($field, f); )* } )*
                }
            }

            /// Calls `f` on every direct child node, mutably.
            pub fn for_each_child_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
                match self {
                    Node::Literal(_) => {}
                    $( Node::$variant { $( $field ),* } => { $( Children::visit_mut($field, f); )* } )*
                }
            }

            #[cfg(feature = "encoder")]
            /// Builds the node named by an ESTree `type`, reading the remaining properties from `map`.
            fn from_estree<'de, A: serde::de::MapAccess<'de>>(estree_type: &str, mut map: A) -> Result<Node, A::Error> {
                use serde::de::Error as _;
                match estree_type {
                    "Literal" => LitValue::from_estree(map).map(Node::Literal),
                    $( $estree => {
                        $( let mut $field: Option<$ty> = None; )*
                        while let Some(key) = map.next_key::<KeyName>()? {
                            match key.as_str() {
                                $( js_name!($field $(, $js)?) => $field = Some(map.next_value()?), )*
                                _ => { map.next_value::<serde::de::IgnoredAny>()?; }
                            }
                        }
                        Ok(Node::$variant { $(
                            $field: match $field {
                                Some(value) => value,
                                None => <$ty as Field>::missing()
                                    .ok_or_else(|| A::Error::missing_field(js_name!($field $(, $js)?)))?,
                            },
                        )* })
                    } )*
                    other => Err(A::Error::custom(format!("unsupported node type {other}"))),
                }
            }
        }

        /// Every interface the reader knows, with the function that reads its fields.
        pub(crate) static READERS: &[(&str, ReadFn)] = &[
            $( (stringify!($variant), |r: &mut Reader| { let _ = &r; Ok(Node::$variant { $( $field: { r.enter_field(stringify!($field)); Field::read(r)? } ),* }) }), )*
            ("LiteralStringExpression", |r: &mut Reader| LitValue::read(r, LitKind::Str).map(Node::Literal)),
            ("LiteralNumericExpression", |r: &mut Reader| LitValue::read(r, LitKind::Num).map(Node::Literal)),
            ("LiteralBooleanExpression", |r: &mut Reader| LitValue::read(r, LitKind::Bool).map(Node::Literal)),
            ("LiteralNullExpression", |r: &mut Reader| LitValue::read(r, LitKind::Null).map(Node::Literal)),
            ("LiteralRegExpExpression", |r: &mut Reader| LitValue::read(r, LitKind::RegExp).map(Node::Literal)),
            ("LiteralBigIntExpression", |r: &mut Reader| LitValue::read(r, LitKind::BigInt).map(Node::Literal)),
        ];
    };
}
