//! `promo_core::finfo` against `ml_dtypes.finfo` 0.6 (numpy's `finfo` for f16, f32,
//! f64): every field both define, for every format in `tests/data/finfo.json`
//! (from `tools/oracles/finfo/gen_finfo.py`).

use promo_core::{finfo, DType, FloatInfo};
use promo_tests::data_path;
use serde_json::Value;

/// NumPy's field `name` of `info`, as promo spells it.
fn field(info: &FloatInfo, name: &str) -> f64 {
    match name {
        "bits" => info.bits as f64,
        "eps" => info.eps(),
        "epsneg" => info.epsneg,
        "max" => info.max,
        "min" => info.min,
        "tiny" => info.tiny(),
        "smallest_normal" => info.smallest_normal,
        "smallest_subnormal" => info.smallest_subnormal,
        "resolution" => info.resolution,
        "precision" => info.precision as f64,
        "nmant" => info.nmant() as f64,
        "nexp" => info.nexp() as f64,
        "iexp" => info.iexp() as f64,
        "minexp" => info.minexp as f64,
        "maxexp" => info.maxexp as f64,
        "machep" => info.machep as f64,
        "negep" => info.negep as f64,
        _ => panic!("no field {name}"),
    }
}

#[test]
fn every_field_agrees_with_ml_dtypes_finfo() {
    let text = std::fs::read_to_string(data_path("finfo.json")).expect("read");
    let data: Value = serde_json::from_str(&text).expect("json");
    let about = &data["_about"];
    let names: Vec<&str> = ["floats", "ints"]
        .iter()
        .flat_map(|k| about[k].as_array().unwrap().iter().map(|v| v.as_str().unwrap()))
        .collect();
    let mut checked = 0;
    for (format, entry) in data.as_object().unwrap() {
        if format.starts_with('_') {
            continue;
        }
        let dtype: DType = format.parse().expect("dtype");
        let info = finfo(dtype).unwrap_or_else(|| panic!("no finfo for {format}"));
        let floats = about["floats"].as_array().unwrap();
        for &name in &names {
            let value = &entry[name];
            let want = if floats.iter().any(|f| f == name) {
                // Float fields are f64 bit patterns (exact through JSON).
                f64::from_bits(value.as_u64().unwrap())
            } else {
                value.as_i64().unwrap() as f64
            };
            assert_eq!(field(&info, name), want, "{format}.{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 15 * 17, "fifteen formats, seventeen fields");
}
