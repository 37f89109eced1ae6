//! How the panel speaks: which live region each kind of message goes to (the polite log, the
//! assertive alert region, the status line), the transcript kept for sighted helpers, and speaking
//! from behind: a panel tab or Waymark's window behind the window the user is in (an answer key
//! pressed in the page) says what blocks work through the system's speech (`chrome::tts`) instead of
//! coming forward, so the user stays where they were; where the browser has no voice, it comes
//! forward once and says it in its alert region, as before.
//!
//! Must not: word anything (`wording` does), or say the user's own words back.

use super::shortcuts::bring_forward;
use super::{status, Shared};
use crate::{activity, chrome};

/// Adds an entry to the activity view (silent: see `activity`).
pub(super) fn note(panel: &Shared, event: &activity::Event<'_>) {
    let document = panel.borrow().document.clone();
    activity::record(&document, event);
}

/// Adds Waymark's answer to the transcript (announced once by the log region). A new answer makes
/// `/details` speak of it, so the last detail is dropped unless the caller sets one after.
pub(super) fn say(panel: &Shared, text: &str) {
    panel.borrow_mut().detail = None;
    append(panel, "waymark", text, false);
}

/// The outcome of a command: said assertively when it answers a question (the user waits on it, and
/// it must not queue behind anything polite), otherwise politely.
pub(super) fn say_outcome(panel: &Shared, text: &str) {
    let answered = std::mem::take(&mut panel.borrow_mut().awaiting_outcome);
    if answered {
        alert(panel, text);
    } else {
        say(panel, text);
    }
}

/// Says what blocks work through the assertive region, and keeps it in the transcript for sighted
/// helpers, hidden there from screen readers so it is heard once.
pub(super) fn alert(panel: &Shared, text: &str) {
    panel.borrow_mut().detail = None;
    append(panel, "waymark", text, true);
    status::alerted(panel);
    let aloud = panel.borrow().aloud;
    if aloud {
        speak_from_behind(panel, text);
        // An outcome that nothing follows ends it; the agent at work says its resting state after.
        let working = panel.borrow().agent_running;
        if !working {
            panel.borrow_mut().aloud = false;
        }
        return;
    }
    set_alert(panel, text);
}

/// Puts `text` in the assertive region.
fn set_alert(panel: &Shared, text: &str) {
    let p = panel.borrow();
    // A change is what an alert region announces: the same words twice must still be heard twice.
    p.alert.set_text_content(None);
    p.alert.set_text_content(Some(text));
}

/// Says `text` through the system's speech, for a panel behind the window the user is in: after
/// whatever it is saying already, so an outcome and the state after it keep their order. Without a
/// voice the panel comes forward and says it in its alert region, and does so from then on.
pub(super) fn speak_from_behind(panel: &Shared, text: &str) {
    let language = chrome::ui_language();
    let fallback = {
        let panel = panel.clone();
        let text = text.to_owned();
        move || {
            {
                let mut p = panel.borrow_mut();
                p.aloud = false;
                p.no_voice = true;
            }
            wasm_bindgen_futures::spawn_local(async move {
                bring_forward().await;
                set_alert(&panel, &text);
            });
        }
    };
    chrome::tts::speak(text, language.as_deref(), fallback);
}

/// Empties the assertive region (silently), once what it said is over.
pub(super) fn clear_alert(panel: &Shared) {
    panel.borrow().alert.set_text_content(None);
}

/// Adds an entry to the transcript; `unspoken` hides it from screen readers (said elsewhere, or not
/// worth saying).
pub(super) fn append(panel: &Shared, who: &str, text: &str, unspoken: bool) {
    let p = panel.borrow();
    let Ok(item) = p.document.create_element("p") else {
        return;
    };
    item.set_class_name(&format!("msg msg-{who}"));
    if unspoken {
        let _ = item.set_attribute("aria-hidden", "true");
    }
    item.set_text_content(Some(text));
    let _ = p.transcript.append_child(&item);
    item.scroll_into_view_with_bool(false);
}

/// Changes the status line only when its text changes, so a repeated state is not announced again.
pub(super) fn set_status(panel: &Shared, text: &str) {
    let p = panel.borrow();
    if p.status.text_content().as_deref() != Some(text) {
        p.status.set_text_content(Some(text));
    }
}
