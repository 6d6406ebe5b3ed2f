//! `a OP b` as promo computes it against what the frameworks computed, element by
//! element: `tests/data/compute/`, dumped by `tools/oracles/compute/` from NumPy
//! (with ml_dtypes), PyTorch, JAX (both `jax_enable_x64` settings), TensorFlow
//! and MLX on the CPU. Every case, of two arrays or of an array with a Python
//! scalar, is computed on every backend this CPU has and compared bit for bit,
//! but NaN by class where the result format has several NaN codes (the data's
//! README says why), and the zero `maximum` and `minimum` give for ±0 ties where
//! the framework's answer depends on the element's position (PyTorch, TensorFlow
//! `f32`/`f64`). A case the framework refused must be refused by promo too.

use flate2::read::GzDecoder;
use promo_core::cast::{element_size, Backend};
use promo_core::compute::{Computation, Scalar, Semantics, Side};
use promo_core::{rules, DType, Op};
use promo_tests::data_path;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;

/// One data set: the rule set and settings it was made with, and its cases.
struct DataSet {
    name: &'static str,
    rules: &'static str,
    settings: &'static [&'static str],
    /// The counts pinned: cases of two arrays computed and compared, elements.
    pinned: (usize, usize),
    /// The counts pinned of the Python scalar cases: cases (refused ones
    /// included), the refused ones, elements compared.
    pinned_scalar: (usize, usize, usize),
}

const DATA_SETS: &[DataSet] = &[
    DataSet {
        name: "numpy",
        rules: "numpy",
        settings: &[],
        pinned: (9408, 15888560),
        pinned_scalar: (11424, 426, 1737644),
    },
    DataSet {
        name: "torch",
        rules: "torch",
        settings: &["device=cpu"],
        pinned: (3888, 4411360),
        pinned_scalar: (7344, 2852, 769858),
    },
    DataSet {
        name: "jax_x32",
        rules: "jax",
        settings: &["jax_enable_x64=false", "device=cpu"],
        pinned: (6348, 9952928),
        pinned_scalar: (9384, 1610, 1421372),
    },
    DataSet {
        name: "jax_x64",
        rules: "jax",
        settings: &["jax_enable_x64=true", "device=cpu"],
        pinned: (8112, 11393696),
        pinned_scalar: (10608, 1058, 1708340),
    },
    DataSet {
        name: "tensorflow",
        rules: "tensorflow",
        settings: &["dtype_conversion_mode=all", "device=cpu"],
        pinned: (4800, 2937204),
        pinned_scalar: (8160, 4243, 650866),
    },
    DataSet {
        name: "mlx",
        rules: "mlx",
        settings: &["device=cpu"],
        pinned: (2028, 3758244),
        pinned_scalar: (5304, 360, 789960),
    },
];

/// The Python scalar cases where promo and the framework disagree, each with
/// what is known: FINDINGS.md does not state these, so they are listed here, and
/// the test fails when one of them agrees (or is not found) as well as when any
/// other case disagrees. (data set, op, lhs, rhs, what happens.)
const SCALAR_DISAGREEMENTS: &[(&str, &str, &str, &str, &str)] = &[(
    "tensorflow",
    "add",
    "u64",
    "py:2",
    "TensorFlow refuses `u64 tensor + -1` (SystemError: EagerTensor returned a result with an \
     exception set) but computes `-1 + u64 tensor`, `u64 - -1`, `u64 * -1` and the other ops with \
     -1 wrapped to 2^64 - 1; promo computes it as those (wrapping)",
)];

