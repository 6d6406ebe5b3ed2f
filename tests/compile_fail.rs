//! Compile-fail cases with pinned messages: refused promotions and bad rule files.

/// The flags trybuild gives rustc when it checks the cases (1.0.122: its `--cfg
/// trybuild`, `--verbose`, `-A dead_code` and `--diagnostic-width=140`).
const CASE_RUSTFLAGS: [&str; 6] = [
    "--cfg",
    "trybuild",
    "--verbose",
    "-A",
    "dead_code",
    "--diagnostic-width=140",
];

#[test]
fn ui() {
    // trybuild checks the dependencies with one set of flags and then the cases with
    // another (the diagnostic width added), so cargo would check promo-core, most of
    // the time this test takes, twice. CARGO_ENCODED_RUSTFLAGS outranks the `--config`
    // flags trybuild passes: with the cases' flags, both steps share one check.
    std::env::set_var("CARGO_ENCODED_RUSTFLAGS", CASE_RUSTFLAGS.join("\u{1f}"));
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
