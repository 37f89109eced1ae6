//! Covers secret fields while a screenshot is taken. Passwords, one-time codes, PINs and card details
//! must never reach the model, and a picture of the screen would carry what a user typed into such a
//! field in plain sight (a password a "show password" button revealed, a code, a card number). Before
//! the worker captures the tab, every frame draws opaque boxes over its secret fields (in its own host
//! element with a closed shadow root, no attribute and no box, hidden from screen readers and from
//! clicks, like the badges: `overlay::host_with_layer`) and takes them away again a moment later.
//!
//! Text the page shows that holds a secret value the user typed (a page that echoes it) or a card
//! number is covered the same way, where it stands; one split across elements so that it cannot be
//! found piece by piece makes the frame refuse the picture.
//!
//! The boxes are placed at capture time, where the fields are once the page has stopped moving (a
//! smooth scroll just before the picture ends first), and follow their fields every frame while they
//! stand. Each frame also remembers whether anything moved after the boxes were placed: the worker
//! asks after the picture ([`held`]) and throws the picture away unless every frame says nothing did.
//! A page that never stops moving gets no boxes, and so no picture.
//!
//! Which fields are secret is not decided here: `detect::secret_of` asks the one predicate
//! (`waymark_protocol::secret`) that also keeps their values out of every list. Fields in open and
//! closed shadow roots are covered too. Must not change the page beyond that one short-lived host
//! element.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, Element};

/// The mask's layer over the viewport; its boxes are placed by their own inline style.
const STYLE: &str = ":host { all: initial; display: contents; } \
    .layer { position: fixed; inset: 0; pointer-events: none; z-index: 2147483647; contain: strict; }";

use waymark_protocol::secret::values::Redactor;

use crate::detect::Rect;

/// How long the boxes stay: longer than the worker's wait for a painted frame plus the capture and
/// its check, short enough that a sighted helper barely notices them.
const MASK_MS: f64 = 3_000.0;
/// How long the page may take to stop moving before the boxes are placed.
const SETTLE_MAX_MS: f64 = 2_000.0;
/// How many frames in a row nothing may move for the page to count as still.
const STILL_FRAMES: u32 = 3;
/// A frame is waited for at most this long (a frame the browser does not paint, such as one scrolled
/// out of sight, gets no animation frames).
const FRAME_MAX_MS: i32 = 50;
/// Movement below this many pixels is rounding, not movement.
const EPSILON: f64 = 0.5;

/// Elements that can hold a secret: fields, and contenteditable ones. (Everything else is still
/// walked for the shadow roots it may host.)
const FIELDS: &str = "input, select, textarea, [contenteditable], [role=textbox]";

/// Open shadow roots nested deeper than this are not entered.
const MAX_SHADOW_DEPTH: usize = 32;

/// What a box covers: a secret field, or text of the page that holds a secret.
#[derive(Clone, PartialEq)]
enum Secret {
    Field(Element),
    Text(web_sys::Range),
}

impl Secret {
    fn rect(&self) -> Rect {
        match self {
            Secret::Field(field) => Rect::of(field),
            Secret::Text(range) => Rect::of_dom(&range.get_bounding_client_rect()),
        }
    }

    /// Still in the document (a range collapses when its text goes).
    fn there(&self) -> bool {
        match self {
            Secret::Field(field) => field.is_connected(),
            Secret::Text(range) => !range.collapsed(),
        }
    }
}

/// The boxes standing now: the host element, each secret with its box and where it was when the box
/// was placed, and whether anything moved since.
struct Masks {
    /// Which placing this is: a follower stops when its boxes were replaced.
    generation: u32,
    host: Element,
    placed: Vec<(Secret, Element, Rect)>,
    /// How many secret texts the page showed when the boxes were placed.
    texts: usize,
    scroll: (f64, f64),
    moved: bool,
}

