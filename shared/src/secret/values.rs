//! Secrets known by their value, wherever they appear: payment card numbers (13–19 digits that pass
//! the Luhn check, written whole or in groups separated by spaces, dashes or `+`), and the values a
//! user typed into secret fields, which whoever holds them passes in ([`Redactor::new`]).
//!
//! [`Redactor`] is the one place such values are taken out of what leaves: the service worker runs
//! every tool result it relays through it (with the values the tab's frames reported), and the host
//! every result it receives (card numbers, and the values it saw handed to the user) before anything
//! reaches the model, the session, the logs or an MCP client. A value is replaced by [`REDACTED`],
//! compared without regard to case (a page may print it in capitals).
//!
//! Must not: keep or log a value (it only answers), or touch a screenshot's picture (`base64`, whose
//! letters and digits mean nothing as text: the picture is masked where it is taken).

use serde_json::Value;

use crate::tools::ToolResult;

/// What stands where a secret was.
pub const REDACTED: &str = "•••";

/// Values shorter than this (in characters, spaces not counted) are not looked for: they would match
/// ordinary text everywhere and carry next to nothing.
pub const MIN_VALUE_CHARS: usize = 4;

/// At most this many values are looked for (the newest kept), so a page that fills many fields
/// cannot make every result slow.
pub const MAX_VALUES: usize = 64;

/// Keys whose strings are Waymark's own, never page text, and must stay exact: a picture's `base64`
/// (its letters mean nothing as text) and a document's random token (`document`, which a pinned action
/// is checked against: a token whose hex digits happened to hold a value would make the page seem
/// changed).
const KEPT_KEYS: [&str; 2] = ["base64", "document"];

/// Values longer than this are looked for by their first this many characters.
const MAX_VALUE_CHARS: usize = 256;

/// Whether `text`, as a whole (spaces at its ends aside), is a card number: 13–19 digits, possibly in
/// groups, passing the Luhn check.
pub fn is_card_number(text: &str) -> bool {
    let text = text.trim();
    let runs = digit_runs(text);
    matches!(runs.as_slice(), [run] if run.start == 0 && run.end() == text.len() && run.whole_is_card())
}

/// Whether a card number stands anywhere in `text` (as [`Redactor`] finds them).
pub fn holds_card_number(text: &str) -> bool {
    !card_spans(text).is_empty()
}

/// The Luhn check over decimal digits (most significant first).
pub fn luhn(digits: &[u8]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            let d = u32::from(d);
            match (i % 2 == 1, d * 2) {
                (true, doubled) if doubled > 9 => doubled - 9,
                (true, doubled) => doubled,
                (false, _) => d,
            }
        })
        .sum();
    !digits.is_empty() && sum.is_multiple_of(10)
}

/// Takes known secret values and card numbers out of text.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Each value in lower case, as characters.
    values: Vec<Vec<char>>,
}

impl Redactor {
    /// A redactor for these values (those too short to look for are left out); card numbers are
    /// always looked for.
    pub fn new<S: AsRef<str>>(values: impl IntoIterator<Item = S>) -> Self {
        let mut kept: Vec<Vec<char>> = Vec::new();
        for value in values {
            let value: Vec<char> = value
                .as_ref()
                .trim()
                .chars()
                .take(MAX_VALUE_CHARS)
                .map(lower)
                .collect();
            if value.iter().filter(|c| !c.is_whitespace()).count() >= MIN_VALUE_CHARS
                && !kept.contains(&value)
            {
                kept.push(value);
            }
        }
        // Longest first: a value that contains another is taken out whole.
        kept.sort_by_key(|v| std::cmp::Reverse(v.len()));
        kept.truncate(MAX_VALUES);
        Self { values: kept }
    }

    /// Where known values and card numbers stand in `text`: byte ranges, in order (they may overlap).
    pub fn spans(&self, text: &str) -> Vec<(usize, usize)> {
        let mut spans = card_spans(text);
        spans.extend(self.value_spans(text));
        spans.sort_unstable();
        spans
    }

