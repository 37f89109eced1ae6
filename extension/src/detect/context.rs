//! Which one a repeated control is: when several controls of a listing have the same role and name
//! ("Edit", "Delete" on every row of a table), each gets the words of its own item — the row's header
//! or first cell that says something, else the item's heading, else the item's first words — so "12,
//! button, Delete, in 'Alice Smith'" tells the rows apart. The item is the largest box around the
//! control that holds no other control of the same name. A field with no name at all gets the words
//! of the label beside it (a widget that hid the native field its label points to, and shows a field
//! of its own: "To" over a recipient input), which Chrome leaves unnamed.
//!
//! Must not: change a control's name (the name is what the page gives it, and what an action checks
//! it still says), read a field's value, or change the page.

use std::collections::HashMap;

use web_sys::Element;

use super::page_text;
use super::Entry;
use crate::dom::composed_parent;
use crate::plain_text::cut;

/// The longest context said.
const MAX_CONTEXT: usize = 60;
/// How far up an item is looked for.
const MAX_LEVELS: usize = 16;
/// Groups larger than this are not worth telling apart one by one (a page of thousands of "Reply").
const MAX_GROUP: usize = 400;

/// Gives each of the first `limit` controls of `out` (those a listing describes, the only ones it
/// names) whose role and name another of them shares its item's words: they are what the list's
/// reader can mistake for one another.
pub fn add_context(out: &mut [Entry], limit: u32) {
    let mut controls = 0;
    let described = out
        .iter()
        .position(|entry| {
            controls += u32::from(matches!(entry, Entry::Control(_)));
            controls > limit
        })
        .unwrap_or(out.len());
    let out = &mut out[..described];
    for entry in out.iter_mut() {
        if let Entry::Control(found) = entry {
            found.context = None;
        }
    }
    let mut groups: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for (i, entry) in out.iter().enumerate() {
        if let Entry::Control(found) = entry {
            if !found.name().is_empty() {
                groups
                    .entry((found.role.clone(), found.name().to_lowercase()))
                    .or_default()
                    .push(i);
            }
        }
    }
    // A day of a calendar is named by its number only: its month (the grid's label) says which day.
    for entry in out.iter_mut() {
        if let Entry::Control(found) = entry {
            let day = (1..=2).contains(&found.name().chars().count())
                && found.name().chars().all(|c| c.is_ascii_digit());
            if day {
                found.context = grid_label(&found.element);
            }
        }
    }
    let fields: Vec<Element> = out
        .iter()
        .filter_map(|entry| match entry {
            Entry::Control(found) if FIELDS.contains(&found.role.as_str()) => Some(found.element.clone()),
            _ => None,
        })
        .collect();
    for entry in out.iter_mut() {
        if let Entry::Control(found) = entry {
            if found.context.is_none() && FIELDS.contains(&found.role.as_str()) && found.name().is_empty() {
                found.context = label_beside(&found.element, &fields);
            }
        }
    }
    for members in groups.values().filter(|m| m.len() > 1 && m.len() <= MAX_GROUP) {
        let elements: Vec<Element> = members
            .iter()
            .filter_map(|&i| match &out[i] {
                Entry::Control(found) => Some(found.element.clone()),
                Entry::Frame(_) => None,
            })
            .collect();
        for &i in members {
            if let Entry::Control(found) = &mut out[i] {
                if found.context.is_none() {
                    found.context = context_of(&found.element, found.name(), &elements);
                }
            }
        }
    }
}

/// Roles a person types into or picks in, which a label names.
const FIELDS: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton", "listbox"];
/// How far up the label beside an unnamed field is looked for (a widget's few wrappers).
const LABEL_LEVELS: usize = 6;

/// The words of the `label` in the smallest box around `control` that holds one and no other listed
/// field (so the label is this field's, not a neighbour's).
fn label_beside(control: &Element, fields: &[Element]) -> Option<String> {
    let mut at = control.clone();
    for _ in 0..LABEL_LEVELS {
        let parent = composed_parent(&at)?;
        if matches!(parent.local_name().as_str(), "body" | "html" | "form")
            || fields
                .iter()
                .any(|other| other != control && crate::dom::composed_contains(&parent, other))
        {
            return None;
        }
        let label = parent
            .query_selector("label")
            .ok()
            .flatten()
            .filter(|l| !l.contains(Some(control)));
        if let Some(label) = label {
            let words = cut(&collapse(&page_text(&label, 120)), MAX_CONTEXT);
            return (!words.is_empty()).then_some(words);
        }
        at = parent;
    }
    None
}

