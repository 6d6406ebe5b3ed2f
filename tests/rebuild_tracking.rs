//! Cargo must rebuild promo-core when a rule file changes: the generated code
//! `include_bytes!`s each rule file, so rustc's dep-info for promo-core lists it.

use std::path::Path;

#[test]
fn promo_core_dep_info_lists_every_rule_file() {
    // CARGO_TARGET_TMPDIR is <target>/tmp; dep-info files are <target>/<profile>/deps/*.d.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir");
    let mut dep_infos = Vec::new();
    for profile in std::fs::read_dir(target).expect("read target dir").flatten() {
        let deps = profile.path().join("deps");
        let Ok(entries) = std::fs::read_dir(&deps) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("promo_core-") && name.ends_with(".d") {
                dep_infos.push(std::fs::read_to_string(e.path()).expect("read dep-info"));
            }
        }
    }
    assert!(
        !dep_infos.is_empty(),
        "no promo_core dep-info under {}",
        target.display()
    );
    let rules_dir = promo_tests::workspace_root().join("rules");
    let mut rule_files = 0;
    for entry in std::fs::read_dir(&rules_dir).expect("rules dir").flatten() {
        let path = entry.path().canonicalize().expect("canonical path");
        if path.extension().is_some_and(|e| e == "toml") {
            rule_files += 1;
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                dep_infos
                    .iter()
                    .any(|d| d.lines().any(|l| l.contains(&format!("rules/{file}")))),
                "promo-core's dep-info does not list rules/{file}: editing it would not rebuild"
            );
        }
    }
    assert!(rule_files >= 1);
}
