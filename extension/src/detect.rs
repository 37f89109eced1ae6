//! Finding the interactive elements of a frame, in document order, and describing each the way a
//! screen reader would (role, accessible name, value, states).
//!
//! Included: native controls, ARIA widget roles, `tabindex ≥ 0`, contenteditable hosts, `summary`,
//! inline `onclick` handlers, open shadow roots at any depth. Skipped: disabled, `aria-disabled`,
//! `inert`, hidden, zero-size, and in-viewport elements covered by something else. Must not change the
//! page: reads only.

use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::{ElementInfo, FormInfo, Interactive};
use web_sys::{Document, DomRect, Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// Longest name or value we report; longer ones are cut with an ellipsis.
const MAX_TEXT: usize = 80;

const WIDGET_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "combobox",
    "textbox",
    "searchbox",
    "slider",
    "spinbutton",
    "treeitem",
    "gridcell",
    "listbox",
];

/// An element found by [`interactives`], with its description as of the listing.
#[derive(Clone)]
pub struct Found {
    pub element: Element,
    role: String,
    name: String,
    value: Option<String>,
    states: Vec<String>,
}

impl Found {
    pub fn role(&self) -> &str {
        &self.role
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The element's accessible name now (it may have changed since it was found).
    pub fn current_name(&self) -> String {
        accessible_name(&self.element, &self.element.local_name())
    }

    /// What the policy gate needs to judge an action on this element.
    pub fn info(&self, index: u32, id: u64, url: String) -> ElementInfo {
        let element = &self.element;
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| v.trim().to_lowercase())
                .filter(|v| !v.is_empty())
        };
        let form = element.closest("form").ok().flatten().map(|form| FormInfo {
            action: js_sys::Reflect::get(&form, &"action".into())
                .ok()
                .and_then(|a| a.as_string())
                .unwrap_or_default(),
            method: js_sys::Reflect::get(&form, &"method".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_default(),
        });
        let in_dialog = element
            .closest("dialog, [role=dialog], [role=alertdialog], [aria-modal=true]")
            .ok()
            .flatten()
            .is_some();
        ElementInfo {
            id,
            index,
            role: self.role.clone(),
            name: self.name.clone(),
            tag: element.local_name(),
            input_type: attr("type"),
            value: self.value.clone(),
            text_around: text_around(element),
            form,
            autocomplete: attr("autocomplete"),
            in_dialog,
            url,
        }
    }

    pub fn describe(&self, index: u32) -> Interactive {
        Interactive {
            index,
            role: self.role.clone(),
            name: self.name.clone(),
            value: self.value.clone(),
            states: self.states.clone(),
        }
    }
}

/// What a scan finds, in document order.
pub enum Entry {
    Control(Found),
    /// A visible child frame (`iframe` or `frame` element): its controls are numbered where it stands.
    Frame(Element),
}

/// Every interactive element of the document (including open shadow roots) and every visible child
/// frame, in document order.
///
/// With `only_viewport`, elements and frames outside the viewport are passed over before any costly
/// check: the model's observation of a huge page then costs what the visible part costs.
pub fn interactives(document: &Document, only_viewport: bool) -> Vec<Entry> {
    let viewport = crate::overlay::viewport();
    let scan = Scan {
        viewport,
        only_viewport,
        visibility: Visibility::new(),
        probable: JsValue::from_str(PROBABLE),
        everything: JsValue::from_str("*"),
    };
    let mut out = Vec::new();
    scan.tree(document, &mut out, 0);
    out
}

/// Elements that may be controls, and frames: matched by the browser in one call per tree, so a page
/// of 30,000 elements costs a few thousand calls from wasm, not a hundred thousand. `is_candidate`
/// then applies the exact rules.
const PROBABLE: &str = "a[href], button, input, select, textarea, summary, [role], [tabindex], \
    [contenteditable], [onclick], iframe, frame";

/// Shadow roots nested deeper than this are not entered.
const MAX_SHADOW_DEPTH: usize = 32;

struct Scan {
    viewport: (f64, f64),
    only_viewport: bool,
    visibility: Visibility,
    probable: JsValue,
    everything: JsValue,
}

