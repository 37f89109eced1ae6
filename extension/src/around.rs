//! What the page around a control says about what acting on it does, for the gate's preview: the item
//! it acts on (its row, list item or card, or the heading above it when its name is not the only one),
//! the words of the page's own question it answers (its dialog, or the nearest container with words
//! besides its controls: the paragraph above an "OK"), what in the page's structure marks it as
//! dangerous, whether it only opens a dialog of the page's own, and for a key whether something is open
//! that Escape closes.
//!
//! Reads only: it must not change the page, and never reports a field's value. Page text is data. It
//! imports only the leaves (`dom`, `plain_text`) and `shown`.

use wasm_bindgen::JsCast;
use waymark_protocol::words::{DANGER_MARKS, VARIANT_ATTRIBUTES, WARNING_MARKS};
use waymark_protocol::{Danger, ElementInfo, Item, ItemKind};
use web_sys::{Document, Element};

use crate::dom::composed_parent;
use crate::plain_text::{cut as clean, fold};
use crate::shown::{rendered, words_of, BUTTONS, CONTROLS};

/// Longest item name reported.
const ITEM_MAX: usize = 100;
/// Longest name of a table or list.
const OF_MAX: usize = 80;
/// Longest question of the page reported; a longer container is the page itself, not a question.
const ASKS_MAX: usize = 2_000;
/// How far up the page the question around a control is looked for.
const ASKS_LEVELS: usize = 4;
/// How many headings are looked through for the one above a control.
const HEADINGS_MAX: u32 = 2_000;

const HEADINGS: &str = "h1, h2, h3, h4, h5, h6, [role=heading]";
/// Containers whose words are an item (see [`item_of`]).
const ITEMS: &str = "tr, [role=row], li, [role=listitem], article, [role=article]";
const DIALOGS: &str = "dialog, [role=dialog], [role=alertdialog], [aria-modal=true]";
/// What Escape closes, when it is shown.
const LAYERS: &str = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], [role=menu], \
                      [role=listbox], [aria-expanded=true]";

/// Adds to `info` what the page around `element` says (see the module doc). The heading above is said
/// only when the control's name is `repeated` (another control of the frame's list has it): then the
/// name alone does not say which one.
pub fn describe(info: &mut ElementInfo, element: &Element, repeated: bool) {
    info.item = item_of(element, &info.name, !info.editable && repeated);
    if !info.editable {
        info.asks = asks_of(element);
        info.danger = danger_of(element);
        info.opens_dialog = opens_dialog(element);
    }
}

/// The item `element` acts on: the row, list item or card it is in (not when it is that row itself),
/// or with `heading`, the heading above it.
fn item_of(element: &Element, own_name: &str, heading: bool) -> Option<Item> {
    if let Some(row) = closest(element, "tr, [role=row]").filter(|r| r != element) {
        if let Some(item) = row_item(&row, own_name) {
            return Some(item);
        }
    }
    if let Some(entry) = closest(element, "li, [role=listitem]").filter(|l| l != element) {
        let name = title_of(&entry, own_name)?;
        let list = closest(&entry, "ul, ol, menu, [role=list]");
        return Some(Item {
            kind: ItemKind::ListItem,
            name,
            position: position(&entry, "aria-posinset"),
            of: list.and_then(|l| label_of(&l)),
        });
    }
    if let Some(card) = closest(element, "article, [role=article]").filter(|c| c != element) {
        return Some(Item {
            kind: ItemKind::Card,
            name: title_of(&card, own_name)?,
            position: None,
            of: None,
        });
    }
    heading
        .then(|| heading_above(element))
        .flatten()
        .filter(|h| !fold(own_name).contains(&fold(h)))
        .map(|name| Item {
            kind: ItemKind::Heading,
            name,
            position: None,
            of: None,
        })
}

