//! How a tool author sees what their tool's result looks like to the user
//! and what reaches the model, under the style they plan to ship.
//!
//! Run it with `cargo run --example snapshot_a_tool`. In a test, put the
//! same `overhear::card(…)` call inside `insta::assert_snapshot!` (see the
//! crate documentation and `tests/it/library_api.rs`).

use serde_json::json;

fn main() -> Result<(), overhear::Error> {
    // What the tool returns: a summary for the user, the details for the model.
    let result = overhear::ToolResult::from_value(json!({
        "content": [
            {
                "type": "text",
                "text": "Deployed **web** to staging in 42 s.",
                "mimeType": "text/markdown",
                "annotations": {"audience": ["user"]}
            },
            {
                "type": "text",
                "text": "build 1f3c2e0\nimage sha256:9a1b…\n3 pods restarted\nhealth check ok",
                "annotations": {"audience": ["assistant"]}
            }
        ],
        "isError": false
    }))?;
    let arguments = json!({"service": "web", "environment": "staging"});

    // The style the tool will ship with: the summary as speech, the details hidden.
    let mut styles = overhear::Styles::default();
    styles.set_tool("deploy", "inline_results.user=chat")?;
    styles.set_tool("deploy", "inline_results.assistant=off")?;

    let options = overhear::CardOptions::default()
        .with_width(72)
        .with_view(overhear::CardView::All)
        .with_styles(styles);
    print!(
        "{}",
        overhear::card("deploy", &arguments, &result, &options)
    );
    Ok(())
}
