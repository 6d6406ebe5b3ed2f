//! Every operation of every arity the real frameworks were asked about
//! (`tests/data/operations/*.json`, dumped by `tools/oracles/operations/`), compared
//! with what the bundled rule files answer (docs/operations.md).
//!
//! The rule files are read here at run time (the bundled tables are the same
//! answers compiled: `tests/flat_tables.rs`), so that a rule-file edit is checked
//! without rebuilding promo-core. Each rule set lists the operations it answers for;
//! for those, every case must agree: the result's dtype and weakness, or a refusal.
//! Each test also names the operations it expects the rule set to cover, so that an
//! operation dropped from a rule file fails here, and it prints the kinds of
//! operation the data has that the rule set does not answer yet.

use promo_table::{Op, OpKind, Operand, Promotion, RuleTable};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The operation a data group names, as promo calls it.
fn op_of(kind: &str, op: &str) -> Op {
    let name = match (kind, op) {
        ("reduction_dtype", _) => format!("{op}_dtype"),
        ("inplace", "add" | "subtract" | "multiply" | "divide") => format!("{op}_inplace"),
        _ => op.to_owned(),
    };
    name.parse().unwrap_or_else(|e| panic!("{kind} {op}: {e}"))
}

/// What one comparison found.
#[derive(Default)]
struct Report {
    compared: usize,
    mismatches: Vec<String>,
    /// (kind, op) groups of the data the rule set does not answer for, with their
    /// case counts.
    not_covered: BTreeMap<String, usize>,
    /// Cases whose answer is not a dtype (NumPy's `real` of a Python scalar hands
    /// the scalar back).
    not_dtypes: usize,
    /// The operations compared.
    covered: Vec<Op>,
    /// Cases whose compute dtype the framework shows, compared (the operation's
    /// result agreeing).
    computes: usize,
    /// Those whose compute dtype differs from promo's, of operations a
    /// `[[compute]]` statement names (an in-place operation: it or its operation).
    compute_mismatches: Vec<String>,
    /// Those of the other operations (which compute in their result's dtype unless
    /// a statement says otherwise): none may differ either, so that a compute dtype
    /// the data shows is stated.
    compute_unstated: Vec<String>,
}

fn parse_operand(v: &Value) -> Operand {
    let s = v.as_str().unwrap_or_else(|| panic!("operand {v}"));
    s.parse().unwrap_or_else(|_| panic!("operand {s}"))
}

fn parse_result(s: &str) -> Option<Promotion> {
    let (weak, d) = match s.strip_prefix("weak:") {
        Some(d) => (true, d),
        None => (false, s),
    };
    Some(Promotion {
        dtype: d.parse().ok()?,
        weak,
    })
}

fn compare(name: &str) -> Report {
    let path = root().join("rules").join(format!("{name}.toml"));
    let src = std::fs::read_to_string(&path).unwrap();
    let model = promo_rules::load(&path.to_string_lossy(), &src).unwrap_or_else(|d| panic!("{d}"));
    let data_path = root().join("tests/data/operations").join(format!("{name}.json"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&data_path).unwrap()).unwrap();
    // The operations whose compute dtype a `[[compute]]` statement states.
    let stated: Vec<Op> = model
        .layers
        .iter()
        .filter(|l| l.compute)
        .flat_map(|l| {
            if l.ops.is_empty() {
                Op::ALL.to_vec()
            } else {
                l.ops.clone()
            }
        })
        .collect();
    model.with_table(|table| compare_table(name, table, &data, &stated))
}

