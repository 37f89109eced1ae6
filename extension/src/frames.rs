//! Finding where each child frame of a tab stands, without the page noticing.
//!
//! A content script cannot learn a frame's browser id, and the worker, which knows the ids
//! (`chrome.webNavigation.getAllFrames`: each frame's id and its parent's), cannot see where a frame's
//! element stands in its parent's document. So each side says what it can, and the worker matches:
//!
//! - the parent's scan describes each visible `<iframe>`/`<frame>` where it stands ([`seen`]): the
//!   address its element asks for, its `name`, its content box and its position among the window's
//!   child windows (`window[i]`, found by comparing the element's `contentWindow` by identity);
//! - each child, asked by the worker ([`place`]), gives its address, its window name, its viewport and
//!   its position among its parent's child windows (`parent[i] === window`);
//! - [`assign`] pairs them: by window position while the parent still has as many child windows as
//!   during its scan (exact: both sides compared the same window objects), then by address, size and
//!   name, then in order. A mix-up between identical frames can only change the order of their blocks
//!   in the numbering, never which frame a number acts in: each number is kept with the id of the
//!   frame whose scan listed it.
//!
//! What this module must not do: post messages to any window, dispatch events, or add anything to a
//! page. Everything it reads (sizes, names, window identities) a page cannot see being read. Page
//! scripts in a child frame received Waymark's probes when frames were found by `postMessage`; that
//! is exactly what this replaces.

#[cfg(feature = "content")]
use wasm_bindgen::JsValue;
use waymark_protocol::{FramePlace, FrameSeen};

/// More child windows than this are not searched for a frame's position (a guard against
/// pathological pages; such frames are still matched by address and size).
const MAX_WINDOWS: u32 = 1_000;

/// Sizes within this many CSS pixels are the same: the parent measures a content box that may be
/// fractional, the child reports whole pixels.
const SIZE_SLACK: f64 = 1.5;

// ---------------------------------------------------------------------------------------------------
// In a frame (content script; only the content module has it)

/// What the parent can see of the child frame `element` (an `iframe` or `frame` of this document).
#[cfg(feature = "content")]
pub fn seen(element: &web_sys::Element) -> FrameSeen {
    let get = |key: &str| js_sys::Reflect::get(element, &key.into()).ok();
    let src = if element.local_name() == "iframe" && element.has_attribute("srcdoc") {
        "about:srcdoc".to_owned()
    } else {
        // The `src` property is the attribute resolved against the document's base.
        match get("src").and_then(|s| s.as_string()) {
            Some(src) if !src.is_empty() => src,
            _ => "about:blank".to_owned(),
        }
    };
    let (width, height) = content_box(element);
    let index = get("contentWindow")
        .filter(|w| w.is_object())
        .and_then(|child| web_sys::window().and_then(|w| position(&JsValue::from(w), &child)));
    FrameSeen {
        src,
        name: element.get_attribute("name").unwrap_or_default(),
        width,
        height,
        index,
    }
}

/// How many child windows this frame's window has.
#[cfg(feature = "content")]
pub fn windows() -> u32 {
    web_sys::window().map(|w| w.length()).unwrap_or(0)
}

/// Where this frame stands, as it knows it.
#[cfg(feature = "content")]
pub fn place() -> FramePlace {
    let window = web_sys::window();
    let (width, height) = crate::dom::viewport();
    let url = window
        .as_ref()
        .and_then(|w| w.document())
        .and_then(|d| d.url().ok())
        .unwrap_or_default();
    let name = window.as_ref().and_then(|w| w.name().ok()).unwrap_or_default();
    let (index, siblings) = match &window {
        Some(window) => {
            let this: JsValue = window.clone().into();
            // The parent may be cross-origin: its `length` and indexed windows are among the few
            // things such a window lets others read, and reading them runs nothing of the page's.
            let parent = js_sys::Reflect::get(&this, &"parent".into())
                .ok()
                .filter(|p| p.is_object() && !js_sys::Object::is(p, &this));
            match parent {
                Some(parent) => (position(&parent, &this), child_count(&parent)),
                None => (None, 0),
            }
        }
        None => (None, 0),
    };
    FramePlace {
        url,
        name,
        width,
        height,
        index,
        siblings,
    }
}

