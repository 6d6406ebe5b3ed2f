//! `promo table --format html|svg` and `promo diff --format html`: the page has
//! one cell per pair, coloured by the kind of result. The HTML is rendered in
//! headless Chromium, which reports every cell's computed colour.

use std::process::Command;

fn promo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The kind of result a `promo table --format json` cell names, by the dtype's
/// name (an oracle independent of the renderer's own classification).
fn kind_of(cell: &serde_json::Value) -> &'static str {
    match cell.as_str() {
        None => "refused",
        Some("bool") => "bool",
        Some(n) if n.starts_with('i') => "signed",
        Some(n) if n.starts_with('u') => "unsigned",
        Some(n) if n.starts_with('c') || n == "bc32" => "complex",
        Some("f32" | "f64") => "float",
        Some(_) => "narrow",
    }
}

/// The background colour each kind is drawn in, as the browser reports it.
fn rgb(kind: &str) -> &'static str {
    match kind {
        "bool" => "rgb(184, 184, 184)",
        "signed" => "rgb(78, 121, 167)",
        "unsigned" => "rgb(89, 161, 79)",
        "float" => "rgb(242, 142, 43)",
        "narrow" => "rgb(237, 201, 72)",
        "complex" => "rgb(176, 122, 161)",
        _ => "rgb(255, 255, 255)",
    }
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// Every grid cell's computed background colour, in document order, from the page
/// as Chromium renders it (the test adds a script that writes them into the DOM).
fn rendered_colours(html: &str) -> Option<Vec<String>> {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("PROMO_REQUIRE_BROWSER").is_none(),
            "PROMO_REQUIRE_BROWSER is set but no chromium is installed"
        );
        eprintln!("skipped: no chromium on this machine (.ci/run installs it)");
        return None;
    };
    let probe = "<script>document.body.setAttribute('data-colours', JSON.stringify([...document.querySelectorAll('table.grid td')].map(t => getComputedStyle(t).backgroundColor)));</script>";
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    std::fs::write(&page, html.replace("</body>", &format!("{probe}</body>"))).unwrap();
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom.find("data-colours=\"").expect("the probe ran") + "data-colours=\"".len();
    let json = dom[start..][..dom[start..].find('"').unwrap()].replace("&quot;", "\"");
    Some(serde_json::from_str(&json).unwrap())
}

#[test]
fn the_html_grid_has_one_cell_per_pair_in_the_colour_of_its_kind() {
    for (rules, set) in [
        ("openvino", "promote_unsafe=true"),
        (
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/example_rules.toml"),
            "strict=true",
        ),
    ] {
        let table: serde_json::Value =
            serde_json::from_str(&promo(&["table", rules, "--set", set, "--format", "json"])).unwrap();
        let dtypes: Vec<&str> = table["dtypes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        let mut expected = Vec::new();
        for l in &dtypes {
            for r in &dtypes {
                expected.push(rgb(kind_of(&table["table"][l][r])));
            }
        }
        let html = promo(&["table", rules, "--set", set, "--format", "html"]);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
        assert_eq!(html.matches("<td ").count(), dtypes.len() * dtypes.len());
        // Refused cells carry the reason on hover.
        if let Some(reason) = table["errors"]
            .as_object()
            .and_then(|e| e.values().next())
            .and_then(|row| row.as_object()?.values().next())
        {
            assert!(
                html.contains(&format!(": refused: {}", reason.as_str().unwrap())),
                "{rules}"
            );
        }
        let svg = promo(&["table", rules, "--set", set, "--format", "svg"]);
        assert_eq!(svg.matches("<g class=\"k-").count(), dtypes.len() * dtypes.len());
        // The legend of the HTML page, in the image too.
        assert!(
            svg.contains("<g class=\"legend\">") && svg.contains(">refused (hover for the reason)</text>")
        );
        if let Some(colours) = rendered_colours(&html) {
            assert_eq!(colours, expected, "{rules}");
        }
    }
}

#[test]
fn a_diff_page_outlines_exactly_the_differing_cells() {
    let json: serde_json::Value = serde_json::from_str(&promo(&[
        "diff",
        "openvino",
        "openvino",
        "--set",
        "b:promote_unsafe=true",
        "--format",
        "json",
    ]))
    .unwrap();
    let html = promo(&[
        "diff",
        "openvino",
        "openvino",
        "--set",
        "b:promote_unsafe=true",
        "--format",
        "html",
    ]);
    let cells = json["cells"].as_u64().unwrap() as usize;
    assert_eq!(html.matches("<td ").count(), cells);
    assert_eq!(
        html.matches(" differ\" title=").count(),
        json["differ"].as_u64().unwrap() as usize
    );
    if let Some(colours) = rendered_colours(&html) {
        assert_eq!(colours.len(), cells);
    }
}

#[test]
fn the_agreement_page_has_a_cell_per_pair_of_rule_sets() {
    let json: serde_json::Value =
        serde_json::from_str(&promo(&["diff", "--all", "--format", "json"])).unwrap();
    let n = json["rules"].as_array().unwrap().len();
    let html = promo(&["diff", "--all", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>") && !html.contains("<script"));
    assert_eq!(html.matches("<td ").count(), n * n);
    // The diagonal: every rule set agrees with itself on all its cells.
    for (i, name) in json["rules"].as_array().unwrap().iter().enumerate() {
        let cells = &json["agreement"][i][i]["cells"];
        let name = name.as_str().unwrap();
        assert!(html.contains(&format!(
            "title=\"{name} and {name}: {cells} of {cells} common cells agree\">100%"
        )));
    }
    if let Some(colours) = rendered_colours(&html) {
        assert_eq!(colours.len(), n * n);
        // Full agreement is the full green.
        assert_eq!(colours[0], "rgb(89, 161, 79)");
    }
}

/// A one-operand operation's map: one cell per dtype, each in the colour of the
/// kind `promo table --format json` names for it.
#[test]
fn a_one_operand_map_has_a_cell_per_dtype_in_the_colour_of_its_kind() {
    let json: serde_json::Value =
        serde_json::from_str(&promo(&["table", "numpy", "--op", "sqrt", "--format", "json"])).unwrap();
    let html = promo(&["table", "numpy", "--op", "sqrt", "--format", "html"]);
    let Some(colours) = rendered_colours(&html) else {
        return;
    };
    let dtypes = promo(&["table", "numpy", "--op", "sqrt", "--format", "csv"]);
    let names: Vec<&str> = dtypes
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(colours.len(), names.len());
    for (name, colour) in names.iter().zip(&colours) {
        let cell = &json["table"][name];
        // A refused dtype's JSON cell is its text `x`; a result's is its name.
        let shown = match cell.as_str() {
            Some("x") => serde_json::Value::Null,
            Some(s) => serde_json::Value::String(s.split(' ').next().unwrap().to_owned()),
            None => serde_json::Value::Null,
        };
        assert_eq!(colour, rgb(kind_of(&shown)), "sqrt({name}) is {cell}");
    }
}
