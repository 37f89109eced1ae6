//! The banner closer's page side, in one frame: finding the banners (visible, fixed or sticky or
//! dialog-like containers whose words say what they are, open shadow roots included) and their
//! buttons, and pressing the button the gate allowed.
//!
//! Must not: press anything on its own (`find` only chooses; `press` runs for buttons the host's gate
//! judged and allowed), press a button twice, or touch the page's main content, header or navigation.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

use super::{choose, kind_of, Choice, Kind};
use crate::dom::query;

/// Elements that may be a banner or hold one, matched by the browser in one call per tree; the exact
/// rules (visible, fixed or dialog-like, words) are applied after.
const CONTAINERS: &str = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], \
    [id*=cookie i], [class*=cookie i], [id*=consent i], [class*=consent i], [id*=gdpr i], \
    [class*=gdpr i], [id*=cmp i], [class*=cmp i], [id*=privacy i], [class*=privacy i], \
    [id*=banner i], [class*=banner i], [id*=newsletter i], [class*=newsletter i], [id*=popup i], \
    [class*=popup i], [id*=modal i], [class*=modal i], [class*=overlay i], [id*=notice i], \
    [class*=notice i], [class*=subscribe i], [class*=smartbanner i], [class*=app-banner i], \
    body > *, body > * > *";

/// What may be a banner's button.
const BUTTONS: &str = "button, [role=button], a, input[type=button], input[type=submit], [onclick], \
    [aria-label], [class*=close i], [id*=close i], [class*=dismiss i]";

/// What is a button for certain, as opposed to the generic matches of [`BUTTONS`].
const REAL_BUTTONS: &str = "button, [role=button], a, input";

/// A form with something to fill in: a sign-up, payment or message form. Nothing in it is pressed.
const FILLABLE: &str = "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]):not([type=reset]), textarea, select";

/// Parts of the page that are never a banner, nor hold one: its main content, header and navigation.
const SITE_PARTS: &str = "main, article, nav, header, [role=main], [role=navigation], [role=banner], \
    [role=search]";
/// A banner offers a few choices; a container with many more buttons is a part of the site.
const MAX_BANNER_BUTTONS: usize = 12;

/// A banner's text is short; longer containers are the page itself.
const MAX_BANNER_CHARS: usize = 6_000;
const MAX_SHADOW_DEPTH: usize = 16;
/// How far up a container may inherit being fixed from its ancestors.
const MAX_POSITION_DEPTH: usize = 6;

thread_local! {
    /// Buttons already pressed and banners already closed in this frame (weakly held): a banner that
    /// fades out slowly is not pressed twice, and a settings button is not pressed again.
    static PRESSED: RefCell<Option<js_sys::WeakSet>> = const { RefCell::new(None) };
    /// Consent banners whose settings layer was opened: their second layer often no longer says
    /// "cookies" ("choose which purposes you allow"), yet it is the same consent notice.
    static LAYERED: RefCell<Option<js_sys::WeakSet>> = const { RefCell::new(None) };
}

fn pressed() -> js_sys::WeakSet {
    PRESSED.with_borrow_mut(|p| p.get_or_insert_with(js_sys::WeakSet::new).clone())
}

fn layered() -> js_sys::WeakSet {
    LAYERED.with_borrow_mut(|p| p.get_or_insert_with(js_sys::WeakSet::new).clone())
}

/// One banner of this frame and the button that would close it, as [`find`] chose it.
#[derive(Clone)]
pub struct Pick {
    pub button: Element,
    container: Element,
    choice: Choice,
    kind: Kind,
    /// The button's label, for saying what closed the banner.
    label: String,
}

impl Pick {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Cookie => "cookie",
            Kind::Newsletter => "newsletter",
            Kind::App => "app",
        }
    }

    pub fn choice_name(&self) -> &'static str {
        match self.choice {
            Choice::Accept => "accept",
            Choice::Settings => "settings",
            Choice::Save => "save",
            Choice::Close => "close",
            Choice::Dismiss => "dismiss",
            Choice::Reject => "reject",
        }
    }
}

