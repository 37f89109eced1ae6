//! What CSS does to an element's words, as Chrome says them in a name: the words `::before` and
//! `::after` put around it ("Actions (opens a menu)"), and `text-transform` ("AUTHOR").
//!
//! Asking the browser costs a style computation per element (two for the pseudo-elements), for every
//! element of every name, where most pages give words through CSS to few elements, or none (icon fonts
//! draw characters that are no words). So each tree's style sheets are read once for the rules that
//! add words or transform them, and only the elements those rules may reach are asked. A tree whose
//! sheets cannot be read (another origin's) is asked about every element.
//!
//! Must not: change the page or its style sheets.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// How long what a tree's style sheets say is trusted: a scan's names are computed well within it,
/// and sheets a page adds later are read by the next scan.
const FRESH_MS: f64 = 1_000.0;
/// How deep grouping rules (`@media`, `@supports`, `@layer`, imports) are followed.
const MAX_NESTING: usize = 8;

/// The elements some rules may reach.
#[derive(Clone)]
enum Reach {
    /// None.
    Nothing,
    /// Those these selectors match.
    Selectors(String),
    /// A sheet could not be read: any element.
    Any,
}

impl Reach {
    fn of(selectors: Vec<String>, unreadable: bool) -> Self {
        if unreadable {
            Reach::Any
        } else if selectors.is_empty() {
            Reach::Nothing
        } else {
            Reach::Selectors(selectors.join(", "))
        }
    }
}

/// What one tree's style sheets say.
#[derive(Clone)]
struct Sheets {
    /// Elements with words before or after them.
    words: Reach,
    /// Elements whose text may be transformed: the rules' own elements (the property is inherited,
    /// so an element is asked when it or an ancestor is one).
    transform: Reach,
}

thread_local! {
    /// Per tree (document or shadow root): what its sheets say, and when they were read.
    static TREES: RefCell<Vec<(JsValue, Sheets, f64)>> = const { RefCell::new(Vec::new()) };
}

/// The words CSS adds before and after `element`'s content.
pub(super) fn around(window: &web_sys::Window, element: &Element) -> (String, String) {
    let may = match sheets_of(element).words {
        Reach::Nothing => false,
        Reach::Any => true,
        // A selector the browser refuses (a nested rule's `&`) is asked about, not passed over.
        Reach::Selectors(list) => element.matches(&list).unwrap_or(true),
    };
    if !may {
        return (String::new(), String::new());
    }
    let read = |which: &str| {
        let style = window
            .get_computed_style_with_pseudo_elt(element, which)
            .ok()
            .flatten();
        let value = |name: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .unwrap_or_default()
        };
        let text = css_content(&value("content"), |name| element.get_attribute(name));
        // A generated box that is not inline (a block, an inline-block) is a word of its own, as
        // Chrome joins it; inline text runs on into its neighbours.
        let display = value("display");
        if text.is_empty() || display.is_empty() || display == "inline" {
            text
        } else {
            format!(" {text} ")
        }
    };
    (read("::before"), read("::after"))
}

/// The `text-transform` of `element`'s text, when one may apply (`None`: none does).
pub(super) fn transform(window: &web_sys::Window, element: &Element) -> Option<String> {
    let may = match sheets_of(element).transform {
        Reach::Nothing => false,
        Reach::Any => true,
        Reach::Selectors(list) => element.closest(&list).map_or(true, |e| e.is_some()),
    };
    if !may {
        return None;
    }
    window
        .get_computed_style(element)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("text-transform").ok())
}

fn sheets_of(element: &Element) -> Sheets {
    let root: JsValue = element.get_root_node().into();
    let now = js_sys::Date::now();
    TREES.with_borrow_mut(|trees| {
        trees.retain(|(_, _, at)| now - at < FRESH_MS);
        if let Some((_, sheets, _)) = trees.iter().find(|(r, _, _)| js_sys::Object::is(r, &root)) {
            return sheets.clone();
        }
        let sheets = read_sheets(&root);
        trees.push((root, sheets.clone(), now));
        sheets
    })
}

