//! Which elements count as controls (native ones, ARIA widget roles, `tabindex`, contenteditable…),
//! their role, and whether one can be reached: rendered, enabled, with a size, not inert, not covered
//! by something else where it is drawn.
//!
//! Must not: change the page (hit tests only read), or number anything (the scan does).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use super::bulk::Rect;
use super::WIDGET_ROLES;

/// Elements that may be controls, and frames: matched by the browser in one call per tree, so a page
/// of 30,000 elements costs a few thousand calls from wasm, not a hundred thousand. `is_candidate`
/// then applies the exact rules.
pub(super) const PROBABLE: &str = "a[href], button, input, select, textarea, summary, [role], [tabindex], \
    [contenteditable], [onclick], iframe, frame";

/// Roles that group or hold controls rather than being one: an element with one of these is listed
/// (for its `tabindex` or its handler) only when no control is found inside it, since then it is
/// what the keyboard reaches; with controls inside, they are listed and it is not (a menu's items,
/// not the menu; a toolbar's buttons, not the toolbar). A separator is never a control unless it
/// carries a value (a splitter).
pub(super) const CONTAINER_ROLES: &[&str] = &[
    "menu",
    "menubar",
    "toolbar",
    "tablist",
    "tree",
    "treegrid",
    "grid",
    "table",
    "list",
    "group",
    "radiogroup",
    "row",
    "rowgroup",
    "region",
    "dialog",
    "alertdialog",
    "application",
    "document",
    "tabpanel",
    "navigation",
    "form",
    "search",
    "main",
    "banner",
    "complementary",
    "contentinfo",
    "article",
    "feed",
    "log",
    "status",
    "none",
    "presentation",
];

/// Whether an element with this role holds controls rather than being one (see [`CONTAINER_ROLES`]).
pub(super) fn is_container(role: &str) -> bool {
    CONTAINER_ROLES.contains(&role)
}

pub(super) fn inside_action(element: &Element) -> bool {
    element
        .parent_element()
        .and_then(|p| {
            p.closest("a[href], button, [role=button], [role=link]")
                .ok()
                .flatten()
        })
        .is_some()
}

pub(super) fn is_inert(element: &Element) -> bool {
    element.closest("[inert]").ok().flatten().is_some()
}

pub(super) fn is_candidate(element: &Element, tag: &str, role: Option<&str>) -> bool {
    let native = match tag {
        "a" => element.has_attribute("href"),
        "button" | "select" | "textarea" | "summary" => true,
        "input" => element
            .get_attribute("type")
            .is_none_or(|t| !t.eq_ignore_ascii_case("hidden")),
        _ => false,
    };
    // A separator is a splitter only when it carries a value; a menu's divider is not a control.
    if !native && role == Some("separator") && !element.has_attribute("aria-valuenow") {
        return false;
    }
    native
        || role.is_some_and(|r| WIDGET_ROLES.contains(&r) && element.has_attribute("role"))
        || element
            .get_attribute("tabindex")
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|t| t >= 0)
            && !matches!(tag, "html" | "body")
        || element
            .get_attribute("contenteditable")
            .is_some_and(|c| !c.eq_ignore_ascii_case("false"))
        || element.has_attribute("onclick")
}

/// The explicit role, or the one the tag implies.
pub(super) fn role_of(element: &Element, tag: &str) -> Option<String> {
    if let Some(role) = element
        .get_attribute("role")
        .and_then(|r| r.split_whitespace().next().map(str::to_lowercase))
    {
        return Some(role);
    }
    let input_type = || element.get_attribute("type").unwrap_or_default().to_lowercase();
    let role = match tag {
        "a" if element.has_attribute("href") => "link",
        "button" | "summary" => "button",
        "select" => {
            if element.has_attribute("multiple") {
                "listbox"
            } else {
                "combobox"
            }
        }
        "textarea" => "textbox",
        "input" => match input_type().as_str() {
            "checkbox" => "checkbox",
            "radio" => "radio",
            "submit" | "button" | "reset" | "image" => "button",
            "range" => "slider",
            "number" => "spinbutton",
            "search" => "searchbox",
            "file" => "button",
            _ => "textbox",
        },
        // An editable region says what it is, as Chrome exposes it (a paragraph, a heading); any
        // other is a text box, which is what a screen reader calls an editable container.
        _ if element
            .get_attribute("contenteditable")
            .is_some_and(|c| !c.eq_ignore_ascii_case("false")) =>
        {
            match tag {
                "p" => "paragraph",
                "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => "heading",
                _ => "textbox",
            }
        }
        _ => return None,
    };
    Some(role.into())
}

