//! Keys as a real keyboard sends them: a key's name (`Enter`, `Shift+F10`, `Ctrl+s`, `a`) read into
//! its `key`, `code`, legacy `keyCode`/`which`/`charCode` and modifiers, and the key events a
//! keyboard makes for it (modifiers pressed first; `keypress` only for printable keys and Enter, and
//! not while Ctrl, Alt or Meta is held). Applications written for jQuery or a widget toolkit read the
//! legacy codes, so without them they ignore the key.
//!
//! Must not: do what the browser would do after the key (submit, move the focus, type): `page.rs`
//! decides that from whether the page cancelled the key.

use web_sys::Element;

/// One key as pressed, with its modifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// `KeyboardEvent.key`: `Enter`, `ArrowLeft`, `a`, `A`, ` `.
    pub key: String,
    /// `KeyboardEvent.code`: the physical key on a US keyboard (`KeyA`, `Digit1`, `Space`), or empty for
    /// a character no US key makes.
    pub code: String,
    /// The legacy `keyCode` (and `which`) of `keydown` and `keyup`.
    pub key_code: u32,
    pub shift: bool,
    pub ctrl: bool,
    pub alt: bool,
    pub meta: bool,
}

/// Named keys: what a caller may say (lower case), the `key`, the `code` and the legacy `keyCode`.
const NAMED: &[(&[&str], &str, &str, u32)] = &[
    (&["enter", "return"], "Enter", "Enter", 13),
    (&["tab"], "Tab", "Tab", 9),
    (&["escape", "esc"], "Escape", "Escape", 27),
    (&["space", "spacebar", " "], " ", "Space", 32),
    (&["backspace"], "Backspace", "Backspace", 8),
    (&["delete", "del"], "Delete", "Delete", 46),
    (&["insert", "ins"], "Insert", "Insert", 45),
    (&["up", "arrowup"], "ArrowUp", "ArrowUp", 38),
    (&["down", "arrowdown"], "ArrowDown", "ArrowDown", 40),
    (&["left", "arrowleft"], "ArrowLeft", "ArrowLeft", 37),
    (&["right", "arrowright"], "ArrowRight", "ArrowRight", 39),
    (&["home"], "Home", "Home", 36),
    (&["end"], "End", "End", 35),
    (&["pageup", "pgup"], "PageUp", "PageUp", 33),
    (&["pagedown", "pgdn"], "PageDown", "PageDown", 34),
    (&["contextmenu", "menu", "apps"], "ContextMenu", "ContextMenu", 93),
];

/// Printable characters of a US keyboard that are not letters or digits: the character, its `code`,
/// its `keyCode`, and whether Shift makes it.
const PUNCTUATION: &[(char, &str, u32, bool)] = &[
    ('-', "Minus", 189, false),
    ('=', "Equal", 187, false),
    ('[', "BracketLeft", 219, false),
    (']', "BracketRight", 221, false),
    ('\\', "Backslash", 220, false),
    (';', "Semicolon", 186, false),
    ('\'', "Quote", 222, false),
    (',', "Comma", 188, false),
    ('.', "Period", 190, false),
    ('/', "Slash", 191, false),
    ('`', "Backquote", 192, false),
    ('_', "Minus", 189, true),
    ('+', "Equal", 187, true),
    ('{', "BracketLeft", 219, true),
    ('}', "BracketRight", 221, true),
    ('|', "Backslash", 220, true),
    (':', "Semicolon", 186, true),
    ('"', "Quote", 222, true),
    ('<', "Comma", 188, true),
    ('>', "Period", 190, true),
    ('?', "Slash", 191, true),
    ('~', "Backquote", 192, true),
    ('!', "Digit1", 49, true),
    ('@', "Digit2", 50, true),
    ('#', "Digit3", 51, true),
    ('$', "Digit4", 52, true),
    ('%', "Digit5", 53, true),
    ('^', "Digit6", 54, true),
    ('&', "Digit7", 55, true),
    ('*', "Digit8", 56, true),
    ('(', "Digit9", 57, true),
    (')', "Digit0", 48, true),
];

/// The modifiers' own keys, pressed before the key and released after it.
const MODIFIERS: [(&str, &str, u32); 4] = [
    ("Control", "ControlLeft", 17),
    ("Alt", "AltLeft", 18),
    ("Shift", "ShiftLeft", 16),
    ("Meta", "MetaLeft", 91),
];

