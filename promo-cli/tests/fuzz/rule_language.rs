//! Fuzzes the rule language with random but well-formed rule files, for a bounded
//! time (`PROMO_FUZZ_SECONDS`, `PROMO_FUZZ_SEED` as in `tests/fuzz.rs`). Each file
//! is written from the grammar, not mutated from a bundled one, so it reaches every
//! feature: options of each type, modes, `[python]`, aliases and `alias_prefix`,
//! dtype and op classes, lattices with weak nodes and `weak_operands`, and layers
//! with `when`, `ops`, `operands`, `rows`/`cols`, `where`, `cells`, `matrix`,
//! `mirrored`, `promoted`, `by_promoted`, `strong`, `cases` and `retype`.
//!
//! Each file is loaded by the library (no panic; an accepted one's precomputed
//! table agrees with the layer walk), then every command is run on it: `check`,
//! `table`, `query --stdin` over every operand pair, `explain`, `gen` and `diff`.
//! Each must exit 0, 1 or 2 with a message, never panic. A file that breaks one is
//! kept in `target/fuzz-failure.toml`, to become a regression test in
//! `tests/rule_file_limits.rs`.

use std::path::Path;
use std::time::Instant;

use crate::fuzz_support::{budget, check_flat_agrees, seed, Rng};

use crate::support::promo_in;

const DTYPES: &[&str] = &[
    "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64", "c64", "c128",
    "f8e4m3fn", "f8e5m2", "i4", "u4",
];
const OPS: &[&str] = &[
    "add",
    "subtract",
    "divide",
    "equal",
    "less_than",
    "maximum",
    "bitwise_and",
    "pow",
    "where",
];
const KINDS: &[&str] = &["bool", "integer", "signed", "unsigned", "float", "complex"];
const SIDES: &[&str] = &["tensor", "scalar", "dimensioned", "weak", "python", "any"];
const PYTHON: &[&str] = &["bool", "int", "float", "complex"];
const CONDITIONS: &[&str] = &[
    "lhs == rhs",
    "lhs != rhs",
    "kind(lhs) > kind(rhs)",
    "kind(lhs) >= kind(rhs)",
    "kind(rhs) == float",
    "kind(lhs) == integer or kind(rhs) == integer",
    "kind(lhs) < complex and lhs != rhs",
];
/// Alias names a rule file may give.
const ALIASES: &[&str] = &["fw.int", "fw.float", "fw.x", "Fw.Half", "float", "int"];
/// Alias names the language must refuse: operand syntax, a setting, a canonical
/// name, a common spelling of another dtype.
const BAD_ALIASES: &[&str] = &["python:int", "scalar:x", "weak:f32", "i8", "float32", "x=y"];
const PREFIXES: &[&str] = &["fw.", "torch.", "x", "np."];
const BAD_PREFIXES: &[&str] = &["u", "python:", "b", "a=b"];

/// One of `words`.
fn pick_str<'a>(rng: &mut Rng, words: &[&'a str]) -> &'a str {
    words[rng.below(words.len())]
}

