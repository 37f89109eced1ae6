//! The scan of one frame: candidates from one selector query per tree, the walks that find elements
//! with a pointer cursor of their own, open shadow roots spliced in after their hosts, frames where
//! they stand, and at the end the controls something else covers dropped.
//!
//! Must not: change the page, or walk every element of a large page from wasm (the browser matches
//! and measures in bulk; a viewport scan walks only boxes that overlap the viewport).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element};

use super::bulk::{Bulk, Rect};
use super::labels::{document_order, follows, has_control, own_labels, Labels};
use super::memo::Memo;
use super::name::{accessible_name, listed_name, states_of};
use super::prune::{drop_wrappers, holds_controls, under_its_own_drawing};
use super::reveal::Reveal;
use super::rules::{
    covered, inside_action, is_candidate, is_container, is_inert, role_of, usable, Visibility, PROBABLE,
};
use super::{named, unnamed, Entry, Found, WIDGET_ROLES};
use crate::dom::{is_host_tag, query_array};

/// Every interactive element of the document (including open shadow roots) and every visible child
/// frame, in document order.
///
/// With `only_viewport`, elements and frames outside the viewport are passed over before any costly
/// check: the model's observation of a huge page then costs what the visible part costs.
pub fn interactives(document: &Document, only_viewport: bool) -> Vec<Entry> {
    let scan = Scan::new(only_viewport, None);
    let mut out = Vec::new();
    scan.tree(document, &mut out, 0);
    scan.drop_covered(&mut out);
    drop_wrappers(&mut out);
    out
}

/// The whole page's interactive elements and visible child frames, like [`interactives`], judging
/// again only the elements that `changes` (what changed since the last call) may have changed.
pub fn listing(document: &Document, changes: &crate::watch::Changes) -> Vec<Entry> {
    let scan = Scan::new(false, Some(Memo::since(changes)));
    let mut out = Vec::new();
    scan.tree(document, &mut out, 0);
    scan.drop_covered(&mut out);
    drop_wrappers(&mut out);
    if let Some(memo) = scan.memo {
        memo.store();
    }
    out
}

/// Shadow roots nested deeper than this are not entered.
pub(super) const MAX_SHADOW_DEPTH: usize = 32;

/// The pointer-cursor walk goes no deeper than this below its tree's root.
pub(super) const MAX_WALK_DEPTH: usize = 256;

/// Elements whose children the walks do not enter: nothing inside them is a control of the page.
pub(super) const NO_ENTRY: &[&str] = &[
    "select", "textarea", "iframe", "frame", "object", "embed", "video", "audio", "canvas",
];

/// Where a walk is: under an element with a pointer cursor, inside a numbered control, inside an
/// element that may be listed for its pointer cursor.
#[derive(Clone, Copy, Default)]
pub(super) struct Walk {
    pointer: bool,
    in_control: bool,
    in_extra: bool,
}

/// Clickable by the pointer-cursor rule: the cursor is set on this element, not inherited from its
/// parent. (An `onclick` property would say more, but one set by the page's scripts is visible only
/// in the page's own world, never in the content script's.)
pub(super) fn clickable(pointer: bool, parent_pointer: bool) -> bool {
    pointer && !parent_pointer
}

/// Tags the pointer-cursor walk never enters: nothing in them is drawn as a control of the page.
pub(super) const WALK_SKIPS: &[&str] = &["head", "script", "style", "template", "noscript", "link", "meta"];

pub(super) struct Scan {
    viewport: (f64, f64),
    only_viewport: bool,
    visibility: Visibility,
    /// Unseen controls (see-through, clipped, off-canvas) and whether focus shows them.
    reveal: Reveal,
    bulk: Option<Bulk>,
    probable: JsValue,
    /// Every element numbered so far (controls and frames), so later rules do not number it, its
    /// inside or its label again.
    numbered: js_sys::Set,
    /// The on-screen boxes of positioned or transformed elements seen by the walks: only a control
    /// overlapped by one of them can be covered, so only those are hit-tested (a hit test costs up to a
    /// millisecond on a large page).
    occluders: std::cell::RefCell<Vec<Rect>>,
    /// The last whole-page listing's decisions that still hold, and this one's (whole-page scans only).
    memo: Option<Memo>,
}

