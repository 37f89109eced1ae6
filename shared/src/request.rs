//! The request guard's words, shared by the host and the extension: what a page-changing action may
//! send while the guard watches it ([`Guard`], [`AllowedRequest`]), what the guard stopped
//! ([`StoppedRequest`]), and the pure code both sides need about a request: whether its method changes
//! anything ([`changes_state`]), whether an allowance covers it ([`AllowedRequest::covers`]), and
//! what of its body may be judged ([`fields_of_form`], [`fields_of_body`]).
//!
//! While Waymark acts in a tab, every request from that tab that may change something on a server (a
//! method other than GET, HEAD or OPTIONS: `fetch`/XHR, a form posted as a navigation, a beacon or
//! `<a ping>`) is stopped unless it is covered, and what was stopped goes to the host's policy as an
//! effect of its own. A body is reduced here, in the browser, before it travels: field names, and the
//! words of values — never the value of a field whose name says secret (a password, a code, a PIN, a
//! card, a token, a key) and never a run of four or more digits (codes, card numbers, telephone
//! numbers by value), so such values are neither judged, sent, logged nor quoted.
//!
//! Must not: do I/O, keep a secret value in anything it returns, or read more of a body than
//! [`MAX_BODY_BYTES`] and [`MAX_FIELDS`] allow (a hostile page can send any body).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::secret::values::Redactor;
use crate::text::form_decode;

/// How much of a request's body is read.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// How many fields of a body are kept.
pub const MAX_FIELDS: usize = 32;
/// How many characters of a field's name are kept.
const NAME_MAX_CHARS: usize = 64;
/// How many characters of a value's words are kept (enough for a GraphQL operation's first line).
const WORDS_MAX_CHARS: usize = 160;
/// How deep into a JSON body field names are looked for.
const JSON_MAX_DEPTH: usize = 6;

/// One request the guard lets through: exactly this method to exactly this address (its fragment
/// aside, which never travels), once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllowedRequest {
    /// `POST`, `DELETE`, … (any case).
    pub method: String,
    pub url: String,
}

impl AllowedRequest {
    pub fn new(method: &str, url: &str) -> Self {
        Self {
            method: method.to_uppercase(),
            url: without_fragment(url).to_owned(),
        }
    }

    /// Whether this allowance covers a request of `method` to `url`.
    pub fn covers(&self, method: &str, url: &str) -> bool {
        self.method.eq_ignore_ascii_case(method) && without_fragment(&self.url) == without_fragment(url)
    }
}

/// How a page-changing action is guarded: sent with the action ([`crate::RunTool::guard`]); an action
/// the host sends without one is not guarded (the user said yes to it, so its requests go).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// The requests already covered: the form the gate judged and allowed, a request the user said yes
    /// to, a harmless one the policy let through. Each goes once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<AllowedRequest>,
}

/// The key, in a guarded action's result data, of how long the frame watched the page after the action
/// before it answered (milliseconds): the request guard counts those moments toward the quiet it waits
/// for, and takes the key out before the result goes on.
pub const WATCHED_MS: &str = "guard_watched_ms";

/// How the page tried to send a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// `fetch()` or `XMLHttpRequest`.
    Fetch,
    /// A form posted as a navigation of a frame; the frame still shows its page.
    Form,
    /// A form posted as a navigation of the whole tab that only the browser could stop: the tab shows
    /// the browser's "blocked" page instead of the answer.
    Page,
    /// `navigator.sendBeacon` or `<a ping>`: sent and forgotten, the page never hears an answer.
    Beacon,
    /// Anything else (a plugin, a script or style sheet loaded by a method that changes things).
    Other,
}

/// A request the guard stopped while an action took effect: what the page tried to send, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoppedRequest {
    /// `POST`, `PUT`, `PATCH`, `DELETE`, …
    pub method: String,
    /// The address, whole (an allowance must name it exactly).
    pub url: String,
    pub kind: RequestKind,
    /// The frame that sent it (0: the tab's page).
    #[serde(default)]
    pub frame: i32,
    /// The body's fields, as far as they may be judged (see [`RequestField`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<RequestField>,
    /// The body held more than was read (binary data, a file, more fields or bytes than are kept).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