fn compare_table(name: &str, table: &RuleTable<'_>, data: &Value, stated: &[Op]) -> Report {
    let mut report = Report::default();
    for group in data["groups"].as_array().unwrap() {
        let kind = group["kind"].as_str().unwrap();
        let op_name = group["op"].as_str().unwrap();
        let op = op_of(kind, op_name);
        let cases = group["cases"].as_array().unwrap();
        // `out=` is the operation, then a store into the out array.
        if !table.supports(op) || (kind == "out" && !table.supports(Op::Store)) {
            *report.not_covered.entry(format!("{kind} {op_name}")).or_default() += cases.len();
            continue;
        }
        // An `out=` group reads the operation's cells and then the store's.
        let reads: &[Op] = if kind == "out" { &[op, Op::Store] } else { &[op] };
        for &op in reads {
            if !report.covered.contains(&op) {
                report.covered.push(op);
            }
        }
        let settings: Vec<String> = group["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        let options = table
            .options_from(settings.iter().map(String::as_str))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for case in cases {
            let case = case.as_array().unwrap();
            let mut operands: Vec<Operand> = case[0].as_array().unwrap().iter().map(parse_operand).collect();
            let out = (kind == "out").then(|| operands.pop().unwrap());
            let expected = match case[1].as_str() {
                Some(s) => match parse_result(s) {
                    Some(p) => Some(p),
                    None => {
                        report.not_dtypes += 1;
                        continue;
                    }
                },
                None => None,
            };
            let got = table.apply(&options, op, &operands, out);
            // The dtype the framework computed in, where the oracle saw it.
            let compute = case.get(3).and_then(|c| c.get("compute")).and_then(Value::as_str);
            if let (Ok(o), Some(c)) = (&got, compute) {
                report.computes += 1;
                let base = match op.kind() {
                    OpKind::Inplace(base) => base,
                    _ => op,
                };
                if o.compute.name() != c {
                    let shown: Vec<String> = case[0]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.to_string())
                        .collect();
                    let line = format!(
                        "{settings:?} {kind} {op_name} [{}] -> {}: computed in {c}, promo {}",
                        shown.join(", "),
                        o.result,
                        o.compute
                    );
                    if stated.contains(&op) || stated.contains(&base) {
                        report.compute_mismatches.push(line);
                    } else {
                        report.compute_unstated.push(line);
                    }
                }
            }
            if kind == "compute" {
                continue; // the result: compared with the promotion data
            }
            report.compared += 1;
            let agrees = match (&got, expected) {
                (Ok(o), Some(p)) => o.result == p,
                (Err(_), None) => true,
                _ => false,
            };
            if !agrees {
                let shown: Vec<String> = case[0]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                report.mismatches.push(format!(
                    "{settings:?} {kind} {op_name} [{}]: framework {}, promo {}",
                    shown.join(", "),
                    match expected {
                        Some(p) => p.to_string(),
                        None => format!("refuses ({})", case.get(2).and_then(Value::as_str).unwrap_or("")),
                    },
                    match got {
                        Ok(o) => o.result.to_string(),
                        Err(e) => format!("refuses ({e})"),
                    }
                ));
            }
        }
    }
    report
}