/// A row as an item: its header cell's words, or its cells' words (controls left out), with its place
/// and its table's name. A header row is no item.
fn row_item(row: &Element, own_name: &str) -> Option<Item> {
    let cells: Vec<Element> = children(row)
        .into_iter()
        .filter(|c| {
            matches!(c.local_name().as_str(), "td" | "th")
                || matches!(
                    c.get_attribute("role").as_deref(),
                    Some("cell" | "gridcell" | "rowheader" | "columnheader")
                )
        })
        .collect();
    let header = |c: &&Element| {
        c.get_attribute("role").as_deref() == Some("rowheader")
            || (c.local_name() == "th" && c.get_attribute("scope").as_deref() == Some("row"))
    };
    let column_headers = cells
        .iter()
        .all(|c| c.local_name() == "th" || c.get_attribute("role").as_deref() == Some("columnheader"));
    if cells.is_empty() || (column_headers && !cells.iter().any(|c| header(&c))) {
        return None;
    }
    let name = match cells.iter().find(header) {
        Some(cell) => words_of(cell, ITEM_MAX, Some(BUTTONS)),
        None => {
            let words: Vec<String> = cells
                .iter()
                .map(|c| words_of(c, ITEM_MAX, Some(BUTTONS)))
                .filter(|w| !w.is_empty() && fold(w) != fold(own_name))
                .collect();
            clean(&words.join(", "), ITEM_MAX)
        }
    };
    if name.is_empty() {
        return None;
    }
    let table = closest(row, "table, [role=table], [role=grid], [role=treegrid]");
    Some(Item {
        kind: ItemKind::Row,
        name,
        position: position(row, "aria-rowindex"),
        of: table.and_then(|t| label_of(&t)),
    })
}

/// What a list item or card is called: its heading, else its first link that is not the control,
/// else its words besides its controls.
fn title_of(container: &Element, own_name: &str) -> Option<String> {
    let differs = |text: &String| !text.is_empty() && fold(text) != fold(own_name);
    let first = |selector: &str| {
        container
            .query_selector(selector)
            .ok()
            .flatten()
            .map(|e| words_of(&e, ITEM_MAX, None))
            .filter(differs)
    };
    first(HEADINGS)
        .or_else(|| first("a[href]"))
        .or_else(|| Some(words_of(container, ITEM_MAX, Some(BUTTONS))).filter(differs))
}

/// The place of a row or list item among its siblings of the same kind, from 1: the page's own
/// (`aria-rowindex`, `aria-posinset`, which virtualised lists keep right), else counted.
fn position(element: &Element, attribute: &str) -> Option<u32> {
    if let Some(given) = element
        .get_attribute(attribute)
        .and_then(|v| v.trim().parse::<u32>().ok())
    {
        return Some(given);
    }
    let mut count = 1;
    let mut sibling = element.previous_element_sibling();
    while let Some(before) = sibling {
        if before.local_name() == element.local_name()
            && before.get_attribute("role") == element.get_attribute("role")
            && !header_row(&before)
        {
            count += 1;
        }
        sibling = before.previous_element_sibling();
    }
    Some(count)
}

/// A row of column headers only (a table without `thead` starts with one).
fn header_row(row: &Element) -> bool {
    let cells = children(row);
    !cells.is_empty()
        && cells
            .iter()
            .all(|c| c.local_name() == "th" || c.get_attribute("role").as_deref() == Some("columnheader"))
}

/// A table's or list's name: its `aria-label`, `aria-labelledby` or caption, else the heading above it.
fn label_of(container: &Element) -> Option<String> {
    let document = container.owner_document()?;
    let labelled = container.get_attribute("aria-labelledby").map(|ids| {
        let parts: Vec<String> = ids
            .split_whitespace()
            .filter_map(|id| document.get_element_by_id(id))
            .map(|e| words_of(&e, OF_MAX, None))
            .collect();
        parts.join(" ")
    });
    let caption = || {
        container
            .query_selector("caption")
            .ok()
            .flatten()
            .map(|c| words_of(&c, OF_MAX, None))
    };
    labelled
        .or_else(|| container.get_attribute("aria-label"))
        .map(|l| clean(&l, OF_MAX))
        .filter(|l| !l.is_empty())
        .or_else(|| caption().filter(|c| !c.is_empty()))
        .or_else(|| heading_above(container))
}

/// The text of the last heading before `element` in the document.
fn heading_above(element: &Element) -> Option<String> {
    const PRECEDING: u16 = 2;
    let document = element.owner_document()?;
    let headings = document.query_selector_all(HEADINGS).ok()?;
    let mut found = None;
    for i in 0..headings.length().min(HEADINGS_MAX) {
        let Some(heading) = headings.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        if element.compare_document_position(&heading) & PRECEDING == 0 {
            break;
        }
        if rendered(&heading) {
            found = Some(heading);
        }
    }
    found
        .map(|h| words_of(&h, ITEM_MAX, None))
        .filter(|t| !t.is_empty())
}

