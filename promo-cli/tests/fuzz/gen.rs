//! Fuzzes `promo gen` with arbitrary text in every field a rule file gives it (the
//! title, the version, the reasons, an option's doc, a layer's name, an alias) and
//! in the rule file's own name, for a bounded time (`PROMO_FUZZ_SECONDS`,
//! `PROMO_FUZZ_SEED` as in `tests/fuzz.rs`). Each case either is refused with a
//! message, or gives Rust and C that compile with the README's flags, whose code
//! (everything outside string literals, as the compilers see it) is exactly that of
//! the same rule file with plain texts, and whose strings hold exactly the texts.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::fuzz_support::{budget, seed, Rng};

use crate::support::run;

/// Pieces that have broken generated code somewhere: line ends, comment ends,
/// trigraphs, line splices, quotes, braces, bidi controls, escapes.
const PIECES: &[&str] = &[
    "\n",
    "\r",
    "\r\n",
    "\\",
    "\\\n",
    "*/",
    "/*",
    "??/",
    "??",
    "?",
    "\"",
    "'",
    "{",
    "}",
    "{A}",
    "pub fn injected() {}",
    "int injected_c;",
    "\u{202e}",
    "\u{2066}",
    "\u{2028}",
    "\u{85}",
    "\x1b[31m",
    "\0",
    "\t",
    "é",
    "😀",
    "|",
    "<img src=x>",
    "`",
    "#",
    "#[doc = \"x\"]",
    "%s",
    "$",
];

fn text(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(8) {
        match rng.below(3) {
            0 => {
                let piece: &&str = rng.pick(PIECES);
                out.push_str(piece);
            }
            1 => out.push_str("plain words"),
            _ => {
                // Any scalar value, weighted towards the low planes.
                let c = match rng.below(3) {
                    0 => rng.below(0x80) as u32,
                    1 => rng.below(0x3000) as u32,
                    _ => rng.below(0x11_0000) as u32,
                };
                out.extend(char::from_u32(c));
            }
        }
    }
    out
}

