//! The policy's second judgement: a request a page tried to send while Waymark acted, stopped by the
//! request guard, judged as an effect of its own. Whatever road led to it (a plain "OK" whose script
//! sends DELETE, a checkbox whose listener posts, a chat box outside any form), a request that pays,
//! deletes or sends has to say so somewhere: in its method, its address (path words, query) or its
//! fields' names and words.
//!
//! - confirm: an address that deletes reached by GET (a link that redirects there); the method DELETE, or a method that is not POST, PUT or PATCH (nothing says what it
//!   does); an address whose words delete, pay or send (in the policy's 14 languages, the path hints
//!   `checkout`, `payment`, `order`…, and the nouns of messages and comments a request creates by
//!   being posted); a field whose name deletes or pays, or a short value (or any value of a field
//!   that names a command: `action`, `op`, `operationName`, a GraphQL `mutation`) that deletes, pays or
//!   sends;
//! - allow: everything else — adding to a cart, a search posted, an analytics beacon, a draft saved.
//!
//! Long values of other fields are content (a message's text, a search's words, a mail's subject),
//! never read as a command. Must not: read a value the extension left out (secrets never arrive), quote
//! a field's value in a reason, or decide by site.

use waymark_protocol::{RequestField, StoppedRequest};

use super::text::{camel_spaced, destructive_path, find, normalize_capped, token_hint, TextKind, LEX};
use super::{words, Verdict, LABEL_MAX_CHARS};

/// What a stopped request does, as far as the policy can tell: said in the question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestEffect {
    /// It deletes, removes or cancels something; `word` says where it says so.
    Deletes { word: String },
    /// It pays, buys, orders or books.
    Pays { word: String },
    /// It sends, posts or publishes something to others.
    Sends { word: String },
    /// Its method is not one that says what it does (`CONNECT`, `PROPFIND`, …).
    Unknown,
}

/// The verdict on one stopped request: allow or confirm, why (English, for logs and tests), and what it
/// does when it is asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestDecision {
    pub decision: Verdict,
    pub reason: String,
    pub effect: Option<RequestEffect>,
}

impl RequestDecision {
    fn allow(reason: impl Into<String>) -> Self {
        Self {
            decision: Verdict::Allow,
            reason: reason.into(),
            effect: None,
        }
    }

    fn confirm(effect: RequestEffect, reason: impl Into<String>) -> Self {
        Self {
            decision: Verdict::Confirm,
            reason: reason.into(),
            effect: Some(effect),
        }
    }
}

/// The words a request is sent to create when it is posted: a message, a comment, a mail.
const SENT_THINGS: &[&str] = &[
    "message",
    "messages",
    "msg",
    "chat",
    "comment",
    "comments",
    "reply",
    "replies",
    "mail",
    "email",
    "mails",
    "emails",
    "tweet",
    "tweets",
    "dm",
    "invite",
    "invitation",
    "invitations",
];

/// Fields whose value is a command, however long it is.
const COMMAND_FIELDS: &[&str] = &[
    "action",
    "op",
    "operation",
    "operation name",
    "method",
    "cmd",
    "command",
    "intent",
    "do",
    "verb",
    "mutation",
];

/// Fields whose value is content the user or the page wrote (never read as a command).
const CONTENT_FIELDS: &[&str] = &[
    "q",
    "query",
    "search",
    "s",
    "term",
    "terms",
    "keyword",
    "keywords",
    "text",
    "body",
    "content",
    "message",
    "comment",
    "subject",
    "title",
    "description",
    "note",
    "notes",
    "html",
    "markdown",
    "summary",
    "name",
];

/// Short values (at most this many words) are read for what they say.
const SHORT_VALUE_WORDS: usize = 4;

/// Judges one stopped request. See the module doc for the rules.
pub fn classify_request(request: &StoppedRequest) -> RequestDecision {
    let method = request.method.trim().to_uppercase();
    if method == "DELETE" {
        return RequestDecision::confirm(
            RequestEffect::Deletes { word: method },
            "the request's method is DELETE",
        );
    }
    if matches!(method.as_str(), "GET" | "HEAD") {
        // Stopped for its address alone (a link may redirect to one that deletes).
        return judge_address(&request.url)
            .unwrap_or_else(|| RequestDecision::allow("a request that only reads"));
    }
    if !matches!(method.as_str(), "POST" | "PUT" | "PATCH") {
        return RequestDecision::confirm(
            RequestEffect::Unknown,
            format!("the request's method {method} does not say what it does"),
        );
    }
    if let Some(decision) = judge_address(&request.url) {
        return decision;
    }
    for field in &request.fields {
        if let Some(decision) = judge_field(field) {
            return decision;
        }
    }
    RequestDecision::allow("nothing in the request says it pays, deletes or sends")
}