    /// `text` with every known value and card number replaced, or `None` when it holds none.
    pub fn text(&self, text: &str) -> Option<String> {
        let spans = self.spans(text);
        if spans.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in spans {
            if end <= at {
                continue;
            }
            if start >= at {
                out.push_str(&text[at..start]);
                out.push_str(REDACTED);
            }
            at = end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// Redacts every string in `value` (keys too), except a picture's `base64`. Whether anything
    /// changed.
    pub fn json(&self, value: &mut Value) -> bool {
        match value {
            Value::String(text) => match self.text(text) {
                Some(clean) => {
                    *text = clean;
                    true
                }
                None => false,
            },
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |changed, item| self.json(item) | changed),
            Value::Object(map) => {
                let mut changed = false;
                let renamed: Vec<(String, String)> = map
                    .keys()
                    .filter_map(|key| self.text(key).map(|clean| (key.clone(), clean)))
                    .collect();
                for (key, clean) in renamed {
                    if let Some(v) = map.remove(&key) {
                        map.insert(clean, v);
                        changed = true;
                    }
                }
                for (key, item) in map.iter_mut() {
                    if !KEPT_KEYS.contains(&key.as_str()) {
                        changed |= self.json(item);
                    }
                }
                changed
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => false,
        }
    }

    /// A tool's result with every known value and card number taken out of its words, its data and its
    /// reason.
    pub fn result(&self, mut result: ToolResult) -> ToolResult {
        if let Some(error) = &result.error {
            if let Some(clean) = self.text(error) {
                result.error = Some(clean);
            }
        }
        if let Some(data) = result.data.as_mut() {
            self.json(data);
        }
        if let Some(reason) = &result.reason {
            if let Ok(mut value) = serde_json::to_value(reason) {
                if self.json(&mut value) {
                    // A reason that no longer reads is dropped: its words (`error`) are clean already.
                    result.reason = crate::PageReason::from_value(&value).ok().map(Box::new);
                }
            }
        }
        result
    }

    /// Where the known values stand in `text`, as byte ranges.
    fn value_spans(&self, text: &str) -> Vec<(usize, usize)> {
        if self.values.is_empty() {
            return Vec::new();
        }
        let chars: Vec<(usize, char)> = text.char_indices().map(|(i, c)| (i, lower(c))).collect();
        let mut spans = Vec::new();
        for value in &self.values {
            let Some(&first) = value.first() else { continue };
            let mut i = 0;
            while i + value.len() <= chars.len() {
                if chars[i].1 == first
                    && chars[i..i + value.len()]
                        .iter()
                        .map(|(_, c)| *c)
                        .eq(value.iter().copied())
                {
                    let end = chars.get(i + value.len()).map_or(text.len(), |(at, _)| *at);
                    spans.push((chars[i].0, end));
                    i += value.len();
                } else {
                    i += 1;
                }
            }
        }
        spans
    }
}

/// One character in lower case (only its first, so a value and the text keep their lengths alike).
fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// The value of a decimal digit: ASCII, or full width (a page may write either).
fn digit(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '\u{FF10}'..='\u{FF19}' => u8::try_from(c as u32 - 0xFF10).ok(),
        _ => None,
    }
}

/// What may stand between two groups of a card number's digits.
fn separator(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    if rest.starts_with("%20") {
        return Some(3);
    }
    let c = rest.chars().next()?;
    matches!(
        c,
        ' ' | '-' | '+' | '\u{00A0}' | '\u{2009}' | '\u{202F}' | '\u{2010}'..='\u{2012}'
    )
    .then(|| c.len_utf8())
}

/// A group of digits: its byte range and its digits.
struct Group {
    start: usize,
    end: usize,
    digits: Vec<u8>,
}

/// Digits in groups, each group separated from the next by one separator.
struct Run {
    start: usize,
    groups: Vec<Group>,
}

impl Run {
    fn end(&self) -> usize {
        self.groups.last().map_or(self.start, |g| g.end)
    }

    fn whole_is_card(&self) -> bool {
        let digits: Vec<u8> = self
            .groups
            .iter()
            .flat_map(|g| g.digits.iter().copied())
            .collect();
        (13..=19).contains(&digits.len()) && luhn(&digits)
    }
}

/// Every run of digit groups in `text`.
fn digit_runs(text: &str) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let Some(c) = text[at..].chars().next() else { break };
        if digit(c).is_none() {
            at += c.len_utf8();
            continue;
        }
        let mut run = Run {
            start: at,
            groups: Vec::new(),
        };
        loop {
            let mut group = Group {
                start: at,
                end: at,
                digits: Vec::new(),
            };
            while let Some(d) = text[at..]
                .chars()
                .next()
                .and_then(|c| digit(c).map(|d| (d, c.len_utf8())))
            {
                group.digits.push(d.0);
                at += d.1;
            }
            group.end = at;
            run.groups.push(group);
            // Another group follows only after exactly one separator.
            match separator(text, at) {
                Some(len) if text[at + len..].chars().next().and_then(digit).is_some() => at += len,
                _ => break,
            }
        }
        runs.push(run);
    }
    runs
}

