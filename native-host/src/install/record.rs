//! The record of what `install` wrote — each manifest file, the registry key pointing at it (Windows),
//! the folders it had to create, and the extension ids it added to `extensions.toml` — so that
//! `uninstall` removes exactly that and nothing else.
//!
//! One record per scope, `installed.toml` in Waymark's folder for the user or for the computer
//! ([`super::Places::record_path`]). It is written whole (a temp file of its own, then a rename, so a
//! crash or a second `install` running at the same time never leaves half a file) and readable only by
//! its owner (0600). What it must not do: claim anything that was there before `install` — a folder
//! that existed, an id the user had registered already.

use std::path::{Path, PathBuf};

use super::places::Browser;

/// Everything one scope's installs wrote, still there or not yet removed.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// Folders that did not exist and were created (for a manifest, the record, `extensions.toml`).
    /// Kept for the whole scope, not per manifest: browsers share parents (`/etc/opt`), and a folder
    /// goes only when it is empty, whichever registration is removed last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_dirs: Vec<PathBuf>,
    #[serde(default, rename = "manifest", skip_serializing_if = "Vec::is_empty")]
    pub manifests: Vec<Entry>,
    /// Extension ids `install --extension-id` added to `extensions.toml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<AddedIds>,
}

/// One manifest written, and what came with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The browser it was written for; none for a profile folder named without `--browser`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<Browser>,
    /// The profile folder (`--user-data-dir`) it was written into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<PathBuf>,
    /// The manifest file.
    pub path: PathBuf,
    /// Windows: the registry key whose default value names `path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_key: Option<String>,
}

/// Ids added to the user's `extensions.toml`, and whether `install` created that file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AddedIds {
    pub store: PathBuf,
    pub ids: Vec<String>,
    #[serde(default)]
    pub created_store: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot read the record of what install wrote, {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error(
        "the record of what install wrote, {}, is not readable ({message}); move it away to start a new \
         one (the files it lists then stay until you remove them)",
        path.display()
    )]
    Parse { path: PathBuf, message: String },
    #[error("cannot write the record of what install wrote, {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

impl Record {
    pub fn is_empty(&self) -> bool {
        self.manifests.is_empty() && self.extensions.is_none() && self.created_dirs.is_empty()
    }

    /// Whether no registration is left (folders alone do not keep a record alive).
    pub fn holds_nothing_to_undo(&self) -> bool {
        self.manifests.is_empty() && self.extensions.is_none()
    }

    /// Adds what one write did. Writing the same file (and key) again keeps one entry.
    pub fn add(&mut self, entry: Entry) {
        match self
            .manifests
            .iter_mut()
            .find(|e| e.path == entry.path && e.registry_key == entry.registry_key)
        {
            Some(known) => *known = entry,
            None => self.manifests.push(entry),
        }
    }

    /// Adds folders a write created.
    pub fn add_dirs(&mut self, dirs: Vec<PathBuf>) {
        for dir in dirs {
            if !self.created_dirs.contains(&dir) {
                self.created_dirs.push(dir);
            }
        }
    }

    /// Adds an id `install` registered.
    pub fn add_id(&mut self, store: &Path, id: &str, created_store: bool) {
        let added = self.extensions.get_or_insert_with(|| AddedIds {
            store: store.to_path_buf(),
            ids: Vec::new(),
            created_store,
        });
        if !added.ids.iter().any(|known| known == id) {
            added.ids.push(id.to_owned());
        }
    }

    /// Forgets what is gone already: manifests deleted (a throwaway profile removed with its
    /// manifest) unless a registry key still names them, and folders no longer there.
    pub fn prune(&mut self) {
        self.manifests
            .retain(|e| e.registry_key.is_some() || e.path.exists());
        self.created_dirs.retain(|d| d.exists());
    }
}

