//! Names derived from a rule file's keys for the code generated from it, the same
//! in the proc-macro and in `promo gen`.

/// A key in UpperCamelCase, its words split at every character that is not an
/// ASCII letter or digit: `signed_unsigned` → `SignedUnsigned`, `f8e4m3fn` →
/// `F8e4m3fn`, `u64-with-signed` → `U64WithSigned`.
pub fn camel(key: &str) -> String {
    key.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::camel;

    #[test]
    fn words_split_at_punctuation() {
        assert_eq!(camel("signed_unsigned"), "SignedUnsigned");
        assert_eq!(camel("u64-with-signed"), "U64WithSigned");
        assert_eq!(camel("floor_divide"), "FloorDivide");
        assert_eq!(camel("f8e4m3fn"), "F8e4m3fn");
        assert_eq!(camel("__a__b"), "AB");
    }
}