/// The address's path and query, as words: `/api/deleteMessage?id=4` reads "api delete message id 4".
fn address_words(url: &str) -> String {
    let decoded = super::text::percent_decode(url);
    let rest = match decoded.split_once("://") {
        Some((_, after)) => after.find(['/', '?']).map_or("", |i| &after[i..]),
        None => decoded.as_str(),
    };
    let rest = waymark_protocol::request::without_fragment(rest);
    let spaced: String = camel_spaced(rest)
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    normalize_capped(&spaced, LABEL_MAX_CHARS).0
}

fn judge_address(url: &str) -> Option<RequestDecision> {
    if let Some(word) = destructive_path(url) {
        return Some(RequestDecision::confirm(
            RequestEffect::Deletes { word: word.into() },
            format!("the request's address deletes (it mentions '{word}')"),
        ));
    }
    let words = address_words(url);
    if let Some(decision) = by_lexicon(&words, "the request's address") {
        return Some(decision);
    }
    if let Some(hint) = token_hint(&words) {
        return Some(by_hint(hint, "the request's address"));
    }
    let sent = words
        .split(' ')
        .find(|w| SENT_THINGS.contains(w))
        .map(str::to_owned);
    sent.map(|word| {
        RequestDecision::confirm(
            RequestEffect::Sends { word: word.clone() },
            format!("the request's address posts a new '{word}'"),
        )
    })
}

fn judge_field(field: &RequestField) -> Option<RequestDecision> {
    let name = normalize_capped(&camel_spaced(&field.name), LABEL_MAX_CHARS).0;
    // A field's name deletes or pays ("delete_ids", "payment_method"); a name never sends by itself
    // (a form's "submit" button travels as a field).
    for (lex, effect) in [(&LEX.delete, Kind::Deletes), (&LEX.pay, Kind::Pays)] {
        if let Some(word) = find(lex, &name, TextKind::FreeText) {
            return Some(effect.decision(word, "a field's name"));
        }
    }
    if let Some(hint) = token_hint(&name) {
        return Some(by_hint(hint, "a field's name"));
    }
    let value = camel_words(field.words.as_deref()?);
    let command = COMMAND_FIELDS.contains(&name.as_str())
        || (name == "query" && value.starts_with("mutation"))
        || name.ends_with(" method");
    let short = value.split(' ').count() <= SHORT_VALUE_WORDS;
    let content = CONTENT_FIELDS.contains(&name.as_str());
    if !(command || (short && !content)) {
        return None;
    }
    // Releasing or removing an edit lock (`wp-remove-post-lock`, `release_lock`) changes nothing the
    // user wrote: editors send it as a page is left, whoever leaves it.
    if value.split(' ').any(|w| LOCKS.contains(&w)) {
        return None;
    }
    by_lexicon(&value, "a field's value")
}

/// Words naming an edit lock: a command about one only coordinates who edits.
const LOCKS: &[&str] = &["lock", "locks", "unlock"];

/// A value's words with camelCase split too (`DeleteMessage` reads "delete message").
fn camel_words(value: &str) -> String {
    let spaced: String = camel_spaced(value)
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    normalize_capped(&spaced, LABEL_MAX_CHARS).0
}

#[derive(Clone, Copy)]
enum Kind {
    Deletes,
    Pays,
    Sends,
}

impl Kind {
    fn decision(self, word: &str, place: &str) -> RequestDecision {
        let word = word.to_owned();
        let (effect, means) = match self {
            Kind::Deletes => (RequestEffect::Deletes { word: word.clone() }, "deletes"),
            Kind::Pays => (RequestEffect::Pays { word: word.clone() }, "pays or orders"),
            Kind::Sends => (RequestEffect::Sends { word: word.clone() }, "sends or publishes"),
        };
        RequestDecision::confirm(effect, format!("{place} says it {means} ('{word}')"))
    }
}

/// The first word of the pay, delete and send lists in normalised `words`.
fn by_lexicon(words: &str, place: &str) -> Option<RequestDecision> {
    let classes = [
        (&LEX.delete, Kind::Deletes),
        (&LEX.pay, Kind::Pays),
        (&LEX.send, Kind::Sends),
    ];
    classes
        .into_iter()
        .find_map(|(lex, kind)| find(lex, words, TextKind::FreeText).map(|word| kind.decision(word, place)))
}