/// Where card numbers stand in `text`: in each run, every stretch of whole groups holding 13–19
/// digits that passes the Luhn check (so a number followed by a year or preceded by a label's digits
/// is found, while a long identifier written without separators is not cut into "cards").
fn card_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for run in digit_runs(text) {
        let groups = &run.groups;
        for first in 0..groups.len() {
            let mut digits: Vec<u8> = Vec::new();
            for last in first..groups.len() {
                digits.extend_from_slice(&groups[last].digits);
                if digits.len() > 19 {
                    break;
                }
                if digits.len() >= 13 && luhn(&digits) {
                    spans.push((groups[first].start, groups[last].end));
                }
            }
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    const VISA: &str = "4111111111111111";

    #[test]
    fn card_numbers_pass_luhn_in_any_common_writing() {
        assert!(is_card_number(VISA));
        assert!(is_card_number("4111 1111 1111 1111"));
        assert!(is_card_number(" 4111-1111-1111-1111 "));
        assert!(is_card_number("378282246310005"), "an Amex number has 15 digits");
        assert!(!is_card_number("4111111111111112"), "the Luhn check fails");
        assert!(!is_card_number("411111111111"), "too short");
        assert!(!is_card_number("4111 1111 1111 1111 x"));
        assert!(luhn(&[7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 3]));
    }

    #[test]
    fn card_numbers_are_taken_out_wherever_they_stand() {
        let r = Redactor::default();
        assert_eq!(
            r.text("Paid with 4111 1111 1111 1111 on 2026").as_deref(),
            Some("Paid with ••• on 2026")
        );
        assert_eq!(
            r.text("card 4111 1111 1111 1111 2026").as_deref(),
            Some("card ••• 2026"),
            "a year written after it"
        );
        assert_eq!(
            r.text("/pay?cc=4111+1111+1111+1111&x=1").as_deref(),
            Some("/pay?cc=•••&x=1")
        );
        assert_eq!(r.text("cc=4111%201111%201111%201111").as_deref(), Some("cc=•••"));
        assert_eq!(r.text("４１１１１１１１１１１１１１１１").as_deref(), Some("•••"));
        // Order numbers, phone numbers and long identifiers stay.
        for kept in [
            "Order 123456789",
            "+47 22 33 44 55",
            "41111111111111112026",
            "4111111111111112",
        ] {
            assert_eq!(r.text(kept), None, "{kept}");
        }
    }

    #[test]
    fn known_values_are_taken_out_without_regard_to_case() {
        let r = Redactor::new(["Hunter2Quill", "abc", "  "]);
        assert_eq!(
            r.text("Your password HUNTER2QUILL was saved; abc stays")
                .as_deref(),
            Some("Your password ••• was saved; abc stays")
        );
        assert_eq!(r.text("nothing here"), None);
        let mut data = serde_json::json!({
            "title": "hunter2quill", "items": [{"name": "x Hunter2Quill"}],
            "base64": "Hunter2Quill", "hunter2quill": 1
        });
        assert!(r.json(&mut data));
        assert_eq!(data["title"], "•••");
        assert_eq!(data["items"][0]["name"], "x •••");
        assert_eq!(data["base64"], "Hunter2Quill", "a picture is not text");
        assert_eq!(data["•••"], 1);
    }

    #[test]
    fn a_document_token_stays_exact() {
        let r = Redactor::new(["1234"]);
        let mut data = serde_json::json!({"document": "ab1234cd", "pin": {"document": "4111111111111111"}});
        assert!(!r.json(&mut data));
        assert_eq!(data["document"], "ab1234cd");
    }

    #[test]
    fn a_result_is_clean_in_its_words_data_and_reason() {
        let r = Redactor::new(["SecretWord"]);
        let result = ToolResult {
            data: Some(serde_json::json!({"snippet": "echo secretword"})),
            ..ToolResult::error("page says SecretWord and 4111111111111111")
        };
        let clean = r.result(result);
        assert_eq!(clean.error.as_deref(), Some("page says ••• and •••"));
        assert_eq!(clean.data, Some(serde_json::json!({"snippet": "echo •••"})));
    }
}
