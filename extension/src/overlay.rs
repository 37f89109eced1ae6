//! The numbered overlay: one host element with a closed shadow root holding a badge per numbered
//! element. Black on yellow with a dark and a light ring, bold, 14 px: readable on any page and in
//! forced-colours mode. The host is `aria-hidden` and `inert` with `pointer-events: none`, so it never
//! reaches the accessibility tree, takes focus, or catches a click. Badges follow scroll and resize.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement};

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
    /// The elements last drawn, so scroll and resize can move their badges.
    drawn: Rc<Cell<bool>>,
}

impl Overlay {
    /// Creates the overlay host and calls `on_move` (throttled to one call per frame) on scroll and resize.
    pub fn create(on_move: fn()) -> Result<Self, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let host: HtmlElement = document.create_element("waymark-overlay")?.dyn_into()?;
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
        })
    }

    /// Draws each element's number at its top-left corner (only for elements on screen).
    pub fn draw<'a>(&self, elements: impl Iterator<Item = (&'a Element, u32)>) {
        let (width, height) = viewport();
        let mut html = String::new();
        for (element, number) in elements {
            let rect = element.get_bounding_client_rect();
            if rect.bottom() < 0.0 || rect.right() < 0.0 || rect.top() > height || rect.left() > width {
                continue;
            }
            let x = rect.left().clamp(0.0, (width - 24.0).max(0.0));
            let y = rect.top().clamp(0.0, (height - 20.0).max(0.0));
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

/// The frame's viewport size in CSS pixels.
pub fn viewport() -> (f64, f64) {
    let window = web_sys::window();
    let dim = |f: fn(&web_sys::Window) -> Result<JsValue, JsValue>| {
        window
            .as_ref()
            .and_then(|w| f(w).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    (
        dim(web_sys::Window::inner_width),
        dim(web_sys::Window::inner_height),
    )
}