impl StoppedRequest {
    /// This request with every value `redactor` knows (what the user typed into secret fields) and
    /// every card number taken out of its fields' names and words, as everything else that leaves the
    /// worker and reaches the host is. The address stays whole: an allowance must name it exactly, and
    /// it is never quoted whole (the gate shows its path and its query's names, redacted again).
    pub fn redacted(mut self, redactor: &Redactor) -> Self {
        for field in &mut self.fields {
            if let Some(name) = redactor.text(&field.name) {
                field.name = name;
            }
            if let Some(words) = field.words.as_deref().and_then(|w| redactor.text(w)) {
                field.words = Some(words);
            }
        }
        self
    }
}

/// One field of a request's body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestField {
    /// Its name (a form field's, a JSON key; empty for a body that is one text).
    pub name: String,
    /// The words of its value, without runs of four or more digits, shortened; absent when the field
    /// is secret by its name, or its value has no letters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
}

/// What a frame's content script stopped while it was armed (its answer to
/// [`crate::WorkerToContent::Disarm`]): forms it kept from being posted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disarmed {
    #[serde(default)]
    pub stopped: Vec<StoppedRequest>,
}

/// Whether a request of this method may change something on its server: anything but GET, HEAD and
/// OPTIONS.
pub fn changes_state(method: &str) -> bool {
    !["GET", "HEAD", "OPTIONS"]
        .iter()
        .any(|safe| safe.eq_ignore_ascii_case(method.trim()))
}

/// The address without its `#fragment`, which a request never carries.
pub fn without_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(before, _)| before)
}

/// Parts of a field's name that mark what it carries as secret, or as a key to the user's account:
/// its value is withheld. (Field names in a body are identifiers, in English as a rule; a name in any
/// other script is withheld too. The page-side predicate, `crate::secret`, reads labels in 14
/// languages, but its word lists would double what the service worker loads for this one check.)
const SECRET_NAME_PARTS: &[&str] = &[
    "pass",
    "pwd",
    "pin",
    "otp",
    "code",
    "cvv",
    "cvc",
    "csc",
    "card",
    "cc",
    "pan",
    "token",
    "secret",
    "key",
    "auth",
    "session",
    "cookie",
    "ssn",
    "iban",
    "account",
    "acct",
    "security",
    "credential",
    "2fa",
    "mfa",
    "totp",
    "captcha",
];

/// Whether a field's value is withheld because of its name: a word of it (split at camelCase, digits
/// and punctuation) starts with one of [`SECRET_NAME_PARTS`], or it is not all ASCII.
fn secret_name(name: &str) -> bool {
    if !name.is_ascii() {
        return true;
    }
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        let starts = !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && previous_lower);
        if starts && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    words.push(word);
    words
        .iter()
        .any(|w| SECRET_NAME_PARTS.iter().any(|part| w.starts_with(part)))
}

/// One field as it may be judged: its name, and its value's words unless its name says it is secret.
pub fn field(name: &str, value: Option<&str>) -> RequestField {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_MAX_CHARS)
        .collect();
    let words = match value {
        Some(value) if !secret_name(&name) => words_of(value),
        _ => None,
    };
    RequestField { name, words }
}

/// A value's words: every run of four or more digits taken out (codes, card and telephone numbers by
/// value), control characters out, shortened; `None` when no letter is left.
fn words_of(value: &str) -> Option<String> {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if digits.chars().count() < 4 {
            out.push_str(digits);
        }
        digits.clear();
    };
    for c in value.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        // A number written in groups ("4111 1111 1111 1111", "12-34") is one run.
        if !digits.is_empty() && matches!(c, ' ' | '-' | '.') {
            continue;
        }
        flush(&mut digits, &mut out);
        out.push(if c.is_control() { ' ' } else { c });
        if out.chars().count() >= WORDS_MAX_CHARS {
            break;
        }
    }
    flush(&mut digits, &mut out);
    let out: String = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let out: String = out.chars().take(WORDS_MAX_CHARS).collect();
    out.chars().any(char::is_alphabetic).then_some(out)
}