/// A risk hint of an address (`checkout`, `order`, `remove`…) as what it does.
fn by_hint(hint: &str, place: &str) -> RequestDecision {
    let deletes = words::DESTRUCTIVE_PATH_HEADS.iter().any(|w| hint.starts_with(w))
        || ["cancel", "unsubscribe"].contains(&hint);
    let kind = if deletes { Kind::Deletes } else { Kind::Pays };
    kind.decision(hint, place)
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::RequestKind;

    fn request(method: &str, url: &str, fields: &[(&str, Option<&str>)]) -> StoppedRequest {
        StoppedRequest {
            method: method.into(),
            url: url.into(),
            kind: RequestKind::Fetch,
            frame: 0,
            fields: fields
                .iter()
                .map(|(name, value)| waymark_protocol::request::field(name, *value))
                .collect(),
            partial: false,
        }
    }

    fn verdict(method: &str, url: &str, fields: &[(&str, Option<&str>)]) -> RequestDecision {
        classify_request(&request(method, url, fields))
    }

    #[test]
    fn requests_that_delete_pay_or_send_are_asked_about() {
        let asks = [
            verdict("DELETE", "https://mail.example/api/messages/42", &[]),
            verdict("POST", "https://mail.example/api/messages/42/delete", &[]),
            verdict("POST", "https://mail.example/api/trash", &[("id", Some("42"))]),
            verdict("POST", "https://shop.example/api/orders", &[("sku", Some("A-1"))]),
            verdict("POST", "https://shop.example/checkout/complete", &[]),
            verdict(
                "POST",
                "https://chat.example/api/messages",
                &[("text", Some("hello team"))],
            ),
            verdict(
                "POST",
                "https://chat.example/api/chat.postMessage",
                &[("channel", Some("general"))],
            ),
            verdict("POST", "https://app.example/rpc", &[("action", Some("delete"))]),
            verdict("POST", "https://app.example/rpc", &[("_method", Some("DELETE"))]),
            verdict(
                "POST",
                "https://app.example/settings",
                &[("auto_renew", Some("true")), ("subscribe", Some("yes"))],
            ),
            verdict(
                "POST",
                "https://app.example/graphql",
                &[
                    ("operationName", Some("DeleteMessage")),
                    (
                        "query",
                        Some("mutation DeleteMessage($id: ID!) { deleteMessage(id: $id) { ok } }"),
                    ),
                ],
            ),
            verdict(
                "POST",
                "https://blog.example/wp-json/wp/v2/posts/7",
                &[("status", Some("publish"))],
            ),
            verdict(
                "POST",
                "https://bank.example/konto/loeschen",
                &[("bestaetigen", Some("löschen"))],
            ),
            verdict("PROPFIND", "https://files.example/", &[]),
        ];
        for (i, decision) in asks.iter().enumerate() {
            assert_eq!(decision.decision, Verdict::Confirm, "{i}: {decision:?}");
            assert!(decision.effect.is_some(), "{i}");
        }
        assert_eq!(
            asks[0].effect,
            Some(RequestEffect::Deletes {
                word: "DELETE".into()
            })
        );
        assert!(
            matches!(asks[3].effect, Some(RequestEffect::Pays { .. })),
            "{:?}",
            asks[3]
        );
        assert!(
            matches!(asks[5].effect, Some(RequestEffect::Sends { .. })),
            "{:?}",
            asks[5]
        );
        assert_eq!(asks[13].effect, Some(RequestEffect::Unknown));
    }

    #[test]
    fn everyday_requests_are_let_through() {
        let fine = [
            verdict(
                "POST",
                "https://shop.example/cart/add",
                &[("product_id", Some("A-1")), ("qty", Some("1"))],
            ),
            verdict(
                "POST",
                "https://shop.example/search",
                &[("q", Some("delete key keyboard")), ("submit", Some("Search"))],
            ),
            verdict(
                "POST",
                "https://www.google-analytics.com/g/collect?v=2&en=page_view",
                &[],
            ),
            verdict(
                "POST",
                "https://app.example/api/track",
                &[("event", Some("click")), ("label", Some("open mail"))],
            ),
            verdict(
                "POST",
                "https://mail.example/api/read",
                &[
                    ("id", Some("9")),
                    ("subject", Some("Please delete the old photos")),
                ],
            ),
            verdict(
                "PUT",
                "https://docs.example/api/docs/5/draft",
                &[(
                    "content",
                    Some("A long line that says delete, pay and send all at once, as people write"),
                )],
            ),
            verdict(
                "POST",
                "https://app.example/graphql",
                &[
                    ("operationName", Some("GetInbox")),
                    ("query", Some("query GetInbox { inbox { id } }")),
                ],
            ),
            verdict(
                "POST",
                "https://blog.example/wp-json/wp/v2/posts/7",
                &[("status", Some("draft")), ("title", Some("Hello"))],
            ),
            verdict(
                "POST",
                "https://login.example/session",
                &[("user", Some("ada")), ("password", Some("hunter2"))],
            ),
            // The block editor releases its lock on the post as it is left.
            verdict(
                "POST",
                "https://blog.example/wp-admin/admin-ajax.php",
                &[
                    ("action", Some("wp-remove-post-lock")),
                    ("post_ID", Some("7")),
                    ("active_post_lock", Some("1")),
                ],
            ),
        ];
        for (i, decision) in fine.iter().enumerate() {
            assert_eq!(decision.decision, Verdict::Allow, "{i}: {decision:?}");
        }
    }

    #[test]
    fn a_reason_never_quotes_a_value() {
        let decision = verdict(
            "POST",
            "https://app.example/rpc",
            &[("action", Some("delete now"))],
        );
        assert_eq!(decision.decision, Verdict::Confirm);
        assert!(!decision.reason.contains("now"), "{}", decision.reason);
    }
}
