//! The words of the gate: each question says what will happen, in the user's terms — the action, the
//! control as a screen reader names it (and what it shows, when that differs), what the form does or
//! where the link goes, and the site: "Press Enter in textbox 'Coupon code': this submits the form
//! 'Place order (€84.97)' on shop.example. Yes or no?" — and the sentences the asker hears when
//! nothing was done.
//!
//! Page text is always quoted and passed through [`crate::policy::quoted`] (control, bidi and invisible
//! characters out, short), so a page cannot forge Waymark's own sentences in the alert voice. Nothing
//! here decides anything.

use waymark_protocol::{ActKind, ClosedReason, Effect, ElementInfo, PageTool};

use crate::policy::{quoted, Concern};

/// What the asker hears when the user says no.
pub const SAID_NO: &str = "Not done: you said no.";

/// The question for a page tool, from what the extension said it would do.
pub fn ask(tool: &PageTool, effect: &Effect) -> String {
    let on = on_site(effect);
    let target = effect.target.as_ref();
    match tool {
        PageTool::Navigate { url } => format!("Open {}? Yes or no.", address(url)),
        PageTool::OpenInNewTab { url } => format!("Open {} in a new tab? Yes or no.", address(url)),
        PageTool::Back => format!("Go back{on}? Yes or no."),
        PageTool::Forward => format!("Go forward{on}? Yes or no."),
        PageTool::Reload => format!("Reload the page{on}? Yes or no."),
        PageTool::OverlayAct { action, text, .. } | PageTool::ActByIndex { action, text, .. } => {
            let Some(target) = target else {
                return format!("Act{on}? Waymark cannot tell on what. Yes or no.");
            };
            match action {
                ActKind::Click => finish(format!("Click {}", named(target)), click_effect(target), &on),
                ActKind::Type if text.as_deref().is_some_and(|t| t.contains(['\n', '\r'])) => finish(
                    format!("Type into {} and press Enter", named(target)),
                    enter_effect(target),
                    &on,
                ),
                ActKind::Type => finish(format!("Type into {}", named(target)), None, &on),
                ActKind::Select => {
                    let option = effect
                        .option
                        .as_ref()
                        .map(|o| o.label.as_str())
                        .or(text.as_deref())
                        .unwrap_or_default();
                    let acts = effect
                        .option
                        .as_ref()
                        .is_some_and(|o| o.acts_on_change)
                        .then(|| "the page may act on the choice at once".to_owned());
                    finish(
                        format!("Choose '{}' in {}", quoted(option), named(target)),
                        acts,
                        &on,
                    )
                }
            }
        }
        PageTool::ClickAndWaitDownload { .. } => match target {
            Some(target) => finish(format!("Click to download from {}", named(target)), None, &on),
            None => format!("Download a file{on}? Yes or no."),
        },
        PageTool::Upload { paths, .. } => {
            let names: Vec<String> = paths
                .iter()
                .map(|p| quoted(p.rsplit(['/', '\\']).next().unwrap_or(p)))
                .collect();
            let into = target.map(named).unwrap_or_else(|| "the page".into());
            finish(
                format!("Upload {} from this computer into {into}", names.join(", ")),
                None,
                &on,
            )
        }
        PageTool::Press { key, .. } => {
            let key = key_name(key);
            match target {
                Some(target) if target.editable => finish(
                    format!("Press {key} in {}", named(target)),
                    enter_effect(target).filter(|_| key == "Enter"),
                    &on,
                ),
                Some(target) => {
                    let effect = match key.as_str() {
                        "Delete" | "Backspace" => {
                            Some("the page may take it as a command to delete".to_owned())
                        }
                        _ => click_effect(target),
                    };
                    let focused = if effect_focused(tool) {
                        " (it has the keyboard focus)"
                    } else {
                        ""
                    };
                    finish(format!("Press {key} on {}{focused}", named(target)), effect, &on)
                }
                None => finish(
                    format!("Press {key} where nothing has the focus"),
                    Some("the page may take it as a command".into()),
                    &on,
                ),
            }
        }
        // Reading tools and the gate's own steps are never asked about; if one were, say so plainly.
        other => format!(
            "Use {}{on}? Waymark cannot tell what it would do. Yes or no.",
            crate::mcp::catalogue::name_of(other)
        ),
    }
}

