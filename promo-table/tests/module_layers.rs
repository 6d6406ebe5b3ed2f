//! promo-table's modules import one way: the data (vocabulary, options, flat cells,
//! layers, the rule table) below, the engine that reads it (lookup, walk,
//! settings, aliases, options fixed, flattening) above, and no circle of imports.
//! Read from the sources: each module's `crate::MODULE` paths outside its tests.

use std::collections::BTreeMap;
use std::path::Path;

/// The modules that hold data, which import no engine module.
const DATA: &[&str] = &[
    "dtype", "op", "operand", "cell", "options", "flat", "layer", "table",
];
/// The engine's modules.
const ENGINE: &[&str] = &["lookup", "walk", "settings", "aliases", "fixed", "flatten"];

/// The modules that `code` names as `crate::MODULE::`, other than `own`.
fn named_modules(code: &str, own: &str) -> Vec<String> {
    let mut named: Vec<String> = code
        .split("crate::")
        .skip(1)
        .filter_map(|rest| {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let module = rest[word.len()..].starts_with("::")
                && word.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            (module && !word.is_empty() && word != own).then_some(word)
        })
        .collect();
    named.sort();
    named.dedup();
    named
}

/// Each module of `src/` and the modules it names, its test module left out.
fn imports() -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("read src/") {
        let path = entry.expect("an entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") || name == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read a module");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let named = named_modules(code, &name);
        modules.insert(name, named);
    }
    modules
}

/// The modules left in circles: those that remain once every module that imports
/// none of the others left, or that none of them imports, has been taken away,
/// again and again.
fn in_circles(modules: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut left: Vec<String> = modules.keys().cloned().collect();
    loop {
        let importing: Vec<String> = left
            .iter()
            .filter(|m| modules[*m].iter().any(|i| left.contains(i)))
            .filter(|m| left.iter().any(|other| modules[other].contains(m)))
            .cloned()
            .collect();
        if importing.len() == left.len() {
            return left;
        }
        left = importing;
    }
}

#[test]
fn data_modules_import_no_engine_module() {
    let modules = imports();
    for module in DATA.iter().chain(ENGINE) {
        assert!(modules.contains_key(*module), "no module `{module}`");
    }
    assert!(!modules["lookup"].is_empty(), "no import was read");
    for data in DATA {
        let engine: Vec<&String> = modules[*data]
            .iter()
            .filter(|m| ENGINE.contains(&m.as_str()))
            .collect();
        assert!(engine.is_empty(), "`{data}` imports the engine: {engine:?}");
    }
}

#[test]
fn no_circle_of_imports() {
    assert_eq!(in_circles(&imports()), Vec::<String>::new());
}

#[test]
fn the_reading_finds_modules_and_circles() {
    assert_eq!(
        named_modules(
            "use crate::flat::{Flat, Answer};\nlet c = crate::Cell::Is(crate::dtype::DType::I8);",
            "x"
        ),
        ["dtype", "flat"]
    );
    let modules: BTreeMap<String, Vec<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, i)| (m.to_owned(), i.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(in_circles(&modules), ["a", "b", "c"]);
}
