//! The words of the gate: each question says what will happen, in the user's terms and language — the
//! action, the control as a screen reader names it (and what it shows, when that differs), the item it
//! acts on (its row, list item, card or heading), what the form does or where the link goes, the words
//! of the page's own question it answers, and the site: "Press Enter in textbox 'Coupon code': this
//! submits the form 'Place order (€84.97)' on shop.example. Yes or no?", "Click button 'Delete' for
//! 'Quarterly report' (row 3 of 'Inbox') on mail.example?" — and the sentences the asker
//! hears when nothing was done, or when the page changed before the yes. Every sentence is a message of `questions.ftl`, said with [`Words`]; the order of
//! its parts is the catalogue's, not the code's.
//!
//! Page text is always quoted and passed through [`crate::policy::quoted`] (control, bidi and invisible
//! characters out, short), so a page cannot forge Waymark's own sentences in the alert voice. Nothing
//! here decides anything.

use waymark_i18n::{say, Words};
use waymark_protocol::{ActKind, ClosedReason, Effect, ElementInfo, Item, ItemKind, PageTool};

use super::consent::Client;
use super::provenance::{Carrier, Leaving};
use crate::policy::{quoted, quoted_at_most, Concern};

/// How much of the page's own question a question quotes: a long notice is shortened (its start and
/// its end, where the question usually is), never dropped.
const ASKS_QUOTE_MAX: usize = 160;

/// What the asker hears when the user says no.
pub fn said_no(words: &Words) -> String {
    say!(words, "question-said-no")
}

/// The question for a page tool, from what the extension said it would do.
pub fn ask(words: &Words, tool: &PageTool, effect: &Effect) -> String {
    let site = &site_said(words, effect);
    let target = effect.target.as_ref();
    let plain = |action: String| finish(words, action, None, site);
    match tool {
        PageTool::Navigate { url } => say!(words, "question-open", address = address(url)),
        PageTool::OpenInNewTab { url } => say!(words, "question-open-tab", address = address(url)),
        PageTool::Back | PageTool::Forward | PageTool::Reload => {
            let action = match tool {
                PageTool::Back => say!(words, "question-action-back"),
                PageTool::Forward => say!(words, "question-action-forward"),
                _ => say!(words, "question-action-reload"),
            };
            // The browser asks before it posts a form again, but not when an extension reloads.
            let again = effect
                .resends
                .as_deref()
                .map(|url| say!(words, "question-effect-resends", address = address(url)));
            finish(words, action, again, site)
        }
        PageTool::OverlayAct { action, text, .. } | PageTool::ActByIndex { action, text, .. } => {
            let Some(target) = target else {
                return if site.is_empty() {
                    say!(words, "question-act-unknown")
                } else {
                    say!(words, "question-act-unknown-on", site = site)
                };
            };
            let named = named(words, target);
            match action {
                ActKind::Click => finish(
                    words,
                    say!(words, "question-action-click", target = named),
                    both(words, click_effect(words, target), answers(words, target, false)),
                    site,
                ),
                ActKind::Type if text.as_deref().is_some_and(|t| t.contains(['\n', '\r'])) => finish(
                    words,
                    say!(words, "question-action-type-enter", target = named),
                    enter_effect(words, target),
                    site,
                ),
                ActKind::Type => plain(say!(words, "question-action-type", target = named)),
                ActKind::RightClick => plain(say!(words, "question-action-right-click", target = named)),
                ActKind::Hover => plain(say!(words, "question-action-hover", target = named)),
                ActKind::Set => plain(say!(
                    words,
                    "question-action-set",
                    target = named,
                    value = quoted(text.as_deref().unwrap_or_default())
                )),
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
                        .then(|| say!(words, "question-effect-acts-on-choice"));
                    let action = say!(
                        words,
                        "question-action-choose",
                        option = quoted(option),
                        target = named
                    );
                    finish(words, action, acts, site)
                }
            }
        }
        PageTool::ClickAndWaitDownload { .. } => match target {
            Some(target) => plain(say!(
                words,
                "question-action-download",
                target = named(words, target)
            )),
            None if site.is_empty() => say!(words, "question-download"),
            None => say!(words, "question-download-on", site = site),
        },
        PageTool::Upload { paths, .. } => {
            let names: Vec<String> = paths
                .iter()
                .map(|p| quoted(p.rsplit(['/', '\\']).next().unwrap_or(p)))
                .collect();
            let files = names.join(", ");
            plain(match target {
                Some(target) => say!(
                    words,
                    "question-action-upload",
                    files = files,
                    target = named(words, target)
                ),
                None => say!(words, "question-action-upload-page", files = files),
            })
        }
        PageTool::Press { key, .. } => {
            let key = Key::of(key);
            let said = key.said(words);
            match target {
                Some(target) if target.editable => finish(
                    words,
                    say!(
                        words,
                        "question-action-press-in",
                        key = said,
                        target = named(words, target)
                    ),
                    enter_effect(words, target).filter(|_| key == Key::Enter),
                    site,
                ),
                Some(target) => {
                    let effect = match key {
                        Key::Delete | Key::Backspace => Some(say!(words, "question-effect-may-delete")),
                        Key::Enter | Key::Space => {
                            both(words, click_effect(words, target), answers(words, target, false))
                        }
                        _ => Some(say!(words, "question-effect-may-command")),
                    };
                    let named = named(words, target);
                    let action = if effect_focused(tool) {
                        say!(words, "question-action-press-focused", key = said, target = named)
                    } else {
                        say!(words, "question-action-press-on", key = said, target = named)
                    };
                    finish(words, action, effect, site)
                }
                None => finish(
                    words,
                    say!(words, "question-action-press-nowhere", key = said),
                    Some(say!(words, "question-effect-may-command")),
                    site,
                ),
            }
        }
        // Reading tools and the gate's own steps are never asked about; if one were, say so plainly.
        other => {
            let tool = other.mcp_name();
            if site.is_empty() {
                say!(words, "question-use-unknown", tool = tool)
            } else {
                say!(words, "question-use-unknown-on", tool = tool, site = site)
            }
        }
    }
}

