//! What an action would do, described for the host's policy gate before anything is done: all of an
//! element's words (what it shows, its label, its title), the form activating it (or Enter in it) would
//! submit and through which button, where a link goes (an SVG link's too), whether Enter in a field
//! sends what it holds and whether it takes several lines, the option a choice would make, and the
//! visible words around it that say whether saving publishes. [`element_info`] adds all of it to
//! `detect`'s description of an element; `detect` never asks here (effects are described on top of
//! what is found, not the other way round). What the page shows around the element (the item it acts
//! on, the page's question it answers) is `around.rs`'s.
//!
//! The functions that decide an effect are also the ones that produce it: [`implicit_submission`] is
//! what `page::press` does for Enter in a field, [`match_option`] is how `act::select` picks an option.
//! So the effect the gate judged is the effect that happens.
//!
//! Reads only: it must not change the page. Page text is data; the values of fields are never part of
//! a description except where `detect` reports them (and it never reports secret ones).

use crate::detect::Found;
use crate::dom::{closest_composed, composed_contains, composed_parent, owned_options, query};
use crate::forms;
use crate::plain_text::{cut, fold};
use crate::shown::{visible_text, MAX_DEPTH};
use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::{ActFailure, ElementInfo, FormInfo, LinkInfo, OptionChoice, SecretKind, Submission};
use web_sys::{
    Element, HtmlButtonElement, HtmlElement, HtmlFormElement, HtmlInputElement, HtmlSelectElement,
};

/// Longest visible text reported for an element.
const TEXT_MAX: usize = 200;
/// Longest stretch of visible words around an element (the [`ElementInfo::context`]).
const CONTEXT_MAX: usize = 600;
/// How far up the page the context may reach.
const CONTEXT_LEVELS: usize = 12;
/// How far up a field's surroundings a "send" button may be looked for, when no form sends the field.
const SEND_BUTTON_LEVELS: usize = 4;

/// Input types whose Enter submits their form (the HTML standard's "fields that block implicit
/// submission"); an unknown type is a text field.
const TEXT_TYPES: &[&str] = &[
    "",
    "text",
    "search",
    "url",
    "tel",
    "email",
    "password",
    "date",
    "month",
    "week",
    "time",
    "datetime-local",
    "number",
];

/// What the policy gate needs to judge an action on `found`: its description as `detect` gives it,
/// with all of its words and what acting on it would do.
pub fn element_info(found: &Found, index: Option<u32>, url: String) -> ElementInfo {
    let mut info = found.info(index, url);
    enrich(&mut info, &found.element);
    info
}

/// Adds to `info` (already named by `detect`) everything the gate needs to know about what acting on
/// `element` would do.
fn enrich(info: &mut ElementInfo, element: &Element) {
    let editable = is_editable(element);
    info.editable = editable;
    info.label = aria_label(element);
    info.title = attribute(element, "title");
    // What a field holds is content, not a label: only controls that are not fields show text.
    if !editable {
        info.text = visible_text(element, TEXT_MAX)
            .filter(|t| !t.is_empty())
            .or_else(|| {
                // A submit input shows its value.
                element
                    .dyn_ref::<HtmlInputElement>()
                    .filter(|i| matches!(i.type_().to_lowercase().as_str(), "submit" | "button" | "reset"))
                    .map(|i| cut(&i.value(), TEXT_MAX))
                    .filter(|t| !t.is_empty())
            });
    }
    info.text_around = text_around(element);
    info.context = context(element);
    let form = form_of(element);
    info.form = form.as_ref().map(|f| FormInfo {
        action: forms::action(f),
        method: forms::method(f),
    });
    info.link = link_of(element);
    // Clicking a label acts on its control (a custom checkbox is numbered as its visible label).
    let acting = labelled_control(element).unwrap_or_else(|| element.clone());
    info.submits = if editable {
        enter_submission(element)
    } else {
        activation_submission(&acting).or_else(|| change_submission(&acting))
    };
    info.sends_on_enter = editable && sends_on_enter(element, form.is_some());
    info.multiline = editable && multiline(element);
}