/// Whether an element is rendered at all (not `display: none` itself or through an ancestor, not
/// `visibility: hidden`, not in a closed `details`): `Element.checkVisibility`, looked up once per scan.
pub(super) struct Visibility {
    check: Option<js_sys::Function>,
    options: js_sys::Object,
    /// The same, also counting `opacity: 0` (on the element or an ancestor) as hidden.
    opaque_options: js_sys::Object,
}

impl Visibility {
    pub(super) fn new() -> Self {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
        let opaque_options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&opaque_options, &"visibilityProperty".into(), &JsValue::TRUE);
        let _ = js_sys::Reflect::set(&opaque_options, &"opacityProperty".into(), &JsValue::TRUE);
        let check = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &"Element".into()).ok())
            .and_then(|e| js_sys::Reflect::get(&e, &"prototype".into()).ok())
            .and_then(|p| js_sys::Reflect::get(&p, &"checkVisibility".into()).ok())
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        Self {
            check,
            options,
            opaque_options,
        }
    }

    pub(super) fn check(&self, element: &Element) -> bool {
        self.call(element, &self.options)
    }

    /// Rendered and not see-through.
    pub(super) fn opaque(&self, element: &Element) -> bool {
        self.call(element, &self.opaque_options)
    }

    pub(super) fn call(&self, element: &Element, options: &js_sys::Object) -> bool {
        match &self.check {
            Some(f) => f
                .call1(element, options)
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true),
            // Browsers before checkVisibility: the size and hit tests still apply.
            None => true,
        }
    }
}

/// Not disabled and has a size. (Whether it is covered is checked at the end of the scan.)
pub(super) fn usable(element: &Element, rect: &Rect) -> bool {
    if element.matches(":disabled").unwrap_or(false)
        || element
            .get_attribute("aria-disabled")
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || is_inert(element)
    {
        return false;
    }
    rect.width >= 1.0 && rect.height >= 1.0
}

/// Whether every probe point of an on-screen element hits something that is neither it, inside it,
/// nor its label. Off-screen elements cannot be hit-tested and count as not covered.
pub(super) fn covered(element: &Element, rect: &Rect, (width, height): (f64, f64)) -> bool {
    let (l, t, r, b) = (rect.left, rect.top, rect.right, rect.bottom);
    // Probe the centre and four points just inside the corners.
    let dx = (r - l).min(4.0) / 2.0;
    let dy = (b - t).min(4.0) / 2.0;
    let points = [
        ((l + r) / 2.0, (t + b) / 2.0),
        (l + dx, t + dy),
        (r - dx, t + dy),
        (l + dx, b - dy),
        (r - dx, b - dy),
    ];
    let mut on_screen = false;
    for (x, y) in points {
        if x < 0.0 || y < 0.0 || x >= width || y >= height {
            continue;
        }
        on_screen = true;
        match hit(element, x, y) {
            Some(h)
                if &h == element
                    || element.contains(Some(&h))
                    || h.contains(Some(element))
                    || labels(element, &h) =>
            {
                return false
            }
            None => return false,
            _ => {}
        }
    }
    on_screen
}

/// The topmost element at a point, looking into the element's own shadow root scope.
pub(super) fn hit(element: &Element, x: f64, y: f64) -> Option<Element> {
    let root = element.get_root_node();
    let f = js_sys::Reflect::get(&root, &"elementFromPoint".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call2(&root, &x.into(), &y.into())
        .ok()?
        .dyn_into::<Element>()
        .ok()
}

/// Whether `other` is a label of `element` (clicking a label acts on its control).
pub(super) fn labels(element: &Element, other: &Element) -> bool {
    if other.local_name() != "label" {
        return false;
    }
    let id = element.id();
    other.contains(Some(element))
        || (!id.is_empty() && other.get_attribute("for").as_deref() == Some(id.as_str()))
}
