//! Facts about text that both sides need when they match words of a page: which characters belong to
//! scripts written without spaces between words. Pure; no normalisation tables (the wasm stays small).

/// A Chinese, Japanese or Korean character: words in these scripts are not separated by spaces, so they
/// are matched inside a short label rather than as whole words.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'     // Hangul Jamo
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'   // Hangul compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'   // Katakana extensions
        | '\u{3400}'..='\u{4DBF}'   // Han extension A
        | '\u{4E00}'..='\u{9FFF}'   // Han
        | '\u{AC00}'..='\u{D7AF}'   // Hangul syllables
        | '\u{F900}'..='\u{FAFF}'   // Han compatibility
        | '\u{20000}'..='\u{2FFFF}' // Han extensions B and later
    )
}

#[cfg(test)]
mod tests {
    use super::is_cjk;

    #[test]
    fn cjk_scripts_are_told_from_others() {
        for c in ['削', 'カ', 'ひ', '삭', '한'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'я', 'ß', '1', ' ', 'ü'] {
            assert!(!is_cjk(c), "{c}");
        }
    }
}
