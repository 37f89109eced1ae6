//! Finding the interactive elements of a frame, in document order, and describing each the way a
//! screen reader would (role, accessible name, value, states).
//!
//! Included: native controls, ARIA widget roles, `tabindex ≥ 0`, contenteditable hosts, `summary`,
//! inline `onclick` handlers, open shadow roots at any depth; in the viewport also elements with a
//! pointer cursor of their own (not inherited), unless a numbered control is inside or around them;
//! a checkbox or radio whose input is hidden under a custom look is numbered as its visible label.
//! Handlers that scripts add (`addEventListener`, an `onclick` property) cannot be seen from the
//! extension's isolated world: such elements are found by their cursor. Skipped: disabled, `aria-disabled`, `inert`, hidden, zero-size, and on-screen
//! elements covered by something else (centre and corner hit tests in the element's own tree); also
//! unseen ones (see-through, clipped to a pixel, off-canvas) unless focus brings them into view (a skip
//! link). A label is never listed beside its field: the field is, named by it.
//!
//! Speed: the browser does the bulk work. A whole-page scan takes candidates from one selector query
//! per tree and reads all their boxes in a few native calls (`Bulk`); a viewport scan walks only the
//! boxes that overlap the viewport. Style is read only on those walks, hit tests run only for controls
//! that a positioned or transformed box overlaps, and labels are found without each field's `labels`
//! list (which walks the whole document). Must not change the page: reads only.
//!
//! Secret fields (`waymark_protocol::secret`, asked through `secret.rs`: passwords, also after "show
//! password", one-time codes, PINs, card details) are listed and described without a value, and a
//! secret contenteditable field is never named by its own text.
//!
//! The rooms: `scan.rs` finds (the walks, shadow roots, frames, covered controls), `rules.rs` says
//! what counts as a control and whether it can be reached, `labels.rs` finds fields' labels in bulk,
//! `name.rs` names and describes (and asks the secret predicate), `text.rs` reads the words of
//! content and of `aria-labelledby` as Chrome does (`css_text.rs`: what CSS does to words),
//! `reveal.rs` says which rendered controls nobody can see, `prune.rs` drops wrappers that hold
//! listed controls and keeps an editor's covered input, `context.rs` says which row a repeated control
//! is in, `bulk.rs` reads boxes in bulk, `memo.rs`
//! keeps the last whole-page listing's decisions so the next one judges again only what changed. This
//! file holds what they find ([`Found`], [`Entry`]).

mod bulk;
mod context;
mod css_text;
mod labels;
mod memo;
mod name;
mod prune;
mod reveal;
mod rules;
mod scan;
mod text;

use std::cell::OnceCell;
use std::rc::Rc;

use waymark_protocol::{ElementInfo, Interactive, SecretKind};
use web_sys::Element;

pub use bulk::{Bulk, Rect};
pub use context::add_context;
use name::{accessible_name, field_name, states_of, value_of};
pub use name::{heading_text, secret_of};
use rules::role_of;
pub use scan::{controls_in, interactives, listing};

thread_local! {
    /// Secret fields the listings found since `secret_values.rs` last took them (newest last).
    static FOUND_SECRETS: std::cell::RefCell<Vec<Element>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// At most this many found secret fields wait to be taken (the oldest go first).
const MAX_FOUND_SECRETS: usize = 16;

/// A listing found `field` secret: `secret_values.rs` takes it ([`take_found_secrets`]) to keep what
/// it holds out of everything the worker relays. (Held here, not handed over, so the listing does not
/// depend on the module that depends on it.)
fn found_secret(field: &Element) {
    FOUND_SECRETS.with_borrow_mut(|found| {
        if !found.contains(field) {
            found.push(field.clone());
            if found.len() > MAX_FOUND_SECRETS {
                found.remove(0);
            }
        }
    });
}

/// The secret fields the listings found since the last call.
pub fn take_found_secrets() -> Vec<Element> {
    FOUND_SECRETS.with_borrow_mut(std::mem::take)
}

/// The visible words of a part of the page for its summary (`text::page_text`): editable regions the
/// secret predicate finds secret (a password typed into a region drawn as dots) are left out.
pub fn page_text(element: &Element, max: usize) -> String {
    text::page_text(element, max, name::might_be_secret)
}

/// Longest name or value we report; longer ones are cut with an ellipsis.
const MAX_TEXT: usize = 80;

const WIDGET_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "combobox",
    "textbox",
    "searchbox",
    "slider",
    "spinbutton",
    "treeitem",
    "gridcell",
    "listbox",
];