/// The fields of a form's entries (name, value; `None` for a file), at most [`MAX_FIELDS`]; whether
/// there were more.
pub fn fields_of_form<'a>(
    entries: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> (Vec<RequestField>, bool) {
    let mut fields = Vec::new();
    let mut partial = false;
    for (name, value) in entries {
        if fields.len() == MAX_FIELDS {
            partial = true;
            break;
        }
        partial |= value.is_none();
        fields.push(field(name, value));
    }
    (fields, partial)
}

/// The fields of a raw body: JSON (its keys and scalar values, nested keys by their own name), a
/// URL-encoded form, or else plain text (one field without a name). Binary data has none. Whether more
/// was there than was read.
pub fn fields_of_body(bytes: &[u8]) -> (Vec<RequestField>, bool) {
    let cut = bytes.len() > MAX_BODY_BYTES;
    let bytes = &bytes[..bytes.len().min(MAX_BODY_BYTES)];
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // Cut inside a character: what came before it.
        Err(e) if cut && e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return (Vec::new(), true),
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return (Vec::new(), cut);
    }
    if let Ok(json) = serde_json::from_str::<Value>(trimmed) {
        let mut fields = Vec::new();
        let partial = json_fields(None, &json, 0, &mut fields);
        return (fields, cut || partial);
    }
    if looks_url_encoded(trimmed) {
        let pairs: Vec<(String, String)> = trimmed
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (form_decode(name), form_decode(value))
            })
            .collect();
        let (fields, partial) = fields_of_form(pairs.iter().map(|(n, v)| (n.as_str(), Some(v.as_str()))));
        return (fields, cut || partial);
    }
    (vec![field("", Some(trimmed))], cut)
}

/// Walks a JSON body: each scalar becomes a field named by its key (or its parent's, inside a list).
/// Whether anything was left out.
fn json_fields(key: Option<&str>, value: &Value, depth: usize, out: &mut Vec<RequestField>) -> bool {
    if out.len() >= MAX_FIELDS || depth > JSON_MAX_DEPTH {
        return true;
    }
    let name = key.unwrap_or_default();
    match value {
        Value::Object(map) => {
            let mut partial = false;
            for (k, v) in map {
                partial |= json_fields(Some(k), v, depth + 1, out);
            }
            partial
        }
        Value::Array(items) => {
            let mut partial = false;
            for item in items {
                partial |= json_fields(key, item, depth + 1, out);
            }
            partial
        }
        Value::String(s) => {
            out.push(field(name, Some(s)));
            false
        }
        Value::Bool(b) => {
            out.push(field(name, Some(if *b { "true" } else { "false" })));
            false
        }
        Value::Number(_) | Value::Null => {
            out.push(field(name, None));
            false
        }
    }
}

