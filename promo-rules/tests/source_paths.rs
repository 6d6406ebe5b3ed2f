//! The source files and folders that the crate's comments name exist: a module
//! moved into a folder, or renamed, leaves no comment pointing at the old path.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, depth first.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the source folder")
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The paths a comment line names in backticks: `name.rs`, `folder/name.rs` or
/// `folder/`.
fn named_paths(line: &str) -> Vec<&str> {
    let Some(comment) = line.trim_start().strip_prefix("//") else {
        return Vec::new();
    };
    comment
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.ends_with(".rs") || (s.ends_with('/') && s.len() > 1))
        .filter(|s| {
            s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_./".contains(c))
        })
        .collect()
}

#[test]
fn every_source_path_a_comment_names_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let (mut named, mut missing) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read a source file");
        // A path is named from the folder of the file that names it.
        let folder = file.parent().expect("a file's folder");
        for (n, line) in text.lines().enumerate() {
            for path in named_paths(line) {
                named += 1;
                if !folder.join(path).exists() {
                    missing.push(format!("{}:{}: `{path}`", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        named > 0,
        "no comment names a source path: the test reads nothing"
    );
    assert!(
        missing.is_empty(),
        "comments name paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn only_backticked_source_paths_in_comments_are_read() {
    assert_eq!(
        named_paths("//! | resolve | `validate/resolve/` | names, `a b.rs`, `x` |"),
        ["validate/resolve/"]
    );
    assert_eq!(named_paths("//! `tree.rs`: the tree"), ["tree.rs"]);
    assert!(named_paths("let s = \"`tree.rs`\";").is_empty());
}
