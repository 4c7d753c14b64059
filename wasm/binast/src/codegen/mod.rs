//! JavaScript regeneration from a decoded tree: statements here, expressions in `expr`. Output is compact
//! (no comments, minimal spaces) and always re-parses to the same tree: parentheses come from precedence, since
//! the parser drops them.

mod expr;
mod text;

use crate::grammar::literal::LitValue;
use crate::grammar::node::Node;
use crate::prelude::*;

pub use text::{number_literal, string_literal};

/// Regenerates source text for a `Program`.
pub fn to_javascript(program: &Node) -> String {
    to_javascript_sized(program, 4096)
}

/// Regenerates source text into a buffer reserved for `capacity_bytes` up front, so the text is built in place
/// instead of being copied every time a growing buffer doubles.
pub(crate) fn to_javascript_sized(program: &Node, capacity_bytes: usize) -> String {
    let mut gen = Gen {
        out: String::with_capacity(capacity_bytes),
    };
    match program {
        Node::Program { body, .. } => gen.statements(body),
        other => gen.statement(other),
    }
    gen.out
}

/// Whether generated text has an ` in ` operator. Bytes, not `str::contains`: its substring search is about
/// 2 KB of the decode-only Wasm module, for a pattern this short.
fn contains_in(text: &[u8]) -> bool {
    text.windows(4).any(|window| window == b" in ")
}

pub(crate) struct Gen {
    pub(crate) out: String,
}

impl Gen {
    fn push(&mut self, text: &str) {
        self.out.push_str(text);
    }

    fn statements(&mut self, list: &[Node]) {
        for stmt in list {
            self.statement(stmt);
        }
    }

    fn block(&mut self, list: &[Node]) {
        self.push("{");
        self.statements(list);
        self.push("}");
    }

    pub(crate) fn statement(&mut self, node: &Node) {
        match node {
            Node::ExpressionStatement {
                expression,
                directive,
            } => {
                if let Some(raw) = directive {
                    self.directive(raw);
                } else {
                    // A bare string statement would turn into a directive; `{`, `function`, `class`, `let [`
                    // at the start would be read as a block or declaration.
                    let start = self.out.len();
                    self.expr(expression, expr::SEQ);
                    let is_string = matches!(expression.as_ref(), Node::Literal(LitValue::Str(_)));
                    if is_string || expr::starts_like_declaration(&self.out.as_bytes()[start..]) {
                        self.out.insert(start, '(');
                        self.push(")");
                    }
                }
                self.push(";");
            }
            Node::Block { body } => self.block(body),
            Node::EmptyStatement {} => self.push(";"),
            Node::DebuggerStatement {} => self.push("debugger;"),
            Node::WithStatement { object, body } => {
                self.push("with(");
                self.expr(object, expr::SEQ);
                self.push(")");
                self.statement(body);
            }
            Node::ReturnStatement { argument } => {
                self.keyword_argument("return", argument.as_deref())
            }
            Node::ThrowStatement { argument } => self.keyword_argument("throw", Some(argument)),
            Node::LabelledStatement { label, body } => {
                self.expr(label, expr::PRIMARY);
                self.push(":");
                self.statement(body);
            }
            Node::BreakStatement { label } => self.jump("break", label.as_deref()),
            Node::ContinueStatement { label } => self.jump("continue", label.as_deref()),
            Node::IfStatement {
                test,
                consequent,
                alternate,
            } => {
                self.push("if(");
                self.expr(test, expr::SEQ);
                self.push(")");
                self.statement(consequent);
                if let Some(alternate) = alternate {
                    self.push(" else ");
                    self.statement(alternate);
                }
            }
            Node::SwitchStatement {
                discriminant,
                cases,
            } => {
                self.push("switch(");
                self.expr(discriminant, expr::SEQ);
                self.push("){");
                for case in cases {
                    if let Node::SwitchCase { test, consequent } = case {
                        match test {
                            Some(test) => {
                                self.push("case ");
                                self.expr(test, expr::SEQ);
                                self.push(":");
                            }
                            None => self.push("default:"),
                        }
                        self.statements(consequent);
                    }
                }
                self.push("}");
            }
            Node::TryStatement {
                block,
                handler,
                finalizer,
            } => {
                self.push("try");
                self.statement(block);
                if let Some(Node::CatchClause { param, body }) = handler.as_deref() {
                    self.push("catch");
                    if let Some(param) = param {
                        self.push("(");
                        self.expr(param, expr::ASSIGN);
                        self.push(")");
                    }
                    self.statement(body);
                }
                if let Some(finalizer) = finalizer {
                    self.push("finally");
                    self.statement(finalizer);
                }
            }
            Node::WhileStatement { test, body } => {
                self.push("while(");
                self.expr(test, expr::SEQ);
                self.push(")");
                self.statement(body);
            }
            Node::DoWhileStatement { body, test } => {
                self.push("do ");
                self.statement(body);
                self.push("while(");
                self.expr(test, expr::SEQ);
                self.push(");");
            }
            Node::ForStatement {
                init,
                test,
                update,
                body,
            } => {
                self.push("for(");
                if let Some(init) = init {
                    self.for_head(init, true);
                }
                self.push(";");
                if let Some(test) = test {
                    self.expr(test, expr::SEQ);
                }
                self.push(";");
                if let Some(update) = update {
                    self.expr(update, expr::SEQ);
                }
                self.push(")");
                self.statement(body);
            }
            Node::ForInStatement { left, right, body } => {
                self.push("for(");
                self.for_head(left, false);
                self.push(" in ");
                self.expr(right, expr::SEQ);
                self.push(")");
                self.statement(body);
            }
            Node::ForOfStatement {
                is_await,
                left,
                right,
                body,
            } => {
                self.push(if *is_await { "for await(" } else { "for(" });
                self.for_head(left, false);
                self.push(" of ");
                self.expr(right, expr::ASSIGN);
                self.push(")");
                self.statement(body);
            }
            Node::VariableDeclaration { .. } => {
                self.declaration(node, false);
                self.push(";");
            }
            Node::FunctionDeclaration { .. } => self.function(node),
            Node::ClassDeclaration { .. } => self.class(node),
            Node::StaticBlock { body } => {
                self.push("static");
                self.block(body);
            }
            Node::Import { .. }
            | Node::ExportNamedDeclaration { .. }
            | Node::ExportDefault { .. }
            | Node::ExportAllDeclaration { .. } => self.module_item(node),
            // Anything else in statement position is not produced by the parser; print it as an expression
            // statement so output stays parseable.
            other => {
                self.expr(other, expr::SEQ);
                self.push(";");
            }
        }
    }

