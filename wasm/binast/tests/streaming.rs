//! The streaming decoder (`decode_stream_to_javascript`): fed in pieces of any size, it regenerates exactly what the
//! whole-file decoder does, refuses what the whole-file decoder refuses, and holds a file still arriving to the same
//! per-byte budgets.

mod common;

use binast::{decode_stream_to_javascript, decode_to_javascript, encode_json, Layout, Refill};
use common::{mutate, xorshift};

/// A byte source serving `bytes` in pieces of `piece` bytes (the last one shorter).
fn pieces(bytes: &[u8], piece: usize) -> Refill<'_> {
    let mut offset = 0;
    Box::new(move |into: &mut [u8]| {
        let len = piece.min(into.len()).min(bytes.len() - offset);
        into[..len].copy_from_slice(&bytes[offset..offset + len]);
        offset += len;
        len
    })
}

/// An ESTree program of `count` statements with varied names, strings and numbers: large enough that its coded
/// tree spans several of the decoder's 64 KiB windows.
fn large_program(count: usize) -> String {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let statements: Vec<String> = (0..count)
        .map(|i| {
            let name = format!("v{:x}", xorshift(&mut seed) % 100_000);
            let text = format!("s{:x}", xorshift(&mut seed));
            let number = xorshift(&mut seed) % 1_000_000;
            format!(
                r#"{{"type":"VariableDeclaration","kind":"var","declarations":[{{"type":"VariableDeclarator","id":{{"type":"Identifier","name":"{name}{i}"}},"init":{{"type":"ArrayExpression","elements":[{{"type":"Literal","value":"{text}","raw":"'{text}'"}},{{"type":"Literal","value":{number},"raw":"{number}"}}]}}}}]}}"#
            )
        })
        .collect();
    format!(
        r#"{{"type":"Program","sourceType":"script","body":[{}]}}"#,
        statements.join(",")
    )
}

#[test]
fn any_piece_size_regenerates_what_the_whole_file_does() {
    let file = encode_json(&large_program(8_000), Layout::Context, 0)
        .expect("encodes")
        .bytes;
    assert!(
        file.len() > 64 * 1024,
        "spans more than one window: {} bytes",
        file.len()
    );
    let whole = decode_to_javascript(&file).expect("decodes");
    for piece in [7, 1000, 65_536, 100_000, file.len()] {
        let streamed = decode_stream_to_javascript(pieces(&file, piece)).expect("streams");
        assert!(streamed == whole, "pieces of {piece} bytes differ");
    }
    // Byte by byte, on a smaller file (the large one takes minutes in a debug build).
    let small = encode_json(&large_program(300), Layout::Context, 0)
        .expect("encodes")
        .bytes;
    let streamed = decode_stream_to_javascript(pieces(&small, 1)).expect("streams");
    assert!(streamed == decode_to_javascript(&small).expect("decodes"));
}

#[test]
fn a_truncated_or_padded_stream_is_an_error() {
    let file = encode_json(&large_program(300), Layout::Context, 0)
        .expect("encodes")
        .bytes;
    for len in (0..file.len()).step_by(37).chain([file.len() - 1]) {
        assert!(
            decode_stream_to_javascript(pieces(&file[..len], 512)).is_err(),
            "truncated to {len} bytes decoded"
        );
    }
    let mut padded = file.clone();
    padded.push(0);
    let error = decode_stream_to_javascript(pieces(&padded, 512)).expect_err("padded file");
    assert!(error.to_string().contains("used"), "{error}");
}

#[test]
fn only_the_context_layout_streams() {
    let file = encode_json(&large_program(10), Layout::Optimised, 0)
        .expect("encodes")
        .bytes;
    let error = decode_stream_to_javascript(pieces(&file, 4096)).expect_err("optimised layout");
    assert!(error.to_string().contains("stream"), "{error}");
}

#[test]
fn a_header_declaring_the_most_values_does_not_buy_work_beyond_the_bytes_received() {
    // 64 Mi values and 64 Mi bytes of text declared, then a few bytes: the decoder must stop at the per-byte budget
    // (or the end of the input) instead of working through what the header promised.
    let mut file = b"BINJS".to_vec();
    file.extend_from_slice(&[4 << 1, 0x80, 0x80, 0x80, 0x40, 0x80, 0x80, 0x80, 0x40]);
    for filler in [0x00u8, 0xff, 0x55] {
        let mut hostile = file.clone();
        hostile.extend(std::iter::repeat_n(filler, 64));
        assert!(decode_stream_to_javascript(pieces(&hostile, 16)).is_err());
    }
}

#[test]
fn mutated_streams_agree_with_the_whole_file_decoder() {
    let good = encode_json(&large_program(200), Layout::Context, 0)
        .expect("encodes")
        .bytes;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..600 {
        let (bytes, position) = mutate(&good, &mut seed);
        let piece = 1 + (xorshift(&mut seed) as usize) % 300;
        let streamed = decode_stream_to_javascript(pieces(&bytes, piece));
        let whole = decode_to_javascript(&bytes);
        assert_eq!(
            streamed.as_ref().ok(),
            whole.as_ref().ok(),
            "mutation at {position}, pieces of {piece}: streamed {streamed:?} vs whole {whole:?}"
        );
    }
}

#[test]
fn a_long_string_first_in_a_file_decodes_whole_and_streamed() {
    // A bundle opening with a font or a Wasm module as a data URL (Vite's `?inline`, esbuild's base64 loader): the
    // string's length is read a few bytes into the file, before the bytes that code it. Until 2026-11-28 its budget
    // was counted on the bytes read so far (16 KiB of text each), so both decoders refused the file: "a string of
    // 460803 bytes exceeds the file's declared total".
    let mut seed = 0x51_7cc1_b727_220au64;
    let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".as_bytes();
    let text: String = (0..400_000)
        .map(|_| char::from(letters[(xorshift(&mut seed) % 64) as usize]))
        .collect();
    let program = format!(
        r#"{{"type":"Program","sourceType":"script","body":[{{"type":"ExpressionStatement","expression":{{"type":"AssignmentExpression","operator":"=","left":{{"type":"Identifier","name":"x"}},"right":{{"type":"Literal","value":"data:font/woff2;base64,{text}","raw":"'data:font/woff2;base64,{text}'"}}}}}}]}}"#
    );
    let file = encode_json(&program, Layout::Context, 0)
        .expect("encodes")
        .bytes;
    let whole = decode_to_javascript(&file).expect("decodes whole");
    assert!(whole.contains(&text[..1000]) && whole.len() > 400_000);
    for piece in [7, 4096, file.len()] {
        let streamed = decode_stream_to_javascript(pieces(&file, piece)).expect("streams");
        assert!(streamed == whole, "pieces of {piece} bytes differ");
    }
    // The same string's length with the input cut short is still refused, whole and streamed: the budget counts
    // the bytes that arrived, never the ones the length promises.
    for len in [40, 200] {
        assert!(decode_to_javascript(&file[..len]).is_err());
        assert!(decode_stream_to_javascript(pieces(&file[..len], 3)).is_err());
    }
}
