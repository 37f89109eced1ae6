//! What `install` and `uninstall` say in the terminal, in the terminal's language (`cli.ftl`): lists
//! of browsers, each step uninstall took, and why either could not do something. The English
//! `Display` of the same errors and steps stays for the logs.
//!
//! What it must not do: decide anything (the steps and errors are typed; this only says them).

use waymark_i18n::{say, Words};

use super::record::RecordError;
use super::uninstall::{Kept, Removed, Thing, Which};
use super::{Browser, InstallError};

/// "Chromium", "Google Chrome and Chromium", "Google Chrome, Chromium and Microsoft Edge" (in
/// `words`).
pub fn spoken_list(browsers: &[Browser], words: &Words) -> String {
    let labels: Vec<&str> = browsers.iter().map(|b| b.label()).collect();
    match labels.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, [first])) => say!(words, "cli-list-two", first = *first, last = *last),
        Some((last, rest)) => say!(words, "cli-list-more", rest = rest.join(", "), last = *last),
    }
}

/// "Chromium", "Google Chrome or Chromium", "Google Chrome, Chromium or Microsoft Edge" (in `words`):
/// a choice among them.
pub fn spoken_choice(browsers: &[Browser], words: &Words) -> String {
    let labels: Vec<&str> = browsers.iter().map(|b| b.label()).collect();
    match labels.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, [first])) => say!(words, "cli-list-or-two", first = *first, last = *last),
        Some((last, rest)) => say!(words, "cli-list-or-more", rest = rest.join(", "), last = *last),
    }
}

impl InstallError {
    /// Why install or uninstall could not do it, in `words` (a clause, like `Display`).
    pub fn said(&self, words: &Words) -> String {
        match self {
            InstallError::BadExtensionId(id) => say!(words, "cli-error-bad-id", id = id.as_str()),
            InstallError::RelativeHostPath(path) => {
                say!(
                    words,
                    "cli-error-relative-host",
                    path = path.display().to_string()
                )
            }
            InstallError::NoHome => say!(words, "cli-error-no-home"),
            InstallError::NoChoice { found } if found.is_empty() => say!(words, "cli-error-no-choice"),
            InstallError::NoChoice { found } => say!(
                words,
                "cli-error-no-choice-found",
                browsers = spoken_list(found, words)
            ),
            InstallError::OtherIdSystemWide(id) => {
                say!(words, "cli-error-other-id-system", id = id.as_str())
            }
            InstallError::NeedsAdmin { path } => {
                say!(words, "cli-error-needs-admin", path = path.display().to_string())
            }
            InstallError::Write { path, source } => say!(
                words,
                "cli-error-write",
                path = path.display().to_string(),
                detail = source.to_string()
            ),
            InstallError::Registry { key, detail } => say!(
                words,
                "cli-error-registry",
                key = key.as_str(),
                detail = detail.as_str()
            ),
            InstallError::Record(error) => error.said(words),
            // The registered ids' own store says its faults in English (its words are the logs').
            InstallError::Ids(error) => error.to_string(),
        }
    }
}

impl RecordError {
    /// What is wrong with the record of what install wrote, in `words`.
    pub fn said(&self, words: &Words) -> String {
        match self {
            RecordError::Read { path, source } => say!(
                words,
                "cli-error-record-read",
                path = path.display().to_string(),
                detail = source.to_string()
            ),
            RecordError::Parse { path, message } => say!(
                words,
                "cli-error-record-parse",
                path = path.display().to_string(),
                detail = message.as_str()
            ),
            RecordError::Write { path, source } => say!(
                words,
                "cli-error-record-write",
                path = path.display().to_string(),
                detail = source.to_string()
            ),
        }
    }
}

impl Removed {
    /// This step, in a line of `words`.
    pub fn said(&self, words: &Words) -> String {
        match self {
            Removed::File { path, browsers } if browsers.is_empty() => {
                say!(words, "cli-removed-file", path = path.display().to_string())
            }
            Removed::File { path, browsers } => say!(
                words,
                "cli-removed-file-for",
                path = path.display().to_string(),
                browsers = spoken_list(browsers, words)
            ),
            Removed::Key { key } => say!(words, "cli-removed-key", key = key.as_str()),
            Removed::Dir { path } => say!(words, "cli-removed-dir", path = path.display().to_string()),
            Removed::Id { id, store } => say!(
                words,
                "cli-removed-id",
                id = id.as_str(),
                path = store.display().to_string()
            ),
            Removed::Store { path } => say!(words, "cli-removed-store", path = path.display().to_string()),
            Removed::AlreadyGone {
                what: Thing::Path(path),
            } => say!(words, "cli-already-gone", path = path.display().to_string()),
            Removed::AlreadyGone {
                what: Thing::RegistryKey(key),
            } => say!(words, "cli-key-already-gone", key = key.as_str()),
            Removed::LeftAlone { what, why } => match (what, why) {
                (Thing::Path(path), _) => say!(words, "cli-left-not-ours", path = path.display().to_string()),
                (Thing::RegistryKey(key), Kept::NotWindows) => {
                    say!(words, "cli-left-key-not-windows", key = key.as_str())
                }
                (Thing::RegistryKey(key), _) => say!(words, "cli-left-key-other", key = key.as_str()),
            },
            Removed::Failed {
                what: Thing::Path(path),
                error,
            } => say!(
                words,
                "cli-remove-failed",
                path = path.display().to_string(),
                detail = error.as_str()
            ),
            Removed::Failed {
                what: Thing::RegistryKey(key),
                error,
            } => say!(
                words,
                "cli-remove-key-failed",
                key = key.as_str(),
                detail = error.as_str()
            ),
            Removed::NothingRecorded { which, record } => {
                let record = record.display().to_string();
                match which {
                    Which::All => say!(words, "cli-nothing-recorded", record = record),
                    Which::Browsers(list) => say!(
                        words,
                        "cli-nothing-recorded-for",
                        browsers = spoken_list(list, words),
                        record = record
                    ),
                    Which::Profile(dir) => say!(
                        words,
                        "cli-nothing-recorded-profile",
                        path = super::uninstall::absolute(dir).display().to_string(),
                        record = record
                    ),
                }
            }
        }
    }
}

