//! Every `console` block of the README is run and its output compared: the README
//! shows real output. `TRYCMD=overwrite cargo test -p promo-cli --test readme`
//! refreshes it after a deliberate change.

#[test]
fn readme_examples_are_real() {
    // The README's commands run from the workspace root, as a reader would run them.
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).expect("workspace root");
    trycmd::TestCases::new()
        .register_bin("promo", trycmd::cargo::cargo_bin!("promo"))
        .case("README.md");
}
