//! The numbered overlay: one host element with a closed shadow root holding a badge per numbered
//! element. The host's tag is a random custom-element name chosen once per frame (`dom.rs`), so no
//! page can find Waymark by a fixed name. Black on yellow with a dark and a light ring, bold, 14 px: readable on any page and in
//! forced-colours mode. The host is `aria-hidden` and `inert` with `pointer-events: none`, so it never
//! reaches the accessibility tree, takes focus, or catches a click. Badges are drawn only for elements
//! on screen and follow scroll and resize (redrawn once per animation frame), and the page watcher
//! (`watch.rs`) redraws them when the page moves things. Drawing reads every box first, in a few native
//! calls, then writes the badges at once. A badge sits just outside what it marks, so it never hides the
//! first letters of a label or value from a low-vision reader, nor another badge's digits ([`place`]).

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement};

use crate::detect::{Bulk, Rect};
use crate::dom::{host_tag, viewport};

const STYLE: &str = "
:host { all: initial; }
.layer { position: fixed; inset: 0; overflow: hidden; pointer-events: none; z-index: 2147483647; }
.b { position: absolute; box-sizing: border-box; min-width: 20px; padding: 0 4px; font: 700 14px/18px
     system-ui, sans-serif; color: #000; background: #ffd700; border: 1px solid #000; border-radius: 3px;
     box-shadow: 0 0 0 1px #fff, 0 0 0 2px #000; white-space: nowrap; text-align: center;
     forced-color-adjust: none; }
@media (forced-colors: active) { .b { color: #000; background: #ffd700; border-color: #000; } }
";

/// The overlay of one frame.
pub struct Overlay {
    document: Document,
    layer: Element,
    /// Whether badges are drawn, so scroll and resize move them.
    drawn: Rc<Cell<bool>>,
    bulk: Option<Bulk>,
}

impl Overlay {
    /// Creates the overlay host and calls `on_move` (throttled to one call per frame) on scroll and resize.
    pub fn create(on_move: fn()) -> Result<Self, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let host: HtmlElement = document.create_element(&host_tag())?.dyn_into()?;
        host.set_attribute("aria-hidden", "true")?;
        host.set_attribute("inert", "")?;
        host.style().set_property("pointer-events", "none")?;
        let init = web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Closed);
        let shadow = host.attach_shadow(&init)?;
        let style = document.create_element("style")?;
        style.set_text_content(Some(STYLE));
        shadow.append_child(&style)?;
        let layer = document.create_element("div")?;
        layer.set_class_name("layer");
        shadow.append_child(&layer)?;
        document
            .document_element()
            .ok_or("no root element")?
            .append_child(&host)?;

        let scheduled = Rc::new(Cell::new(false));
        let drawn = Rc::new(Cell::new(false));
        let frame = Closure::<dyn FnMut()>::new({
            let scheduled = scheduled.clone();
            move || {
                scheduled.set(false);
                on_move();
            }
        });
        let on_event = Closure::<dyn FnMut()>::new({
            let drawn = drawn.clone();
            move || {
                if drawn.get() && !scheduled.replace(true) {
                    if let Some(w) = web_sys::window() {
                        let _ = w.request_animation_frame(frame.as_ref().unchecked_ref());
                    }
                }
            }
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
        // Both listeners live as long as the frame.
        on_event.forget();
        Ok(Self {
            document,
            layer,
            drawn,
            bulk: Bulk::new(),
        })
    }

    /// Draws each element's number near its top-left corner, for the elements whose box is on screen
    /// (the rest are drawn when a scroll or resize brings them in). All boxes are read first, in a
    /// few native calls, then the badges are written in one go, so drawing never forces a layout per
    /// badge. A badge that would cover another's digits moves to a free spot (see [`place`]).
    pub fn draw<'a>(&self, elements: impl Iterator<Item = (&'a Element, u32)>) {
        let (elements, numbers): (Vec<&Element>, Vec<u32>) = elements.unzip();
        let array: js_sys::Array = elements.iter().map(|e| JsValue::from(*e)).collect();
        let rects = match &self.bulk {
            Some(bulk) => bulk.rects(&array),
            None => elements.iter().map(|e| Rect::of(e)).collect(),
        };
        self.draw_at(rects.into_iter().zip(numbers));
    }

    /// Draws a badge for each box on screen: boxes a listing has just read, so a big page's boxes are
    /// not read twice in a row.
    pub fn draw_at(&self, boxes: impl Iterator<Item = (Rect, u32)>) {
        let (width, height) = viewport();
        let shown: Vec<(Rect, u32)> = boxes
            .filter(|(r, _)| !(r.bottom < 0.0 || r.right < 0.0 || r.top > height || r.left > width))
            .collect();
        let mut html = String::new();
        for (x, y, number) in place(&shown, (width, height)) {
            html.push_str(&format!(
                "<span class=\"b\" style=\"left:{x:.0}px;top:{y:.0}px\">{number}</span>"
            ));
        }
        self.layer.set_inner_html(&html);
        self.drawn.set(true);
        // Keep the host last in the document so nothing the page appends later covers it.
        if let Some(host) = self
            .layer
            .get_root_node()
            .dyn_ref::<web_sys::ShadowRoot>()
            .map(|s| s.host())
        {
            if host.next_element_sibling().is_some() {
                if let Some(root) = self.document.document_element() {
                    let _ = root.append_child(&host);
                }
            }
        }
    }

    pub fn clear(&self) {
        self.layer.set_inner_html("");
        self.drawn.set(false);
    }
}

