//! `promo gen`: the generated Rust module and C header compile (rustc, gcc, warnings
//! as errors) and give every cell the rule set gives, and every one-operand
//! operation's result and compute dtype, under several option settings.

use promo_table::{DType, Op, OpKind, Operand, Refusal, RuleTable};
use std::path::Path;
use std::process::Command;

mod support;

use support::run;

fn promo_gen(rules: &str, lang: &str, set: &[&str]) -> String {
    let mut args = vec!["gen", rules, "--lang", lang];
    for s in set {
        args.extend(["--set", s]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Every cell as `op lhs rhs result` (`!reason` when refused), from the rule set itself.
fn expected(table: &RuleTable<'_>, set: &[&str]) -> String {
    let options = table.options_from(set.iter().copied()).unwrap();
    // The elementwise operations: the generated code holds those (the others are
    // asked of the rule set at run time).
    let ops: Vec<Op> = if table.ops.is_empty() {
        vec![Op::Add]
    } else {
        table
            .ops
            .iter()
            .copied()
            .filter(|o| o.kind() == promo_table::OpKind::Elementwise)
            .collect()
    };
    let mut out = String::new();
    for &op in &ops {
        for &l in table.dtypes {
            for &r in table.dtypes {
                let answer =
                    match table.promote(&options, op, Operand::Dimensioned(l), Operand::Dimensioned(r)) {
                        Ok(d) => d.to_string(),
                        Err(e) => format!("!{e}"),
                    };
                let name = if table.ops.is_empty() { "any" } else { op.name() };
                out += &format!("{name} {l} {r} {answer}\n");
            }
        }
    }
    // The one-operand operations: each dtype's result and compute dtype; a dtype the
    // rule set does not list is refused as unsupported (the tables cannot name it).
    let shown = |answer: Result<DType, Refusal<'_>>| match answer {
        Ok(d) if table.dtypes.contains(&d) => d.to_string(),
        Ok(d) => format!("!{}", Refusal::UnsupportedDType(d)),
        Err(e) => format!("!{e}"),
    };
    for &op in one_operand_ops(table).iter() {
        for &x in table.dtypes {
            let outcome = table.apply(&options, op, &[Operand::Dimensioned(x)], None);
            let (result, compute) = (outcome.map(|o| o.result.dtype), outcome.map(|o| o.compute));
            out += &format!("one {op} {x} {} {}\n", shown(result), shown(compute));
        }
    }
    out
}

/// The unary operations and reductions the rule set lists.
fn one_operand_ops(table: &RuleTable<'_>) -> Vec<Op> {
    table
        .ops
        .iter()
        .copied()
        .filter(|o| matches!(o.kind(), OpKind::Unary | OpKind::Reduction))
        .collect()
}

fn check_rust(dir: &Path, table: &RuleTable<'_>, set: &[&str]) -> String {
    std::fs::write(dir.join("tables.rs"), promo_gen(table.name, "rust", set)).unwrap();
    // As a library: no warnings, every public item documented.
    std::fs::write(
        dir.join("lib.rs"),
        "//! Generated tables.\n/// The rule set's tables.\npub mod tables;\n",
    )
    .unwrap();
    run(Command::new("rustc")
        .current_dir(dir)
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "-D",
            "warnings",
            "-D",
            "missing-docs",
            "lib.rs",
        ])
        .args(["--out-dir", "."]));
    let (ops, call, name) = if table.ops.is_empty() {
        ("[()]", "{ let () = op; tables::promote(l, r) }", "\"any\"")
    } else {
        ("tables::Op::ALL", "tables::promote(op, l, r)", "op.name()")
    };
    let one = if one_operand_ops(table).is_empty() {
        ""
    } else {
        "    let shown = |a: Result<tables::DType, &str>| match a { Ok(d) => d.name().to_string(), Err(e) => format!(\"!{e}\") };\n\
         \x20   for op in tables::OneOp::ALL {\n        for x in tables::DType::ALL {\n\
         \x20           println!(\"one {} {} {} {}\", op.name(), x.name(), shown(tables::one_operand(op, x)), shown(tables::computed_in(op, x)));\n\
         \x20       }\n    }\n"
    };
    let main = format!(
        "mod tables;\n\
         fn main() {{\n    for op in {ops} {{\n        for l in tables::DType::ALL {{\n            for r in tables::DType::ALL {{\n\
         \x20               let answer = match {call} {{ Ok(d) => d.name().to_string(), Err(e) => format!(\"!{{e}}\") }};\n\
         \x20               println!(\"{{}} {{}} {{}} {{}}\", {name}, l.name(), r.name(), answer);\n            }}\n        }}\n    }}\n{one}}}\n"
    );
    std::fs::write(dir.join("main.rs"), main).unwrap();
    run(Command::new("rustc").current_dir(dir).args([
        "--edition",
        "2021",
        "-D",
        "warnings",
        "main.rs",
        "-o",
        "rust_cells",
    ]));
    run(&mut Command::new(dir.join("rust_cells")))
}