/// The question when the policy saw an effect the control's words do not say: "Click button 'Update':
/// this publishes what it saves (the page says 'published') on blog.example. Yes or no?"
pub fn with_concern(tool: &PageTool, effect: &Effect, concern: &Concern) -> Option<String> {
    let target = effect.target.as_ref()?;
    let verb = match tool {
        PageTool::OverlayAct {
            action: ActKind::Click,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Click,
            ..
        } => "Click",
        PageTool::Press { key, .. } => {
            return Some(finish(
                format!("Press {} on {}", key_name(key), named(target)),
                Some(concern_words(concern)),
                &on_site(effect),
            ))
        }
        _ => return None,
    };
    Some(finish(
        format!("{verb} {}", named(target)),
        Some(concern_words(concern)),
        &on_site(effect),
    ))
}

fn concern_words(concern: &Concern) -> String {
    match concern {
        Concern::Publishes { signal } => format!(
            "this publishes what it saves (the page says '{}')",
            quoted(signal)
        ),
    }
}

/// " on shop.example", or nothing when the page has no host.
fn on_site(effect: &Effect) -> String {
    let site = site_of(&effect.page_url);
    if site.is_empty() {
        String::new()
    } else {
        format!(" on {site}")
    }
}

/// The question for a navigation that would carry words from pages to a site nobody named.
pub fn carries_words(tool: &PageTool, effect: &Effect) -> String {
    let url = match tool {
        PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => url.as_str(),
        _ => effect.page_url.as_str(),
    };
    format!(
        "Open {}? That site was not named by you or by the page, and the address carries words that \
         are not yours, which would be sent to it. Yes or no.",
        address(url)
    )
}

/// "Open … in your pinned tab 1, "Inbox", replacing what it shows?"
pub fn pinned_tab(url: &str, tab: &TabInfo) -> String {
    format!(
        "Open {} in your pinned tab {}, '{}', replacing what it shows? Yes or no.",
        address(url),
        tab.index,
        quoted(&tab.title)
    )
}

/// Opening a second tab on a site another tab shows: the question, and what the asker hears on no.
pub fn second_tab(url: &str, open: &TabInfo) -> (String, Option<String>) {
    let site = site_of(url);
    let question = format!(
        "Tab {}, '{}', already shows {site}. Open {} in a new tab anyway? Say no to use the open tab.",
        open.index,
        quoted(&open.title),
        address(url)
    );
    let on_no = format!(
        "Not done: the user prefers the open tab {} ('{}', {}): switch to it with browser_switch_tab.",
        open.index,
        quoted(&open.title),
        address(&open.url)
    );
    (question, Some(on_no))
}

/// Why an upload cannot happen, when its number is not a file field.
pub fn not_a_file_field(tool: &PageTool, effect: &Effect) -> Option<String> {
    let PageTool::Upload { index, .. } = tool else {
        return None;
    };
    let target = effect.target.as_ref()?;
    (target.input_type.as_deref() != Some("file")).then(|| {
        format!(
            "Number {index} is not a file field (it is {} '{}'): upload into the field that chooses \
             files.",
            target.role,
            quoted(&target.name)
        )
    })
}

/// Asking the user to let an outside MCP client use the browser.
pub fn admit_client(name: &str) -> String {
    format!("{name} wants to use your browser through Waymark. Allow it? Yes or no.")
}

/// What a client the user did not allow hears.
pub fn client_refused(name: &str) -> String {
    format!(
        "Not done: the user did not allow {name} to use this browser. They can allow it after the \
         browser restarts."
    )
}

