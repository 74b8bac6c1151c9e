//! Every real JP configuration in the corpus (`OVERHEAR_CORPUS`, the folder of
//! conversation folders) resolves with no warning, at every config delta.

use std::path::Path;

use serde_json::Value;

use super::{LinkStyle, Overlay, ResultSetting, TurnPolicy, merge_config};

/// The base config of a conversation: `base_config.json`, or the legacy leading
/// `config_delta` (generation 2: its `delta`; generation 3: the event minus
/// `type`/`timestamp`). Returns the base and the events after it.
fn base_and_events(dir: &Path) -> (Value, Vec<Value>) {
    let events: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("events.json")).unwrap()).unwrap();
    let base_file = dir.join("base_config.json");
    if base_file.exists() {
        let base = serde_json::from_str(&std::fs::read_to_string(base_file).unwrap()).unwrap();
        return (base, events);
    }
    let mut rest = events.into_iter();
    let first = rest
        .next()
        .expect("legacy stream starts with its base config");
    assert_eq!(first["type"], "config_delta", "{}", dir.display());
    let base = match first.get("delta") {
        Some(delta) => delta.clone(),
        None => {
            let mut flat = first.clone();
            let map = flat.as_object_mut().unwrap();
            map.remove("type");
            map.remove("timestamp");
            flat
        }
    };
    (base, rest.collect())
}

/// Resolves every tool the config names and checks it against the stored values.
fn check(config: &Value, at: &str) -> usize {
    let policy = TurnPolicy::new(config, &Overlay::default());
    assert!(
        policy.warnings().is_empty(),
        "{at}: {:?}",
        policy.warnings()
    );
    let tools = config["conversation"]["tools"]
        .as_object()
        .expect("tools map");
    for (name, entry) in tools {
        let style = policy.tool_style(name);
        let stored = entry.get("style").or_else(|| tools["*"].get("style"));
        let Some(stored) = stored else { continue };
        if let Some(link) = stored.get("results_file_link").and_then(Value::as_str) {
            let expected = match link {
                "off" => LinkStyle::Off,
                "osc8" => LinkStyle::Osc8,
                _ => LinkStyle::Full,
            };
            assert_eq!(style.results_file_link, expected, "{at}: {name}");
        }
        if stored.get("inline_results").and_then(Value::as_str) == Some("off") {
            assert_eq!(
                style.inline_results.user,
                ResultSetting::Off,
                "{at}: {name}"
            );
        }
        if stored.get("hidden") == Some(&Value::Bool(true)) {
            assert!(style.hidden, "{at}: {name}");
        }
    }
    tools.len()
}

#[test]
fn every_real_config_resolves_without_warnings() {
    let Some(root) = std::env::var_os("OVERHEAR_CORPUS") else {
        eprintln!("skipped: OVERHEAR_CORPUS is not set (it names the real JP conversations)");
        return;
    };
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("events.json").exists())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no conversations under {root:?}");
    let mut resolved = 0;
    for dir in &dirs {
        let (mut config, events) = base_and_events(dir);
        resolved += check(&config, &dir.display().to_string());
        for (index, event) in events.iter().enumerate() {
            if event["type"] == "config_delta" {
                merge_config(&mut config, event.get("delta").unwrap_or(&Value::Null));
                resolved += check(
                    &config,
                    &format!("{} after delta at {index}", dir.display()),
                );
            }
        }
    }
    println!(
        "{} conversations, {resolved} tool styles resolved",
        dirs.len()
    );
}