/// This frame's banners, each with the button that gives away least ([`choose`]). Nothing is pressed:
/// the host's gate judges each button's effect first, then [`press`] presses those it allows.
pub fn find() -> Vec<Pick> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let done = pressed();
    let layers = layered();
    let mut picks: Vec<Pick> = Vec::new();
    for (container, dialog_like) in containers(&document) {
        if done.has(&container)
            || picks.iter().any(|p| {
                crate::dom::composed_contains(&p.container, &container)
                    || crate::dom::composed_contains(&container, &p.container)
            })
        {
            continue;
        }
        if !shown(&container) || !(dialog_like || positioned(&container)) {
            continue;
        }
        // The page itself or its header and navigation (sticky headers say "subscribe" too), not a banner.
        let landmark = container.matches(SITE_PARTS).unwrap_or(false)
            || container.query_selector(SITE_PARTS).ok().flatten().is_some();
        if landmark {
            continue;
        }
        let text = container
            .dyn_ref::<HtmlElement>()
            .map(HtmlElement::inner_text)
            .unwrap_or_default();
        if text.trim().is_empty() || text.chars().count() > MAX_BANNER_CHARS {
            continue;
        }
        let Some(kind) = kind_of(&text).or_else(|| layers.has(&container).then_some(Kind::Cookie)) else {
            continue;
        };
        let buttons: Vec<Element> = buttons_in(&container)
            .into_iter()
            .filter(|b| !done.has(b))
            .collect();
        if buttons.len() > MAX_BANNER_BUTTONS {
            continue;
        }
        let described: Vec<(String, String)> = buttons.iter().map(describe).collect();
        let Some((i, choice)) = choose(&described, kind) else {
            continue;
        };
        let (Some(button), Some((label, _))) = (buttons.get(i), described.get(i)) else {
            continue;
        };
        picks.push(Pick {
            button: button.clone(),
            container: container.clone(),
            choice,
            kind,
            label: label.trim().to_string(),
        });
    }
    picks
}

/// Presses a button [`find`] chose (and the gate allowed). `None` when it was not pressed (gone, or
/// already pressed); otherwise what closed, if a banner did (a settings layer opens in place instead,
/// to be looked at again).
pub fn press(pick: &Pick) -> Option<Vec<String>> {
    let done = pressed();
    if done.has(&pick.button) || !pick.button.is_connected() {
        return None;
    }
    crate::act::click(&pick.button).ok()?;
    done.add(&pick.button);
    if pick.choice == Choice::Settings {
        layered().add(&pick.container);
        return Some(Vec::new());
    }
    done.add(&pick.container);
    let label = if pick.label.is_empty() || !pick.label.chars().any(char::is_alphanumeric) {
        "Close".to_string()
    } else {
        pick.label.clone()
    };
    Some(vec![label])
}

/// Candidate containers in document order, open shadow roots included, each with whether it declares
/// itself a dialog. In a child frame the whole document may be the banner (consent managers put their
/// notice in a frame of its own): its body comes last, so a banner inside the frame is handled as
/// itself first and the body is then passed over as holding it.
fn containers(document: &web_sys::Document) -> Vec<(Element, bool)> {
    let mut out = Vec::new();
    collect(&document.clone().into(), &mut out, 0);
    let in_child_frame = web_sys::window()
        .and_then(|w| {
            let parent = w.parent().ok().flatten()?;
            Some(!js_sys::Object::is(&parent, &w))
        })
        .unwrap_or(false);
    if in_child_frame {
        if let Some(body) = document.body() {
            out.push((body.into(), true));
        }
    }
    out
}

fn collect(root: &JsValue, out: &mut Vec<(Element, bool)>, depth: usize) {
    for element in query(root, CONTAINERS) {
        let dialog = element
            .matches("dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]")
            .unwrap_or(false);
        out.push((element, dialog));
    }
    if let Some(shadow) = root.dyn_ref::<web_sys::ShadowRoot>() {
        // A shadow root's own top-level elements stand where `body > *` does in a document.
        let children = shadow.children();
        for i in 0..children.length() {
            if let Some(child) = children.item(i) {
                out.push((child, false));
            }
        }
    }
    if depth >= MAX_SHADOW_DEPTH {
        return;
    }
    for host in query(root, "*") {
        if let Some(shadow) = host.shadow_root() {
            collect(&shadow.into(), out, depth + 1);
        }
    }
}

