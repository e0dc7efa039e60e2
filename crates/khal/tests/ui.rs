//! Capabilities an arch lacks do not compile (trybuild). Generate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p khal --test ui` and read them.

#[test]
fn missing_capabilities_fail_to_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
