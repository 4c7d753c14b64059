//! The node kinds, in IDL field order. Field order is the wire order: changing it changes the format.

use crate::format::reader::Reader;
#[cfg(feature = "encoder")]
use crate::format::reader::MAX_DEPTH;
use crate::format::writer::Writer;
#[cfg(feature = "encoder")]
use crate::grammar::field::KeyName;
use crate::grammar::field::{Field, TemplateRaw};
use crate::grammar::literal::{LitKind, LitValue};
use crate::grammar::scope::AssertedScope;
use crate::prelude::*;
use crate::DecodeError;

/// Reads one interface's fields (the entries of `READERS`).
pub type ReadFn = fn(&mut Reader) -> Result<Node, DecodeError>;

pub(crate) type N = Box<Node>;
pub(crate) type Opt = Option<Box<Node>>;
pub(crate) type List = Vec<Node>;
pub(crate) type Holes = Vec<Option<Node>>;

/// The grammar itself, one line per node kind, handed to a generating macro: `grammar!` here (the AST and its
/// reading and writing) and `from_js_grammar!` in `from_js.rs` (the Wasm bridge), so the bridge is generated from
/// the same list without this layer depending on it.
macro_rules! with_grammar {
    ($generate:ident) => {
        $generate! {
            /// A script or module; `source_type` is `script` or `module`.
            Program = "Program" { scope = "binastScope": AssertedScope, source_type = "sourceType": String, body: List }
            ExpressionStatement = "ExpressionStatement" { expression: N, directive: Option<String> }
            Block = "BlockStatement" { body: List }
            EmptyStatement = "EmptyStatement" {}
            DebuggerStatement = "DebuggerStatement" {}
            WithStatement = "WithStatement" { object: N, body: N }
            ReturnStatement = "ReturnStatement" { argument: Opt }
            LabelledStatement = "LabeledStatement" { label: N, body: N }
            BreakStatement = "BreakStatement" { label: Opt }
            ContinueStatement = "ContinueStatement" { label: Opt }
            IfStatement = "IfStatement" { test: N, consequent: N, alternate: Opt }
            SwitchStatement = "SwitchStatement" { discriminant: N, cases: List }
            SwitchCase = "SwitchCase" { test: Opt, consequent: List }
            ThrowStatement = "ThrowStatement" { argument: N }
            TryStatement = "TryStatement" { block: N, handler: Opt, finalizer: Opt }
            CatchClause = "CatchClause" { param: Opt, body: N }
            WhileStatement = "WhileStatement" { test: N, body: N }
            DoWhileStatement = "DoWhileStatement" { body: N, test: N }
            ForStatement = "ForStatement" { init: Opt, test: Opt, update: Opt, body: N }
            ForInStatement = "ForInStatement" { left: N, right: N, body: N }
            ForOfStatement = "ForOfStatement" { is_await = "await": bool, left: N, right: N, body: N }
            FunctionDeclaration = "FunctionDeclaration" {
                is_async = "async": bool, generator: bool, id: Opt, scope = "binastScope": AssertedScope, params: List, body: FnBody
            }
            FunctionExpression = "FunctionExpression" {
                is_async = "async": bool, generator: bool, id: Opt, scope = "binastScope": AssertedScope, params: List, body: FnBody
            }
            /// `body` is a `Block` or, for a concise arrow, an expression.
            ArrowExpression = "ArrowFunctionExpression" {
                is_async = "async": bool, scope = "binastScope": AssertedScope, params: List, body: FnBody
            }
            VariableDeclaration = "VariableDeclaration" { kind: String, declarations: List }
            VariableDeclarator = "VariableDeclarator" { id: N, init: Opt }
            ClassDeclaration = "ClassDeclaration" { id: Opt, super_class = "superClass": Opt, body: N }
            ClassExpression = "ClassExpression" { id: Opt, super_class = "superClass": Opt, body: N }
            ClassBody = "ClassBody" { body: List }
            MethodDefinition = "MethodDefinition" { is_static = "static": bool, kind: String, computed: bool, key: N, value: N }
            PropertyDefinition = "PropertyDefinition" { is_static = "static": bool, computed: bool, key: N, value: Opt }
            StaticBlock = "StaticBlock" { body: List }
            PrivateIdentifier = "PrivateIdentifier" { name: String }
            Identifier = "Identifier" { name: String }
            ThisExpression = "ThisExpression" {}
            Super = "Super" {}
            ArrayExpression = "ArrayExpression" { elements: Holes }
            ObjectExpression = "ObjectExpression" { properties: List }
            /// An object literal or object pattern property; `kind` is `init`, `get` or `set`.
            DataProperty = "Property" { kind: String, method: bool, shorthand: bool, computed: bool, key: N, value: N }
            SpreadElement = "SpreadElement" { argument: N }
            UnaryExpression = "UnaryExpression" { operator: String, argument: N }
            UpdateExpression = "UpdateExpression" { operator: String, prefix: bool, argument: N }
            BinaryExpression = "BinaryExpression" { operator: String, left: N, right: N }
            LogicalExpression = "LogicalExpression" { operator: String, left: N, right: N }
            AssignmentExpression = "AssignmentExpression" { operator: String, left: N, right: N }
            MemberExpression = "MemberExpression" { optional: bool, computed: bool, object: N, property: N }
            ChainExpression = "ChainExpression" { expression: N }
            ConditionalExpression = "ConditionalExpression" { test: N, consequent: N, alternate: N }
            CallExpression = "CallExpression" { optional: bool, callee: N, arguments: List }
            NewExpression = "NewExpression" { callee: N, arguments: List }
            SequenceExpression = "SequenceExpression" { expressions: List }
            YieldExpression = "YieldExpression" { delegate: bool, argument: Opt }
            AwaitExpression = "AwaitExpression" { argument: N }
            TemplateExpression = "TemplateLiteral" { quasis: List, expressions: List }
            TaggedTemplateExpression = "TaggedTemplateExpression" { tag: N, quasi: N }
            /// One raw chunk of a template; the cooked value is recomputed by the parser from `raw`.
            TemplateElement = "TemplateElement" { tail: bool, value: TemplateRaw }
            MetaProperty = "MetaProperty" { meta: N, property: N }
            ImportCall = "ImportExpression" { source: N, options: Opt }
            ParenthesizedExpression = "ParenthesizedExpression" { expression: N }
            ObjectPattern = "ObjectPattern" { properties: List }
            ArrayPattern = "ArrayPattern" { elements: Holes }
            RestElement = "RestElement" { argument: N }
            AssignmentPattern = "AssignmentPattern" { left: N, right: N }
            Import = "ImportDeclaration" { specifiers: List, source: N, attributes: List }
            ImportSpecifier = "ImportSpecifier" { imported: N, local: N }
            ImportDefaultSpecifier = "ImportDefaultSpecifier" { local: N }
            ImportNamespaceSpecifier = "ImportNamespaceSpecifier" { local: N }
            ImportAttribute = "ImportAttribute" { key: N, value: N }
            ExportNamedDeclaration = "ExportNamedDeclaration" { declaration: Opt, specifiers: List, source: Opt, attributes: List }
            ExportSpecifier = "ExportSpecifier" { local: N, exported: N }
            ExportDefault = "ExportDefaultDeclaration" { declaration: N }
            ExportAllDeclaration = "ExportAllDeclaration" { exported: Opt, source: N, attributes: List }
        }
    };
}