impl Scan {
    /// One tree (the document or a shadow root): its candidates in document order, with the contents of
    /// its open shadow roots spliced in right after their hosts.
    fn tree(&self, root: &JsValue, out: &mut Vec<Entry>, depth: usize) {
        let candidates = query_all(root, &self.probable);
        let hosts: Vec<(Element, web_sys::ShadowRoot)> = if depth < MAX_SHADOW_DEPTH {
            query_all(root, &self.everything)
                .into_iter()
                .filter_map(|e| e.shadow_root().map(|s| (e, s)))
                .collect()
        } else {
            Vec::new()
        };
        let mut next_host = 0;
        for element in candidates {
            // Shadow content comes after its host and before whatever follows the host.
            while let Some((host, shadow)) = hosts.get(next_host) {
                if !follows(host, &element) {
                    break;
                }
                self.tree(shadow, out, depth + 1);
                next_host += 1;
            }
            self.element(element, out);
        }
        for (_, shadow) in hosts.iter().skip(next_host) {
            self.tree(shadow, out, depth + 1);
        }
    }

    fn element(&self, element: Element, out: &mut Vec<Entry>) {
        let in_view = |rect: &DomRect| {
            rect.bottom() > 0.0
                && rect.right() > 0.0
                && rect.top() < self.viewport.1
                && rect.left() < self.viewport.0
        };
        // Off screen in a viewport scan: one call decides, before any other.
        let rect = element.get_bounding_client_rect();
        if self.only_viewport && !in_view(&rect) {
            return;
        }
        let tag = element.local_name();
        if matches!(tag.as_str(), "iframe" | "frame") {
            let shown = rect.width() >= 1.0 && rect.height() >= 1.0 && self.visibility.check(&element);
            if shown && !is_inert(&element) {
                out.push(Entry::Frame(element));
            }
            return;
        }
        let role = role_of(&element, &tag);
        if !is_candidate(&element, &tag, role.as_deref()) {
            return;
        }
        // Decorative parts of a link or button (an icon with role=button inside a link) are not listed
        // again; fields inside one still are.
        let native = matches!(tag.as_str(), "input" | "select" | "textarea");
        if !native && inside_action(&element) {
            return;
        }
        if !self.visibility.check(&element) || !usable(&element, &rect, self.viewport) {
            return;
        }
        out.push(Entry::Control(Found {
            role: role.unwrap_or_else(|| "generic".into()),
            name: accessible_name(&element, &tag),
            value: value_of(&element, &tag),
            states: states_of(&element),
            element,
        }));
    }
}

/// `root.querySelectorAll(selector)` for a document or a shadow root, as elements.
fn query_all(root: &JsValue, selector: &JsValue) -> Vec<Element> {
    let Some(list) = js_sys::Reflect::get(root, &"querySelectorAll".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(root, selector).ok())
        .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
    else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// Whether `other` comes after `node` in document order (its descendants included).
fn follows(node: &Element, other: &Element) -> bool {
    const DOCUMENT_POSITION_FOLLOWING: u16 = 4;
    node.compare_document_position(other) & DOCUMENT_POSITION_FOLLOWING != 0
}

fn inside_action(element: &Element) -> bool {
    element
        .parent_element()
        .and_then(|p| {
            p.closest("a[href], button, [role=button], [role=link]")
                .ok()
                .flatten()
        })
        .is_some()
}

fn is_inert(element: &Element) -> bool {
    element.closest("[inert]").ok().flatten().is_some()
}

fn is_candidate(element: &Element, tag: &str, role: Option<&str>) -> bool {
    let native = match tag {
        "a" => element.has_attribute("href"),
        "button" | "select" | "textarea" | "summary" => true,
        "input" => element
            .get_attribute("type")
            .is_none_or(|t| !t.eq_ignore_ascii_case("hidden")),
        _ => false,
    };
    native
        || role.is_some_and(|r| WIDGET_ROLES.contains(&r) && element.has_attribute("role"))
        || element
            .get_attribute("tabindex")
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|t| t >= 0)
            && !matches!(tag, "html" | "body")
        || element
            .get_attribute("contenteditable")
            .is_some_and(|c| !c.eq_ignore_ascii_case("false"))
        || element.has_attribute("onclick")
}

/// The explicit role, or the one the tag implies.
fn role_of(element: &Element, tag: &str) -> Option<String> {
    if let Some(role) = element
        .get_attribute("role")
        .and_then(|r| r.split_whitespace().next().map(str::to_lowercase))
    {
        return Some(role);
    }
    let input_type = || element.get_attribute("type").unwrap_or_default().to_lowercase();
    let role = match tag {
        "a" if element.has_attribute("href") => "link",
        "button" | "summary" => "button",
        "select" => {
            if element.has_attribute("multiple") {
                "listbox"
            } else {
                "combobox"
            }
        }
        "textarea" => "textbox",
        "input" => match input_type().as_str() {
            "checkbox" => "checkbox",
            "radio" => "radio",
            "submit" | "button" | "reset" | "image" => "button",
            "range" => "slider",
            "number" => "spinbutton",
            "search" => "searchbox",
            "file" => "button",
            _ => "textbox",
        },
        _ if element
            .get_attribute("contenteditable")
            .is_some_and(|c| !c.eq_ignore_ascii_case("false")) =>
        {
            "textbox"
        }
        _ => return None,
    };
    Some(role.into())
}

