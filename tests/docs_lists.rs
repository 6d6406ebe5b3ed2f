//! The lists in the docs that name every rule set, marker type and oracle, checked
//! against what the repository holds, so none of them drifts when one is added.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The file names in `dir` (relative to the repository) that satisfy `keep`.
fn files(dir: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| keep(n))
        .collect();
    names.sort();
    names
}

/// Each bundled rule file's `name` and marker types (the default one and each mode's).
fn rule_sets() -> Vec<(String, Vec<String>)> {
    files("rules", |n| n.ends_with(".toml"))
        .iter()
        .map(|file| {
            let doc: toml::Table = read(&format!("rules/{file}")).parse().unwrap();
            let rules = doc["rules"].as_table().unwrap();
            let mut markers = vec![rules["marker"].as_str().unwrap().to_owned()];
            if let Some(modes) = doc.get("modes").and_then(|m| m.as_table()) {
                markers.extend(modes.iter().filter(|(_, v)| v.is_table()).map(|(k, _)| k.clone()));
            }
            (rules["name"].as_str().unwrap().to_owned(), markers)
        })
        .collect()
}

/// The text of `doc` from the line holding `start` to the next line holding `end`.
fn section<'a>(doc: &'a str, start: &str, end: &str) -> &'a str {
    let from = doc.find(start).unwrap_or_else(|| panic!("no `{start}`"));
    let to = doc[from..].find(end).map_or(doc.len(), |i| from + i);
    &doc[from..to]
}

#[test]
fn every_rule_set_is_in_the_readme_table_and_the_crate_docs() {
    let readme = read("README.md");
    let lib = read("promo-core/src/lib.rs");
    let crate_row = section(&lib, "//! | [`rules`](mod@rules) |", "\n");
    let rules_rs = read("promo-core/src/rules.rs");
    let by_name = section(&rules_rs, "/// The bundled rule set called", "pub fn");
    let sets = rule_sets();
    assert_eq!(
        sets.len(),
        promo_core::rules::ALL.len(),
        "rules/*.toml and promo_core::rules::ALL differ"
    );
    for (name, _) in &sets {
        let quoted = format!("`{name}`");
        assert!(
            readme.contains(&format!("| {quoted} |")),
            "README's framework table lacks {quoted}"
        );
        assert!(
            crate_row.contains(&quoted),
            "promo-core's crate docs do not list {quoted}"
        );
        assert!(
            by_name.contains(&quoted),
            "rules::by_name's docs do not list {quoted}"
        );
    }
}

#[test]
fn every_marker_type_is_in_the_readme() {
    let readme = read("README.md");
    let list = section(&readme, "with one marker type per", "`Promote` impls");
    for (name, markers) in rule_sets() {
        for marker in markers {
            assert!(
                list.contains(&format!("`{marker}`")),
                "README's marker list lacks `{marker}` ({name})"
            );
        }
    }
}

#[test]
fn every_oracle_is_named_where_the_docs_say_how_the_truth_is_kept() {
    // The README's section points at docs/truth.md, which tells it in full.
    let readme = read("README.md");
    assert!(section(&readme, "## How the truth is kept", "\n## ").contains("(docs/truth.md)"));
    let truth = read("docs/truth.md");
    let promotion = files("tools/oracles/promotion", |n| {
        n.contains("_oracle.") && !n.ends_with(".cpp")
    });
    let cast = files("tools/oracles/cast", |n| n.starts_with("gen_"));
    assert!(promotion.len() >= 9 && !cast.is_empty());
    for script in promotion {
        assert!(
            truth.contains(&format!("`{script}`")),
            "docs/truth.md does not name `{script}`"
        );
    }
    // The cast oracles are named as a family: one `gen_*.py` per data file.
    assert!(truth.contains("tools/oracles/cast/") && truth.contains("`gen_*.py`"));
    let data = files("tests/data/cast", |n| n.ends_with(".json"));
    for script in cast {
        let stem = script.trim_start_matches("gen_").trim_end_matches(".py");
        assert!(
            data.iter().any(|d| d.starts_with(stem)),
            "{script} writes no tests/data/cast/{stem}*.json"
        );
    }
    for script in files("tools/oracles/finfo", |n| n.ends_with(".py")) {
        assert!(
            truth.contains(&format!("`{script}`")),
            "docs/truth.md does not name `{script}`"
        );
    }
}
