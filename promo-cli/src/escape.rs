//! Text from rule files and from the command line, escaped for each grammar promo
//! writes: a terminal, HTML and SVG, Markdown, CSV, Rust and C source.
//!
//! Rule files may come from anyone, and file names may hold any byte. Every text
//! that is not promo's own reaches an output through one of these functions, so a
//! newline cannot end a comment, a `|` cannot add a table column, a `<` cannot open
//! an element and an escape sequence cannot reach the terminal. Each function states
//! what its output can contain; the tests at the bottom check those statements on
//! arbitrary text.

use std::borrow::Cow;
use std::fmt::Write;

pub use promo_table::text::{visible, visible_lines};

/// The entity [`markup`] writes for `c`, where it writes one.
fn entity(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        '\'' => "&#39;",
        _ => return None,
    })
}

/// `text` for HTML and XML element content and quoted attribute values: visible
/// (XML 1.0 admits no C0 control, even as a character reference), with `&`, `<`,
/// `>`, `"` and `'` as entities.
pub fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in visible(text).chars() {
        match entity(c) {
            Some(e) => out.push_str(e),
            None => out.push(c),
        }
    }
    out
}

/// `text` for one cell of a Markdown table: visible, its markup as entities (no raw
/// HTML), and `|`, `\` and Markdown's inline punctuation backslash-escaped, so the
/// cell stays one cell of plain text.
pub fn markdown_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in visible(text).chars() {
        if let Some(e) = entity(c) {
            out.push_str(e);
            continue;
        }
        if matches!(c, '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '!') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as one CSV field (RFC 4180): visible, and quoted with `"` doubled where
/// it holds a comma or a quote.
pub fn csv_field(text: &str) -> Cow<'_, str> {
    let text = visible(text);
    if text.contains([',', '"']) {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        text
    }
}

/// A Rust string literal whose value is exactly `text`, written in printable ASCII:
/// `"` and `\` escaped, every other character outside `' '..='~'` as `\u{…}`.
pub fn rust_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// `text` inside a Rust `//` comment: visible, so no line terminator ends the
/// comment and no bidirectional control reorders it (rustc refuses those).
pub fn rust_comment(text: &str) -> Cow<'_, str> {
    visible(text)
}

/// The longest C string literal promo writes: C99 (5.2.4.1) asks compilers to
/// accept 4,095 characters in a string literal, and `-pedantic` warns past that.
pub const C_STRING_MAX: usize = 4095;

/// A C string literal whose value is exactly `text`'s UTF-8 bytes, in printable
/// ASCII: `"`, `\` and `?` escaped (no trigraph can form), every other byte outside
/// `' '..='~'` as a three-digit octal escape (which never runs into the next
/// character, as a hex escape would). An error when `text` is longer than
/// [`C_STRING_MAX`] bytes, or holds a NUL, where a C string would end early.
pub fn c_str(text: &str) -> Result<String, String> {
    if text.len() > C_STRING_MAX {
        return Err(format!(
            "is {} bytes long, more than the {C_STRING_MAX} a C99 string literal may hold",
            text.len()
        ));
    }
    if text.contains('\0') {
        return Err("holds a NUL character, where a C string would end".to_owned());
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for b in text.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            b' '..=b'~' => out.push(b as char),
            b => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    Ok(out)
}

/// `text` inside a C `/* … */` comment, in printable ASCII: every character outside
/// `' '..='~'`, and `\` (a backslash before a line end splices lines), `*` (no `*/`
/// can close the comment nor `/*` open one) and a `?` after a `?` (no trigraph),
/// written as `<U+XXXX>`.
pub fn c_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = '\0';
    for c in text.chars() {
        let plain = matches!(c, ' '..='~') && c != '\\' && c != '*' && !(c == '?' && last == '?');
        if plain {
            out.push(c);
            last = c;
        } else {
            let _ = write!(out, "<U+{:04X}>", c as u32);
            last = '>';
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::text::is_unsafe_char;
    use proptest::prelude::*;

    #[test]
    fn markdown_cells_stay_one_cell_of_text() {
        assert_eq!(markdown_cell("a|b"), "a\\|b");
        assert_eq!(markdown_cell("<img src=x>"), "&lt;img src=x&gt;");
        assert_eq!(markdown_cell("x\ny"), "x\\\\u{a}y");
    }

    #[test]
    fn c_literals_cannot_form_trigraphs_or_run_on() {
        assert_eq!(c_str("??/").unwrap(), r#""\?\?/""#);
        assert_eq!(c_str("é1").unwrap(), r#""\303\2511""#);
        assert!(c_str(&"x".repeat(C_STRING_MAX)).is_ok());
        assert!(c_str(&"x".repeat(C_STRING_MAX + 1)).is_err());
        assert!(c_str("a\0b").is_err());
    }

    #[test]
    fn c_comments_cannot_close_or_splice() {
        assert_eq!(c_comment("a */ b\\"), "a <U+002A>/ b<U+005C>");
        assert_eq!(c_comment("??/"), "?<U+003F>/");
        assert_eq!(c_comment("???"), "?<U+003F>?");
    }

    /// Decodes a Rust string literal written by [`rust_str`]: the escapes it uses.
    fn unrust(lit: &str) -> String {
        let inner = &lit[1..lit.len() - 1];
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next().unwrap() {
                'u' => {
                    let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                }
                c => out.push(c),
            }
        }
        out
    }

    /// Decodes a C string literal written by [`c_str`] to its bytes.
    fn unc(lit: &str) -> Vec<u8> {
        let inner = &lit.as_bytes()[1..lit.len() - 1];
        let mut out = Vec::new();
        let mut i = 0;
        while i < inner.len() {
            if inner[i] != b'\\' {
                out.push(inner[i]);
                i += 1;
            } else if inner[i + 1].is_ascii_digit() {
                let octal = std::str::from_utf8(&inner[i + 1..i + 4]).unwrap();
                out.push(u8::from_str_radix(octal, 8).unwrap());
                i += 4;
            } else {
                out.push(inner[i + 1]);
                i += 2;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn every_format_keeps_to_its_alphabet(text in any::<String>()) {
            let printable = |s: &str| !s.chars().any(is_unsafe_char);
            prop_assert!(printable(&visible(&text)));
            let m = markup(&text);
            prop_assert!(printable(&m) && !m.contains(['<', '>', '"', '\'']));
            let md = markdown_cell(&text);
            prop_assert!(printable(&md));
            // Every `|` is escaped: an odd run of backslashes stands before it.
            for (i, _) in md.match_indices('|') {
                let run = md[..i].chars().rev().take_while(|&c| c == '\\').count();
                prop_assert!(run % 2 == 1, "{md}");
            }
            let csv = csv_field(&text);
            prop_assert!(printable(&csv));
            let rust = rust_str(&text);
            prop_assert!(rust.bytes().all(|b| (b' '..=b'~').contains(&b)));
            prop_assert_eq!(unrust(&rust), text.clone());
            prop_assert!(printable(&rust_comment(&text)));
            let comment = c_comment(&text);
            prop_assert!(comment.bytes().all(|b| (b' '..=b'~').contains(&b)));
            prop_assert!(!comment.contains("*/") && !comment.contains("/*"));
            prop_assert!(!comment.contains("??") && !comment.contains('\\'));
            if let Ok(c) = c_str(&text) {
                prop_assert!(c.bytes().all(|b| (b' '..=b'~').contains(&b)));
                prop_assert!(!c.contains("??"));
                prop_assert_eq!(unc(&c), text.as_bytes());
            }
        }
    }
}