fn read_json(name: &str) -> Value {
    let path = data_path(&format!("compute/{name}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_blob(file: &str) -> Vec<u8> {
    let path = data_path(&format!("compute/{file}"));
    let gz = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    GzDecoder::new(&gz[..])
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

fn codes(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list of codes")
        .iter()
        .map(|c| c.as_u64().expect("a code"))
        .collect()
}

/// The inputs of one case of two arrays (README, "The inputs of element k").
fn case_inputs(inputs: &Value, kind: &str, lhs: &str, rhs: &str) -> (Vec<u64>, Vec<u64>) {
    let ty = |t: &str| &inputs["types"][t];
    if kind == "all" {
        let n = if lhs == "bool" {
            2
        } else {
            1u64 << ty(lhs)["bits"].as_u64().expect("bits")
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for k in 0..n * n {
            a.push(k % n);
            b.push(k / n);
        }
        return (a, b);
    }
    let (sa, sb) = (codes(&ty(lhs)["specials"]), codes(&ty(rhs)["specials"]));
    let (ra, rb) = (codes(&ty(lhs)["random_lhs"]), codes(&ty(rhs)["random_rhs"]));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for k in 0..sa.len() * sb.len() {
        a.push(sa[k % sa.len()]);
        b.push(sb[k / sa.len()]);
    }
    for k in 0..ra.len().min(rb.len()) {
        a.push(ra[k]);
        b.push(rb[k]);
    }
    (a, b)
}

/// Codes into a buffer of `dtype`: whole bytes little-endian, or packed.
fn pack(dtype: DType, codes: &[u64]) -> Vec<u8> {
    let bits = element_size(dtype).expect("a buffer dtype");
    if bits >= 8 {
        return codes
            .iter()
            .flat_map(|c| c.to_le_bytes()[..bits / 8].to_vec())
            .collect();
    }
    let mut out = vec![0u8; (codes.len() * bits).div_ceil(8)];
    for (i, &c) in codes.iter().enumerate() {
        out[i * bits / 8] |= ((c as u8) & ((1 << bits) - 1)) << (i * bits % 8);
    }
    out
}

/// A buffer of `dtype` into `n` codes.
fn unpack(dtype: DType, bytes: &[u8], n: usize) -> Vec<u64> {
    let bits = element_size(dtype).expect("a buffer dtype");
    (0..n)
        .map(|i| {
            if bits >= 8 {
                let mut b = [0u8; 8];
                b[..bits / 8].copy_from_slice(&bytes[i * bits / 8..(i + 1) * bits / 8]);
                u64::from_le_bytes(b)
            } else {
                u64::from((bytes[i * bits / 8] >> (i * bits % 8)) & ((1 << bits) - 1))
            }
        })
        .collect()
}

/// Whether `code` is a NaN of `dtype`, for the formats with several NaN codes.
fn nan_class(dtype: DType, code: u64) -> bool {
    let abs = |m: u64| code & m;
    match dtype {
        DType::F16 => abs(0x7fff) > 0x7c00,
        DType::BF16 => abs(0x7fff) > 0x7f80,
        DType::F32 => abs(0x7fff_ffff) > 0x7f80_0000,
        DType::F64 => abs(0x7fff_ffff_ffff_ffff) > 0x7ff0_0000_0000_0000,
        DType::F8E4M3FN => abs(0x7f) == 0x7f,
        DType::F8E5M2 => abs(0x7f) > 0x7c,
        DType::F8E4M3 => abs(0x7f) > 0x78,
        DType::F8E3M4 => abs(0x7f) > 0x70,
        _ => false,
    }
}

/// Whether `code` is a zero of a float `dtype` (either sign).
fn zero(dtype: DType, code: u64) -> bool {
    let bits = dtype.bits() as u64;
    dtype.is_float() && bits >= 8 && code & !(1u64 << (bits - 1)) == 0
}

#[test]
fn every_two_array_case_agrees_with_its_framework_on_every_backend() {
    let inputs = read_json("inputs.json");
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for set in DATA_SETS {
        let index = read_json(&format!("{}.json", set.name));
        let blob = read_blob(index["blob"]["file"].as_str().expect("blob file"));
        let table = rules::by_name(set.rules).expect("a bundled rule set");
        let settings = set.settings.iter().copied().filter(|s| {
            let key = s.split_once('=').expect("KEY=VALUE").0;
            table.option_index(key).is_some()
        });
        let options = table.options_from(settings).expect("the data set's settings");
        let semantics = Semantics::of(set.rules).expect("semantics");
        let position_ties = semantics.zero_tie.1 == promo_core::compute::ZeroTie::Rhs
            && matches!(set.rules, "torch" | "tensorflow");
        let (mut cases, mut elements, mut skipped) = (0usize, 0usize, BTreeMap::<String, usize>::new());
        let mut fused = 0usize;
        for case in index["cases"].as_array().expect("cases") {
            let c = case.as_array().expect("a case");
            let field = |i: usize| c[i].as_str().unwrap_or("");
            let (op_name, lhs, rhs, kind) = (field(0), field(1), field(2), field(3));
            if kind == "scalar" {
                // The Python scalar cases are the other test's.
                *skipped.entry("python scalar".into()).or_default() += 1;
                continue;
            }
            // NumPy's `less`/`greater` are promo's `less_than`/`greater_than`.
            let op: Op = match op_name {
                "less" => "less_than",
                "greater" => "greater_than",
                name => name,
            }
            .parse()
            .unwrap_or_else(|_| panic!("{}: op {op_name}", set.name));
            let (Some(a_t), Some(b_t)) = (DType::parse_name(lhs), DType::parse_name(rhs)) else {
                panic!("{}: types {lhs} {rhs}", set.name)
            };
            if element_size(a_t).is_none() || element_size(b_t).is_none() {
                let none = if element_size(a_t).is_none() { lhs } else { rhs };
                *skipped.entry(format!("{none}: no buffers")).or_default() += 1;
                continue;
            }
            let refused = c.len() > 7 && !c[7].is_null();
            let made = Computation::new(table, &options, op, a_t, b_t);
            if refused {
                if made.is_ok() {
                    failures.push(format!(
                        "{} {op_name}({lhs}, {rhs}): computed, the framework refuses: {}",
                        set.name, c[7]
                    ));
                }
                cases += 1;
                continue;
            }
            let result = DType::parse_name(field(4)).expect("result type");
            let made = match made {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{} {op_name}({lhs}, {rhs}): {e}", set.name));
                    continue;
                }
            };
            if made.result() != result {
                failures.push(format!(
                    "{} {op_name}({lhs}, {rhs}): result {} where the framework gives {result}",
                    set.name,
                    made.result()
                ));
                continue;
            }
            let (offset, n) = (
                c[5].as_u64().expect("offset") as usize,
                c[6].as_u64().expect("n") as usize,
            );
            let width = match result.bits() {
                b if b <= 8 => 1,
                b => b as usize / 8,
            };
            let expected = unpack_codes(&blob[offset..offset + n * width], width);
            let (a, b) = case_inputs(&inputs, kind, lhs, rhs);
            assert_eq!(a.len(), n, "{} {op_name}({lhs}, {rhs}): inputs", set.name);
            let (abuf, bbuf) = (pack(a_t, &a), pack(b_t, &b));
            for backend in Backend::available() {
                let m = Computation::with_backend(table, &options, op, a_t, b_t, backend).expect("made once");
                fused += usize::from(m.backend() != Backend::Portable);
                let mut out = vec![0u8; (n * element_size(result).expect("buffer")).div_ceil(8)];
                m.apply(&abuf, &bbuf, &mut out, n).expect("apply");
                let got = unpack(result, &out, n);
                let mut bad = 0;
                for k in 0..n {
                    let (g, e) = (got[k], expected[k]);
                    // FINDINGS.md 4.5: XLA's scalar loop drops an f16 signalling NaN
                    // in maximum/minimum of u8 with f16 (the vector body keeps it).
                    let known = set.rules == "jax"
                        && matches!(op, Op::Maximum | Op::Minimum)
                        && matches!((lhs, rhs), ("u8", "f16") | ("f16", "u8"))
                        && (a[k] == 0x7ddd || b[k] == 0x7ddd);
                    let agree = g == e
                        || known
                        || (nan_class(result, g) && nan_class(result, e))
                        || (position_ties
                            && matches!(op, Op::Maximum | Op::Minimum)
                            && zero(result, g)
                            && zero(result, e));
                    if !agree {
                        if bad < 3 {
                            failures.push(format!(
                                "{} [{backend}] {op_name}({lhs} {:#x}, {rhs} {:#x}) = {:#x}, the framework gives {:#x}",
                                set.name, a[k], b[k], g, e
                            ));
                        }
                        bad += 1;
                    }
                }
                if bad > 3 {
                    failures.push(format!(
                        "{} [{backend}] {op_name}({lhs}, {rhs}): {bad} elements differ",
                        set.name
                    ));
                }
            }
            cases += 1;
            elements += n;
        }
        report.push(format!(
            "{}: {cases} cases, {elements} elements ({fused} case-backends by a fused kernel); left out {skipped:?}",
            set.name
        ));
        if Backend::available().contains(&Backend::Avx2) {
            assert!(fused > 0, "{}: no case ran a fused kernel", set.name);
        }
        assert_eq!((cases, elements), set.pinned, "{}: the pinned counts", set.name);
    }
    println!("{}", report.join("\n"));
    for f in &failures {
        println!("FAIL {f}");
    }
    let shown: Vec<_> = failures.iter().take(60).cloned().collect();
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}\n{}",
        failures.len(),
        shown.join("\n"),
        report.join("\n")
    );
}

/// The value of Python scalar source `src` (the data's `scalars`).
fn python_scalar(src: &str) -> Scalar {
    match src {
        "True" => Scalar::Bool(true),
        "False" => Scalar::Bool(false),
        "1/3" => Scalar::Float(1.0 / 3.0),
        "float('inf')" => Scalar::Float(f64::INFINITY),
        "float('nan')" => Scalar::Float(f64::NAN),
        "1 + 2**-8 + 2**-30" => Scalar::Float(1.0 + 2f64.powi(-8) + 2f64.powi(-30)),
        "1 + 2**-11 + 2**-30" => Scalar::Float(1.0 + 2f64.powi(-11) + 2f64.powi(-30)),
        "1 + 2**-4 + 2**-30" => Scalar::Float(1.0 + 2f64.powi(-4) + 2f64.powi(-30)),
        _ => match src.parse::<i128>() {
            Ok(i) => Scalar::Int(i),
            Err(_) => Scalar::Float(src.parse().unwrap_or_else(|_| panic!("python scalar {src}"))),
        },
    }
}

/// The array operand of a scalar case (README, `"scalar"`): every code of a type
/// of 8 bits or fewer, else its specials and the first 128 codes of its
/// `random_lhs`.
fn scalar_case_array(inputs: &Value, dtype: &str) -> Vec<u64> {
    let ty = &inputs["types"][dtype];
    if dtype == "bool" {
        return vec![0, 1];
    }
    let bits = ty["bits"].as_u64().expect("bits");
    if bits <= 8 {
        return (0..1u64 << bits).collect();
    }
    let mut codes = codes(&ty["specials"]);
    codes.extend(codes_prefix(&ty["random_lhs"], 128));
    codes
}

fn codes_prefix(v: &Value, n: usize) -> Vec<u64> {
    codes(v).into_iter().take(n).collect()
}

#[test]
fn every_python_scalar_case_agrees_with_its_framework_on_every_backend() {
    let inputs = read_json("inputs.json");
    let scalars: Vec<Scalar> = inputs["scalars"]
        .as_array()
        .expect("scalars")
        .iter()
        .map(|s| python_scalar(s.as_str().expect("scalar source")))
        .collect();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let mut disagreements_seen = Vec::new();
    for set in DATA_SETS {
        let index = read_json(&format!("{}.json", set.name));
        let blob = read_blob(index["blob"]["file"].as_str().expect("blob file"));
        let table = rules::by_name(set.rules).expect("a bundled rule set");
        let settings = set.settings.iter().copied().filter(|s| {
            let key = s.split_once('=').expect("KEY=VALUE").0;
            table.option_index(key).is_some()
        });
        let options = table.options_from(settings).expect("the data set's settings");
        let semantics = Semantics::of(set.rules).expect("semantics");
        let position_ties = semantics.zero_tie.1 == promo_core::compute::ZeroTie::Rhs
            && matches!(set.rules, "torch" | "tensorflow");
        let (mut cases, mut refusals, mut elements) = (0usize, 0usize, 0usize);
        let mut skipped = BTreeMap::<String, usize>::new();
        for case in index["cases"].as_array().expect("cases") {
            let c = case.as_array().expect("a case");
            let field = |i: usize| c[i].as_str().unwrap_or("");
            let (op_name, lhs, rhs, kind) = (field(0), field(1), field(2), field(3));
            if kind != "scalar" {
                continue;
            }
            let op: Op = match op_name {
                "less" => "less_than",
                "greater" => "greater_than",
                name => name,
            }
            .parse()
            .unwrap_or_else(|_| panic!("{}: op {op_name}", set.name));
            let (side, py, array_name) = match (lhs.strip_prefix("py:"), rhs.strip_prefix("py:")) {
                (Some(i), None) => (Side::Lhs, i, rhs),
                (None, Some(i)) => (Side::Rhs, i, lhs),
                _ => panic!("{}: scalar case {lhs} {rhs}", set.name),
            };
            let scalar = scalars[py.parse::<usize>().expect("scalar index")];
            let Some(array_t) = DType::parse_name(array_name) else {
                panic!("{}: type {array_name}", set.name)
            };
            let what = format!("{} {op_name}({lhs}, {rhs}) [{scalar:?}]", set.name);
            if element_size(array_t).is_none() {
                *skipped.entry(format!("{array_name}: no buffers")).or_default() += 1;
                continue;
            }
            let refused = c.len() > 7 && !c[7].is_null();
            let made = Computation::with_scalar(table, &options, op, array_t, scalar, side);
            if refused {
                let listed = SCALAR_DISAGREEMENTS
                    .iter()
                    .position(|&(name, o, l, r, _)| (name, o, l, r) == (set.name, op_name, lhs, rhs));
                match (made, listed) {
                    (Ok(_), Some(i)) => disagreements_seen.push(i),
                    (Ok(m), None) => failures.push(format!(
                        "{what}: computed ({}), the framework refuses: {}",
                        m.result(),
                        c[7]
                    )),
                    (Err(_), _) => {}
                }
                cases += 1;
                refusals += 1;
                continue;
            }
            let result = DType::parse_name(field(4)).expect("result type");
            let made = match made {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!("{what}: {e}"));
                    continue;
                }
            };
            if made.result() != result {
                failures.push(format!(
                    "{what}: result {} where the framework gives {result}",
                    made.result()
                ));
                continue;
            }
            let (offset, n) = (
                c[5].as_u64().expect("offset") as usize,
                c[6].as_u64().expect("n") as usize,
            );
            let width = match result.bits() {
                b if b <= 8 => 1,
                b => b as usize / 8,
            };
            let expected = unpack_codes(&blob[offset..offset + n * width], width);
            let a = scalar_case_array(&inputs, array_name);
            assert_eq!(a.len(), n, "{what}: inputs");
            let abuf = pack(array_t, &a);
            let (lbuf, rbuf): (&[u8], &[u8]) = match side {
                Side::Lhs => (&[], &abuf),
                Side::Rhs => (&abuf, &[]),
            };
            for backend in Backend::available() {
                let m = Computation::with_scalar_on(table, &options, op, array_t, scalar, side, backend)
                    .expect("made once");
                let mut out = vec![0u8; (n * element_size(result).expect("buffer")).div_ceil(8)];
                m.apply(lbuf, rbuf, &mut out, n).expect("apply");
                let got = unpack(result, &out, n);
                let mut bad = 0;
                for k in 0..n {
                    let (g, e) = (got[k], expected[k]);
                    let agree = g == e
                        || (nan_class(result, g) && nan_class(result, e))
                        || (position_ties
                            && matches!(op, Op::Maximum | Op::Minimum)
                            && zero(result, g)
                            && zero(result, e));
                    if !agree {
                        if bad < 3 {
                            failures.push(format!(
                                "{what} [{backend}] {array_name} {:#x} -> {:#x}, the framework gives {:#x}",
                                a[k], g, e
                            ));
                        }
                        bad += 1;
                    }
                }
                if bad > 3 {
                    failures.push(format!("{what} [{backend}]: {bad} elements differ"));
                }
            }
            cases += 1;
            elements += n;
        }
        report.push(format!(
            "{}: {cases} scalar cases ({refusals} refused), {elements} elements; left out {skipped:?}",
            set.name
        ));
        if (cases, refusals, elements) != set.pinned_scalar {
            failures.push(format!(
                "{}: counted {:?}, pinned {:?}",
                set.name,
                (cases, refusals, elements),
                set.pinned_scalar
            ));
        }
    }
    for (i, &(name, op, lhs, rhs, why)) in SCALAR_DISAGREEMENTS.iter().enumerate() {
        match disagreements_seen.iter().filter(|&&j| j == i).count() {
            1 => report.push(format!("listed disagreement: {name} {op}({lhs}, {rhs}): {why}")),
            n => failures.push(format!(
                "{name} {op}({lhs}, {rhs}): listed as a disagreement, seen {n} times"
            )),
        }
    }
    println!("{}", report.join("\n"));
    for f in &failures {
        println!("FAIL {f}");
    }
    let shown: Vec<_> = failures.iter().take(60).cloned().collect();
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}\n{}",
        failures.len(),
        shown.join("\n"),
        report.join("\n")
    );
}

fn unpack_codes(bytes: &[u8], width: usize) -> Vec<u64> {
    bytes
        .chunks_exact(width)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..width].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}
