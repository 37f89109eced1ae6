//! Finding the interactive elements of a frame, in document order, and describing each the way a
//! screen reader would (role, accessible name, value, states).
//!
//! Included: native controls, ARIA widget roles, `tabindex ≥ 0`, contenteditable hosts, `summary`,
//! inline `onclick` handlers, open shadow roots at any depth; in the viewport also elements with a
//! pointer cursor of their own (not inherited), unless a numbered control is inside or around them;
//! a checkbox or radio whose input is hidden under a custom look is numbered as its visible label.
//! Handlers that scripts add (`addEventListener`, an `onclick` property) cannot be seen from the
//! extension's isolated world: such elements are found by their cursor. Skipped: disabled, `aria-disabled`, `inert`, hidden, zero-size, and on-screen
//! elements covered by something else (centre and corner hit tests in the element's own tree).
//!
//! Speed: the browser does the bulk work. A whole-page scan takes candidates from one selector query
//! per tree and reads all their boxes in a few native calls (`Bulk`); a viewport scan walks only the
//! boxes that overlap the viewport. Style is read only on those walks, hit tests run only for controls
//! that a positioned or transformed box overlaps, and labels are found without each field's `labels`
//! list (which walks the whole document). Must not change the page: reads only.
//!
//! Secret fields (`waymark_protocol::secret`, asked through `secret.rs`: passwords, also after "show
//! password", one-time codes, PINs, card details) are listed and described without a value, and a
//! secret contenteditable field is never named by its own text.

use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::{ElementInfo, Interactive, SecretKind};
use web_sys::{Document, Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

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
    /// The box as of the listing, for the covered check at the end of a scan.
    rect: Rect,
    role: String,
    name: String,
    value: Option<String>,
    states: Vec<String>,
    /// The field's secret, if it is one (then `value` is `None`).
    secret: Option<SecretKind>,
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
        let tag = self.element.local_name();
        if self.secret.is_some() {
            return field_name(&self.element, &tag, Some(&self.role), None).0;
        }
        accessible_name(&self.element, &tag, None)
    }

    /// What the policy gate needs to judge an action on this element: its description, all of its
    /// words, and what acting on it would do (`effect`).
    pub fn info(&self, index: Option<u32>, url: String) -> ElementInfo {
        let element = &self.element;
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| v.trim().to_lowercase())
                .filter(|v| !v.is_empty())
        };
        let in_dialog = element
            .closest("dialog, [role=dialog], [role=alertdialog], [aria-modal=true]")
            .ok()
            .flatten()
            .is_some();
        // Asked again: the field may have become secret since the listing (and stays so if it was).
        let secret = field_name(element, &element.local_name(), Some(&self.role), None)
            .1
            .or(self.secret);
        let mut info = ElementInfo {
            index,
            role: self.role.clone(),
            name: self.name.clone(),
            tag: element.local_name(),
            input_type: attr("type"),
            value: self.value.clone().filter(|_| secret.is_none()),
            autocomplete: attr("autocomplete"),
            secret,
            in_dialog,
            url,
            ..ElementInfo::default()
        };
        crate::effect::enrich(&mut info, element);
        info
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

/// Describes any element as a listing would (role, name, value, states): for an element the keyboard
/// focus is on that has no number.
pub fn found_for(element: &Element) -> Found {
    let tag = element.local_name();
    let role = role_of(element, &tag);
    let (name, secret) = field_name(element, &tag, role.as_deref(), None);
    Found {
        rect: Rect::of(element),
        role: role.unwrap_or_else(|| "generic".into()),
        name,
        value: value_of(element, &tag, secret),
        states: states_of(element),
        secret,
        element: element.clone(),
    }
}

/// An element's accessible name, as a listing names it.
pub fn name_of(element: &Element) -> String {
    accessible_name(element, &element.local_name(), None)
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
    let scan = Scan {
        viewport: crate::overlay::viewport(),
        only_viewport,
        visibility: Visibility::new(),
        bulk: Bulk::new(),
        probable: JsValue::from_str(PROBABLE),
        numbered: js_sys::Set::new(&JsValue::UNDEFINED),
        occluders: std::cell::RefCell::new(Vec::new()),
    };
    let mut out = Vec::new();
    scan.tree(document, &mut out, 0);
    scan.drop_covered(&mut out);
    out
}

/// Elements that may be controls, and frames: matched by the browser in one call per tree, so a page
/// of 30,000 elements costs a few thousand calls from wasm, not a hundred thousand. `is_candidate`
/// then applies the exact rules.
const PROBABLE: &str = "a[href], button, input, select, textarea, summary, [role], [tabindex], \
    [contenteditable], [onclick], iframe, frame";

