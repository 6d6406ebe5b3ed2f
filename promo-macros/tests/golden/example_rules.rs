/** Tiny framework (version 1.2.3), from `tests/data/example_rules.toml`.

 Verified: tools/oracles/promotion/tiny_oracle.py*/
pub mod tiny {
    /// The rule file's text, as `promo explain` reads it back.
    pub const SOURCE: &str = ::core::include_str!(
        "/PROMO_WORKSPACE_ROOT/tests/data/example_rules.toml"
    );
    /// The rule file's path as the invocation named it.
    pub const PATH: &str = "tests/data/example_rules.toml";
    /// The rule set as a run-time table.
    pub const TABLE: ::promo_core::__private::table::RuleTable<'static> = ::promo_core::__private::table::RuleTable {
        name: "tiny",
        title: "Tiny framework",
        version: "1.2.3",
        commutative: true,
        dtypes: &[
            ::promo_core::__private::table::DType::Bool,
            ::promo_core::__private::table::DType::I8,
            ::promo_core::__private::table::DType::U8,
            ::promo_core::__private::table::DType::I16,
            ::promo_core::__private::table::DType::F32,
        ],
        ops: &[
            ::promo_core::__private::table::Op::Add,
            ::promo_core::__private::table::Op::Divide,
            ::promo_core::__private::table::Op::Equal,
            ::promo_core::__private::table::Op::LessThan,
        ],
        aliases: &[
            ("float", ::promo_core::__private::table::DType::F32),
            ("tiny.int", ::promo_core::__private::table::DType::I8),
            ("tiny.int", ::promo_core::__private::table::DType::I16),
        ],
        options: &[
            ::promo_core::__private::table::OptionSpec {
                name: "strict",
                kind: ::promo_core::__private::table::OptionKind::Bool,
                default: ::promo_core::__private::table::OptionValue::Bool(false),
                doc: "refuse mixed signedness",
            },
        ],
        python: [
            ::core::option::Option::None,
            ::core::option::Option::Some(
                ::promo_core::__private::table::Operand::Dimensioned(
                    ::promo_core::__private::table::DType::I8,
                ),
            ),
            ::core::option::Option::Some(
                ::promo_core::__private::table::Operand::Dimensioned(
                    ::promo_core::__private::table::DType::F32,
                ),
            ),
            ::core::option::Option::None,
        ],
        reasons: &["i8 with u8 is refused in strict mode"],
        layers: &[
            ::promo_core::__private::table::Layer {
                name: "strict mode refuses mixed signedness",
                when: &[
                    ::promo_core::__private::table::Condition {
                        option: 0u8,
                        value: ::promo_core::__private::table::OptionValue::Bool(true),
                    },
                ],
                ops: &[],
                lhs: ::promo_core::__private::table::Side::Tensor,
                rhs: ::promo_core::__private::table::Side::Tensor,
                row_of: &[
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 0u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                col_of: &[
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 0u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                width: 1usize,
                cells: &[::promo_core::__private::table::Cell::Refuse(0u16)],
                promoted: &[],
                strong: false,
                statement_end: 1usize,
                continues: false,
                retype: &[],
            },
            ::promo_core::__private::table::Layer {
                name: "comparisons give bool",
                when: &[],
                ops: &[
                    ::promo_core::__private::table::Op::Equal,
                    ::promo_core::__private::table::Op::LessThan,
                ],
                lhs: ::promo_core::__private::table::Side::Tensor,
                rhs: ::promo_core::__private::table::Side::Tensor,
                row_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 4u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                col_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 4u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                width: 5usize,
                cells: &[
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                ],
                promoted: &[],
                strong: false,
                statement_end: 2usize,
                continues: false,
                retype: &[],
            },
            ::promo_core::__private::table::Layer {
                name: "true division of integers gives f32",
                when: &[],
                ops: &[::promo_core::__private::table::Op::Divide],
                lhs: ::promo_core::__private::table::Side::Tensor,
                rhs: ::promo_core::__private::table::Side::Tensor,
                row_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                col_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                width: 4usize,
                cells: &[
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                ],
                promoted: &[],
                strong: false,
                statement_end: 3usize,
                continues: false,
                retype: &[],
            },
            ::promo_core::__private::table::Layer {
                name: "a Python scalar of a lower or equal kind takes the tensor's dtype",
                when: &[],
                ops: &[],
                lhs: ::promo_core::__private::table::Side::Tensor,
                rhs: ::promo_core::__private::table::Side::Python,
                row_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 4u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                col_of: &[0u8, 1u8, 2u8, 3u8],
                width: 4usize,
                cells: &[
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I8,
                    ),
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::U8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::U8,
                    ),
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Defer,
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Defer,
                ],
                promoted: &[],
                strong: false,
                statement_end: 4usize,
                continues: false,
                retype: &[],
            },
            ::promo_core::__private::table::Layer {
                name: "tensor with tensor: the least upper bound",
                when: &[],
                ops: &[],
                lhs: ::promo_core::__private::table::Side::Tensor,
                rhs: ::promo_core::__private::table::Side::Tensor,
                row_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 4u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                col_of: &[
                    0u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 1u8, 3u8, 255u8, 255u8, 2u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 4u8, 255u8,
                    255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8, 255u8,
                ],
                width: 5usize,
                cells: &[
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::Bool,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::U8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::U8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::U8,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::I16,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                    ::promo_core::__private::table::Cell::Is(
                        ::promo_core::__private::table::DType::F32,
                    ),
                ],
                promoted: &[],
                strong: false,
                statement_end: 5usize,
                continues: false,
                retype: &[],
            },
        ],
        flat: ::core::option::Option::Some(::promo_core::__private::table::Flat {
            radix: &[2u8],
            op_slot: &[
                0u8, 1u8, 1u8, 2u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 3u8, 1u8, 3u8,
                1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8, 1u8,
                1u8, 1u8, 1u8, 1u8, 1u8,
            ],
            op_slots: 4usize,
            key_of: &[
                0u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 1u8, 2u8, 14u8, 14u8, 3u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 4u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 5u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 6u8, 7u8, 14u8, 14u8, 8u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 9u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 10u8, 11u8, 12u8, 13u8, 15u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 15u8,
                15u8, 14u8, 14u8, 15u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 15u8, 14u8,
                14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8, 14u8,
            ],
            keys: 16usize,
            cells: &[
                0u16, 15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16,
                15u16, 38u16, 772u16, 770u16, 771u16, 15u16, 15u16, 16u16, 16u16, 38u16,
                15u16, 15u16, 16u16, 16u16, 38u16, 15u16, 15u16, 38u16, 772u16, 770u16,
                771u16, 16u16, 16u16, 16u16, 16u16, 38u16, 16u16, 16u16, 16u16, 16u16,
                38u16, 16u16, 16u16, 38u16, 772u16, 770u16, 771u16, 19u16, 16u16, 16u16,
                19u16, 38u16, 19u16, 16u16, 16u16, 19u16, 38u16, 19u16, 19u16, 38u16,
                772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16, 0u16,
                15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16,
                15u16, 38u16, 772u16, 770u16, 771u16, 15u16, 15u16, 16u16, 16u16, 38u16,
                15u16, 15u16, 16u16, 16u16, 38u16, 15u16, 15u16, 38u16, 772u16, 770u16,
                771u16, 16u16, 16u16, 16u16, 16u16, 38u16, 16u16, 16u16, 16u16, 16u16,
                38u16, 16u16, 16u16, 38u16, 772u16, 770u16, 771u16, 19u16, 16u16, 16u16,
                19u16, 38u16, 19u16, 16u16, 16u16, 19u16, 38u16, 19u16, 19u16, 38u16,
                772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16, 0u16,
                15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 773u16,
                773u16, 773u16, 773u16, 770u16, 771u16, 15u16, 15u16, 16u16, 19u16,
                38u16, 15u16, 15u16, 16u16, 19u16, 38u16, 773u16, 773u16, 773u16, 773u16,
                770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 772u16,
                772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16,
                773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 0u16, 38u16, 38u16,
                772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 15u16, 15u16, 38u16, 772u16, 770u16, 771u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 16u16,
                16u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 19u16, 19u16, 38u16, 772u16, 770u16,
                771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 0u16, 38u16, 38u16,
                772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 15u16, 15u16, 38u16, 772u16, 770u16, 771u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 16u16,
                16u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 19u16, 19u16, 38u16, 772u16, 770u16,
                771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16, 0u16, 15u16, 16u16,
                19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 773u16, 773u16, 773u16,
                773u16, 770u16, 771u16, 38u16, 15u16, 16u16, 19u16, 38u16, 38u16, 15u16,
                16u16, 19u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 772u16, 772u16, 772u16,
                772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 773u16, 773u16,
                773u16, 773u16, 770u16, 771u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 15u16, 15u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 16u16, 16u16, 0u16,
                772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 19u16, 19u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 38u16, 38u16, 38u16, 772u16,
                770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 15u16, 15u16, 0u16, 772u16, 770u16,
                771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                16u16, 16u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 19u16, 19u16, 0u16, 772u16, 770u16, 771u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 38u16, 38u16,
                38u16, 772u16, 770u16, 771u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16,
                15u16, 16u16, 19u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16,
                771u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16,
                38u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 0u16, 0u16, 0u16,
                0u16, 38u16, 0u16, 0u16, 0u16, 0u16, 38u16, 773u16, 773u16, 773u16,
                773u16, 770u16, 771u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16,
                772u16, 772u16, 772u16, 772u16, 773u16, 773u16, 773u16, 773u16, 770u16,
                771u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 0u16, 15u16, 16u16,
                19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 38u16,
                772u16, 770u16, 771u16, 15u16, 15u16, 16u16, 16384u16, 38u16, 15u16,
                15u16, 16u16, 16384u16, 38u16, 15u16, 15u16, 38u16, 772u16, 770u16,
                771u16, 16u16, 16u16, 16u16, 16u16, 38u16, 16u16, 16u16, 16u16, 16u16,
                38u16, 16u16, 16u16, 38u16, 772u16, 770u16, 771u16, 19u16, 16384u16,
                16u16, 19u16, 38u16, 19u16, 16384u16, 16u16, 19u16, 38u16, 19u16, 19u16,
                38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16,
                0u16, 15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16,
                15u16, 38u16, 772u16, 770u16, 771u16, 15u16, 15u16, 16u16, 16384u16,
                38u16, 15u16, 15u16, 16u16, 16384u16, 38u16, 15u16, 15u16, 38u16, 772u16,
                770u16, 771u16, 16u16, 16u16, 16u16, 16u16, 38u16, 16u16, 16u16, 16u16,
                16u16, 38u16, 16u16, 16u16, 38u16, 772u16, 770u16, 771u16, 19u16,
                16384u16, 16u16, 19u16, 38u16, 19u16, 16384u16, 16u16, 19u16, 38u16,
                19u16, 19u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 772u16,
                770u16, 771u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16, 15u16, 16u16,
                19u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 15u16,
                15u16, 16u16, 19u16, 38u16, 15u16, 15u16, 16u16, 19u16, 38u16, 773u16,
                773u16, 773u16, 773u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 773u16, 773u16, 773u16, 773u16,
                770u16, 771u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16,
                772u16, 772u16, 772u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16, 768u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                0u16, 38u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16,
                16384u16, 38u16, 38u16, 38u16, 38u16, 16384u16, 38u16, 15u16, 15u16,
                38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 16u16, 16u16, 38u16, 772u16, 770u16, 771u16,
                38u16, 16384u16, 38u16, 38u16, 38u16, 38u16, 16384u16, 38u16, 38u16,
                38u16, 19u16, 19u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 0u16, 38u16, 38u16, 772u16, 770u16, 771u16, 38u16,
                38u16, 38u16, 16384u16, 38u16, 38u16, 38u16, 38u16, 16384u16, 38u16,
                15u16, 15u16, 38u16, 772u16, 770u16, 771u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 16u16, 16u16, 38u16, 772u16,
                770u16, 771u16, 38u16, 16384u16, 38u16, 38u16, 38u16, 38u16, 16384u16,
                38u16, 38u16, 38u16, 19u16, 19u16, 38u16, 772u16, 770u16, 771u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16,
                38u16, 38u16, 772u16, 770u16, 771u16, 0u16, 15u16, 16u16, 19u16, 38u16,
                0u16, 15u16, 16u16, 19u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16,
                771u16, 38u16, 15u16, 16u16, 19u16, 38u16, 38u16, 15u16, 16u16, 19u16,
                38u16, 773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 38u16, 38u16,
                38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 38u16, 773u16, 773u16,
                773u16, 773u16, 770u16, 771u16, 772u16, 772u16, 772u16, 772u16, 772u16,
                772u16, 772u16, 772u16, 772u16, 772u16, 773u16, 773u16, 773u16, 773u16,
                770u16, 771u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 772u16,
                770u16, 771u16, 0u16, 0u16, 0u16, 16384u16, 0u16, 0u16, 0u16, 0u16,
                16384u16, 0u16, 15u16, 15u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 16u16, 16u16, 0u16,
                772u16, 770u16, 771u16, 0u16, 16384u16, 0u16, 0u16, 0u16, 0u16, 16384u16,
                0u16, 0u16, 0u16, 19u16, 19u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 38u16, 38u16, 38u16,
                772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 0u16, 0u16, 0u16, 772u16, 770u16, 771u16, 0u16, 0u16, 0u16,
                16384u16, 0u16, 0u16, 0u16, 0u16, 16384u16, 0u16, 15u16, 15u16, 0u16,
                772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 16u16, 16u16, 0u16, 772u16, 770u16, 771u16, 0u16, 16384u16,
                0u16, 0u16, 0u16, 0u16, 16384u16, 0u16, 0u16, 0u16, 19u16, 19u16, 0u16,
                772u16, 770u16, 771u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16, 0u16,
                0u16, 0u16, 38u16, 38u16, 38u16, 772u16, 770u16, 771u16, 0u16, 15u16,
                16u16, 19u16, 38u16, 0u16, 15u16, 16u16, 19u16, 38u16, 773u16, 773u16,
                773u16, 773u16, 770u16, 771u16, 0u16, 15u16, 16u16, 19u16, 38u16, 0u16,
                15u16, 16u16, 19u16, 38u16, 773u16, 773u16, 773u16, 773u16, 770u16,
                771u16, 0u16, 0u16, 0u16, 0u16, 38u16, 0u16, 0u16, 0u16, 0u16, 38u16,
                773u16, 773u16, 773u16, 773u16, 770u16, 771u16, 772u16, 772u16, 772u16,
                772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 772u16, 773u16, 773u16,
                773u16, 773u16, 770u16, 771u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16, 769u16,
                769u16, 769u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
                771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16, 771u16,
            ],
        }),
    };
    /// Marker type: Tiny framework (strict=false).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Tiny;
    #[automatically_derived]
    impl ::promo_core::RuleSet for Tiny {
        const TABLE: &'static ::promo_core::__private::table::RuleTable<'static> = &TABLE;
        const OPTIONS: ::promo_core::__private::table::Options = ::promo_core::__private::table::Options::from_values(
            &[::promo_core::__private::table::OptionValue::Bool(false)],
        );
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<bool>>
    for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<i8>> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<u8>> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<i16>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<f32>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyBool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyInt> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyFloat> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, bool>
    for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyBool,
    > for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyInt,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyFloat,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, bool> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<bool>> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<i8>> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, u8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<u8>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<i16>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<f32>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyBool> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyInt> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyFloat> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, bool> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, u8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyBool,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyInt,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyFloat,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, bool> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<bool>> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, i8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<i8>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<u8>> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<i16>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<f32>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyBool> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyInt> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyFloat> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, bool> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, i8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyBool,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyInt,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyFloat,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, bool> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<bool>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, i8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<i8>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, u8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<u8>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<i16>> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<f32>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyBool> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyInt> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyFloat> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, bool> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, i8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, u8> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyBool,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyInt,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyFloat,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<bool>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<i8>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<u8>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<i16>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<f32>> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyBool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyInt> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyFloat> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyBool,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyInt,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyFloat,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, bool> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, i8> for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, u8> for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, i16> for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<bool>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<i8>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<u8>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<i16>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<f32>,
    > for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl<
        A: ::promo_core::Element,
        B: ::promo_core::Element,
        Why,
    > ::promo_core::PromoteOp<::promo_core::op_types::Add, A, B, Why> for Tiny
    where
        Tiny: ::promo_core::Promote<A, B, Why>,
    {
        type Output = <Tiny as ::promo_core::Promote<A, B, Why>>::Output;
        const WEAK: bool = <Tiny as ::promo_core::Promote<A, B, Why>>::WEAK;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, bool> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, i8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, u8> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, i16> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, f32> for Tiny {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, i8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, u8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, i16> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, f32> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, i8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, u8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, i16> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, f32> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, i8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, u8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, i16> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, f32> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, i8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, u8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, i16> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, f32> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, bool> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, i8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, u8> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, i16> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, f32> for Tiny {
        type Output = bool;
    }
    #[automatically_derived]
    impl<
        A: ::promo_core::Element,
        B: ::promo_core::Element,
        Why,
    > ::promo_core::PromoteOp<::promo_core::op_types::LessThan, A, B, Why> for Tiny
    where
        Tiny: ::promo_core::PromoteOp<::promo_core::op_types::Equal, A, B, Why>,
    {
        type Output = <Tiny as ::promo_core::PromoteOp<
            ::promo_core::op_types::Equal,
            A,
            B,
            Why,
        >>::Output;
        const WEAK: bool = <Tiny as ::promo_core::PromoteOp<
            ::promo_core::op_types::Equal,
            A,
            B,
            Why,
        >>::WEAK;
    }
    #[automatically_derived]
    impl ::promo_core::convert_promote::PairKernels for Tiny {
        const PAIR_KERNELS: &'static [::core::option::Option<
            ::promo_core::convert_promote::PairEntry,
        >] = &{
            let mut t: [::core::option::Option<
                ::promo_core::convert_promote::PairEntry,
            >; 2500usize] = [::core::option::Option::None; 2500usize];
            t[0usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::Bool,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, bool, bool>,
            });
            t[15usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, i8, i8>,
            });
            t[19usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, u8, u8>,
            });
            t[16usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, i16, i16>,
            });
            t[38usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, f32, f32>,
            });
            t[750usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, bool, i8>,
            });
            t[765usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, i8, i8>,
            });
            t[769usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, u8, i16>,
            });
            t[766usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, i16, i16>,
            });
            t[788usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, f32, f32>,
            });
            t[950usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, bool, u8>,
            });
            t[965usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, i8, i16>,
            });
            t[969usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, u8, u8>,
            });
            t[966usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, i16, i16>,
            });
            t[988usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, f32, f32>,
            });
            t[800usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, bool, i16>,
            });
            t[815usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, i8, i16>,
            });
            t[819usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, u8, i16>,
            });
            t[816usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, i16, i16>,
            });
            t[838usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, f32, f32>,
            });
            t[1900usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, bool, f32>,
            });
            t[1915usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, i8, f32>,
            });
            t[1919usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, u8, f32>,
            });
            t[1916usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, i16, f32>,
            });
            t[1938usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, f32, f32>,
            });
            t
        };
    }
    /// Marker type: Tiny framework (strict=true).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct TinyStrict;
    #[automatically_derived]
    impl ::promo_core::RuleSet for TinyStrict {
        const TABLE: &'static ::promo_core::__private::table::RuleTable<'static> = &TABLE;
        const OPTIONS: ::promo_core::__private::table::Options = ::promo_core::__private::table::Options::from_values(
            &[::promo_core::__private::table::OptionValue::Bool(true)],
        );
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, bool> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<bool>>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, i8> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<i8>>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, u8> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<u8>>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<i16>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::Scalar<f32>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyBool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyInt> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<bool, ::promo_core::operand_types::PyFloat>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, i8>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, u8>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, i16>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<bool>, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyBool,
    > for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyInt,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<bool>,
        ::promo_core::operand_types::PyFloat,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, bool> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<bool>>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, i8> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<i8>>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl<Why: TinyStrictRefusesMixedSign<i8, u8>> ::promo_core::Promote<i8, u8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<i8, ::promo_core::operand_types::Scalar<u8>>,
    > ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<u8>, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<i16>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::Scalar<f32>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyBool> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyInt> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i8, ::promo_core::operand_types::PyFloat> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, bool>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, i8>
    for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<::promo_core::operand_types::Scalar<i8>, u8>,
    > ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, u8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<
                ::promo_core::operand_types::Scalar<i8>,
                ::promo_core::operand_types::Scalar<u8>,
            >,
    > ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<u8>,
        Why,
    > for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, i16>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i8>, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyBool,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyInt,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i8>,
        ::promo_core::operand_types::PyFloat,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, bool> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<bool>>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl<Why: TinyStrictRefusesMixedSign<u8, i8>> ::promo_core::Promote<u8, i8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<u8, ::promo_core::operand_types::Scalar<i8>>,
    > ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<i8>, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, u8> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<u8>>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<i16>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::Scalar<f32>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyBool> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyInt> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<u8, ::promo_core::operand_types::PyFloat> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, bool>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<::promo_core::operand_types::Scalar<u8>, i8>,
    > ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, i8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<
                ::promo_core::operand_types::Scalar<u8>,
                ::promo_core::operand_types::Scalar<i8>,
            >,
    > ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<i8>,
        Why,
    > for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, u8>
    for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, i16>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<u8>, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyBool,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyInt,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<u8>,
        ::promo_core::operand_types::PyFloat,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, bool> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<bool>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, i8> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<i8>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, u8> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<u8>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<i16>>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::Scalar<f32>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyBool> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyInt> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<i16, ::promo_core::operand_types::PyFloat>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, bool>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, i8>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, u8>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, i16>
    for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<i16>, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyBool,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyInt,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<i16>,
        ::promo_core::operand_types::PyFloat,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, bool> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<bool>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, i8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<i8>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, u8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<u8>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, i16> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<i16>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::Scalar<f32>>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyBool> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyInt> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<f32, ::promo_core::operand_types::PyFloat>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, i8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, u8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::Scalar<f32>, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyBool,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyInt,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::Scalar<f32>,
        ::promo_core::operand_types::PyFloat,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, i8> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, u8> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyBool, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyBool,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, bool> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, i8> for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = i8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, u8> for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = u8;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, i16> for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = i16;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyInt, f32> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyInt,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<bool>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, i8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<i8>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, u8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<u8>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<i16>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<::promo_core::operand_types::PyFloat, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::Promote<
        ::promo_core::operand_types::PyFloat,
        ::promo_core::operand_types::Scalar<f32>,
    > for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl<
        A: ::promo_core::Element,
        B: ::promo_core::Element,
        Why,
    > ::promo_core::PromoteOp<::promo_core::op_types::Add, A, B, Why> for TinyStrict
    where
        TinyStrict: ::promo_core::Promote<A, B, Why>,
    {
        type Output = <TinyStrict as ::promo_core::Promote<A, B, Why>>::Output;
        const WEAK: bool = <TinyStrict as ::promo_core::Promote<A, B, Why>>::WEAK;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, i8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, u8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, bool, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, i8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<i8, u8>,
    > ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, u8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i8, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<u8, i8>,
    > ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, i8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, u8> for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, u8, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, i8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, u8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, i16, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, bool>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, i8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, u8>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, i16>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Divide, f32, f32>
    for TinyStrict {
        type Output = f32;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, i8>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, u8>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, i16>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, bool, f32>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, i8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<i8, u8>,
    > ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, u8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, i16> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i8, f32> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl<
        Why: TinyStrictRefusesMixedSign<u8, i8>,
    > ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, i8, Why>
    for TinyStrict {
        type Output = ::promo_core::__private::Refused;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, u8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, i16> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, u8, f32> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, i8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, u8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, i16>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, i16, f32>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, bool>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, i8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, u8> for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, i16>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl ::promo_core::PromoteOp<::promo_core::op_types::Equal, f32, f32>
    for TinyStrict {
        type Output = bool;
    }
    #[automatically_derived]
    impl<
        A: ::promo_core::Element,
        B: ::promo_core::Element,
        Why,
    > ::promo_core::PromoteOp<::promo_core::op_types::LessThan, A, B, Why> for TinyStrict
    where
        TinyStrict: ::promo_core::PromoteOp<::promo_core::op_types::Equal, A, B, Why>,
    {
        type Output = <TinyStrict as ::promo_core::PromoteOp<
            ::promo_core::op_types::Equal,
            A,
            B,
            Why,
        >>::Output;
        const WEAK: bool = <TinyStrict as ::promo_core::PromoteOp<
            ::promo_core::op_types::Equal,
            A,
            B,
            Why,
        >>::WEAK;
    }
    /// Diagnostic only: `TinyStrict` refuses the pair because i8 with u8 is refused in strict mode.
    #[diagnostic::on_unimplemented(
        message = "Tiny framework (strict=true) refuses `{A}` with `{B}`: i8 with u8 is refused in strict mode",
        label = "refused by `tiny`"
    )]
    pub trait TinyStrictRefusesMixedSign<A, B>: ::promo_core::__private::Sealed {}
    #[automatically_derived]
    impl ::promo_core::convert_promote::PairKernels for TinyStrict {
        const PAIR_KERNELS: &'static [::core::option::Option<
            ::promo_core::convert_promote::PairEntry,
        >] = &{
            let mut t: [::core::option::Option<
                ::promo_core::convert_promote::PairEntry,
            >; 2500usize] = [::core::option::Option::None; 2500usize];
            t[0usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::Bool,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, bool, bool>,
            });
            t[15usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, i8, i8>,
            });
            t[19usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, u8, u8>,
            });
            t[16usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, i16, i16>,
            });
            t[38usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<bool, f32, f32>,
            });
            t[750usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, bool, i8>,
            });
            t[765usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I8,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, i8, i8>,
            });
            t[766usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, i16, i16>,
            });
            t[788usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<i8, f32, f32>,
            });
            t[950usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, bool, u8>,
            });
            t[969usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::U8,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, u8, u8>,
            });
            t[966usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, i16, i16>,
            });
            t[988usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<u8, f32, f32>,
            });
            t[800usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, bool, i16>,
            });
            t[815usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, i8, i16>,
            });
            t[819usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, u8, i16>,
            });
            t[816usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::I16,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, i16, i16>,
            });
            t[838usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<i16, f32, f32>,
            });
            t[1900usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, bool, f32>,
            });
            t[1915usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, i8, f32>,
            });
            t[1919usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, u8, f32>,
            });
            t[1916usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, i16, f32>,
            });
            t[1938usize] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                dtype: ::promo_core::__private::table::DType::F32,
                kernel: ::promo_core::convert_promote::pair_kernel::<f32, f32, f32>,
            });
            t
        };
    }
}