/// Buttons of a banner, its open shadow roots included; the outermost of nested matches only. Links
/// that lead to another page (privacy policies, the app store) and anything inside a form with fields
/// to fill are left out.
fn buttons_in(container: &Element) -> Vec<Element> {
    let mut all = Vec::new();
    let mut roots: Vec<JsValue> = vec![container.clone().into()];
    if let Some(shadow) = container.shadow_root() {
        roots.push(shadow.into());
    }
    let mut depth = 0;
    while let Some(root) = roots.pop() {
        all.extend(query(&root, BUTTONS));
        if depth < MAX_SHADOW_DEPTH {
            for host in query(&root, "*") {
                if let Some(shadow) = host.shadow_root() {
                    roots.push(shadow.into());
                }
            }
        }
        depth += 1;
    }
    let real = |e: &Element| e.matches(REAL_BUTTONS).unwrap_or(false);
    let mut out: Vec<Element> = Vec::new();
    for button in &all {
        // A generic match (a labelled or clickable `div`) around real buttons is a wrapper, not a button.
        if !real(button)
            && all
                .iter()
                .any(|o| o != button && real(o) && crate::dom::composed_contains(button, o))
        {
            continue;
        }
        // The outermost button only: a labelled icon inside a button is a part of it.
        if out.iter().any(|o| crate::dom::composed_contains(o, button)) {
            continue;
        }
        if !shown(button) || leaves_page(button) || in_fillable_form(button) {
            continue;
        }
        if button.matches(":disabled").unwrap_or(false) {
            continue;
        }
        out.push(button.clone());
    }
    out
}

/// The label a person sees or hears, and the hints an icon-only button carries.
fn describe(button: &Element) -> (String, String) {
    let attribute = |name: &str| button.get_attribute(name).unwrap_or_default();
    let text = button
        .dyn_ref::<HtmlElement>()
        .map(HtmlElement::inner_text)
        .unwrap_or_default();
    let value = button
        .dyn_ref::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default();
    let label = [attribute("aria-label"), text, value, attribute("title")]
        .into_iter()
        .map(|s| s.trim().to_string())
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    let hint = [
        attribute("id"),
        attribute("class"),
        attribute("aria-label"),
        attribute("title"),
    ]
    .join(" ");
    (label, hint)
}

fn leaves_page(button: &Element) -> bool {
    if button.local_name() != "a" {
        return false;
    }
    let href = button.get_attribute("href").unwrap_or_default();
    let href = href.trim().to_lowercase();
    !(href.is_empty() || href.starts_with('#') || href.starts_with("javascript:"))
        || button.has_attribute("download")
}

fn in_fillable_form(button: &Element) -> bool {
    button
        .closest("form")
        .ok()
        .flatten()
        .is_some_and(|f| f.query_selector(FILLABLE).ok().flatten().is_some())
}

/// On screen and not hidden by style (its own or an ancestor's opacity, visibility or display).
fn shown(element: &Element) -> bool {
    let rect = element.get_bounding_client_rect();
    if rect.width() < 1.0 || rect.height() < 1.0 {
        return false;
    }
    let (vw, vh) = crate::dom::viewport();
    if rect.bottom() <= 0.0 || rect.right() <= 0.0 || rect.top() >= vh || rect.left() >= vw {
        return false;
    }
    crate::dom::check_visibility(element, true).unwrap_or(true)
}

/// Whether the element, or one of its near ancestors, stays in place on screen (fixed or sticky), as
/// banners do.
fn positioned(element: &Element) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let mut current = Some(element.clone());
    for _ in 0..MAX_POSITION_DEPTH {
        let Some(e) = current else { break };
        if matches!(e.local_name().as_str(), "body" | "html") {
            break;
        }
        let position = window
            .get_computed_style(&e)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("position").ok())
            .unwrap_or_default();
        if position == "fixed" || position == "sticky" {
            return true;
        }
        current = match e.parent_node() {
            Some(p) => match p.dyn_ref::<web_sys::ShadowRoot>() {
                Some(s) => Some(s.host()),
                None => p.dyn_into::<Element>().ok(),
            },
            None => None,
        };
    }
    false
}
