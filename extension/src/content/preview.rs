//! This frame's half of the gate's preview: what an action would do here (`effect.rs`), on which
//! element (by number, or where the keyboard focus is; or, for the gate's second look at a yes, the
//! element it was pinned to), with the option a choice would make, and for a key what the page says
//! about keys (whether Escape would close something, which control `aria-keyshortcuts` binds it to).
//!
//! Must not: act (a preview only describes), or describe a secret field's value.

use waymark_protocol::{
    ActKind, ElementInfo, ErrorKind, FramePreview, KeyContext, PageReason, PageTool, ToolResult,
};
use web_sys::{Document, Element};

use super::{
    answer, by_id, document, name_repeats, no_document, numbered, remember, this_document, url, FRAME,
};
use crate::act;
use crate::detect::Found;
use crate::effect::element_info;

/// What `action` would do here (see `effect`), for the gate: the element it reaches (by number, or the
/// focused one for a key without a number; `pinned`, the element the gate pinned it to, whatever its
/// number now), the option a choice would make, and whether this frame links to the site a navigation
/// would open.
pub(super) fn preview(action: PageTool, number: Option<u32>, pinned: Option<u64>) -> ToolResult {
    let Some(document) = document() else {
        return no_document();
    };
    let mut out = FramePreview {
        document: this_document(),
        url: url(),
        site_name: site_name(&document),
        target: None,
        element: None,
        option: None,
        linked: false,
        has_focus: document.has_focus().unwrap_or(false),
        destination: match &action {
            PageTool::Back => super::guard::history_destination(-1),
            PageTool::Forward => super::guard::history_destination(1),
            _ => None,
        },
        keys: None,
    };
    if let PageTool::Press { key, .. } = &action {
        // A key no keyboard has is refused before the gate could ask about it.
        if act::keys::Key::parse(key).is_none() {
            let why = PageReason::UnknownKey { key: key.clone() };
            return ToolResult::refused(ErrorKind::Failed, why);
        }
        out.keys = Some(key_context(&document, key));
    }
    let numbered_target = action.number();
    if let (Some(id), PageTool::Press { index: None, .. }) = (pinned, &action) {
        // The element that had the focus when the gate looked first.
        let (id, found) = match by_id(id) {
            Ok(hit) => hit,
            Err(why) => return why,
        };
        out.target = Some(described(&found, number));
        out.element = Some(id);
        return answer(serde_json::to_value(&out));
    }
    if let Some(index) = numbered_target {
        let hit = match pinned {
            Some(id) => by_id(id),
            None => numbered(index),
        };
        let (id, found) = match hit {
            Ok(hit) => hit,
            Err(why) => return why,
        };
        if let PageTool::OverlayAct {
            action: ActKind::Select,
            text,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Select,
            text,
            ..
        } = &action
        {
            match crate::effect::option_choice(&found.element, text.as_deref().unwrap_or_default()) {
                Ok(choice) => out.option = Some(choice),
                Err(failure) => {
                    let reason = PageReason::Act {
                        number: number.unwrap_or(index),
                        action: ActKind::Select,
                        role: found.role().into(),
                        name: found.name().into(),
                        failure,
                    };
                    return ToolResult::refused(ErrorKind::BadArguments, reason);
                }
            }
        }
        out.target = Some(described(&found, Some(number.unwrap_or(index))));
        out.element = Some(id);
    }
    match &action {
        PageTool::Press { index: None, .. } => {
            if let Some(active) = focused_control(&document) {
                // A numbered control says its number; anything else is remembered for a pinned press.
                let listed = FRAME.with_borrow(|f| {
                    f.numbered
                        .iter()
                        .position(|(_, found)| found.element == active)
                        .map(|i| (i, f.numbered[i].0, f.badges.get(i).copied()))
                });
                let (id, found, index) = match listed {
                    Some((i, id, badge)) => {
                        let found = FRAME.with_borrow(|f| f.numbered[i].1.clone());
                        (id, found, badge)
                    }
                    None => {
                        let found = crate::detect::found_for(&active);
                        (remember(&found), found, None)
                    }
                };
                out.target = Some(described(&found, index));
                out.element = Some(id);
            }
        }
        PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => {
            out.linked = crate::effect::links_to_site_of(&document, url);
        }
        _ => {}
    }
    answer(serde_json::to_value(&out))
}

/// What the gate needs to judge an action on `found` (`effect::element_info`), with what the page shows
/// around it (`around.rs`): the item it acts on, the page's question it answers.
fn described(found: &Found, index: Option<u32>) -> ElementInfo {
    let mut info = element_info(found, index, url());
    let repeated = name_repeats(&info.name);
    crate::around::describe(&mut info, &found.element, repeated);
    info
}

/// What the page says about `key` pressed in `document`: whether something is shown that Escape
/// closes, and the control whose `aria-keyshortcuts` names the key (the page's own word for what it
/// does).
fn key_context(document: &Document, key: &str) -> KeyContext {
    let wanted = key_name(key);
    let shortcut = document
        .query_selector_all("[aria-keyshortcuts]")
        .ok()
        .and_then(|list| {
            (0..list.length().min(500))
                .filter_map(|i| {
                    list.item(i)
                        .and_then(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok())
                })
                .find(|e| {
                    e.get_attribute("aria-keyshortcuts")
                        .unwrap_or_default()
                        .split_whitespace()
                        .any(|k| key_name(k) == wanted)
                })
        })
        .map(|e| described(&crate::detect::found_for(&e), None));
    KeyContext {
        open_layer: crate::around::open_layer(document),
        shortcut,
    }
}

/// A key's name as `aria-keyshortcuts` and callers may write it, folded: "Del" and "Delete", " " and
/// "Space", "Esc" and "Escape" are each one key.
fn key_name(key: &str) -> String {
    let key = if key.trim().is_empty() && !key.is_empty() {
        "space"
    } else {
        key.trim()
    };
    key.split('+')
        .map(|part| match part.to_lowercase().as_str() {
            "del" => "delete".to_owned(),
            "esc" => "escape".to_owned(),
            "return" => "enter".to_owned(),
            "spacebar" => "space".to_owned(),
            "control" => "ctrl".to_owned(),
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("+")
}

/// The element with the keyboard focus in this frame, if it is a control: not the page itself, and not
/// a child frame (whose own content script answers for what has the focus inside it).
pub(super) fn focused_control(document: &web_sys::Document) -> Option<web_sys::Element> {
    let active = act::deep_active_element(document)?;
    let tag = active.local_name();
    (!matches!(tag.as_str(), "body" | "html" | "iframe" | "frame")).then_some(active)
}

/// The name this document gives its site, if it gives one: `<meta property="og:site_name">`, else
/// `<meta name="application-name">`. Page text: the host says it after the host name, never instead.
fn site_name(document: &web_sys::Document) -> Option<String> {
    ["meta[property='og:site_name']", "meta[name='application-name']"]
        .iter()
        .find_map(|selector| {
            let content = document
                .query_selector(selector)
                .ok()??
                .get_attribute("content")?;
            let content = content.split_whitespace().collect::<Vec<_>>().join(" ");
            (!content.is_empty()).then(|| content.chars().take(80).collect())
        })
}
