//! The panel's questions and their answers: a question waiting for yes or no (a dialog that takes the
//! focus, "No" its next Tab stop), a step handed to the user waiting for "done", and sending what the
//! user answered. Every view of Waymark shows the same questions (the service worker keeps them): one
//! answered in another view is taken away here without a word.
//!
//! Must not: word anything itself (`wording` does), or decide what a question is (the host asks).

use wasm_bindgen::JsCast;
use waymark_protocol::{Answer, ClosedReason, PanelToWorker, Question, RequestId, ToHost};
use web_sys::HtmlElement;

use super::shortcuts::{behind, bring_forward};
use super::speech::{alert, clear_alert, note, say, speak_from_behind};
use super::{status, Shared};
use crate::activity::{self, Answered};
use crate::{chrome, wording};

/// The element that takes the focus while a question waits (`sidepanel.html`).
pub(super) const QUESTION_DIALOG: &str = "question-dialog";

/// Shows a blocking question: a dialog named by the question takes the focus itself, so the question is
/// the first thing the screen reader says (with the focus on "No", Orca 43 said "No, push button"
/// before it). Tab goes to "No", then "Yes"; Enter and Escape in the dialog answer no, so no key answers
/// yes by accident. A panel the user is not in must still be heard: a panel tab or Waymark's window
/// comes forward (the focus moving to the dialog says the question); a side panel, which cannot, says
/// it through the alert region as well. `/details` says its long form while it is shown (which
/// program an outside client is; the full address of the page, which it names only by its site).
pub(super) fn ask_user(panel: &Shared, question: &Question) {
    let (id, text) = (question.id, question.text.as_str());
    note(panel, &activity::Event::Question { manual: false, text });
    status::question_shown(panel);
    let focused = {
        let mut p = panel.borrow_mut();
        p.question = Some(id);
        p.question_detail = question.detail.clone();
        p.asked_for = question
            .request
            .as_ref()
            .map(|request| (id, request.id, request.tool.clone()));
        // Coming forward for it: what follows is said here again.
        p.aloud = false;
        p.question_text.set_text_content(Some(text));
        p.question_box.set_hidden(false);
        if let Some(dialog) = p
            .document
            .get_element_by_id(QUESTION_DIALOG)
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        {
            let _ = dialog.focus();
        }
        p.document.has_focus().unwrap_or(false)
    };
    if focused {
        return;
    }
    let panel = panel.clone();
    let text = text.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        if !bring_forward().await {
            alert(&panel, &text);
        }
    });
}

/// Takes a question away that can no longer be answered (it expired, its page changed, or whoever
/// asked stopped waiting), and says why, in the assertive region.
pub(super) fn question_closed(panel: &Shared, id: RequestId, reason: ClosedReason) {
    let shown = {
        let mut p = panel.borrow_mut();
        let shown = p.question == Some(id) || p.manual == Some(id);
        if shown {
            p.question = None;
            p.question_detail = None;
            p.manual = None;
            p.question_box.set_hidden(true);
            p.question_text.set_text_content(None);
            let _ = p.input.focus();
        }
        shown
    };
    if shown {
        // After a stop, the agent's `stopped` event says it all, once.
        if reason != ClosedReason::Stopped {
            alert(panel, &wording::question_closed(reason));
        }
        note(panel, &activity::Event::Answer(Answered::Withdrawn));
        status::question_gone(panel, false);
    }
}

/// The user answered `id` in another view of Waymark: it is taken away here at once, silently (the
/// outcome is said where they answered), and the focus goes back to the message field.
pub(super) fn answered_elsewhere(panel: &Shared, id: RequestId) {
    let shown = {
        let mut p = panel.borrow_mut();
        let shown = p.question == Some(id) || p.manual == Some(id);
        if p.question == Some(id) {
            p.question = None;
            p.question_detail = None;
            p.question_box.set_hidden(true);
            p.question_text.set_text_content(None);
            let _ = p.input.focus();
        }
        if p.manual == Some(id) {
            p.manual = None;
        }
        shown
    };
    let_request_go(panel, id);
    if shown {
        clear_alert(panel);
        status::question_gone(panel, true);
    }
}

/// Question `id` was answered in another view (or this view's answer to it was refused): the request
/// it held is not this view's to answer any more, even if it asked it.
pub(super) fn let_request_go(panel: &Shared, id: RequestId) {
    let mut p = panel.borrow_mut();
    if let Some((question, request, _)) = &p.asked_for {
        if *question == id {
            let request = *request;
            p.pending.remove(&request);
        }
    }
}

/// Shows a step the agent left to the user: said once by the assertive region; the focus stays in the
/// input, where "done" (or `/done`, or the shortcut) answers it. A panel tab or Waymark's window that
/// is behind says it through the system's speech and stays behind, since the step is the page's (it
/// comes forward where the browser has no voice): an alert region in a background tab is not heard.
pub(super) fn manual_step(panel: &Shared, id: RequestId, text: &str) {
    note(panel, &activity::Event::Question { manual: true, text });
    status::question_shown(panel);
    panel.borrow_mut().manual = Some(id);
    let panel = panel.clone();
    let text = text.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let no_voice = panel.borrow().no_voice;
        if behind().await && !no_voice {
            append_unspoken(&panel, &text);
            speak_from_behind(&panel, &text);
            return;
        }
        bring_forward().await;
        alert(&panel, &text);
    });
}

/// Keeps `text` in the transcript, hidden from screen readers (said another way).
fn append_unspoken(panel: &Shared, text: &str) {
    panel.borrow_mut().detail = None;
    super::speech::append(panel, "waymark", text, true);
}

/// Tells the host the user finished the step left to them; the agent looks at the page and goes on.
pub(super) fn manual_done(panel: &Shared) {
    let question = panel.borrow_mut().manual.take();
    let Some(question) = question else {
        say(panel, &wording::no_manual_step());
        return;
    };
    clear_alert(panel);
    note(panel, &activity::Event::Answer(Answered::Done));
    send_answer(panel, question, true);
}

/// Sends the answer to the pending question and puts the panel back to typing.
pub(super) fn answer(panel: &Shared, yes: bool) {
    let question = {
        let mut p = panel.borrow_mut();
        let question = p.question.take();
        p.question_detail = None;
        p.question_box.set_hidden(true);
        p.question_text.set_text_content(None);
        let _ = p.input.focus();
        question
    };
    let Some(question) = question else {
        say(panel, &wording::nothing_to_answer());
        return;
    };
    note(
        panel,
        &activity::Event::Answer(if yes { Answered::Yes } else { Answered::No }),
    );
    status::question_gone(panel, true);
    // A question another view asked: its outcome is said here, where the user answered.
    let request = panel
        .borrow()
        .asked_for
        .clone()
        .filter(|(asked, _, _)| *asked == question);
    if let Some((_, request, tool)) = request {
        super::adopt(panel, request, tool);
    }
    send_answer(panel, question, yes);
}

/// Sends an answer to the host; its next word is the outcome, said assertively.
pub(super) fn send_answer(panel: &Shared, question: RequestId, yes: bool) {
    let message = PanelToWorker::ToHost {
        message: ToHost::Answer(Answer { question, yes }),
    };
    let sent = panel
        .borrow()
        .worker
        .as_ref()
        .is_some_and(|(port, _)| port.post_message(&chrome::to_js(&message)).is_ok());
    if sent {
        panel.borrow_mut().awaiting_outcome = true;
    } else {
        alert(panel, &wording::worker_reconnecting());
    }
}