/// The rules found in a tree's sheets.
#[derive(Default)]
struct Found {
    words: Vec<String>,
    transform: Vec<String>,
    unreadable: bool,
}

fn read_sheets(root: &JsValue) -> Sheets {
    let mut found = Found::default();
    for list in ["styleSheets", "adoptedStyleSheets"] {
        let Some(sheets) = get(root, list).filter(|s| !s.is_null() && !s.is_undefined()) else {
            continue;
        };
        for sheet in js_sys::Array::from(&sheets).iter() {
            rules_of(&sheet, &mut found, 0);
        }
    }
    // A `style` attribute can transform too.
    found.transform.push("[style*=text-transform i]".into());
    Sheets {
        words: Reach::of(found.words, found.unreadable),
        transform: Reach::of(found.transform, found.unreadable),
    }
}

fn rules_of(holder: &JsValue, found: &mut Found, depth: usize) {
    // Reading `cssRules` of another origin's sheet throws.
    let rules = match js_sys::Reflect::get(holder, &"cssRules".into()) {
        Ok(rules) if !rules.is_null() && !rules.is_undefined() => rules,
        Ok(_) => return,
        Err(_) => {
            found.unreadable = true;
            return;
        }
    };
    for rule in js_sys::Array::from(&rules).iter() {
        if let Some(selector) = get(&rule, "selectorText").and_then(|s| s.as_string()) {
            let style = get(&rule, "style").and_then(|s| s.dyn_into::<web_sys::CssStyleDeclaration>().ok());
            let property = |name: &str| {
                style
                    .as_ref()
                    .and_then(|s| s.get_property_value(name).ok())
                    .unwrap_or_default()
            };
            if has_pseudo(&selector) && says_words(&property("content")) {
                found.words.extend(
                    selector
                        .split(',')
                        .filter(|part| has_pseudo(part))
                        .filter_map(element_selector),
                );
            }
            let transform = property("text-transform");
            if !transform.is_empty() && transform != "none" {
                found
                    .transform
                    .extend(selector.split(',').filter_map(element_selector));
            }
        }
        if depth >= MAX_NESTING {
            continue;
        }
        // Grouping rules and nested style rules hold rules of their own; an import, a sheet.
        if get(&rule, "cssRules").is_some_and(|r| !r.is_undefined() && !r.is_null()) {
            rules_of(&rule, found, depth + 1);
        }
        if let Some(sheet) = get(&rule, "styleSheet").filter(|s| !s.is_null() && !s.is_undefined()) {
            rules_of(&sheet, found, depth + 1);
        }
    }
}

/// The elements a part of a rule's selector reaches: without its `::before` or `::after`; none for
/// another pseudo-element's (`::first-letter`, `::placeholder`), whose text is not the element's.
fn element_selector(part: &str) -> Option<String> {
    let selector = without_pseudo(part);
    (!selector.contains("::")).then_some(selector)
}

fn has_pseudo(selector: &str) -> bool {
    let lower = selector.to_ascii_lowercase();
    lower.contains(":before") || lower.contains(":after")
}

/// `a.more::after` → `a.more`; a bare `::before` matches any element.
fn without_pseudo(selector: &str) -> String {
    let mut text = selector.to_string();
    for pseudo in ["::before", "::after", ":before", ":after"] {
        while let Some(at) = text.to_ascii_lowercase().find(pseudo) {
            text.replace_range(at..at + pseudo.len(), "");
        }
    }
    let text = text.trim_start();
    // A compound left empty (`::before` alone, `nav > ::after`) is any element there.
    if text.trim_end().is_empty() || text.ends_with([' ', '>', '+', '~']) {
        format!("{text}*").trim().to_string()
    } else {
        text.trim_end().to_string()
    }
}

/// Whether a `content` value holds words (not only an icon font's characters, an image or nothing).
fn says_words(content: &str) -> bool {
    // `attr(…)` may hold words: counted as some.
    let words = css_content(content, |_| Some("?".into()));
    words
        .chars()
        .any(|c| !c.is_whitespace() && !crate::plain_text::is_private_use(c))
}