/// A badge's box without its rings: 14 px bold digits (under 10 px each) on an 18 px line, 4 px of
/// padding and a 1 px border each side, at least 20 px wide (see [`STYLE`]).
fn badge_size(number: u32) -> (f64, f64) {
    let digits = number.to_string().len() as f64;
    ((digits * 10.0 + 10.0).max(20.0), 20.0)
}

/// The 2 px of rings drawn around a badge: a neighbour's digits must not be under them either.
const RING: f64 = 2.0;

/// Where each badge goes (its top-left, inside the viewport). A badge must not hide the first letters
/// of what it marks, nor another control's, nor another badge's digits: so first just outside its
/// element — to the left, then above, to the right, below — where it covers no numbered control; then
/// inside its element's right end (past the first letters); then nearby (along its row, then the rows
/// above and below). Only if none of those is free of other controls does a badge go over one (still
/// never over another badge), and if every spot is taken it stays at the element's left, outside.
/// Badges are placed in numbering order, so the lower number gets the first choice.
fn place(shown: &[(Rect, u32)], (width, height): (f64, f64)) -> Vec<(f64, f64, u32)> {
    let mut taken: Vec<(f64, f64, f64, f64)> = Vec::with_capacity(shown.len());
    let mut out = Vec::with_capacity(shown.len());
    // The numbered controls' boxes: a badge over one hides its words.
    let controls: Vec<(f64, f64, f64, f64)> = shown
        .iter()
        .map(|(r, _)| (r.left, r.top, r.right - r.left, r.bottom - r.top))
        .collect();
    for (r, number) in shown {
        let (w, h) = badge_size(*number);
        let clamp = |(x, y): (f64, f64)| {
            (
                x.clamp(0.0, (width - w - RING).max(0.0)),
                y.clamp(0.0, (height - h - RING).max(0.0)),
            )
        };
        let gap = RING * 2.0;
        let spots = [
            (r.left - w - gap, r.top),
            (r.left, r.top - h - gap),
            (r.right + gap, r.top),
            (r.left, r.bottom + gap),
            (r.right - w, r.top),
            (r.right - w, r.bottom - h),
        ];
        // Then a search nearby: half a badge further along each time, on this row first, then on the
        // rows above and below.
        let (sx, sy) = (w / 2.0 + gap, h + gap);
        let mut nearby: Vec<(i32, i32)> = (-2..=2).flat_map(|j| (-12..=12).map(move |i| (i, j))).collect();
        nearby.sort_by_key(|&(i, j)| (i.abs() + 4 * j.abs(), j, i));
        let along = nearby
            .into_iter()
            .map(|(i, j)| (r.left + f64::from(i) * sx, r.top + f64::from(j) * sy));
        let candidates: Vec<(f64, f64)> = spots.into_iter().chain(along).map(clamp).collect();
        // Boxes with their rings.
        let (bw, bh) = (w + 2.0 * RING, h + 2.0 * RING);
        let overlaps = |boxes: &[(f64, f64, f64, f64)], (x, y): (f64, f64)| {
            let (x, y) = (x - RING, y - RING);
            boxes
                .iter()
                .any(|&(tx, ty, tw, th)| x < tx + tw && tx < x + bw && y < ty + th && ty < y + bh)
        };
        // Inside its own element's right end is allowed; over the start of it, or over any other
        // control, is not.
        let own_start = (r.left, r.top, ((r.right - r.left) - w).max(0.0), r.bottom - r.top);
        let hides_words = |spot: (f64, f64)| {
            let inside_own_end = spot.0 >= r.right - w - 0.5 && spot.0 <= r.right;
            controls
                .iter()
                .filter(|c| **c != (r.left, r.top, r.right - r.left, r.bottom - r.top))
                .any(|c| overlaps(std::slice::from_ref(c), spot))
                || (!inside_own_end && overlaps(std::slice::from_ref(&own_start), spot))
        };
        let (x, y) = candidates
            .iter()
            .copied()
            .find(|&spot| !overlaps(&taken, spot) && !hides_words(spot))
            .or_else(|| candidates.iter().copied().find(|&spot| !overlaps(&taken, spot)))
            .unwrap_or_else(|| clamp(spots[0]));
        taken.push((x - RING, y - RING, bw, bh));
        out.push((x, y, *number));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(left: f64, top: f64, width: f64, height: f64) -> Rect {
        Rect {
            left,
            top,
            right: left + width,
            bottom: top + height,
            width,
            height,
        }
    }

    fn overlaps(placed: &[(f64, f64, u32)]) -> Vec<(u32, u32)> {
        let mut bad = Vec::new();
        for (i, &(x1, y1, n1)) in placed.iter().enumerate() {
            let (w1, h1) = badge_size(n1);
            for &(x2, y2, n2) in &placed[i + 1..] {
                let (w2, h2) = badge_size(n2);
                if x1 < x2 + w2 && x2 < x1 + w1 && y1 < y2 + h2 && y2 < y1 + h1 {
                    bad.push((n1, n2));
                }
            }
        }
        bad
    }

    #[test]
    fn a_badge_sits_just_left_of_its_element_not_over_its_first_letters() {
        let placed = place(&[(rect(100.0, 50.0, 80.0, 30.0), 7)], (1200.0, 800.0));
        assert_eq!(placed, vec![(100.0 - 20.0 - 4.0, 50.0, 7)]);
    }

    #[test]
    fn a_badge_never_covers_the_start_of_its_element_or_a_neighbour() {
        // A field at the left edge with a button just right of it, and a link above: the field's badge
        // cannot go left (off screen, so clamped over the field's start), nor onto the link or button.
        let shown = [
            (rect(0.0, 100.0, 200.0, 30.0), 1),
            (rect(204.0, 100.0, 60.0, 30.0), 2),
            (rect(0.0, 70.0, 100.0, 26.0), 3),
        ];
        let placed = place(&shown, (1200.0, 800.0));
        for &(x, y, n) in &placed {
            let (w, h) = badge_size(n);
            for (r, m) in &shown {
                let covers = x < r.right && r.left < x + w && y < r.bottom && r.top < y + h;
                let own_end = *m == n && x >= r.right - w - 0.5;
                assert!(!covers || own_end, "badge {n} at {x},{y} covers control {m}");
            }
        }
    }

    #[test]
    fn dense_controls_get_badges_that_do_not_cover_each_other() {
        // Ten links twelve pixels wide in a row, under a row of two wider controls.
        let mut shown: Vec<(Rect, u32)> = vec![
            (rect(16.0, 320.0, 60.0, 18.0), 11),
            (rect(90.0, 320.0, 60.0, 18.0), 12),
        ];
        shown.extend((0..10).map(|i| (rect(16.0 + 12.0 * i as f64, 346.0, 12.0, 16.0), 13 + i)));
        let placed = place(&shown, (1200.0, 800.0));
        assert_eq!(placed.len(), shown.len());
        assert_eq!(overlaps(&placed), vec![]);
    }

    #[test]
    fn badges_stay_inside_the_viewport() {
        let placed = place(&[(rect(1190.0, 795.0, 40.0, 40.0), 123)], (1200.0, 800.0));
        let (x, y, _) = placed[0];
        let (w, h) = badge_size(123);
        assert!(
            x >= 0.0 && x + w <= 1200.0 && y >= 0.0 && y + h <= 800.0,
            "{x},{y}"
        );
    }
}
