//! Property tests of the decoder (proptest, stable Rust): real encodings, mutated the ways a network, a disk or an
//! attacker mutates bytes, must decode to a tree or to an error — never a panic — and whatever decodes must
//! regenerate JavaScript without panicking. Plus the nesting limit at its exact edge, in both directions.

use binast::{decode, encode_json, to_javascript, Layout, MAX_DEPTH};
use proptest::prelude::*;

/// A program touching most of the grammar the decoder reads: scopes, functions of every kind, classes, templates,
/// destructuring, literals of every kind, labels, loops, switch, try, spread, optional chains.
const PROGRAM: &str = include_str!("seed-program.json");

/// `!!…!x` nested `depth` levels (each `!` is one tree level).
fn not_chain(depth: usize) -> String {
    let mut json = String::from(
        r#"{"type":"Program","sourceType":"script","body":[{"type":"ExpressionStatement","expression":"#,
    );
    for _ in 0..depth {
        json.push_str(r#"{"type":"UnaryExpression","operator":"!","prefix":true,"argument":"#);
    }
    json.push_str(r#"{"type":"Identifier","name":"x"}"#);
    json.push_str(&"}".repeat(depth));
    json.push_str("}]}");
    json
}

fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for layout in [Layout::Multipart, Layout::Optimised, Layout::Context] {
        for lazy in [0, 1, 3] {
            seeds.push(
                encode_json(PROGRAM, layout, lazy)
                    .expect("seed encodes")
                    .bytes,
            );
        }
        seeds.push(
            encode_json(&not_chain(40), layout, 0)
                .expect("chain encodes")
                .bytes,
        );
    }
    seeds
}

/// One edit of a byte string; positions are taken modulo the current length.
#[derive(Debug, Clone)]
enum Edit {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
    /// Copies a run of bytes to another place (duplicated subtrees, repeated varnums).
    Splice {
        from: usize,
        to: usize,
        len: usize,
    },
    /// A large varnum (lengths and counts near u32::MAX).
    BigVarnum(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(p, bit)| Edit::Flip(p, bit)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Set(p, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Insert(p, b)),
        any::<usize>().prop_map(Edit::Remove),
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), any::<usize>(), 1usize..64).prop_map(|(from, to, len)| Edit::Splice {
            from,
            to,
            len
        }),
        any::<usize>().prop_map(Edit::BigVarnum),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    if bytes.is_empty() {
        return;
    }
    let at = |p: usize, len: usize| p % len;
    match *edit {
        Edit::Flip(p, bit) => {
            let i = at(p, bytes.len());
            bytes[i] ^= 1 << bit;
        }
        Edit::Set(p, b) => {
            let i = at(p, bytes.len());
            bytes[i] = b;
        }
        Edit::Insert(p, b) => {
            let i = at(p, bytes.len() + 1);
            bytes.insert(i, b);
        }
        Edit::Remove(p) => {
            let i = at(p, bytes.len());
            bytes.remove(i);
        }
        Edit::Truncate(p) => bytes.truncate(at(p, bytes.len())),
        Edit::Splice { from, to, len } => {
            let from = at(from, bytes.len());
            let run: Vec<u8> = bytes[from..(from + len).min(bytes.len())].to_vec();
            let to = at(to, bytes.len() + 1);
            bytes.splice(to..to, run);
        }
        Edit::BigVarnum(p) => {
            let i = at(p, bytes.len() + 1);
            bytes.splice(i..i, [0xff, 0xff, 0xff, 0xff, 0x1e]);
        }
    }
}

/// Runs `f` on a thread with a large stack: debug builds use far bigger frames than the release Wasm build the
/// nesting limit is sized for (the Wasm stack is checked by workers/test/binast/hostile.test.ts).
fn with_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(f)
        .expect("spawns")
        .join()
        .expect("no panic");
}

fn decode_never_panics(bytes: &[u8]) {
    if let Ok(tree) = decode(bytes) {
        let _ = to_javascript(&tree);
    }
}

#[test]
fn mutated_real_encodings_decode_or_fail_cleanly() {
    with_big_stack(|| {
        let seeds = seeds();
        let config = ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let strategy = (0..seeds.len(), proptest::collection::vec(edit(), 1..6));
        proptest::test_runner::TestRunner::new(config)
            .run(&strategy, |(seed, edits)| {
                let mut bytes = seeds[seed].clone();
                for edit in &edits {
                    apply(&mut bytes, edit);
                }
                decode_never_panics(&bytes);
                Ok(())
            })
            .expect("no mutation panics");
    });
}

#[test]
fn random_bytes_after_the_magic_fail_cleanly() {
    with_big_stack(|| {
        let config = ProptestConfig {
            cases: 2_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let strategy = (0u8..10, proptest::collection::vec(any::<u8>(), 0..512));
        proptest::test_runner::TestRunner::new(config)
            .run(&strategy, |(format, tail)| {
                decode_never_panics(&[b"BINJS".as_slice(), &[format], &tail].concat());
                Ok(())
            })
            .expect("no input panics");
    });
}

#[test]
fn the_nesting_limit_holds_exactly_at_its_edge() {
    with_big_stack(|| {
        // Program and ExpressionStatement are two levels; the chain's leaf is one more.
        let deepest = MAX_DEPTH - 3;
        for layout in [Layout::Multipart, Layout::Optimised, Layout::Context] {
            let encoded = encode_json(&not_chain(deepest), layout, 0)
                .expect("the deepest allowed tree encodes");
            let text = to_javascript(&decode(&encoded.bytes).expect("and decodes"));
            assert_eq!(text.matches('!').count(), deepest);
            let error = encode_json(&not_chain(deepest + 1), layout, 0).unwrap_err();
            assert!(error.0.contains("deeper than 2000"), "{error}");
        }
    });
}