/// The question when the policy saw an effect the control's words do not say: "Click button 'Update':
/// this publishes what it saves (the page says 'published') on blog.example. Yes or no?", "Click button
/// 'OK': this answers the page's question 'Delete your account permanently?' on example.com. Yes or
/// no?"
pub fn with_concern(words: &Words, tool: &PageTool, effect: &Effect, concern: &Concern) -> Option<String> {
    let info = effect.target.as_ref()?;
    let target = named(words, info);
    let action = match tool {
        PageTool::OverlayAct {
            action: ActKind::Click,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Click,
            ..
        } => say!(words, "question-action-click", target = target),
        PageTool::Press { key, .. } if effect_focused(tool) => say!(
            words,
            "question-action-press-focused",
            key = Key::of(key).said(words),
            target = target
        ),
        PageTool::Press { key, .. } => say!(
            words,
            "question-action-press-on",
            key = Key::of(key).said(words),
            target = target
        ),
        _ => return None,
    };
    let concern = match concern {
        Concern::Publishes { signal } => {
            say!(words, "question-effect-publishes", signal = quoted(signal))
        }
        Concern::Answers => both(words, click_effect(words, info), answers(words, info, true))?,
        Concern::PageCommand => say!(words, "question-effect-may-command"),
    };
    Some(finish(words, action, Some(concern), &site_said(words, effect)))
}

/// The question for data that would leave for a site outside the task's origins: what would leave
/// (the words that are not the user's) and where (the host), with the action that sends it. "Type into
/// text field 'Message' on mail.example? What is typed there goes to chat.example, which you have not
/// named: words that are not yours ('tangerine osprey 4471'). Yes or no."
pub fn data_leaves(words: &Words, tool: &PageTool, effect: &Effect, leaving: &Leaving) -> String {
    let carried = quoted(&leaving.words);
    let host = leaving.host.as_str();
    if leaving.carrier == Carrier::Address {
        let url = match tool {
            PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => url.as_str(),
            _ => effect.page_url.as_str(),
        };
        return say!(
            words,
            "question-leaves-open",
            address = address(url),
            words = carried,
            host = host
        );
    }
    let Some(target) = effect.target.as_ref() else {
        return ask(words, tool, effect);
    };
    let target_named = named(words, target);
    let action = match tool {
        PageTool::OverlayAct {
            action: ActKind::Type,
            text,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Type,
            text,
            ..
        } => {
            if text.as_deref().is_some_and(|t| t.contains(['\n', '\r'])) {
                say!(words, "question-action-type-enter", target = target_named)
            } else {
                say!(words, "question-action-type", target = target_named)
            }
        }
        PageTool::Press { key, .. } => say!(
            words,
            "question-action-press-on",
            key = Key::of(key).said(words),
            target = target_named
        ),
        _ => say!(words, "question-action-click", target = target_named),
    };
    let site = site_of(&effect.page_url);
    match leaving.carrier {
        Carrier::Typing => say!(
            words,
            "question-leaves-typing",
            action = action,
            site = site,
            host = host,
            words = carried
        ),
        Carrier::Address | Carrier::Form => say!(
            words,
            "question-leaves-form",
            action = action,
            site = site,
            host = host,
            words = carried
        ),
    }
}

