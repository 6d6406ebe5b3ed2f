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

    /// Renders the diagnostic like rustc does, naming `path`.
    pub fn render(&self, path: &str, src: &str) -> String {
        let (line, col) = self.line_col(src);
        let text = src.lines().nth(line - 1).unwrap_or("");
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        let line_start = src[..self.span.start.min(src.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let span_end = self.span.end.min(line_start + text.len()).max(self.span.start);
        let width = src
            .get(self.span.start..span_end)
            .map_or(1, |s| s.chars().count())
            .max(1);
        format!(
            "error: {}\n{pad}--> {path}:{line}:{col}\n{pad} |\n{line} | {text}\n{pad} | {}{}",
            self.message,
            " ".repeat(col - 1),
            "^".repeat(width)
        )
    }
}

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