/// Whether a field takes several lines, so a line break typed into it is text, not Enter: a text area,
/// a field that says so (`aria-multiline`), or an editable region that is not a one-line text box by
/// role (ARIA's text box is one line unless it says otherwise).
fn multiline(element: &Element) -> bool {
    if element.local_name() == "textarea" {
        return true;
    }
    if element.dyn_ref::<HtmlInputElement>().is_some() {
        return false;
    }
    if let Some(said) = element.get_attribute("aria-multiline") {
        return said.trim().eq_ignore_ascii_case("true");
    }
    let role = element.get_attribute("role").unwrap_or_default().to_lowercase();
    !matches!(role.trim(), "textbox" | "searchbox" | "combobox")
        && element
            .dyn_ref::<HtmlElement>()
            .is_some_and(HtmlElement::is_content_editable)
}

/// The control a `<label>` acts on, when the element is one (or sits in one).
fn labelled_control(element: &Element) -> Option<Element> {
    let label = element.closest("label").ok().flatten()?;
    js_sys::Reflect::get(&label, &"control".into())
        .ok()?
        .dyn_into::<Element>()
        .ok()
        .filter(|control| control != element)
}

/// Whether the element takes text: a text-like input, a text area, an editable region, or a text box by
/// role.
pub fn is_editable(element: &Element) -> bool {
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        return TEXT_TYPES.contains(&input.type_().to_lowercase().as_str());
    }
    if element.local_name() == "textarea" {
        return true;
    }
    if element
        .dyn_ref::<HtmlElement>()
        .is_some_and(HtmlElement::is_content_editable)
    {
        return true;
    }
    matches!(
        element.get_attribute("role").as_deref().map(str::trim),
        Some("textbox" | "searchbox")
    )
}

/// The form a control belongs to: its form owner (which a `form` attribute may name from outside the
/// form), or the form around it.
fn form_of(element: &Element) -> Option<HtmlFormElement> {
    let owner = js_sys::Reflect::get(element, &"form".into())
        .ok()
        .and_then(|f| f.dyn_into::<HtmlFormElement>().ok());
    owner.or_else(|| {
        element
            .closest("form")
            .ok()
            .flatten()
            .and_then(|f| f.dyn_into::<HtmlFormElement>().ok())
    })
}

/// What clicking `element` submits: the submit button it is (or that holds it, such as the icon inside
/// a button) and that button's form.
pub fn activation_submission(element: &Element) -> Option<Submission> {
    let button = closest_composed(element, "button, input")?;
    if !is_submit_button(&button) {
        return None;
    }
    let form = js_sys::Reflect::get(&button, &"form".into())
        .ok()?
        .dyn_into::<HtmlFormElement>()
        .ok()?;
    Some(submission(&form, Some(&button)))
}

/// What changing a choice (a checkbox, a radio button, a list) sends, when its form is sent as soon as
/// it changes: the choice has an inline change handler, or its form has no button of its own to send it
/// (so only a script on the change can).
fn change_submission(element: &Element) -> Option<Submission> {
    let choice = element.local_name() == "select"
        || element
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(|i| matches!(i.type_().to_lowercase().as_str(), "checkbox" | "radio"));
    if !choice {
        return None;
    }
    let form = form_of(element)?;
    let has_button = forms::controls(&form).iter().any(is_submit_button);
    (element.has_attribute("onchange") || element.has_attribute("onclick") || !has_button)
        .then(|| submission(&form, None))
}

/// What Enter in the field `element` submits: its form through the form's default button, as
/// [`implicit_submission`] finds it; or, for a field no form sends, the button beside it that a page's
/// script most likely presses (a chat box's "Send").
fn enter_submission(element: &Element) -> Option<Submission> {
    if let Some((form, submitter)) = implicit_submission(element) {
        return Some(submission(&form, submitter.as_ref()));
    }
    if form_of(element).is_some() {
        // A form that Enter does not submit (several fields and no button): nothing is sent.
        return None;
    }
    let button = button_beside(element)?;
    Some(Submission {
        submitter: Some(crate::detect::name_of(&button)),
        ..Submission::default()
    })
}

/// The HTML standard's implicit submission, for Enter in a text field: the form and its default button
/// (the first submit button in tree order whose form is this one), or the form alone when it has no
/// such button and only one text field. `None` when Enter submits nothing (no form, a disabled default
/// button, several fields and no button). `page::press` does exactly this.
pub fn implicit_submission(element: &Element) -> Option<(HtmlFormElement, Option<Element>)> {
    let input = element.dyn_ref::<HtmlInputElement>()?;
    if !TEXT_TYPES.contains(&input.type_().to_lowercase().as_str()) {
        return None;
    }
    let form = input.form()?;
    let mut fields = 0;
    for control in forms::controls(&form) {
        if is_submit_button(&control) {
            // The default button decides, even when disabled (then nothing is submitted).
            let disabled = control.matches(":disabled").unwrap_or(false);
            return (!disabled).then_some((form, Some(control)));
        }
        if control
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(|i| TEXT_TYPES.contains(&i.type_().to_lowercase().as_str()))
        {
            fields += 1;
        }
    }
    (fields == 1).then_some((form, None))
}

