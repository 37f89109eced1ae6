//! (content script) The small DOM helpers every part of the content script uses: queries and walks
//! that cross open shadow roots, the viewport's size, the options a custom list owns, and the random
//! tag of Waymark's own host elements in this frame.
//!
//! A leaf: it imports no other module of the extension, so the feature modules (`detect`, `effect`,
//! `act`, `overlay`, `watch`, …) can all use it without using each other in a circle (`tools/tidy`
//! fails when they do). Must not decide anything about the page (what a control is, what an action
//! does) or change it: it only reads.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// First and second words of the hosts' tag names: plain words a site might use for its own
/// components, never the product's name. 80 × 80 names, so two loads of a page rarely share one.
const TAG_FIRST: &[&str] = &[
    "amber", "ashen", "azure", "bold", "brisk", "calm", "cedar", "civic", "clear", "coral", "crisp",
    "dapper", "dusky", "eager", "early", "even", "fair", "fleet", "fond", "frosty", "gentle", "gilded",
    "glad", "golden", "grand", "hazel", "humble", "idle", "ivory", "jade", "jolly", "keen", "kind", "lively",
    "lofty", "lucid", "lunar", "mellow", "merry", "misty", "modest", "noble", "nimble", "oaken", "olive",
    "opal", "pale", "plain", "polar", "proud", "quick", "quiet", "rapid", "rosy", "royal", "rustic", "sable",
    "sandy", "scarlet", "serene", "silent", "silver", "sleek", "snowy", "solar", "spry", "stark", "steady",
    "still", "sunny", "swift", "tawny", "tidy", "topaz", "urban", "velvet", "vivid", "warm", "wild", "witty",
];
const TAG_SECOND: &[&str] = &[
    "acorn", "alder", "anchor", "aspen", "badger", "basin", "beacon", "birch", "bison", "bloom", "brook",
    "canyon", "cliff", "cloud", "comet", "cove", "crane", "creek", "dawn", "delta", "dune", "eagle", "ember",
    "falcon", "fern", "field", "finch", "fjord", "flint", "forest", "fox", "glade", "grove", "harbor",
    "hawk", "heron", "hill", "island", "ivy", "lagoon", "lake", "lark", "leaf", "maple", "marsh", "meadow",
    "mesa", "moss", "orchid", "otter", "owl", "pebble", "pine", "pond", "prairie", "quail", "rain", "raven",
    "reed", "ridge", "river", "robin", "sage", "shore", "sparrow", "spruce", "stone", "stream", "summit",
    "swan", "thicket", "thrush", "tide", "trail", "valley", "willow", "wren", "yarrow", "zephyr", "lotus",
];

thread_local! {
    /// The tag of this frame's host elements (the overlay and the screenshot mask): picked at random
    /// the first time one is made, then kept for the frame's life. A fixed tag would let any page
    /// tell that Waymark is installed, which for its users discloses a disability.
    static HOST_TAG: String = host_tag_from(js_sys::Math::random(), js_sys::Math::random());
}

