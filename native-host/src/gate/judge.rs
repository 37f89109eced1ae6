//! How a page tool that acts is judged: the policy's decision on what the extension said it would do
//! ([`judge`]), with the question to ask and the tool exactly as it will run. Which road a tool takes
//! through the gate is part of its one description (`PageTool::spec().road`, in `waymark_protocol`),
//! which does not compile until every tool's road is decided.
//!
//! `judge` names every tool that acts, and asks about anything else. What cannot be described is asked
//! about.

use waymark_i18n::Words;
use waymark_protocol::{ActKind, Effect, ElementInfo, PageTool};

use super::question;
use crate::policy::{self, ActionKind, Decision, ProposedAction, Verdict};

/// The gate's verdict on one tool.
pub struct Judged {
    pub decision: Decision,
    /// The tool as it will run: a choice names the option the preview resolved, so exactly the option
    /// judged is chosen.
    pub tool: PageTool,
    /// The question to ask if the decision is to confirm.
    pub question: String,
}

impl Judged {
    /// Turns an allowed action into one to ask about, for `reason`, with `question`.
    pub fn ask(&mut self, reason: String, question: String) {
        self.decision = Decision::new(Verdict::Confirm, reason);
        self.question = question;
    }
}

/// The policy's decision on `tool`, given what the extension said it would do; the question is in
/// the user's language (`words`).
pub fn judge(words: &Words, tool: PageTool, effect: &Effect) -> Judged {
    let target = effect.target.as_ref();
    let (proposed, tool) = match tool {
        PageTool::OverlayAct { index, action, text } => {
            let (proposed, text) = act_proposal(action, text, effect);
            (proposed, PageTool::OverlayAct { index, action, text })
        }
        PageTool::ActByIndex { index, action, text } => {
            let (proposed, text) = act_proposal(action, text, effect);
            (proposed, PageTool::ActByIndex { index, action, text })
        }
        tool @ PageTool::ClickAndWaitDownload { .. } => {
            (on_element(ActionKind::Click, target, None, effect), tool)
        }
        // Judged like typing into the field; an upload is then always asked about (below).
        tool @ PageTool::Upload { .. } => (on_element(ActionKind::Type, target, None, effect), tool),
        PageTool::Press { key, index } => {
            let mut proposed = on_element(ActionKind::Press, target, None, effect);
            proposed.key = Some(key.clone());
            if let Some(keys) = &effect.keys {
                proposed.open_layer = keys.open_layer;
                proposed.shortcut = keys.shortcut.as_ref().map(element_of);
            }
            (proposed, PageTool::Press { key, index })
        }
        tool @ (PageTool::Navigate { .. } | PageTool::OpenInNewTab { .. }) => {
            let url = match &tool {
                PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => url.clone(),
                _ => String::new(),
            };
            let proposed = ProposedAction {
                action: Some(ActionKind::Navigate),
                url: Some(url),
                ..Default::default()
            };
            (proposed, tool)
        }
        // Moving through history or reloading pays, sends or deletes nothing by itself, unless the
        // page it would show came from posting a form: then it posts that form again, and the browser
        // does not ask when an extension reloads a tab.
        tool @ (PageTool::Back | PageTool::Forward | PageTool::Reload) => {
            let decision = match &effect.resends {
                Some(_) => Decision::new(
                    Verdict::Confirm,
                    "the page it shows came from posting a form, which this sends again",
                ),
                None => allow("moving through the tab's history"),
            };
            return Judged {
                decision,
                question: question::ask(words, &tool, effect),
                tool,
            };
        }
        // Reading tools, banners and the gate's own steps never reach here: their road (part of every
        // tool's description, which does not compile without one) sends them elsewhere. Were one to arrive,
        // it could not be described, so it is asked about.
        tool => {
            return Judged {
                decision: Decision::new(Verdict::Confirm, "Waymark cannot tell what this would do"),
                question: question::ask(words, &tool, effect),
                tool,
            };
        }
    };
    let mut decision = policy::classify(&proposed);
    // An upload sends files from this computer to a web site: the user always says yes first, whoever
    // asked (a page could talk a model into sending a private file).
    if matches!(tool, PageTool::Upload { .. }) && decision.decision == Verdict::Allow {
        decision = Decision::new(
            Verdict::Confirm,
            "an upload sends files from this computer to the site",
        );
    }
    let mut question = question::ask(words, &tool, effect);
    if let Some(concern) = &decision.concern {
        question = question::with_concern(words, &tool, effect, concern).unwrap_or(question);
    }
    Judged {
        question,
        decision,
        tool,
    }
}