/// "Open … in your pinned tab 1, 'Inbox', replacing what it shows?"
pub fn pinned_tab(words: &Words, url: &str, tab: &TabInfo) -> String {
    say!(
        words,
        "question-pinned-tab",
        address = address(url),
        tab = tab.index,
        title = quoted(&tab.title)
    )
}

/// Opening a second tab on a site another tab shows: the question, and what the asker hears on no.
pub fn second_tab(words: &Words, url: &str, open: &TabInfo) -> (String, Option<String>) {
    let question = say!(
        words,
        "question-second-tab",
        tab = open.index,
        title = quoted(&open.title),
        site = site_of(url),
        address = address(url)
    );
    let on_no = say!(
        words,
        "question-second-tab-no",
        tab = open.index,
        title = quoted(&open.title),
        open = address(&open.url)
    );
    (question, Some(on_no))
}

/// Why an upload cannot happen, when its number is not a file field.
pub fn not_a_file_field(words: &Words, tool: &PageTool, effect: &Effect) -> Option<String> {
    let PageTool::Upload { index, .. } = tool else {
        return None;
    };
    let target = effect.target.as_ref()?;
    (target.input_type.as_deref() != Some("file")).then(|| {
        say!(
            words,
            "question-not-a-file-field",
            index = *index,
            role = role(words, &target.role),
            name = quoted(&target.name)
        )
    })
}

/// Asking the user to let an outside MCP client use the browser: the name it gives, beside the
/// program it is (short, for listening), and the long form for `/details` (the full path and user).
pub fn admit_client(words: &Words, client: &Client) -> (String, String) {
    let name = client.said.as_str();
    let program = &client.program;
    if !program.known() {
        return (
            say!(words, "question-admit-unknown-client", client = name),
            say!(words, "question-client-detail-unknown", client = name),
        );
    }
    let short = crate::policy::cleaned(&program.short, 80);
    let path = crate::policy::cleaned(&program.full, 400);
    let question = say!(words, "question-admit-client", client = name, program = short);
    let detail = match &program.user {
        Some(user) => say!(
            words,
            "question-client-detail",
            client = name,
            path = path,
            user = crate::policy::cleaned(user, 60)
        ),
        None => say!(
            words,
            "question-client-detail-no-user",
            client = name,
            path = path
        ),
    };
    (question, detail)
}

/// A client's name with its program beside it, for telling apart two programs that give one name.
pub fn client_with_program(words: &Words, client: &Client) -> String {
    let name = client.said.as_str();
    if client.program.known() {
        let short = crate::policy::cleaned(&client.program.short, 80);
        say!(words, "question-client-program", client = name, program = short)
    } else {
        say!(words, "question-client-unidentified", client = name)
    }
}

/// A question an outside client's action asks, naming the client.
pub fn client_asks(words: &Words, client: &str, question: &str) -> String {
    say!(
        words,
        "question-client-asks",
        client = client,
        question = question
    )
}

/// What a client the user did not allow hears.
pub fn client_refused(words: &Words, name: &str) -> String {
    say!(words, "question-client-refused", client = name)
}

/// What the asker hears when its question was closed unanswered.
pub fn closed(words: &Words, reason: ClosedReason) -> String {
    match reason {
        ClosedReason::Expired => say!(words, "question-unanswered-expired"),
        ClosedReason::PageChanged => say!(words, "question-unanswered-page-changed"),
        ClosedReason::Withdrawn => say!(words, "question-unanswered-withdrawn"),
        ClosedReason::Stopped => say!(words, "question-unanswered-stopped"),
    }
}

/// A control's role as screen readers say it in the user's language (`role-*` messages), or as the
/// page gave it when the catalogue has no name for it.
fn role(words: &Words, role: &str) -> String {
    if role.is_empty() {
        return say!(words, "question-element");
    }
    let id = format!("role-{}", role.to_lowercase());
    if words.has(&id) {
        words.say(&id, &waymark_i18n::Args::new())
    } else {
        quoted(role)
    }
}

