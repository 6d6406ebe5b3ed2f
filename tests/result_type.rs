//! `result_type`: the n-ary promotion, a left fold for every bundled rule set.

use promo_core::{promote, result_type, rules, DType, Op, Operand, Refusal};

/// Triples whose left fold and right fold give different dtypes, or where one
/// refuses and the other does not, of all triples of the rule set's dtypes.
fn fold_disagreements(table: &promo_core::RuleTable<'static>) -> (usize, usize) {
    fold_disagreements_among(table, table.dtypes)
}

/// [`fold_disagreements`] over the triples of `d` only.
fn fold_disagreements_among(table: &promo_core::RuleTable<'static>, d: &[DType]) -> (usize, usize) {
    let p = |a: Result<DType, Refusal<'static>>, b: DType| a.and_then(|a| promote(table, a, b));
    let mut differ = 0;
    for &a in d {
        for &b in d {
            for &c in d {
                let left = p(promote(table, a, b), c);
                let right = promote(table, b, c).and_then(|bc| promote(table, a, bc));
                differ += usize::from(left.as_ref().ok() != right.as_ref().ok());
                let operands = [a, b, c].map(Operand::Dimensioned);
                assert_eq!(
                    result_type(table, &table.default_options(), Op::Add, &operands),
                    left,
                    "{a} {b} {c}"
                );
            }
        }
    }
    (differ, d.len().pow(3))
}

#[test]
fn the_fold_direction_matters_and_result_type_folds_left() {
    // The counts measured independently when the n-ary question was raised.
    assert_eq!(fold_disagreements(&rules::openvino::TABLE), (368, 5832));
    // kernel_float's 15 element types of that time; complex_type came later.
    let kf = &rules::kernel_float::TABLE;
    let reals: Vec<DType> = kf.dtypes.iter().copied().filter(|d| !d.is_complex()).collect();
    assert_eq!(fold_disagreements_among(kf, &reals), (400, 3375));
    // With complex_type<float> and complex_type<double>: the same count, computed
    // from the library's own answers (the oracle data) instead of the table.
    let data = promo_tests::promotion_data("kernel_float");
    let cell = |a: DType, b: DType| -> Option<DType> {
        data.groups[0]
            .cases
            .iter()
            .find(|c| c[0].as_str() == Some(a.name()) && c[1].as_str() == Some(b.name()))
            .and_then(|c| c[2].as_str().map(|s| s.parse().expect("dtype")))
    };
    let mut differ = 0;
    for &a in kf.dtypes {
        for &b in kf.dtypes {
            for &c in kf.dtypes {
                let left = cell(a, b).and_then(|ab| cell(ab, c));
                let right = cell(b, c).and_then(|bc| cell(a, bc));
                differ += usize::from(left != right);
            }
        }
    }
    assert_eq!(fold_disagreements(kf), (differ, 17 * 17 * 17));
}

#[test]
fn one_two_and_no_operands() {
    let t = &rules::dali::TABLE;
    let o = t.default_options();
    assert_eq!(
        result_type(t, &o, Op::Add, &[Operand::Dimensioned(DType::U8)]),
        Ok(DType::U8)
    );
    assert_eq!(
        result_type(t, &o, Op::Add, &[Operand::Dimensioned(DType::F16)]),
        Err(Refusal::UnsupportedDType(DType::F16))
    );
    assert_eq!(
        result_type(t, &o, Op::Add, &["python:int".parse::<Operand>().unwrap()]),
        Ok(DType::I32)
    );
    assert_eq!(result_type::<Operand>(t, &o, Op::Add, &[]), Err(Refusal::NoRule));
    for &a in t.dtypes {
        for &b in t.dtypes {
            let pair = [Operand::Dimensioned(a), Operand::Dimensioned(b)];
            assert_eq!(
                result_type(t, &o, Op::Divide, &pair),
                t.promote(&o, Op::Divide, pair[0], pair[1])
            );
        }
    }
    // A chain with a Python scalar: u8 tensor * 2 / 3.0 in DALI.
    let chain = [
        Operand::Dimensioned(DType::U8),
        "python:int".parse().unwrap(),
        "python:float".parse().unwrap(),
    ];
    let step = t.promote(&o, Op::Multiply, chain[0], chain[1]).unwrap();
    assert_eq!(
        result_type(t, &o, Op::Multiply, &chain),
        t.promote(&o, Op::Multiply, Operand::Dimensioned(step), chain[2])
    );
}