with_grammar!(grammar);

/// A function body, eager or lazy. A lazy body is preceded by its byte length(s) so a decoder can skip it.
#[derive(Debug, Clone, PartialEq)]
pub struct FnBody {
    /// A `Block`, or an expression for concise arrows.
    pub node: Box<Node>,
    /// Set by lazy marking (the encoder's scope analysis, `annotate`), never by the parser.
    pub lazy: bool,
}

#[cfg(feature = "encoder")]
impl<'de> serde::Deserialize<'de> for FnBody {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(FnBody {
            node: Box::new(Node::deserialize(deserializer)?),
            lazy: false,
        })
    }
}

impl Node {
    /// The names a binding pattern declares, in order (`a`, `{b, c: d}`, `[e, ...f]`, `g = 1`).
    pub fn bound_names(&self, out: &mut Vec<String>) {
        match self {
            Node::Identifier { name } => out.push(name.clone()),
            Node::ObjectPattern { properties } => {
                for property in properties {
                    match property {
                        Node::DataProperty { value, .. } => value.bound_names(out),
                        other => other.bound_names(out),
                    }
                }
            }
            Node::ArrayPattern { elements } => {
                for element in elements.iter().flatten() {
                    element.bound_names(out);
                }
            }
            Node::RestElement { argument } => argument.bound_names(out),
            Node::AssignmentPattern { left, .. } => left.bound_names(out),
            _ => {}
        }
    }
}