impl Key {
    /// Reads a key's name: a named key (`Enter`, `F5`, `ContextMenu`), or one character, after any
    /// modifiers joined by `+` (`Shift+F10`, `Ctrl+Shift+k`, `Ctrl++`). `None` for anything else.
    pub fn parse(spec: &str) -> Option<Key> {
        let spec = if spec.trim().is_empty() && !spec.is_empty() {
            " "
        } else {
            spec.trim()
        };
        // The last part is the key; a trailing "+" is the plus key itself ("Ctrl++").
        let (mods, last) = match spec.strip_suffix("++") {
            Some(head) => (head, "+"),
            None if spec == "+" => ("", "+"),
            None => match spec.rsplit_once('+') {
                Some((head, last)) if !last.is_empty() => (head, last),
                _ => ("", spec),
            },
        };
        let (mut shift, mut ctrl, mut alt, mut meta) = (false, false, false, false);
        for part in mods.split('+').map(str::trim).filter(|p| !p.is_empty()) {
            match part.to_lowercase().as_str() {
                "shift" => shift = true,
                "ctrl" | "control" => ctrl = true,
                "alt" | "option" => alt = true,
                "meta" | "cmd" | "command" | "super" | "win" => meta = true,
                _ => return None,
            }
        }
        let (key, code, key_code) = Self::base(last)?;
        // A character key's `key` is what it types: Shift makes a letter upper case; in a shortcut
        // without Shift ("Ctrl+S") the letter is the plain key.
        let key = match key.chars().count() {
            1 if shift => key.to_uppercase(),
            1 if ctrl || alt || meta => key.to_lowercase(),
            _ => key,
        };
        // A character that only Shift makes is typed with Shift held.
        let shift = shift
            || PUNCTUATION
                .iter()
                .any(|(c, _, _, shifted)| *shifted && key.starts_with(*c) && key.chars().count() == 1)
            || key
                .chars()
                .next()
                .is_some_and(|c| c.is_uppercase() && key.chars().count() == 1);
        Some(Key {
            key,
            code,
            key_code,
            shift,
            ctrl,
            alt,
            meta,
        })
    }

    /// A key without modifiers: its `key`, `code` and `keyCode`.
    fn base(name: &str) -> Option<(String, String, u32)> {
        let lower = name.to_lowercase();
        if let Some((_, key, code, key_code)) =
            NAMED.iter().find(|(names, ..)| names.contains(&lower.as_str()))
        {
            return Some(((*key).into(), (*code).into(), *key_code));
        }
        if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u32>().ok()) {
            if (1..=12).contains(&n) {
                return Some((format!("F{n}"), format!("F{n}"), 111 + n));
            }
        }
        let mut chars = name.chars();
        let (Some(ch), None) = (chars.next(), chars.next()) else {
            return None;
        };
        if ch.is_ascii_alphabetic() {
            let upper = ch.to_ascii_uppercase();
            return Some((ch.to_string(), format!("Key{upper}"), u32::from(upper)));
        }
        if ch.is_ascii_digit() {
            return Some((ch.to_string(), format!("Digit{ch}"), u32::from(ch)));
        }
        if let Some((_, code, key_code, _)) = PUNCTUATION.iter().find(|(c, ..)| *c == ch) {
            return Some((ch.to_string(), (*code).into(), *key_code));
        }
        if ch.is_control() {
            return None;
        }
        // A character no US key makes (another layout's letter): its `key` is right, its code unknown.
        Some((ch.to_string(), String::new(), 0))
    }

    /// Whether the key types a character (and so has a `keypress`).
    pub fn printable(&self) -> bool {
        self.key.chars().count() == 1
    }

    /// Whether a keyboard sends `keypress` for it: printable keys and Enter, unless Ctrl, Alt or Meta
    /// is held.
    pub fn has_keypress(&self) -> bool {
        (self.printable() || self.key == "Enter") && !self.ctrl && !self.alt && !self.meta
    }

    /// Whether any of Ctrl, Alt or Meta is held (the key is then a shortcut, not typing).
    pub fn command(&self) -> bool {
        self.ctrl || self.alt || self.meta
    }

    /// The key's name as a person says it: modifiers first (`Shift+F10`).
    pub fn name(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        for (held, name) in [
            (self.ctrl, "Ctrl"),
            (self.alt, "Alt"),
            (self.shift, "Shift"),
            (self.meta, "Meta"),
        ] {
            // Shift is part of an upper-case letter or a shifted sign, not said again.
            if held && !(name == "Shift" && self.printable() && !self.command()) {
                parts.push(name);
            }
        }
        let key = if self.key == " " {
            "Space"
        } else {
            self.key.as_str()
        };
        parts.push(key);
        parts.join("+")
    }

    /// The character code a `keypress` carries: the character, or 13 for Enter.
    fn char_code(&self) -> u32 {
        if self.key == "Enter" {
            13
        } else {
            self.key.chars().next().map_or(0, u32::from)
        }
    }
}

