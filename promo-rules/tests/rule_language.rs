//! The derived parts of the rule language: what they expand to, and the errors
//! they give, each pointing at its line and column.

use promo_table::{DType, Op, Operand, PyScalar, Refusal};

const HEADER: &str = r#"
[rules]
name = "t"
marker = "T"
title = "t"
version = "1"
commutative = false
dtypes = ["bool", "i8", "u8", "i16", "f32", "c64"]
ops = ["add", "divide", "equal"]
"#;

fn load(body: &str) -> Result<promo_rules::RuleFile, String> {
    let src = format!("{HEADER}{body}");
    promo_rules::load("t.toml", &src).map_err(|d| d.to_string())
}

fn errors(body: &str) -> String {
    match load(body) {
        Ok(_) => panic!("accepted:\n{body}"),
        Err(e) => e,
    }
}

fn answer(rules: &promo_rules::RuleFile, op: Op, lhs: Operand, rhs: Operand) -> Result<DType, String> {
    rules.with_table(|t| {
        t.promote(&t.default_options(), op, lhs, rhs)
            .map_err(|e: Refusal<'_>| e.to_string())
    })
}

/// What `promo explain` prints for the pair under the default options, `src` being
/// the rule file's text (for the places it quotes).
fn explained(rules: &promo_rules::RuleFile, src: &str, op: Op, lhs: Operand, rhs: Operand) -> String {
    let options = rules.with_table(|t| t.default_options());
    promo_rules::explain(rules, "t.toml", src, &options, op, lhs, rhs)
}

const LATTICE: &str = r#"
[lattice]
edges = '''
bool -> i8 u8
i8 u8 -> i16 -> f32 -> c64
'''
"#;

#[test]
fn lub_kinds_conditions_and_exceptions_expand_to_the_right_cells() {
    let rules = load(&format!(
        r#"
[op_classes]
compare = ["equal"]

[reasons]
mixed = "mixed"

{LATTICE}
[[layer]]
name = "exception"
cells = ["u8 i8 = !mixed"]

[[layer]]
name = "comparisons"
ops = ["compare"]
result = "bool"

[[layer]]
name = "division"
ops = ["divide"]
rows = ["integer", "bool"]
cols = ["integer", "bool"]
result = "f32"

[[layer]]
name = "python of a lower kind"
operands = ["tensor", "python"]
where = "kind(lhs) >= kind(rhs)"
result = "lhs"

[[layer]]
name = "python of a higher kind"
operands = ["tensor", "python"]
result = "rhs"

[[layer]]
name = "base"
result = "lub"

[python]
int = "i16"
float = "f32"
complex = "c64"
"#
    ))
    .unwrap();
    use DType::*;
    let t = Operand::Dimensioned;
    let p = Operand::Python;
    // Every tensor pair of the base is the least upper bound, checked by brute force
    // against the order the edges state.
    let order = [(Bool, 0), (I8, 1), (U8, 1), (I16, 2), (F32, 3), (C64, 4)];
    for (a, ra) in order {
        for (b, rb) in order {
            let got = answer(&rules, Op::Add, t(a), t(b));
            let compared = answer(&rules, Op::Equal, t(a), t(b));
            if (a, b) == (U8, I8) {
                // The exception comes first, for every operation.
                assert_eq!(got, Err("mixed".to_owned()));
                assert_eq!(compared, Err("mixed".to_owned()));
                continue;
            }
            let expected = match (a, b) {
                _ if a == b => a,
                _ if ra == rb => I16,
                _ if ra > rb => a,
                _ => b,
            };
            assert_eq!(got, Ok(expected), "{a} {b}");
            assert_eq!(compared, Ok(Bool), "{a} {b}");
        }
    }
    assert_eq!(answer(&rules, Op::Divide, t(I8), t(Bool)), Ok(F32));
    assert_eq!(answer(&rules, Op::Divide, t(F32), t(I8)), Ok(F32));
    assert_eq!(answer(&rules, Op::Divide, t(I8), t(I16)), Ok(F32));
    assert_eq!(answer(&rules, Op::Add, t(I8), p(PyScalar::Int)), Ok(I8));
    assert_eq!(answer(&rules, Op::Add, t(F32), p(PyScalar::Int)), Ok(F32));
    assert_eq!(answer(&rules, Op::Add, t(I8), p(PyScalar::Float)), Ok(F32));
    assert_eq!(answer(&rules, Op::Add, t(F32), p(PyScalar::Complex)), Ok(C64));
    // No layer for Python on the left: typed as its [python] dtype, then the lub.
    assert_eq!(answer(&rules, Op::Add, p(PyScalar::Int), t(I8)), Ok(I16));
}

#[test]
fn a_pair_without_a_unique_least_upper_bound_is_named() {
    let e = errors(
        r#"
[lattice]
edges = '''
i8 -> i16 f32
u8 -> i16 f32
'''
[[layer]]
name = "base"
result = "lub"
"#,
    );
    assert!(e.contains("no unique least upper bound for `i8` and `u8`"), "{e}");
    assert!(e.contains("--> t.toml:"), "{e}");
}

#[test]
fn a_cycle_is_named_at_its_closing_edge() {
    let e = errors(
        r#"
[lattice]
edges = '''
i8 -> i16 -> f32
f32 -> i8
'''
[[layer]]
name = "base"
result = "lub"
"#,
    );
    assert!(
        e.contains("the lattice has a cycle: i8 -> i16 -> f32 -> i8"),
        "{e}"
    );
    assert!(e.contains("--> t.toml:14:8"), "{e}");
}

#[test]
fn derived_layer_mistakes_point_at_their_text() {
    let cases: &[(&str, &str)] = &[
        (
            "[[layer]]\nname = \"b\"\nresult = \"lub\"\n",
            "`result = \"lub\"` needs a `[lattice]`",
        ),
        (
            "[[layer]]\nname = \"b\"\nresult = \"i8\"\nmatrix = '''\n  i8\ni8 i8\n'''\n",
            "must give its cells one way",
        ),
        (
            "[[layer]]\nname = \"b\"\nresult = \"i8\"\nwhere = \"lhs ~ rhs\"\n",
            "bad condition `lhs ~ rhs`",
        ),
        (
            "[[layer]]\nname = \"b\"\nresult = \"i8\"\nrows = [\"quaternion\"]\n",
            "unknown dtype, kind or dtype class `quaternion`",
        ),
        (
            "[[layer]]\nname = \"b\"\nresult = \"u16\"\n",
            "result dtype `u16` is not in `rules.dtypes`",
        ),
        ("[[layer]]\nname = \"b\"\nresult = \".\"\n", "cannot be `.`"),
        (
            "[[layer]]\nname = \"b\"\ncells = [\"i8 u8 = i16\", \"i8 u8 = i8\"]\n",
            "duplicate cell `i8 u8`",
        ),
        (
            "[[layer]]\nname = \"b\"\ncells = [\"i8 u8 i16\"]\n",
            "expected `ROW COL = RESULT`",
        ),
        (
            "[op_classes]\nadd = [\"add\"]\n[[layer]]\nname = \"b\"\nresult = \"i8\"\n",
            "op class `add` has the name of an operation",
        ),
        (
            "[[layer]]\nname = \"b\"\nops = [\"compare\"]\nresult = \"i8\"\n",
            "unknown operation or op class `compare`",
        ),
        (
            "[[layer]]\nname = \"b\"\nresult = \"i8\"\nrows = [\"i8\"]\n",
            "missing cell: no layer without `when` or `ops` has a result for (bool, bool)",
        ),
        (
            "[lattice]\nedges = '''\ni8 -> u16\n'''\n[[layer]]\nname = \"b\"\nresult = \"i8\"\n",
            "lattice dtype `u16` is not in `rules.dtypes`",
        ),
        (
            "[lattice]\nedges = '''\ni8 u8\n'''\n[[layer]]\nname = \"b\"\nresult = \"i8\"\n",
            "a lattice line is `lower -> upper`",
        ),
        (
            "[[layer]]\nname = \"b\"\nrows = [\"i8\"]\nmatrix = '''\n  i8\ni8 i8\n'''\n",
            "`rows` belongs to a layer with a `result`",
        ),
    ];
    for (body, expected) in cases {
        let e = errors(body);
        assert!(
            e.contains(expected),
            "expected `{expected}` for\n{body}\ngot:\n{e}"
        );
        assert!(e.contains("--> t.toml:"), "{e}");
    }
}

#[test]
fn a_derived_layer_in_a_commutative_rule_set_must_not_contradict_itself() {
    let src = HEADER.replace("commutative = false", "commutative = true")
        + "[[layer]]\nname = \"b\"\nrows = [\"i8\", \"u8\"]\ncols = [\"i8\", \"u8\"]\nresult = \"lhs\"\n[[layer]]\nname = \"c\"\nresult = \"f32\"\n";
    let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
    assert!(e.contains("asymmetric cell: (i8, u8)"), "{e}");
    // One-sided derived cells are fine: the lookup tries the swapped pair.
    let src = HEADER.replace("commutative = false", "commutative = true")
        + "[[layer]]\nname = \"b\"\nwhere = \"kind(lhs) > kind(rhs)\"\nresult = \"lhs\"\n[[layer]]\nname = \"c\"\nresult = \"i8\"\n";
    let rules = promo_rules::load("t.toml", &src).unwrap();
    assert_eq!(
        answer(
            &rules,
            Op::Add,
            Operand::Dimensioned(DType::I8),
            Operand::Dimensioned(DType::F32)
        ),
        Ok(DType::F32)
    );
}

#[test]
fn declared_properties_are_checked_with_a_counterexample() {
    let lattice = format!("{LATTICE}[[layer]]\nname = \"b\"\nresult = \"lub\"\n");
    let declared = |fields: &str, body: &str| {
        let src = HEADER.replace("commutative = false", &format!("commutative = true\n{fields}")) + body;
        promo_rules::load("t.toml", &src).map_err(|d| d.to_string())
    };
    // A lattice's join is all three.
    assert!(declared("associative = true\nlattice = true", &lattice).is_ok());
    // Not idempotent: i8 + i8 is i16.
    let e = declared(
        "lattice = true",
        &format!("[[layer]]\nname = \"x\"\ncells = [\"i8 i8 = i16\"]\n{lattice}"),
    )
    .unwrap_err();
    assert!(
        e.contains("`lattice` is declared, but under `T`: i8 + i8 = i16, not i8"),
        "{e}"
    );
    // Not associative: (i8 + u8) + i16 is refused, i8 + (u8 + i16) is i16.
    let e = declared(
        "associative = true",
        &format!("[reasons]\nm = \"m\"\n[[layer]]\nname = \"x\"\ncells = [\"i8 u8 = !m\"]\n{lattice}"),
    )
    .unwrap_err();
    assert!(
        e.contains("(i8 + u8) + i16 = refused but i8 + (u8 + i16) = i16"),
        "{e}"
    );
    // `false` declares nothing.
    assert!(declared(
        "associative = false",
        &format!("[reasons]\nm = \"m\"\n[[layer]]\nname = \"x\"\ncells = [\"i8 u8 = !m\"]\n{lattice}")
    )
    .is_ok());
}

/// Found by the rule-file fuzzer: in a CRLF file, a diagnostic about a whole
/// `[[layer]]` table starts at the `\r` ending its header line, past the text the
/// report shows; rendering it panicked.
#[test]
fn a_diagnostic_on_a_crlf_layer_table_renders() {
    let src = (HEADER.to_owned() + "[[layer]]\nname = \"b\"\nrows = [\"i8\"]\nresult = \"i8\"\n")
        .replace('\n', "\r\n");
    let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
    assert!(
        e.contains("missing cell: no layer without `when` or `ops`"),
        "{e}"
    );
    assert!(e.contains("--> t.toml:"), "{e}");
}

#[test]
fn a_mirrored_layer_answers_the_swapped_pair_with_lhs_and_rhs_exchanged() {
    let body = format!(
        r#"
[python]
int = "i8"

{LATTICE}
[[layer]]
name = "a Python int with a u8 tensor keeps the tensor's dtype"
operands = ["tensor", "python"]
rows = ["u8"]
cols = ["int"]
result = "lhs"
mirrored = true

[[layer]]
name = "a Python scalar of the tensor's dtype"
operands = ["tensor", "python"]
where = "lhs == rhs"
result = "u8"

[[layer]]
name = "the common type"
result = "lub"
"#
    );
    let src = format!("{HEADER}{body}");
    let rules = promo_rules::load("t.toml", &src).unwrap();
    let (u8, i8) = (Operand::Dimensioned(DType::U8), Operand::Dimensioned(DType::I8));
    let int = Operand::Python(PyScalar::Int);
    // As written, (u8, int) gives the left operand; mirrored, (int, u8) gives the
    // right one (without the mirror, int would be typed i8 and the lattice give i16).
    assert_eq!(answer(&rules, Op::Add, u8, int), Ok(DType::U8));
    assert_eq!(answer(&rules, Op::Add, int, u8), Ok(DType::U8));
    // `lhs == rhs` compares a Python scalar as its [python] dtype; that layer is not
    // mirrored, so (int, i8) falls through to the lattice.
    assert_eq!(answer(&rules, Op::Add, i8, int), Ok(DType::U8));
    assert_eq!(answer(&rules, Op::Add, int, i8), Ok(DType::I8));
    let text = explained(&rules, &src, Op::Add, int, u8);
    assert!(
        text.contains("mirrored: the statement as written answers (u8, int)"),
        "{text}"
    );
}

#[test]
fn a_promoted_filter_tests_what_the_layers_after_it_give() {
    let rules = load(&format!(
        r#"
{LATTICE}
[[layer]]
name = "integer quotients are f32"
ops = ["divide"]
promoted = ["integer"]
result = "f32"

[[layer]]
name = "comparisons give bool"
ops = ["equal"]
promoted = ["bool", "integer", "float", "complex"]
result = "bool"

[[layer]]
name = "base"
result = "lub"

[[layer]]
name = "unrelated"
result = "!nope"

[reasons]
nope = "nope"

[python]
bool = "bool"
"#
    ))
    .unwrap();
    let t = |d| Operand::Dimensioned(d);
    let py = |k| Operand::Python(k);
    // i8 / u8 promotes to i16, an integer: the filter turns it into f32.
    assert_eq!(
        answer(&rules, Op::Divide, t(DType::I8), t(DType::U8)),
        Ok(DType::F32)
    );
    // f32 / i8 promotes to f32, not an integer: the filter leaves it alone.
    assert_eq!(
        answer(&rules, Op::Divide, t(DType::F32), t(DType::I8)),
        Ok(DType::F32)
    );
    assert_eq!(
        answer(&rules, Op::Divide, t(DType::C64), t(DType::I8)),
        Ok(DType::C64)
    );
    // A filter covers Python operands too (its operands default to `any`).
    assert_eq!(
        answer(&rules, Op::Divide, t(DType::I8), py(PyScalar::Bool)),
        Ok(DType::F32)
    );
    // Comparisons give bool wherever the inputs promote, and stay refused where not.
    assert_eq!(
        answer(&rules, Op::Equal, t(DType::U8), t(DType::F32)),
        Ok(DType::Bool)
    );
    assert_eq!(
        answer(&rules, Op::Add, t(DType::U8), t(DType::F32)),
        Ok(DType::F32)
    );
    let src = format!("{HEADER}{LATTICE}");
    let text = explained(&rules, &src, Op::Divide, t(DType::I8), t(DType::U8));
    assert!(
        text.contains("promote the pair to i16 (layer 3, \"base\")"),
        "{text}"
    );
}

#[test]
fn the_first_case_that_covers_a_pair_decides_it() {
    let rules = load(&format!(
        r#"
{LATTICE}
[reasons]
nope = "no kernel"

[[layer]]
name = "kernels"
result = "!nope"
cases = [
  # i16 results of i8 operands run; everything else that is i16 does not
  {{ rows = ["i8"], promoted = ["f32"] }},
  {{ promoted = ["i16"] }},
]

[[layer]]
name = "base"
cases = [
  {{ where = "lhs == rhs", result = "lhs" }},
  {{ result = "lub" }},
]
"#
    ))
    .unwrap();
    let t = |d| Operand::Dimensioned(d);
    // (i8, u8) -> i16: the first case covers the pair and passes it, so the second
    // case, an alternative within the same statement, is not consulted.
    assert_eq!(
        answer(&rules, Op::Add, t(DType::I8), t(DType::U8)),
        Ok(DType::I16)
    );
    assert_eq!(
        answer(&rules, Op::Add, t(DType::I8), t(DType::Bool)),
        Ok(DType::I8)
    );
    // (u8, i8) is not covered by the first case: the second refuses its i16.
    assert_eq!(
        answer(&rules, Op::Add, t(DType::U8), t(DType::I8)),
        Err("no kernel".into())
    );
    assert_eq!(
        answer(&rules, Op::Add, t(DType::U8), t(DType::I16)),
        Err("no kernel".into())
    );
    assert_eq!(
        answer(&rules, Op::Add, t(DType::U8), t(DType::F32)),
        Ok(DType::F32)
    );
    // Each case is a layer of its own, named after its statement.
    assert!(
        rules.layers[0].name.ends_with("(case 1 of 2)"),
        "{}",
        rules.layers[0].name
    );
    assert_eq!(rules.layers[0].statement, rules.layers[1].statement);
    assert_ne!(rules.layers[1].statement, rules.layers[2].statement);
}

#[test]
fn op_classes_may_name_classes_but_not_in_a_circle() {
    let rules = load(&format!(
        r#"
[op_classes]
both = ["arith", "equal"]
arith = ["add", "divide"]

{LATTICE}
[[layer]]
name = "every op in `both`"
ops = ["both"]
result = "lub"

[[layer]]
name = "base"
result = "f32"
"#
    ))
    .unwrap();
    assert_eq!(rules.layers[0].ops, [Op::Add, Op::Divide, Op::Equal]);
    let e = errors(
        r#"
[op_classes]
a = ["b"]
b = ["a"]

[[layer]]
name = "base"
result = "f32"
"#,
    );
    assert!(
        e.contains("op class `a` names itself through other classes"),
        "{e}"
    );
}

#[test]
fn dtype_classes_name_dtypes_kinds_and_classes_wherever_a_layer_selects() {
    let rules = load(&format!(
        r#"
[dtype_classes]
narrow = ["small", "u8"]
small = ["bool", "i8"]
wide = ["float", "complex", "i16"]

[reasons]
mixed = "mixed"

{LATTICE}
[[layer]]
name = "a narrow row with a wide column"
rows = ["narrow"]
cols = ["wide"]
result = "!mixed"

[[layer]]
name = "a promoted filter"
promoted = ["small"]
result = "i16"

[[layer]]
name = "base"
result = "lub"
"#
    ))
    .unwrap();
    let t = |a: DType, b: DType| answer(&rules, Op::Add, Operand::Dimensioned(a), Operand::Dimensioned(b));
    // Every member of `narrow` (through `small`) against every member of `wide`.
    for a in [DType::Bool, DType::I8, DType::U8] {
        for b in [DType::I16, DType::F32, DType::C64] {
            assert_eq!(t(a, b), Err("mixed".to_owned()), "{a} {b}");
        }
    }
    // `promoted = ["small"]`: what the base gives, filtered: i8 with i8 is i8, and so
    // is bool with i8; u8 with u8 (not in `small`) stays u8.
    assert_eq!(t(DType::I8, DType::I8), Ok(DType::I16));
    assert_eq!(t(DType::Bool, DType::I8), Ok(DType::I16));
    assert_eq!(t(DType::U8, DType::U8), Ok(DType::U8));
    assert_eq!(t(DType::F32, DType::F32), Ok(DType::F32));

    for (classes, message) in [
        (
            "p = [\"q\"]\nq = [\"p\"]",
            "dtype class `p` names itself through other classes",
        ),
        ("i8 = [\"u8\"]", "dtype class `i8` has the name of a dtype"),
        ("float = [\"u8\"]", "dtype class `float` has the name of a kind"),
        ("int = [\"u8\"]", "dtype class `int` has the name of a kind"),
        ("Big = [\"u8\"]", "bad dtype class name `Big`"),
        ("e = []", "dtype class `e` has no dtypes"),
        (
            "d = [\"u8\", \"integer\"]",
            "dtype `u8` is in dtype class `d` twice",
        ),
        ("d = [\"f64\"]", "dtype `f64` is not in `rules.dtypes`"),
        ("d = [\"nope\"]", "unknown dtype, kind or dtype class `nope`"),
    ] {
        let e = errors(&format!(
            "[dtype_classes]\n{classes}\n\n[[layer]]\nname = \"base\"\nresult = \"f32\"\n"
        ));
        assert!(e.contains(message), "{classes}: {e}");
        assert!(e.contains("t.toml:"), "{e}");
    }
    // A selector that names no class, dtype or kind says classes are possible.
    let e = errors("[[layer]]\nname = \"base\"\nrows = [\"nope\"]\nresult = \"f32\"\n");
    assert!(e.contains("a class of `[dtype_classes]`"), "{e}");
}

#[test]
fn a_dtype_class_selects_what_its_members_would_on_an_any_side() {
    // On an `any` side the kind `bool` also selects a Python bool; so does a class
    // that names it.
    let rules = load(
        r#"
[dtype_classes]
small = ["bool", "i8"]

[[layer]]
name = "small with small"
operands = ["any", "any"]
rows = ["small"]
cols = ["small"]
result = "c64"

[[layer]]
name = "base"
result = "f32"
"#,
    )
    .unwrap();
    let py_bool = Operand::Python(PyScalar::Bool);
    let t = |a: Operand, b: Operand| answer(&rules, Op::Add, a, b);
    assert_eq!(t(py_bool, Operand::Dimensioned(DType::I8)), Ok(DType::C64));
    assert_eq!(
        t(Operand::Scalar(DType::Bool), Operand::Dimensioned(DType::I8)),
        Ok(DType::C64)
    );
    assert_eq!(
        t(Operand::Dimensioned(DType::U8), Operand::Dimensioned(DType::I8)),
        Ok(DType::F32)
    );
}

#[test]
fn any_operands_take_a_result_and_promoted_needs_known_names() {
    let e = errors(
        r#"
[[layer]]
name = "listed any"
operands = ["any", "tensor"]
cells = ["i8 i8 = i8"]

[[layer]]
name = "base"
result = "f32"
promoted = ["f9"]
"#,
    );
    assert!(e.contains("`any` operands take a `result`"), "{e}");
    assert!(e.contains("unknown dtype, kind or dtype class `f9`"), "{e}");
}

/// The base check counts a mirrored layer's mirror image as a layer of its own:
/// a file whose layers leave pairs undecided is an error with or without mirrors.
#[test]
fn a_file_with_mirrored_layers_still_needs_every_pair_decided() {
    let src = format!(
        "{HEADER}[[layer]]\nname = \"one pair, both orders\"\nrows = [\"i8\"]\ncols = [\"u8\"]\nresult = \"i8\"\nmirrored = true\n"
    );
    let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
    assert!(
        e.contains("missing cell: no layer without `when` or `ops` has a result for (bool, bool)"),
        "{e}"
    );
}

/// `lub` without a `[lattice]` is named beside the layer's other errors.
#[test]
fn lub_without_a_lattice_is_named_beside_other_errors() {
    let e = errors("[[layer]]\nname = \"x\"\nrows = [\"f9\"]\nresult = \"lub\"\n");
    assert!(e.contains("unknown dtype, kind or dtype class `f9`"), "{e}");
    assert!(e.contains("`result = \"lub\"` needs a `[lattice]`"), "{e}");
    // A declared lattice that does not build has its own errors, and no other.
    let e = errors("[lattice]\nedges = 'i8 -> f9'\n[[layer]]\nname = \"x\"\nresult = \"lub\"\n");
    assert!(e.contains("unknown dtype `f9` in the lattice"), "{e}");
    assert!(!e.contains("needs a `[lattice]`"), "{e}");
}

#[test]
fn weak_types_promote_through_the_lattice_and_stay_weak() {
    // JAX's lattice in small: a weak int below the integers, a weak float below f32.
    let rules = load(
        r#"
[python]
int = "i16*"
float = "f32*"

[lattice]
edges = '''
bool -> i16*
i16* -> i8 u8
i8 u8 -> i16 -> f32*
f32* -> f32 -> c64
'''

[[layer]]
name = "comparisons give bool, weak where the promotion is"
ops = ["equal"]
promoted = ["bool", "integer", "float", "complex"]
result = "bool"

[[layer]]
name = "two Python scalars: the least upper bound of their weak types"
operands = ["python", "python"]
result = "lub"

[[layer]]
name = "a weak tensor or a Python scalar with a tensor"
operands = ["tensor", "weak"]
result = "lub"
mirrored = true

[[layer]]
name = "base"
result = "lub"
"#,
    )
    .unwrap();
    let promote = |op, lhs, rhs| {
        rules.with_table(|t| {
            t.promote_result(&t.default_options(), op, lhs, rhs)
                .map(|p| p.to_string())
                .map_err(|e| e.to_string())
        })
    };
    let t = Operand::Dimensioned;
    let py = Operand::Python;
    // A weak int gives way to any integer; with a float it is the float.
    assert_eq!(promote(Op::Add, t(DType::U8), py(PyScalar::Int)), Ok("u8".into()));
    assert_eq!(
        promote(Op::Add, t(DType::I8), Operand::Weak(DType::I16)),
        Ok("i8".into())
    );
    // Two weak types stay weak: int with float is the weak float.
    assert_eq!(
        promote(Op::Add, py(PyScalar::Int), py(PyScalar::Float)),
        Ok("weak:f32".into())
    );
    // i8 with u8 joins at i16, a strong type; bool with a Python int is the weak int.
    assert_eq!(promote(Op::Add, t(DType::I8), t(DType::U8)), Ok("i16".into()));
    assert_eq!(
        promote(Op::Add, t(DType::Bool), py(PyScalar::Int)),
        Ok("weak:i16".into())
    );
    // A result filter keeps the weakness of the promotion it tests.
    assert_eq!(
        promote(Op::Equal, py(PyScalar::Int), py(PyScalar::Float)),
        Ok("weak:bool".into())
    );
    assert_eq!(promote(Op::Equal, t(DType::I8), t(DType::U8)), Ok("bool".into()));
    // A filter with no `operands` sees weakly typed tensors too.
    assert_eq!(
        promote(Op::Equal, Operand::Weak(DType::F32), t(DType::I8)),
        Ok("weak:bool".into())
    );
    assert_eq!(
        promote(Op::Equal, Operand::Weak(DType::I16), t(DType::I8)),
        Ok("bool".into())
    );
    // A Python complex is not typed here: two Python scalars refuse it.
    assert!(promote(Op::Add, py(PyScalar::Int), py(PyScalar::Complex)).is_err());
}

#[test]
fn a_strong_layer_gives_the_dtype_of_a_weak_result() {
    // TensorFlow's maximum in small: promoted as add is, but it returns a plain
    // tensor, never a weakly typed one.
    let body = r#"
[python]
int = "i16*"
float = "f32*"

[lattice]
edges = '''
bool -> i16*
i16* -> i8 u8
i8 u8 -> i16 -> f32*
f32* -> f32 -> c64
'''

[[layer]]
name = "equal: a bool, as weak as the promotion, but strong for two weak i16"
ops = ["equal"]
result = "bool"
cases = [
  { operands = ["weak", "weak"], promoted = ["i16"], strong = true },
  { promoted = ["integer", "float"] },
  { operands = ["any", "any"], promoted = ["integer", "float"] },
]

[[layer]]
name = "divide promotes as add does, strongly typed"
ops = ["divide"]
result = "lub"
strong = true
cases = [
  { operands = ["any", "weak"], mirrored = true },
  { operands = ["python", "python"] },
]

[[layer]]
name = "weak tensors and two Python scalars"
result = "lub"
cases = [
  { operands = ["any", "weak"], mirrored = true },
  { operands = ["python", "python"] },
]

[[layer]]
name = "base"
result = "lub"
"#;
    let src = format!("{HEADER}{body}");
    let rules = promo_rules::load("t.toml", &src).unwrap();
    let promote = |op, lhs, rhs| {
        rules.with_table(|t| {
            t.promote_result(&t.default_options(), op, lhs, rhs)
                .map(|p| p.to_string())
                .map_err(|e| e.to_string())
        })
    };
    let (py, weak) = (Operand::Python, Operand::Weak);
    let (int, float) = (py(PyScalar::Int), py(PyScalar::Float));
    let b = Operand::Dimensioned(DType::Bool);
    // The same dtypes as add, never weak.
    assert_eq!(promote(Op::Add, int, float), Ok("weak:f32".into()));
    assert_eq!(promote(Op::Divide, int, float), Ok("f32".into()));
    assert_eq!(promote(Op::Add, b, weak(DType::I16)), Ok("weak:i16".into()));
    assert_eq!(promote(Op::Divide, b, weak(DType::I16)), Ok("i16".into()));
    assert_eq!(promote(Op::Divide, weak(DType::I16), b), Ok("i16".into()));
    // An `any` side without `rows` covers weakly typed tensors too.
    let w = weak(DType::I16);
    assert_eq!(promote(Op::Add, w, w), Ok("weak:i16".into()));
    assert_eq!(promote(Op::Divide, w, w), Ok("i16".into()));
    // A Python scalar with a tensor is typed as its weak type first.
    assert_eq!(promote(Op::Divide, b, int), Ok("i16".into()));
    assert_eq!(
        promote(Op::Divide, Operand::Dimensioned(DType::U8), float),
        Ok("f32".into())
    );
    // `promo explain` shows the path to the weak bound, and says the result is strong.
    let options = rules.with_table(|t| t.default_options());
    let text = promo_rules::explain(&rules, "t.toml", &src, &options, Op::Divide, int, float);
    assert!(
        text.contains("f32* is itself the bound") && text.contains("strong = true"),
        "{text}"
    );

    // A result filter keeps its promotion's weakness, unless it is `strong`.
    assert_eq!(promote(Op::Equal, int, float), Ok("weak:bool".into()));
    assert_eq!(promote(Op::Equal, w, int), Ok("weak:bool".into()));
    assert_eq!(promote(Op::Equal, w, w), Ok("bool".into()));
    assert_eq!(promote(Op::Equal, b, w), Ok("weak:bool".into()));
    let text = promo_rules::explain(&rules, "t.toml", &src, &options, Op::Equal, w, w);
    assert!(
        text.contains("promote the pair to i16*") && text.contains("strong = true"),
        "{text}"
    );

    // `strong` is for a `result`.
    let e = errors(
        r#"
[[layer]]
name = "strong cells"
cells = ["i8 u8 = i16"]
strong = true

[[layer]]
name = "base"
result = "f32"
"#,
    );
    assert!(e.contains("`strong` belongs to a layer with a `result`"), "{e}");
}

#[test]
fn weak_operands_join_as_listed_and_lub_star_bounds_their_dtypes() {
    // JAX in small: a weakly typed operand of any integer dtype joins as the weak
    // integer type, of any float dtype as the weak float; two weak operands join as
    // their dtypes do, and the bound is weak.
    let body = r#"
[python]
int = "i16*"
float = "f32*"

[lattice]
weak_operands = { bool = "bool", integer = "i16*", float = "f32*" }
edges = '''
bool -> i16*
i16* -> i8 u8
i8 u8 -> i16 -> f32*
f32* -> f32 -> c64
'''

[[layer]]
name = "all weak: the bound of their dtypes, weakly typed"
operands = ["weak", "weak"]
cases = [
  { rows = ["bool"], cols = ["bool"], result = "bool" },
  { result = "lub*" },
]

[[layer]]
name = "a weak tensor with a tensor"
operands = ["weak", "tensor"]
result = "lub"
mirrored = true

[[layer]]
name = "base"
result = "lub"
"#;
    let src = format!("{HEADER}{body}");
    let rules = promo_rules::load("t.toml", &src).unwrap();
    let promote = |lhs, rhs| {
        rules.with_table(|t| {
            t.promote_result(&t.default_options(), Op::Add, lhs, rhs)
                .map(|p| p.to_string())
                .map_err(|e| e.to_string())
        })
    };
    let (t, weak) = (Operand::Dimensioned, Operand::Weak);
    // A weak u8 is the weak integer: it gives way to i8, and joins bool as itself.
    assert_eq!(promote(weak(DType::U8), t(DType::I8)), Ok("i8".into()));
    assert_eq!(promote(t(DType::Bool), weak(DType::U8)), Ok("weak:i16".into()));
    assert_eq!(promote(weak(DType::I16), t(DType::U8)), Ok("u8".into()));
    assert_eq!(promote(weak(DType::U8), t(DType::F32)), Ok("f32".into()));
    // A weak bool joins as bool, a strong type.
    assert_eq!(promote(weak(DType::Bool), t(DType::U8)), Ok("u8".into()));
    // Two weak operands: their dtypes' bound, weakly typed.
    assert_eq!(promote(weak(DType::U8), weak(DType::I8)), Ok("weak:i16".into()));
    assert_eq!(promote(weak(DType::U8), weak(DType::U8)), Ok("weak:u8".into()));
    assert_eq!(promote(weak(DType::I8), weak(DType::F32)), Ok("weak:f32".into()));
    assert_eq!(promote(weak(DType::Bool), weak(DType::Bool)), Ok("bool".into()));
    // A Python int is typed as a weak i16 first.
    let int = Operand::Python(PyScalar::Int);
    assert_eq!(promote(int, weak(DType::U8)), Ok("weak:i16".into()));
    // `promo explain` says how a weak operand joined, and what `lub*` joined.
    let options = rules.with_table(|t| t.default_options());
    let explain = |lhs, rhs| promo_rules::explain(&rules, "t.toml", &src, &options, Op::Add, lhs, rhs);
    let text = explain(weak(DType::U8), t(DType::I8));
    assert!(
        text.contains("u8* joins as i16* (weak_operands)") && text.contains("i16* -> i8"),
        "{text}"
    );
    let text = explain(weak(DType::U8), weak(DType::I8));
    assert!(
        text.contains("result = \"lub*\"") && text.contains("u8 -> i16") && !text.contains("joins as"),
        "{text}"
    );

    // Mistakes: a value that is no node, a dtype selected twice, an unknown kind.
    for (map, message) in [
        (r#"{ integer = "u8*" }"#, "`u8*` is not a node of the lattice"),
        (
            r#"{ integer = "i16*", u8 = "i16*" }"#,
            "`u8` is selected by two keys of `weak_operands`",
        ),
        (
            r#"{ quaternion = "i16*" }"#,
            "unknown dtype, kind or dtype class `quaternion`",
        ),
        (r#"{ integer = "f9*" }"#, "unknown dtype `f9*`"),
        ("{}", "`weak_operands` must map at least one dtype or kind"),
    ] {
        let e = errors(&format!(
            "[lattice]\nweak_operands = {map}\nedges = 'bool -> i16* -> i8'\n[[layer]]\nname = \"x\"\nresult = \"lub\"\n"
        ));
        assert!(e.contains(message), "{map}: {e}");
    }
    // `lub*` needs a lattice, and its results are weak: not with `strong = true`.
    let e = errors("[[layer]]\nname = \"x\"\nresult = \"lub*\"\n");
    assert!(e.contains("`result = \"lub*\"` needs a `[lattice]`"), "{e}");
    let e = errors(&format!(
        "{LATTICE}[[layer]]\nname = \"x\"\nresult = \"lub*\"\nstrong = true\n"
    ));
    assert!(e.contains("`strong` cannot go with `result = \"lub*\"`"), "{e}");
}

#[test]
fn a_retype_layer_maps_operands_and_the_answer() {
    // JAX without 64-bit types: i16 operands are taken as i8, and so is an i16 answer.
    let src = format!(
        r#"
[options.small]
type = "bool"
default = false
doc = "no 16-bit types"

{LATTICE}
[[layer]]
name = "16 bits are 8"
when = {{ small = true }}
retype = {{ i16 = "i8" }}

[[layer]]
name = "base"
result = "lub"
"#
    );
    let rules = load(&src).unwrap();
    let at = |small: &str, lhs, rhs| {
        rules.with_table(|t| {
            let options = t.options_from([small]).unwrap();
            t.promote(
                &options,
                Op::Add,
                Operand::Dimensioned(lhs),
                Operand::Dimensioned(rhs),
            )
            .map_err(|e| e.to_string())
        })
    };
    // u8 with i8 joins at i16: i8 when 16-bit types are off.
    assert_eq!(at("small=false", DType::U8, DType::I8), Ok(DType::I16));
    assert_eq!(at("small=true", DType::U8, DType::I8), Ok(DType::I8));
    // An i16 operand is an i8 one first: i16 with u8 is then i8 with u8.
    assert_eq!(at("small=true", DType::I16, DType::U8), Ok(DType::I8));
    assert_eq!(at("small=true", DType::I16, DType::F32), Ok(DType::F32));
    // `promo explain` names the retyping layer and the operands it changed, if any.
    let explain = |lhs, rhs| {
        let options = rules.with_table(|t| t.options_from(["small=true"]).unwrap());
        let (l, r) = (Operand::Dimensioned(lhs), Operand::Dimensioned(rhs));
        promo_rules::explain(&rules, "t.toml", &src, &options, Op::Add, l, r)
    };
    let text = explain(DType::I16, DType::U8);
    assert!(
        text.contains("operands retyped first by layer 1, \"16 bits are 8\"")
            && text.contains("i16 as i8, the answer mapped the same way; here i16 as i8\n"),
        "{text}"
    );
    let text = explain(DType::U8, DType::F32);
    assert!(text.contains("; neither operand is one of them\n"), "{text}");
    let e = errors(
        r#"
[[layer]]
name = "bad retype"
retype = { i16 = "f9" }
result = "f32"

[[layer]]
name = "base"
result = "f32"
"#,
    );
    assert!(
        e.contains("unknown dtype") && e.contains("takes no `result`"),
        "{e}"
    );
}

/// Where `needle` starts in `src`, as `--> t.toml:LINE:COL` names it.
fn place_of(src: &str, needle: &str) -> String {
    let at = src
        .find(needle)
        .unwrap_or_else(|| panic!("no `{needle}` in the file"));
    let line = src[..at].matches('\n').count() + 1;
    let col = at - src[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("--> t.toml:{line}:{col}")
}

/// Every text of the file that reaches output, with room for a character.
const TEXTS: &str = r#"
[rules]
name = "t"
marker = "T"
title = "Tiny — a title"
version = "1.0 → 2"
verified = "by hand"
commutative = false
dtypes = ["i8", "u8"]

[options.o]
type = "bool"
default = false
doc = "an option, ¡sí!"

[reasons]
nope = "not here"

[[layer]]
name = "refused under o"
when = { o = true }
where = "lhs != rhs"
result = "!nope"

[[layer]]
name = "base"
cases = [{ where = "lhs == rhs", result = "lhs" }, { result = "i8" }]
"#;

#[test]
fn texts_that_reach_output_are_one_line_of_printable_text() {
    promo_rules::load("t.toml", TEXTS).unwrap();
    // (the text as written, the same with an escaped control character, what the
    // error names it)
    let cases = [
        (
            r#""Tiny — a title""#,
            r#""Tiny\n— a title""#,
            "`rules.title`",
            "U+000A",
        ),
        (r#""1.0 → 2""#, r#""1.0\t→ 2""#, "`rules.version`", "U+0009"),
        (r#""by hand""#, r#""by\u0085hand""#, "`rules.verified`", "U+0085"),
        (
            r#""an option, ¡sí!""#,
            r#""an option\u001b[31m""#,
            "`options.o.doc`",
            "U+001B",
        ),
        (r#""not here""#, r#""not \u202Ehere""#, "`reasons.nope`", "U+202E"),
        (
            r#""refused under o""#,
            r#""refused\u0000""#,
            "`layer.name`",
            "U+0000",
        ),
        (r#""base""#, r#""base\u2028""#, "`layer.name`", "U+2028"),
        (
            r#""lhs != rhs""#,
            r#""lhs != rhs\u2066""#,
            "`layer.where`",
            "U+2066",
        ),
        (
            r#""lhs == rhs""#,
            r#""lhs == rhs\u007f""#,
            "`layer.where`",
            "U+007F",
        ),
        (
            r#"nope = "#,
            r#""no\u0007pe" = "#,
            "reason key `no\\u{7}pe`",
            "U+0007",
        ),
    ];
    for (written, bad, what, code) in cases {
        assert_eq!(TEXTS.matches(written).count(), 1, "{written}");
        let src = TEXTS.replace(written, bad);
        let report = match promo_rules::load("t.toml", &src) {
            Ok(_) => panic!("accepted {bad}"),
            Err(d) => d.to_string(),
        };
        let message = format!(
            "error: {what} contains the control character {code}: rule-file texts are one line of printable text\n"
        );
        let at = report
            .find(&message)
            .unwrap_or_else(|| panic!("{bad}:\n{report}"));
        // The error points at the string, once (a case's name is its statement's).
        let next = report[at + message.len()..].lines().next().unwrap_or_default();
        assert_eq!(next.trim_start(), place_of(&src, bad), "{report}");
        assert_eq!(report.matches(&message).count(), 1, "{report}");
    }
}

/// A file with one choice option, `[options.NAME]` written as `key`.
fn with_option(key: &str, choices: &str, default: &str) -> String {
    format!(
        "{HEADER}\n[options.{key}]\ntype = \"choice\"\nchoices = [{choices}]\ndefault = \"{default}\"\n\n[[layer]]\nname = \"base\"\nresult = \"f32\"\n"
    )
}

#[test]
fn option_names_are_what_set_key_value_can_name() {
    for key in ["mode", "api_version", "x64", "_x", "\"quoted_is_fine\""] {
        let src = with_option(key, "\"a\"", "a");
        assert!(promo_rules::load("t.toml", &src).is_ok(), "{key}");
    }
    // (the key as written, the name as the message shows it)
    for (key, shown) in [
        ("\"a=b\"", "a=b"),
        ("\"x y\"", "x y"),
        ("\"\"", ""),
        ("\"a\\tb\"", "a\\u{9}b"),
        ("Mode", "Mode"),
        ("2d", "2d"),
        ("a-b", "a-b"),
        ("\"a.b\"", "a.b"),
        ("\"é\"", "é"),
    ] {
        let src = with_option(key, "\"a\"", "a");
        let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
        let message = format!(
            "error: bad option name `{shown}`: expected lowercase ASCII letters, digits and `_`, not starting with a digit (`--set KEY=VALUE` names it)\n"
        );
        assert!(e.contains(&message), "{key}: {e}");
        let at = place_of(&src, &format!("[options.{key}]"));
        // The error points at the name, one column after the `[options.` before it.
        let col: usize = at.rsplit(':').next().unwrap().parse().unwrap();
        let expected = format!("{}:{}", at.rsplit_once(':').unwrap().0, col + "[options.".len());
        assert!(e.contains(&expected), "{key}: {expected}\n{e}");
    }
}

#[test]
fn choice_words_are_distinct_words_set_key_value_can_name() {
    for words in ["\"eager\", \"static\"", "\"2025.12\"", "\"c++\", \"A-b_1\""] {
        let src = with_option("m", words, words.split('"').nth(1).unwrap());
        assert!(promo_rules::load("t.toml", &src).is_ok(), "{words}");
    }
    for (bad, shown) in [
        ("\"\"", ""),
        ("\"a=b\"", "a=b"),
        ("\"a b\"", "a b"),
        ("\"a\\u0007\"", "a\\u{7}"),
        ("\"é\"", "é"),
        ("\"a,b\"", "a,b"),
    ] {
        let src = with_option("m", &format!("\"a\", {bad}"), "a");
        let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
        let message = format!(
            "error: bad choice `{shown}` of option `m`: expected ASCII letters, digits, `_`, `.`, `+` and `-`\n"
        );
        assert!(e.contains(&message), "{bad}: {e}");
        assert!(e.contains(&place_of(&src, bad)), "{bad}: {e}");
    }
    // A word listed twice is an error at its second place, even as the default.
    let src = with_option("m", "\"a\", \"b\", \"a\"", "a");
    let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
    let second = src.rfind("\"a\"]").unwrap();
    assert!(
        e.contains("error: option `m` lists the choice `a` twice\n"),
        "{e}"
    );
    let (line, col) = (
        src[..second].matches('\n').count() + 1,
        second - src[..second].rfind('\n').unwrap(),
    );
    assert!(e.contains(&format!("--> t.toml:{line}:{col}\n")), "{e}");
    assert_eq!(e.matches("error:").count(), 1, "{e}");
}

#[test]
fn an_empty_cases_list_is_an_error_not_a_vanished_layer() {
    let body = "[reasons]\nnope = \"no\"\n\n[[layer]]\nname = \"refusals\"\nresult = \"!nope\"\ncases = []\n\n[[layer]]\nname = \"base\"\nresult = \"f32\"\n";
    let src = format!("{HEADER}{body}");
    let e = promo_rules::load("t.toml", &src).unwrap_err().to_string();
    assert!(
        e.contains("error: `cases` lists no case: give at least one, or leave `cases` out\n"),
        "{e}"
    );
    assert!(e.contains(&place_of(&src, "[]")), "{e}");
    // The layer's own keys are still read: its reason counts as used.
    assert_eq!(e.matches("error:").count(), 1, "{e}");
    // One case is a layer, as the statement without `cases` is.
    let one = src.replace("cases = []", "cases = [{ rows = [\"i8\"] }]");
    let rules = promo_rules::load("t.toml", &one).unwrap();
    assert_eq!(rules.layers[0].name, "refusals");
    assert_eq!(rules.layers[0].rows, [DType::I8.index()]);
}

#[test]
fn a_mirrored_layer_may_not_list_a_pair_against_its_mirror_image() {
    let with = |layer: &str| {
        format!("{HEADER}[[layer]]\nname = \"both ways\"\nmirrored = true\n{layer}\n\n[[layer]]\nname = \"base\"\nresult = \"f32\"\n")
    };
    // Agreeing with the mirror image is fine: the same dtype, or `lhs` seen from
    // the other side.
    for agreeing in [
        r#"cells = ["i8 u8 = i16", "u8 i8 = i16"]"#,
        r#"cells = ["i8 u8 = lhs", "u8 i8 = rhs"]"#,
        r#"cells = ["i8 u8 = lhs", "u8 i8 = i8"]"#,
        r#"cells = ["i8 i8 = lhs"]"#,
        "rows = [\"i8\", \"u8\"]\ncols = [\"i8\", \"u8\"]\nresult = \"i16\"",
        "rows = [\"integer\"]\ncols = [\"integer\"]\nwhere = \"lhs == rhs\"\nresult = \"lhs\"",
        "operands = [\"tensor\", \"python\"]\nrows = [\"i8\"]\nresult = \"lhs\"",
    ] {
        let src = with(agreeing);
        if let Err(e) = promo_rules::load("t.toml", &src) {
            panic!("{agreeing}:\n{e}");
        }
    }
    // (the layer, the cell the error points at, what it says)
    let contradicting = [
        (
            r#"cells = ["i8 u8 = i8", "u8 i8 = i16"]"#,
            "i16\"",
            "contradictory cells under `mirrored = true`: (u8, i8) is `i16`, but the mirror image of (i8, u8) makes it `i8`",
        ),
        (
            r#"cells = ["u8 i8 = lhs", "i8 u8 = lhs"]"#,
            "lhs\"]",
            "contradictory cells under `mirrored = true`: (i8, u8) is `i8`, but the mirror image of (u8, i8) makes it `u8`",
        ),
        (
            "matrix = '''\n    i8   u8\ni8  .    i16\nu8  f32  .\n'''",
            "f32  .",
            "contradictory cells under `mirrored = true`: (u8, i8) is `f32`, but the mirror image of (i8, u8) makes it `i16`",
        ),
        (
            "rows = [\"i8\", \"u8\"]\ncols = [\"i8\", \"u8\"]\nresult = \"lhs\"",
            "\"lhs\"",
            "contradictory cells under `mirrored = true`: (u8, i8) is `u8`, but the mirror image of (i8, u8) makes it `i8`",
        ),
    ];
    for (layer, at, message) in contradicting {
        let src = with(layer);
        let e = match promo_rules::load("t.toml", &src) {
            Ok(_) => panic!("accepted {layer}"),
            Err(d) => d.to_string(),
        };
        let at = src.rfind(at).unwrap();
        let line = src[..at].matches('\n').count() + 1;
        let col = at - src[..at].rfind('\n').unwrap();
        assert!(
            e.contains(&format!("error: {message}\n  --> t.toml:{line}:{col}\n")),
            "{layer}:\n{e}"
        );
        assert_eq!(e.matches("error:").count(), 1, "{layer}:\n{e}");
    }
}

#[test]
fn explain_shows_every_retype_layer_that_applied_in_order() {
    let src = format!(
        r#"{HEADER}{LATTICE}
[[layer]]
name = "16 bits are 8"
retype = {{ i16 = "i8" }}

[[layer]]
name = "division only"
ops = ["divide"]
retype = {{ f32 = "c64" }}

[[layer]]
name = "signed 8 bits are unsigned"
retype = {{ i8 = "u8" }}

[[layer]]
name = "base"
result = "lub"
"#
    );
    let rules = promo_rules::load("t.toml", &src).unwrap();
    let explain = |lhs, rhs| {
        let options = rules.with_table(|t| t.default_options());
        let (l, r) = (Operand::Dimensioned(lhs), Operand::Dimensioned(rhs));
        promo_rules::explain(&rules, "t.toml", &src, &options, Op::Add, l, r)
    };
    let at = |name: &str| place_of(&src, &format!("[[layer]]\nname = \"{name}\"")).replace("--> ", "");
    // i16 is taken as i8 by the first layer, and that i8 as u8 by the third.
    let text = explain(DType::I16, DType::U8);
    assert!(text.starts_with("t: add(i16, u8) = u8\n"), "{text}");
    let lines = [
        format!(
            "  operands retyped first by layer 1, \"16 bits are 8\" ({}): i16 as i8, the answer mapped the same way; here i16 as i8\n",
            at("16 bits are 8")
        ),
        format!(
            "  then retyped by layer 3, \"signed 8 bits are unsigned\" ({}): i8 as u8, the answer mapped the same way; here i8 as u8\n",
            at("signed 8 bits are unsigned")
        ),
    ];
    let first = text
        .find(&lines[0])
        .unwrap_or_else(|| panic!("{}\n{text}", lines[0]));
    let second = text
        .find(&lines[1])
        .unwrap_or_else(|| panic!("{}\n{text}", lines[1]));
    assert!(first < second, "{text}");
    // The layer for division does not apply to `add`.
    assert!(!text.contains("division only"), "{text}");
    // A layer that applies but changes neither operand is listed as such.
    let text = explain(DType::U8, DType::F32);
    assert!(
        text.contains("by layer 1, \"16 bits are 8\"")
            && text.contains("by layer 3, \"signed 8 bits are unsigned\"")
            && text.matches("; neither operand is one of them\n").count() == 2,
        "{text}"
    );
    // Both operands changed, by different layers.
    let text = explain(DType::I16, DType::I8);
    assert!(
        text.contains("here i16 as i8\n") && text.contains("here i8 as u8 and i8 as u8\n"),
        "{text}"
    );
}

#[test]
fn aliases_spell_dtypes_as_the_framework_does() {
    let rules = load(&format!(
        r#"
[aliases]
float = "f32"
"t.byte" = "i8"
num = ["i8", "i16"]

{LATTICE}
[[layer]]
name = "the common type"
result = "lub"
"#
    ))
    .unwrap();
    assert_eq!(
        rules.aliases,
        [
            ("float".to_owned(), vec![DType::F32]),
            ("num".to_owned(), vec![DType::I8, DType::I16]),
            ("t.byte".to_owned(), vec![DType::I8]),
        ]
    );
    rules.with_table(|t| {
        assert_eq!(t.dtype_named("float"), Ok(DType::F32));
        assert_eq!(t.dtype_named("T.BYTE"), Ok(DType::I8));
        assert_eq!(
            t.dtype_named("num").unwrap_err().to_string(),
            "dtype `num` is ambiguous under t: write `i8` (`t.byte`) or `i16`"
        );
    });
}

/// `rules.alias_prefix` spells every dtype under the framework's namespace, by every
/// name promo knows it by; `[aliases]` still decides a name it gives itself.
#[test]
fn an_alias_prefix_names_every_dtype_under_the_framework() {
    let body = format!(
        r#"
[aliases]
"fw.float" = "f32"

{LATTICE}
[[layer]]
name = "the common type"
result = "lub"
"#
    );
    let src = format!("{HEADER}{body}").replace(
        "commutative = false",
        "commutative = false\nalias_prefix = \"fw.\"",
    );
    let rules = promo_rules::load("t.toml", &src).unwrap();
    rules.with_table(|t| {
        for (name, d) in [
            ("fw.int8", DType::I8),
            ("fw.i8", DType::I8),
            ("FW.UINT8", DType::U8),
            ("fw.float32", DType::F32),
            ("fw.float", DType::F32),
            ("fw.complex64", DType::C64),
        ] {
            assert_eq!(t.dtype_named(name), Ok(d), "{name}");
        }
        // Only the rule set's dtypes, and only under the prefix.
        assert!(t.dtype_named("fw.float64").is_err());
        assert!(t.dtype_named("fw.").is_err());
    });
    let bad = format!("{HEADER}{body}").replace(
        "commutative = false",
        "commutative = false\nalias_prefix = \"f w.\"",
    );
    let e = promo_rules::load("t.toml", &bad).unwrap_err().to_string();
    assert!(e.contains("`rules.alias_prefix` `f w.` is not one word"), "{e}");
}

/// `rules.alias_prefix` may list several namespaces (`["np.", "numpy."]`): each
/// spells every dtype, and each is checked as one prefix is.
#[test]
fn an_alias_prefix_list_names_every_dtype_under_each_namespace() {
    let body = format!(
        r#"
[aliases]
"=i8" = "i16"

{LATTICE}
[[layer]]
name = "the common type"
result = "lub"
"#
    );
    let with = |prefix: &str| {
        format!("{HEADER}{body}").replace(
            "commutative = false",
            &format!("commutative = false\nalias_prefix = {prefix}"),
        )
    };
    let rules = promo_rules::load("t.toml", &with(r#"["fw.", "framework.core."]"#)).unwrap();
    rules.with_table(|t| {
        for (name, d) in [
            ("fw.int8", DType::I8),
            ("framework.core.int8", DType::I8),
            ("FRAMEWORK.CORE.F32", DType::F32),
            ("fw.short", DType::I16),
            // A leading `=` (NumPy's native byte order) is no setting.
            ("=i8", DType::I16),
        ] {
            assert_eq!(t.dtype_named(name), Ok(d), "{name}");
        }
        assert!(t.dtype_named("framework.int8").is_err());
        assert!(t.dtype_named("core.int8").is_err());
    });
    for (prefix, message) in [
        ("[]", "`rules.alias_prefix` is an empty list"),
        (
            r#"["fw.", "FW."]"#,
            "`rules.alias_prefix` `FW.` is given twice (as `fw.`)",
        ),
        (
            r#"["fw.", "f w."]"#,
            "`rules.alias_prefix` `f w.` is not one word",
        ),
        (
            r#"["fw.", "u"]"#,
            "`rules.alias_prefix` `u` makes `uint8` a name of `i8`",
        ),
        (r#"["fw.", "a=b."]"#, "`rules.alias_prefix` `a=b.` holds `=`"),
        ("3", "a prefix (\"torch.\") or a list of prefixes"),
        ("[3]", "invalid type: integer `3`, expected a string"),
    ] {
        let e = promo_rules::load("t.toml", &with(prefix))
            .unwrap_err()
            .to_string();
        assert!(e.contains(message), "{prefix}: {e}");
    }
}

#[test]
fn alias_mistakes_point_at_their_text() {
    let e = errors(&format!(
        r#"
[aliases]
i4 = "i8"
half = "f64"
Half = "f32"
long = "i64"
wide = "float32"
two = ["i8"]
twice = ["i8", "i8"]
bad = 3
"sp ace" = "i8"

{LATTICE}
[[layer]]
name = "the common type"
result = "lub"
"#
    ));
    for (message, at) in [
        ("alias `i4` is the canonical name of `i4`: an alias may not rename a dtype", "t.toml:12:1"),
        // Keys compare in byte order: `Half` comes first.
        ("alias `half` is given twice (as `Half`): names are compared without case", "t.toml:13:1"),
        ("dtype `i64` of alias `long` is not in `rules.dtypes`", "t.toml:15:8"),
        ("write dtype `float32` by its canonical name `f32`", "t.toml:16:8"),
        ("bad value for alias `two`: expected a dtype name, or a list of two or more for a name that is ambiguous", "t.toml:17:7"),
        ("alias `twice` lists a dtype twice", "t.toml:18:9"),
        ("bad value for alias `bad`", "t.toml:19:7"),
        ("alias `sp ace` is not one word", "t.toml:20:1"),
    ] {
        assert!(e.contains(&format!("error: {message}")), "{message}\n{e}");
        let after = &e[e.find(&format!("error: {message}")).unwrap()..];
        assert!(after.lines().nth(1).unwrap().ends_with(at), "{message} at {at}\n{e}");
    }
}

#[test]
fn by_promoted_gives_a_result_for_each_promoted_dtype() {
    let body = format!(
        r#"
{LATTICE}
[reasons]
nope = "no kernel"

[[layer]]
name = "quotients"
ops = ["divide"]
operands = ["tensor", "tensor"]
rows = ["i8"]
cols = ["u8", "i8", "f32", "c64"]
mirrored = true
by_promoted = {{ i16 = "f32", i8 = "!nope", complex = "lhs" }}

[[layer]]
name = "base"
cases = [
  {{ where = "lhs == rhs", result = "lhs" }},
  {{ result = "lub" }},
]
"#
    );
    let rules = load(&body).unwrap();
    let t = |d| Operand::Dimensioned(d);
    let divide = |a, b| answer(&rules, Op::Divide, t(a), t(b));
    // Each entry tests what the layers after the statement give: the entries are
    // tried in turn, whichever comes first in the map.
    assert_eq!(divide(DType::I8, DType::U8), Ok(DType::F32));
    assert_eq!(divide(DType::I8, DType::I8), Err("no kernel".into()));
    assert_eq!(divide(DType::I8, DType::C64), Ok(DType::I8));
    // The mirror image: (c64, i8) is covered by the columns written as rows, and
    // `lhs` becomes `rhs`; (u8, i8) by the first entry's mirror.
    assert_eq!(divide(DType::C64, DType::I8), Ok(DType::I8));
    assert_eq!(divide(DType::U8, DType::I8), Ok(DType::F32));
    // A promotion no key selects is left to the layers after the statement, and so
    // is a pair the layer does not cover.
    assert_eq!(divide(DType::I8, DType::F32), Ok(DType::F32));
    assert_eq!(divide(DType::U8, DType::U8), Ok(DType::U8));
    assert_eq!(divide(DType::I16, DType::U8), Ok(DType::I16));
    // Not a divide: the map does not apply.
    assert_eq!(
        answer(&rules, Op::Add, t(DType::I8), t(DType::U8)),
        Ok(DType::I16)
    );
    let src = format!("{HEADER}{body}");
    let text = explained(&rules, &src, Op::Divide, t(DType::I8), t(DType::I8));
    assert!(text.contains("\"quotients (promoted to i8)\""), "{text}");
    assert!(text.contains("promote the pair to i8"), "{text}");
}

#[test]
fn by_promoted_takes_no_result_and_selects_each_dtype_once() {
    let with_result = errors(
        r#"
[[layer]]
name = "both"
result = "f32"
by_promoted = { i16 = "f32" }
"#,
    );
    assert!(
        with_result.contains("takes no `result` or `promoted`"),
        "{with_result}"
    );
    assert!(with_result.contains("t.toml:14:"), "{with_result}");
    let twice = errors(
        r#"
[[layer]]
name = "twice"
by_promoted = { integer = "f32", i16 = "c64" }

[[layer]]
name = "base"
result = "lhs"
"#,
    );
    assert!(
        twice.contains("`by_promoted` selects `i16` under two keys"),
        "{twice}"
    );
    let unknown = errors(
        r#"
[[layer]]
name = "unknown"
by_promoted = { f9 = "f32" }

[[layer]]
name = "base"
result = "lhs"
"#,
    );
    assert!(unknown.contains("f9"), "{unknown}");
    assert!(unknown.contains("t.toml:13:17"), "{unknown}");
}

/// A rule file of operations of every arity: unary operations on the diagonal, a
/// reduction's `dtype=` form, a list folded or taken at once, in-place operations
/// through `store`, and `[[compute]]` statements beside the results.
fn operations_file(list: &str) -> String {
    format!(
        r#"
[rules]
name = "t"
marker = "T"
title = "t"
version = "1"
commutative = false
list = "{list}"
dtypes = ["bool", "i8", "u8", "i16", "f32", "c64"]
ops = ["add", "sqrt", "sum", "sum_dtype", "concatenate", "store", "add_inplace"]

[reasons]
narrowing = "cannot cast the result into the output"
{LATTICE}
[[compute]]
name = "sums of small integers accumulate in i16"
ops = ["sum"]
rows = ["i8", "u8"]
result = "i16"

[[compute]]
name = "i16 += u8 computes in f32, where i16 + u8 computes in i16"
ops = ["add_inplace"]
cells = ["i16 u8 = f32"]

[[layer]]
name = "sqrt of an integer is f32"
ops = ["sqrt"]
rows = ["bool", "integer"]
result = "f32"

[[layer]]
name = "sum with dtype= is that dtype"
ops = ["sum_dtype"]
result = "rhs"

[[layer]]
name = "a result is stored into an array of its own kind or above"
ops = ["store"]
cases = [{{ where = "kind(lhs) <= kind(rhs)", result = "rhs" }}, {{ result = "!narrowing" }}]

[[layer]]
name = "base"
result = "lub"
"#
    )
}

#[test]
fn operations_of_every_arity_read_cells_of_two_operands() {
    use promo_table::{ListRule, Outcome, Promotion};
    let rules = promo_rules::load("ops.toml", &operations_file("fold")).unwrap();
    assert_eq!(rules.results_from(), 2);
    let t = |d: DType| Operand::Dimensioned(d);
    rules.with_table(|table| {
        let options = table.default_options();
        let apply = |op, operands: &[Operand], out| table.apply(&options, op, operands, out);
        let strong = |d| Promotion {
            dtype: d,
            weak: false,
        };
        // One operand: the diagonal.
        assert_eq!(
            apply(Op::Sqrt, &[t(DType::I8)], None).unwrap().result,
            strong(DType::F32)
        );
        assert_eq!(
            apply(Op::Sqrt, &[t(DType::C64)], None).unwrap().result,
            strong(DType::C64)
        );
        // The compute dtype: a `[[compute]]` statement, else the result's.
        let sum = apply(Op::Sum, &[t(DType::U8)], None).unwrap();
        assert_eq!(
            sum,
            Outcome {
                result: strong(DType::U8),
                compute: DType::I16
            }
        );
        assert_eq!(
            apply(Op::Sum, &[t(DType::F32)], None).unwrap().compute,
            DType::F32
        );
        // A reduction's dtype= is its second operand.
        assert_eq!(
            apply(Op::SumDtype, &[t(DType::I8), t(DType::C64)], None)
                .unwrap()
                .result,
            strong(DType::C64)
        );
        // A list: the left fold.
        let list = [t(DType::I8), t(DType::U8), t(DType::F32)];
        assert_eq!(
            apply(Op::Concatenate, &list, None).unwrap().result,
            strong(DType::F32)
        );
        // out= and in place: the operation, then the store.
        assert_eq!(
            apply(Op::Add, &[t(DType::I8), t(DType::U8)], Some(t(DType::F32)))
                .unwrap()
                .result,
            strong(DType::F32)
        );
        let narrowing = apply(Op::Add, &[t(DType::I8), t(DType::F32)], Some(t(DType::I16)));
        assert_eq!(
            narrowing.unwrap_err().to_string(),
            "cannot cast the result into the output"
        );
        let inplace = apply(Op::AddInplace, &[t(DType::I16), t(DType::I8)], None).unwrap();
        assert_eq!(inplace.result, strong(DType::I16));
        // In place, it computes as its operation does, unless a `[[compute]]`
        // statement names the in-place operation.
        assert_eq!(inplace.compute, DType::I16);
        let named = apply(Op::AddInplace, &[t(DType::I16), t(DType::U8)], None).unwrap();
        assert_eq!(named.result, strong(DType::I16));
        assert_eq!(named.compute, DType::F32);
        assert_eq!(
            apply(Op::Add, &[t(DType::I16), t(DType::U8)], None)
                .unwrap()
                .compute,
            DType::I16
        );
        assert!(apply(Op::AddInplace, &[t(DType::I8), t(DType::F32)], None).is_err());
        // A count the operation does not take.
        let wrong = apply(Op::Sqrt, &[t(DType::I8), t(DType::I8)], None).unwrap_err();
        assert_eq!(wrong.to_string(), "`sqrt` takes one operand, not 2");
        assert!(apply(Op::Concatenate, &[t(DType::I8)], None).is_err());
        assert_eq!(table.list, ListRule::Fold);
    });
    // A list taken at once: the pairs' answers are i8, u8 and i16, and i16 is the
    // one every operand goes into.
    let common = promo_rules::load("ops.toml", &operations_file("common")).unwrap();
    common.with_table(|table| {
        let o = table.default_options();
        let list = [t(DType::I8), t(DType::U8), t(DType::I16)];
        assert_eq!(
            table
                .apply(&o, Op::Concatenate, &list, None)
                .unwrap()
                .result
                .dtype,
            DType::I16
        );
    });
    let bad = promo_rules::load("ops.toml", &operations_file("zip"))
        .unwrap_err()
        .to_string();
    assert!(
        bad.contains("unknown list rule `zip`: `fold`, `common` or `sequence`"),
        "{bad}"
    );
}

/// `list = "sequence"`: NumPy's reduction of a DType sequence, ranked by
/// `list_order`; the order is checked against `rules.dtypes`.
#[test]
fn a_sequence_list_is_ranked_by_list_order() {
    let t = |d: DType| Operand::Dimensioned(d);
    let order = r#"sequence"
list_order = ["bool", "i8", "u8", "i16", "f32", "c64"]
#"#;
    let rules = promo_rules::load("ops.toml", &operations_file(order)).unwrap();
    rules.with_table(|table| {
        let o = table.default_options();
        let concat = |list: &[DType]| {
            let list: Vec<Operand> = list.iter().map(|&d| t(d)).collect();
            table
                .apply(&o, Op::Concatenate, &list, None)
                .map(|x| x.result.dtype)
        };
        // The lattice's answers, whatever the order, where every pair promotes.
        assert_eq!(concat(&[DType::I8, DType::U8, DType::F32]), Ok(DType::F32));
        assert_eq!(concat(&[DType::F32, DType::U8, DType::I8]), Ok(DType::F32));
        assert_eq!(concat(&[DType::U8, DType::I8]), Ok(DType::I16));
        assert_eq!(
            concat(&[DType::Bool, DType::Bool, DType::Bool, DType::I8]),
            Ok(DType::I8)
        );
        assert_eq!(
            concat(&[DType::C64, DType::I16, DType::U8, DType::Bool, DType::I8]),
            Ok(DType::C64)
        );
    });
    for (list, order, error) in [
        ("sequence", "", "`list = \"sequence\"` needs `list_order`"),
        (
            "fold",
            r#"["bool"]"#,
            "`list_order` is read only with `list = \"sequence\"`",
        ),
        (
            "sequence",
            r#"["bool", "i8", "u8", "i16", "f32"]"#,
            "`list_order` leaves out c64",
        ),
        (
            "sequence",
            r#"["bool", "i8", "u8", "i16", "f32", "c64", "i8"]"#,
            "`list_order` names `i8` twice",
        ),
        (
            "sequence",
            r#"["bool", "i8", "u8", "i16", "f32", "c64", "u16"]"#,
            "`list_order` names `u16`, which is not in `rules.dtypes`",
        ),
    ] {
        let key = if order.is_empty() {
            String::new()
        } else {
            format!("\nlist_order = {order}")
        };
        let src = operations_file(&format!("{list}\"{key}\n#"));
        let bad = promo_rules::load("ops.toml", &src).unwrap_err().to_string();
        assert!(bad.contains(error), "{list} {order}: {bad}");
    }
}
