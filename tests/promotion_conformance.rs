//! Every cell the generated tables give, compared with what the real frameworks do
//! (`tests/data/promotion/*.json`, dumped by `tools/oracles/promotion/`).

use promo_core::rules;
use promo_table::{DType, Op, Operand, Promotion};
use promo_tests::{promotion_data, PromotionData};

/// Compares rule set `name` with its data; returns the number of cases compared.
///
/// A case `[lhs, rhs, promoted, error]` is one where promotion chose `promoted` and
/// then the framework's build could not run it (no CPU kernel): the promotion
/// answer is `promoted`, and with `ran` (the rule set's options `extra` ask what this
/// build runs) the answer is a refusal. A case `[lhs, rhs, null, error,
/// "unknown_promotion"]` failed in a kernel before the operation's promotion showed
/// (a composite API's inner step): it is a refusal with `ran`, and not compared
/// otherwise. Where a result is weakly typed (`weak:f64`, JAX and TensorFlow), its
/// weakness is compared too, but for `promoted`, whose tensor was never made; unless
/// the case ends in `"abstract_evaluation"`: JAX traced it (`jax.eval_shape`) for a
/// dtype the CPU build cannot hold, and the trace shows the weakness.
fn conform(name: &str) -> usize {
    conform_with(name, &[], false).compared
}

/// What one comparison covered.
struct Conformance {
    compared: usize,
    unknown_promotion: usize,
}

fn conform_with(name: &str, extra: &[&str], ran: bool) -> Conformance {
    conform_to(name, promotion_data(name), extra, ran)
}

/// Compares rule set `name` with what its framework's own promotion functions `ops`
/// gave (`tests/data/promotion/functions/NAME.json`: `result_type`, `promote_types`).
fn conform_functions(name: &str, ops: &[&str]) -> usize {
    let mut data = promotion_data(&format!("functions/{name}"));
    data.groups.retain(|g| ops.contains(&g.op.as_str()));
    conform_to(name, data, &[], false).compared
}