/// An element found by [`interactives`], with its description as of the listing.
#[derive(Clone)]
pub struct Found {
    pub element: Element,
    /// The box as of the listing, for the covered check at the end of a scan.
    rect: Rect,
    role: String,
    /// The accessible name, read when first asked: a whole-page listing names only the controls it
    /// describes (a page of 5,000 controls listed 50 at a time names 50), fields at once (their name
    /// is part of asking whether they are secret). The copies of one decision share it.
    name: Rc<OnceCell<String>>,
    value: Option<String>,
    states: Vec<String>,
    /// The field's secret, if it is one (then `value` is `None`).
    secret: Option<SecretKind>,
    /// Which one it is, when others of the listing share its role and name (`context.rs`).
    context: Option<String>,
}

impl Found {
    pub fn role(&self) -> &str {
        &self.role
    }

    pub fn name(&self) -> &str {
        self.name
            .get_or_init(|| accessible_name(&self.element, &self.element.local_name(), None))
    }

    /// The box as of the listing that found it.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// The element's accessible name now (it may have changed since it was found).
    pub fn current_name(&self) -> String {
        let tag = self.element.local_name();
        if self.secret.is_some() {
            return field_name(&self.element, &tag, Some(&self.role), None).0;
        }
        accessible_name(&self.element, &tag, None)
    }

    /// The element's description for the policy gate, as of now; `effect::element_info` adds all of
    /// its words and what acting on it would do.
    pub fn info(&self, index: Option<u32>, url: String) -> ElementInfo {
        let element = &self.element;
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| v.trim().to_lowercase())
                .filter(|v| !v.is_empty())
        };
        let in_dialog = element
            .closest("dialog, [role=dialog], [role=alertdialog], [aria-modal=true]")
            .ok()
            .flatten()
            .is_some();
        // Asked again: the field may have become secret since the listing (and stays so if it was).
        let secret = field_name(element, &element.local_name(), Some(&self.role), None)
            .1
            .or(self.secret);
        ElementInfo {
            index,
            role: self.role.clone(),
            name: self.name().to_owned(),
            tag: element.local_name(),
            input_type: attr("type"),
            // As of now: a listing reads values only of what it describes.
            value: value_of(element, &element.local_name(), secret),
            autocomplete: attr("autocomplete"),
            secret,
            in_dialog,
            url,
            ..ElementInfo::default()
        }
    }

    /// Reads the value and states again: a page's script can change them (`value`, `checked`) without
    /// a mutation or an event, so a decision kept from an earlier listing may hold old ones.
    pub fn refresh(&mut self) {
        let tag = self.element.local_name();
        // A label listed in place of its hidden checkbox or radio says the input's states.
        let source = if tag == "label" {
            js_sys::Reflect::get(&self.element, &"control".into())
                .ok()
                .and_then(|c| wasm_bindgen::JsCast::dyn_into::<Element>(c).ok())
        } else {
            Some(self.element.clone())
        };
        if let Some(source) = source {
            self.value = value_of(&source, &source.local_name(), self.secret);
            self.states = states_of(&source);
        }
    }

    pub fn describe(&self, index: u32) -> Interactive {
        Interactive {
            index,
            role: self.role.clone(),
            name: self.name().to_owned(),
            value: self.value.clone(),
            states: self.states.clone(),
            context: self.context.clone(),
        }
    }
}

/// Describes any element as a listing would (role, name, value, states): for an element the keyboard
/// focus is on that has no number.
pub fn found_for(element: &Element) -> Found {
    let tag = element.local_name();
    let role = role_of(element, &tag);
    let (name, secret) = field_name(element, &tag, role.as_deref(), None);
    Found {
        rect: Rect::of(element),
        role: role.unwrap_or_else(|| "generic".into()),
        name: named(name),
        value: value_of(element, &tag, secret),
        states: states_of(element),
        secret,
        element: element.clone(),
        context: None,
    }
}

/// A name already read.
fn named(name: String) -> Rc<OnceCell<String>> {
    Rc::new(OnceCell::from(name))
}

/// A name to read when first asked ([`Found::name`]).
fn unnamed() -> Rc<OnceCell<String>> {
    Rc::new(OnceCell::new())
}

/// An element's accessible name, as a listing names it.
pub fn name_of(element: &Element) -> String {
    accessible_name(element, &element.local_name(), None)
}

/// What a scan finds, in document order.
#[derive(Clone)]
pub enum Entry {
    Control(Found),
    /// A visible child frame (`iframe` or `frame` element): its controls are numbered where it stands.
    Frame(Element),
}