impl Scan {
    fn new(only_viewport: bool, memo: Option<Memo>) -> Self {
        Self {
            viewport: crate::dom::viewport(),
            only_viewport,
            visibility: Visibility::new(),
            reveal: Reveal::new(),
            bulk: Bulk::new(),
            probable: JsValue::from_str(PROBABLE),
            numbered: js_sys::Set::new(&JsValue::UNDEFINED),
            occluders: std::cell::RefCell::new(Vec::new()),
            memo,
        }
    }

    /// One tree (the document or a shadow root), in document order, with the contents of its open
    /// shadow roots spliced in right after their hosts.
    pub(super) fn tree(&self, root: &JsValue, out: &mut Vec<Entry>, depth: usize) {
        if let (Some(_), Some(shadow)) = (&self.memo, root.dyn_ref::<web_sys::ShadowRoot>()) {
            // Its changes decide which decisions the next listing keeps.
            crate::watch::observe_tree(shadow);
        }
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
    pub(super) fn whole_tree(&self, root: &JsValue, out: &mut Vec<Entry>, depth: usize) {
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

    pub(super) fn shadow_hosts(&self, root: &JsValue) -> Vec<(Element, web_sys::ShadowRoot)> {
        // A document's live `getElementsByTagName` list costs nothing to make, and the array methods
        // read it as it is (copying 30,000 elements into an array costs more than the filter); a
        // shadow root has none.
        let everything: JsValue = match root.dyn_ref::<Document>() {
            Some(document) => document.get_elements_by_tag_name("*").into(),
            None => query_array(root, &"*".into()).into(),
        };
        let Some(bulk) = &self.bulk else {
            return js_sys::Array::from(&everything)
                .iter()
                .filter_map(|e| e.dyn_into::<Element>().ok())
                .filter_map(|e| crate::chrome::shadow_root(&e).map(|s| (e, s)))
                .collect();
        };
        let mut hosts: Vec<(Element, web_sys::ShadowRoot)> = bulk
            .shadow_hosts(&everything)
            .into_iter()
            .filter_map(|e| e.shadow_root().map(|s| (e, s)))
            .collect();
        // Closed roots (the browser answers for custom elements only, `chrome::shadow_root`), put in
        // document order among the open ones.
        let closed: Vec<(Element, web_sys::ShadowRoot)> = bulk
            .custom_elements(&everything)
            .into_iter()
            .filter_map(|e| crate::chrome::closed_shadow_root(&e).map(|s| (e, s)))
            .collect();
        if !closed.is_empty() {
            hosts.extend(closed);
            hosts.sort_by(|(a, _), (b, _)| document_order(a, b));
        }
        hosts
    }

    /// The viewport scan: a walk in document order that enters only boxes overlapping the viewport
    /// (or without a size, which may still hold visible children), so a long page costs what its
    /// visible part costs. Each element is checked as a candidate, as a shadow host, and, outside
    /// numbered controls, for a pointer cursor of its own. (Content drawn outside the boxes
    /// of all its ancestors is left to a whole-page scan.)
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk(
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
            if WALK_SKIPS.contains(&tag.as_str()) || is_host_tag(&tag) {
                continue;
            }
            let mut inner = context;
            if element.matches(PROBABLE).unwrap_or(false) {
                self.element(element.clone(), rect, labels, out);
                if self.numbered.has(&element) && !holds_controls(&element) {
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
                if let Some(shadow) = crate::chrome::shadow_root(&element) {
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

    pub(super) fn note_occluder(&self, style: &web_sys::CssStyleDeclaration, rect: &Rect) {
        let value = |name: &str| style.get_property_value(name).unwrap_or_default();
        let positioned = matches!(value("position").as_str(), "absolute" | "fixed" | "sticky");
        if (positioned || value("transform") != "none") && rect.intersects(self.viewport) {
            self.occluders.borrow_mut().push(*rect);
        }
    }

    /// The hit tests, once everything is read: a control overlapped by a positioned or transformed
    /// box is dropped when every probe point hits something else. A hidden checkbox or radio under
    /// its custom look is replaced by its label, as when it is hidden outright.
    pub(super) fn drop_covered(&self, out: &mut Vec<Entry>) {
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
            if under_its_own_drawing(&element, &found.rect, self.viewport) {
                i += 1;
                continue;
            }
            let choice =
                element.local_name() == "input" && matches!(found.role(), "checkbox" | "radio" | "switch");
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

    pub(super) fn push(&self, found: Found, out: &mut Vec<Entry>) {
        self.numbered.add(&found.element);
        out.push(Entry::Control(found));
    }

    pub(super) fn element(&self, element: Element, rect: &Rect, labels: &Labels<'_>, out: &mut Vec<Entry>) {
        let tag = element.local_name();
        if matches!(tag.as_str(), "iframe" | "frame") {
            let shown = rect.width >= 1.0 && rect.height >= 1.0 && self.visibility.check(&element);
            if shown && !is_inert(&element) {
                self.numbered.add(&element);
                out.push(Entry::Frame(element));
            }
            return;
        }
        // A label is its field's: the field is numbered (named by it), or the label in its place when
        // the field is a hidden checkbox, radio or file input; never both.
        if tag == "label" && has_control(&element) {
            return;
        }
        let Some(memo) = &self.memo else {
            if let Some(found) = self.judge(&element, &tag, rect, labels) {
                self.push(found, out);
            }
            return;
        };
        let outside = self.reveal.outside(rect);
        let found = memo.recall(&element, rect, outside).unwrap_or_else(|| {
            let found = self.judge(&element, &tag, rect, labels);
            memo.keep(&element, rect, outside, found.clone());
            found
        });
        let Some(mut found) = found else { return };
        if found.element != element {
            // The label of a hidden checkbox or radio, in its place: once, and where it is now.
            if self.numbered.has(&found.element) {
                return;
            }
            found.rect = Rect::of(&found.element);
        } else {
            found.rect = *rect;
        }
        self.push(found, out);
    }

    /// Whether an element (not a frame, not a label with a control) is listed, and as what: itself,
    /// or the visible label of a hidden checkbox or radio.
    fn judge(&self, element: &Element, tag: &str, rect: &Rect, labels: &Labels<'_>) -> Option<Found> {
        let element = element.clone();
        let tag = tag.to_string();
        let role = role_of(&element, &tag);
        if !is_candidate(&element, &tag, role.as_deref()) {
            return None;
        }
        // Decorative parts of a link or button (an icon with role=button inside a link) are not listed
        // again; fields inside one still are.
        let native = matches!(tag.as_str(), "input" | "select" | "textarea");
        if !native && inside_action(&element) {
            return None;
        }
        let file = tag == "input"
            && element
                .get_attribute("type")
                .is_some_and(|t| t.eq_ignore_ascii_case("file"));
        let choice =
            tag == "input" && (file || matches!(role.as_deref(), Some("checkbox" | "radio" | "switch")));
        // One call answers for nearly every element (rendered and not see-through); only a
        // see-through one is asked again whether it is rendered at all.
        let opaque = self.visibility.opaque(&element);
        let shown = (opaque || self.visibility.check(&element)) && usable(&element, rect);
        // A custom checkbox, radio or upload button: the input itself is hidden (or a speck, or
        // see-through) and its label is what people see and click, so the label is numbered in its place.
        let hidden_choice = choice
            && (!shown || rect.width < 4.0 || rect.height < 4.0 || !opaque)
            && !element.matches(":disabled").unwrap_or(false);
        if hidden_choice {
            if let Some(found) = self.choice_label(&element, role.as_deref(), labels.of(&element)) {
                return Some(found);
            }
        }
        // A see-through checkbox, radio or switch with no label to stand in for it, laid over its own
        // drawing (a component library's switch): what a pointer clicks is the input itself, and Chrome
        // exposes it.
        let over_its_look = choice
            && !opaque
            && rect.width >= 4.0
            && rect.height >= 4.0
            && self.visibility.check(&element)
            && usable(&element, rect);
        if !over_its_look && (!shown || self.reveal.unseen(&element, rect, opaque)) {
            return None;
        }
        let (name, secret) = listed_name(&element, &tag, role.as_deref(), labels);
        if secret.is_some() {
            // What it holds is kept out of everything the worker relays (`secret_values.rs` takes it).
            super::found_secret(&element);
        }
        Some(Found {
            rect: *rect,
            role: role.unwrap_or_else(|| "generic".into()),
            name,
            // Read when it is described (`Found::refresh`): a script can change them without a trace.
            value: None,
            states: Vec::new(),
            secret,
            element,
            context: None,
        })
    }

    /// The visible label of a hidden checkbox or radio, described as the input (role, states).
    pub(super) fn choice_label(
        &self,
        input: &Element,
        role: Option<&str>,
        labels: Vec<Element>,
    ) -> Option<Found> {
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
            // Named from the label itself (when described), as `current_name` will name it when acting.
            name: unnamed(),
            value: None,
            states: states_of(input),
            secret: None,
            element: label,
            context: None,
        })
    }

    /// A pointer-cursor element, if it passes the checks every control passes and no
    /// numbered control is inside it or labelled by it.
    pub(super) fn extra(&self, element: Element, rect: &Rect) -> Option<Found> {
        let tag = element.local_name();
        // A label acts on its control: listed with it, or in its place (see `element`).
        if tag == "label" && has_control(&element) {
            return None;
        }
        let opaque = self.visibility.opaque(&element);
        if !(opaque || self.visibility.check(&element)) || !usable(&element, rect) {
            return None;
        }
        if self.reveal.unseen(&element, rect, opaque) || self.covers_numbered(&element) {
            return None;
        }
        let own_role = role_of(&element, &tag);
        // A separator or a group drawn with a pointer cursor is not a control (a menu's dividers).
        if own_role
            .as_deref()
            .is_some_and(|r| r == "separator" || is_container(r))
        {
            return None;
        }
        let name = accessible_name(&element, &tag, None);
        // Nothing to say and no role: a clickable wrapper nobody can tell from the page around it.
        if name.is_empty() && own_role.is_none() {
            return None;
        }
        let role = own_role.filter(|r| WIDGET_ROLES.contains(&r.as_str()));
        Some(Found {
            rect: *rect,
            role: role.unwrap_or_else(|| "generic".into()),
            name: named(name),
            value: None,
            states: states_of(&element),
            secret: None,
            element,
            context: None,
        })
    }

    /// Puts the pointer-cursor elements of a whole-tree scan in document order among this tree's
    /// entries (`out[start..]`), where entries from nested shadow trees stand where their host stands.
    pub(super) fn insert_extras(
        &self,
        root: &JsValue,
        start: usize,
        found: Vec<(Element, Rect)>,
        out: &mut Vec<Entry>,
    ) {
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
    pub(super) fn pointer_walk(
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
            if WALK_SKIPS.contains(&tag.as_str()) {
                continue;
            }
            if self.numbered.has(&element) {
                // A menu or toolbar listed for its tabindex: its items may be found inside it.
                if holds_controls(&element) {
                    self.pointer_walk(bulk, &children(&element), false, depth + 1, found);
                }
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
    pub(super) fn covers_numbered(&self, element: &Element) -> bool {
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
pub(super) fn children(node: &JsValue) -> js_sys::Array {
    js_sys::Reflect::get(node, &"children".into())
        .ok()
        .filter(|c| !c.is_undefined() && !c.is_null())
        .map(|c| js_sys::Array::from(&c))
        .unwrap_or_default()
}

/// The element of `root`'s own tree that holds `element`: itself, or the shadow host (at some depth)
/// whose shadow tree holds it.
pub(super) fn lift(element: &Element, root: &JsValue) -> Option<Element> {
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