fn conform_to(name: &str, data: PromotionData, extra: &[&str], ran: bool) -> Conformance {
    let table = rules::by_name(name).unwrap_or_else(|| panic!("no bundled rule set `{name}`"));
    let mut accepted: Vec<DType> = data
        .dtypes
        .iter()
        .map(|d| d.parse().expect("dtype name"))
        .collect();
    let mut ours = table.dtypes.to_vec();
    accepted.sort();
    ours.sort();
    assert_eq!(
        ours, accepted,
        "{name}: accepted dtypes differ from {} {}",
        data.framework, data.version
    );

    let mut mismatches = Vec::new();
    let mut compared = 0;
    let mut unknown_promotion = 0;
    for group in &data.groups {
        let mut settings = group.settings();
        settings.extend(extra.iter().map(|s| s.to_string()));
        let options = table
            .options_from(settings.iter().map(String::as_str))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let op: Op = group.op.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        for case in &group.cases {
            let operand = |i: usize| -> Operand {
                case[i]
                    .as_str()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| panic!("bad operand in {case:?}"))
            };
            let (lhs, rhs) = (operand(0), operand(1));
            // `weak:f32` is a weakly typed result (JAX, TensorFlow).
            let promoted: Option<Promotion> = case[2].as_str().map(|s| match s.strip_prefix("weak:") {
                Some(d) => Promotion {
                    dtype: d.parse().expect("result dtype"),
                    weak: true,
                },
                None => Promotion {
                    dtype: s.parse().expect("result dtype"),
                    weak: false,
                },
            });
            let failed_to_run = case.get(3).is_some_and(|e| e.is_string());
            let tag = case.get(4).and_then(|t| t.as_str());
            let weakness_shown = !failed_to_run || tag == Some("abstract_evaluation");
            if tag == Some("unknown_promotion") {
                assert!(failed_to_run && promoted.is_none(), "{name}: bad case {case:?}");
                if !ran {
                    unknown_promotion += 1;
                    continue;
                }
            }
            let expected = if ran && failed_to_run { None } else { promoted };
            let actual = table.promote_result(&options, op, lhs, rhs);
            compared += 1;
            // A result the build could not compute shows its dtype, not whether it
            // would have been weakly typed (but for a traced one): the dtype is compared.
            let agree = match (actual.ok(), expected) {
                (Some(ours), Some(theirs)) if !weakness_shown => ours.dtype == theirs.dtype,
                (ours, theirs) => ours == theirs,
            };
            if !agree {
                mismatches.push(format!(
                    "{op} {lhs} {rhs} [{}]: framework {} ({}), promo {:?}",
                    settings.join(" "),
                    expected.map_or("refused".to_owned(), |d| d.to_string()),
                    case.get(3).and_then(|v| v.as_str()).unwrap_or(""),
                    actual.map(|p| p.to_string()).map_err(|e| e.to_string()),
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{name}: {} of {compared} cases differ from {} {}:\n{}",
        mismatches.len(),
        data.framework,
        data.version,
        mismatches.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    Conformance {
        compared,
        unknown_promotion,
    }
}

#[test]
fn openvino_matches_openvino() {
    // All three attributes, every pair of the 18 dtypes, tensors and rank-0 operands.
    assert_eq!(conform("openvino"), 93_312);
}

#[test]
fn paddle_promotes_as_paddlepaddle() {
    // The default answer is promotion's, also where the CPU wheel then had no kernel.
    let seen = conform_with("paddle", &[], false);
    assert_eq!(seen.compared, 60_274);
    // Cases whose promotion the CPU wheel never showed are left out, and counted.
    assert_eq!(seen.unknown_promotion, 1_742);
}

#[test]
fn paddle_with_device_cpu_runs_as_the_cpu_wheel() {
    // With `device=cpu`, everything the CPU wheel could not run is refused.
    let seen = conform_with("paddle", &["device=cpu"], true);
    assert_eq!(seen.compared, 62_016);
}

#[test]
fn torch_matches_pytorch() {
    // The default answer is the operation's: promotion's, also where the CPU build then
    // had no kernel (what the operation would have given is in the data, computed by
    // torch's own promotion functions; 30,097 cases); refused where the operation
    // refuses on every device (21,200 cases computed in a dtype no device has a kernel
    // of the operation for: ordering complex numbers, bitwise operations on floats,
    // nextafter on integers, anything but copying on a bits dtype, ...). 41 dtypes, the
    // shell and bits dtypes among them; tensors, zero-dim tensors and Python scalars on
    // either side and on both.
    let seen = conform_with("torch", &[], false);
    assert_eq!(seen.compared, 147_920);
    assert_eq!(seen.unknown_promotion, 0);
}

#[test]
fn torch_device_cpu_matches_what_the_cpu_build_runs() {
    // With `device=cpu`, what this build has no kernel for is refused too (u16 + u16,
    // float8 comparisons, every step on a shell dtype, the reciprocal inside `3 / c32`,
    // huber_loss on integers): 30,097 cases more than by default.
    let seen = conform_with("torch", &["device=cpu"], true);
    assert_eq!(seen.compared, 147_920);
}

#[test]
fn dali_matches_dali() {
    assert_eq!(conform("dali"), 2_992);
}

#[test]
fn kernel_float_matches_the_library() {
    // Every ordered pair of its 17 types, c64 and c128 included.
    assert_eq!(conform("kernel_float"), 289);
}

#[test]
fn array_api_matches_array_api_strict() {
    // Every case: arrays, 0-d arrays and Python scalars, one `api_version` (2025.12).
    assert_eq!(conform("array_api"), 12_376);
}

#[test]
fn numpy_matches_numpy() {
    // Every case: 26 ufuncs and np.where with ml_dtypes imported; arrays, 0-d arrays,
    // Python scalars on either side and on both.
    assert_eq!(conform("numpy"), 72_576);
}

#[test]
fn tensorflow_matches_tensorflow() {
    // Both modes of the new promotion; tensors, rank-0 tensors, WeakTensors and Python
    // scalars on either side and on both. The ops that take one dtype and failed on
    // the first operand's before they compared the second's are left out.
    let seen = conform_with("tensorflow", &[], false);
    assert_eq!(seen.compared, 59_014);
    assert_eq!(seen.unknown_promotion, 7_256);
}

#[test]
fn tensorflow_device_cpu_matches_what_the_cpu_build_runs() {
    // With `device = "cpu"`, what this build has no kernel for is refused too
    // (floordiv of complex), and so is every case whose promotion never showed.
    let seen = conform_with("tensorflow", &["device=cpu"], true);
    assert_eq!(seen.compared, 66_270);
}

#[test]
fn jax_matches_jax() {
    // Every case of the four option combinations, weak results compared as weak:
    // arrays, 0-d arrays, weakly typed 0-d arrays of every dtype and Python scalars.
    assert_eq!(conform("jax"), JAX_CASES);
}

/// The cases of tests/data/promotion/jax.json.
const JAX_CASES: usize = 294_208;

#[test]
fn jax_device_cpu_refuses_what_the_cpu_client_cannot_hold() {
    // With `device=cpu`, every function with a float6, int1 or uint1 operand is refused
    // (their cases were traced); jnp.result_type still answers for them.
    let seen = conform_with("jax", &["device=cpu"], true);
    assert_eq!(seen.compared, JAX_CASES);
}

#[test]
fn jax_result_type_matches_jax() {
    // `jnp.result_type` under the four option combinations: arrays, 0-d arrays, weakly
    // typed 0-d arrays of every dtype and Python scalars, on either side and on both.
    assert_eq!(conform_functions("jax", &["result_type"]), 40_000);
}

#[test]
fn array_api_result_type_matches_array_api_strict() {
    // `result_type` on every pair of arrays, 0-d arrays and Python scalars.
    assert_eq!(conform_functions("array_api", &["result_type"]), 900);
}

#[test]
fn tensorflow_result_type_matches_flexible_dtypes() {
    // `flexible_dtypes.result_type` in both modes: tensors, rank-0 tensors, WeakTensors
    // and Python scalars on either side and on both.
    assert_eq!(conform_functions("tensorflow", &["result_type"]), 4_418);
}

#[test]
fn torch_result_type_matches_pytorch() {
    // `torch.result_type` on tensors, zero-dim tensors and Python scalars, on either
    // side and on both.
    assert_eq!(conform_functions("torch", &["result_type"]), 7_396);
}

#[test]
fn torch_promote_types_matches_pytorch() {
    // `torch.promote_types` of the operands' dtypes: a zero-dim tensor's dtype counts in
    // full, a Python scalar is no dtype.
    assert_eq!(conform_functions("torch", &["promote_types"]), 7_396);
}

#[test]
fn numpy_result_type_and_promote_types_match_numpy() {
    // np.result_type and np.promote_types on every pair of arrays, 0-d arrays and
    // Python scalars (promote_types takes dtypes: it refuses a Python scalar).
    assert_eq!(conform_functions("numpy", &["result_type"]), 5_184);
    assert_eq!(conform_functions("numpy", &["promote_types"]), 5_184);
}

#[test]
fn keras_matches_keras() {
    // keras.ops on the numpy backend, floatx float32: every case, tensors, 0-d tensors
    // and Python scalars on either side and on both.
    assert_eq!(conform("keras"), 6_736);
}

#[test]
fn keras_result_type_matches_keras() {
    // keras.backend.result_type on every pair of dtypes and Python types.
    assert_eq!(conform_functions("keras", &["result_type"]), 441);
}

#[test]
fn tinygrad_matches_tinygrad() {
    // Every case: 19 operators and methods on tensors, rank-0 tensors, the weak
    // constants Tensor(3) and Tensor(2.5) and Python scalars on either side, weak results
    // compared as weak; `least_upper_dtype` as `result_type`. Where the PYTHON device then
    // failed to run the kernel (integer pow), the promoted dtype is compared.
    assert_eq!(conform("tinygrad"), 17_008);
}

#[test]
fn mlx_matches_mlx() {
    // Every case: 23 functions on arrays, 0-d arrays and Python scalars, on either side
    // and on both, evaluated on the CPU; `mx.result_type` as `result_type`.
    assert_eq!(conform("mlx"), 14_336);
}

#[test]
fn triton_matches_triton() {
    // Every case: 18 operations on blocks, typed scalars (0-d) and Python scalars on
    // either side, each lowered to Triton IR by Triton's front end. Where the IR then
    // failed to verify (fp8e4b15 with itself or fp64 on NVIDIA), the promoted dtype is
    // compared.
    assert_eq!(conform("triton"), 16_632);
}

#[test]
fn mindspore_matches_mindspore() {
    // Every case: `ops.add` on tensors, 0-d tensors and Python scalars, on either side,
    // run in PYNATIVE mode on the CPU; the refusals are the operation's (bool with bool,
    // u16/u32/u64 with anything but themselves and bool).
    assert_eq!(conform("mindspore"), 1_080);
}
