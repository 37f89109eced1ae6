//! Whether a font draws every letter as the same dot: a "password font" that some pages give a field
//! or an editable region instead of `-webkit-text-security`, so what is typed there is a secret the
//! screen shows as dots. Two different words are drawn in the font on a canvas of this script's own
//! (never put into the page) and compared pixel by pixel; each font is asked once per frame.
//!
//! Must not: write into the page (the canvas is never attached, so no page script or observer sees
//! it), or guess: a font not loaded yet draws as its fallback and counts as ordinary.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};

/// Two words whose letters differ in every place, and are told apart by any ordinary font.
const WORDS: [&str; 2] = ["Wm8Q", "il1."];
/// The canvas's size in pixels, enough for the words at the size drawn.
const WIDTH: u32 = 96;
const HEIGHT: u32 = 32;
/// How many fonts are remembered; a page with more is asked again.
const MAX_FONTS: usize = 64;

thread_local! {
    /// The fonts asked about, with the answer: a short list (a page uses few fonts), searched in order,
    /// which costs the module less than a map.
    static KNOWN: RefCell<Vec<(String, bool)>> = const { RefCell::new(Vec::new()) };
}

/// Whether the font a computed `font` value names draws every letter alike.
pub fn is_dot_font(font: &str) -> bool {
    let font = font.trim();
    if font.is_empty() {
        return false;
    }
    if let Some(known) = KNOWN.with_borrow(|known| known.iter().find(|(f, _)| f == font).map(|(_, d)| *d)) {
        return known;
    }
    let dots = drawn_alike(font).unwrap_or(false);
    KNOWN.with_borrow_mut(|known| {
        if known.len() >= MAX_FONTS {
            known.clear();
        }
        known.push((font.to_owned(), dots));
    });
    dots
}

/// Draws both words in `font` at a fixed size and compares the pictures: the same ink, and some ink,
/// means every letter is drawn alike.
fn drawn_alike(font: &str) -> Option<bool> {
    let document = web_sys::window()?.document()?;
    let canvas = document.create_element("canvas").ok()?;
    let set =
        |target: &JsValue, key: &str, value: JsValue| js_sys::Reflect::set(target, &key.into(), &value).ok();
    set(&canvas, "width", WIDTH.into())?;
    set(&canvas, "height", HEIGHT.into())?;
    let context = call(&canvas, "getContext", &["2d".into()])?;
    // The page's size and weight do not matter, its family does: drawn at a size that fills the canvas.
    set(&context, "font", JsValue::from_str(&at_size(font)))?;
    set(&context, "textBaseline", "top".into())?;
    let ink = |word: &str| -> Option<Vec<u8>> {
        call(
            &context,
            "clearRect",
            &[0.into(), 0.into(), WIDTH.into(), HEIGHT.into()],
        )?;
        call(&context, "fillText", &[word.into(), 2.into(), 4.into()])?;
        let image = call(
            &context,
            "getImageData",
            &[0.into(), 0.into(), WIDTH.into(), HEIGHT.into()],
        )?;
        let data = js_sys::Reflect::get(&image, &"data".into()).ok()?;
        Some(js_sys::Uint8ClampedArray::new(&data).to_vec())
    };
    let first = ink(WORDS[0])?;
    let second = ink(WORDS[1])?;
    let inked = first
        .chunks(4)
        .any(|pixel| pixel.get(3).is_some_and(|alpha| *alpha > 0));
    Some(inked && first == second)
}

/// The computed `font` with its size (and line height) replaced by 20px, the family and style kept.
fn at_size(font: &str) -> String {
    let mut out = Vec::new();
    let mut sized = false;
    let mut parts = font.split_whitespace().peekable();
    while let Some(part) = parts.next() {
        let size = part.split('/').next().unwrap_or_default();
        if !sized && size.starts_with(|c: char| c.is_ascii_digit()) && size.ends_with("px") {
            sized = true;
            out.push("20px".to_owned());
            // A line height follows as "/ 24px", "/24px" or inside this part ("12px/1.5").
            if !part.contains('/')
                && parts.peek().is_some_and(|next| next.starts_with('/'))
                && parts.next() == Some("/")
            {
                parts.next();
            }
            continue;
        }
        out.push(part.to_owned());
    }
    if !sized {
        return format!("20px {font}");
    }
    out.join(" ")
}

/// Calls `target[method](...args)`.
fn call(target: &JsValue, method: &str, args: &[JsValue]) -> Option<JsValue> {
    let function = js_sys::Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let args: js_sys::Array = args.iter().collect();
    function.apply(target, &args).ok()
}

#[cfg(test)]
mod tests {
    use super::at_size;

    #[test]
    fn the_family_is_kept_at_a_size_that_fills_the_canvas() {
        assert_eq!(at_size("16px monospace"), "20px monospace");
        assert_eq!(
            at_size("italic 700 13.5px / 18px \"Dots\", serif"),
            "italic 700 20px \"Dots\", serif"
        );
        assert_eq!(at_size("400 12px/1.5 Arial"), "400 20px Arial");
        assert_eq!(at_size("Dots"), "20px Dots");
    }
}
