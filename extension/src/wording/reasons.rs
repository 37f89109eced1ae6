//! What a frame's typed reason ([`PageReason`]) says: the content script has no words of its own, so
//! the service worker says its reasons here, once, where the frame's answer arrives — alone, or as the
//! refusal of a number or an asked-about action whose control changed (with the fresh list). Roles are
//! said as the listing says them. Part of `wording`.

use waymark_i18n::{say, Args, Words};
use waymark_protocol::{ActFailure, PageReason};

use super::language::with_words;
use super::list::role;

/// The values of a sentence about a control: its role as the listing says it, and its name.
#[inline(never)]
fn control<'a>(w: &Words, r: &str, name: &'a str) -> Args<'a> {
    Args::new().with("role", role(w, r)).with("name", name)
}

/// A frame's reason, said alone.
pub fn page_reason(reason: &PageReason) -> String {
    with_words(|w| match reason {
        PageReason::Gone { role: r, name } => w.say("reason-gone", &control(w, r, name)),
        PageReason::Unknown => say!(w, "reason-unknown"),
        PageReason::Changed { role: r, name } => w.say("reason-changed", &control(w, r, name)),
        PageReason::Outdated { role: r, name } => w.say("reason-outdated", &control(w, r, name)),
        PageReason::FocusMoved => say!(w, "reason-focus-moved"),
        PageReason::OtherDocument => say!(w, "reason-other-document"),
        PageReason::NoDocument => say!(w, "reason-no-document"),
        PageReason::NotInFrame => say!(w, "reason-not-in-frame"),
        PageReason::StillMoving => say!(w, "reason-still-moving"),
        PageReason::UnknownKey { key } => say!(w, "reason-unknown-key", key = key.as_str()),
        PageReason::Act {
            number,
            action,
            role: r,
            name,
            failure,
        } => act(w, *number, action.verb(), control(w, r, name), failure),
        PageReason::NotAFileField {
            number,
            role: r,
            name,
        } => w.say(
            "reason-not-a-file-field",
            &control(w, r, name).with("number", *number),
        ),
        PageReason::NoFiles { number } => say!(w, "upload-no-file", index = *number),
        PageReason::OneFileOnly { number, given } => {
            say!(w, "reason-one-file-only", number = *number, given = *given)
        }
        PageReason::FilesNotPut { number, detail } => {
            say!(
                w,
                "reason-files-not-put",
                number = *number,
                detail = detail.as_str()
            )
        }
        PageReason::ScriptFailed { detail } => say!(w, "reason-script-failed", detail = detail.as_str()),
    })
}

/// An action on control `number` (`control`: its role and name) that could not be done; `action` is
/// `click`, `type` or `select`, which the sentences choose their verb by.
fn act(w: &Words, number: u32, action: &str, control: Args, failure: &ActFailure) -> String {
    // The values every one of these sentences has, then the failure's own.
    let args = control.with("number", number).with("action", action);
    match failure {
        ActFailure::NotClickable => w.say("reason-not-clickable", &args),
        ActFailure::NotTextField => w.say("reason-not-text-field", &args),
        ActFailure::NotAList => w.say("reason-not-a-list", &args),
        ActFailure::OffScreen => w.say("reason-off-screen", &args),
        ActFailure::Covered { text: Some(text), .. } => {
            w.say("reason-covered", &args.with("cover", text.as_str()))
        }
        ActFailure::Covered { tag, .. } => w.say("reason-covered-element", &args.with("tag", tag.as_str())),
        ActFailure::Detached => w.say("reason-detached", &args),
        ActFailure::Script { detail } => w.say("reason-act-script", &args.with("detail", detail.as_str())),
        ActFailure::NoSuchOption { wanted, options } => w.say(
            "reason-no-option",
            &args
                .with("wanted", wanted.as_str())
                .with("options", options.join(", ")),
        ),
        ActFailure::SeveralOptions { wanted, options } => w.say(
            "reason-several-options",
            &args
                .with("wanted", wanted.as_str())
                .with("options", options.join(", ")),
        ),
        ActFailure::PartOfOption { wanted, option } => w.say(
            "reason-part-of-option",
            &args
                .with("wanted", wanted.as_str())
                .with("option", option.as_str()),
        ),
        ActFailure::NoOptionsOpened { wanted } => {
            w.say("reason-no-options-opened", &args.with("wanted", wanted.as_str()))
        }
        ActFailure::NoValue => w.say("reason-no-value", &args),
        ActFailure::ValueNotTaken { value } => {
            w.say("reason-value-not-taken", &args.with("value", value.as_str()))
        }
    }
}

/// Number `index` no longer names what it named (`reason`, the frame's account): the numbers were
/// renewed and nothing was done.
pub fn stale(index: u32, reason: Option<&PageReason>) -> String {
    with_words(|w| match reason {
        Some(PageReason::Gone { role: r, name }) => {
            w.say("number-gone", &control(w, r, name).with("index", index))
        }
        Some(PageReason::Changed { role: r, name }) => {
            w.say("number-changed", &control(w, r, name).with("index", index))
        }
        Some(PageReason::Outdated { role: r, name }) => {
            w.say("number-outdated", &control(w, r, name).with("index", index))
        }
        _ => say!(w, "number-stale", index = index),
    })
}

/// A pinned action whose control went or changed since it was judged (`reason`, the frame's account).
pub fn pinned_gone(reason: Option<&PageReason>) -> String {
    with_words(|w| match reason {
        Some(PageReason::Gone { role: r, name }) => w.say("pinned-gone", &control(w, r, name)),
        Some(PageReason::Changed { role: r, name }) => w.say("pinned-changed", &control(w, r, name)),
        Some(PageReason::FocusMoved) => say!(w, "pinned-focus-moved"),
        _ => say!(w, "pinned-stale"),
    })
}

#[cfg(test)]
mod tests;
