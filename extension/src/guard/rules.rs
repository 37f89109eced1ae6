//! The `declarativeNetRequest` session rules that stop a guarded tab's requests, in that tab only:
//! every form posted, beacon and `<a ping>` (a page never hears their answer, and a form the acting
//! frame keeps back never left, so stopping them shows the page no error); every `fetch`/XHR whose
//! method says nothing of what it does or deletes (`DELETE`, `CONNECT`, any other but POST, PUT and
//! PATCH); a `fetch`/XHR posted to an address whose words may make the policy ask (it deletes, pays,
//! sends, names a command, or is an endpoint whose address never says what it does, such as
//! `/graphql`); every request to an address whose path deletes, whatever its method (a link may
//! redirect there); and one rule of higher priority per allowance, which lets exactly that method to
//! exactly that address through.
//!
//! A `fetch`/XHR posted to any other address goes: stopping it would show the application a failure
//! (WordPress's "Updating failed. You are probably offline."), and an application that sends from its
//! own state may not send it again when the action runs again. The policy reads such a request as
//! harmless unless its body alone says otherwise — the limit written down in the threat model.
//!
//! Pure: it builds rules as data, so it is tested natively. Must not: build a rule that reaches
//! another tab, or an allowance wider than one method and one address.

use serde::Serialize;
use waymark_protocol::AllowedRequest;

/// The methods that may change something on a server, as the browser names them.
const CHANGING_METHODS: &[&str] = &["post", "put", "patch", "delete", "connect", "other"];
/// The methods the browser names; any other is `other`.
const KNOWN_METHODS: &[&str] = &[
    "get", "head", "options", "post", "put", "patch", "delete", "connect",
];
/// Every kind of request a page can send, but the reports the browser itself sends about a page
/// (`csp_report`: the site's own reporting, not anything the page does).
const PAGE_RESOURCES: &[&str] = &[
    "main_frame",
    "sub_frame",
    "stylesheet",
    "script",
    "image",
    "font",
    "object",
    "xmlhttprequest",
    "ping",
    "media",
    "other",
];
/// The kinds of request that go somewhere or ask a server to act: a frame's navigation, `fetch`, a
/// beacon.
const DESTINATIONS: &[&str] = &["main_frame", "sub_frame", "xmlhttprequest", "ping", "other"];
/// An address whose path deletes, as the policy's `destructive_path` reads it: a segment, a query name
/// or a query value that starts with one of its words, or one of its multi-segment phrases. RE2 syntax,
/// matched without case; kept this short because the browser compiles a rule's pattern into at most
/// 2 KB (a host that starts with one of the words is matched too: the policy then lets it through).
const DESTRUCTIVE_ADDRESS: &str = r"[/?&=;](delete|remove|destroy|erase|wipe|unsubscribe|deactivate|terminate)|account/close|close[-_]?account";
/// The addresses a `fetch`/XHR posted to is stopped for, to be judged before it leaves: a word of the
/// address (after a `/`, `?`, `&`, `=`, `;`, `_`, `-` or `.`) that starts like one the policy asks
/// about in an address (it deletes, pays or orders, sends or creates a message), a query key that
/// names a command, or an endpoint whose address never says what a request does. Wider than the
/// policy (a stopped harmless request is let through and the action runs again); several patterns,
/// since each compiles into at most 2 KB.
const ASKING_ADDRESSES: &[&str] = &[
    r"[/?&=;_.-](delete|remove|destroy|erase|wipe|unsubscribe|deactivate|terminate|cancel|drop|trash|purge)",
    r"[/?&=;_.-](checkout|payment|pay|billing|order|purchase|buy|donat|subscri|wallet|transfer|charge)",
    r"[/?&=;_.-](send|publish|share|submit|messag|msg|chat|comment|repl|mail|email|tweet|dm|invit|post(\b|$|[/?&.]))",
    r"[?&;](action|op|operation|cmd|command|do|intent|verb|method|mutation)=|[/.](graphql|gql|rpc|jsonrpc|batch|api\.php)",
];

const BLOCK_PRIORITY: u32 = 1;
const ALLOW_PRIORITY: u32 = 2;