thread_local! {
    static MASKS: RefCell<Option<Masks>> = const { RefCell::new(None) };
    static GENERATION: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Waits for the page to stop moving, then draws boxes over this frame's secret fields, which follow
/// them and go away by themselves. How many fields it covered; `Err` when the page never stopped
/// moving (then nothing is drawn).
pub async fn cover_secrets() -> Result<usize, ()> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Ok(0);
    };
    remove();
    // Found once: a field that appears while the page settles is caught by `held` after the picture.
    let Some(secrets) = secrets(&document) else {
        return Err(());
    };
    if secrets.is_empty() {
        return Ok(0);
    }
    if !settled(&secrets).await {
        return Err(());
    }
    let generation = GENERATION.get().wrapping_add(1);
    GENERATION.set(generation);
    let Ok(masks) = draw(&document, secrets, generation) else {
        return Err(());
    };
    let covered = masks.placed.len();
    MASKS.with_borrow_mut(|m| *m = Some(masks));
    wasm_bindgen_futures::spawn_local(follow(generation));
    Ok(covered)
}

/// Whether the boxes drawn for the picture still cover every secret field where it is drawn, with
/// nothing moved since they were placed (also true when there was nothing to cover and still is).
pub fn held() -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return true;
    };
    let fields = secret_fields(&document);
    let Some(texts) = secret_texts(&document) else {
        return false;
    };
    MASKS.with_borrow(|masks| match masks {
        None => fields.is_empty() && texts.is_empty(),
        Some(masks) => {
            let all_placed = fields.into_iter().all(|f| {
                masks
                    .placed
                    .iter()
                    .any(|(placed, _, _)| *placed == Secret::Field(f.clone()))
            });
            let still = masks
                .placed
                .iter()
                .all(|(secret, _, at)| same(&secret.rect(), at) || !secret.there());
            !masks.moved
                && masks.host.is_connected()
                && all_placed
                && texts.len() <= masks.texts
                && still
                && scroll() == masks.scroll
        }
    })
}

/// Takes the boxes away.
fn remove() {
    if let Some(masks) = MASKS.with_borrow_mut(Option::take) {
        masks.host.remove();
    }
}

/// Waits (bounded) until nothing that matters moved for a few frames in a row: the window's scroll
/// and the boxes of the secret fields. Whether that happened.
async fn settled(fields: &[Secret]) -> bool {
    let start = now();
    let mut last = snapshot(fields);
    let mut still = 0;
    while now() - start < SETTLE_MAX_MS {
        next_frame().await;
        let current = snapshot(fields);
        if current.0 == last.0
            && current.1.len() == last.1.len()
            && current.1.iter().zip(&last.1).all(|(a, b)| same(a, b))
        {
            still += 1;
            if still >= STILL_FRAMES {
                return true;
            }
        } else {
            still = 0;
        }
        last = current;
    }
    false
}

/// Where things stand: the window's scroll and the boxes of the secret fields.
fn snapshot(secrets: &[Secret]) -> ((f64, f64), Vec<Rect>) {
    (scroll(), secrets.iter().map(Secret::rect).collect())
}

/// Moves each box to where its field is now, every frame while they stand; notes any movement. Takes
/// the boxes away after [`MASK_MS`], unless others replaced them.
async fn follow(generation: u32) {
    let start = now();
    loop {
        next_frame().await;
        let standing = MASKS.with_borrow_mut(|masks| {
            let masks = masks.as_mut().filter(|m| m.generation == generation)?;
            if now() - start >= MASK_MS {
                return Some(false);
            }
            if scroll() != masks.scroll {
                masks.moved = true;
            }
            for (secret, block, at) in &masks.placed {
                let rect = secret.rect();
                if !same(&rect, at) {
                    masks.moved = true;
                    place(block, &rect);
                }
            }
            Some(true)
        });
        match standing {
            Some(true) => {}
            // Time is up: these boxes go.
            Some(false) => return remove(),
            // Replaced by a newer placing, which has its own follower.
            None => return,
        }
    }
}

/// The window's scroll position.
fn scroll() -> (f64, f64) {
    web_sys::window().map_or((0.0, 0.0), |w| {
        (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0))
    })
}

fn same(a: &Rect, b: &Rect) -> bool {
    (a.left - b.left).abs() < EPSILON
        && (a.top - b.top).abs() < EPSILON
        && (a.width - b.width).abs() < EPSILON
        && (a.height - b.height).abs() < EPSILON
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// The next animation frame, or [`FRAME_MAX_MS`] if the browser paints none.
async fn next_frame() {
    let Some(window) = web_sys::window() else { return };
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window.request_animation_frame(&resolve);
    });
    let timeout = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, FRAME_MAX_MS);
    });
    let either: js_sys::Array = [frame, timeout].into_iter().map(JsValue::from).collect();
    let _ = JsFuture::from(js_sys::Promise::race(&either)).await;
}

