//! Native tests of the whole codec: tables, scopes, lazy skip lengths, both layouts, and the reader on corrupt
//! input (property-style: many deterministic mutations of real encodings must error, never panic).

mod common;

use binast::{annotate, decode, encode_json, stats, AssertedScope, DeclKind, Layout, Node};
use common::mutate;

/// A small program exercising scopes: captured names, parameters, direct eval, `this` in arrows, IIFEs.
const PROGRAM: &str = r#"{"type":"Program","sourceType":"script","body":[
 {"type":"VariableDeclaration","kind":"var","declarations":[{"type":"VariableDeclarator","id":{"type":"Identifier","name":"shared"},"init":null}]},
 {"type":"FunctionDeclaration","id":{"type":"Identifier","name":"outer"},"async":false,"generator":false,
  "params":[{"type":"Identifier","name":"a"},{"type":"ObjectPattern","properties":[{"type":"Property","kind":"init","method":false,"shorthand":true,"computed":false,"key":{"type":"Identifier","name":"b"},"value":{"type":"Identifier","name":"b"}}]}],
  "body":{"type":"BlockStatement","body":[
   {"type":"VariableDeclaration","kind":"let","declarations":[{"type":"VariableDeclarator","id":{"type":"Identifier","name":"local"},"init":{"type":"Literal","value":1,"raw":"1"}}]},
   {"type":"ReturnStatement","argument":{"type":"ArrowFunctionExpression","async":false,"expression":true,"params":[],
     "body":{"type":"BinaryExpression","operator":"+","left":{"type":"Identifier","name":"a"},"right":{"type":"MemberExpression","computed":false,"optional":false,"object":{"type":"ThisExpression"},"property":{"type":"Identifier","name":"x"}}}}}]}},
 {"type":"ExpressionStatement","expression":{"type":"CallExpression","optional":false,"arguments":[],"callee":{"type":"FunctionExpression","id":null,"async":false,"generator":false,"params":[],
  "body":{"type":"BlockStatement","body":[{"type":"ExpressionStatement","expression":{"type":"CallExpression","optional":false,"callee":{"type":"Identifier","name":"eval"},"arguments":[{"type":"Literal","value":"x","raw":"'x'"}]}}]}}}}
]}"#;

fn program() -> Node {
    let mut de = serde_json::Deserializer::from_str(PROGRAM);
    serde::Deserialize::deserialize(&mut de).expect("test program parses")
}

fn scope_of(node: &Node) -> &binast::AssertedScope {
    match node {
        Node::FunctionDeclaration { scope, .. } | Node::FunctionExpression { scope, .. } => scope,
        Node::ArrowExpression { scope, .. } | Node::Program { scope, .. } => scope,
        _ => panic!("not a scope owner"),
    }
}

#[test]
fn scopes_list_declared_names_with_kind_and_captured_flag() {
    let mut program = program();
    annotate(&mut program, 0);
    let Node::Program { body, .. } = &program else {
        unreachable!()
    };
    let outer = scope_of(&body[1]);
    assert_eq!(outer.params, vec!["a", "b"]);
    let kinds: Vec<(&str, DeclKind, bool)> = outer
        .declared
        .iter()
        .map(|d| (d.name.as_str(), d.kind, d.captured))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("a", DeclKind::Param, true),
            ("b", DeclKind::Param, false),
            ("local", DeclKind::Let, false)
        ],
        "only `a` is used by the inner arrow"
    );
    assert!(outer.this_captured, "the arrow uses `this`");
    assert!(!outer.has_direct_eval);
    let top = scope_of(&program);
    assert!(top
        .declared
        .iter()
        .any(|d| d.name == "outer" && d.kind == DeclKind::Function));
}

#[test]
fn direct_eval_is_flagged_and_iifes_are_never_lazy() {
    let mut program = program();
    annotate(&mut program, 3);
    let Node::Program { body, .. } = &program else {
        unreachable!()
    };
    let Node::ExpressionStatement { expression, .. } = &body[2] else {
        unreachable!()
    };
    let Node::CallExpression { callee, .. } = expression.as_ref() else {
        unreachable!()
    };
    let Node::FunctionExpression {
        body: iife_body,
        scope,
        ..
    } = callee.as_ref()
    else {
        unreachable!()
    };
    assert!(scope.has_direct_eval);
    assert!(
        !iife_body.lazy,
        "an immediately invoked function runs at once"
    );
    let Node::FunctionDeclaration {
        body: outer_body, ..
    } = &body[1]
    else {
        unreachable!()
    };
    assert!(outer_body.lazy);
}