/// Whether an element is rendered at all (not `display: none` itself or through an ancestor, not
/// `visibility: hidden`, not in a closed `details`): `Element.checkVisibility`, looked up once per scan.
struct Visibility {
    check: Option<js_sys::Function>,
    options: js_sys::Object,
}

impl Visibility {
    fn new() -> Self {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
        let check = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &"Element".into()).ok())
            .and_then(|e| js_sys::Reflect::get(&e, &"prototype".into()).ok())
            .and_then(|p| js_sys::Reflect::get(&p, &"checkVisibility".into()).ok())
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        Self { check, options }
    }

    fn check(&self, element: &Element) -> bool {
        match &self.check {
            Some(f) => f
                .call1(element, &self.options)
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true),
            // Browsers before checkVisibility: the size and hit tests still apply.
            None => true,
        }
    }
}

/// Not disabled, has a size, and (when on screen) is not covered by another element.
fn usable(element: &Element, rect: &DomRect, viewport: (f64, f64)) -> bool {
    if element.matches(":disabled").unwrap_or(false)
        || element
            .get_attribute("aria-disabled")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || is_inert(element)
    {
        return false;
    }
    if rect.width() < 1.0 || rect.height() < 1.0 {
        return false;
    }
    !covered(element, rect, viewport)
}

/// Whether every probe point of an on-screen element hits something that is neither it, inside it,
/// nor its label. Off-screen elements cannot be hit-tested and count as not covered.
fn covered(element: &Element, rect: &DomRect, (width, height): (f64, f64)) -> bool {
    let (l, t, r, b) = (rect.left(), rect.top(), rect.right(), rect.bottom());
    // Probe the centre and four points just inside the corners.
    let dx = (r - l).min(4.0) / 2.0;
    let dy = (b - t).min(4.0) / 2.0;
    let points = [
        ((l + r) / 2.0, (t + b) / 2.0),
        (l + dx, t + dy),
        (r - dx, t + dy),
        (l + dx, b - dy),
        (r - dx, b - dy),
    ];
    let mut on_screen = false;
    for (x, y) in points {
        if x < 0.0 || y < 0.0 || x >= width || y >= height {
            continue;
        }
        on_screen = true;
        match hit(element, x, y) {
            Some(h)
                if &h == element
                    || element.contains(Some(&h))
                    || h.contains(Some(element))
                    || labels(element, &h) =>
            {
                return false
            }
            None => return false,
            _ => {}
        }
    }
    on_screen
}

/// The topmost element at a point, looking into the element's own shadow root scope.
fn hit(element: &Element, x: f64, y: f64) -> Option<Element> {
    let root = element.get_root_node();
    let f = js_sys::Reflect::get(&root, &"elementFromPoint".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call2(&root, &x.into(), &y.into())
        .ok()?
        .dyn_into::<Element>()
        .ok()
}

/// Whether `other` is a label of `element` (clicking a label acts on its control).
fn labels(element: &Element, other: &Element) -> bool {
    if other.local_name() != "label" {
        return false;
    }
    let id = element.id();
    other.contains(Some(element))
        || (!id.is_empty() && other.get_attribute("for").as_deref() == Some(id.as_str()))
}

/// A simplified accessible-name computation: labelledby, aria-label, labels, alt, text, placeholder,
/// title, in that order.
fn accessible_name(element: &Element, tag: &str) -> String {
    if let Some(ids) = element.get_attribute("aria-labelledby") {
        let root = element.get_root_node();
        let text: Vec<String> = ids
            .split_whitespace()
            .filter_map(|id| call_element(&root, "getElementById", &id.into()))
            .filter_map(|e| e.text_content())
            .collect();
        let text = clean(&text.join(" "));
        if !text.is_empty() {
            return text;
        }
    }
    let attr = |name: &str| {
        element
            .get_attribute(name)
            .map(|v| clean(&v))
            .filter(|v| !v.is_empty())
    };
    if let Some(label) = attr("aria-label") {
        return label;
    }
    if matches!(tag, "input" | "select" | "textarea") {
        let labels = js_sys::Reflect::get(element, &"labels".into())
            .ok()
            .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok());
        if let Some(labels) = labels {
            let text: Vec<String> = (0..labels.length())
                .filter_map(|i| labels.item(i)?.text_content())
                .collect();
            let text = clean(&text.join(" "));
            if !text.is_empty() {
                return text;
            }
        }
        let input_type = element.get_attribute("type").unwrap_or_default().to_lowercase();
        if matches!(input_type.as_str(), "submit" | "button" | "reset") {
            if let Some(v) = attr("value") {
                return v;
            }
            return if input_type == "reset" {
                "Reset".into()
            } else {
                "Submit".into()
            };
        }
        if input_type == "image" {
            if let Some(alt) = attr("alt") {
                return alt;
            }
        }
        return attr("placeholder").or_else(|| attr("title")).unwrap_or_default();
    }
    let text = clean(&element.text_content().unwrap_or_default());
    if !text.is_empty() {
        return text;
    }
    if let Ok(Some(img)) = element.query_selector("img[alt]") {
        if let Some(alt) = img
            .get_attribute("alt")
            .map(|a| clean(&a))
            .filter(|a| !a.is_empty())
        {
            return alt;
        }
    }
    attr("title").or_else(|| attr("placeholder")).unwrap_or_default()
}

