//! Setting a control's value the way a keyboard user does: a native slider or number field through
//! the native setter and its `input` and `change` events; an ARIA slider, spin button or rating with
//! the keys such widgets take (Home, End, the arrows), one at a time until it shows the value asked
//! for; a list or a text field by choosing or typing.
//!
//! Must not: set anything but the control it was given, or press more keys than it takes to reach
//! the value (it stops as soon as a key changes nothing).

use wasm_bindgen::JsCast;
use waymark_protocol::ActFailure;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};

use super::keys::{key_down, key_up, Key};
use super::{dispatch, focus_control, select, type_text, ActError};

/// At most this many arrow presses to reach a value (a slider from 0 to 100 in steps of 1 needs 100).
const MAX_STEPS: u32 = 500;

/// Sets the control's value to `wanted`; the value it shows afterwards.
pub fn set_value(control: &Element, wanted: &str) -> Result<String, ActError> {
    if let Some(input) = control.dyn_ref::<HtmlInputElement>() {
        let kind = input.type_().to_lowercase();
        if matches!(kind.as_str(), "range" | "number") {
            return native_number(input, wanted);
        }
        if matches!(
            kind.as_str(),
            "checkbox" | "radio" | "submit" | "button" | "reset" | "image" | "file"
        ) {
            return Err(ActFailure::NoValue);
        }
        type_text(control, wanted)?;
        return Ok(input.value());
    }
    if control.dyn_ref::<HtmlSelectElement>().is_some() {
        return select(control, wanted);
    }
    if control.has_attribute("aria-valuenow") || matches!(role(control).as_str(), "slider" | "spinbutton") {
        return by_keys(control, wanted);
    }
    if control.local_name() == "textarea"
        || control
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(|h| h.is_content_editable())
    {
        type_text(control, wanted)?;
        return Ok(wanted.to_owned());
    }
    Err(ActFailure::NoValue)
}

fn role(control: &Element) -> String {
    control
        .get_attribute("role")
        .unwrap_or_default()
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase()
}

/// A number from what a person says ("40", "40%", "1,5").
fn number(text: &str) -> Option<f64> {
    let cleaned: String = text
        .trim()
        .trim_end_matches('%')
        .replace(',', ".")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    cleaned.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// A native range or number field: the value through the native setter (the browser keeps it within
/// the field's bounds and steps), then `input` and `change`, as when a person lets go of the thumb.
fn native_number(input: &HtmlInputElement, wanted: &str) -> Result<String, ActError> {
    let value = number(wanted).ok_or_else(|| ActFailure::ValueNotTaken {
        value: wanted.to_owned(),
    })?;
    let control: &Element = input.as_ref();
    super::scroll_into_view(control);
    let _ = input.focus();
    input.set_value(&format_number(value));
    dispatch(control, "input")?;
    dispatch(control, "change")?;
    Ok(input.value())
}

fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

/// An ARIA slider, spin button or rating: Home or End for its ends, else the arrows one press at a
/// time towards `wanted` until it shows it, passes it, or stops moving.
fn by_keys(control: &Element, wanted: &str) -> Result<String, ActError> {
    let refused = || ActFailure::ValueNotTaken {
        value: wanted.to_owned(),
    };
    let target = number(wanted).ok_or_else(refused)?;
    focus_control(control);
    let read = |name: &str| control.get_attribute(name).as_deref().and_then(number);
    let now = || read("aria-valuenow");
    let shown = || {
        control
            .get_attribute("aria-valuetext")
            .filter(|t| !t.trim().is_empty())
            .or_else(|| control.get_attribute("aria-valuenow"))
            .unwrap_or_default()
    };
    let press = |name: &str| {
        if let Some(key) = Key::parse(name) {
            // The widget listens where the focus is: the control, or a part of it (its thumb).
            let target = control
                .owner_document()
                .and_then(|d| super::deep_active_element(&d))
                .filter(|a| crate::dom::composed_contains(control, a))
                .unwrap_or_else(|| control.clone());
            key_down(&target, &key);
            key_up(&target, &key);
        }
    };
    let Some(start) = now() else {
        return Err(refused());
    };
    if let Some(min) = read("aria-valuemin").filter(|m| target <= *m) {
        press("Home");
        return if now().is_some_and(|n| n <= min) {
            Ok(shown())
        } else {
            Err(refused())
        };
    }
    if let Some(max) = read("aria-valuemax").filter(|m| target >= *m) {
        press("End");
        return if now().is_some_and(|n| n >= max) {
            Ok(shown())
        } else {
            Err(refused())
        };
    }
    let vertical = role(control) == "spinbutton"
        || control
            .get_attribute("aria-orientation")
            .is_some_and(|o| o.eq_ignore_ascii_case("vertical"));
    let (up, down) = if vertical {
        ("ArrowUp", "ArrowDown")
    } else {
        ("ArrowRight", "ArrowLeft")
    };
    let mut current = start;
    for _ in 0..MAX_STEPS {
        if (current - target).abs() < f64::EPSILON {
            return Ok(shown());
        }
        let rising = target > current;
        press(if rising { up } else { down });
        let Some(next) = now() else { break };
        if (next - current).abs() < f64::EPSILON {
            // The key changed nothing: the widget does not take it.
            break;
        }
        // Past the value: the steps do not land on it; the nearest step is where it stays.
        if (rising && next > target) || (!rising && next < target) {
            if (next - target).abs() > (current - target).abs() {
                press(if rising { down } else { up });
            }
            return Ok(shown());
        }
        current = next;
    }
    if (current - target).abs() < f64::EPSILON {
        return Ok(shown());
    }
    if (current - start).abs() < f64::EPSILON {
        return Err(refused());
    }
    Ok(shown())
}

#[cfg(test)]
mod tests {
    use super::{format_number, number};

    #[test]
    fn values_are_read_as_people_say_them() {
        assert_eq!(number("40"), Some(40.0));
        assert_eq!(number(" 40 % "), Some(40.0));
        assert_eq!(number("1,5"), Some(1.5));
        assert_eq!(number("-3"), Some(-3.0));
        assert_eq!(number("loud"), None);
        assert_eq!(format_number(40.0), "40");
        assert_eq!(format_number(1.5), "1.5");
    }
}
