//! Golden renders: every snapshot is stored in the repository's `snapshots/`
//! folder under its own name (no module prefix), reviewed like code.

/// Checks `text` against the stored snapshot `name` (`cargo insta review`
/// shows a change).
pub fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}
