//! The numbered overlay: while numbers are shown, one host element with a closed shadow root holding a
//! badge per numbered element on screen; while none is shown, no element at all. The host's tag is a
//! random custom-element name chosen once per frame (`dom.rs`), and it carries no attribute and no
//! box of its own (`display: contents`; the badges' layer inside is `aria-hidden`, `inert` and lets
//! clicks through), so no page finds Waymark by a fixed name or shape. Black on yellow with a dark and a
//! light ring, bold, 14 px: readable on any page and in forced-colours mode. Badges are drawn only for
//! elements on screen and follow scroll and resize (redrawn once per animation frame), and the page
//! watcher (`watch.rs`) redraws them when the page moves things. A redraw reads the boxes of the
//! numbered elements that can be on screen only (`seen.rs` keeps which, through the browser's
//! `IntersectionObserver`), in a few native calls, then writes the badges at once. A badge sits just
//! outside what it marks, so it never hides the first letters of a label or value from a low-vision
//! reader, nor another badge's digits (`place.rs`, which looks only at the boxes near each spot).

mod place;
mod seen;

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::detect::{Bulk, Rect};
use crate::dom::{host_tag, viewport};
use place::place;
use seen::Seen;

const STYLE: &str = "
:host { all: initial; display: contents; }
.layer { position: fixed; inset: 0; overflow: hidden; pointer-events: none; z-index: 2147483647; }
.b { position: absolute; box-sizing: border-box; min-width: 20px; padding: 0 4px; font: 700 14px/18px
     system-ui, sans-serif; color: #000; background: #ffd700; border: 1px solid #000; border-radius: 3px;
     box-shadow: 0 0 0 1px #fff, 0 0 0 2px #000; white-space: nowrap; text-align: center;
     forced-color-adjust: none; }