/// "button 'Pay €84.97'", with what it shows when that is not what it is called ("link 'Read more' (it
/// shows 'Delete all mail')") and the item it acts on ("button 'Delete' for 'Quarterly report' (row 3
/// of 'Inbox')").
pub(super) fn named(words: &Words, target: &ElementInfo) -> String {
    let control = control(words, target);
    match &target.item {
        Some(item) => of_item(words, control, item),
        None => control,
    }
}

/// The control followed by the item it acts on.
fn of_item(words: &Words, target: String, item: &Item) -> String {
    let name = quoted(&item.name);
    let place = match (item.kind, item.position, item.of.as_deref().map(quoted)) {
        (ItemKind::Row, Some(position), Some(of)) => {
            Some(say!(words, "question-where-row-of", position = position, of = of))
        }
        (ItemKind::Row, Some(position), None) => Some(say!(words, "question-where-row", position = position)),
        (ItemKind::ListItem, Some(position), Some(of)) => Some(say!(
            words,
            "question-where-item-of",
            position = position,
            of = of
        )),
        (ItemKind::ListItem, Some(position), None) => {
            Some(say!(words, "question-where-item", position = position))
        }
        _ => None,
    };
    match (item.kind, place) {
        (ItemKind::Heading, _) => say!(words, "question-target-under", target = target, item = name),
        (_, Some(place)) => say!(
            words,
            "question-target-for-at",
            target = target,
            item = name,
            place = place
        ),
        (_, None) => say!(words, "question-target-for", target = target, item = name),
    }
}

/// The words of the page's own question the control answers, when the page asks it: in a dialog, or
/// asking with a question mark — or always when the policy's concern is that question (`concerned`).
fn answers(words: &Words, target: &ElementInfo, concerned: bool) -> Option<String> {
    let asks = target.asks.as_deref()?.trim();
    let asking = target.in_dialog || asks.contains(['?', '？', '؟']);
    (!asks.is_empty() && (asking || concerned)).then(|| {
        say!(
            words,
            "question-effect-answers",
            asks = quoted_at_most(asks, ASKS_QUOTE_MAX)
        )
    })
}

/// Two things a control does, said together.
fn both(words: &Words, first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(first), Some(second)) => Some(say!(words, "question-effects", first = first, second = second)),
        (one, other) => one.or(other),
    }
}

/// The control alone: "button 'Pay €84.97'", or "link 'Read more' (it shows 'Delete all mail')".
fn control(words: &Words, target: &ElementInfo) -> String {
    let role = role(words, &target.role);
    let name = quoted(&target.name);
    if let Some(shows) = target.text.as_deref() {
        let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        let (folded, shown) = (fold(&target.name), fold(shows));
        if !shown.is_empty() && !folded.contains(&shown) && !shown.contains(&folded) {
            return say!(
                words,
                "question-target-shows",
                role = role,
                name = name,
                shows = quoted(shows)
            );
        }
    }
    say!(words, "question-target", role = role, name = name)
}

/// What clicking (or Enter or Space on) the target does beyond itself: where its link goes, or where
/// its form is sent.
fn click_effect(words: &Words, target: &ElementInfo) -> Option<String> {
    if let Some(link) = &target.link {
        let href = link.href.trim();
        let lower = href.to_lowercase();
        if !href.is_empty() && !lower.starts_with("javascript:") && !href.starts_with('#') {
            let address = address(href);
            return Some(match (link.new_tab, link.download) {
                (false, false) => say!(words, "question-effect-opens", address = address),
                (true, false) => say!(words, "question-effect-opens-tab", address = address),
                (false, true) => say!(words, "question-effect-opens-download", address = address),
                (true, true) => say!(words, "question-effect-opens-tab-download", address = address),
            });
        }
    }
    target
        .submits
        .as_ref()
        .filter(|s| !s.action.is_empty())
        .map(|s| say!(words, "question-effect-sends-form", address = address(&s.action)))
}