/// The child nodes a field value holds, for the generated traversal (`for_each_child`).
pub(crate) trait Children {
    /// Child nodes inside the value.
    fn visit(&self, _f: &mut dyn FnMut(&Node)) {}
    /// Child nodes inside the value, mutably.
    fn visit_mut(&mut self, _f: &mut dyn FnMut(&mut Node)) {}
}

impl Children for String {}
impl Children for bool {}
impl Children for AssertedScope {}
impl Children for TemplateRaw {}

impl Children for Node {
    fn visit(&self, f: &mut dyn FnMut(&Node)) {
        f(self);
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        f(self);
    }
}

impl Children for Box<Node> {
    fn visit(&self, f: &mut dyn FnMut(&Node)) {
        f(self);
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        f(self);
    }
}

impl<T: Children> Children for Option<T> {
    fn visit(&self, f: &mut dyn FnMut(&Node)) {
        if let Some(value) = self {
            value.visit(f);
        }
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        if let Some(value) = self {
            value.visit_mut(f);
        }
    }
}

impl<T: Children> Children for Vec<T> {
    fn visit(&self, f: &mut dyn FnMut(&Node)) {
        for item in self {
            item.visit(f);
        }
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        for item in self {
            item.visit_mut(f);
        }
    }
}

impl Children for FnBody {
    fn visit(&self, f: &mut dyn FnMut(&Node)) {
        f(&self.node);
    }
    fn visit_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        f(&mut self.node);
    }
}

#[cfg(feature = "encoder")]
impl<'de> serde::Deserialize<'de> for Node {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(NodeVisitor)
    }
}

#[cfg(feature = "encoder")]
struct NodeVisitor;

#[cfg(feature = "encoder")]
impl<'de> serde::de::Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("an ESTree node object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Node, A::Error> {
        use serde::de::Error as _;
        // The same nesting limit as the reader: deeper input would exhaust the (Wasm) stack in the recursive
        // deserialiser, scope walk or writer, and a trap is not an error JavaScript can handle well.
        let depth = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let result = if depth > MAX_DEPTH {
            Err(A::Error::custom(format!(
                "syntax tree nests deeper than {MAX_DEPTH} levels"
            )))
        } else {
            self.visit_node(map)
        };
        DEPTH.with(|d| d.set(d.get() - 1));
        result
    }
}

#[cfg(feature = "encoder")]
thread_local! {
    static DEPTH: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

#[cfg(feature = "encoder")]
impl NodeVisitor {
    fn visit_node<'de, A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        use serde::de::Error as _;
        // acorn's Node constructor assigns `type` first, and JSON.stringify keeps insertion order, so the kind is
        // known before any field: fields deserialise straight into typed slots with no buffering.
        match map.next_key::<KeyName>()? {
            Some(key) if key.as_str() == "type" => {
                let estree_type: KeyName = map.next_value()?;
                Node::from_estree(estree_type.as_str(), map)
            }
            _ => Err(A::Error::custom("a node's first property must be `type`")),
        }
    }
}