/// Compares rule set `name` and requires every case of the operations it covers to
/// agree, `expected` to be those operations' kinds, every operation of the data to be
/// covered, and the counts `[cases, operations, answers that are no dtype, compute
/// dtypes]` to be `counts` (a case the data gains or loses fails here).
fn conform(name: &str, expected: &[OpKind], counts: [usize; 4]) {
    let report = compare(name);
    assert!(
        report.not_covered.is_empty(),
        "{name}: not covered: {:?}",
        report.not_covered
    );
    assert_eq!(
        [
            report.compared,
            report.covered.len(),
            report.not_dtypes,
            report.computes
        ],
        counts,
        "{name}: [cases, operations, no dtype, compute dtypes]"
    );
    let shown = report.mismatches.len().min(40);
    assert!(
        report.mismatches.is_empty(),
        "{name}: {} of {} cases differ:\n{}",
        report.mismatches.len(),
        report.compared,
        report.mismatches[..shown].join("\n")
    );
    let mut kinds: Vec<OpKind> = Vec::new();
    for op in &report.covered {
        let kind = match op.kind() {
            OpKind::ReductionDtype(_) => OpKind::ReductionDtype(Op::Sum),
            OpKind::Inplace(_) => OpKind::Inplace(Op::Add),
            k => k,
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    for k in expected {
        assert!(kinds.contains(k), "{name}: no operation of kind {k:?} is covered");
    }
    eprintln!(
        "{name}: {} cases of {} operations agree; {} answers are no dtype; not covered yet: {:?}",
        report.compared,
        report.covered.len(),
        report.not_dtypes,
        report.not_covered
    );
    // Compute dtypes: every one the framework shows must agree.
    eprintln!(
        "{name}: compute dtypes: {} of {} shown agree; {} differ in operations no [[compute]] statement names",
        report.computes - report.compute_mismatches.len() - report.compute_unstated.len(),
        report.computes,
        report.compute_unstated.len(),
    );
    {
        let shown = report.compute_mismatches.len().min(40);
        assert!(
            report.compute_mismatches.is_empty(),
            "{name}: {} of {} compute dtypes differ:\n{}",
            report.compute_mismatches.len(),
            report.computes,
            report.compute_mismatches[..shown].join("\n")
        );
    }
    // And of every other operation: a compute dtype the framework shows that is not
    // the result's must be stated.
    {
        let shown = report.compute_unstated.len().min(40);
        assert!(
            report.compute_unstated.is_empty(),
            "{name}: {} of {} compute dtypes differ in operations no [[compute]] statement names:\n{}",
            report.compute_unstated.len(),
            report.computes,
            report.compute_unstated[..shown].join("\n")
        );
    }
}

#[test]
fn numpy_operations_match_numpy() {
    conform(
        "numpy",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [21_030, 52, 8, 4543],
    );
}

#[test]
fn torch_operations_match_pytorch() {
    // `out=` groups (`torch.add(a, b, out=c)`) count as their operation's kind
    // (elementwise, unary): the store they end in is no group of its own.
    conform(
        "torch",
        &[
            OpKind::Elementwise,
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [27_699, 58, 0, 6174],
    );
}

#[test]
fn jax_operations_match_jax() {
    conform(
        "jax",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [60_716, 49, 0, 1764],
    );
}

#[test]
fn tensorflow_operations_match_tensorflow() {
    conform(
        "tensorflow",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [14_734, 46, 0, 0],
    );
}

#[test]
fn array_api_operations_match_array_api_strict() {
    conform(
        "array_api",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [15_780, 44, 0, 0],
    );
}

#[test]
fn mlx_operations_match_mlx() {
    conform(
        "mlx",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [5336, 47, 0, 0],
    );
}

#[test]
fn keras_operations_match_keras() {
    conform(
        "keras",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
        ],
        [3798, 44, 0, 62],
    );
}

#[test]
fn tinygrad_operations_match_tinygrad() {
    conform(
        "tinygrad",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [5003, 42, 0, 357],
    );
}

#[test]
fn paddle_operations_match_paddlepaddle() {
    conform(
        "paddle",
        &[
            OpKind::Unary,
            OpKind::Reduction,
            OpKind::ReductionDtype(Op::Sum),
            OpKind::Binary,
            OpKind::List,
            OpKind::Inplace(Op::Add),
        ],
        [10_491, 54, 0, 0],
    );
}

/// A rule set of binary promotion only answers no other kind of operation.
#[test]
fn seed_rule_sets_answer_binary_operations_only() {
    for name in ["openvino", "kernel_float", "dali"] {
        let path = root().join("rules").join(format!("{name}.toml"));
        let src = std::fs::read_to_string(&path).unwrap();
        let model = promo_rules::load(&path.to_string_lossy(), &src).unwrap();
        model.with_table(|t| {
            for &op in Op::ALL {
                assert_eq!(
                    t.supports(op),
                    t.ops.contains(&op) || (t.ops.is_empty() && op.kind() == OpKind::Elementwise),
                    "{name} {op}"
                );
            }
            let x = Operand::Dimensioned(t.dtypes[0]);
            let refused = t.apply(&t.default_options(), Op::Sqrt, &[x], None);
            assert!(refused.is_err(), "{name}: sqrt answered");
        });
    }
}