/// Everything to cover: the secret fields, and the page's text that holds a secret; `None` when a
/// secret text cannot be found where it stands.
fn secrets(document: &Document) -> Option<Vec<Secret>> {
    let mut all: Vec<Secret> = secret_fields(document).into_iter().map(Secret::Field).collect();
    all.extend(secret_texts(document)?.into_iter().map(Secret::Text));
    Some(all)
}

/// The stretches of the document's text that hold a value the user typed into a secret field, or a
/// card number: a range each. Looked for in the whole text first (one read), and only if there is one
/// text node by text node; `None` when the whole text holds more than the nodes do (a secret split
/// across elements, which no box could be placed on).
fn secret_texts(document: &Document) -> Option<Vec<web_sys::Range>> {
    let Some(body) = document.body() else {
        return Some(Vec::new());
    };
    let redactor = Redactor::new(crate::secret_values::values());
    let whole = redactor.spans(&body.text_content().unwrap_or_default()).len();
    if whole == 0 {
        return Some(Vec::new());
    }
    // NodeFilter.SHOW_TEXT.
    let walker = document.create_tree_walker_with_what_to_show(&body, 4).ok()?;
    let mut ranges = Vec::new();
    while let Ok(Some(node)) = walker.next_node() {
        let text = node.text_content().unwrap_or_default();
        for (start, end) in redactor.spans(&text) {
            let utf16 = |byte: usize| text[..byte].encode_utf16().count() as u32;
            let range = document.create_range().ok()?;
            range.set_start(&node, utf16(start)).ok()?;
            range.set_end(&node, utf16(end)).ok()?;
            ranges.push(range);
        }
    }
    (ranges.len() >= whole).then_some(ranges)
}

/// The secret fields of the document with a box, on screen or not (a scroll may bring one in), in
/// open and closed shadow roots too.
fn secret_fields(document: &Document) -> Vec<Element> {
    let mut fields = Vec::new();
    collect(document, &mut fields, 0);
    fields
}

/// The secret fields with a box in `root` (a document or a shadow root), and in the shadow roots
/// inside it, at any depth.
fn collect(root: &web_sys::Node, out: &mut Vec<Element>, depth: usize) {
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
        // The box first: a field with no box is not in any picture, and the predicate need not run.
        let rect = Rect::of(&field);
        if rect.width > 0.0 && rect.height > 0.0 && crate::detect::secret_of(&field).is_some() {
            out.push(field);
        }
    }
    if depth >= MAX_SHADOW_DEPTH {
        return;
    }
    for element in elements(query("*")) {
        if let Some(shadow) = crate::chrome::shadow_root(&element) {
            collect(&shadow, out, depth + 1);
        }
    }
}

/// One host element over the viewport with a black box per field.
fn draw(document: &Document, secrets: Vec<Secret>, generation: u32) -> Result<Masks, JsValue> {
    // The overlay's random tag and shape: no fixed name a page could look for, and the page watcher
    // (`watch.rs`) passes over it as Waymark's own.
    let (host, layer) = crate::overlay::host_with_layer(document, STYLE)?;
    let mut placed = Vec::new();
    let texts = secrets.iter().filter(|s| matches!(s, Secret::Text(_))).count();
    for secret in secrets {
        let rect = secret.rect();
        let block = document.create_element("div")?;
        place(&block, &rect);
        layer.append_child(&block)?;
        placed.push((secret, block, rect));
    }
    if let Some(root) = document.document_element() {
        root.append_child(&host)?;
    }
    Ok(Masks {
        generation,
        host,
        placed,
        texts,
        scroll: scroll(),
        moved: false,
    })
}

/// Puts a box over a field's box, with a margin.
fn place(block: &Element, rect: &Rect) {
    let _ = block.set_attribute(
        "style",
        &format!(
            "position:fixed;left:{}px;top:{}px;width:{}px;height:{}px;background:#000;forced-color-adjust:none",
            rect.left - 2.0,
            rect.top - 2.0,
            rect.width + 4.0,
            rect.height + 4.0
        ),
    );
}