fn is_submit_button(element: &Element) -> bool {
    if let Some(button) = element.dyn_ref::<HtmlButtonElement>() {
        // `type` reads "submit" when the attribute is missing or unknown.
        return button.type_() == "submit";
    }
    element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| matches!(i.type_().to_lowercase().as_str(), "submit" | "image"))
}

/// A form's submission as `submitter` would send it: its own `formaction`, `formmethod` and
/// `formtarget` override the form's.
fn submission(form: &HtmlFormElement, submitter: Option<&Element>) -> Submission {
    let own = |name: &str| {
        submitter
            .and_then(|s| s.get_attribute(name))
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let action = match own("formaction") {
        // The property resolves the attribute against the document.
        Some(_) => js_sys::Reflect::get(
            submitter.map_or(&JsValue::NULL, |s| s.as_ref()),
            &"formAction".into(),
        )
        .ok()
        .and_then(|a| a.as_string())
        .unwrap_or_default(),
        None => forms::action(form),
    };
    let method = own("formmethod")
        .map(|m| m.to_lowercase())
        .unwrap_or_else(|| forms::method(form));
    let target = own("formtarget").unwrap_or_else(|| forms::target(form));
    Submission {
        action,
        method,
        submitter: submitter.map(crate::detect::name_of).filter(|n| !n.is_empty()),
        secret: form_secret(form),
        new_tab: opens_elsewhere(&target),
        carries: crate::typed::carried_by(&forms::controls(form)),
    }
}

/// The secret a form sends, asked of the one secret predicate field by field (as the listing and the
/// screenshot's mask ask it, so a field they keep secret is one the gate knows the form sends): a
/// password when the form holds one, else the kind of its first secret field.
fn form_secret(form: &HtmlFormElement) -> Option<SecretKind> {
    let mut found = None;
    for control in forms::controls(form) {
        // Only fields hold a value; naming a button to ask about it would be wasted work.
        if !matches!(control.local_name().as_str(), "input" | "select" | "textarea") {
            continue;
        }
        match crate::detect::secret_of(&control) {
            Some(SecretKind::Password) => return Some(SecretKind::Password),
            Some(kind) => {
                found.get_or_insert(kind);
            }
            None => {}
        }
    }
    found
}

/// Whether a `target` sends the answer to another tab or window.
fn opens_elsewhere(target: &str) -> bool {
    let target = target.trim().to_lowercase();
    !(target.is_empty() || matches!(target.as_str(), "_self" | "_parent" | "_top"))
}

/// Where activating `element` goes: the link it is, or the link around it (a card whose whole face is a
/// link), across shadow roots; an image map's area and an SVG link (`href` or `xlink:href`) too.
pub fn link_of(element: &Element) -> Option<LinkInfo> {
    let link = closest_link(element)?;
    let href = link_href(&link);
    Some(LinkInfo {
        href,
        new_tab: link.get_attribute("target").is_some_and(|t| opens_elsewhere(&t)),
        download: link.has_attribute("download"),
    })
}

/// The XLink namespace, in which older SVG writes a link's address (`xlink:href`).
const XLINK: &str = "http://www.w3.org/1999/xlink";

/// The closest link from `element` up, across shadow roots: an `a` or `area` (HTML or SVG) with an
/// address.
fn closest_link(element: &Element) -> Option<Element> {
    let mut current = Some(element.clone());
    for _ in 0..MAX_DEPTH {
        let e = current?;
        let link = matches!(e.local_name().as_str(), "a" | "area")
            && (e.has_attribute("href") || e.has_attribute_ns(Some(XLINK), "href"));
        if link {
            return Some(e);
        }
        current = composed_parent(&e);
    }
    None
}

/// A link's address, resolved: an HTML link's `href`, or an SVG link's (whose `href` is an animated
/// string, and whose address may be in `xlink:href`) against the document's base.
fn link_href(link: &Element) -> String {
    let property = js_sys::Reflect::get(link, &"href".into()).ok();
    if let Some(href) = property.as_ref().and_then(JsValue::as_string) {
        return href;
    }
    let raw = property
        .and_then(|p| js_sys::Reflect::get(&p, &"baseVal".into()).ok())
        .and_then(|v| v.as_string())
        .filter(|v| !v.is_empty())
        .or_else(|| link.get_attribute("href"))
        .or_else(|| link.get_attribute_ns(Some(XLINK), "href"))
        .unwrap_or_default();
    let base = link.owner_document().and_then(|d| d.base_uri().ok().flatten());
    match base {
        Some(base) => web_sys::Url::new_with_base(raw.trim(), &base)
            .map(|u| u.href())
            .unwrap_or(raw),
        None => raw,
    }
}

/// Whether Enter in this field sends what it holds, as in chat and comment boxes: an editable region,
/// a multi-line box, or a text box by role outside any form. A search box never does.
fn sends_on_enter(element: &Element, in_form: bool) -> bool {
    let role = element.get_attribute("role").unwrap_or_default().to_lowercase();
    if role.trim() == "searchbox"
        || element
            .dyn_ref::<HtmlInputElement>()
            .is_some_and(|i| i.type_().eq_ignore_ascii_case("search"))
    {
        return false;
    }
    let region = element
        .dyn_ref::<HtmlElement>()
        .is_some_and(HtmlElement::is_content_editable)
        && element.dyn_ref::<HtmlInputElement>().is_none();
    region
        || element.local_name() == "textarea"
        || element
            .get_attribute("aria-multiline")
            .is_some_and(|m| m.eq_ignore_ascii_case("true"))
        || (role.trim() == "textbox" && element.dyn_ref::<HtmlInputElement>().is_none() && !in_form)
}

/// The button next to a field that no form sends: within the field's nearest surroundings that hold a
/// button, the first button after the field, else the last one before it.
fn button_beside(field: &Element) -> Option<Element> {
    const BUTTONS: &str = "button, [role=button], input[type=submit], input[type=button], input[type=image]";
    let mut around = composed_parent(field);
    for _ in 0..SEND_BUTTON_LEVELS {
        let container = around?;
        if matches!(container.local_name().as_str(), "body" | "html") {
            return None;
        }
        let buttons: Vec<Element> = query(&container.clone().into(), BUTTONS)
            .into_iter()
            .filter(|b| !composed_contains(field, b) && b.get_client_rects().length() > 0)
            .collect();
        if !buttons.is_empty() {
            const FOLLOWING: u16 = 4;
            let after = buttons
                .iter()
                .find(|b| field.compare_document_position(b) & FOLLOWING != 0);
            return after.or(buttons.last()).cloned();
        }
        around = composed_parent(&container);
    }
    None
}

/// The option choosing `wanted` in a native list would pick: the option whose label or value is
/// `wanted` (ignoring case and spacing), else the only option whose label contains it. `act::select`
/// picks exactly this one. Returns its index and label.
pub fn match_option(select: &HtmlSelectElement, wanted: &str) -> Result<(u32, String), ActFailure> {
    let target = fold(wanted);
    let options = select.options();
    let mut labels = Vec::new();
    let mut exact = None;
    let mut partial = Vec::new();
    for i in 0..options.length() {
        let Some(option) = options
            .item(i)
            .and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
        else {
            continue;
        };
        let label = fold(&option.text());
        labels.push(option.text().trim().to_string());
        if label == target || fold(&option.value()) == target {
            exact.get_or_insert(i);
        } else if !target.is_empty() && label.contains(&target) {
            partial.push(i);
        }
    }
    let chosen = match (exact, partial.as_slice()) {
        (Some(i), _) | (None, &[i]) => i,
        (None, []) => {
            return Err(ActFailure::NoSuchOption {
                wanted: wanted.to_owned(),
                options: labels,
            })
        }
        (None, _) => {
            let names: Vec<String> = partial
                .iter()
                .filter_map(|i| labels.get(*i as usize).cloned())
                .collect();
            return Err(ActFailure::SeveralOptions {
                wanted: wanted.to_owned(),
                options: names,
            });
        }
    };
    Ok((chosen, labels.get(chosen as usize).cloned().unwrap_or_default()))
}

/// What choosing `wanted` with `element` would choose. A native list is asked exactly; a custom one
/// (a combobox, a menu button) shows its options only once opened, so the options it owns are looked
/// at where they already exist, and otherwise the choice is the words asked for (which `act` then
/// requires to match an option in full).
pub fn option_choice(element: &Element, wanted: &str) -> Result<OptionChoice, ActFailure> {
    if let Some(select) = element.dyn_ref::<HtmlSelectElement>() {
        let (_, label) = match_option(select, wanted)?;
        let acts_on_change = select.has_attribute("onchange")
            || match select.form() {
                None => true,
                // A form whose button sends the choice: choosing alone only stages it.
                Some(form) => !forms::controls(&form).iter().any(is_submit_button),
            };
        return Ok(OptionChoice {
            label,
            acts_on_change,
        });
    }
    let target = fold(wanted);
    let owned: Vec<String> = owned_options(element)
        .into_iter()
        .map(|(_, label)| label)
        .collect();
    if owned.is_empty() {
        // Options that appear only once the list opens: the words asked for are judged, and must then
        // name an option in full.
        return Ok(OptionChoice {
            label: wanted.trim().to_owned(),
            acts_on_change: true,
        });
    }
    let exact = owned.iter().find(|label| fold(label) == target);
    let partial: Vec<&String> = owned
        .iter()
        .filter(|label| !target.is_empty() && fold(label).contains(&target))
        .collect();
    let label = match (exact, partial.as_slice()) {
        (Some(label), _) => label.clone(),
        (None, [label]) => (*label).clone(),
        (None, []) => {
            return Err(ActFailure::NoSuchOption {
                wanted: wanted.to_owned(),
                options: owned.clone(),
            })
        }
        (None, several) => {
            return Err(ActFailure::SeveralOptions {
                wanted: wanted.to_owned(),
                options: several.iter().map(|s| (*s).clone()).collect(),
            });
        }
    };
    Ok(OptionChoice {
        label,
        acts_on_change: true,
    })
}

/// Whether any link in this frame goes to the site (scheme, host and port) of `url`.
pub fn links_to_site_of(document: &web_sys::Document, url: &str) -> bool {
    let Some(site) = origin(url) else {
        return false;
    };
    let links = js_sys::Array::from(&document.links());
    links.iter().any(|link| {
        js_sys::Reflect::get(&link, &"href".into())
            .ok()
            .and_then(|h| h.as_string())
            .and_then(|h| origin(&h))
            .is_some_and(|o| o == site)
    })
}

/// The origin of an absolute address, as the browser computes it; `None` for an address without one.
fn origin(url: &str) -> Option<String> {
    let parsed = web_sys::Url::new(url).ok()?;
    let origin = parsed.origin();
    (origin != "null").then_some(origin)
}

/// `aria-labelledby`'s text, else `aria-label`: the label a screen reader says instead of what shows.
fn aria_label(element: &Element) -> Option<String> {
    if let Some(ids) = element.get_attribute("aria-labelledby") {
        let document = element.owner_document()?;
        let text: Vec<String> = ids
            .split_whitespace()
            .filter_map(|id| document.get_element_by_id(id))
            .filter_map(|e| visible_text(&e, TEXT_MAX).or_else(|| e.text_content()))
            .collect();
        let text = cut(&text.join(" "), TEXT_MAX);
        if !text.is_empty() {
            return Some(text);
        }
    }
    attribute(element, "aria-label")
}

fn attribute(element: &Element, name: &str) -> Option<String> {
    element
        .get_attribute(name)
        .map(|v| cut(&v, TEXT_MAX))
        .filter(|v| !v.is_empty())
}

/// Visible text of the element's nearest meaningful container (form, dialog, list item, card): the
/// prompt around a button ("Order total €84.97" next to "Continue").
fn text_around(element: &Element) -> String {
    const CONTAINERS: &str =
        "form, dialog, [role=dialog], [role=alertdialog], li, tr, article, section, fieldset";
    let container = element
        .closest(CONTAINERS)
        .ok()
        .flatten()
        .or_else(|| element.parent_element());
    container.and_then(|c| visible_text(&c, 300)).unwrap_or_default()
}

/// The visible words of the largest part of the page around `element` that stays short: the toolbar a
/// button sits in, the notice above a form's buttons.
fn context(element: &Element) -> String {
    let mut best = String::new();
    let mut current = composed_parent(element);
    for _ in 0..CONTEXT_LEVELS {
        let Some(container) = current else { break };
        if matches!(container.local_name().as_str(), "body" | "html") {
            break;
        }
        let Some(text) = visible_text(&container, CONTEXT_MAX + 1) else {
            break;
        };
        if text.chars().count() > CONTEXT_MAX {
            break;
        }
        best = text;
        current = composed_parent(&container);
    }
    best
}