/// A custom-element name from two random numbers in `[0, 1)`: `"<first>-<second>"`.
fn host_tag_from(a: f64, b: f64) -> String {
    let pick =
        |words: &[&'static str], r: f64| words[((r * words.len() as f64) as usize).min(words.len() - 1)];
    format!("{}-{}", pick(TAG_FIRST, a), pick(TAG_SECOND, b))
}

/// The tag of this frame's host elements (see [`HOST_TAG`]).
pub fn host_tag() -> String {
    HOST_TAG.with(Clone::clone)
}

/// Whether `tag` (an element's local name) is this frame's host tag: one of Waymark's own elements,
/// which hold nothing of the page.
pub fn is_host_tag(tag: &str) -> bool {
    HOST_TAG.with(|t| t == tag)
}

/// What `Element.checkVisibility` says of `element` (style hiding counted: `visibility`, and
/// `opacity: 0` when `opacity` is set); `None` in a browser without it, where the caller decides.
pub fn check_visibility(element: &Element, opacity: bool) -> Option<bool> {
    let check = js_sys::Reflect::get(element, &"checkVisibility".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
    if opacity {
        let _ = js_sys::Reflect::set(&options, &"opacityProperty".into(), &JsValue::TRUE);
    }
    // A call that throws says nothing against the element: it counts as shown.
    Some(
        check
            .call1(element, &options)
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
    )
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

/// `root.querySelectorAll(selector)` for a document, element or shadow root, as elements.
pub fn query(root: &JsValue, selector: &str) -> Vec<Element> {
    let Some(list) = js_sys::Reflect::get(root, &"querySelectorAll".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(root, &selector.into()).ok())
        .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
    else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// `root.querySelectorAll(selector)` as a JavaScript array, for a scan that reads thousands of
/// elements without a Rust value each (`selector` made once, as a `JsValue`).
pub fn query_array(root: &JsValue, selector: &JsValue) -> js_sys::Array {
    js_sys::Reflect::get(root, &"querySelectorAll".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(root, selector).ok())
        .map(|list| js_sys::Array::from(&list))
        .unwrap_or_default()
}

/// Calls `target.method(arg)` (a document or a shadow root's `getElementById`, which web-sys offers
/// on one of them only), for the element it returns.
pub fn call_element(target: &JsValue, method: &str, arg: &JsValue) -> Option<Element> {
    let f = js_sys::Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call1(target, arg).ok()?.dyn_into::<Element>().ok()
}

/// Whether `node` is `ancestor` or inside it, counting shadow trees as inside their hosts.
pub fn composed_contains(ancestor: &Element, node: &Element) -> bool {
    let mut current: Option<web_sys::Node> = Some(node.clone().into());
    let target: &web_sys::Node = ancestor.as_ref();
    while let Some(n) = current {
        if &n == target {
            return true;
        }
        current = match n.dyn_ref::<web_sys::ShadowRoot>() {
            Some(shadow) => Some(shadow.host().into()),
            None => n.parent_node(),
        };
    }
    false
}

/// The parent element across shadow boundaries: a shadow root's top element has its host.
pub fn composed_parent(element: &Element) -> Option<Element> {
    let parent = element.parent_node()?;
    match parent.dyn_ref::<web_sys::ShadowRoot>() {
        Some(shadow) => Some(shadow.host()),
        None => parent.dyn_into::<Element>().ok(),
    }
}

/// The closest element matching `selector` from `element` up, across shadow roots.
pub fn closest_composed(element: &Element, selector: &str) -> Option<Element> {
    let mut current = Some(element.clone());
    while let Some(e) = current {
        if let Ok(Some(found)) = e.closest(selector) {
            return Some(found);
        }
        current = e
            .get_root_node()
            .dyn_into::<web_sys::ShadowRoot>()
            .ok()
            .map(|s| s.host());
    }
    None
}

/// What an option of a custom list is called: its `aria-label`, else its text.
pub fn option_label(option: &Element) -> String {
    option
        .get_attribute("aria-label")
        .unwrap_or_else(|| option.text_content().unwrap_or_default())
        .trim()
        .to_string()
}

/// The elements that are options of a list, native or custom.
pub const OPTIONS: &str = "[role=option], [role=menuitem], [role=menuitemradio], option";

/// The options a custom list control owns through `aria-controls` / `aria-owns` (its own or those of a
/// part of it, such as the text box inside a combobox), shown or not, with their labels.
pub fn owned_options(control: &Element) -> Vec<(Element, String)> {
    let Some(document) = control.owner_document() else {
        return Vec::new();
    };
    let mut holders = vec![control.clone()];
    holders.extend(query(&control.clone().into(), "[aria-controls], [aria-owns]"));
    let lists: Vec<Element> = holders
        .iter()
        .flat_map(|h| ["aria-controls", "aria-owns"].map(|a| h.get_attribute(a)))
        .flatten()
        .flat_map(|ids| ids.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter_map(|id| document.get_element_by_id(&id))
        .collect();
    let mut found: Vec<(Element, String)> = Vec::new();
    for list in lists {
        let mut options = query(&list.clone().into(), OPTIONS);
        if list.matches(OPTIONS).unwrap_or(false) {
            options.insert(0, list.clone());
        }
        for option in options {
            if !found.iter().any(|(o, _)| o == &option) {
                let label = option_label(&option);
                found.push((option, label));
            }
        }
    }
    found
}

/// Has `observer` hear every change under `root` (nodes, attributes, text): what the wait for a
/// settled page and the look at what an action changed need. Whether it listens.
pub fn observe_everything(observer: &web_sys::MutationObserver, root: &Element) -> bool {
    let options = web_sys::MutationObserverInit::new();
    options.set_child_list(true);
    options.set_subtree(true);
    options.set_attributes(true);
    options.set_character_data(true);
    observer.observe_with_options(root, &options).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_tags_are_valid_custom_element_names_that_never_name_the_product() {
        // Custom-element names the HTML standard reserves.
        let reserved = [
            "annotation-xml",
            "color-profile",
            "font-face",
            "font-face-src",
            "font-face-uri",
            "font-face-format",
            "font-face-name",
            "missing-glyph",
        ];
        let mut all = std::collections::BTreeSet::new();
        for (i, _) in TAG_FIRST.iter().enumerate() {
            for (j, _) in TAG_SECOND.iter().enumerate() {
                let a = (i as f64 + 0.5) / TAG_FIRST.len() as f64;
                let b = (j as f64 + 0.5) / TAG_SECOND.len() as f64;
                let tag = host_tag_from(a, b);
                let (first, second) = tag.split_once('-').unwrap();
                assert!(!first.is_empty() && !second.is_empty(), "{tag}");
                assert!(tag.bytes().all(|c| c.is_ascii_lowercase() || c == b'-'), "{tag}");
                assert!(
                    !reserved.contains(&tag.as_str()) && !tag.contains("waymark"),
                    "{tag}"
                );
                all.insert(tag);
            }
        }
        assert_eq!(
            all.len(),
            TAG_FIRST.len() * TAG_SECOND.len(),
            "every pair is its own name"
        );
        assert!(all.len() >= 6_000, "two page loads rarely share a name");
        // The ends of the random range stay inside the lists.
        assert_eq!(host_tag_from(0.0, 0.0), "amber-acorn");
        assert_eq!(host_tag_from(0.999_999_9, 0.999_999_9), "witty-lotus");
    }
}
