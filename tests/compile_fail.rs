//! Compile-fail cases with pinned messages: refused promotions and bad rule files.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
