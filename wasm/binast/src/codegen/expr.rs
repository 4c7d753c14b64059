//! Expressions, patterns, functions and classes. `expr(node, min)` parenthesises `node` when it binds looser
//! than `min` (precedence levels below, higher binds tighter).

use super::{number_literal, string_literal, Gen};
use crate::grammar::literal::LitValue;
use crate::grammar::node::Node;

pub const SEQ: u8 = 1;
pub const ASSIGN: u8 = 2;
const COND: u8 = 3;
const SHORT_CIRCUIT: u8 = 4;
const UNARY: u8 = 15;
const POSTFIX: u8 = 16;
pub const CALL: u8 = 17;
pub const PRIMARY: u8 = 18;

fn binary_precedence(operator: &str) -> u8 {
    match operator {
        "??" | "||" => 4,
        "&&" => 5,
        "|" => 6,
        "^" => 7,
        "&" => 8,
        "==" | "!=" | "===" | "!==" => 9,
        "<" | ">" | "<=" | ">=" | "instanceof" | "in" => 10,
        "<<" | ">>" | ">>>" => 11,
        "+" | "-" => 12,
        "*" | "/" | "%" => 13,
        "**" => 14,
        _ => 4,
    }
}

fn precedence(node: &Node) -> u8 {
    match node {
        Node::SequenceExpression { .. } => SEQ,
        Node::AssignmentExpression { .. }
        | Node::ArrowExpression { .. }
        | Node::YieldExpression { .. } => ASSIGN,
        Node::ConditionalExpression { .. } => COND,
        Node::BinaryExpression { operator, .. } | Node::LogicalExpression { operator, .. } => {
            binary_precedence(operator)
        }
        Node::UnaryExpression { .. } | Node::AwaitExpression { .. } => UNARY,
        Node::UpdateExpression { prefix: true, .. } => UNARY,
        Node::UpdateExpression { prefix: false, .. } | Node::ChainExpression { .. } => POSTFIX,
        Node::CallExpression { .. }
        | Node::NewExpression { .. }
        | Node::MemberExpression { .. }
        | Node::TaggedTemplateExpression { .. }
        | Node::ImportCall { .. }
        | Node::MetaProperty { .. } => CALL,
        _ => PRIMARY,
    }
}

/// Text that, at the start of a statement, would be read as a block or a declaration. Bytes, not chars: a
/// keyword is ASCII, and what follows it continues an identifier if it is a word character or any non-ASCII one
/// (the generator writes no non-ASCII space or punctuation after a keyword), with no Unicode tables to consult.
pub fn starts_like_declaration(text: &[u8]) -> bool {
    let word = |w: &[u8]| {
        text.starts_with(w)
            && !text.get(w.len()).is_some_and(|&next| {
                next.is_ascii_alphanumeric() || matches!(next, b'_' | b'$') || !next.is_ascii()
            })
    };
    text.starts_with(b"{")
        || word(b"function")
        || word(b"class")
        || text.starts_with(b"let[")
        || text.starts_with(b"async function")
}

fn is_nullish_mix(parent: &str, child: &Node) -> bool {
    match child {
        Node::LogicalExpression { operator, .. } => (parent == "??") != (operator == "??"),
        _ => false,
    }
}

/// `new a.b()` is fine, but a call anywhere on the callee's left spine must be parenthesised (`new (a())()`).
fn spine_has_call(node: &Node) -> bool {
    match node {
        Node::CallExpression { .. } | Node::ImportCall { .. } => true,
        Node::MemberExpression { object, .. } => spine_has_call(object),
        Node::TaggedTemplateExpression { tag, .. } => spine_has_call(tag),
        _ => false,
    }
}

impl Gen {
    pub(crate) fn expr(&mut self, node: &Node, min: u8) {
        if precedence(node) < min {
            self.push("(");
            self.expr_inner(node);
            self.push(")");
        } else {
            self.expr_inner(node);
        }
    }