/// The words of the page's own question `element` answers: the dialog it is in, or the nearest
/// container (a few levels up) with words besides its controls — `None` when that container is
/// longer than a question (the page itself) or is the item the control acts on.
fn asks_of(element: &Element) -> Option<String> {
    if let Some(dialog) = closest(element, DIALOGS) {
        let words = words_of(&dialog, ASKS_MAX, Some(CONTROLS));
        return (!words.is_empty()).then_some(words);
    }
    let mut current = composed_parent(element);
    for _ in 0..ASKS_LEVELS {
        let container = current?;
        // A row's, list item's or card's words are the item the control acts on, not a question.
        if container.local_name() == "html" || container.matches(ITEMS).unwrap_or(false) {
            return None;
        }
        let words = words_of(&container, ASKS_MAX + 1, Some(CONTROLS));
        if words.chars().count() > ASKS_MAX {
            return None;
        }
        if !words.is_empty() {
            return Some(words);
        }
        current = composed_parent(&container);
    }
    None
}

/// What in the page's structure marks `element` as dangerous: an alert dialog around it, a
/// destructive class or variant on it (or on the button it is part of), or a warning that describes it.
fn danger_of(element: &Element) -> Option<Danger> {
    if closest(element, "[role=alertdialog]").is_some() {
        return Some(Danger::AlertDialog);
    }
    let control = closest(
        element,
        "button, a, [role=button], [role=link], [role=menuitem], input",
    )
    .unwrap_or_else(|| element.clone());
    let marked = |e: &Element, marks: &[&str]| {
        class_words(e)
            .iter()
            .any(|w| marks.iter().any(|m| w.starts_with(m) || w.ends_with(m)))
    };
    let variant = VARIANT_ATTRIBUTES.iter().any(|a| {
        control
            .get_attribute(a)
            .is_some_and(|v| DANGER_MARKS.contains(&v.trim().to_lowercase().as_str()))
    });
    if variant || marked(&control, DANGER_MARKS) {
        return Some(Danger::Marked);
    }
    let document = element.owner_document()?;
    let warned = control
        .get_attribute("aria-describedby")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|id| document.get_element_by_id(id))
        .any(|d| {
            matches!(d.get_attribute("role").as_deref(), Some("alert" | "alertdialog"))
                || marked(&d, WARNING_MARKS)
        });
    warned.then_some(Danger::Warning)
}

/// The words of an element's classes, split where a class name is not letters or digits
/// (`btn-danger` → `btn`, `danger`), lower case.
fn class_words(element: &Element) -> Vec<String> {
    element
        .get_attribute("class")
        .unwrap_or_default()
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether activating `element` only opens a dialog of the page's own: the control names a dialog
/// (`aria-controls`, `popovertarget`, `commandfor` with a show command, Bootstrap's `data-bs-target`)
/// that exists and is hidden now, and it is not a link to anywhere or a form's submit button (the
/// policy checks those too).
fn opens_dialog(element: &Element) -> bool {
    let control = closest(element, "button, a, [role=button], input").unwrap_or_else(|| element.clone());
    let Some(document) = control.owner_document() else {
        return false;
    };
    let named = |attribute: &str| {
        control
            .get_attribute(attribute)
            .map(|v| v.trim().trim_start_matches('#').to_owned())
            .filter(|v| !v.is_empty())
    };
    let shows = control
        .get_attribute("command")
        .is_none_or(|c| matches!(c.trim(), "show-modal" | "show-popover" | "toggle-popover"));
    let targets = [
        named("aria-controls"),
        named("popovertarget"),
        named("commandfor").filter(|_| shows),
        named("data-bs-target"),
        named("data-target").filter(|_| control.has_attribute("data-toggle")),
    ];
    targets.into_iter().flatten().any(|id| {
        document.get_element_by_id(&id).is_some_and(|target| {
            let dialog = target.matches(DIALOGS).unwrap_or(false)
                || target.has_attribute("popover")
                || class_words(&target).iter().any(|w| w == "modal");
            dialog && !rendered(&target)
        })
    })
}

/// Whether something is shown in `document` that Escape closes: a dialog, a popover, an open menu or
/// list, an expanded control.
pub fn open_layer(document: &Document) -> bool {
    let shown = |selector: &str| {
        document.query_selector_all(selector).ok().is_some_and(|list| {
            (0..list.length().min(200)).any(|i| {
                list.item(i)
                    .and_then(|n| n.dyn_into::<Element>().ok())
                    .is_some_and(|e| rendered(&e))
            })
        })
    };
    // `:popover-open` is not known to every browser: a selector it cannot parse finds nothing.
    shown(LAYERS) || shown(":popover-open")
}

fn closest(element: &Element, selector: &str) -> Option<Element> {
    element.closest(selector).ok().flatten()
}

fn children(element: &Element) -> Vec<Element> {
    let list = element.children();
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}