impl std::fmt::Display for Removed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.said(&Words::english()))
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::language::latin_words;

    #[test]
    fn every_step_and_error_is_said_in_russian() {
        let words = Words::new("ru");
        let path = PathBuf::from("/home/ada/.config/chromium/NativeMessagingHosts/io.waymark.host.json");
        let key = r"HKCU\Software\Google\Chrome\NativeMessagingHosts\io.waymark.host".to_owned();
        let id = "a".repeat(32);
        let denied = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let steps = [
            Removed::File {
                path: path.clone(),
                browsers: vec![],
            },
            Removed::File {
                path: path.clone(),
                browsers: Browser::ALL.to_vec(),
            },
            Removed::Key { key: key.clone() },
            Removed::Dir { path: path.clone() },
            Removed::Id {
                id: id.clone(),
                store: path.clone(),
            },
            Removed::Store { path: path.clone() },
            Removed::AlreadyGone {
                what: Thing::Path(path.clone()),
            },
            Removed::AlreadyGone {
                what: Thing::RegistryKey(key.clone()),
            },
            Removed::LeftAlone {
                what: Thing::Path(path.clone()),
                why: Kept::NotOurs,
            },
            Removed::LeftAlone {
                what: Thing::RegistryKey(key.clone()),
                why: Kept::OtherManifest,
            },
            Removed::LeftAlone {
                what: Thing::RegistryKey(key.clone()),
                why: Kept::NotWindows,
            },
            Removed::Failed {
                what: Thing::Path(path.clone()),
                error: "Отказано в доступе".into(),
            },
            Removed::Failed {
                what: Thing::RegistryKey(key.clone()),
                error: "Отказано в доступе".into(),
            },
            Removed::NothingRecorded {
                which: Which::All,
                record: path.clone(),
            },
            Removed::NothingRecorded {
                which: Which::Browsers(vec![Browser::Chrome]),
                record: path.clone(),
            },
            Removed::NothingRecorded {
                which: Which::Profile(path.clone()),
                record: path.clone(),
            },
        ];
        let errors = [
            InstallError::BadExtensionId("x".into()),
            InstallError::RelativeHostPath(path.clone()),
            InstallError::NoHome,
            InstallError::NoChoice { found: vec![] },
            InstallError::NoChoice {
                found: vec![Browser::Chromium],
            },
            InstallError::OtherIdSystemWide(id.clone()),
            InstallError::NeedsAdmin { path: path.clone() },
            InstallError::Write {
                path: path.clone(),
                source: denied(),
            },
            InstallError::Record(RecordError::Read {
                path: path.clone(),
                source: denied(),
            }),
            InstallError::Record(RecordError::Parse {
                path: path.clone(),
                message: "строка 1".into(),
            }),
        ];
        let mut said: Vec<String> = steps.iter().map(|s| s.said(&words)).collect();
        said.extend(errors.iter().map(|e| e.said(&words)));
        said.push(spoken_list(&Browser::ALL, &words));
        let shown = path.display().to_string();
        // Values as they are: paths, keys, ids, browsers, and what a person types (options, commands).
        let values = [
            shown.as_str(),
            &key,
            &id,
            "Google Chrome",
            "Microsoft Edge",
            "Chromium",
            "Chrome",
            "Edge",
            "Windows",
            "waymark-host install --extension-id",
            "--extension-id",
            "sudo waymark-host install --system",
            "--browser chrome,edge",
            "--browser chrome",
            "--browser all",
            "chromium",
            "edge",
            "install",
            "root",
            "HOME",
            "Waymark",
            // The system's own words.
            "permission denied",
        ];
        for line in &said {
            assert!(!line.contains("cli-"), "{line}");
            assert_eq!(latin_words(line, &values), Vec::<String>::new(), "{line}");
        }
        assert_eq!(said.last().unwrap(), "Google Chrome, Chromium и Microsoft Edge");
    }

    #[test]
    fn english_steps_read_as_before() {
        let step = Removed::LeftAlone {
            what: Thing::Path(PathBuf::from("/x.json")),
            why: Kept::NotOurs,
        };
        assert_eq!(
            step.to_string(),
            "left /x.json where it is: it is no longer a Waymark host manifest"
        );
        let error = InstallError::NoChoice {
            found: vec![Browser::Chrome, Browser::Edge],
        };
        assert_eq!(error.said(&Words::english()), error.to_string());
    }
}