/// One keyboard event of `kind` for `key` on `target`, with its legacy codes; whether the page let it
/// be (did not cancel it).
fn key_event(target: &Element, kind: &str, key: &Key, own: Option<(&str, &str, u32)>) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    let (name, code, key_code) = own.unwrap_or((&key.key, &key.code, key.key_code));
    init.set_key(name);
    init.set_code(code);
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_view(web_sys::window().as_ref());
    init.set_shift_key(key.shift);
    init.set_ctrl_key(key.ctrl);
    init.set_alt_key(key.alt);
    init.set_meta_key(key.meta);
    if kind == "keypress" {
        // A keypress carries the character in all three codes.
        let c = key.char_code();
        init.set_char_code(c);
        init.set_key_code(c);
        init.set_which(c);
    } else {
        init.set_key_code(key_code);
        init.set_which(key_code);
    }
    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init)
        .ok()
        .map(|e| target.dispatch_event(&e).unwrap_or(true))
        .unwrap_or(true)
}

/// The key's `keydown` (after the held modifiers' own `keydown`s) and, when the page let it be and a
/// keyboard sends one, its `keypress`. Whether the page let the key do its default (neither cancelled).
pub fn key_down(target: &Element, key: &Key) -> bool {
    for (held, (name, code, key_code)) in [key.ctrl, key.alt, key.shift, key.meta]
        .into_iter()
        .zip(MODIFIERS)
    {
        if held {
            key_event(target, "keydown", key, Some((name, code, key_code)));
        }
    }
    let down = key_event(target, "keydown", key, None);
    if down && key.has_keypress() {
        return key_event(target, "keypress", key, None);
    }
    down
}

/// The key's `keyup`, then the held modifiers' own.
pub fn key_up(target: &Element, key: &Key) {
    key_event(target, "keyup", key, None);
    for (held, (name, code, key_code)) in [key.ctrl, key.alt, key.shift, key.meta]
        .into_iter()
        .zip(MODIFIERS)
        .rev()
    {
        if held {
            key_event(target, "keyup", key, Some((name, code, key_code)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn named_keys_carry_their_legacy_codes() {
        let enter = Key::parse("enter").unwrap();
        assert_eq!(
            (enter.key.as_str(), enter.code.as_str(), enter.key_code),
            ("Enter", "Enter", 13)
        );
        assert!(enter.has_keypress());
        let delete = Key::parse("Del").unwrap();
        assert_eq!((delete.key.as_str(), delete.key_code), ("Delete", 46));
        assert!(!delete.has_keypress());
        let f10 = Key::parse("F10").unwrap();
        assert_eq!(
            (f10.key.as_str(), f10.code.as_str(), f10.key_code),
            ("F10", "F10", 121)
        );
        assert_eq!(Key::parse("ContextMenu").unwrap().key_code, 93);
        assert_eq!(Key::parse(" ").unwrap().code, "Space");
        assert!(Key::parse("F13").is_none());
        assert!(Key::parse("Hyper+a").is_none());
        assert!(Key::parse("enterr").is_none());
    }

    #[test]
    fn characters_and_chords_are_read_as_a_us_keyboard_makes_them() {
        let a = Key::parse("a").unwrap();
        assert_eq!(
            (a.key.as_str(), a.code.as_str(), a.key_code, a.shift),
            ("a", "KeyA", 65, false)
        );
        assert!(a.has_keypress());
        let big = Key::parse("A").unwrap();
        assert_eq!((big.key.as_str(), big.key_code, big.shift), ("A", 65, true));
        let save = Key::parse("Ctrl+S").unwrap();
        assert_eq!((save.key.as_str(), save.ctrl, save.shift), ("s", true, false));
        assert!(!save.has_keypress(), "no keypress while Ctrl is held");
        assert_eq!(save.name(), "Ctrl+s");
        let menu = Key::parse("shift+f10").unwrap();
        assert!(menu.shift && menu.key == "F10");
        assert_eq!(menu.name(), "Shift+F10");
        let plus = Key::parse("Ctrl++").unwrap();
        assert_eq!(
            (plus.key.as_str(), plus.code.as_str(), plus.ctrl),
            ("+", "Equal", true)
        );
        let question = Key::parse("?").unwrap();
        assert_eq!(
            (question.code.as_str(), question.key_code, question.shift),
            ("Slash", 191, true)
        );
        assert_eq!(question.name(), "?");
        let ru = Key::parse("ж").unwrap();
        assert_eq!((ru.key.as_str(), ru.key_code), ("ж", 0));
        assert_eq!(Key::parse("7").unwrap().key_code, 55);
    }
}