fn allow(reason: &str) -> Decision {
    Decision::new(Verdict::Allow, reason)
}

/// What `overlay_act` / `act_by_index` propose, and the text they will run with: for a choice, the
/// option the preview resolved (so a part of a label cannot choose a riskier option than was judged).
fn act_proposal(action: ActKind, text: Option<String>, effect: &Effect) -> (ProposedAction, Option<String>) {
    let target = effect.target.as_ref();
    match action {
        ActKind::Click => (on_element(ActionKind::Click, target, None, effect), text),
        ActKind::Type => (
            on_element(ActionKind::Type, target, text.as_deref(), effect),
            text,
        ),
        ActKind::Select => {
            let option = effect.option.as_ref().map(|o| o.label.clone()).or(text);
            (
                on_element(ActionKind::Select, target, option.as_deref(), effect),
                option,
            )
        }
        // A value is a choice among the control's values: judged as choosing it (a secret field's is
        // for the user, a list that sends its form on change is asked about).
        ActKind::Set => (
            on_element(ActionKind::Select, target, text.as_deref(), effect),
            text,
        ),
        // Opening the page's context menu or resting the pointer shows something; what is then chosen
        // in it is judged as its own click. Judged as a key that activates nothing (a captcha is still
        // the user's).
        ActKind::RightClick | ActKind::Hover => {
            let mut proposed = on_element(ActionKind::Press, target, None, effect);
            proposed.key = Some("ContextMenu".into());
            (proposed, text)
        }
    }
}

/// A proposed action of `kind` on the described `target` (none: a key pressed where nothing has the
/// focus), as `waymark-host classify` takes it.
fn on_element(
    kind: ActionKind,
    target: Option<&ElementInfo>,
    text: Option<&str>,
    effect: &Effect,
) -> ProposedAction {
    // In a frame, the tab's own address says whose page it is (a payment provider's frame in a shop).
    let top_url = target
        .filter(|t| t.url != effect.page_url)
        .map(|_| effect.page_url.clone());
    ProposedAction {
        action: Some(kind),
        element: target.map(element_of),
        url: Some(target.map_or(effect.page_url.clone(), |t| t.url.clone())),
        text: text.map(str::to_owned),
        top_url,
        ..ProposedAction::default()
    }
}

/// The classifier's view of a described element.
pub(super) fn element_of(info: &ElementInfo) -> policy::Element {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    policy::Element {
        role: some(&info.role),
        name: some(&info.name),
        tag: some(&info.tag),
        input_type: info.input_type.clone(),
        value: info.value.clone(),
        text_around: some(&info.text_around),
        form: info.form.as_ref().map(|f| policy::FormContext {
            action: some(&f.action),
            method: some(&f.method),
            ..Default::default()
        }),
        autocomplete: info.autocomplete.clone(),
        in_dialog: info.in_dialog,
        id_hints: None,
        text: info.text.clone(),
        label: info.label.clone(),
        title: info.title.clone(),
        href: info.link.as_ref().map(|l| l.href.clone()),
        submits: info.submits.as_ref().map(|s| policy::SubmitContext {
            action: some(&s.action),
            method: some(&s.method),
            submitter: s.submitter.clone(),
            secret: s.secret,
        }),
        context: some(&info.context),
        editable: Some(info.editable),
        sends_on_enter: info.sends_on_enter,
        secret: info.secret,
        multiline: Some(info.multiline),
        asks: info.asks.clone(),
        danger: info.danger,
        opens_dialog: info.opens_dialog,
    }
}