/// One session rule, as `declarativeNetRequest` takes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub id: u32,
    priority: u32,
    action: RuleAction,
    condition: Condition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct RuleAction {
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
struct Condition {
    tab_ids: Vec<i32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    request_methods: Vec<&'static str>,
    resource_types: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url_filter: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    regex_filter: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is_url_filter_case_sensitive: Option<bool>,
}

impl Condition {
    fn in_tab(tab: i32) -> Self {
        Self {
            tab_ids: vec![tab],
            request_methods: Vec::new(),
            resource_types: PAGE_RESOURCES.to_vec(),
            url_filter: None,
            regex_filter: None,
            is_url_filter_case_sensitive: None,
        }
    }
}

/// The methods of a `fetch`/XHR that are judged only once stopped when its address asks for it.
const POSTED_METHODS: &[&str] = &["post", "put", "patch"];

/// The rules that stop what may change something, in `tab`, with their first id `id` (see the module
/// doc): everything but `fetch`/XHR whose method changes something; `fetch`/XHR whose method says
/// nothing or deletes; `fetch`/XHR posted to an address in [`ASKING_ADDRESSES`].
pub fn block_changing(mut id: impl FnMut() -> u32, tab: i32) -> Vec<Rule> {
    let block = |id: u32, condition: Condition| Rule {
        id,
        priority: BLOCK_PRIORITY,
        action: RuleAction { kind: "block" },
        condition,
    };
    let not_fetch: Vec<&'static str> = PAGE_RESOURCES
        .iter()
        .copied()
        .filter(|r| *r != "xmlhttprequest")
        .collect();
    let mut rules = vec![
        block(
            id(),
            Condition {
                request_methods: CHANGING_METHODS.to_vec(),
                resource_types: not_fetch,
                ..Condition::in_tab(tab)
            },
        ),
        block(
            id(),
            Condition {
                request_methods: CHANGING_METHODS
                    .iter()
                    .copied()
                    .filter(|m| !POSTED_METHODS.contains(m))
                    .collect(),
                resource_types: vec!["xmlhttprequest"],
                ..Condition::in_tab(tab)
            },
        ),
    ];
    for pattern in ASKING_ADDRESSES {
        rules.push(block(
            id(),
            Condition {
                request_methods: POSTED_METHODS.to_vec(),
                resource_types: vec!["xmlhttprequest"],
                regex_filter: Some((*pattern).to_owned()),
                is_url_filter_case_sensitive: Some(false),
                ..Condition::in_tab(tab)
            },
        ));
    }
    rules
}

/// The rule that stops any request to an address whose path deletes, in `tab`.
pub fn block_destructive(id: u32, tab: i32) -> Rule {
    Rule {
        id,
        priority: BLOCK_PRIORITY,
        action: RuleAction { kind: "block" },
        condition: Condition {
            regex_filter: Some(DESTRUCTIVE_ADDRESS.to_owned()),
            is_url_filter_case_sensitive: Some(false),
            // What goes somewhere or asks a server to do something; a picture or a style sheet whose
            // file is named "remove-…" does not.
            resource_types: DESTINATIONS.to_vec(),
            ..Condition::in_tab(tab)
        },
    }
}

/// The rule that lets exactly `allowed` through in `tab`; `None` for an address no rule can name.
pub fn allow(id: u32, tab: i32, allowed: &AllowedRequest) -> Option<Rule> {
    let url = waymark_protocol::request::without_fragment(&allowed.url);
    if url.is_empty() || !url.is_ascii() {
        // The browser sends every address in its ASCII form; one that is not cannot be matched.
        return None;
    }
    let lower = allowed.method.to_lowercase();
    let method = KNOWN_METHODS
        .iter()
        .copied()
        .find(|m| *m == lower)
        .unwrap_or("other");
    // `|…|` anchors the filter at both ends; its wildcard and separator characters cannot be escaped,
    // so an address holding one is matched by an anchored, escaped regular expression instead.
    let (url_filter, regex_filter) = if url.contains(['*', '^', '|']) {
        (None, Some(format!("^{}$", escaped(url))))
    } else {
        (Some(format!("|{url}|")), None)
    };
    Some(Rule {
        id,
        priority: ALLOW_PRIORITY,
        action: RuleAction { kind: "allow" },
        condition: Condition {
            request_methods: vec![method],
            url_filter,
            regex_filter,
            is_url_filter_case_sensitive: Some(true),
            ..Condition::in_tab(tab)
        },
    })
}

/// `text` as an RE2 pattern that matches exactly it.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn block_rules() -> Vec<serde_json::Value> {
        let mut next = 6;
        block_changing(
            || {
                next += 1;
                next
            },
            42,
        )
        .into_iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect()
    }

    /// The RE2 patterns that would stop a `fetch` POST to `url`, read as Rust's `regex` reads them
    /// (what these patterns use, both read alike), without case.
    fn stops_posted(url: &str) -> bool {
        block_rules()
            .iter()
            .filter_map(|r| r["condition"]["regexFilter"].as_str().map(str::to_owned))
            .any(|p| regex::Regex::new(&format!("(?i){p}")).is_ok_and(|re| re.is_match(url)))
    }

    #[test]
    fn the_block_rules_reach_only_their_tab_and_the_methods_that_change_things() {
        let rules = block_rules();
        assert_eq!(rules[0]["id"], 7);
        for rule in &rules {
            assert_eq!(rule["action"], json!({"type": "block"}));
            assert_eq!(rule["condition"]["tabIds"], json!([42]));
        }
        assert_eq!(
            rules[0]["condition"]["requestMethods"],
            json!(["post", "put", "patch", "delete", "connect", "other"])
        );
        let types = rules[0]["condition"]["resourceTypes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            types.contains(&json!("main_frame")),
            "forms posted as a navigation"
        );
        assert!(types.contains(&json!("ping")), "beacons");
        assert!(!types.contains(&json!("xmlhttprequest")));
        assert!(!types.contains(&json!("csp_report")));
        assert_eq!(
            rules[1]["condition"]["requestMethods"],
            json!(["delete", "connect", "other"])
        );
        assert_eq!(rules[1]["condition"]["resourceTypes"], json!(["xmlhttprequest"]));
        for rule in &rules[2..] {
            assert_eq!(
                rule["condition"]["requestMethods"],
                json!(["post", "put", "patch"])
            );
            assert_eq!(rule["condition"]["isUrlFilterCaseSensitive"], false);
        }
    }

    #[test]
    fn a_fetch_posted_is_stopped_where_its_address_may_ask_and_goes_where_it_cannot() {
        for asking in [
            "http://127.0.0.1:8080/api/messages",
            "http://127.0.0.1:8080/api/billing/subscribe",
            "https://shop.example/checkout/confirm",
            "https://app.example/api/deleteMessage",
            "https://app.example/graphql",
            "https://app.example/items?action=trash",
            "https://app.example/w/api.php?action=edit",
            "https://blog.example/comments/post",
        ] {
            assert!(stops_posted(asking), "{asking}");
        }
        for everyday in [
            "http://127.0.0.1:8080/wp-json/wp/v2/posts/10?_locale=user",
            "http://127.0.0.1:8080/index.php?rest_route=%2Fwp%2Fv2%2Fposts%2F10&_locale=user",
            "http://127.0.0.1:8080/wp-admin/admin-ajax.php",
            "http://127.0.0.1:8080/cart/add",
            "http://127.0.0.1:8080/search",
            "http://127.0.0.1:8080/api/drafts/1",
        ] {
            assert!(!stops_posted(everyday), "{everyday}");
        }
    }

    #[test]
    fn an_allowance_names_one_method_and_one_address() {
        let allowed = AllowedRequest::new("POST", "https://shop.example/cart/add?id=4#top");
        let rule = serde_json::to_value(allow(9, 42, &allowed)).unwrap_or_default();
        assert_eq!(rule["priority"], 2);
        assert_eq!(rule["action"], json!({"type": "allow"}));
        assert_eq!(rule["condition"]["requestMethods"], json!(["post"]));
        assert_eq!(
            rule["condition"]["urlFilter"],
            "|https://shop.example/cart/add?id=4|"
        );
        assert_eq!(rule["condition"]["isUrlFilterCaseSensitive"], true);
        let odd = AllowedRequest::new("DELETE", "https://x.example/a*b^c");
        let rule = serde_json::to_value(allow(9, 42, &odd)).unwrap_or_default();
        assert_eq!(rule["condition"]["regexFilter"], r"^https://x\.example/a\*b\^c$");
        assert_eq!(rule["condition"]["requestMethods"], json!(["delete"]));
        assert!(allow(9, 42, &AllowedRequest::new("POST", "https://x.example/ä")).is_none());
    }
}
