//! Why a frame could not do what was asked, as its content script knows it: typed, with the values a
//! sentence needs (the control's number, role and name, the key, what covers the control, the options
//! of a list, the page script's own error text), never in words.
//!
//! The content script has no message catalogue: its wasm stays small, and no locale file is exposed to
//! pages (which could then tell that a user runs Waymark). The service worker says each reason once,
//! in the user's language, where the frame's answer arrives (`ToolResult::error`), so the panel, the
//! model and MCP clients hear one sentence, and code keeps the typed reason (`ToolResult::reason`).
//!
//! On the wire a reason is one flat object: `reason` names the variant (and `failure` an action's
//! failure), its values stand beside it. It is read and written through a JSON value by the plain
//! code below rather than by serde's derived tagged enums, which cost the extension's wasm (under a
//! size budget) tens of kilobytes for every message type a result travels in.
//!
//! Data only: no words here, and nothing decides by a reason's variant what to do next (that is the
//! result's `ErrorKind`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::tools::ActKind;

/// Why a frame refused or failed a tool. `role` and `name` are the control's as the listing gave them
/// (an ARIA role such as `button`, and its accessible name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageReason {
    /// The control a number or the gate's pin named is no longer on the page.
    Gone { role: String, name: String },
    /// The number or pin names nothing this frame knows any more.
    Unknown,
    /// The control shows something else than when it was numbered (or judged).
    Changed { role: String, name: String },
    /// The number comes from an older list: the page changed a lot since.
    Outdated { role: String, name: String },
    /// A key judged as reaching no control would now reach the control that has the focus.
    FocusMoved,
    /// The frame shows another document than the one the action was judged on.
    OtherDocument,
    /// The frame has no document (or none with a body, for a key pressed where the focus is).
    NoDocument,
    /// The tool is run by the service worker (or the gate), not in a frame.
    NotInFrame,
    /// The page kept moving (a scroll that did not end), so its secret fields could not be covered
    /// where a picture would show them.
    StillMoving,
    /// A key Waymark does not know how to press.
    UnknownKey { key: String },
    /// `action` on the control with this (tab-wide) number could not be done.
    Act {
        number: u32,
        action: ActKind,
        role: String,
        name: String,
        failure: ActFailure,
    },
    /// An upload into a control that is not a file field.
    NotAFileField { number: u32, role: String, name: String },
    /// An upload that brought no file.
    NoFiles { number: u32 },
    /// Several files for a field that takes one.
    OneFileOnly { number: u32, given: u32 },
    /// The page's file list could not be made or set: the page script's error text.
    FilesNotPut { number: u32, detail: String },
    /// Waymark's script in the page failed while answering: what was thrown (the browser's or the
    /// page's words, or a panic's message).
    ScriptFailed { detail: String },
}

/// Why an action on a control ([`PageReason::Act`]) could not be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActFailure {
    /// The element cannot be clicked (it is no HTML element).
    NotClickable,
    /// Text was to be typed into a control that takes none (a checkbox, a button).
    NotTextField,
    /// An option was to be chosen in a control that is no list of options.
    NotAList,
    /// The control is not on screen, even after scrolling to it.
    OffScreen,
    /// Something else is drawn over the control: its tag name, and its words when it has any.
    Covered { text: Option<String>, tag: String },
    /// No option has these words; `options` are the list's labels.
    NoSuchOption { wanted: String, options: Vec<String> },
    /// Several options contain these words.
    SeveralOptions { wanted: String, options: Vec<String> },
    /// The words are a part of one option's label, which a custom list must be given whole.
    PartOfOption { wanted: String, option: String },
    /// Clicking the list opened no options.
    NoOptionsOpened { wanted: String },
    /// The control is no longer in a document.
    Detached,
    /// An event could not be made or sent: the browser's error text.
    Script { detail: String },
    /// A value was to be set on a control that holds none (a button, a checkbox).
    NoValue,
    /// The control did not take this value (not a number it can show, or its keys changed nothing).
    ValueNotTaken { value: String },
}

impl Serialize for PageReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Value::Object(self.to_map()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PageReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        PageReason::from_value(&value).map_err(serde::de::Error::custom)
    }
}

