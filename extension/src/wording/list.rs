//! How the numbered list is read: "12, button, Add to cart", with the role as screen readers say it
//! in the user's language (`role-…` messages, named by the role at run time), the states and value
//! after it, the count and the paging with the language's plurals, and the lines that name one control
//! (what was clicked, where the focus went). Part of `wording`.

use serde_json::Value;
use waymark_i18n::{say, Words};
use waymark_protocol::{Interactive, InteractiveList};

use super::language::with_words;

/// A role as the user's screen reader would say it ("кнопка" for `button`); a role the catalogue
/// does not know is said as the page wrote it.
pub(super) fn role(w: &Words, role: &str) -> String {
    let id = format!("role-{role}");
    if w.has(&id) {
        w.say(&id, &waymark_i18n::Args::new())
    } else {
        role.to_owned()
    }
}

/// A state the listing reports ("pressed"), in the user's language.
fn state(w: &Words, state: &str) -> String {
    match state {
        "checked" => say!(w, "state-checked"),
        "expanded" => say!(w, "state-expanded"),
        "collapsed" => say!(w, "state-collapsed"),
        "pressed" => say!(w, "state-pressed"),
        "selected" => say!(w, "state-selected"),
        "required" => say!(w, "state-required"),
        "editable" => say!(w, "state-editable"),
        other => other.to_owned(),
    }
}

/// One control: "12, button, Add to cart, value 3, pressed".
fn item(w: &Words, item: &Interactive) -> String {
    let role = role(w, &item.role);
    let mut line = if item.name.is_empty() {
        say!(w, "list-item-unnamed", index = item.index, role = role)
    } else {
        say!(
            w,
            "list-item",
            index = item.index,
            role = role,
            name = item.name.as_str()
        )
    };
    let mut parts = Vec::new();
    if let Some(context) = &item.context {
        parts.push(say!(w, "list-item-context", context = context.as_str()));
    }
    if let Some(value) = &item.value {
        parts.push(say!(w, "list-item-value", value = value.as_str()));
    }
    parts.extend(item.states.iter().map(|s| state(w, s)));
    for part in parts {
        line.push_str(&say!(w, "list-item-more", part = part));
    }
    line
}

/// A page of the numbered list, one control per line: "12, button, Add to cart", and how to hear the
/// rest when there is more.
pub fn interactive_list(list: &InteractiveList) -> String {
    with_words(|w| {
        let title = list.title.as_str();
        if list.total == 0 {
            return say!(w, "list-empty", title = title);
        }
        let first = list.offset + 1;
        let last = list.offset + list.items.len() as u32;
        let heading = if last < list.total || list.offset > 0 {
            say!(
                w,
                "list-page",
                total = list.total,
                title = title,
                first = first,
                last = last
            )
        } else {
            say!(w, "list-whole", total = list.total, title = title)
        };
        lines(w, heading, list, list.total.saturating_sub(last))
    })
}

/// A heading, the list's lines, and how many are left to hear.
fn lines(w: &Words, heading: String, list: &InteractiveList, left: u32) -> String {
    let mut out = heading;
    for control in &list.items {
        out.push('\n');
        out.push_str(&item(w, control));
    }
    if left > 0 {
        out.push('\n');
        out.push_str(&say!(w, "list-more", left = left));
    }
    out
}

/// "3 matches for "cart": 12, button, Add to cart; …"
pub(super) fn found(wanted: &str, list: &InteractiveList) -> String {
    with_words(|w| {
        if list.total == 0 {
            return say!(w, "found-none", text = wanted);
        }
        let last = list.offset + list.items.len() as u32;
        let heading = say!(w, "found-heading", count = list.total, text = wanted);
        lines(w, heading, list, list.total.saturating_sub(last))
    })
}

/// The control a tool's data names (`index`, `role`, `name`), as values for a message.
struct Named {
    index: u64,
    role: String,
    name: String,
}

fn named(w: &Words, data: Option<&Value>) -> Option<Named> {
    let field = |k: &str| {
        data.and_then(|d| d.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let index = data.and_then(|d| d.get("index")).and_then(Value::as_u64)?;
    Some(Named {
        index,
        role: role(w, &field("role")),
        name: field("name"),
    })
}

/// The result of an action by number: "Clicked 3, button, Save draft."
pub(super) fn acted(data: Option<&Value>) -> String {
    let text = |k: &str| {
        data.and_then(|d| d.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let said = with_words(|w| {
        let Some(Named { index, role, name }) = named(w, data) else {
            return say!(w, "acted-done");
        };
        match text("done").as_str() {
            "click" => say!(w, "acted-click", index = index, role = role, name = name),
            "type" => say!(w, "acted-type", index = index, role = role, name = name),
            "select" => say!(
                w,
                "acted-select",
                option = text("selected"),
                index = index,
                role = role,
                name = name
            ),
            "right_click" => say!(w, "acted-right-click", index = index, role = role, name = name),
            "hover" => say!(w, "acted-hover", index = index, role = role, name = name),
            "set" => say!(
                w,
                "acted-set",
                value = text("value"),
                index = index,
                role = role,
                name = name
            ),
            _ => say!(w, "acted-done"),
        }
    });
    with_changes(said, data)
}

/// `done` with what the page did after it, when that is news: nothing at all, or another page
/// loading. (The other changes — the page, the focus, the control, a request — are in `changed` for
/// the model and clients; a person hears the next list or the focus move.)
pub(super) fn with_changes(done: String, data: Option<&Value>) -> String {
    let Some(changed) = data.and_then(|d| d.get("changed")).and_then(Value::as_array) else {
        return done;
    };
    let has = |what: &str| changed.iter().any(|c| c.as_str() == Some(what));
    with_words(|w| {
        if has("leaving") {
            say!(w, "acted-leaving", done = done.as_str())
        } else if changed.is_empty() {
            say!(w, "acted-unchanged", done = done.as_str())
        } else {
            done.clone()
        }
    })
}

/// "Focus on 12, button, Add to cart."
pub(super) fn focused(data: Option<&Value>) -> String {
    with_words(|w| match named(w, data) {
        Some(Named { index, role, name }) => say!(w, "focus-on", index = index, role = role, name = name),
        None => say!(w, "focus-none"),
    })
}
