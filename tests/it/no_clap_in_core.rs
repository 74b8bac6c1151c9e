//! The core takes plain enums; only the command line (`src/cli/`,
//! `src/main.rs`) names clap, so the library builds without it.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn clap_is_named_only_by_the_command_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "found the sources");
    let offenders: Vec<String> = files
        .iter()
        .filter(|path| {
            let relative = path.strip_prefix(&src).expect("under src/");
            !(relative.starts_with("cli") || relative == Path::new("main.rs"))
        })
        .filter(|path| {
            std::fs::read_to_string(path)
                .expect("a source file is UTF-8")
                .contains("clap")
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        offenders.is_empty(),
        "clap named outside src/cli/ and src/main.rs: {offenders:?}"
    );
}