fn value_of(element: &Element, tag: &str) -> Option<String> {
    let value = match tag {
        "input" => {
            let input = element.dyn_ref::<HtmlInputElement>()?;
            let kind = input.type_().to_lowercase();
            // Never read out (or send to a model) passwords, one-time codes or card data.
            let autocomplete = element
                .get_attribute("autocomplete")
                .unwrap_or_default()
                .to_lowercase();
            if autocomplete.starts_with("cc-") || autocomplete == "one-time-code" {
                return None;
            }
            if matches!(
                kind.as_str(),
                "password" | "checkbox" | "radio" | "submit" | "button" | "reset" | "image" | "file"
            ) {
                return None;
            }
            input.value()
        }
        "textarea" => element.dyn_ref::<HtmlTextAreaElement>()?.value(),
        "select" => {
            let select = element.dyn_ref::<HtmlSelectElement>()?;
            let options = select.selected_options();
            let text: Vec<String> = (0..options.length())
                .filter_map(|i| options.item(i)?.text_content())
                .collect();
            text.join(", ")
        }
        _ => return None,
    };
    let value = clean(&value);
    (!value.is_empty()).then_some(value)
}

fn states_of(element: &Element) -> Vec<String> {
    let mut states = Vec::new();
    let aria = |name: &str| element.get_attribute(name).map(|v| v.to_lowercase());
    let checked = element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| matches!(i.type_().to_lowercase().as_str(), "checkbox" | "radio") && i.checked());
    if checked || aria("aria-checked").as_deref() == Some("true") {
        states.push("checked".into());
    }
    match aria("aria-expanded").as_deref() {
        Some("true") => states.push("expanded".into()),
        Some("false") => states.push("collapsed".into()),
        _ => {}
    }
    if aria("aria-pressed").as_deref() == Some("true") {
        states.push("pressed".into());
    }
    if aria("aria-selected").as_deref() == Some("true") {
        states.push("selected".into());
    }
    if element.has_attribute("required") || aria("aria-required").as_deref() == Some("true") {
        states.push("required".into());
    }
    states
}

/// The text of the element's nearest meaningful container (form, dialog, list item, card), shortened:
/// context for the policy gate ("Order total €84.97" next to a "Continue" button).
fn text_around(element: &Element) -> String {
    const CONTAINERS: &str =
        "form, dialog, [role=dialog], [role=alertdialog], li, tr, article, section, fieldset";
    let container = element
        .closest(CONTAINERS)
        .ok()
        .flatten()
        .or_else(|| element.parent_element());
    let text = container.and_then(|c| c.text_content()).unwrap_or_default();
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    joined.chars().take(300).collect()
}

/// Collapses white space and cuts to [`MAX_TEXT`] characters.
fn clean(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= MAX_TEXT {
        return joined;
    }
    let cut: String = joined.chars().take(MAX_TEXT - 1).collect();
    format!("{}…", cut.trim_end())
}

fn call_element(target: &JsValue, method: &str, arg: &JsValue) -> Option<Element> {
    let f = js_sys::Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call1(target, arg).ok()?.dyn_into::<Element>().ok()
}
