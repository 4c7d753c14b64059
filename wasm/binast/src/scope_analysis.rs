//! Scope analysis and lazy marking, done by the encoder so a decoder can set up scopes without reading bodies.
//!
//! Per function (and the program): the names it declares with their kind and whether an inner function refers
//! to them (captured), its parameter names, whether it calls `eval` directly (then every name counts as
//! captured), whether an inner arrow uses `this`, and whether a named function expression refers to itself.
//! Block-scoped declarations are listed in their function's scope: the format keeps one scope per function. The
//! annotation's types and encoding are in `grammar/scope.rs`.

use crate::prelude::*;
#[cfg(not(all(target_arch = "wasm32", not(feature = "encoder"))))]
use std::collections::HashSet;
// The decode-only build has no std (lib.rs) and never analyses a tree: it compiles this module but does not keep it.
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
use alloc::collections::BTreeSet as HashSet;

use crate::grammar::node::Node;
use crate::grammar::scope::{AssertedScope, DeclKind, Declared};

#[derive(Default)]
struct Frame {
    declared: Vec<(String, DeclKind)>,
    references: HashSet<String>,
    inner_free: HashSet<String>,
    direct_eval: bool,
    uses_this: bool,
    this_captured: bool,
}

impl Frame {
    fn declare(&mut self, name: &str, kind: DeclKind) {
        if !self.declared.iter().any(|(n, _)| n == name) {
            self.declared.push((name.to_string(), kind));
        }
    }
}

/// Fills every scope annotation and marks lazy bodies: functions nested at most `lazy_level` deep (1 = top-level
/// functions) are lazy, except immediately invoked ones, which run at once so skipping them would only cost.
pub fn annotate(program: &mut Node, lazy_level: u32) {
    let mut frames = vec![Frame::default()];
    let mut walker = Walker {
        frames: &mut frames,
        depth: 0,
        lazy_level,
    };
    if let Node::Program { body, scope, .. } = program {
        for stmt in body.iter_mut() {
            walker.walk(stmt, false);
        }
        let frame = walker.frames.pop().unwrap_or_default();
        *scope = finish_scope(frame, Vec::new(), None).0;
    }
}

struct Walker<'f> {
    frames: &'f mut Vec<Frame>,
    depth: u32,
    lazy_level: u32,
}

fn is_function(node: &Node) -> bool {
    matches!(
        node,
        Node::FunctionExpression { .. } | Node::ArrowExpression { .. }
    )
}

