//! Covers secret fields while a screenshot is taken. Passwords, one-time codes, PINs and card details
//! must never reach the model, and a picture of the screen would carry what a user typed into such a
//! field in plain sight (a password a "show password" button revealed, a code, a card number). Before
//! the worker captures the tab, every frame draws opaque boxes over its secret fields (in its own host
//! element with a closed shadow root, no attribute and no box, hidden from screen readers and from
//! clicks, like the badges: `overlay::host_with_layer`) and takes them away again a moment later.
//!
//! Which fields are secret is not decided here: `detect::secret_of` asks the one predicate
//! (`waymark_protocol::secret`) that also keeps their values out of every list. Must not change the
//! page beyond that one short-lived host element.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// The mask's layer over the viewport; its boxes are placed by their own inline style.
const STYLE: &str = ":host { all: initial; display: contents; } \
    .layer { position: fixed; inset: 0; pointer-events: none; z-index: 2147483647; contain: strict; }";

/// How long the boxes stay: longer than the worker's wait for a painted frame plus the capture, short
/// enough that a sighted helper barely notices them.
const MASK_MS: u32 = 3_000;

/// Elements that can hold a secret: fields, and contenteditable ones. (Everything else is still
/// walked for the open shadow roots it may host.)
const FIELDS: &str = "input, select, textarea, [contenteditable], [role=textbox]";

/// Draws boxes over this frame's secret fields that are on screen; they go away by themselves.
/// Returns how many fields it covered.
pub fn cover_secrets() -> usize {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    let mut fields = Vec::new();
    collect(&document, crate::dom::viewport(), &mut fields, 0);
    if fields.is_empty() {
        return 0;
    }
    let Ok((host, covered)) = draw(&document, &fields) else {
        return 0;
    };
    gloo_timers::callback::Timeout::new(MASK_MS, move || host.remove()).forget();
    covered
}

/// Open shadow roots nested deeper than this are not entered.
const MAX_SHADOW_DEPTH: usize = 32;

/// The secret fields on screen in `root` (a document or a shadow root), and in the open shadow roots
/// inside it, at any depth.
fn collect(root: &web_sys::Node, viewport: (f64, f64), out: &mut Vec<Element>, depth: usize) {
    let query = |selector: &str| {
        js_sys::Reflect::get(root, &"querySelectorAll".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call1(root, &selector.into()).ok())
            .and_then(|list| list.dyn_into::<web_sys::NodeList>().ok())
    };
    let elements = |list: Option<web_sys::NodeList>| {
        list.into_iter()
            .flat_map(|l| (0..l.length()).filter_map(move |i| l.item(i)))
            .filter_map(|n| n.dyn_into::<Element>().ok())
    };
    for field in elements(query(FIELDS)) {
        // The box first: a field off screen is not in the picture, and the predicate need not run.
        let rect = crate::detect::Rect::of(&field);
        let shown = rect.width > 0.0 && rect.height > 0.0 && rect.intersects(viewport);
        if shown && crate::detect::secret_of(&field).is_some() {
            out.push(field);
        }
    }
    if depth >= MAX_SHADOW_DEPTH {
        return;
    }
    for element in elements(query("*")) {
        if let Some(shadow) = element.shadow_root() {
            collect(&shadow, viewport, out, depth + 1);
        }
    }
}

/// One host element over the viewport with a black box per field; also says how many boxes it drew.
fn draw(document: &Document, fields: &[Element]) -> Result<(Element, usize), wasm_bindgen::JsValue> {
    // The overlay's random tag and shape: no fixed name a page could look for, and the page watcher
    // (`watch.rs`) passes over it as Waymark's own.
    let (host, layer) = crate::overlay::host_with_layer(document, STYLE)?;
    let mut covered = 0;
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
        layer.append_child(&block)?;
        covered += 1;
    }
    if let Some(root) = document.document_element() {
        root.append_child(&host)?;
    }
    Ok((host, covered))
}