/// The words of the item `control` stands in: the largest box around it holding no other of `group`.
fn context_of(control: &Element, name: &str, group: &[Element]) -> Option<String> {
    let mut item = control.clone();
    for _ in 0..MAX_LEVELS {
        let Some(parent) = composed_parent(&item) else {
            break;
        };
        if group
            .iter()
            .any(|other| other != control && crate::dom::composed_contains(&parent, other))
        {
            break;
        }
        if matches!(parent.local_name().as_str(), "body" | "html") {
            break;
        }
        item = parent;
    }
    if &item == control {
        return None;
    }
    let words = row_words(&item, control)
        .or_else(|| heading_words(&item, control))
        .unwrap_or_else(|| without(&page_text(&item, 200), name));
    let words = cut(&words, MAX_CONTEXT);
    (!words.is_empty()).then_some(words)
}

/// What a calendar's grid is called: its label, its caption, or the words just before it (the month
/// a date picker shows above its days).
fn grid_label(control: &Element) -> Option<String> {
    let grid = crate::dom::closest_composed(control, "table, [role=grid]")?;
    let text = |e: &Element| collapse(&page_text(e, 80));
    let named = grid
        .get_attribute("aria-label")
        .map(|l| collapse(&l))
        .filter(|l| !l.is_empty())
        .or_else(|| {
            let ids = super::text::labelledby_ids(&grid)?;
            let root = grid.get_root_node();
            let words: Vec<String> = ids
                .split_whitespace()
                .filter_map(|id| crate::dom::call_element(&root, "getElementById", &id.into()))
                .map(|e| text(&e))
                .collect();
            Some(words.join(" ")).filter(|w| !w.is_empty())
        })
        .or_else(|| {
            grid.query_selector("caption")
                .ok()
                .flatten()
                .map(|c| text(&c))
                .filter(|t| !t.is_empty())
        });
    if named.is_some() {
        return named;
    }
    // The nearest words before the grid, up to two levels up.
    let mut at = grid;
    for _ in 0..3 {
        let mut before = at.previous_element_sibling();
        while let Some(b) = before {
            let words = text(&b);
            if !words.is_empty() {
                return Some(cut(&words, MAX_CONTEXT)).filter(|w| w.chars().count() <= MAX_CONTEXT);
            }
            before = b.previous_element_sibling();
        }
        at = at.parent_element()?;
    }
    None
}

/// A table row's header cell, or its first cell that says something and does not hold the control.
fn row_words(item: &Element, control: &Element) -> Option<String> {
    let row = if item.matches("tr, [role=row]").unwrap_or(false) {
        item.clone()
    } else {
        item.query_selector("tr, [role=row]")
            .ok()
            .flatten()
            .filter(|r| r.contains(Some(control)))?
    };
    let cells = row.query_selector_all(":scope > th, :scope > td, :scope > [role=rowheader], :scope > [role=cell], :scope > [role=gridcell]").ok()?;
    let cells: Vec<Element> = (0..cells.length())
        .filter_map(|i| wasm_bindgen::JsCast::dyn_into::<Element>(cells.item(i)?).ok())
        .collect();
    let header = cells
        .iter()
        .find(|c| c.local_name() == "th" || c.get_attribute("role").as_deref() == Some("rowheader"));
    header
        .into_iter()
        .chain(cells.iter())
        .filter(|c| !c.contains(Some(control)))
        .map(|c| collapse(&page_text(c, 120)))
        .find(|t| !t.is_empty())
}

/// The first heading of the item, when the control is not inside it.
fn heading_words(item: &Element, control: &Element) -> Option<String> {
    let heading = item
        .query_selector("h1, h2, h3, h4, h5, h6, [role=heading]")
        .ok()
        .flatten()
        .filter(|h| !h.contains(Some(control)))?;
    let text = collapse(&page_text(&heading, 120));
    (!text.is_empty()).then_some(text)
}

/// `text` without the control's own name in it (its first time).
fn without(text: &str, name: &str) -> String {
    let text = collapse(text);
    match text.find(name) {
        Some(at) if !name.is_empty() => collapse(&format!("{}{}", &text[..at], &text[at + name.len()..])),
        _ => text,
    }
}

fn collapse(text: &str) -> String {
    waymark_protocol::text::collapse_spaces(text)
}

#[cfg(test)]
mod tests {
    use super::without;

    #[test]
    fn the_item_s_words_leave_the_control_s_name_out() {
        assert_eq!(
            without("Alice Smith  Delete  alice@example.com", "Delete"),
            "Alice Smith alice@example.com"
        );
        assert_eq!(without("Report", ""), "Report");
    }
}
