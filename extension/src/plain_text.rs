//! (content script) Plain text as the content script compares and reports it: labels folded for
//! comparing, words cut to a length with an ellipsis, and the private-use characters of icon fonts
//! (not words: no screen reader can say them).
//!
//! A leaf: it imports no other module of the extension (see `dom.rs`). Must not read the page; it is
//! pure text.

use waymark_protocol::text::collapse_spaces;

/// Lower case, spacing collapsed: how option labels are compared.
pub fn fold(text: &str) -> String {
    collapse_spaces(text).to_lowercase()
}

/// White space collapsed, and cut to `max` characters with an ellipsis.
pub fn cut(text: &str, max: usize) -> String {
    let joined = collapse_spaces(text);
    if joined.chars().count() <= max {
        return joined;
    }
    let cut: String = joined.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

/// A character of the Unicode private-use areas, where icon fonts (WordPress's dashicons) draw.
pub fn is_private_use(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_fold_and_words_are_cut_with_an_ellipsis() {
        assert_eq!(fold("  Delete \n Forever "), "delete forever");
        assert_eq!(cut("Order   total €84.97", 40), "Order total €84.97");
        assert_eq!(cut("one two three", 8), "one two…");
        assert!(is_private_use('\u{f102}') && !is_private_use('a'));
    }
}