/// Shadow roots nested deeper than this are not entered.
const MAX_SHADOW_DEPTH: usize = 32;

/// The pointer-cursor walk goes no deeper than this below its tree's root.
const MAX_WALK_DEPTH: usize = 256;

/// Elements whose children the walks do not enter: nothing inside them is a control of the page.
const NO_ENTRY: &[&str] = &[
    "select", "textarea", "iframe", "frame", "object", "embed", "video", "audio", "canvas",
];

/// Where a walk is: under an element with a pointer cursor, inside a numbered control, inside an
/// element that may be listed for its pointer cursor.
#[derive(Clone, Copy, Default)]
struct Walk {
    pointer: bool,
    in_control: bool,
    in_extra: bool,
}

/// Clickable by the pointer-cursor rule: the cursor is set on this element, not inherited from its
/// parent. (An `onclick` property would say more, but one set by the page's scripts is visible only
/// in the page's own world, never in the content script's.)
fn clickable(pointer: bool, parent_pointer: bool) -> bool {
    pointer && !parent_pointer
}

/// Tags the pointer-cursor walk never enters: nothing in them is drawn as a control of the page.
const WALK_SKIPS: &[&str] = &["head", "script", "style", "template", "noscript", "link", "meta"];

/// An element's border box in viewport coordinates, as `getBoundingClientRect` gives it.
#[derive(Clone, Copy, Default, serde::Deserialize)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn of(element: &Element) -> Self {
        let r = element.get_bounding_client_rect();
        Self {
            left: r.left(),
            top: r.top(),
            right: r.right(),
            bottom: r.bottom(),
            width: r.width(),
            height: r.height(),
        }
    }

    /// Whether the box overlaps a viewport of this size (touching an edge is not enough).
    pub fn intersects(&self, (width, height): (f64, f64)) -> bool {
        self.bottom > 0.0 && self.right > 0.0 && self.top < height && self.left < width
    }
}

/// The browser's own array methods applied to many elements in one call, so wasm is not entered once
/// per element: `Array.prototype.map` with `getBoundingClientRect` and then with each side's getter
/// (read back as typed arrays), `Array.prototype.filter` with the `shadowRoot` getter. The callbacks
/// are the browser's native functions bound with `Function.prototype.call`, so no script is evaluated
/// (the extension's CSP forbids that anyway).
pub struct Bulk {
    map: js_sys::Function,
    filter: js_sys::Function,
    index_of: js_sys::Function,
    rect: js_sys::Function,
    /// The getters of `left`, `top`, `right`, `bottom`, in that order.
    sides: [js_sys::Function; 4],
    shadow: js_sys::Function,
    control: js_sys::Function,
}

impl Bulk {
    pub fn new() -> Option<Self> {
        let get = |target: &JsValue, key: &str| js_sys::Reflect::get(target, &key.into()).ok();
        let function = |v: Option<JsValue>| v.and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let global = js_sys::global();
        let prototype = |name: &str| get(&global, name).and_then(|c| get(&c, "prototype"));
        let call = function(prototype("Function").and_then(|p| get(&p, "call")))?;
        // call.bind(f) is x => f.call(x): the element becomes `this`; the index and array that map and
        // filter also pass are ignored by these methods and getters.
        let bound = |f: js_sys::Function| call.bind0(&f);
        let getter = |proto: &JsValue, key: &str| {
            js_sys::Reflect::get_own_property_descriptor(proto.unchecked_ref::<js_sys::Object>(), &key.into())
                .ok()
                .and_then(|d| function(get(&d, "get")))
                .map(bound)
        };
        let array = prototype("Array")?;
        let element = prototype("Element")?;
        let rect = prototype("DOMRectReadOnly")?;
        let label = prototype("HTMLLabelElement")?;
        Some(Self {
            map: function(get(&array, "map"))?,
            filter: function(get(&array, "filter"))?,
            index_of: function(get(&array, "indexOf"))?,
            rect: bound(function(get(&element, "getBoundingClientRect"))?),
            sides: [
                getter(&rect, "left")?,
                getter(&rect, "top")?,
                getter(&rect, "right")?,
                getter(&rect, "bottom")?,
            ],
            shadow: getter(&element, "shadowRoot")?,
            control: getter(&label, "control")?,
        })
    }