    fn directive(&mut self, raw: &str) {
        // `raw` is the text between the quotes. An unescaped `"` means the original used single quotes.
        let mut escaped = false;
        let mut has_double = false;
        for c in raw.chars() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                has_double = true;
            }
        }
        let quote = if has_double { "'" } else { "\"" };
        self.push(quote);
        self.push(raw);
        self.push(quote);
    }

    fn keyword_argument(&mut self, keyword: &str, argument: Option<&Node>) {
        self.push(keyword);
        if let Some(argument) = argument {
            self.push(" ");
            self.expr(argument, expr::SEQ);
        }
        self.push(";");
    }

    fn jump(&mut self, keyword: &str, label: Option<&Node>) {
        self.push(keyword);
        if let Some(label) = label {
            self.push(" ");
            self.expr(label, expr::PRIMARY);
        }
        self.push(";");
    }

    /// The head of a `for`: `in` must not appear unparenthesised in an initialiser (`for (a = (b in c);;)`),
    /// and a head starting with `let [` or consisting of `async` would parse differently.
    fn for_head(&mut self, node: &Node, initialiser: bool) {
        if let Node::VariableDeclaration { .. } = node {
            // A declaration's initialiser excludes `in` in every head, also the one a sloppy `for (var a = (b in c)
            // in d)` may carry (Annex B): unparenthesised, its `in` would end the initialiser.
            self.declaration(node, true);
            return;
        }
        let start = self.out.len();
        self.expr(node, if initialiser { expr::SEQ } else { expr::CALL });
        let text = &self.out.as_bytes()[start..];
        // A for-of head may not start with the token `let` at all (`for ((let).a of b)` must keep its parentheses),
        // any head not with `let [`; wrapping a for-in head that starts with `let` too is harmless.
        let wrap = (initialiser && contains_in(text))
            || text.starts_with(b"let[")
            || text == b"let"
            || (!initialiser && starts_with_let_token(text))
            || (!initialiser && text == b"async");
        if wrap {
            self.out.insert(start, '(');
            self.push(")");
        }
    }

    fn declaration(&mut self, node: &Node, in_for_head: bool) {
        if let Node::VariableDeclaration { kind, declarations } = node {
            self.push(kind);
            self.push(" ");
            for (i, declarator) in declarations.iter().enumerate() {
                if i > 0 {
                    self.push(",");
                }
                if let Node::VariableDeclarator { id, init } = declarator {
                    self.expr(id, expr::ASSIGN);
                    if let Some(init) = init {
                        self.push("=");
                        let start = self.out.len();
                        self.expr(init, expr::ASSIGN);
                        if in_for_head && contains_in(&self.out.as_bytes()[start..]) {
                            self.out.insert(start, '(');
                            self.push(")");
                        }
                    }
                }
            }
        }
    }

    fn module_item(&mut self, node: &Node) {
        match node {
            Node::Import {
                specifiers,
                source,
                attributes,
            } => {
                self.push("import ");
                if !specifiers.is_empty() {
                    self.specifiers(specifiers);
                    self.push(" from ");
                }
                self.expr(source, expr::PRIMARY);
                self.attributes(attributes);
                self.push(";");
            }
            Node::ExportNamedDeclaration {
                declaration: Some(declaration),
                ..
            } => {
                self.push("export ");
                self.statement(declaration);
            }
            Node::ExportNamedDeclaration {
                declaration: None,
                specifiers,
                source,
                attributes,
            } => {
                self.push("export ");
                self.specifiers(specifiers);
                if let Some(source) = source {
                    self.push(" from ");
                    self.expr(source, expr::PRIMARY);
                    self.attributes(attributes);
                }
                self.push(";");
            }
            Node::ExportDefault { declaration } => {
                self.push("export default ");
                match declaration.as_ref() {
                    Node::FunctionDeclaration { .. } | Node::ClassDeclaration { .. } => {
                        self.statement(declaration)
                    }
                    expression => {
                        let start = self.out.len();
                        self.expr(expression, expr::ASSIGN);
                        if expr::starts_like_declaration(&self.out.as_bytes()[start..]) {
                            self.out.insert(start, '(');
                            self.push(")");
                        }
                        self.push(";");
                    }
                }
            }
            Node::ExportAllDeclaration {
                exported,
                source,
                attributes,
            } => {
                self.push("export *");
                if let Some(exported) = exported {
                    self.push(" as ");
                    self.expr(exported, expr::PRIMARY);
                }
                self.push(" from ");
                self.expr(source, expr::PRIMARY);
                self.attributes(attributes);
                self.push(";");
            }
            _ => {}
        }
    }

    /// Import or export specifiers: default and namespace imports first, then the braced list.
    fn specifiers(&mut self, specifiers: &[Node]) {
        let mut braced = Vec::new();
        let mut first = true;
        for specifier in specifiers {
            match specifier {
                Node::ImportDefaultSpecifier { local } => {
                    self.expr(local, expr::PRIMARY);
                    first = false;
                }
                Node::ImportNamespaceSpecifier { local } => {
                    if !first {
                        self.push(",");
                    }
                    self.push("* as ");
                    self.expr(local, expr::PRIMARY);
                    first = false;
                }
                other => braced.push(other),
            }
        }
        let only_default_or_namespace = !first && braced.is_empty();
        if only_default_or_namespace {
            return;
        }
        if !first {
            self.push(",");
        }
        self.push("{");
        for (i, specifier) in braced.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            let (outer, inner) = match specifier {
                Node::ImportSpecifier { imported, local } => (imported, local),
                Node::ExportSpecifier { local, exported } => (local, exported),
                _ => continue,
            };
            self.expr(outer, expr::PRIMARY);
            if !same_name(outer, inner) {
                self.push(" as ");
                self.expr(inner, expr::PRIMARY);
            }
        }
        self.push("}");
    }

    fn attributes(&mut self, attributes: &[Node]) {
        if attributes.is_empty() {
            return;
        }
        self.push(" with{");
        for (i, attribute) in attributes.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            if let Node::ImportAttribute { key, value } = attribute {
                self.expr(key, expr::PRIMARY);
                self.push(":");
                self.expr(value, expr::PRIMARY);
            }
        }
        self.push("}");
    }
}

/// `a` and `a` (or `"a"` and `"a"`) in an import or export specifier, which print once (`{a}`, not `{a as a}`).
fn same_name(outer: &Node, inner: &Node) -> bool {
    match (outer, inner) {
        (Node::Identifier { name: a }, Node::Identifier { name: b }) => a == b,
        (Node::Literal(LitValue::Str(a)), Node::Literal(LitValue::Str(b))) => a == b,
        _ => false,
    }
}

/// Whether `text` begins with the identifier `let` (not `letter`, `let$`, …).
fn starts_with_let_token(text: &[u8]) -> bool {
    text.starts_with(b"let")
        && text.get(3).is_none_or(|&c| {
            !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 || c == b'\\')
        })
}