@media (forced-colors: active) { .b { color: #000; background: #ffd700; border-color: #000; } }
";

/// A host element of this frame (the overlay's, or the screenshot mask's): the random tag, no attribute,
/// no box of its own (`display: contents`, set inside its closed shadow root, where the page cannot
/// see it), and inside it `layer`: the one element that draws, hidden from assistive technology,
/// inert and letting clicks through. Returns the host, detached, and the layer.
pub fn host_with_layer(document: &Document, style: &str) -> Result<(Element, Element), JsValue> {
    let host = document.create_element(&host_tag())?;
    let init = web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Closed);
    let shadow = host.attach_shadow(&init)?;
    let sheet = document.create_element("style")?;
    sheet.set_text_content(Some(style));
    shadow.append_child(&sheet)?;
    let layer = document.create_element("div")?;
    layer.set_class_name("layer");
    layer.set_attribute("aria-hidden", "true")?;
    layer.set_attribute("inert", "")?;
    shadow.append_child(&layer)?;
    Ok((host, layer))
}

/// The overlay of one frame.
pub struct Overlay {
    document: Document,
    host: Element,
    layer: Element,
    /// Whether numbers are shown, so scroll and resize move them.
    shown: Rc<Cell<bool>>,
    /// Asks for one redraw with the next animation frame (while numbers are shown).
    schedule: Rc<dyn Fn()>,
    bulk: Option<Bulk>,
    /// Which numbered elements can be on screen (`None` where the browser has no observer).
    seen: Option<Seen>,
    /// The numbering `seen` watches (the content script's count of numberings).
    watching: Cell<Option<u64>>,
}

impl Overlay {
    /// Makes the overlay (its host stays out of the page until a badge is drawn) and calls `on_move`
    /// (throttled to one call per frame) on scroll and resize, and when numbered elements come near
    /// the screen.
    pub fn create(on_move: fn()) -> Result<Self, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let (host, layer) = host_with_layer(&document, STYLE)?;

        let scheduled = Rc::new(Cell::new(false));
        let shown = Rc::new(Cell::new(false));
        let frame = Closure::<dyn FnMut()>::new({
            let scheduled = scheduled.clone();
            move || {
                scheduled.set(false);
                on_move();
            }
        });
        let schedule: Rc<dyn Fn()> = Rc::new({
            let shown = shown.clone();
            move || {
                if shown.get() && !scheduled.replace(true) {
                    if let Some(w) = web_sys::window() {
                        let _ = w.request_animation_frame(frame.as_ref().unchecked_ref());
                    }
                }
            }
        });
        let on_event = Closure::<dyn FnMut()>::new({
            let schedule = schedule.clone();
            move || schedule()
        });
        let options = web_sys::AddEventListenerOptions::new();
        options.set_passive(true);
        options.set_capture(true);
        for event in ["scroll", "resize"] {
            window.add_event_listener_with_callback_and_add_event_listener_options(
                event,
                on_event.as_ref().unchecked_ref(),
                &options,
            )?;
        }
        // The listeners live as long as the frame.
        on_event.forget();
        Ok(Self {
            document,
            host,
            layer,
            shown,
            bulk: Bulk::new(),
            seen: Seen::new(schedule.clone()),
            schedule,
            watching: Cell::new(None),
        })
    }

    /// Redraws with the next animation frame, when the browser lays the page out anyway (reading boxes
    /// at once, after the page changed, would make it lay the page out once more).
    pub fn redraw_soon(&self) {
        (self.schedule)();
    }

    /// Draws the badges of numbering `generation` (`elements` in order, `numbers` their badges) where
    /// its elements stand now: only those that can be on screen have their boxes read, in a few native
    /// calls, then the badges are written in one go, so drawing never forces a layout per badge.
    pub fn draw(&self, generation: u64, elements: &js_sys::Array, numbers: &[u32]) {
        let bulk = self.bulk.as_ref();
        let rects = |subset: &js_sys::Array| match bulk {
            Some(bulk) => bulk.rects(subset),
            None => subset
                .iter()
                .map(|e| e.dyn_ref::<Element>().map(Rect::of).unwrap_or_default())
                .collect(),
        };
        let near = self
            .seen
            .as_ref()
            .filter(|_| self.watching.get() == Some(generation));
        let boxes: Vec<(Rect, u32)> = match near {
            Some(seen) => {
                let (subset, places) = seen.near();
                rects(&subset)
                    .into_iter()
                    .zip(places)
                    .filter_map(|(rect, i)| Some((rect, *numbers.get(i)?)))
                    .collect()
            }
            // A numbering not watched yet: every box once, then only those near the screen.
            None => {
                let all = rects(elements);
                self.watch(generation, elements, &all);
                all.into_iter().zip(numbers.iter().copied()).collect()
            }
        };
        self.render(&boxes);
    }

    /// Draws the badges of numbering `generation` at `boxes`, read by the listing that made it moments
    /// ago (a scroll or a change of the page since redraws them where the elements stand then).
    pub fn draw_at(&self, generation: u64, elements: &js_sys::Array, boxes: Vec<(Rect, u32)>) {
        let rects: Vec<Rect> = boxes.iter().map(|(r, _)| *r).collect();
        self.watch(generation, elements, &rects);
        self.render(&boxes);
    }

    /// Watches which of numbering `generation`'s elements can be on screen, starting from `rects`.
    fn watch(&self, generation: u64, elements: &js_sys::Array, rects: &[Rect]) {
        if self.watching.get() == Some(generation) {
            return;
        }
        if let Some(seen) = &self.seen {
            let (width, height) = viewport();
            // As the observer's margin counts: half a screen above and below, a quarter each side.
            let reach = |r: &Rect| {
                r.bottom > -height / 2.0
                    && r.top < height * 1.5
                    && r.right > -width / 4.0
                    && r.left < width * 1.25
            };
            let within: Vec<bool> = rects.iter().map(reach).collect();
            seen.track(elements, &within);
        }
        self.watching.set(Some(generation));
    }

    /// Writes a badge for each box on screen; with none, takes the host out of the page.
    fn render(&self, boxes: &[(Rect, u32)]) {
        let (width, height) = viewport();
        let on_screen: Vec<(Rect, u32)> = boxes
            .iter()
            .filter(|(r, _)| !(r.bottom < 0.0 || r.right < 0.0 || r.top > height || r.left > width))
            .copied()
            .collect();
        self.shown.set(true);
        if on_screen.is_empty() {
            self.layer.set_inner_html("");
            self.host.remove();
            return;
        }
        let mut html = String::new();
        for (x, y, number) in place(&on_screen, (width, height)) {
            html.push_str(&format!(
                "<span class=\"b\" style=\"left:{x:.0}px;top:{y:.0}px\">{number}</span>"
            ));
        }
        self.layer.set_inner_html(&html);
        // In the page, and last in the document so nothing the page appends later covers it.
        if !self.host.is_connected() || self.host.next_element_sibling().is_some() {
            if let Some(root) = self.document.document_element() {
                let _ = root.append_child(&self.host);
            }
        }
    }

    /// Hides the numbers: the host leaves the page and nothing is watched.
    pub fn clear(&self) {
        self.layer.set_inner_html("");
        self.host.remove();
        self.shown.set(false);
        if let Some(seen) = &self.seen {
            seen.clear();
        }
        self.watching.set(None);
    }
}