impl PageReason {
    /// The reason as its wire object.
    fn to_map(&self) -> Map<String, Value> {
        let mut map = Map::new();
        let mut put = |key: &str, value: Value| {
            map.insert(key.to_owned(), value);
        };
        let text = |t: &str| Value::String(t.to_owned());
        let mut control = |role: &str, name: &str| {
            put("role", text(role));
            put("name", text(name));
        };
        let why = match self {
            PageReason::Gone { role, name } => {
                control(role, name);
                "gone"
            }
            PageReason::Unknown => "unknown",
            PageReason::Changed { role, name } => {
                control(role, name);
                "changed"
            }
            PageReason::Outdated { role, name } => {
                control(role, name);
                "outdated"
            }
            PageReason::FocusMoved => "focus_moved",
            PageReason::OtherDocument => "other_document",
            PageReason::NoDocument => "no_document",
            PageReason::NotInFrame => "not_in_frame",
            PageReason::StillMoving => "still_moving",
            PageReason::UnknownKey { key } => {
                put("key", text(key));
                "unknown_key"
            }
            PageReason::Act {
                number,
                action,
                role,
                name,
                failure,
            } => {
                control(role, name);
                put("number", Value::from(*number));
                put("action", text(action.verb()));
                let list = |options: &[String]| Value::from(options.to_vec());
                let failure = match failure {
                    ActFailure::NotClickable => "not_clickable",
                    ActFailure::NotTextField => "not_text_field",
                    ActFailure::NotAList => "not_a_list",
                    ActFailure::OffScreen => "off_screen",
                    ActFailure::Covered { text: words, tag } => {
                        if let Some(words) = words {
                            put("text", text(words));
                        }
                        put("tag", text(tag));
                        "covered"
                    }
                    ActFailure::NoSuchOption { wanted, options } => {
                        put("wanted", text(wanted));
                        put("options", list(options));
                        "no_such_option"
                    }
                    ActFailure::SeveralOptions { wanted, options } => {
                        put("wanted", text(wanted));
                        put("options", list(options));
                        "several_options"
                    }
                    ActFailure::PartOfOption { wanted, option } => {
                        put("wanted", text(wanted));
                        put("option", text(option));
                        "part_of_option"
                    }
                    ActFailure::NoOptionsOpened { wanted } => {
                        put("wanted", text(wanted));
                        "no_options_opened"
                    }
                    ActFailure::Detached => "detached",
                    ActFailure::Script { detail } => {
                        put("detail", text(detail));
                        "script"
                    }
                    ActFailure::NoValue => "no_value",
                    ActFailure::ValueNotTaken { value } => {
                        put("value", text(value));
                        "value_not_taken"
                    }
                };
                put("failure", text(failure));
                "act"
            }
            PageReason::NotAFileField { number, role, name } => {
                control(role, name);
                put("number", Value::from(*number));
                "not_a_file_field"
            }
            PageReason::NoFiles { number } => {
                put("number", Value::from(*number));
                "no_files"
            }
            PageReason::OneFileOnly { number, given } => {
                put("number", Value::from(*number));
                put("given", Value::from(*given));
                "one_file_only"
            }
            PageReason::FilesNotPut { number, detail } => {
                put("number", Value::from(*number));
                put("detail", text(detail));
                "files_not_put"
            }
            PageReason::ScriptFailed { detail } => {
                put("detail", text(detail));
                "script_failed"
            }
        };
        put("reason", text(why));
        map
    }

    /// The reason a wire object says; `Err` when it names no reason Waymark knows, or lacks a value.
    pub(crate) fn from_value(value: &Value) -> Result<Self, String> {
        let why = text_of(value, "reason").unwrap_or_default();
        Self::read(value, &why).ok_or_else(|| format!("`{why}`: no such reason, or a value of it is missing"))
    }

    /// The variant `why` with its values from `value`, if it has them all.
    fn read(value: &Value, why: &str) -> Option<Self> {
        let text = |key: &str| text_of(value, key);
        let number = || number_of(value, "number");
        let (role, name) = (|| text("role"), || text("name"));
        let options = || list_of(value, "options");
        Some(match why {
            "gone" => PageReason::Gone {
                role: role()?,
                name: name()?,
            },
            "unknown" => PageReason::Unknown,
            "changed" => PageReason::Changed {
                role: role()?,
                name: name()?,
            },
            "outdated" => PageReason::Outdated {
                role: role()?,
                name: name()?,
            },
            "focus_moved" => PageReason::FocusMoved,
            "other_document" => PageReason::OtherDocument,
            "no_document" => PageReason::NoDocument,
            "not_in_frame" => PageReason::NotInFrame,
            "still_moving" => PageReason::StillMoving,
            "unknown_key" => PageReason::UnknownKey { key: text("key")? },
            "act" => {
                let action = text("action")?;
                let action = ActKind::ALL.into_iter().find(|a| a.verb() == action)?;
                let failure = match text("failure")?.as_str() {
                    "not_clickable" => ActFailure::NotClickable,
                    "not_text_field" => ActFailure::NotTextField,
                    "not_a_list" => ActFailure::NotAList,
                    "off_screen" => ActFailure::OffScreen,
                    "covered" => ActFailure::Covered {
                        text: text("text"),
                        tag: text("tag")?,
                    },
                    "no_such_option" => ActFailure::NoSuchOption {
                        wanted: text("wanted")?,
                        options: options()?,
                    },
                    "several_options" => ActFailure::SeveralOptions {
                        wanted: text("wanted")?,
                        options: options()?,
                    },
                    "part_of_option" => ActFailure::PartOfOption {
                        wanted: text("wanted")?,
                        option: text("option")?,
                    },
                    "no_options_opened" => ActFailure::NoOptionsOpened {
                        wanted: text("wanted")?,
                    },
                    "detached" => ActFailure::Detached,
                    "script" => ActFailure::Script {
                        detail: text("detail")?,
                    },
                    "no_value" => ActFailure::NoValue,
                    "value_not_taken" => ActFailure::ValueNotTaken {
                        value: text("value")?,
                    },
                    _ => return None,
                };
                PageReason::Act {
                    number: number()?,
                    action,
                    role: role()?,
                    name: name()?,
                    failure,
                }
            }
            "not_a_file_field" => PageReason::NotAFileField {
                number: number()?,
                role: role()?,
                name: name()?,
            },
            "no_files" => PageReason::NoFiles { number: number()? },
            "one_file_only" => PageReason::OneFileOnly {
                number: number()?,
                given: number_of(value, "given")?,
            },
            "files_not_put" => PageReason::FilesNotPut {
                number: number()?,
                detail: text("detail")?,
            },
            "script_failed" => PageReason::ScriptFailed {
                detail: text("detail")?,
            },
            _ => return None,
        })
    }
}

// The readers of a wire object's values: plain functions, one copy each in the wasm.

#[inline(never)]
fn text_of(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

#[inline(never)]
fn number_of(value: &Value, key: &str) -> Option<u32> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
}

#[inline(never)]
fn list_of(value: &Value, key: &str) -> Option<Vec<String>> {
    let all = value.get(key)?.as_array()?;
    Some(all.iter().filter_map(Value::as_str).map(str::to_owned).collect())
}