/// Names to parse: every name and common spelling promo has, the rule set's
/// aliases, and a few that name nothing.
fn names_to_parse(table: &RuleTable<'_>) -> Vec<String> {
    let mut names: Vec<String> = DType::ALL
        .iter()
        .flat_map(|d| std::iter::once(d.name()).chain(d.aliases().iter().copied()))
        .chain(table.aliases.iter().map(|&(a, _)| a))
        .map(str::to_owned)
        .collect();
    names.extend(["FLOAT32", "Bool", "float", "int", "complex", "nope", ""].map(String::from));
    names
}

/// What a generated parser must say of each name: the dtype `promo` reads it as
/// under the rule set, as promo_core names the variant (`Some(BF16)`), or `None`
/// (unknown, ambiguous, or a dtype the rule set lacks).
fn expected_names(table: &RuleTable<'_>) -> String {
    names_to_parse(table)
        .iter()
        .map(|name| match table.dtype_named(name) {
            Ok(d) if table.dtypes.contains(&d) => format!("{name:?} Some({d:?})\n"),
            _ => format!("{name:?} None\n"),
        })
        .collect()
}

/// The generated Rust module as a module of a binary that uses only its parser:
/// no warning (dead code included) under `-D warnings`, every name parsed as promo
/// parses it, variants named as promo_core names them.
fn check_rust_names(dir: &Path, table: &RuleTable<'_>) -> String {
    let list: Vec<String> = names_to_parse(table).iter().map(|n| format!("{n:?}")).collect();
    let main = format!(
        "mod tables;\n\
         fn main() {{\n    for name in [{}] {{\n        let parsed: Option<tables::DType> = name.parse().ok();\n\
         \x20       assert_eq!(parsed, tables::DType::from_name(name));\n\
         \x20       println!(\"{{name:?}} {{parsed:?}}\");\n    }}\n}}\n",
        list.join(", ")
    );
    std::fs::write(dir.join("names.rs"), main).unwrap();
    run(Command::new("rustc").current_dir(dir).args([
        "--edition",
        "2021",
        "-D",
        "warnings",
        "names.rs",
        "-o",
        "rust_names",
    ]));
    run(&mut Command::new(dir.join("rust_names")))
}

/// The generated C header's parser, the same way (`-1` printed as `None`).
fn check_c_names(dir: &Path, table: &RuleTable<'_>) -> String {
    let p = format!("promo_{}", table.name);
    let list: Vec<String> = names_to_parse(table).iter().map(|n| format!("{n:?}")).collect();
    let variants: Vec<String> = table.dtypes.iter().map(|d| format!("\"{d:?}\"")).collect();
    let main = format!(
        "#include <stdio.h>\n#include \"tables.h\"\n\
         static const char *const names[] = {{{}}};\n\
         static const char *const variants[] = {{{}}};\n\
         int main(void) {{\n    size_t i;\n    for (i = 0; i < sizeof names / sizeof names[0]; i++) {{\n\
         \x20       int d = {p}_dtype_from_name(names[i]);\n\
         \x20       if (d < 0) printf(\"\\\"%s\\\" None\\n\", names[i]);\n\
         \x20       else printf(\"\\\"%s\\\" Some(%s)\\n\", names[i], variants[d]);\n    }}\n    return 0;\n}}\n",
        list.join(", "),
        variants.join(", ")
    );
    std::fs::write(dir.join("names.c"), main).unwrap();
    run(Command::new("cc").current_dir(dir).args([
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "names.c",
        "-o",
        "c_names",
    ]));
    run(&mut Command::new(dir.join("c_names")))
}