impl Walker<'_> {
    fn frame(&mut self) -> &mut Frame {
        // `annotate` pushes the program frame first and pops it last.
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn walk(&mut self, node: &mut Node, invoked: bool) {
        match node {
            Node::Identifier { name } => {
                let name = name.clone();
                self.frame().references.insert(name);
            }
            Node::ThisExpression {} => self.frame().uses_this = true,
            Node::FunctionDeclaration { id, .. } => {
                if let Some(Node::Identifier { name }) = id.as_deref() {
                    let name = name.clone();
                    self.frame().declare(&name, DeclKind::Function);
                }
                self.function(node, false);
            }
            Node::FunctionExpression { .. } | Node::ArrowExpression { .. } => {
                self.function(node, invoked)
            }
            Node::ClassDeclaration { id, .. } => {
                if let Some(Node::Identifier { name }) = id.as_deref() {
                    let name = name.clone();
                    self.frame().declare(&name, DeclKind::Class);
                }
                node.for_each_child_mut(&mut |child| self.walk(child, false));
            }
            Node::VariableDeclaration { kind, declarations } => {
                let kind = match kind.as_str() {
                    "let" => DeclKind::Let,
                    "const" => DeclKind::Const,
                    _ => DeclKind::Var,
                };
                for declarator in declarations.iter() {
                    if let Node::VariableDeclarator { id, .. } = declarator {
                        let mut names = Vec::new();
                        id.bound_names(&mut names);
                        for name in names {
                            self.frame().declare(&name, kind);
                        }
                    }
                }
                node.for_each_child_mut(&mut |child| self.walk(child, false));
            }
            Node::CatchClause { param, body } => {
                if let Some(param) = param {
                    let mut names = Vec::new();
                    param.bound_names(&mut names);
                    for name in names {
                        self.frame().declare(&name, DeclKind::Catch);
                    }
                    self.walk(param, false);
                }
                self.walk(body, false);
            }
            Node::ImportSpecifier { local, .. }
            | Node::ImportDefaultSpecifier { local }
            | Node::ImportNamespaceSpecifier { local } => {
                if let Node::Identifier { name } = local.as_ref() {
                    let name = name.clone();
                    self.frame().declare(&name, DeclKind::Import);
                }
            }
            Node::CallExpression {
                callee, arguments, ..
            } => {
                if matches!(callee.as_ref(), Node::Identifier { name } if name == "eval") {
                    self.frame().direct_eval = true;
                }
                self.call(callee, arguments);
            }
            Node::NewExpression { callee, arguments } => self.call(callee, arguments),
            // Names that are not variable references: property names, labels, meta properties.
            Node::MemberExpression {
                object,
                property,
                computed,
                ..
            } => {
                self.walk(object, false);
                if *computed {
                    self.walk(property, false);
                }
            }
            Node::DataProperty {
                key,
                value,
                computed,
                ..
            }
            | Node::MethodDefinition {
                key,
                value,
                computed,
                ..
            } => {
                if *computed {
                    self.walk(key, false);
                }
                self.walk(value, false);
            }
            Node::PropertyDefinition {
                key,
                value,
                computed,
                ..
            } => {
                if *computed {
                    self.walk(key, false);
                }
                if let Some(value) = value {
                    self.walk(value, false);
                }
            }
            Node::LabelledStatement { body, .. } => self.walk(body, false),
            Node::BreakStatement { .. }
            | Node::ContinueStatement { .. }
            | Node::MetaProperty { .. } => {}
            Node::ExportSpecifier { local, .. } => self.walk(local, false),
            _ => node.for_each_child_mut(&mut |child| self.walk(child, false)),
        }
    }

    fn call(&mut self, callee: &mut Node, arguments: &mut [Node]) {
        // `(function(){})()`, `(() => {})()`, `function(){}.call(this)`: invoked right away.
        match callee {
            Node::MemberExpression {
                object,
                computed: false,
                ..
            } if is_function(object) => {
                self.walk(object, true);
            }
            other => {
                let invoked = is_function(other);
                self.walk(other, invoked);
            }
        }
        for argument in arguments.iter_mut() {
            self.walk(argument, false);
        }
    }

    fn function(&mut self, node: &mut Node, invoked: bool) {
        let is_arrow = matches!(node, Node::ArrowExpression { .. });
        let own_name = match node {
            Node::FunctionExpression { id: Some(id), .. } => match id.as_ref() {
                Node::Identifier { name } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        };
        let (scope, params, body) = match node {
            Node::FunctionDeclaration {
                scope,
                params,
                body,
                ..
            }
            | Node::FunctionExpression {
                scope,
                params,
                body,
                ..
            }
            | Node::ArrowExpression {
                scope,
                params,
                body,
                ..
            } => (scope, params, body),
            _ => return,
        };
        self.depth += 1;
        body.lazy = self.depth <= self.lazy_level && !invoked;
        self.frames.push(Frame::default());
        let mut param_names = Vec::new();
        for param in params.iter() {
            param.bound_names(&mut param_names);
        }
        for name in &param_names {
            self.frame().declare(name, DeclKind::Param);
        }
        for param in params.iter_mut() {
            self.walk(param, false);
        }
        self.walk(&mut body.node, false);
        self.depth -= 1;
        let frame = self.frames.pop().unwrap_or_default();
        let uses_this = frame.uses_this;
        let (finished, free) = finish_scope(frame, param_names, own_name.as_deref());
        *scope = finished;
        let parent = self.frame();
        parent.inner_free.extend(free);
        if is_arrow && uses_this {
            parent.uses_this = true;
            parent.this_captured = true;
        }
    }
}

/// Builds the annotation and returns the names this scope leaves free (for the enclosing one).
fn finish_scope(
    frame: Frame,
    params: Vec<String>,
    own_name: Option<&str>,
) -> (AssertedScope, HashSet<String>) {
    let declared_names: HashSet<&str> = frame.declared.iter().map(|(n, _)| n.as_str()).collect();
    let declared = frame
        .declared
        .iter()
        .map(|(name, kind)| Declared {
            name: name.clone(),
            kind: *kind,
            captured: frame.direct_eval || frame.inner_free.contains(name),
        })
        .collect();
    let name_captured = own_name.is_some_and(|n| {
        !declared_names.contains(n)
            && (frame.references.contains(n) || frame.inner_free.contains(n))
    });
    let free = frame
        .references
        .iter()
        .chain(&frame.inner_free)
        .filter(|n| !declared_names.contains(n.as_str()) && Some(n.as_str()) != own_name)
        .cloned()
        .collect();
    let scope = AssertedScope {
        declared,
        params,
        has_direct_eval: frame.direct_eval,
        this_captured: frame.this_captured,
        name_captured,
    };
    (scope, free)
}
