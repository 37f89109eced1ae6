//! The one text module for matching a page's words against word lists, on both sides: which characters
//! are folded away or read alike before comparing (invisible characters, typographic apostrophes and
//! dashes, full-width forms, accents, case, spacing), how a word or phrase is found whole in a text,
//! and which scripts are written without spaces between words.
//!
//! Its users: the host's policy (`classify`: risky words on controls), the secret-field predicate
//! (`crate::secret`), and in the extension the banner closer (a banner's words, its buttons' labels)
//! and `find` (controls by their words). Each builds its own normaliser from these pieces, because
//! each needs a little more: the policy folds compatibility forms (NFKC), the secret predicate splits
//! camelCase identifiers, the banner closer trims punctuation around a label.
//!
//! Must not: carry Unicode tables (this crate is compiled into the content script that runs in every
//! frame; a caller that needs canonical decomposition brings its own: the host's
//! `unicode-normalization`, the browser's `String.prototype.normalize`), do I/O, interpret page text
//! as anything but data, or panic or slow down on hostile input (every function is linear in its
//! input, or quadratic only in a word list's phrase length).

/// A character of a script written without spaces between words (Chinese, Japanese), or whose words
/// take their endings without a space (Korean: "쿠키를", "삭제하기"). Words in these scripts are found
/// inside a text, not only between spaces, and such a character next to a word does not join it.
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
        | '\u{FF66}'..='\u{FF9F}'   // Half-width Katakana
        | '\u{FFA1}'..='\u{FFDC}'   // Half-width Hangul
        | '\u{20000}'..='\u{2FFFF}' // Han extensions B and later
    )
}

/// Format and zero-width characters that render as nothing: dropped before matching, so a page cannot
/// hide "Delete" as "De\u{200B}lete".
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// The typographic forms of the apostrophe the web writes ("don’t", "l‘app", "ʼ"): read as `'`, the
/// form the word lists use.
pub fn is_apostrophe(c: char) -> bool {
    matches!(c, '’' | '‘' | 'ʼ' | '`' | '´' | '′')
}

/// A hyphen, dash or minus sign: a word separator for matching ("check-out", "Pay — now").
pub fn is_dash(c: char) -> bool {
    matches!(c, '-' | '‐' | '‑' | '‒' | '–' | '—' | '―' | '−')
}

/// A combining accent (U+0300–U+036F), as left behind by canonical decomposition ("é" as "e" and
/// U+0301) or by lowercasing ("İ" lowercases to "i" and a combining dot).
pub fn is_combining_accent(c: char) -> bool {
    ('\u{300}'..='\u{36F}').contains(&c)
}

/// Full-width ASCII (`ＰＩＮ`) and the ideographic space as their plain forms.
pub fn fold_width(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        c => c,
    }
}

/// The letter without its accent, for the precomposed letters of the Latin and Cyrillic languages the
/// word lists cover (lowercase only: callers lowercase first). For folding without decomposition
/// tables; `None` for a letter that has no accent to drop.
pub fn fold_accent(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' | 'ĝ' | 'ġ' | 'ģ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ł' | 'ľ' | 'ĺ' | 'ļ' => "l",
        'ñ' | 'ń' | 'ň' | 'ņ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'ŕ' | 'ř' => "r",
        'ś' | 'š' | 'ş' | 'ș' | 'ŝ' => "s",
        'ť' | 'ţ' | 'ț' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        'ß' => "ss",
        'ё' => "е",
        'й' => "и",
        'ї' => "і",
        'ґ' => "г",
        _ => return None,
    })
}

/// Runs of white space as one space, none at either end: "  No \n thanks " → "No thanks".
pub fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Case, accents and spacing folded away, for a search typed by a person: "Café  Crème" → "cafe creme"
/// once decomposed. Accents are dropped as combining marks, so a caller decomposes first (NFD) for
/// precomposed letters to lose theirs; this crate carries no decomposition tables.
pub fn fold(decomposed: &str) -> String {
    let bare: String = decomposed.chars().filter(|c| !is_combining_accent(*c)).collect();
    collapse_spaces(&bare.to_lowercase())
}

/// The byte ranges of the words (runs of letters and digits) of `text`.
pub fn word_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// `term` stands in `text` at byte `start` with no letter or digit right after it (the caller knows
/// a word begins at `start`).
pub fn ends_whole_at(text: &str, start: usize, term: &str) -> bool {
    text.get(start..).is_some_and(|rest| {
        rest.strip_prefix(term)
            .is_some_and(|after| !after.chars().next().is_some_and(char::is_alphanumeric))
    })
}

