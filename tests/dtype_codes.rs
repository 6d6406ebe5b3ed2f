//! `DType`'s ONNX codes against the onnx package's `TensorProto.DataType`
//! (`tests/data/cast/onnx_codes.json`), and its serde form.

use promo_core::DType;

#[test]
fn onnx_codes_match_the_onnx_package() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/cast/onnx_codes.json");
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut known = 0;
    for (name, code) in data["codes"].as_object().unwrap() {
        let code = code.as_i64().unwrap() as i32;
        match DType::from_onnx(code) {
            Some(d) => {
                // ONNX's names (DOUBLE, FLOAT8E4M3FN, …) are aliases promo parses; but
                // `float` alone, which frameworks read as f32 or f64, is refused with
                // the choices where no rule set says which (ONNX's FLOAT is f32).
                if name == "FLOAT" {
                    assert_eq!(d, DType::F32);
                    let e = "float".parse::<DType>().unwrap_err().to_string();
                    assert!(e.contains("is ambiguous") && e.contains("`f32` or `f64`"), "{e}");
                    assert_eq!(d.to_onnx(), Some(code));
                    known += 1;
                    continue;
                }
                let onnx_name: DType = name
                    .to_lowercase()
                    .parse()
                    .unwrap_or_else(|_| panic!("`{name}` is not a dtype alias"));
                assert_eq!(d, onnx_name, "code {code}");
                assert_eq!(d.to_onnx(), Some(code));
                known += 1;
            }
            None => assert!(
                ["UNDEFINED", "FLOAT6E2M3", "FLOAT6E3M2"].contains(&name.as_str()),
                "ONNX `{name}` ({code}) has no promo dtype"
            ),
        }
    }
    assert_eq!(known, 26);
    for &d in DType::ALL {
        if let Some(code) = d.to_onnx() {
            assert_eq!(DType::from_onnx(code), Some(d));
        }
    }
}

#[test]
fn dtypes_serialize_as_their_canonical_names() {
    for &d in DType::ALL {
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, format!("\"{}\"", d.name()));
        assert_eq!(serde_json::from_str::<DType>(&json).unwrap(), d);
    }
    assert_eq!(
        serde_json::from_str::<DType>("\"bfloat16\"").unwrap(),
        DType::BF16
    );
    let err = serde_json::from_str::<DType>("\"f9\"").unwrap_err().to_string();
    assert!(err.contains("unknown dtype `f9`"), "{err}");
}

#[test]
fn every_element_type_names_its_dtype() {
    use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i2, i4, u2, u4};
    use promo_core::{bf16, f16};
    let pairs = [
        (DType::of::<bool>(), "bool"),
        (DType::of::<i2>(), "i2"),
        (DType::of::<u2>(), "u2"),
        (DType::of::<i4>(), "i4"),
        (DType::of::<u4>(), "u4"),
        (DType::of::<i64>(), "i64"),
        (DType::of::<u16>(), "u16"),
        (DType::of::<f16>(), "f16"),
        (DType::of::<bf16>(), "bf16"),
        (DType::of::<f4e2m1>(), "f4e2m1"),
        (DType::of::<f8e4m3fn>(), "f8e4m3fn"),
        (DType::of::<f8e4m3fnuz>(), "f8e4m3fnuz"),
        (DType::of::<f8e5m2>(), "f8e5m2"),
        (DType::of::<f8e5m2fnuz>(), "f8e5m2fnuz"),
        (DType::of::<f8e8m0>(), "f8e8m0"),
        (DType::of::<num_complex::Complex<f64>>(), "c128"),
    ];
    for (dtype, name) in pairs {
        assert_eq!(dtype.name(), name);
    }
}