    /// The boxes of all `elements`, in order, read in a dozen calls however many there are.
    pub fn rects(&self, elements: &js_sys::Array) -> Vec<Rect> {
        let n = elements.length() as usize;
        let read = || -> Option<Vec<Rect>> {
            let rects = self.map.call1(elements, &self.rect).ok()?;
            let mut sides = Vec::with_capacity(4);
            for getter in &self.sides {
                let values = self.map.call1(&rects, getter).ok()?;
                let values = js_sys::Float64Array::new(&values).to_vec();
                if values.len() != n {
                    return None;
                }
                sides.push(values);
            }
            Some(
                (0..n)
                    .map(|i| {
                        let (left, top, right, bottom) = (sides[0][i], sides[1][i], sides[2][i], sides[3][i]);
                        Rect {
                            left,
                            top,
                            right,
                            bottom,
                            width: right - left,
                            height: bottom - top,
                        }
                    })
                    .collect(),
            )
        };
        read().unwrap_or_else(|| {
            // Should not happen; element by element gives the same answer, only slower.
            elements
                .iter()
                .map(|e| e.dyn_ref::<Element>().map(Rect::of).unwrap_or_default())
                .collect()
        })
    }

    /// The elements of `elements` that host an open shadow root.
    fn shadow_hosts(&self, elements: &js_sys::Array) -> Vec<Element> {
        self.filter
            .call1(elements, &self.shadow)
            .ok()
            .and_then(|hosts| hosts.dyn_into::<js_sys::Array>().ok())
            .map(|hosts| {
                hosts
                    .iter()
                    .filter_map(|h| h.dyn_into::<Element>().ok())
                    .collect()
            })
            .unwrap_or_default()
    }
}

struct Scan {
    viewport: (f64, f64),
    only_viewport: bool,
    visibility: Visibility,
    bulk: Option<Bulk>,
    probable: JsValue,
    /// Every element numbered so far (controls and frames), so later rules do not number it, its
    /// inside or its label again.
    numbered: js_sys::Set,
    /// The on-screen boxes of positioned or transformed elements seen by the walks: only a control
    /// overlapped by one of them can be covered, so only those are hit-tested (a hit test costs up to a
    /// millisecond on a large page).
    occluders: std::cell::RefCell<Vec<Rect>>,
}

impl Scan {
    /// One tree (the document or a shadow root), in document order, with the contents of its open
    /// shadow roots spliced in right after their hosts.
    fn tree(&self, root: &JsValue, out: &mut Vec<Entry>, depth: usize) {
        match &self.bulk {
            Some(bulk) if self.only_viewport => {
                let labels = Labels::per_field(root);
                self.walk(bulk, &children(root), &labels, Walk::default(), depth, 0, out);
            }
            _ => self.whole_tree(root, out, depth),
        }
    }

    /// The whole tree: every candidate the browser's selector finds, then what only a pointer cursor
    /// marks as clickable in the viewport, put in its place.
    fn whole_tree(&self, root: &JsValue, out: &mut Vec<Entry>, depth: usize) {
        let start = out.len();
        let candidates = query_array(root, &self.probable);
        let hosts: Vec<(Element, web_sys::ShadowRoot)> = if depth < MAX_SHADOW_DEPTH {
            self.shadow_hosts(root)
        } else {
            Vec::new()
        };
        // All boxes first, in one read: no layout is forced between them.
        let rects = match &self.bulk {
            Some(bulk) => bulk.rects(&candidates),
            None => candidates
                .iter()
                .map(|e| e.dyn_ref::<Element>().map(Rect::of).unwrap_or_default())
                .collect(),
        };
        let labels = Labels::new(root, self.bulk.as_ref());
        let mut next_host = 0;
        for (i, rect) in rects.iter().enumerate() {
            let Ok(element) = candidates.get(i as u32).dyn_into::<Element>() else {
                continue;
            };
            // Shadow content comes after its host and before whatever follows the host.
            while let Some((host, shadow)) = hosts.get(next_host) {
                if !follows(host, &element) {
                    break;
                }
                self.tree(shadow, out, depth + 1);
                next_host += 1;
            }
            // Only without the bulk reads does a viewport scan come here.
            if self.only_viewport && !rect.intersects(self.viewport) {
                continue;
            }
            if rect.intersects(self.viewport) {
                if let Some(window) = web_sys::window() {
                    if let Ok(Some(style)) = window.get_computed_style(&element) {
                        self.note_occluder(&style, rect);
                    }
                }
            }
            self.element(element, rect, &labels, out);
        }
        for (_, shadow) in hosts.iter().skip(next_host) {
            self.tree(shadow, out, depth + 1);
        }
        if let Some(bulk) = &self.bulk {
            let mut found = Vec::new();
            self.pointer_walk(bulk, &children(root), false, 0, &mut found);
            self.insert_extras(root, start, found, out);
        }
    }