/// What Enter in the field does: sends what it holds, or submits the form through its default button
/// (or presses the button beside it).
fn enter_effect(words: &Words, target: &ElementInfo) -> Option<String> {
    if target.sends_on_enter {
        return Some(say!(words, "question-effect-sends-field"));
    }
    let submits = target.submits.as_ref()?;
    Some(match (&submits.submitter, submits.method.is_empty()) {
        (Some(button), true) => say!(words, "question-effect-presses-beside", button = quoted(button)),
        (Some(button), false) => say!(words, "question-effect-submits-named", button = quoted(button)),
        (None, _) => say!(
            words,
            "question-effect-submits-to",
            address = address(&submits.action)
        ),
    })
}

/// Puts the question together: "Click button 'Pay' on shop.example?" or, with what it does,
/// "Press Enter in textbox 'Coupon code': this submits the form 'Place order' on shop.example. Yes or no?"
fn finish(words: &Words, action: String, effect: Option<String>, site: &str) -> String {
    match (effect, site.is_empty()) {
        (None, true) => say!(words, "question-do", action = action),
        (None, false) => say!(words, "question-do-on", action = action, site = site),
        (Some(effect), true) => say!(words, "question-do-effect", action = action, effect = effect),
        (Some(effect), false) => say!(
            words,
            "question-do-effect-on",
            action = action,
            effect = effect,
            site = site
        ),
    }
}

/// Whether the key was aimed by the focus rather than by a number.
fn effect_focused(tool: &PageTool) -> bool {
    matches!(tool, PageTool::Press { index: None, .. })
}

/// A key the gate names: the ones a person knows by name, or any other as the caller wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Enter,
    Space,
    Delete,
    Backspace,
    Tab,
    Escape,
    Other(String),
}

impl Key {
    fn of(key: &str) -> Self {
        match key.trim().to_lowercase().as_str() {
            "" | "enter" | "return" => Key::Enter,
            " " | "space" | "spacebar" => Key::Space,
            "delete" | "del" => Key::Delete,
            "backspace" => Key::Backspace,
            "tab" => Key::Tab,
            "escape" | "esc" => Key::Escape,
            _ => Key::Other(quoted(key)),
        }
    }

    /// "Enter", "Space": the key as a person says it in the user's language.
    fn said(&self, words: &Words) -> String {
        match self {
            Key::Enter => say!(words, "question-key-enter"),
            Key::Space => say!(words, "question-key-space"),
            Key::Delete => say!(words, "question-key-delete"),
            Key::Backspace => say!(words, "question-key-backspace"),
            Key::Tab => say!(words, "question-key-tab"),
            Key::Escape => say!(words, "question-key-escape"),
            Key::Other(key) => key.clone(),
        }
    }
}

/// An address as said in a question: one line, no control or bidi characters, shortened.
pub(super) fn address(url: &str) -> String {
    crate::policy::cleaned(url, 120)
}

#[cfg(test)]
mod tests;

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

/// The site of a question's page as a listener hears it: the host name alone (no port, no "www."),
/// "localhost" for any loopback address, and the name the page gives its site after it when that name
/// says more than the host name: "shop.example ('Example Shop')". The host name always comes first,
/// since a page may call itself anything. Empty for a page without a host (a file). The full address
/// is the question's `address`, said on `/details`.
fn site_said(words: &Words, effect: &Effect) -> String {
    let host = host_name(&effect.page_url);
    if host.is_empty() {
        return host;
    }
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    match effect.site_name.as_deref().map(quoted) {
        Some(name) if !fold(&name).is_empty() && !fold(&host).contains(&fold(&name)) => {
            say!(words, "question-site-named", host = host, name = name)
        }
        _ => host,
    }
}

/// The host name of a URL, as a person says it: lower case, without user, port or a leading "www.",
/// and "localhost" for every loopback address ("http://127.0.0.1:40227/" would otherwise be read
/// digit by digit).
fn host_name(url: &str) -> String {
    let site = site_of(url);
    let host = site.rsplit_once('@').map_or(site, |(_, h)| h);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    let host = host.trim_end_matches('.').to_lowercase();
    let loopback = host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if loopback {
        return "localhost".to_owned();
    }
    let host = host.strip_prefix("www.").unwrap_or(&host);
    crate::policy::cleaned(host, 80)
}

/// What `/details` says while a question about a page is shown: the page's full address, which the
/// question names only by its site.
pub fn page_detail(words: &Words, effect: &Effect) -> Option<String> {
    let url = effect.page_url.trim();
    (!url.is_empty()).then(|| say!(words, "question-detail-page", address = address(url)))
}

/// The host part of a URL ("https://shop.example:8080/a" → "shop.example:8080").
pub fn site_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}