/// The record at `path`; empty when there is none.
pub fn load(path: &Path) -> Result<Record, RecordError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Record::default()),
        Err(source) => {
            return Err(RecordError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    toml::from_str(&text).map_err(|e| RecordError::Parse {
        path: path.to_path_buf(),
        message: e.to_string().trim_end().to_owned(),
    })
}

/// Writes `record` to `path`, or removes the file once the record is empty: after a full uninstall
/// nothing of install's is left, the record included (its folder is among the created ones).
pub fn save(path: &Path, record: &Record) -> Result<(), RecordError> {
    let err = |source| RecordError::Write {
        path: path.to_path_buf(),
        source,
    };
    if record.is_empty() {
        return match std::fs::remove_file(path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(err(e)),
        };
    }
    let body = toml::to_string(record).map_err(|e| RecordError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let text = format!(
        "# What `waymark-host install` wrote, so that `waymark-host uninstall` removes exactly that.\n\
         # Written by waymark-host; an entry removed here is no longer removed by uninstall.\n{body}"
    );
    crate::atomic_file::write_private(path, text.as_bytes()).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &Path) -> Entry {
        Entry {
            browser: Some(Browser::Chromium),
            profile: None,
            path: path.to_path_buf(),
            registry_key: None,
        }
    }

    #[test]
    fn a_record_round_trips_privately_and_disappears_when_empty() {
        let dir = tempfile::tempdir().unwrap();
        let waymark = dir.path().join("waymark");
        let path = waymark.join("installed.toml");
        assert_eq!(
            load(&path).unwrap(),
            Record::default(),
            "no file: nothing recorded"
        );

        let mut record = Record::default();
        record.add(entry(&dir.path().join("a.json")));
        record.add_dirs(vec![dir.path().join("made"), waymark.clone()]);
        record.add_id(
            &dir.path().join("extensions.toml"),
            "abcdefghijklmnopabcdefghijklmnop",
            true,
        );
        save(&path, &record).unwrap();
        assert_eq!(load(&path).unwrap(), record);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# What `waymark-host install` wrote"), "{text}");
        assert!(
            text.contains("[[manifest]]") && text.contains("browser = \"chromium\""),
            "{text}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let leftovers: Vec<_> = std::fs::read_dir(&waymark).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file is left: {leftovers:?}");

        assert!(!record.holds_nothing_to_undo());
        save(&path, &Record::default()).unwrap();
        assert!(!path.exists());
    }

    #[test]
    fn writing_a_file_again_keeps_one_entry() {
        let mut record = Record::default();
        record.add(entry(Path::new("/x/made/a.json")));
        let mut again = entry(Path::new("/x/made/a.json"));
        again.browser = Some(Browser::Chrome);
        record.add(again);
        assert_eq!(record.manifests.len(), 1);
        assert_eq!(record.manifests[0].browser, Some(Browser::Chrome));
        // The same file under another registry key is another registration.
        let mut keyed = entry(Path::new("/x/made/a.json"));
        keyed.registry_key = Some(r"HKCU\Software\Chromium\NativeMessagingHosts\io.waymark.host".into());
        record.add(keyed);
        assert_eq!(record.manifests.len(), 2);
        record.add_dirs(vec![PathBuf::from("/x/made")]);
        record.add_dirs(vec![PathBuf::from("/x/made")]);
        assert_eq!(record.created_dirs.len(), 1);
    }

    #[test]
    fn what_is_gone_already_is_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("kept.json");
        std::fs::write(&kept, "{}").unwrap();
        let mut record = Record::default();
        record.add(entry(&kept));
        record.add(entry(&dir.path().join("gone.json")));
        record.add_dirs(vec![dir.path().join("gone-dir"), dir.path().to_path_buf()]);
        record.prune();
        let paths: Vec<_> = record.manifests.iter().map(|e| e.path.clone()).collect();
        assert_eq!(paths, vec![kept]);
        assert_eq!(record.created_dirs, vec![dir.path().to_path_buf()]);
    }

    #[test]
    fn a_broken_record_is_an_error_that_says_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("installed.toml");
        std::fs::write(&path, "[[manifest]\n").unwrap();
        let error = load(&path).unwrap_err().to_string();
        assert!(
            error.contains("not readable") && error.contains("move it away"),
            "{error}"
        );
    }
}