/// The words of a computed `content` value: its strings and `attr(…)`s; images, counters and quotes
/// say nothing (as in Chrome's names). `none` and `normal` are no content.
fn css_content(content: &str, attr: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = content.trim();
    // An alternative text (`content: "★" / "star"`) is what is said, when there is one.
    if let Some(alt) = alternative(rest) {
        rest = alt;
    }
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"').or_else(|| rest.strip_prefix('\'')) {
            let quote = rest.chars().next().unwrap_or('"');
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                if c == '\\' {
                    if let Some((_, escaped)) = chars.next() {
                        out.push(escaped);
                    }
                } else if c == quote {
                    end = i + c.len_utf8();
                    break;
                } else {
                    out.push(c);
                }
            }
            rest = quoted[end..].trim_start();
        } else if let Some(inner) = rest.strip_prefix("attr(") {
            let (name, after) = inner.split_once(')').unwrap_or((inner, ""));
            out.push_str(&attr(name.trim()).unwrap_or_default());
            rest = after.trim_start();
        } else {
            // A function (`url(…)`, `counter(…)`) or a keyword: skipped, up to the next part.
            let end = match rest.find('(') {
                Some(open) if rest.find(' ').is_none_or(|space| open < space) => {
                    rest.find(')').map_or(rest.len(), |close| close + 1)
                }
                _ => rest.find(' ').unwrap_or(rest.len()),
            };
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// `"★" / "star"` → `"star"`: what follows a slash outside any string.
fn alternative(content: &str) -> Option<&str> {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in content.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => escaped = c == '\\',
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '/' => return Some(content[i + 1..].trim_start()),
            None => {}
        }
    }
    None
}

fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &key.into()).ok()
}

#[cfg(test)]
mod tests {
    use super::{css_content, element_selector, has_pseudo, says_words, without_pseudo};

    #[test]
    fn css_content_says_its_strings_and_attributes() {
        let none = |_: &str| None;
        assert_eq!(css_content("none", none), "");
        assert_eq!(css_content("normal", none), "");
        assert_eq!(css_content("\"Before \"", none), "Before ");
        assert_eq!(css_content("\"a\\\"b\"", none), "a\"b");
        assert_eq!(css_content("url(\"x.png\")", none), "");
        assert_eq!(css_content("url(\"x.png\") \" tail\"", none), " tail");
        assert_eq!(css_content("counter(item) \". \"", none), ". ");
        assert_eq!(css_content("\"★\" / \"star\"", none), "star");
        assert_eq!(css_content("\"a/b\"", none), "a/b");
        assert_eq!(
            css_content("\"(\" attr(data-x) \")\"", |n: &str| (n == "data-x")
                .then(|| "ok".to_string())),
            "(ok)"
        );
    }

    #[test]
    fn rules_that_add_words_select_their_elements() {
        assert!(has_pseudo("a.more::after"));
        assert!(has_pseudo(".x:BEFORE"));
        assert!(!has_pseudo("a:hover"));
        assert_eq!(without_pseudo(" a.more::after"), "a.more");
        assert_eq!(without_pseudo(".icon:before"), ".icon");
        assert_eq!(without_pseudo("::before"), "*");
        assert_eq!(without_pseudo("nav > ::after"), "nav > *");
        assert_eq!(without_pseudo(".a:hover::after"), ".a:hover");
        assert_eq!(without_pseudo(" .shout"), ".shout");
        assert_eq!(element_selector("p::first-letter"), None);
        assert_eq!(element_selector("a.more::after").as_deref(), Some("a.more"));
        assert!(says_words("\"Next\""));
        assert!(says_words("attr(title)"));
        assert!(!says_words("\"\u{f140}\""));
        assert!(!says_words("\"\""));
        assert!(!says_words("url(\"x.png\")"));
        assert!(!says_words("none"));
    }
}
