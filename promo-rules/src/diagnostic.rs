//! Errors that point into a rule file: `error: …` then `--> path:line:col` and the line.

use core::fmt;
use core::ops::Range;

/// One problem in a rule file, with the byte range it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, lowercase, no trailing period, the offending text in backticks.
    pub message: String,
    /// Byte range in the file's text.
    pub span: Range<usize>,
}

impl Diagnostic {
    /// A diagnostic about the text at `span`.
    pub fn new(message: impl Into<String>, span: Range<usize>) -> Self {
        Diagnostic {
            message: message.into(),
            span,
        }
    }

    /// The 1-based line and column (in characters) where the span starts.
    pub fn line_col(&self, src: &str) -> (usize, usize) {
        let start = self.span.start.min(src.len());
        let before = &src[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, src[line_start..start].chars().count() + 1)
    }

    /// Renders the diagnostic like rustc does, naming `path`. A long line is cut
    /// to [`SHOWN_AROUND`] characters either side of the span, so the report stays
    /// short whatever the file.
    pub fn render(&self, path: &str, src: &str) -> String {
        let (line, col) = self.line_col(src);
        let start = self.span.start.min(src.len());
        let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[start..].find('\n').map_or(src.len(), |i| start + i);
        let text = src[line_start..line_end].trim_end_matches('\r');
        // A span may start past the shown text (on the `\r` of a CRLF line end).
        let span_end = self.span.end.clamp(start, (line_start + text.len()).max(start));
        let width = src.get(start..span_end).map_or(1, |s| s.chars().count()).max(1);
        // The characters shown: up to SHOWN_AROUND either side of the span.
        let chars: Vec<char> = text.chars().collect();
        let (span_col, span_last) = (col - 1, (col - 1 + width).min(chars.len()));
        let from = span_col.saturating_sub(SHOWN_AROUND);
        let to = (span_last + SHOWN_AROUND).min(chars.len());
        // The line as a terminal shows it, each control character escaped, the
        // caret under the escaped span.
        let escaped_width = |cs: &[char]| {
            cs.iter()
                .map(|&c| escaped(c.encode_utf8(&mut [0; 4])).chars().count())
                .sum::<usize>()
        };
        let span_last = span_last.max(span_col).min(to);
        let mut shown = escaped(&chars[from..to].iter().collect::<String>());
        let mut caret_col = escaped_width(&chars[from..span_col.min(to)]);
        if from > 0 {
            shown.insert(0, '…');
            caret_col += 1;
        }
        if to < chars.len() {
            shown.push('…');
        }
        let width = escaped_width(&chars[span_col.min(to)..span_last]).max(1);
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        format!(
            "error: {}\n{pad}--> {}:{line}:{col}\n{pad} |\n{line} | {shown}\n{pad} | {}{}",
            escaped_message(&self.message),
            escaped(path),
            " ".repeat(caret_col),
            "^".repeat(width)
        )
    }
}

/// `text` with each character a rule-file text may not hold
/// ([`promo_table::text::is_unsafe_char`]), line feeds included, written as its
/// escape (`\u{1b}`, `\u{a}`): what a message quotes from a rule file may hold any
/// character, and a terminal shows each as one line of text.
pub(crate) fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    if promo_table::text::is_unsafe_char(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// A message as it is printed: each control character escaped, and line feeds
/// too inside backticks (where a message quotes a rule file's text); a line feed
/// between the TOML parser's own sentences stays, as it ends the parser's line.
pub(crate) fn escaped_message(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    for c in text.chars() {
        quoted ^= c == '`';
        if c == '\n' && !quoted {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

/// How many characters of a long line a diagnostic shows on each side of its span.
pub const SHOWN_AROUND: usize = 60;

/// Every problem found in one rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    /// The file's path as the user named it.
    pub path: String,
    /// The file's text.
    pub src: String,
    /// The problems, in file order.
    pub errors: Vec<Diagnostic>,
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            f.write_str(&e.render(&self.path, &self.src))?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let src = format!("m = '{}BAD{}'\n", "a ".repeat(5000), " b".repeat(5000));
        let at = src.find("BAD").unwrap();
        let rendered = Diagnostic::new("unknown dtype `BAD`", at..at + 3).render("x.toml", &src);
        assert!(rendered.len() < 400, "{} bytes", rendered.len());
        let lines: Vec<&str> = rendered.lines().collect();
        let caret = lines[4].chars().position(|c| c == '^').unwrap();
        let under: String = lines[3].chars().skip(caret).take(3).collect();
        assert_eq!(under, "BAD", "{rendered}");
        assert!(lines[3].contains('…'));
    }

    #[test]
    fn a_crlf_line_renders_without_its_carriage_return() {
        let src = "a = 1\r\nb = \"f9\"\r\n";
        let d = Diagnostic::new("unknown dtype `f9`", 11..13);
        assert_eq!(d.render("x.toml", src).lines().nth(3), Some("2 | b = \"f9\""));
    }

    #[test]
    fn renders_line_col_and_caret() {
        let src = "a = 1\nb = \"f9\"\n";
        let d = Diagnostic::new("unknown dtype `f9`", 10..12);
        assert_eq!(d.line_col(src), (2, 5));
        assert_eq!(
            d.render("rules/x.toml", src),
            "error: unknown dtype `f9`\n --> rules/x.toml:2:5\n  |\n2 | b = \"f9\"\n  |     ^^"
        );
    }
}