/// A TOML string literal of `s`.
fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// A TOML array of string literals.
fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quoted(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// Up to `max` distinct items of `pool`, at least one.
fn some<T: Clone + PartialEq>(rng: &mut Rng, pool: &[T], max: usize) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for _ in 0..1 + rng.below(max) {
        let item = rng.pick(pool).clone();
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// What a generated file has declared so far, for the parts that refer to it.
struct Scope {
    dtypes: Vec<String>,
    ops: Vec<String>,
    reasons: Vec<String>,
    bool_option: bool,
    dtype_option: bool,
    choice_option: bool,
    classes: Vec<String>,
    op_classes: Vec<String>,
    lattice: bool,
}

impl Scope {
    /// A dtype, now and then one outside the rule set (an error to report).
    fn dtype(&self, rng: &mut Rng) -> String {
        if rng.below(300) == 0 {
            rng.pick(DTYPES).to_string()
        } else {
            rng.pick(&self.dtypes).clone()
        }
    }

    /// A row or column key: a dtype, a kind or a dtype class.
    fn key(&self, rng: &mut Rng) -> String {
        match rng.below(6) {
            0 => rng.pick(KINDS).to_string(),
            1 if !self.classes.is_empty() => rng.pick(&self.classes).clone(),
            _ => self.dtype(rng),
        }
    }

    fn keys(&self, rng: &mut Rng) -> Vec<String> {
        (0..1 + rng.below(3)).map(|_| self.key(rng)).collect()
    }

    /// A layer's `result`.
    fn result(&self, rng: &mut Rng) -> String {
        match rng.below(12) {
            0 | 1 => "lhs".into(),
            2 => "rhs".into(),
            3 | 4 if self.lattice => "lub".into(),
            5 if self.lattice => "lub*".into(),
            6 if !self.reasons.is_empty() => format!("!{}", rng.pick(&self.reasons)),
            7 if self.dtype_option => "$target".into(),
            8 => format!("{}*", self.dtype(rng)),
            _ => self.dtype(rng),
        }
    }

    /// A `when` table on the options declared.
    fn when(&self, rng: &mut Rng) -> Option<String> {
        let mut parts = Vec::new();
        if self.bool_option && rng.below(2) == 0 {
            parts.push(format!("strict = {}", rng.below(2) == 0));
        }
        if self.choice_option && rng.below(3) == 0 {
            parts.push(format!("mode = {}", quoted(pick_str(rng, &["eager", "static"]))));
        }
        if self.dtype_option && rng.below(4) == 0 {
            parts.push(format!("target = {}", quoted(&self.dtype(rng))));
        }
        (!parts.is_empty()).then(|| format!("{{ {} }}", parts.join(", ")))
    }

    /// The operations a layer applies to: names or op classes.
    fn layer_ops(&self, rng: &mut Rng) -> Vec<String> {
        let mut pool: Vec<String> = if self.ops.is_empty() {
            vec!["add".into()]
        } else {
            self.ops.clone()
        };
        pool.extend(self.op_classes.iter().cloned());
        some(rng, &pool, 2)
    }

    /// The keys a derived layer (or one of its cases) gives, beside its result.
    fn derived_keys(&self, rng: &mut Rng, out: &mut Vec<String>) {
        if rng.below(3) == 0 {
            let sides = [rng.pick(SIDES).to_string(), rng.pick(SIDES).to_string()];
            out.push(format!("operands = {}", list(&sides)));
        }
        if rng.below(3) == 0 {
            out.push(format!("rows = {}", list(&self.keys(rng))));
        }
        if rng.below(3) == 0 {
            out.push(format!("cols = {}", list(&self.keys(rng))));
        }
        if rng.below(3) == 0 {
            out.push(format!("where = {}", quoted(pick_str(rng, CONDITIONS))));
        }
        if rng.below(5) == 0 {
            out.push("mirrored = true".into());
        }
        if rng.below(6) == 0 {
            out.push(format!("strong = {}", rng.below(2) == 0));
        }
        match rng.below(8) {
            0 => out.push(format!("promoted = {}", list(&self.keys(rng)))),
            1 => {
                let keys: Vec<String> = (0..3).map(|_| self.key(rng)).collect();
                let entries: Vec<String> = some(rng, &keys, 3)
                    .iter()
                    .map(|key| format!("{} = {}", quoted(key), quoted(&self.result(rng))))
                    .collect();
                out.push(format!("by_promoted = {{ {} }}", entries.join(", ")));
                return;
            }
            _ => {}
        }
        out.push(format!("result = {}", quoted(&self.result(rng))));
    }

    /// One `[[layer]]`.
    fn layer(&self, rng: &mut Rng, index: usize) -> String {
        let mut keys = vec![format!("name = {}", quoted(&format!("layer {index}")))];
        if let Some(when) = self.when(rng) {
            keys.push(format!("when = {when}"));
        }
        if !self.ops.is_empty() && rng.below(3) == 0 {
            keys.push(format!("ops = {}", list(&self.layer_ops(rng))));
        }
        match rng.below(10) {
            0 | 1 => {
                let cells: Vec<String> = (0..1 + rng.below(4))
                    .map(|_| format!("{} {} = {}", self.dtype(rng), self.dtype(rng), self.cell(rng)))
                    .collect();
                keys.push(format!("cells = {}", list(&cells)));
            }
            2 => keys.push(format!("matrix = '''\n{}'''", self.matrix(rng))),
            3 => {
                let cases: Vec<String> = (0..1 + rng.below(3))
                    .map(|_| {
                        let mut case = Vec::new();
                        if let Some(when) = self.when(rng) {
                            case.push(format!("when = {when}"));
                        }
                        self.derived_keys(rng, &mut case);
                        format!("{{ {} }}", case.join(", "))
                    })
                    .collect();
                keys.push(format!("cases = [\n  {},\n]", cases.join(",\n  ")));
            }
            4 => {
                let (a, b) = (self.dtype(rng), self.dtype(rng));
                keys.push(format!("retype = {{ {a} = {} }}", quoted(&b)));
            }
            _ => self.derived_keys(rng, &mut keys),
        }
        format!("[[layer]]\n{}\n", keys.join("\n"))
    }

    /// A cell of `cells` or `matrix`: a result but `lub`, or `.`.
    fn cell(&self, rng: &mut Rng) -> String {
        match rng.below(8) {
            0 => ".".into(),
            _ => self.result(rng).replace("lub*", "lhs").replace("lub", "rhs"),
        }
    }

    /// A literal matrix over a few of the dtypes.
    fn matrix(&self, rng: &mut Rng) -> String {
        let keys = some(rng, &self.dtypes, 4);
        let mut text = format!("{}\n", keys.join(" "));
        for row in &keys {
            let cells: Vec<String> = keys.iter().map(|_| self.cell(rng)).collect();
            text.push_str(&format!("{row} {}\n", cells.join(" ")));
        }
        text
    }
}

/// A random rule file that reaches every feature of the language.
fn rule_file(rng: &mut Rng) -> String {
    let dtypes: Vec<String> = some(rng, DTYPES, 8).into_iter().map(String::from).collect();
    let ops: Vec<String> = if rng.below(3) == 0 {
        Vec::new()
    } else {
        some(rng, OPS, 5).into_iter().map(String::from).collect()
    };
    let mut text =
        String::from("[rules]\nname = \"fuzz\"\nmarker = \"Fuzz\"\ntitle = \"Fuzz\"\nversion = \"1\"\n");
    text.push_str(&format!("commutative = {}\n", rng.below(2) == 0));
    text.push_str(&format!("dtypes = {}\n", list(&dtypes)));
    if !ops.is_empty() {
        text.push_str(&format!("ops = {}\n", list(&ops)));
    }
    match rng.below(20) {
        0..=3 => text.push_str(&format!("alias_prefix = {}\n", quoted(pick_str(rng, PREFIXES)))),
        4 => text.push_str(&format!(
            "alias_prefix = {}\n",
            quoted(pick_str(rng, BAD_PREFIXES))
        )),
        _ => {}
    }
    if rng.below(8) == 0 {
        text.push_str(&format!("associative = {}\n", rng.below(2) == 0));
    }
    let mut scope = Scope {
        dtypes: dtypes.clone(),
        ops: ops.clone(),
        reasons: Vec::new(),
        bool_option: rng.below(2) == 0,
        dtype_option: rng.below(3) == 0,
        choice_option: rng.below(3) == 0,
        classes: Vec::new(),
        op_classes: Vec::new(),
        lattice: rng.below(3) != 0,
    };
    if scope.bool_option {
        text.push_str("\n[options.strict]\ntype = \"bool\"\ndefault = false\ndoc = \"strict\"\n");
    }
    if scope.dtype_option {
        let default = scope.dtype(rng);
        text.push_str(&format!(
            "\n[options.target]\ntype = \"dtype\"\ndefault = {}\n",
            quoted(&default)
        ));
    }
    if scope.choice_option {
        text.push_str(
            "\n[options.mode]\ntype = \"choice\"\nchoices = [\"eager\", \"static\"]\ndefault = \"eager\"\n",
        );
    }
    if scope.bool_option && rng.below(2) == 0 {
        text.push_str("\n[modes]\nFuzzStrict = { strict = true }\n");
    }
    if rng.below(2) == 0 && ops.len() > 1 {
        scope.op_classes.push("arith".into());
        text.push_str(&format!(
            "\n[op_classes]\narith = {}\n",
            list(&some(rng, &ops, 3))
        ));
    }
    if rng.below(2) == 0 {
        let members: Vec<String> = (0..3).map(|_| scope.key(rng)).collect();
        let members = some(rng, &members, 3);
        text.push_str(&format!("\n[dtype_classes]\npicked = {}\n", list(&members)));
        scope.classes.push("picked".into());
    }
    if rng.below(2) == 0 {
        text.push_str("\n[python]\n");
        for kind in some(rng, PYTHON, 4) {
            let weak = if rng.below(3) == 0 { "*" } else { "" };
            text.push_str(&format!(
                "{kind} = {}\n",
                quoted(&format!("{}{weak}", scope.dtype(rng)))
            ));
        }
    }
    if rng.below(3) == 0 {
        text.push_str("\n[aliases]\n");
        let names = if rng.below(6) == 0 { BAD_ALIASES } else { ALIASES };
        for name in some(rng, names, 3) {
            let value = if rng.below(4) == 0 {
                list(&[scope.dtype(rng), scope.dtype(rng)])
            } else {
                quoted(&scope.dtype(rng))
            };
            text.push_str(&format!("{} = {value}\n", quoted(name)));
        }
    }
    if rng.below(2) == 0 {
        scope.reasons = vec!["no".into(), "never".into()];
        text.push_str("\n[reasons]\nno = \"refused\"\nnever = \"never here\"\n");
    }
    if scope.lattice {
        // A chain over the dtypes, in a random order, with a few more edges (which
        // may break the lattice: an error to report), and now and then weak nodes.
        let mut order = dtypes.clone();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut edges = String::new();
        if rng.below(3) == 0 {
            edges.push_str(&format!("{}* -> {}\n", order[0], order[0]));
        }
        for pair in order.windows(2) {
            edges.push_str(&format!("{} -> {}\n", pair[0], pair[1]));
        }
        // Forward edges keep the order acyclic; a backward one now and then.
        for _ in 0..rng.below(3) {
            let (i, j) = (rng.below(order.len()), rng.below(order.len()));
            let (lo, hi) = if rng.below(10) == 0 {
                (i.max(j), i.min(j))
            } else {
                (i.min(j), i.max(j))
            };
            if lo != hi {
                edges.push_str(&format!("{} -> {}\n", order[lo], order[hi]));
            }
        }
        text.push_str(&format!("\n[lattice]\nedges = '''\n{edges}'''\n"));
        if rng.below(4) == 0 {
            let node = format!("{}*", order[0]);
            text.push_str(&format!("weak_operands = {{ integer = {} }}\n", quoted(&node)));
        }
    }
    let layers = rng.below(6);
    for i in 0..layers {
        text.push('\n');
        text.push_str(&scope.layer(rng, i + 1));
    }
    if !scope.reasons.is_empty() {
        // Every reason declared is used (an unused one is an error).
        let (a, b) = (rng.pick(&dtypes).clone(), rng.pick(&dtypes).clone());
        text.push_str(&format!(
            "\n[[layer]]\nname = \"refusals\"\ncells = [\"{a} {b} = !no\", \"{b} {a} = !never\"]\n"
        ));
    }
    // The base: most files decide every pair, so that the commands get past the
    // check and answer.
    let base = match rng.below(4) {
        0 if scope.lattice => "lub".to_owned(),
        1 => "lhs".to_owned(),
        2 => scope.dtype(rng),
        _ if scope.lattice => "lub".to_owned(),
        _ => dtypes[0].clone(),
    };
    text.push_str(&format!(
        "\n[[layer]]\nname = \"base\"\nresult = {}\n",
        quoted(&base)
    ));
    if scope.lattice && base == "lub" {
        text.push_str(&format!(
            "\n[[layer]]\nname = \"no bound\"\nresult = {}\n",
            quoted(&dtypes[0])
        ));
    }
    text
}

/// Every ordered pair of operands a query line can name for `dtypes`.
fn query_lines(dtypes: &[String], ops: &[String]) -> String {
    let mut operands: Vec<String> = dtypes.to_vec();
    operands.extend(dtypes.iter().map(|d| format!("scalar:{d}")));
    operands.extend(dtypes.iter().take(2).map(|d| format!("weak:{d}")));
    operands.extend(PYTHON.iter().map(|k| format!("python:{k}")));
    let op = ops.first().map_or("add", String::as_str);
    let mut text = String::new();
    for a in &operands {
        for b in &operands {
            text.push_str(&format!("{a} {b} op={op}\n"));
        }
    }
    text.push_str("i8 u8 strict=true\nfw.int i8\n");
    text
}

/// Runs `promo ARGS` in `dir` and checks that it neither panicked nor exited with
/// a status other than 0, 1 or 2 (2 with a message).
fn runs_cleanly(dir: &Path, args: &[&str], stdin: &[u8], src: &str) {
    let out = promo_in(dir, args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    let clean = matches!(code, Some(0..=2)) && !stderr.contains("panicked");
    if !clean || (code == Some(2) && stderr.trim().is_empty()) {
        keep(src);
        panic!("promo {args:?} exited {code:?}:\n{stderr}\n--- rule file ---\n{src}");
    }
}

/// Keeps a rule file that broke something, to become a regression test.
fn keep(src: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/fuzz-failure.toml");
    let _ = std::fs::write(path, src);
}

#[test]
fn fuzz_rule_files_written_from_the_grammar() {
    let mut rng = seed("rule language");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fuzz.toml");
    let (start, mut files, mut accepted, mut compared) = (Instant::now(), 0u64, 0u64, 0usize);
    while start.elapsed() < budget() {
        let src = rule_file(&mut rng);
        let loaded =
            std::panic::catch_unwind(|| promo_rules::load("fuzz.toml", &src).map_err(|d| d.to_string()));
        let Ok(loaded) = loaded else {
            keep(&src);
            panic!("loading panicked:\n{src}");
        };
        std::fs::write(&path, &src).unwrap();
        let file = path.to_str().unwrap();
        runs_cleanly(dir.path(), &["check", file], b"", &src);
        if let Ok(rules) = &loaded {
            accepted += 1;
            let agreed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rules.with_table(check_flat_agrees)
            }));
            match agreed {
                Ok(n) => compared += n,
                Err(_) => {
                    keep(&src);
                    panic!("the flat table and the walk disagree:\n{src}");
                }
            }
            let dtypes: Vec<String> = rules.dtypes.iter().map(|d| d.to_string()).collect();
            let ops: Vec<String> = rules.ops.iter().map(|o| o.to_string()).collect();
            let op = ops.first().cloned().unwrap_or_else(|| "add".into());
            runs_cleanly(dir.path(), &["table", file, "--op", &op], b"", &src);
            runs_cleanly(
                dir.path(),
                &["query", file, "--stdin"],
                query_lines(&dtypes, &ops).as_bytes(),
                &src,
            );
            let (a, b) = (rng.pick(&dtypes).clone(), format!("python:{}", rng.pick(PYTHON)));
            runs_cleanly(dir.path(), &["explain", file, &a, &b, "--op", &op], b"", &src);
            runs_cleanly(dir.path(), &["gen", file, "--lang", "rust"], b"", &src);
            runs_cleanly(dir.path(), &["diff", file, "numpy"], b"", &src);
        }
        files += 1;
    }
    println!("fuzz rule language: {files} files, {accepted} accepted, {compared} flat-vs-walk comparisons");
    assert!(files > 20, "{files} files");
}