    fn shadow_hosts(&self, root: &JsValue) -> Vec<(Element, web_sys::ShadowRoot)> {
        // A document's live `getElementsByTagName` list costs nothing to make; a shadow root has none.
        let everything = match root.dyn_ref::<Document>() {
            Some(document) => js_sys::Array::from(&document.get_elements_by_tag_name("*")),
            None => query_array(root, &"*".into()),
        };
        let hosts = match &self.bulk {
            Some(bulk) => bulk.shadow_hosts(&everything),
            None => everything
                .iter()
                .filter_map(|e| e.dyn_into::<Element>().ok())
                .collect(),
        };
        hosts
            .into_iter()
            .filter_map(|e| e.shadow_root().map(|s| (e, s)))
            .collect()
    }

    /// The viewport scan: a walk in document order that enters only boxes overlapping the viewport
    /// (or without a size, which may still hold visible children), so a long page costs what its
    /// visible part costs. Each element is checked as a candidate, as a shadow host, and, outside
    /// numbered controls, for a pointer cursor of its own. (Content drawn outside the boxes
    /// of all its ancestors is left to a whole-page scan.)
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        bulk: &Bulk,
        elements: &js_sys::Array,
        labels: &Labels<'_>,
        context: Walk,
        depth: usize,
        shadow_depth: usize,
        out: &mut Vec<Entry>,
    ) {
        if depth > MAX_WALK_DEPTH || elements.length() == 0 {
            return;
        }
        let Some(window) = web_sys::window() else { return };
        let rects = bulk.rects(elements);
        for (i, rect) in rects.iter().enumerate() {
            let empty = rect.width == 0.0 || rect.height == 0.0;
            if !empty && !rect.intersects(self.viewport) {
                continue;
            }
            let Ok(element) = elements.get(i as u32).dyn_into::<Element>() else {
                continue;
            };
            let tag = element.local_name();
            // Waymark's own hosts (their tag is random per frame) hold nothing of the page.
            if WALK_SKIPS.contains(&tag.as_str()) || crate::overlay::is_host_tag(&tag) {
                continue;
            }
            let mut inner = context;
            if element.matches(PROBABLE).unwrap_or(false) {
                self.element(element.clone(), rect, labels, out);
                if self.numbered.has(&element) {
                    inner.in_control = true;
                }
            }
            // Inside a numbered control or a pointer element nothing more can be listed for its cursor.
            let style = if (context.in_control || context.in_extra) && !empty {
                None
            } else {
                window.get_computed_style(&element).ok().flatten()
            };
            if empty
                && style
                    .as_ref()
                    .is_some_and(|s| s.get_property_value("display").is_ok_and(|d| d == "none"))
            {
                continue;
            }
            if let (Some(style), false) = (&style, empty) {
                self.note_occluder(style, rect);
            }
            let pointer = style
                .as_ref()
                .is_some_and(|s| s.get_property_value("cursor").is_ok_and(|c| c == "pointer"));
            let extra = !empty && !inner.in_control && !inner.in_extra && clickable(pointer, context.pointer);
            inner.pointer = pointer;
            let before = out.len();
            if extra {
                inner.in_extra = true;
            }
            if shadow_depth < MAX_SHADOW_DEPTH {
                if let Some(shadow) = element.shadow_root() {
                    let shadow_labels = Labels::per_field(&shadow);
                    self.walk(
                        bulk,
                        &children(&shadow),
                        &shadow_labels,
                        inner,
                        depth + 1,
                        shadow_depth + 1,
                        out,
                    );
                }
            }
            if !NO_ENTRY.contains(&tag.as_str()) {
                self.walk(
                    bulk,
                    &children(&element),
                    labels,
                    inner,
                    depth + 1,
                    shadow_depth,
                    out,
                );
            }
            // Listed only when nothing inside it was: a numbered control inside is what people use.
            if extra && out.len() == before {
                if let Some(found) = self.extra(element, rect) {
                    self.push(found, out);
                }
            }
        }
    }

    fn note_occluder(&self, style: &web_sys::CssStyleDeclaration, rect: &Rect) {
        let value = |name: &str| style.get_property_value(name).unwrap_or_default();
        let positioned = matches!(value("position").as_str(), "absolute" | "fixed" | "sticky");
        if (positioned || value("transform") != "none") && rect.intersects(self.viewport) {
            self.occluders.borrow_mut().push(*rect);
        }
    }

    /// The hit tests, once everything is read: a control overlapped by a positioned or transformed
    /// box is dropped when every probe point hits something else. A hidden checkbox or radio under
    /// its custom look is replaced by its label, as when it is hidden outright.
    fn drop_covered(&self, out: &mut Vec<Entry>) {
        let occluders = self.occluders.borrow();
        if occluders.is_empty() {
            return;
        }
        let overlaps = |r: &Rect| {
            occluders
                .iter()
                .any(|o| r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom)
        };
        let mut i = 0;
        while i < out.len() {
            let Entry::Control(found) = &out[i] else {
                i += 1;
                continue;
            };
            if !overlaps(&found.rect) || !covered(&found.element, &found.rect, self.viewport) {
                i += 1;
                continue;
            }
            let element = found.element.clone();
            let choice = element.local_name() == "input" && matches!(found.role(), "checkbox" | "radio");
            let label = if choice {
                let role = found.role().to_string();
                self.choice_label(&element, Some(&role), own_labels(&element))
                    .filter(|l| !overlaps(&l.rect) || !covered(&l.element, &l.rect, self.viewport))
            } else {
                None
            };
            self.numbered.delete(&element);
            match label {
                Some(label) => {
                    self.numbered.add(&label.element);
                    out[i] = Entry::Control(label);
                    i += 1;
                }
                None => {
                    out.remove(i);
                }
            }
        }
    }

    fn push(&self, found: Found, out: &mut Vec<Entry>) {
        self.numbered.add(&found.element);
        out.push(Entry::Control(found));
    }

    fn element(&self, element: Element, rect: &Rect, labels: &Labels<'_>, out: &mut Vec<Entry>) {
        let tag = element.local_name();
        if matches!(tag.as_str(), "iframe" | "frame") {
            let shown = rect.width >= 1.0 && rect.height >= 1.0 && self.visibility.check(&element);
            if shown && !is_inert(&element) {
                self.numbered.add(&element);
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
        let choice = tag == "input" && matches!(role.as_deref(), Some("checkbox" | "radio"));
        let shown = self.visibility.check(&element) && usable(&element, rect);
        // A custom checkbox or radio: the input itself is hidden (or a speck, or see-through) and its
        // label is what people see and click, so the label is numbered in its place.
        let hidden_choice = choice
            && (!shown || rect.width < 4.0 || rect.height < 4.0 || !self.visibility.opaque(&element))
            && !element.matches(":disabled").unwrap_or(false);
        if hidden_choice {
            if let Some(found) = self.choice_label(&element, role.as_deref(), labels.of(&element)) {
                self.push(found, out);
                return;
            }
        }
        if !shown {
            return;
        }
        let (name, secret) = field_name(&element, &tag, role.as_deref(), Some(labels));
        self.push(
            Found {
                rect: *rect,
                role: role.unwrap_or_else(|| "generic".into()),
                name,
                value: value_of(&element, &tag, secret),
                states: states_of(&element),
                secret,
                element,
            },
            out,
        );
    }

    /// The visible label of a hidden checkbox or radio, described as the input (role, states).
    fn choice_label(&self, input: &Element, role: Option<&str>, labels: Vec<Element>) -> Option<Found> {
        let label = labels.into_iter().next()?;
        if self.numbered.has(&label) {
            return None;
        }
        let rect = Rect::of(&label);
        if self.only_viewport && !rect.intersects(self.viewport) {
            return None;
        }
        if !self.visibility.check(&label) || !usable(&label, &rect) {
            return None;
        }
        Some(Found {
            rect,
            role: role.unwrap_or("checkbox").into(),
            // Named from the label itself, as `current_name` will name it when acting.
            name: accessible_name(&label, "label", None),
            value: None,
            states: states_of(input),
            secret: None,
            element: label,
        })
    }

    /// A pointer-cursor element, if it passes the checks every control passes and no
    /// numbered control is inside it or labelled by it.
    fn extra(&self, element: Element, rect: &Rect) -> Option<Found> {
        if !self.visibility.check(&element) || !usable(&element, rect) {
            return None;
        }
        if self.covers_numbered(&element) {
            return None;
        }
        let tag = element.local_name();
        // A label of a numbered control acts on that control: already listed.
        if tag == "label"
            && js_sys::Reflect::get(&element, &"control".into()).is_ok_and(|c| self.numbered.has(&c))
        {
            return None;
        }
        let role = role_of(&element, &tag).filter(|r| WIDGET_ROLES.contains(&r.as_str()));
        Some(Found {
            rect: *rect,
            role: role.unwrap_or_else(|| "generic".into()),
            name: accessible_name(&element, &tag, None),
            value: None,
            states: states_of(&element),
            secret: None,
            element,
        })
    }

    /// Puts the pointer-cursor elements of a whole-tree scan in document order among this tree's
    /// entries (`out[start..]`), where entries from nested shadow trees stand where their host stands.
    fn insert_extras(&self, root: &JsValue, start: usize, found: Vec<(Element, Rect)>, out: &mut Vec<Entry>) {
        for (element, rect) in found {
            let lifted: Vec<Option<Element>> = out[start..]
                .iter()
                .map(|entry| {
                    let other = match entry {
                        Entry::Control(f) => &f.element,
                        Entry::Frame(e) => e,
                    };
                    lift(other, root)
                })
                .collect();
            // A shadow host whose shadow tree holds numbered controls is covered by them.
            if lifted.iter().any(|l| l.as_ref() == Some(&element)) {
                continue;
            }
            let Some(found) = self.extra(element, &rect) else {
                continue;
            };
            let at =
                start + lifted.partition_point(|l| l.as_ref().is_some_and(|o| follows(o, &found.element)));
            self.numbered.add(&found.element);
            out.insert(at, Entry::Control(found));
        }
    }

    /// The pointer-cursor walk of a whole-tree scan: like [`Scan::walk`], but over what the selector
    /// pass did not number, only to collect elements with a pointer cursor of their own (their
    /// insides are not entered: a pointer further down only repeats them).
    fn pointer_walk(
        &self,
        bulk: &Bulk,
        elements: &js_sys::Array,
        parent_pointer: bool,
        depth: usize,
        found: &mut Vec<(Element, Rect)>,
    ) {
        if depth > MAX_WALK_DEPTH || elements.length() == 0 {
            return;
        }
        let Some(window) = web_sys::window() else { return };
        let rects = bulk.rects(elements);
        for (i, rect) in rects.into_iter().enumerate() {
            let empty = rect.width == 0.0 || rect.height == 0.0;
            if !empty && !rect.intersects(self.viewport) {
                continue;
            }
            let Ok(element) = elements.get(i as u32).dyn_into::<Element>() else {
                continue;
            };
            let tag = element.local_name();
            if self.numbered.has(&element) || WALK_SKIPS.contains(&tag.as_str()) {
                continue;
            }
            let Ok(Some(style)) = window.get_computed_style(&element) else {
                continue;
            };
            if empty && style.get_property_value("display").is_ok_and(|d| d == "none") {
                continue;
            }
            if !empty {
                self.note_occluder(&style, &rect);
            }
            let pointer = style.get_property_value("cursor").is_ok_and(|c| c == "pointer");
            if !empty && clickable(pointer, parent_pointer) {
                found.push((element, rect));
                continue;
            }
            if !NO_ENTRY.contains(&tag.as_str()) {
                self.pointer_walk(bulk, &children(&element), pointer, depth + 1, found);
            }
        }
    }

    /// Whether a numbered control lies inside `element` (then the control is what is listed).
    fn covers_numbered(&self, element: &Element) -> bool {
        if !matches!(element.query_selector(PROBABLE), Ok(Some(_))) {
            return false;
        }
        query_array(element, &self.probable)
            .iter()
            .any(|e| self.numbered.has(&e))
    }
}

/// How many elements in `element` (itself included) may be controls: what the page watcher counts
/// when nodes are added (a cheap upper bound, without the visibility checks of a listing).
pub fn controls_in(element: &Element) -> u32 {
    let own = u32::from(element.matches(PROBABLE).unwrap_or(false));
    let inside = element
        .query_selector_all(PROBABLE)
        .map(|l| l.length())
        .unwrap_or(0);
    own + inside
}

/// `node.children` as an array (empty for nodes without element children).
fn children(node: &JsValue) -> js_sys::Array {
    js_sys::Reflect::get(node, &"children".into())
        .ok()
        .filter(|c| !c.is_undefined() && !c.is_null())
        .map(|c| js_sys::Array::from(&c))
        .unwrap_or_default()
}

/// The element of `root`'s own tree that holds `element`: itself, or the shadow host (at some depth)
/// whose shadow tree holds it.
fn lift(element: &Element, root: &JsValue) -> Option<Element> {
    let mut current = element.clone();
    for _ in 0..=MAX_SHADOW_DEPTH {
        let node = current.get_root_node();
        if js_sys::Object::is(&node, root) {
            return Some(current);
        }
        current = node.dyn_into::<web_sys::ShadowRoot>().ok()?.host();
    }
    None
}

/// `root.querySelectorAll(selector)` for a document, shadow root or element, as an array.
fn query_array(root: &JsValue, selector: &JsValue) -> js_sys::Array {
    js_sys::Reflect::get(root, &"querySelectorAll".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(root, selector).ok())
        .map(|list| js_sys::Array::from(&list))
        .unwrap_or_default()
}

/// The labels of one tree's fields. A field's own `labels` list would do, but the browser walks the
/// whole document for each field to build it, which costs seconds on a large page. A whole-tree scan
/// reads every label and its control (`label.control`) with two native calls when the first field
/// asks; a viewport scan, which meets few fields, looks for each field's labels where they can be:
/// around it, and (for a field with an id) by their `for`.
struct Labels<'a> {
    root: JsValue,
    bulk: Option<&'a Bulk>,
    per_field: bool,
    index: std::cell::OnceCell<Option<(js_sys::Array, JsValue)>>,
}

