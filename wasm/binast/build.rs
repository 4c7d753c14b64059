//! Wasm link settings. Rust's default Wasm stack is 1 MiB and has no guard page: a recursion deeper than that
//! writes below address 0 (a trap) and leaves `__stack_pointer` pointing there, so every later call in the same
//! instance traps too. The codec recurses once per tree level and refuses trees deeper than `MAX_DEPTH` (2,000);
//! 8 MiB holds that depth in every recursive pass (measured by the workerd test that round-trips a chain just
//! under the limit, workers/test/binast/hostile.test.ts).
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        let stack_bytes =
            std::env::var("BINAST_WASM_STACK_BYTES").unwrap_or_else(|_| "8388608".into());
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={stack_bytes}");
    }
    println!("cargo:rerun-if-env-changed=BINAST_WASM_STACK_BYTES");
}
