//! The words of a string value: a `matrix`, the lattice's `edges` or a `cells`
//! entry, split into non-empty lines of whitespace-separated words, each with its
//! byte range in the file.

use crate::diagnostic::Diagnostic;
use toml::Spanned;

/// Splits a string value of a rule file (`what` names it in errors) into its
/// non-empty lines of whitespace-separated words, each with its byte range in
/// `src`; `#` starts a comment that runs to the end of the line.
///
/// The value must be a literal string (`'''…'''` or `'…'`) or a basic string
/// without escapes, so that every character of the value stands in the file.
pub(super) fn lines(
    src: &str,
    value: &Spanned<String>,
    what: &str,
) -> Result<Vec<Vec<Spanned<String>>>, Diagnostic> {
    let span = value.span();
    let raw = &src[span.clone()];
    // Locate the value's characters inside the quoted text.
    let quote = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let mut start = span.start + quote;
    if quote == 3 && src[start..].starts_with('\n') {
        start += 1;
    } else if quote == 3 && src[start..].starts_with("\r\n") {
        start += 2;
    }
    // The value as it stands in the file: TOML turns CRLF line ends into LF.
    let end = span.end.saturating_sub(quote).max(start);
    let body = src.get(start..end).unwrap_or("");
    if body != value.get_ref() && body.replace("\r\n", "\n") != *value.get_ref() {
        return Err(Diagnostic::new(
            format!("`{what}` must be a literal string ('''…''') without escapes"),
            span,
        ));
    }
    let mut lines = Vec::new();
    let mut offset = start;
    for line in body.split_inclusive('\n') {
        let body = line.split('#').next().unwrap_or("");
        let words: Vec<Spanned<String>> = body
            .split_ascii_whitespace()
            .map(|w| {
                let at = offset + (w.as_ptr() as usize - body.as_ptr() as usize);
                Spanned::new(at..at + w.len(), w.to_owned())
            })
            .collect();
        if !words.is_empty() {
            lines.push(words);
        }
        offset += line.len();
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Wrapper {
        rules: OneValue,
    }

    #[derive(Deserialize)]
    struct OneValue {
        m: Spanned<String>,
    }

    /// The words of `src`'s value `rules.m`, each as the text at its span.
    fn words(src: &str) -> Vec<Vec<&str>> {
        let f: Wrapper = toml::from_str(src).unwrap();
        let lines = lines(src, &f.rules.m, "m").unwrap();
        lines
            .iter()
            .map(|line| {
                line.iter()
                    .map(|w| {
                        assert_eq!(&src[w.span()], w.get_ref());
                        &src[w.span()]
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn words_keep_their_place() {
        let src = "[rules]\nm = '''\n   a  b\nx  1  2 # note\n'''\n";
        assert_eq!(words(src), [vec!["a", "b"], vec!["x", "1", "2"]]);
    }

    #[test]
    fn crlf_lines_keep_their_place() {
        let src = "[rules]\r\nm = '''\r\n   a  b\r\nx  1  2 # note\r\n'''\r\n";
        assert_eq!(words(src), [vec!["a", "b"], vec!["x", "1", "2"]]);
    }

    #[test]
    fn an_escape_is_refused() {
        let src = "[rules]\nm = \"a\\tb\"\n";
        let f: Wrapper = toml::from_str(src).unwrap();
        let e = lines(src, &f.rules.m, "m").unwrap_err();
        assert_eq!(
            e.message,
            "`m` must be a literal string ('''…''') without escapes"
        );
    }
}