impl<'a> Labels<'a> {
    fn new(root: &JsValue, bulk: Option<&'a Bulk>) -> Self {
        Self {
            root: root.clone(),
            bulk,
            per_field: false,
            index: std::cell::OnceCell::new(),
        }
    }

    fn per_field(root: &JsValue) -> Self {
        Self {
            per_field: true,
            ..Self::new(root, None)
        }
    }

    /// The labels of `control`, in document order.
    fn of(&self, control: &Element) -> Vec<Element> {
        if self.per_field {
            return self.around(control);
        }
        let Some(bulk) = self.bulk else {
            return own_labels(control);
        };
        let index = self.index.get_or_init(|| {
            let labels = query_array(&self.root, &"label".into());
            let controls = bulk.map.call1(&labels, &bulk.control).ok()?;
            Some((labels, controls))
        });
        let Some((labels, controls)) = index else {
            return own_labels(control);
        };
        let mut found = Vec::new();
        let mut from = 0.0;
        while let Some(i) = bulk
            .index_of
            .call2(controls, control, &from.into())
            .ok()
            .and_then(|i| i.as_f64())
            .filter(|i| *i >= 0.0)
        {
            if let Ok(label) = labels.get(i as u32).dyn_into::<Element>() {
                found.push(label);
            }
            from = i + 1.0;
        }
        found
    }
}

