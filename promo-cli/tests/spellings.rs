//! Every framework's own spellings under its rule set: namespaced names (`np.`,
//! `jnp.`, `tf.`, `mx.`, `tl.`, `paddle.`, `ms.`, ...), NumPy's dtype strings with a
//! byte order (`<f4`, `=i8`), the bare NumPy type codes promo refuses with NumPy's
//! reading, and the ones that keep promo's meaning. The expected answers are the
//! frameworks' own (numpy 2.4.6, jax 0.10.2, torch 2.15.0, mlx 0.32.4 on the
//! development machine), not promo's output.

mod support;

use std::path::Path;
use support::promo_in;

fn promo(args: &[&str]) -> (Option<i32>, String, String) {
    let out = promo_in(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")), args, b"");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The answer of `promo query RULES LHS RHS [--op OP]`, which must succeed.
fn answer(rules: &str, lhs: &str, rhs: &str, op: &str) -> String {
    let (code, out, err) = promo(&["query", rules, lhs, rhs, "--op", op]);
    assert_eq!(code, Some(0), "{rules} {lhs} {rhs} --op {op}: {err}");
    out.trim_end().to_owned()
}

#[test]
fn each_framework_spells_under_its_namespace() {
    for (rules, lhs, rhs, expected) in [
        // np.float16 + np.int8 arrays: float16.
        ("numpy", "np.float16", "np.int8", "f16"),
        ("numpy", "numpy.float16", "numpy.int8", "f16"),
        ("numpy", "ml_dtypes.bfloat16", "ml_dtypes.bfloat16", "bf16"),
        // jnp.result_type(jnp.float16, jnp.int8): float16; bfloat16 + uint8: bfloat16.
        ("jax", "jnp.float16", "jnp.int8", "f16"),
        ("jax", "jax.numpy.bfloat16", "jax.numpy.uint8", "bf16"),
        // torch.half + torch.long tensors: float16.
        ("torch", "torch.half", "torch.long", "f16"),
        // mx.float16 + mx.int8 arrays: float16.
        ("mlx", "mx.float16", "mx.int8", "f16"),
        ("mlx", "mlx.core.float16", "mlx.core.int8", "f16"),
    ] {
        assert_eq!(answer(rules, lhs, rhs, "add"), expected, "{rules} {lhs} {rhs}");
    }
    // Each namespace names the same dtype as promo's name does, under every rule set
    // that has it (result_type of a dtype with itself is the dtype).
    for (rules, spelled, canonical) in [
        ("numpy", "np.float8_e4m3fn", "f8e4m3fn"),
        ("jax", "jnp.int4", "i4"),
        ("tensorflow", "tf.half", "f16"),
        ("tensorflow", "tf.dtypes.bfloat16", "bf16"),
        ("triton", "tl.float8e4nv", "f8e4m3fn"),
        ("triton", "tl.int1", "bool"),
        ("triton", "triton.language.float16", "f16"),
        ("paddle", "paddle.long", "i64"),
        ("mindspore", "ms.float16", "f16"),
        ("mindspore", "mindspore.int8", "i8"),
        ("tinygrad", "dtypes.half", "f16"),
        ("array_api", "xp.float32", "f32"),
    ] {
        let (code, _, err) = promo(&["query", rules, spelled, canonical, "--op", "where"]);
        let (code2, _, err2) = promo(&["query", rules, canonical, canonical, "--op", "where"]);
        assert_eq!(code, code2, "{rules} {spelled}: {err} / {err2}");
        assert!(!err.contains("unknown dtype"), "{rules} {spelled}: {err}");
        let (code, out, err) = promo(&["explain", rules, spelled, canonical]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            out.contains(&format!("({canonical}, {canonical})")),
            "{rules} {spelled}: {out}"
        );
    }
    // A namespace is its own rule set's: `np.` means nothing to torch.
    let (code, _, err) = promo(&["query", "torch", "np.float16", "f32"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown dtype `np.float16`"), "{err}");
}

#[test]
fn numpy_dtype_strings_read_as_np_dtype_reads_them() {
    // np.result_type of each pair, numpy 2.4.6.
    for (lhs, rhs, expected) in [
        ("<f4", "=i8", "f64"),
        (">u2", "i8", "i32"),
        ("|u1", "float32", "f32"),
        ("<c8", ">f8", "c128"),
        ("float32", "int8", "f32"),
        ("=b1", "<i2", "i16"),
    ] {
        assert_eq!(answer("numpy", lhs, rhs, "result_type"), expected, "{lhs} {rhs}");
    }
    // Byte order does not change the dtype: every code, every order.
    for (code, canonical) in [
        ("b1", "bool"),
        ("i1", "i8"),
        ("i2", "i16"),
        ("i4", "i32"),
        ("i8", "i64"),
        ("u1", "u8"),
        ("u2", "u16"),
        ("u4", "u32"),
        ("u8", "u64"),
        ("f2", "f16"),
        ("f4", "f32"),
        ("f8", "f64"),
        ("c8", "c64"),
        ("c16", "c128"),
    ] {
        for order in ["<", ">", "=", "|"] {
            let spelled = format!("{order}{code}");
            assert_eq!(
                answer("numpy", &spelled, canonical, "where"),
                canonical,
                "{spelled}"
            );
        }
    }
    // `=i8` on a --stdin line is an operand, not a setting.
    let out = promo_in(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        &["query", "numpy", "--stdin"],
        b"=i8 <f4 op=result_type\n",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "f64\n");
}

#[test]
fn a_bare_numpy_type_code_is_refused_with_numpys_reading() {
    for (code, numpy, promo_name) in [
        ("f2", "float16", "f16"),
        ("f4", "float32", "f32"),
        ("f8", "float64", "f64"),
        ("c8", "complex64", "c64"),
        ("c16", "complex128", "c128"),
    ] {
        let (status, _, err) = promo(&["query", "numpy", code, "i8"]);
        assert_eq!(status, Some(2), "{code}");
        assert_eq!(
            err,
            format!("promo: unknown dtype `{code}`: `{code}` is numpy's {numpy} type code; write `{promo_name}` or `<{code}`\n")
        );
        // Under a rule set that does not read `<f4`, promo's name alone.
        let (_, _, err) = promo(&["query", "torch", code, "i8"]);
        assert!(
            err.contains(&format!("is numpy's {numpy} type code; write `{promo_name}`\n")),
            "{err}"
        );
    }
    // Where a code is also promo's name, promo's meaning stands: `i8` is int8, `u1`
    // uint1 (NumPy's 'i8' is int64, 'u1' uint8).
    assert_eq!(answer("numpy", "i8", "i8", "where"), "i8");
    assert_eq!(answer("numpy", "u1", "u1", "where"), "u1");
    assert_eq!(answer("numpy", "i4", "i4", "where"), "i4");
}

#[test]
fn without_a_rule_set_a_framework_spelling_reads_as_its_framework_reads_it() {
    // `promo cast`: torch.float8_e4m3fn is f8e4m3fn; 1.5 is exact in it (0x3c).
    let (code, out, err) = promo(&[
        "cast",
        "--from",
        "np.float32",
        "--to",
        "torch.float8_e4m3fn",
        "1.5",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("f8e4m3fn 0x3c (1.5)"), "{out}");
    let (code, out, err) = promo(&["cast", "--from", "<f4", "--to", "f16", "1.5"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("f16 0x3e00"), "{out}");
    // A name the frameworks read differently stays refused.
    let (code, _, err) = promo(&["cast", "--from", "float", "--to", "f16", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("ambiguous"), "{err}");
}

#[test]
fn ml_dtypes_float8_e4m3_under_torch_names_float8_e4m3fn() {
    // torch has no float8_e4m3 (torch 2.15.0: `hasattr(torch, "float8_e4m3")` is False).
    let (code, _, err) = promo(&["query", "torch", "float8_e4m3", "torch.float8_e4m3fn"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("`f8e4m3fn` (float8_e4m3fn)"), "{err}");
}