/// A TOML basic string holding exactly `text`.
fn toml_str(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// A TOML quoted key holding exactly `text`.
fn toml_key(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The texts of one case: title, version, two reasons, an option's doc, a layer
/// name, an alias of `i8`.
struct Texts([String; 7]);

fn rule_file(t: &Texts) -> String {
    let [title, version, first, second, doc, layer, alias] = &t.0;
    format!(
        "[rules]\nname = \"fz\"\nmarker = \"Fz\"\ntitle = {}\nversion = {}\ncommutative = false\n\
         dtypes = [\"i8\", \"u8\"]\n\n[options.strict]\ntype = \"bool\"\ndefault = false\ndoc = {}\n\n\
         [aliases]\n{} = \"i8\"\n\n\
         [reasons]\nfirst = {}\nsecond = {}\n\n[[layer]]\nname = {}\nmatrix = '''\n     i8       u8\n\
         i8   i8       !first\nu8   !second  u8\n'''\n",
        toml_str(title),
        toml_str(version),
        toml_str(doc),
        toml_key(alias),
        toml_str(first),
        toml_str(second),
        toml_str(layer),
    )
}

/// The code of a source file as a compiler sees it, with every string literal's
/// contents left out (comments are already gone: the C is preprocessed, the Rust is
/// read by the same rules rustc uses for `//` comments and strings).
fn skeleton(src: &str) -> String {
    let mut out = String::new();
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push_str("\"\"");
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn gen(dir: &Path, file: &str, lang: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_promo"))
        .current_dir(dir)
        .args(["gen", file, "--lang", lang])
        .output()
        .unwrap()
}

/// Compiles the Rust module with the README's flags and prints its reasons, then
/// what it parses `alias` as.
fn rust_reasons(dir: &Path, src: &str, alias: &str) -> String {
    std::fs::write(dir.join("tables.rs"), src).unwrap();
    std::fs::write(
        dir.join("main.rs"),
        format!(
            "//! Generated tables.\n/// The rule set's tables.\npub mod tables;\n\
             fn main() {{ for r in tables::REASONS {{ println!(\"{{r:?}}\"); }} let _ = tables::promote(tables::DType::I8, tables::DType::U8);\n\
             println!(\"{{:?}}\", tables::DType::from_name({alias:?})); }}\n"
        ),
    )
    .unwrap();
    run(Command::new("rustc").current_dir(dir).args([
        "--edition",
        "2021",
        "-D",
        "warnings",
        "-D",
        "missing-docs",
        "main.rs",
        "-o",
        "rust_main",
    ]));
    run(&mut Command::new(dir.join("rust_main")))
}

/// Compiles the C header with the README's flags, prints its reasons (as bytes in
/// hex) and what it parses `alias` as, and returns them with the header's
/// preprocessed skeleton.
fn c_reasons(dir: &Path, src: &str, alias: &str) -> (String, String) {
    std::fs::write(dir.join("fz.h"), src).unwrap();
    let alias: String = alias.bytes().map(|b| format!("\\{b:03o}")).collect();
    std::fs::write(
        dir.join("main.c"),
        format!(
            "#include <stdio.h>\n#include \"fz.h\"\nint main(void) {{\n  size_t i; const char *p;\n\
             for (i = 0; i < sizeof promo_fz_reasons / sizeof *promo_fz_reasons; i++) {{\n\
             for (p = promo_fz_reasons[i]; *p; p++) printf(\"%02x\", (unsigned char)*p);\n\
             printf(\"\\n\"); }}\n  printf(\"%d\\n\", promo_fz_dtype_from_name(\"{alias}\"));\n\
             return promo_fz_promote(PROMO_FZ_I8, PROMO_FZ_U8) >= 0;\n}}\n"
        ),
    )
    .unwrap();
    let flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    run(Command::new("cc")
        .current_dir(dir)
        .args(flags)
        .args(["main.c", "-o", "c_main"]));
    let reasons = run(&mut Command::new(dir.join("c_main")));
    let pre = run(Command::new("cc")
        .current_dir(dir)
        .args(flags)
        .args(["-E", "-P", "fz.h"]));
    (reasons, skeleton(&pre))
}

/// Control characters (C0, DEL, C1), line separators and bidi controls.
fn acts_on_a_terminal(c: char) -> bool {
    c < ' '
        || ('\u{7f}'..='\u{9f}').contains(&c)
        || "\u{2028}\u{2029}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}"
            .contains(c)
}

/// A file name holding `text`: no `/` nor NUL, and `.toml` at the end; written
/// `./NAME`, so a name starting with `-` is not read as an option.
fn file_name(text: &str) -> String {
    let name: String = text.chars().filter(|&c| c != '/' && c != '\0').take(40).collect();
    format!("./{name}.toml")
}

#[test]
fn fuzz_gen_text_fields() {
    let mut rng = seed("gen text fields");
    let dir = tempfile::Builder::new()
        .prefix("promo-fuzz-gen-")
        .tempdir()
        .unwrap();
    let dir = dir.path();
    // The plain case: what every generated file must look like outside its strings.
    let plain = Texts(std::array::from_fn(|i| format!("text{i}")));
    std::fs::write(dir.join("plain.toml"), rule_file(&plain)).unwrap();
    let plain_rust = skeleton(&String::from_utf8(gen(dir, "plain.toml", "rust").stdout).unwrap());
    let plain_c = {
        let out = gen(dir, "plain.toml", "c");
        c_reasons(dir, &String::from_utf8(out.stdout).unwrap(), &plain.0[6]).1
    };
    let budget = budget();
    let (start, mut cases, mut refused) = (Instant::now(), 0u32, 0u32);
    while start.elapsed() < budget || cases < 3 {
        cases += 1;
        let mut texts = Texts(std::array::from_fn(|_| text(&mut rng)));
        // An alias is one word (one with a blank is refused, and would hide the
        // other fields' cases): the same pieces, without the blanks.
        texts.0[6] = texts.0[6].chars().filter(|c| !c.is_whitespace()).collect();
        if texts.0[6].is_empty() {
            texts.0[6] = "x".to_owned();
        }
        let name = file_name(&text(&mut rng));
        let path = dir.join(&name);
        std::fs::write(&path, rule_file(&texts)).unwrap();
        let rust = gen(dir, &name, "rust");
        if !rust.status.success() {
            // Refused: a message, exit 2, and nothing a terminal would act on.
            refused += 1;
            assert_eq!(
                rust.status.code(),
                Some(2),
                "{}",
                String::from_utf8_lossy(&rust.stderr)
            );
            let stderr = String::from_utf8_lossy(&rust.stderr);
            assert!(stderr.starts_with("promo: "), "{stderr}");
            assert!(
                !stderr.chars().any(|c| c != '\n' && acts_on_a_terminal(c)),
                "{stderr:?}"
            );
            assert!(rust.stdout.is_empty());
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let rust_src = String::from_utf8(rust.stdout).unwrap();
        // Only the origin comment and the strings differ from the plain case.
        let origin = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(origin(&skeleton(&rust_src)), origin(&plain_rust), "{rust_src}");
        let printed = rust_reasons(dir, &rust_src, &texts.0[6]);
        // The alias parses as the dtype it names.
        let expected: String = [&texts.0[2], &texts.0[3]]
            .iter()
            .map(|r| format!("{r:?}\n"))
            .chain(["Some(I8)\n".to_owned()])
            .collect();
        assert_eq!(printed, expected);
        let c = gen(dir, &name, "c");
        if texts.0[2..4].iter().any(|r| r.contains('\0')) {
            // A C string ends at a NUL: the header is refused, not cut short.
            let stderr = String::from_utf8_lossy(&c.stderr);
            assert_eq!(c.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains("NUL"), "{stderr}");
            continue;
        }
        assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
        let (reasons, skeleton_c) = c_reasons(dir, &String::from_utf8(c.stdout).unwrap(), &texts.0[6]);
        assert_eq!(skeleton_c, plain_c);
        let hex = |s: &str| s.bytes().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            reasons,
            format!("{}\n{}\n0\n", hex(&texts.0[2]), hex(&texts.0[3]))
        );
        let _ = std::fs::remove_file(&path);
    }
    println!("fuzz gen text fields: {cases} cases, {refused} refused by validation");
}