impl Labels<'_> {
    /// The labels whose control is `control`: enclosing ones, and those naming its id in `for`.
    fn around(&self, control: &Element) -> Vec<Element> {
        let is_control = |label: &Element| {
            js_sys::Reflect::get(label, &"control".into()).is_ok_and(|c| c == JsValue::from(control))
        };
        let mut found: Vec<Element> = Vec::new();
        let mut at = control.parent_element();
        while let Some(label) = at.and_then(|p| p.closest("label").ok().flatten()) {
            if is_control(&label) {
                found.push(label.clone());
            }
            at = label.parent_element();
        }
        found.reverse();
        let id = control.id();
        if !id.is_empty() {
            let escaped = js_sys::Reflect::get(&js_sys::global(), &"CSS".into())
                .ok()
                .and_then(|css| {
                    let escape = js_sys::Reflect::get(&css, &"escape".into()).ok()?;
                    escape
                        .dyn_into::<js_sys::Function>()
                        .ok()?
                        .call1(&css, &id.into())
                        .ok()
                })
                .and_then(|e| e.as_string());
            if let Some(escaped) = escaped {
                let selector = JsValue::from_str(&format!("label[for=\"{escaped}\"]"));
                for label in query_array(&self.root, &selector).iter() {
                    let Ok(label) = label.dyn_into::<Element>() else {
                        continue;
                    };
                    if !found.contains(&label) && is_control(&label) {
                        found.push(label);
                    }
                }
                // Document order, as the field's own list has them.
                found.sort_by(|a, b| {
                    if a == b {
                        std::cmp::Ordering::Equal
                    } else if follows(a, b) {
                        std::cmp::Ordering::Less
                    } else {
                        std::cmp::Ordering::Greater
                    }
                });
            }
        }
        found
    }
}

