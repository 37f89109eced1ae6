//! The numbered overlay: while numbers are shown, one host element with a closed shadow root holding a
//! badge per numbered element on screen; while none is shown, no element at all. The host's tag is a
//! random custom-element name chosen once per frame (`dom.rs`), and it carries no attribute and no
//! box of its own (`display: contents`; the badges' layer inside is `aria-hidden`, `inert` and lets
//! clicks through), so no page finds Waymark by a fixed name or shape. Black on yellow with a dark and a
//! light ring, bold, 14 px: readable on any page and in forced-colours mode. Badges are drawn only for
//! elements on screen and follow scroll and resize (redrawn once per animation frame), and the page
//! watcher (`watch.rs`) redraws them when the page moves things. A redraw reads the boxes of the
//! numbered elements that can be on screen only: those within reach of the viewport when every box
//! was last read ([`Near`]; every box is read again at most once a second, for a new numbering, or
//! after the window scrolled half a screen), in a few native calls, then writes the badges at once. A badge sits just
//! outside what it marks, so it never hides the first letters of a label or value from a low-vision
//! reader, nor another badge's digits (`place.rs`, which looks only at the boxes near each spot).

mod place;

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::detect::{Bulk, Rect};
use crate::dom::{host_tag, viewport};
use place::place;

const STYLE: &str = "
:host { all: initial; display: contents; }
.layer { position: fixed; inset: 0; overflow: hidden; pointer-events: none; z-index: 2147483647;
         contain: strict; }
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
    /// Which numbered elements can be on screen, as of the last reading of every box.
    near: std::cell::RefCell<Option<Near>>,
    /// When the badges were last drawn, and whether a redraw after a change of the page is waiting.
    drawn_at: Rc<Cell<f64>>,
    waiting: Rc<Cell<bool>>,
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
            schedule,
            near: std::cell::RefCell::new(None),
            drawn_at: Rc::new(Cell::new(f64::NEG_INFINITY)),
            waiting: Rc::new(Cell::new(false)),
        })
    }

    /// Redraws after the page changed: with the next animation frame, when the browser lays the page
    /// out anyway (reading boxes at once would make it lay the page out once more), and at most every
    /// [`CHANGE_REDRAW_MS`], so a page that never stops changing is not laid out again for its badges
    /// with every check. (A scroll or resize redraws with the next frame, always.)
    pub fn redraw_soon(&self) {
        if self.waiting.replace(true) {
            return;
        }
        let since = crate::chrome::now_ms() - self.drawn_at.get();
        let wait = (CHANGE_REDRAW_MS - since).max(0.0) as u32;
        let (schedule, waiting) = (self.schedule.clone(), self.waiting.clone());
        gloo_timers::callback::Timeout::new(wait, move || {
            waiting.set(false);
            schedule();
        })
        .forget();
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
        let fresh = self
            .near
            .borrow()
            .as_ref()
            .filter(|near| near.holds(generation))
            .map(|near| (near.elements.clone(), near.places.clone()));
        let boxes: Vec<(Rect, u32)> = match fresh {
            Some((subset, places)) => rects(&subset)
                .into_iter()
                .zip(places)
                .filter_map(|(rect, i)| Some((rect, *numbers.get(i)?)))
                .collect(),
            None => {
                let all = rects(elements);
                self.note_near(generation, elements, &all);
                all.into_iter().zip(numbers.iter().copied()).collect()
            }
        };
        self.render(&boxes);
    }

    /// Draws the badges of numbering `generation` at `boxes`, read by the listing that made it moments
    /// ago (a scroll or a change of the page since redraws them where the elements stand then).
    pub fn draw_at(&self, generation: u64, elements: &js_sys::Array, boxes: Vec<(Rect, u32)>) {
        let rects: Vec<Rect> = boxes.iter().map(|(r, _)| *r).collect();
        self.note_near(generation, elements, &rects);
        self.render(&boxes);
    }

    /// Keeps which of numbering `generation`'s elements are within reach of the viewport, from every
    /// box of it just read.
    fn note_near(&self, generation: u64, elements: &js_sys::Array, rects: &[Rect]) {
        let (width, height) = viewport();
        let places: Vec<usize> = rects
            .iter()
            .enumerate()
            .filter(|(_, r)| r.intersects_reach((width, height)))
            .map(|(i, _)| i)
            .collect();
        let subset: js_sys::Array = places.iter().map(|&i| elements.get(i as u32)).collect();
        *self.near.borrow_mut() = Some(Near {
            generation,
            elements: subset,
            places,
            read_at: crate::chrome::now_ms(),
            scroll: scroll(),
        });
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
        self.drawn_at.set(crate::chrome::now_ms());
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
        *self.near.borrow_mut() = None;
    }
}

/// How often at most the badges follow a page that keeps changing (see [`Overlay::redraw_soon`]).
const CHANGE_REDRAW_MS: f64 = 400.0;

/// How long the boxes near the screen stand for all: a page can move an element into view without
/// scrolling, and its badge then comes within this time.
const NEAR_MS: f64 = 1_000.0;

/// The numbered elements within reach of the viewport (the viewport and half a screen around it) when
/// every box of a numbering was last read: until the window scrolls half a screen or [`NEAR_MS`] pass,
/// only these can be on screen, so a redraw reads only their boxes.
struct Near {
    generation: u64,
    elements: js_sys::Array,
    /// Each one's place in the numbering.
    places: Vec<usize>,
    read_at: f64,
    scroll: (f64, f64),
}

impl Near {
    /// Whether these still stand for numbering `generation`.
    fn holds(&self, generation: u64) -> bool {
        let (width, height) = viewport();
        let (x, y) = scroll();
        self.generation == generation
            && crate::chrome::now_ms() - self.read_at < NEAR_MS
            && (x - self.scroll.0).abs() < width / 2.0
            && (y - self.scroll.1).abs() < height / 2.0
    }
}

/// How far the window has scrolled, in CSS pixels.
fn scroll() -> (f64, f64) {
    web_sys::window().map_or((0.0, 0.0), |w| {
        (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0))
    })
}