/// `needle` occurs in `text` as whole words: no letter or digit right before or after it. "pay" is in
/// "pay now" and "pay-now", not in "prepay" or "payment".
pub fn contains_word(text: &str, needle: &str) -> bool {
    occurs_between(text, needle, char::is_alphanumeric)
}

/// Like [`contains_word`], except that a letter of a script written without spaces ([`is_cjk`]) does
/// not join a word ("我们使用cookie" holds "cookie"), and a phrase in such a script is found anywhere
/// ("すべて拒否する" holds "拒否").
pub fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.chars().any(is_cjk) {
        return !phrase.is_empty() && text.contains(phrase);
    }
    occurs_between(text, phrase, |c| c.is_alphanumeric() && !is_cjk(c))
}

/// `needle` occurs somewhere in `text` with no character that `joins` right before or after it. Every
/// occurrence is tried, overlapping ones too ("ab ab" stands whole in "xab ab ab" at its second place).
fn occurs_between(text: &str, needle: &str, joins: impl Fn(char) -> bool) -> bool {
    let Some(first) = needle.chars().next() else {
        return false;
    };
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| rest.find(needle)) {
        let start = from + at;
        let end = start + needle.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        if !before.is_some_and(&joins) && !after.is_some_and(&joins) {
            return true;
        }
        from = start + first.len_utf8();
    }
    false
}

/// A URL-encoded form's name or value decoded: `+` is a space, then `%XX` as [`percent_decode`].
pub fn form_decode(s: &str) -> String {
    percent_decode(&s.replace('+', " "))
}

/// Decodes `%XX` escapes (invalid ones stay as they are; invalid UTF-8 becomes U+FFFD).
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_scripts_are_told_from_others() {
        for c in ['削', 'カ', 'ひ', '삭', '한', 'ｶ'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'я', 'ß', '1', ' ', 'ü', 'Ａ'] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn invisible_apostrophes_dashes_and_accents_are_known() {
        assert!(
            "De\u{200B}le\u{FEFF}te"
                .chars()
                .filter(|c| is_invisible(*c))
                .count()
                == 2
        );
        assert!(['’', '‘', 'ʼ', '`', '´', '′'].into_iter().all(is_apostrophe));
        assert!(!is_apostrophe('\''));
        assert!(['-', '–', '—', '−'].into_iter().all(is_dash));
        assert!(!is_dash('_'));
        assert!(is_combining_accent('\u{301}') && !is_combining_accent('e'));
        assert_eq!(fold_width('Ｐ'), 'P');
        assert_eq!(fold_width('\u{3000}'), ' ');
        assert_eq!(fold_accent('ñ'), Some("n"));
        assert_eq!(fold_accent('ß'), Some("ss"));
        assert_eq!(fold_accent('й'), Some("и"));
        assert_eq!(fold_accent('n'), None);
    }

    #[test]
    fn fold_drops_case_accents_and_spacing() {
        assert_eq!(fold("Cafe\u{301}  Cre\u{300}me\n"), "cafe creme");
        assert_eq!(collapse_spaces("  No \n thanks "), "No thanks");
        assert_eq!(fold(""), "");
    }

    #[test]
    fn words_are_runs_of_letters_and_digits() {
        assert_eq!(word_ranges("pay now!"), [(0, 3), (4, 7)]);
        assert_eq!(word_ranges("  "), []);
        assert!(ends_whole_at("card number", 0, "card"));
        assert!(!ends_whole_at("cardholder", 0, "card"));
        assert!(!ends_whole_at("card", 9, "card"));
    }

    #[test]
    fn whole_words_need_no_letter_or_digit_around_them() {
        assert!(contains_word("pay now", "pay"));
        assert!(contains_word("pay-now", "pay"));
        assert!(!contains_word("prepay", "pay"));
        assert!(!contains_word("payment", "pay"));
        assert!(contains_word("удалить всё", "удалить"));
        assert!(!contains_word("pay", ""));
        // A later, overlapping occurrence counts when the first does not stand whole.
        assert!(contains_word("xab ab ab", "ab ab"));
        // Next to a Chinese character, a word is not whole for the policy, but is for a phrase.
        assert!(!contains_word("支払pay", "pay"));
        assert!(contains_phrase("支払pay", "pay"));
    }

    #[test]
    fn phrases_in_scripts_without_spaces_are_found_anywhere() {
        assert!(contains_phrase("reject all", "reject"));
        assert!(!contains_phrase("book now", "ok"));
        assert!(!contains_phrase("subscribed", "subscribe"));
        assert!(contains_phrase("我们使用cookie", "cookie"));
        assert!(contains_phrase("すべて拒否する", "拒否"));
        assert!(contains_phrase("cookie를 사용합니다", "cookie"));
        assert!(!contains_phrase("拒否", ""));
    }
}