/// A field's `labels` list (fine for one field, slow for thousands: see [`Labels`]).
fn own_labels(control: &Element) -> Vec<Element> {
    js_sys::Reflect::get(control, &"labels".into())
        .ok()
        .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
        .map(|l| {
            (0..l.length())
                .filter_map(|i| l.item(i)?.dyn_into::<Element>().ok())
                .collect()
        })
        .unwrap_or_default()
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
    /// The same, also counting `opacity: 0` (on the element or an ancestor) as hidden.
    opaque_options: js_sys::Object,
}

impl Visibility {
    fn new() -> Self {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
        let opaque_options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&opaque_options, &"visibilityProperty".into(), &JsValue::TRUE);
        let _ = js_sys::Reflect::set(&opaque_options, &"opacityProperty".into(), &JsValue::TRUE);
        let check = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &"Element".into()).ok())
            .and_then(|e| js_sys::Reflect::get(&e, &"prototype".into()).ok())
            .and_then(|p| js_sys::Reflect::get(&p, &"checkVisibility".into()).ok())
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        Self {
            check,
            options,
            opaque_options,
        }
    }

    fn check(&self, element: &Element) -> bool {
        self.call(element, &self.options)
    }

    /// Rendered and not see-through.
    fn opaque(&self, element: &Element) -> bool {
        self.call(element, &self.opaque_options)
    }

    fn call(&self, element: &Element, options: &js_sys::Object) -> bool {
        match &self.check {
            Some(f) => f
                .call1(element, options)
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true),
            // Browsers before checkVisibility: the size and hit tests still apply.
            None => true,
        }
    }
}

