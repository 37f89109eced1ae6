//! Covers secret fields while a screenshot is taken. Passwords, one-time codes and card numbers must
//! never reach the model, and a picture of the screen would carry what a user typed into a code or card
//! field in plain sight. Before the worker captures the tab, every frame draws opaque boxes over such
//! fields (in its own host element with a closed shadow root, hidden from screen readers and from
//! clicks, like the badges) and takes them away again a moment later.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement, HtmlInputElement, ShadowRootInit, ShadowRootMode};

/// How long the boxes stay: longer than the worker's wait for a painted frame plus the capture, short
/// enough that a sighted helper barely notices them.
const MASK_MS: u32 = 3_000;

/// Words in a field's name, id, label or placeholder that mark a code or card field whose page did not
/// say so with `autocomplete` (lower case; several languages, since pages are).
const SECRET_WORDS: &[&str] = &[
    "cvv",
    "cvc",
    "csc",
    "card number",
    "cardnumber",
    "card-number",
    "card_number",
    "ccnum",
    "cc-num",
    "cc_num",
    "kartennummer",
    "numéro de carte",
    "número de tarjeta",
    "número do cartão",
    "numero di carta",
    "номер карты",
    "one-time",
    "one time",
    "onetime",
    "otp",
    "verification code",
    "security code",
    "sicherheitscode",
    "bestätigungscode",
    "code de vérification",
    "código de verificación",
    "код подтверждения",
    "2fa",
    "totp",
];

/// Whether a field's text (name, id, placeholder, label, lower case) marks it as secret.
pub fn secret_words(text: &str) -> bool {
    SECRET_WORDS.iter().any(|w| text.contains(w))
}

/// Draws boxes over this frame's secret fields that are on screen; they go away by themselves.
pub fn cover_secrets() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let mut fields = Vec::new();
    if let Ok(all) = document.query_selector_all("*") {
        collect(&all, &mut fields);
    }
    if fields.is_empty() {
        return;
    }
    let Ok(host) = draw(&document, &fields) else {
        return;
    };
    gloo_timers::callback::Timeout::new(MASK_MS, move || host.remove()).forget();
}

/// The secret inputs among `all`, and in the open shadow roots of any of them, at any depth.
fn collect(all: &web_sys::NodeList, out: &mut Vec<Element>) {
    for i in 0..all.length() {
        let Some(element) = all.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        if element.dyn_ref::<HtmlInputElement>().is_some_and(is_secret) {
            out.push(element.clone());
        }
        if let Some(inner) = element.shadow_root().and_then(|s| s.query_selector_all("*").ok()) {
            collect(&inner, out);
        }
    }
}

fn is_secret(input: &HtmlInputElement) -> bool {
    let kind = input.type_().to_lowercase();
    if kind == "password" {
        return true;
    }
    if !matches!(kind.as_str(), "text" | "tel" | "number" | "search" | "") {
        return false;
    }
    let attr = |name: &str| input.get_attribute(name).unwrap_or_default().to_lowercase();
    let autocomplete = attr("autocomplete");
    if autocomplete.starts_with("cc-") || autocomplete.contains("one-time-code") {
        return true;
    }
    let labels = input
        .labels()
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i)?.text_content())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
        .to_lowercase();
    let text = [
        attr("name"),
        attr("id"),
        attr("placeholder"),
        attr("aria-label"),
        labels,
    ]
    .join(" ");
    secret_words(&text)
}

/// One host element over the viewport with a black box per field.
fn draw(document: &Document, fields: &[Element]) -> Result<Element, wasm_bindgen::JsValue> {
    // The overlay's random tag: no fixed name a page could look for, and the page watcher
    // (`watch.rs`) passes over it as Waymark's own.
    let host = document.create_element(&crate::overlay::host_tag())?;
    host.set_attribute("aria-hidden", "true")?;
    host.set_attribute("inert", "")?;
    if let Some(html) = host.dyn_ref::<HtmlElement>() {
        html.style().set_css_text(
            "all:initial;position:fixed;inset:0;pointer-events:none;z-index:2147483647;contain:strict",
        );
    }
    let shadow = host.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Closed))?;
    for field in fields {
        let rect = field.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            continue;
        }
        let block = document.create_element("div")?;
        block.set_attribute(
            "style",
            &format!(
                "position:fixed;left:{}px;top:{}px;width:{}px;height:{}px;background:#000;\
                 forced-color-adjust:none",
                rect.left() - 2.0,
                rect.top() - 2.0,
                rect.width() + 4.0,
                rect.height() + 4.0
            ),
        )?;
        shadow.append_child(&block)?;
    }
    if let Some(root) = document.document_element() {
        root.append_child(&host)?;
    }
    Ok(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_and_code_fields_are_known_by_their_words_in_several_languages() {
        for text in [
            "card number",
            "cc-number cardnumber",
            "kartennummer",
            "номер карты",
            "otp code",
            "cvc",
        ] {
            assert!(secret_words(text), "{text}");
        }
        for text in ["email", "postal code", "search", "name"] {
            assert!(!secret_words(text), "{text}");
        }
    }
}