fn check_c(dir: &Path, table: &RuleTable<'_>, set: &[&str]) -> String {
    std::fs::write(dir.join("tables.h"), promo_gen(table.name, "c", set)).unwrap();
    let p = format!("promo_{}", table.name);
    let (loop_open, call, name) = if table.ops.is_empty() {
        (
            "{ const char *name = \"any\";".to_owned(),
            format!("{p}_promote(l, r)"),
            "name",
        )
    } else {
        (
            format!(
                "for (int op = 0; op < {}_OP_COUNT; op++) {{ const char *name = {p}_op_names[op];",
                p.to_uppercase()
            ),
            format!("{p}_promote(op, l, r)"),
            "name",
        )
    };
    let one = if one_operand_ops(table).is_empty() {
        String::new()
    } else {
        format!(
            "    for (int op = 0; op < {P}_ONE_COUNT; op++)\n\
             \x20       for (int x = 0; x < {P}_DTYPE_COUNT; x++) {{\n\
             \x20           int r = {p}_one_operand(op, x), c = {p}_computed_in(op, x);\n\
             \x20           printf(\"one %s %s \", {p}_one_op_names[op], {p}_dtype_names[x]);\n\
             \x20           if (r >= 0) printf(\"%s \", {p}_dtype_names[r]); else printf(\"!%s \", {p}_reasons[-1 - r]);\n\
             \x20           if (c >= 0) printf(\"%s\\n\", {p}_dtype_names[c]); else printf(\"!%s\\n\", {p}_reasons[-1 - c]);\n\
             \x20       }}\n",
            P = p.to_uppercase()
        )
    };
    let main = format!(
        "#include <stdio.h>\n#include \"tables.h\"\nint main(void) {{\n    {loop_open}\n\
         \x20   for (int l = 0; l < {P}_DTYPE_COUNT; l++)\n\
         \x20       for (int r = 0; r < {P}_DTYPE_COUNT; r++) {{\n\
         \x20           int x = {call};\n\
         \x20           if (x >= 0) printf(\"%s %s %s %s\\n\", {name}, {p}_dtype_names[l], {p}_dtype_names[r], {p}_dtype_names[x]);\n\
         \x20           else printf(\"%s %s %s !%s\\n\", {name}, {p}_dtype_names[l], {p}_dtype_names[r], {p}_reasons[-1 - x]);\n\
         \x20       }}\n    }}\n{one}    return 0;\n}}\n",
        P = p.to_uppercase()
    );
    std::fs::write(dir.join("main.c"), main).unwrap();
    run(Command::new("cc").current_dir(dir).args([
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "main.c",
        "-o",
        "c_cells",
    ]));
    run(&mut Command::new(dir.join("c_cells")))
}

#[test]
fn generated_rust_and_c_give_every_cell_of_every_bundled_rule_set() {
    let settings: &[(&str, &[&str])] = &[
        ("openvino", &[]),
        (
            "openvino",
            &["promote_unsafe=true", "u64_integer_promotion_target=f64"],
        ),
        ("kernel_float", &[]),
        ("paddle", &[]),
        ("paddle", &["mode=static"]),
        ("dali", &[]),
        ("array_api", &[]),
        ("torch", &[]),
        ("numpy", &[]),
        ("tensorflow", &[]),
        ("tensorflow", &["dtype_conversion_mode=safe"]),
        ("jax", &[]),
        ("jax", &["jax_enable_x64=true"]),
        ("tinygrad", &[]),
        ("mlx", &[]),
        ("triton", &[]),
        ("mindspore", &[]),
    ];
    for (name, set) in settings {
        let table = promo_core::rules::by_name(name).unwrap();
        let want = expected(table, set);
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(check_rust(dir.path(), table, set), want, "rust, {name} {set:?}");
        assert_eq!(check_c(dir.path(), table, set), want, "c, {name} {set:?}");
        if set.is_empty() {
            let names = expected_names(table);
            assert_eq!(check_rust_names(dir.path(), table), names, "rust names, {name}");
            assert_eq!(check_c_names(dir.path(), table), names, "c names, {name}");
        }
    }
}

#[test]
fn the_output_names_its_origin_and_is_marked_generated() {
    let rust = promo_gen("openvino", "rust", &["promote_unsafe=true"]);
    assert!(
        rust.starts_with("// @generated by `promo gen --lang rust` from openvino"),
        "{rust}"
    );
    assert!(rust.lines().next().unwrap().contains("promote_unsafe=true"));
    let c = promo_gen("dali", "c", &[]);
    assert!(
        c.starts_with("/* @generated by `promo gen --lang c` from dali"),
        "{c}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(["gen", "dali", "--lang", "c", "--set", "nosuch=1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
