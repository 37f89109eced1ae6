//! The step-event log (`docs/requirements.md` "The step log"): one JSON line per agent step under
//! `logs/` in the state directory, for a person finding out what the agent did. Rotated by size:
//! `steps.jsonl` and at most [`KEEP_OLD`] older files (`steps.1.jsonl` the newest), each about
//! [`MAX_BYTES`] at most.
//!
//! What it must not do: hold page content, the model's words, or anything typed into a sensitive field.
//! Arguments pass through [`mask`] (e-mail addresses, phone numbers and other digit runs such as card
//! numbers and codes are replaced); typed text of a field the gate handed to the user is never written;
//! errors are logged by their class, not their text (which quotes the page). A failure to write is
//! reported once in the host's log and never stops the agent.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};
use waymark_protocol::ErrorKind;

/// The size at which the current file is rotated.
pub const MAX_BYTES: u64 = 1 << 20;
/// How many rotated files are kept besides the current one.
pub const KEEP_OLD: usize = 4;

/// The log in one state directory.
pub struct StepLog {
    dir: PathBuf,
    max_bytes: u64,
    /// Writes are whole lines, one at a time.
    lock: Mutex<()>,
    warned: AtomicBool,
}

impl StepLog {
    /// The log under `state_dir/logs`.
    pub fn new(state_dir: &Path) -> Self {
        StepLog::with_limit(state_dir, MAX_BYTES)
    }

    /// With another rotation size (tests).
    pub fn with_limit(state_dir: &Path, max_bytes: u64) -> Self {
        StepLog {
            dir: state_dir.join("logs"),
            max_bytes,
            lock: Mutex::new(()),
            warned: AtomicBool::new(false),
        }
    }

    pub fn current(&self) -> PathBuf {
        self.dir.join("steps.jsonl")
    }

    fn old(&self, n: usize) -> PathBuf {
        self.dir.join(format!("steps.{n}.jsonl"))
    }

    /// Appends one event, with `ts_ms` added. Never fails: a write error is said once in the host's log.
    pub fn write(&self, mut event: Map<String, Value>) {
        event.insert("ts_ms".into(), json!(now_ms()));
        let mut line = Value::Object(event).to_string();
        line.push('\n');
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = self.append(line.as_bytes()) {
            if !self.warned.swap(true, Ordering::Relaxed) {
                tracing::warn!(dir = %self.dir.display(), "the step log cannot be written: {e}");
            }
        }
    }

    fn append(&self, line: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let current = self.current();
        let size = fs::metadata(&current).map_or(0, |m| m.len());
        if size > 0 && size + line.len() as u64 > self.max_bytes {
            self.rotate()?;
        }
        let mut options = fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        options.open(&current)?.write_all(line)
    }

    /// steps.3 → steps.4 (the oldest is dropped), …, steps → steps.1.
    fn rotate(&self) -> std::io::Result<()> {
        let oldest = self.old(KEEP_OLD);
        if oldest.exists() {
            fs::remove_file(&oldest)?;
        }
        for n in (1..KEEP_OLD).rev() {
            let from = self.old(n);
            if from.exists() {
                fs::rename(&from, self.old(n + 1))?;
            }
        }
        fs::rename(self.current(), self.old(1))
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Builds one event: its kind and the session, then the seed's groups (`step`, `call`, `page`,
/// `enumerate`, `find`, `ask`, `policy`, …) as the caller adds them.
pub fn event(kind: &str, session: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("event".into(), json!(kind));
    map.insert("session".into(), json!(session));
    map
}

/// A tool's arguments as they may be logged: strings masked; the typed text of a sensitive field (one
/// the gate handed to the user) replaced.
pub fn masked_args(args: &Value, sensitive: bool) -> Value {
    match args {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let value = match (key.as_str(), value) {
                        ("text", Value::String(_)) if sensitive => json!("[withheld]"),
                        ("url", Value::String(url)) => json!(mask(&without_query(url))),
                        _ => masked_args(value, sensitive),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| masked_args(v, sensitive)).collect()),
        Value::String(text) => json!(mask(text)),
        other => other.clone(),
    }
}

/// A URL without its query and fragment (where tokens, e-mail addresses and search words live).
pub fn without_query(url: &str) -> String {
    url.split(['?', '#']).next().unwrap_or_default().to_string()
}

/// The class of a tool error, for the log: its kind (the words quote the page, so they are not logged).
pub fn error_class(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Stale => "stale",
        ErrorKind::PageChanged => "page_changed",
        ErrorKind::HandedOver => "handed_over",
        ErrorKind::Declined => "declined",
        ErrorKind::WaitingForUser => "waiting_for_user",
        ErrorKind::Unanswered => "unanswered",
        ErrorKind::TimedOut => "timed_out",
        ErrorKind::BadArguments => "bad_arguments",
        ErrorKind::Unreachable => "unreachable",
        ErrorKind::NotAllowed => "not_allowed",
        ErrorKind::AwaitingConsent => "awaiting_consent",
        ErrorKind::Stopped => "stopped",
        ErrorKind::Blocked => "blocked",
        ErrorKind::PageDialog => "page_dialog",
        ErrorKind::Failed => "failed",
    }
}