/// The number of child windows of `window` (its `length`).
#[cfg(feature = "content")]
fn child_count(window: &JsValue) -> u32 {
    js_sys::Reflect::get(window, &"length".into())
        .ok()
        .and_then(|l| l.as_f64())
        .map_or(0, |l| l as u32)
}

/// The position of `child` among `window`'s child windows, compared by identity.
#[cfg(feature = "content")]
fn position(window: &JsValue, child: &JsValue) -> Option<u32> {
    (0..child_count(window).min(MAX_WINDOWS))
        .find(|&i| js_sys::Reflect::get_u32(window, i).is_ok_and(|w| js_sys::Object::is(&w, child)))
}

/// The element's content box in CSS pixels (its padding box less the padding), which is the child's
/// viewport; transforms do not change it.
#[cfg(feature = "content")]
fn content_box(element: &web_sys::Element) -> (f64, f64) {
    let padding = web_sys::window()
        .and_then(|w| w.get_computed_style(element).ok().flatten())
        .map(|style| {
            let px = |name: &str| {
                style
                    .get_property_value(name)
                    .ok()
                    .and_then(|v| v.trim_end_matches("px").trim().parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            (
                px("padding-left") + px("padding-right"),
                px("padding-top") + px("padding-bottom"),
            )
        })
        .unwrap_or((0.0, 0.0));
    (
        (f64::from(element.client_width()) - padding.0).max(0.0),
        (f64::from(element.client_height()) - padding.1).max(0.0),
    )
}

// ---------------------------------------------------------------------------------------------------
// In the worker: the matching (pure, so it is tested natively)

/// For each of a parent's frame entries (`seen`, in document order; `windows` from the same scan),
/// the id of the child frame it is, if any; `children` are the parent's child frames in the order the
/// browser made them, each with where it says it stands. Each child is used once at most.
///
/// In tiers: the window position (exact, while the parent still has `windows` child windows); then
/// address, size and name together; address and size; address alone (the page resized the frame);
/// size alone (the frame navigated). Within a tier, entries take children in document order and
/// creation order, so identical frames are paired in order. A child that is not rendered (0 × 0) is
/// matched only by its window position: the parent lists only frames it sees.
pub fn assign(seen: &[FrameSeen], windows: u32, children: &[(i32, FramePlace)]) -> Vec<Option<i32>> {
    let mut out: Vec<Option<i32>> = vec![None; seen.len()];
    let mut taken = vec![false; children.len()];
    for (entry, slot) in seen.iter().zip(out.iter_mut()) {
        let Some(index) = entry.index else { continue };
        let hit = children
            .iter()
            .enumerate()
            .find(|(c, (_, place))| !taken[*c] && place.siblings == windows && place.index == Some(index));
        if let Some((c, (frame, _))) = hit {
            taken[c] = true;
            *slot = Some(*frame);
        }
    }
    let tiers: [fn(&FrameSeen, &FramePlace) -> bool; 4] = [
        |s, p| same_address(s, p) && same_size(s, p) && s.name == p.name,
        |s, p| same_address(s, p) && same_size(s, p),
        same_address,
        same_size,
    ];
    for fits in tiers {
        for (entry, slot) in seen.iter().zip(out.iter_mut()) {
            if slot.is_some() {
                continue;
            }
            let hit = children
                .iter()
                .enumerate()
                .find(|(c, (_, place))| !taken[*c] && rendered(place) && fits(entry, place));
            if let Some((c, (frame, _))) = hit {
                taken[c] = true;
                *slot = Some(*frame);
            }
        }
    }
    out
}

fn rendered(place: &FramePlace) -> bool {
    place.width > 0.0 && place.height > 0.0
}

/// The same address, fragment aside (a frame may move to an anchor of its own page).
fn same_address(seen: &FrameSeen, place: &FramePlace) -> bool {
    let bare = |url: &str| url.split('#').next().unwrap_or_default().to_owned();
    bare(&seen.src) == bare(&place.url)
}

fn same_size(seen: &FrameSeen, place: &FramePlace) -> bool {
    (seen.width - place.width).abs() <= SIZE_SLACK && (seen.height - place.height).abs() <= SIZE_SLACK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(src: &str, size: (f64, f64), index: Option<u32>) -> FrameSeen {
        FrameSeen {
            src: src.into(),
            name: String::new(),
            width: size.0,
            height: size.1,
            index,
        }
    }

    fn place(url: &str, size: (f64, f64), index: Option<u32>, siblings: u32) -> FramePlace {
        FramePlace {
            url: url.into(),
            name: String::new(),
            width: size.0,
            height: size.1,
            index,
            siblings,
        }
    }

    const A: &str = "https://a.example/";
    const B: &str = "https://b.example/";
    const BOX: (f64, f64) = (320.0, 90.0);

    #[test]
    fn window_positions_decide_whatever_the_addresses_say() {
        // Frame 7 was made first but stands second; frame 9 navigated away from what its element says.
        let entries = [seen(A, BOX, Some(1)), seen(B, BOX, Some(0))];
        let children = [
            (7, place(B, BOX, Some(0), 2)),
            (9, place("https://c.example/", BOX, Some(1), 2)),
        ];
        assert_eq!(assign(&entries, 2, &children), vec![Some(9), Some(7)]);
    }

    #[test]
    fn a_parent_whose_windows_changed_since_its_scan_falls_back_to_address_and_size() {
        // The page added a window between the scan (2) and the answers (3): positions may have shifted.
        let entries = [seen(A, BOX, Some(0)), seen(B, BOX, Some(1))];
        let children = [(4, place(B, BOX, Some(0), 3)), (5, place(A, BOX, Some(2), 3))];
        assert_eq!(assign(&entries, 2, &children), vec![Some(5), Some(4)]);
    }

    #[test]
    fn frames_in_shadow_roots_are_matched_by_address_then_size() {
        let entries = [
            seen(A, (300.0, 150.0), None),
            seen("about:srcdoc", (200.0, 40.0), None),
        ];
        let children = [
            (3, place("about:srcdoc", (200.0, 40.0), None, 0)),
            (2, place(A, (300.0, 150.0), None, 0)),
        ];
        assert_eq!(assign(&entries, 0, &children), vec![Some(2), Some(3)]);
    }

    #[test]
    fn identical_frames_pair_in_order_and_each_child_is_used_once() {
        let entries = [seen(A, BOX, None), seen(A, BOX, None), seen(A, BOX, None)];
        let children = [(11, place(A, BOX, None, 0)), (12, place(A, BOX, None, 0))];
        assert_eq!(assign(&entries, 0, &children), vec![Some(11), Some(12), None]);
    }

    #[test]
    fn a_hidden_child_with_the_same_address_is_never_taken_for_a_visible_frame() {
        // The parent lists only the visible frame; the hidden one (0 × 0) was made first.
        let entries = [seen(A, BOX, None)];
        let children = [(5, place(A, (0.0, 0.0), None, 0)), (6, place(A, BOX, None, 0))];
        assert_eq!(assign(&entries, 0, &children), vec![Some(6)]);
    }

    #[test]
    fn address_beats_size_and_size_catches_a_navigated_frame() {
        // Entry 1's frame navigated (its address is no longer its element's); entry 2 matches by address.
        let entries = [seen(A, BOX, None), seen(B, (100.0, 100.0), None)];
        let children = [
            (20, place("https://elsewhere.example/", BOX, None, 0)),
            (21, place(B, (100.4, 99.0), None, 0)),
        ];
        assert_eq!(assign(&entries, 0, &children), vec![Some(20), Some(21)]);
        // Same address and size: the name decides.
        let mut first = seen(A, BOX, None);
        first.name = "second".into();
        let mut named = place(A, BOX, None, 0);
        named.name = "second".into();
        let children = [(30, place(A, BOX, None, 0)), (31, named)];
        assert_eq!(assign(&[first], 0, &children), vec![Some(31)]);
    }

    #[test]
    fn a_fragment_does_not_change_the_address() {
        assert!(same_address(
            &seen("https://a.example/p#top", BOX, None),
            &place("https://a.example/p", BOX, None, 0)
        ));
        assert!(!same_address(
            &seen("https://a.example/p", BOX, None),
            &place("https://a.example/q", BOX, None, 0)
        ));
    }
}
