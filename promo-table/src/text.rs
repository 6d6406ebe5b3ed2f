//! Which characters a text of a rule set may not hold: the texts a rule file gives
//! (its title, reasons, option docs, layer names) are shown on terminals, in HTML
//! and in generated Rust, so each is one line of printable text. `promo-rules`
//! refuses a rule file whose texts hold any of these characters, and the `promo`
//! command escapes them wherever it prints text it did not write ([`visible`],
//! [`visible_lines`]).

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` may not appear in a text of a rule set: a C0 control (U+0000 to
/// U+001F, tab, line feed and carriage return among them), DEL (U+007F), a C1
/// control (U+0080 to U+009F), the line and paragraph separators (U+2028,
/// U+2029), or a bidirectional embedding, override or isolate control (U+202A to
/// U+202E, U+2066 to U+2069), which reorder the text shown around them.
///
/// ```
/// use promo_table::text::is_unsafe_char;
/// assert!(is_unsafe_char('\n') && is_unsafe_char('\u{1b}') && is_unsafe_char('\u{202e}'));
/// assert!(!is_unsafe_char(' ') && !is_unsafe_char('é') && !is_unsafe_char('→'));
/// ```
pub const fn is_unsafe_char(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `text` with every [unsafe character](is_unsafe_char) shown as `\u{…}`: one line
/// of printable text, for a terminal and for every format below.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` of several lines, each [visible]: its `\n`s stay line ends, and
/// nothing else acts on a terminal.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unsafe_char(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(visible).collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_shows_what_a_terminal_would_act_on() {
        assert_eq!(
            visible("a\nb\x1b[31m\u{202e}c\t"),
            "a\\u{a}b\\u{1b}[31m\\u{202e}c\\u{9}"
        );
        assert!(matches!(visible("plain ü"), Cow::Borrowed("plain ü")));
    }

    #[test]
    fn controls_separators_and_bidi_controls_are_unsafe() {
        // By name: NUL, BEL, backspace, tab, LF, VT, FF, CR, ESC, unit separator,
        // DEL, PAD, NEL, CSI, APC, LS, PS, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
        let unsafe_chars = [
            0x00, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f, 0x2028,
            0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
        ];
        for code in unsafe_chars {
            let c = char::from_u32(code).unwrap();
            assert!(is_unsafe_char(c), "U+{code:04X}");
        }
    }

    #[test]
    fn printable_text_is_safe() {
        // Space, the printable ASCII, NBSP and the first Latin-1 letters, the
        // characters next to the refused ranges, and text the bundled files use.
        let safe = " !~¡ é×→≥…—–“”‘’µ\u{a0}\u{2027}\u{202f}\u{2065}\u{206a}漢字🙂";
        for c in safe.chars().chain((0x20..0x7f).map(|b| b as u8 as char)) {
            assert!(!is_unsafe_char(c), "U+{:04X}", c as u32);
        }
    }
}