#[test]
fn every_layout_and_lazy_level_decode_to_the_annotated_tree() {
    for layout in [Layout::Multipart, Layout::Optimised, Layout::Context] {
        for lazy in 0..=3 {
            let encoded = encode_json(PROGRAM, layout, lazy).expect("encodes");
            let mut expected = program();
            annotate(&mut expected, lazy);
            if layout == Layout::Context {
                // The context layout carries no scope annotations (lazy flags it keeps).
                clear_scopes(&mut expected);
            }
            assert_eq!(
                decode(&encoded.bytes).expect("decodes"),
                expected,
                "{layout:?} lazy {lazy}"
            );
            let s = stats(&encoded.bytes).expect("stats");
            assert_eq!(s.format, layout as u32);
            assert_eq!(s.lazy_functions as u32, encoded.lazy_functions);
        }
    }
}

#[test]
fn tables_are_sorted_by_frequency() {
    let encoded = encode_json(PROGRAM, Layout::Multipart, 0).expect("encodes");
    let file = binast::File::parse(&encoded.bytes).expect("parses");
    assert_eq!(
        file.kinds[0], "Identifier",
        "the most frequent node kind comes first"
    );
    assert_eq!(
        file.strings[0][0],
        b"a".as_slice(),
        "`a` is used most (param, declared, captured, referenced)"
    );
    assert_eq!(&encoded.bytes[..5], b"BINJS");
}

#[test]
fn unknown_node_types_are_encode_errors_not_panics() {
    let json = r#"{"type":"Program","sourceType":"script","body":[{"type":"JSXElement"}]}"#;
    let error = encode_json(json, Layout::Optimised, 0).unwrap_err();
    assert!(
        error.0.contains("unsupported node type JSXElement"),
        "{error}"
    );
    assert!(encode_json(r#"{"sourceType":"script"}"#, Layout::Optimised, 0).is_err());
}

#[test]
fn corrupt_input_is_an_error_never_a_panic() {
    for layout in [Layout::Multipart, Layout::Optimised, Layout::Context] {
        let good = encode_json(PROGRAM, layout, 2).expect("encodes").bytes;
        // Every truncation.
        for len in 0..good.len() {
            assert!(
                decode(&good[..len]).is_err(),
                "{layout:?} truncated to {len} bytes decoded"
            );
        }
        // Thousands of random byte flips, insertions and deletions: any outcome but a panic is fine, and
        // a decode that succeeds must still regenerate without panicking.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ layout as u64;
        for _ in 0..5_000 {
            let (bytes, _) = mutate(&good, &mut seed);
            if let Ok(tree) = decode(&bytes) {
                let _ = binast::to_javascript(&tree);
            }
        }
    }
    assert!(decode(b"BINJS\x0c").is_err(), "unknown format");
    assert!(decode(&[0xff; 64]).is_err());
}

#[test]
fn deep_nesting_is_refused_before_it_can_exhaust_the_stack() {
    // Debug builds use far bigger frames than the release Wasm build the limit is sized for.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let depth = 2_500;
            let mut json = String::from(
                r#"{"type":"Program","sourceType":"script","body":[{"type":"ExpressionStatement","expression":"#,
            );
            for _ in 0..depth {
                json.push_str(r#"{"type":"UnaryExpression","operator":"!","prefix":true,"argument":"#);
            }
            json.push_str(r#"{"type":"Identifier","name":"x"}"#);
            json.push_str(&"}".repeat(depth));
            json.push_str("}]}");
            let error = encode_json(&json, Layout::Optimised, 0).unwrap_err();
            assert!(error.0.contains("deeper than"), "{error}");

            // A hand-made multipart file nesting 2,500 `!` deep: grammar [UnaryExpression, Identifier],
            // strings ["!"], tree = (kind 1, string 1) x depth, then (kind 2, string 1).
            let mut bytes = b"BINJS\x02".to_vec();
            let grammar = [&[0x04, 0x1e][..], b"UnaryExpression", &[0x14], b"Identifier"].concat();
            let strings = [0x02, 0x02, b'!'];
            let mut tree = [0x02, 0x02].repeat(depth);
            tree.extend([0x04, 0x02]);
            for (name, body) in [("[GRAMMAR]", &grammar[..]), ("[STRINGS]", &strings[..]), ("[TREE]", &tree[..])] {
                bytes.extend(name.as_bytes());
                bytes.extend(b"identity;");
                binast::write_varnum(&mut bytes, body.len() as u32);
                bytes.extend(body);
            }
            let error = decode(&bytes).unwrap_err();
            assert!(error.to_string().contains("deeper than"), "{error}");
        })
        .expect("spawns")
        .join()
        .expect("no panic");
}

/// The tree with every scope annotation emptied, as the context layout decodes it.
fn clear_scopes(node: &mut Node) {
    if let Node::Program { scope, .. }
    | Node::FunctionDeclaration { scope, .. }
    | Node::FunctionExpression { scope, .. }
    | Node::ArrowExpression { scope, .. } = node
    {
        *scope = AssertedScope::default();
    }
    node.for_each_child_mut(&mut clear_scopes);
}