/// Replaces e-mail addresses with `[email]` and runs of four or more digits (phone numbers, card
/// numbers, codes; spaces, dashes, dots, brackets and a leading `+` allowed inside) with `[number]`.
pub fn mask(text: &str) -> String {
    let words: Vec<String> = text
        .split(' ')
        .map(|word| {
            if looks_like_email(word) {
                "[email]".to_string()
            } else {
                word.to_string()
            }
        })
        .collect();
    mask_digits(&words.join(" "))
}

fn looks_like_email(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    match word.split_once('@') {
        Some((user, domain)) => !user.is_empty() && domain.contains('.') && !domain.starts_with('.'),
        None => false,
    }
}

fn mask_digits(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            || (chars[i] == '+' && chars.get(i + 1).is_some_and(char::is_ascii_digit));
        if !starts {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        // The run: digits and the separators people write inside numbers.
        let mut end = i;
        let mut digits = 0;
        let mut last_digit = i;
        while end < chars.len() {
            let c = chars[end];
            if c.is_ascii_digit() {
                digits += 1;
                last_digit = end;
            } else if !(matches!(c, ' ' | '-' | '.' | '(' | ')' | '/') || (c == '+' && end == i)) {
                break;
            }
            end += 1;
        }
        if digits >= 4 {
            out.push_str("[number]");
            i = last_digit + 1;
        } else {
            out.extend(&chars[i..=last_digit]);
            i = last_digit + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_phones_cards_and_codes_are_masked() {
        assert_eq!(mask("write to ada@example.org now"), "write to [email] now");
        assert_eq!(mask("call +44 20 7946 0958 today"), "call [number] today");
        assert_eq!(mask("card 4111-1111-1111-1111"), "card [number]");
        assert_eq!(mask("code 583920"), "code [number]");
        assert_eq!(mask("2 kettles for 19.99"), "2 kettles for [number]");
        assert_eq!(mask("page 3 of 12"), "page 3 of 12");
    }

    #[test]
    fn sensitive_typed_text_is_withheld_and_urls_lose_their_query() {
        let args = json!({"index": 4, "action": "type", "text": "hunter2"});
        assert_eq!(masked_args(&args, true)["text"], "[withheld]");
        let args = json!({"index": 4, "action": "type", "text": "ada@example.org"});
        assert_eq!(masked_args(&args, false)["text"], "[email]");
        let args = json!({"url": "https://shop.example/a?email=ada@example.org#x"});
        assert_eq!(masked_args(&args, false)["url"], "https://shop.example/a");
    }

    #[test]
    fn the_log_rotates_by_size_and_keeps_a_bounded_number_of_files() {
        let dir = tempfile::tempdir().unwrap();
        let log = StepLog::with_limit(dir.path(), 400);
        for n in 0..100 {
            let mut e = event("step", "s1");
            e.insert("step".into(), json!({"n": n, "pad": "x".repeat(60)}));
            log.write(e);
        }
        let mut names: Vec<String> = fs::read_dir(dir.path().join("logs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<String> = (1..=KEEP_OLD).map(|n| format!("steps.{n}.jsonl")).collect();
        expected.push("steps.jsonl".to_owned());
        assert_eq!(names, expected);
        for name in &names {
            let path = dir.path().join("logs").join(name);
            assert!(fs::metadata(&path).unwrap().len() <= 400, "{name}");
            for line in fs::read_to_string(&path).unwrap().lines() {
                serde_json::from_str::<Value>(line).unwrap();
            }
        }
        // The newest event is in the current file, the one before the rotation in steps.1.
        let current = fs::read_to_string(log.current()).unwrap();
        assert!(current.contains(r#""n":99"#), "{current}");
    }
}