/// Not disabled and has a size. (Whether it is covered is checked at the end of the scan.)
fn usable(element: &Element, rect: &Rect) -> bool {
    if element.matches(":disabled").unwrap_or(false)
        || element
            .get_attribute("aria-disabled")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || is_inert(element)
    {
        return false;
    }
    rect.width >= 1.0 && rect.height >= 1.0
}

/// Whether every probe point of an on-screen element hits something that is neither it, inside it,
/// nor its label. Off-screen elements cannot be hit-tested and count as not covered.
fn covered(element: &Element, rect: &Rect, (width, height): (f64, f64)) -> bool {
    let (l, t, r, b) = (rect.left, rect.top, rect.right, rect.bottom);
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
///
/// `labels`, when given, is the scan's index of the tree's labels; otherwise the field's own `labels`
/// list is read (the same labels, fine for one element).
fn accessible_name(element: &Element, tag: &str, labels: Option<&Labels<'_>>) -> String {
    if let Some(text) = labelled_by(element, true) {
        return text;
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
        let labels = match labels {
            Some(index) => Some(index.of(element)),
            None => js_sys::Reflect::get(element, &"labels".into())
                .ok()
                .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
                .map(|l| {
                    (0..l.length())
                        .filter_map(|i| l.item(i)?.dyn_into::<Element>().ok())
                        .collect()
                }),
        };
        if let Some(labels) = labels {
            let text: Vec<String> = labels.iter().map(|l| label_text(l, element)).collect();
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

/// The text of the elements `aria-labelledby` names. With `itself` false, the element and what is
/// inside it are left out (a secret field's own text is what was typed).
fn labelled_by(element: &Element, itself: bool) -> Option<String> {
    let ids = element.get_attribute("aria-labelledby")?;
    let root = element.get_root_node();
    let text: Vec<String> = ids
        .split_whitespace()
        .filter_map(|id| call_element(&root, "getElementById", &id.into()))
        .filter(|e| itself || !element.contains(Some(e)))
        .filter_map(|e| e.text_content())
        .collect();
    let text = clean(&text.join(" "));
    (!text.is_empty()).then_some(text)
}

/// The name and the secret of a field, for a listing, a description or a mask. A native field is
/// named as a screen reader would name it (never by its value), then asked about; a contenteditable
/// field (or other `textbox`) is asked about by what its attributes say first, and, when secret, named
/// only by them, since its text is what was typed. Other elements hold no secret.
fn field_name(
    element: &Element,
    tag: &str,
    role: Option<&str>,
    labels: Option<&Labels<'_>>,
) -> (String, Option<SecretKind>) {
    let role_text = role.unwrap_or_default();
    if matches!(tag, "input" | "select" | "textarea") {
        let name = accessible_name(element, tag, labels);
        let secret = crate::secret::of_field(element, tag, role_text, &name).map(|s| s.kind);
        return (name, secret);
    }
    if role_text == "textbox" {
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| clean(&v))
                .filter(|v| !v.is_empty())
        };
        let quiet = labelled_by(element, false)
            .or_else(|| attr("aria-label"))
            .or_else(|| attr("title"))
            .or_else(|| attr("aria-placeholder"))
            .unwrap_or_default();
        if let Some(secret) = crate::secret::of_field(element, tag, role_text, &quiet) {
            return (quiet, Some(secret.kind));
        }
    }
    (accessible_name(element, tag, labels), None)
}

/// The secret `element` holds, if any (for the screenshot's mask, which meets elements outside a
/// listing).
pub fn secret_of(element: &Element) -> Option<SecretKind> {
    let tag = element.local_name();
    let role = role_of(element, &tag);
    field_name(element, &tag, role.as_deref(), None).1
}

/// The value a listing reports: typed text or the chosen option, never for a secret field.
fn value_of(element: &Element, tag: &str, secret: Option<SecretKind>) -> Option<String> {
    if secret.is_some() {
        return None;
    }
    let value = match tag {
        "input" => {
            let input = element.dyn_ref::<HtmlInputElement>()?;
            let kind = input.type_().to_lowercase();
            // Their value is a label or a path, not something to read out as typed text (and a
            // password input is secret, see above).
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

/// A label's words without those of the control it wraps: a list inside its own label is named
/// "Bulk actions", not "Bulk actions Mark as read Delete…", as a screen reader says it.
fn label_text(label: &Element, control: &Element) -> String {
    let text = label.text_content().unwrap_or_default();
    if !label.contains(Some(control)) {
        return text;
    }
    let inner = control.text_content().unwrap_or_default();
    if inner.trim().is_empty() {
        return text;
    }
    text.replacen(&inner, " ", 1)
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