    fn list(&mut self, items: &[Node]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.expr(item, ASSIGN);
        }
    }

    fn holes(&mut self, items: &[Option<Node>]) {
        self.push("[");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            if let Some(item) = item {
                self.expr(item, ASSIGN);
            }
        }
        if matches!(items.last(), Some(None)) {
            self.push(",");
        }
        self.push("]");
    }

    fn expr_inner(&mut self, node: &Node) {
        match node {
            Node::Identifier { name } => self.push(name),
            Node::PrivateIdentifier { name } => {
                self.push("#");
                self.push(name);
            }
            Node::Literal(value) => self.literal(value),
            Node::ThisExpression {} => self.push("this"),
            Node::Super {} => self.push("super"),
            Node::ArrayExpression { elements } | Node::ArrayPattern { elements } => {
                self.holes(elements)
            }
            Node::ObjectExpression { properties } | Node::ObjectPattern { properties } => {
                self.push("{");
                for (i, property) in properties.iter().enumerate() {
                    if i > 0 {
                        self.push(",");
                    }
                    self.property(property);
                }
                self.push("}");
            }
            Node::FunctionExpression { .. } => self.function(node),
            Node::ArrowExpression {
                is_async,
                params,
                body,
                ..
            } => {
                if *is_async {
                    self.push("async");
                }
                self.push("(");
                self.list(params);
                self.push(")=>");
                if matches!(body.node.as_ref(), Node::Block { .. }) {
                    self.statement(&body.node);
                } else {
                    let start = self.out.len();
                    self.expr(&body.node, ASSIGN);
                    if self.out.as_bytes()[start..].starts_with(b"{") {
                        self.out.insert(start, '(');
                        self.push(")");
                    }
                }
            }
            Node::ClassExpression { .. } => self.class(node),
            Node::SequenceExpression { expressions } => self.list(expressions),
            Node::UnaryExpression { operator, argument } => {
                self.push(operator);
                let start = self.out.len();
                self.expr(argument, UNARY);
                // Operators are ASCII: their first byte is their first char.
                let first = self.out.as_bytes().get(start);
                let word = operator.bytes().all(|byte| byte.is_ascii_alphabetic());
                if word || (first.is_some() && first == operator.as_bytes().first()) {
                    self.out.insert(start, ' ');
                }
            }
            Node::UpdateExpression {
                operator,
                prefix,
                argument,
            } => {
                if *prefix {
                    self.push(operator);
                    let start = self.out.len();
                    self.expr(argument, POSTFIX);
                    if matches!(self.out.as_bytes().get(start), Some(b'+' | b'-')) {
                        self.out.insert(start, ' ');
                    }
                } else {
                    self.expr(argument, CALL);
                    self.push(operator);
                }
            }
            Node::AwaitExpression { argument } => {
                self.push("await ");
                self.expr(argument, UNARY);
            }
            Node::YieldExpression { delegate, argument } => {
                self.push(if *delegate { "yield*" } else { "yield" });
                if let Some(argument) = argument {
                    self.push(" ");
                    self.expr(argument, ASSIGN);
                }
            }
            Node::BinaryExpression {
                operator,
                left,
                right,
            }
            | Node::LogicalExpression {
                operator,
                left,
                right,
            } => {
                let p = binary_precedence(operator);
                let (left_min, right_min) = if operator == "**" {
                    (POSTFIX, p)
                } else {
                    (p, p + 1)
                };
                let left_min = if is_nullish_mix(operator, left) {
                    PRIMARY
                } else {
                    left_min
                };
                let right_min = if is_nullish_mix(operator, right) {
                    PRIMARY
                } else {
                    right_min
                };
                self.expr(left, left_min);
                self.push(" ");
                self.push(operator);
                self.push(" ");
                self.expr(right, right_min);
            }
            Node::AssignmentExpression {
                operator,
                left,
                right,
            } => {
                self.expr(left, CALL);
                self.push(operator);
                self.expr(right, ASSIGN);
            }
            Node::AssignmentPattern { left, right } => {
                self.expr(left, CALL);
                self.push("=");
                self.expr(right, ASSIGN);
            }
            Node::ConditionalExpression {
                test,
                consequent,
                alternate,
            } => {
                self.expr(test, SHORT_CIRCUIT);
                self.push("?");
                self.expr(consequent, ASSIGN);
                self.push(":");
                self.expr(alternate, ASSIGN);
            }
            Node::MemberExpression {
                optional,
                computed,
                object,
                property,
            } => {
                if matches!(object.as_ref(), Node::Literal(LitValue::Num(_))) {
                    // `1.toString()` would lex `1.` as the number.
                    self.push("(");
                    self.expr(object, CALL);
                    self.push(")");
                } else {
                    self.expr(object, CALL);
                }
                match (*optional, *computed) {
                    (true, true) => self.push("?.["),
                    (true, false) => self.push("?."),
                    (false, true) => self.push("["),
                    (false, false) => self.push("."),
                }
                if *computed {
                    self.expr(property, SEQ);
                    self.push("]");
                } else {
                    self.expr(property, PRIMARY);
                }
            }
            Node::ChainExpression { expression } | Node::ParenthesizedExpression { expression } => {
                if matches!(node, Node::ParenthesizedExpression { .. }) {
                    self.push("(");
                    self.expr(expression, SEQ);
                    self.push(")");
                } else {
                    self.expr_inner(expression);
                }
            }
            Node::CallExpression {
                optional,
                callee,
                arguments,
            } => {
                self.expr(callee, CALL);
                self.push(if *optional { "?.(" } else { "(" });
                self.list(arguments);
                self.push(")");
            }
            Node::NewExpression { callee, arguments } => {
                self.push("new ");
                if spine_has_call(callee) {
                    self.push("(");
                    self.expr(callee, SEQ);
                    self.push(")");
                } else {
                    self.expr(callee, CALL);
                }
                self.push("(");
                self.list(arguments);
                self.push(")");
            }
            Node::SpreadElement { argument } | Node::RestElement { argument } => {
                self.push("...");
                self.expr(argument, ASSIGN);
            }
            Node::TemplateExpression {
                quasis,
                expressions,
            } => {
                self.push("`");
                for (i, quasi) in quasis.iter().enumerate() {
                    if let Node::TemplateElement { value, .. } = quasi {
                        self.push(&value.raw);
                    }
                    if let Some(expression) = expressions.get(i) {
                        self.push("${");
                        self.expr(expression, SEQ);
                        self.push("}");
                    }
                }
                self.push("`");
            }
            Node::TaggedTemplateExpression { tag, quasi } => {
                self.expr(tag, CALL);
                self.expr(quasi, PRIMARY);
            }
            Node::MetaProperty { meta, property } => {
                self.expr(meta, PRIMARY);
                self.push(".");
                self.expr(property, PRIMARY);
            }
            Node::ImportCall { source, options } => {
                self.push("import(");
                self.expr(source, ASSIGN);
                if let Some(options) = options {
                    self.push(",");
                    self.expr(options, ASSIGN);
                }
                self.push(")");
            }
            // Statements never appear here in a parser's tree; keep output parseable if they do.
            other => {
                self.push("undefined/*");
                self.push(other.interface_name());
                self.push("*/");
            }
        }
    }

    fn literal(&mut self, value: &LitValue) {
        match value {
            LitValue::Str(bytes) => string_literal(&mut self.out, bytes),
            LitValue::Num(number) => number_literal(&mut self.out, *number),
            LitValue::Bool(true) => self.push("true"),
            LitValue::Bool(false) => self.push("false"),
            LitValue::Null => self.push("null"),
            LitValue::RegExp { pattern, flags } => {
                self.push("/");
                self.push(pattern);
                self.push("/");
                self.push(flags);
            }
            LitValue::BigInt(digits) => {
                self.push(digits);
                self.push("n");
            }
        }
    }

    fn property_key(&mut self, key: &Node, computed: bool) {
        if computed {
            self.push("[");
            self.expr(key, ASSIGN);
            self.push("]");
        } else {
            self.expr(key, PRIMARY);
        }
    }

    fn property(&mut self, property: &Node) {
        match property {
            Node::DataProperty {
                kind,
                method,
                shorthand,
                computed,
                key,
                value,
            } => {
                if kind == "get" || kind == "set" {
                    self.push(kind);
                    self.push(" ");
                    self.property_key(key, *computed);
                    self.function_rest(value);
                } else if *method {
                    self.method_prefix(value);
                    self.property_key(key, *computed);
                    self.function_rest(value);
                } else if *shorthand {
                    self.expr(value, ASSIGN);
                } else {
                    self.property_key(key, *computed);
                    self.push(":");
                    self.expr(value, ASSIGN);
                }
            }
            other => self.expr(other, ASSIGN),
        }
    }

    /// `async` / `*` before a method name, from the method's function.
    fn method_prefix(&mut self, function: &Node) {
        if let Node::FunctionExpression {
            is_async,
            generator,
            ..
        } = function
        {
            if *is_async {
                self.push("async ");
            }
            if *generator {
                self.push("*");
            }
        }
    }

    pub(crate) fn function(&mut self, node: &Node) {
        if let Node::FunctionDeclaration {
            is_async,
            generator,
            id,
            ..
        }
        | Node::FunctionExpression {
            is_async,
            generator,
            id,
            ..
        } = node
        {
            if *is_async {
                self.push("async ");
            }
            self.push(if *generator { "function*" } else { "function" });
            if let Some(id) = id {
                self.push(" ");
                self.expr(id, PRIMARY);
            }
            self.function_rest(node);
        }
    }

    /// `(params){body}` of a function declaration or expression (also a method's or accessor's value).
    fn function_rest(&mut self, node: &Node) {
        if let Node::FunctionDeclaration { params, body, .. }
        | Node::FunctionExpression { params, body, .. } = node
        {
            self.push("(");
            self.list(params);
            self.push(")");
            self.statement(&body.node);
        }
    }

    pub(crate) fn class(&mut self, node: &Node) {
        if let Node::ClassDeclaration {
            id,
            super_class,
            body,
        }
        | Node::ClassExpression {
            id,
            super_class,
            body,
        } = node
        {
            self.push("class");
            if let Some(id) = id {
                self.push(" ");
                self.expr(id, PRIMARY);
            }
            if let Some(super_class) = super_class {
                self.push(" extends ");
                self.expr(super_class, CALL);
            }
            self.push("{");
            if let Node::ClassBody { body } = body.as_ref() {
                for member in body {
                    self.class_member(member);
                }
            }
            self.push("}");
        }
    }

    fn class_member(&mut self, member: &Node) {
        match member {
            Node::MethodDefinition {
                is_static,
                kind,
                computed,
                key,
                value,
            } => {
                if *is_static {
                    self.push("static ");
                }
                if kind == "get" || kind == "set" {
                    self.push(kind);
                    self.push(" ");
                } else {
                    self.method_prefix(value);
                }
                self.property_key(key, *computed);
                self.function_rest(value);
            }
            Node::PropertyDefinition {
                is_static,
                computed,
                key,
                value,
            } => {
                if *is_static {
                    self.push("static ");
                }
                self.property_key(key, *computed);
                if let Some(value) = value {
                    self.push("=");
                    self.expr(value, ASSIGN);
                }
                self.push(";");
            }
            other => self.statement(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::starts_like_declaration;

    #[test]
    fn a_keyword_then_punctuation_starts_a_declaration() {
        assert!(starts_like_declaration(b"function(){}"));
        assert!(starts_like_declaration(b"class{}"));
        assert!(starts_like_declaration(b"{a:1}"));
        assert!(starts_like_declaration(b"let[a]=b"));
    }

    #[test]
    fn a_keyword_continued_by_any_identifier_character_is_an_identifier() {
        assert!(!starts_like_declaration(b"functions()"));
        assert!(!starts_like_declaration(b"class_$1"));
        assert!(!starts_like_declaration("classé.x".as_bytes()));
        // U+200C (zero-width non-joiner) continues an identifier though it is not alphanumeric.
        assert!(!starts_like_declaration("function\u{200c}()".as_bytes()));
    }
}