/// `a=1&b=two`: names made of word characters before every `=`.
fn looks_url_encoded(text: &str) -> bool {
    !text.contains(char::is_whitespace)
        && text.split('&').all(|pair| {
            pair.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_-.[]%+".contains(c))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(fields: &[RequestField]) -> Vec<(String, Option<String>)> {
        fields.iter().map(|f| (f.name.clone(), f.words.clone())).collect()
    }

    #[test]
    fn only_get_head_and_options_change_nothing() {
        for method in ["GET", "head", "Options"] {
            assert!(!changes_state(method), "{method}");
        }
        for method in ["POST", "put", "PATCH", "DELETE", "CONNECT", "PROPFIND"] {
            assert!(changes_state(method), "{method}");
        }
    }

    #[test]
    fn an_allowance_covers_exactly_its_method_and_address() {
        let allowed = AllowedRequest::new("post", "https://shop.example/cart/add?id=4#top");
        assert!(allowed.covers("POST", "https://shop.example/cart/add?id=4"));
        assert!(!allowed.covers("DELETE", "https://shop.example/cart/add?id=4"));
        assert!(!allowed.covers("POST", "https://shop.example/cart/add?id=5"));
        assert!(!allowed.covers("POST", "https://shop.example/cart/add"));
    }

    #[test]
    fn secret_fields_and_digit_runs_never_leave_the_browser() {
        let (fields, partial) = fields_of_form([
            ("user", Some("ada")),
            ("password", Some("hunter2 secret")),
            ("otp", Some("123456")),
            ("cc-number", Some("4111 1111 1111 1111")),
            ("note", Some("card 4111-1111-1111-1111 and code 987654 please")),
            ("avatar", None),
            ("пароль", Some("tajny")),
            ("csrfToken", Some("abc def")),
            ("success_url", Some("thanks page")),
        ]);
        assert!(partial, "a file is more than was read");
        assert_eq!(
            words(&fields),
            vec![
                ("user".into(), Some("ada".into())),
                ("password".into(), None),
                ("otp".into(), None),
                ("cc-number".into(), None),
                ("note".into(), Some("card and code please".into())),
                ("avatar".into(), None),
                ("пароль".into(), None),
                ("csrfToken".into(), None),
                ("success_url".into(), Some("thanks page".into())),
            ]
        );
        let everything = format!("{fields:?}");
        for secret in ["hunter2", "4111", "987654", "123456", "tajny", "abc def"] {
            assert!(!everything.contains(secret), "{secret} in {everything}");
        }
    }

    #[test]
    fn a_json_body_gives_its_keys_and_words() {
        let body = br#"{"operationName":"DeleteMessage","variables":{"id":"m-77","confirm":true,"count":3},"query":"mutation DeleteMessage($id: ID!) { deleteMessage(id: $id) }"}"#;
        let (fields, partial) = fields_of_body(body);
        assert!(!partial);
        let mut got = words(&fields);
        got.sort();
        assert_eq!(
            got,
            vec![
                ("confirm".into(), Some("true".into())),
                ("count".into(), None),
                ("id".into(), Some("m-77".into())),
                ("operationName".into(), Some("DeleteMessage".into())),
                (
                    "query".into(),
                    Some("mutation DeleteMessage($id: ID!) { deleteMessage(id: $id) }".into())
                ),
            ]
        );
    }

    #[test]
    fn url_encoded_and_plain_bodies() {
        let (fields, _) = fields_of_body(b"action=delete&ids%5B%5D=4&reason=no+longer+needed");
        assert_eq!(
            words(&fields),
            vec![
                ("action".into(), Some("delete".into())),
                ("ids[]".into(), None),
                ("reason".into(), Some("no longer needed".into())),
            ]
        );
        let (fields, _) = fields_of_body(b"delete everything now");
        assert_eq!(
            words(&fields),
            vec![(String::new(), Some("delete everything now".into()))]
        );
        let (fields, partial) = fields_of_body(&[0xff, 0x00, 0x12]);
        assert!(fields.is_empty() && partial);
    }

    #[test]
    fn a_hostile_body_is_read_only_so_far() {
        let many: String = (0..100).map(|i| format!("f{i}=x&")).collect();
        let (fields, partial) = fields_of_body(many.trim_end_matches('&').as_bytes());
        assert_eq!(fields.len(), MAX_FIELDS);
        assert!(partial);
        let huge = "a".repeat(MAX_BODY_BYTES * 4);
        let (fields, partial) = fields_of_body(huge.as_bytes());
        assert!(partial);
        assert!(fields[0]
            .words
            .as_ref()
            .is_some_and(|w| w.chars().count() <= WORDS_MAX_CHARS));
        // Deeper than JSON is read: no panic, nothing judged from it.
        let deep = format!("{}\"x\"{}", "[".repeat(5_000), "]".repeat(5_000));
        let (fields, _) = fields_of_body(deep.as_bytes());
        assert!(fields.len() <= 1);
    }
}