/// What the asker hears when its question was closed unanswered.
pub fn closed(reason: ClosedReason) -> String {
    match reason {
        ClosedReason::Expired => "Not done: nobody answered the question within 5 minutes.",
        ClosedReason::PageChanged => {
            "Not done: the page changed before the user answered, so the action could no longer do \
             what was asked."
        }
        ClosedReason::Withdrawn => "Not done: the question was withdrawn before the user answered.",
        ClosedReason::Stopped => "Not done: the user stopped the agent before answering.",
    }
    .into()
}

/// "button 'Pay €84.97'", with what it shows when that is not what it is called:
/// "link 'Read more' (it shows 'Delete all mail')".
fn named(target: &ElementInfo) -> String {
    let role = if target.role.is_empty() {
        "element"
    } else {
        target.role.as_str()
    };
    let mut out = format!("{role} '{}'", quoted(&target.name));
    if let Some(shows) = target.text.as_deref() {
        let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        let (name, shown) = (fold(&target.name), fold(shows));
        if !shown.is_empty() && !name.contains(&shown) && !shown.contains(&name) {
            out.push_str(&format!(" (it shows '{}')", quoted(shows)));
        }
    }
    out
}

/// What clicking (or Enter or Space on) the target does beyond itself: where its link goes, or where
/// its form is sent.
fn click_effect(target: &ElementInfo) -> Option<String> {
    if let Some(link) = &target.link {
        let href = link.href.trim();
        let lower = href.to_lowercase();
        if !href.is_empty() && !lower.starts_with("javascript:") && !href.starts_with('#') {
            let tab = if link.new_tab { " in a new tab" } else { "" };
            let download = if link.download { " (a download)" } else { "" };
            return Some(format!("this opens {}{tab}{download}", address(href)));
        }
    }
    target
        .submits
        .as_ref()
        .filter(|s| !s.action.is_empty())
        .map(|s| format!("this sends its form to {}", address(&s.action)))
}

/// What Enter in the field does: sends what it holds, or submits the form through its default button
/// (or presses the button beside it).
fn enter_effect(target: &ElementInfo) -> Option<String> {
    if target.sends_on_enter {
        return Some("this sends what it holds".into());
    }
    let submits = target.submits.as_ref()?;
    Some(match (&submits.submitter, submits.method.is_empty()) {
        (Some(button), true) => format!("this likely presses '{}' beside it", quoted(button)),
        (Some(button), false) => format!("this submits the form '{}'", quoted(button)),
        (None, _) => format!("this submits the form to {}", address(&submits.action)),
    })
}

/// Puts the question together: "Click button 'Pay' on shop.example? Yes or no." or, with what it does,
/// "Press Enter in textbox 'Coupon code': this submits the form 'Place order' on shop.example. Yes or no?"
fn finish(action: String, effect: Option<String>, on: &str) -> String {
    match effect {
        Some(effect) => format!("{action}: {effect}{on}. Yes or no?"),
        None => format!("{action}{on}? Yes or no."),
    }
}

/// Whether the key was aimed by the focus rather than by a number.
fn effect_focused(tool: &PageTool) -> bool {
    matches!(tool, PageTool::Press { index: None, .. })
}

/// "Enter", "Space", "Delete": the key as a person says it.
fn key_name(key: &str) -> String {
    match key.trim().to_lowercase().as_str() {
        "" | "enter" | "return" => "Enter".into(),
        " " | "space" | "spacebar" => "Space".into(),
        "delete" | "del" => "Delete".into(),
        "backspace" => "Backspace".into(),
        "tab" => "Tab".into(),
        "escape" | "esc" => "Escape".into(),
        _ => quoted(key),
    }
}

/// An address as said in a question: one line, no control or bidi characters, shortened.
fn address(url: &str) -> String {
    crate::policy::cleaned(url, 120)
}

/// One tab of `list_tabs`, as far as the tab rules need it.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TabInfo {
    pub index: u32,
    pub title: String,
    pub url: String,
    pub active: bool,
    pub pinned: bool,
    pub tab_id: Option<f64>,
}

/// The host part of a URL ("https://shop.example:8080/a" → "shop.example:8080").
pub fn site_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}
