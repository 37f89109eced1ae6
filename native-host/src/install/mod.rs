//! Registers the host with the browsers, and takes it away again.
//!
//! `waymark-host install` writes the native-messaging host manifest where Chrome, Chromium and Edge
//! look for it — on Linux and macOS a JSON file in a folder of the browser's, on Windows one JSON file
//! and a registry key per browser naming it ([`places`]) — for the user who runs it, for every user
//! (`--system`), or into one profile folder (`--user-data-dir`). `waymark-host uninstall` removes it.
//!
//! Which browsers is always somebody's choice: `--browser`, or the question in [`ask`] on a terminal;
//! without either, `install` refuses and says what to pass. Every file, registry key and folder written,
//! and every extension id added to `extensions.toml`, goes into the [`record`], and `uninstall` removes
//! exactly what the record names. The manifest allows Waymark's own ids (the development id and the
//! store ids, [`crate::origin::builtin_ids`]) plus the one named with `--extension-id`.
//!
//! What it must not do: write anywhere nobody chose, or remove anything the record does not name (and
//! a manifest that is no longer Waymark's is left where it is, with a sentence saying so).

mod ask;
mod places;
mod record;

use std::collections::HashSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::json;
use waymark_protocol::{EXTENSION_ID, HOST_NAME};

pub use ask::{ask, spoken_list, Answer};
pub use places::{manifest_file_name, Browser, Places, Platform, Scope};
pub use record::RecordError;

use crate::origin::{self, StoreError};
use record::{Entry, Record};

/// Where the manifest goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The places these browsers read, for the scope.
    Browsers(Vec<Browser>),
    /// `DIR/NativeMessagingHosts/`, read by a browser started with `--user-data-dir=DIR`; the browser
    /// is only a label for the record and for people.
    Profile { dir: PathBuf, browser: Option<Browser> },
}

/// What to install, and for whom.
#[derive(Debug, Clone)]
pub struct InstallOptions {
    pub scope: Scope,
    pub target: Target,
    pub extension_id: String,
    /// Absolute path of the host binary the browser should start.
    pub host_path: PathBuf,
    /// The user's `extensions.toml`, where an id other than Waymark's own is registered; `None` when
    /// there is no configuration folder.
    pub extension_store: Option<PathBuf>,
}

/// One manifest written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub browser: Option<Browser>,
    pub manifest: PathBuf,
    pub registry_key: Option<String>,
}

/// What `install` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub written: Vec<Written>,
    /// Whether `--extension-id` was new to `extensions.toml`.
    pub id_added: bool,
    /// Where it was recorded.
    pub record: PathBuf,
    /// Something the user should know about the choice.
    pub note: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("{0:?} is not an extension id: ids are 32 letters from a to p")]
    BadExtensionId(String),
    #[error("the host path {0} is not absolute; browsers need an absolute path")]
    RelativeHostPath(PathBuf),
    #[error("cannot find your home folder: set HOME")]
    NoHome,
    #[error(
        "which browsers? install asks only on a terminal, and this is not one: pass --browser chrome, \
         chromium or edge (several: --browser chrome,edge), or --browser all{}",
        found_here(found)
    )]
    NoChoice { found: Vec<Browser> },
    #[error(
        "--extension-id {0} cannot be registered for every user: the host started for each user serves \
         only Waymark's own ids and those that user registered; run `waymark-host install \
         --extension-id {0}` as that user instead"
    )]
    OtherIdSystemWide(String),
    #[error(
        "cannot write {}: permission denied; registering for every user needs root (sudo waymark-host \
         install --system …) or, on Windows, an administrator",
        path.display()
    )]
    NeedsAdmin { path: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot point the registry key {key} at the manifest: {detail}")]
    Registry { key: String, detail: String },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Ids(#[from] StoreError),
}

fn found_here(found: &[Browser]) -> String {
    if found.is_empty() {
        "; no Chrome, Chromium or Edge was found here".to_owned()
    } else {
        format!("; found here: {}", spoken_list(found))
    }
}

/// The ids a manifest allows: Waymark's own, plus `extra` when it is another.
pub fn allowed_ids(extra: &str) -> Vec<String> {
    let mut ids: Vec<String> = origin::builtin_ids().map(str::to_owned).collect();
    if !ids.iter().any(|id| id == extra) {
        ids.push(extra.to_owned());
    }
    ids
}

/// The manifest's contents.
pub fn manifest(host_path: &Path, ids: &[String]) -> serde_json::Value {
    let origins: Vec<String> = ids.iter().map(|id| format!("chrome-extension://{id}/")).collect();
    json!({
        "name": HOST_NAME,
        "description": "Waymark: an AI browser copilot for screen-reader users",
        "path": host_path,
        "type": "stdio",
        "allowed_origins": origins,
    })
}

pub fn is_extension_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

/// Default extension id for `install`.
pub fn default_extension_id() -> &'static str {
    EXTENSION_ID
}

/// The browsers found for `scope` on this computer, for the question and for error messages.
pub fn found(scope: Scope, places: &Places) -> Vec<Browser> {
    Browser::ALL
        .into_iter()
        .filter(|b| b.found(Platform::CURRENT, scope, places))
        .collect()
}

/// Writes the manifest(s), registers a new `--extension-id`, and records all of it.
pub fn install(opts: &InstallOptions, places: &Places) -> Result<Installed, InstallError> {
    install_on(Platform::CURRENT, opts, places)
}

fn install_on(platform: Platform, opts: &InstallOptions, places: &Places) -> Result<Installed, InstallError> {
    if !is_extension_id(&opts.extension_id) {
        return Err(InstallError::BadExtensionId(opts.extension_id.clone()));
    }
    if !opts.host_path.is_absolute() {
        return Err(InstallError::RelativeHostPath(opts.host_path.clone()));
    }
    if opts.scope == Scope::System && !origin::is_builtin(&opts.extension_id) {
        return Err(InstallError::OtherIdSystemWide(opts.extension_id.clone()));
    }
    let body = manifest(&plain_path(&opts.host_path), &allowed_ids(&opts.extension_id));
    let text = serde_json::to_string_pretty(&body).unwrap_or_default() + "\n";

    let record_path = places.record_path(opts.scope);
    let mut record = record::load(&record_path)?;
    let mut installed = Installed {
        written: Vec::new(),
        id_added: false,
        record: record_path.clone(),
        note: None,
    };
    let result = write_all(platform, opts, places, &text, &mut record, &mut installed);
    // Recorded even after a failure: what was written by then is still install's to remove.
    if let Some(dir) = record_path.parent() {
        record.add_dirs(create_dirs(dir, false).0);
    }
    record.prune();
    let saved = record::save(&record_path, &record);
    result?;
    saved?;
    Ok(installed)
}

fn write_all(
    platform: Platform,
    opts: &InstallOptions,
    places: &Places,
    text: &str,
    record: &mut Record,
    installed: &mut Installed,
) -> Result<(), InstallError> {
    let public = opts.scope == Scope::System;
    match &opts.target {
        Target::Profile { dir, browser } => {
            let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
            let path = dir.join("NativeMessagingHosts").join(manifest_file_name());
            let (created_dirs, written) = write_manifest(&path, text, public);
            record.add_dirs(created_dirs);
            record.add(Entry {
                browser: *browser,
                profile: Some(dir),
                path: path.clone(),
                registry_key: None,
            });
            written.map_err(|source| write_error(&path, source, public))?;
            installed.written.push(Written {
                browser: *browser,
                manifest: path,
                registry_key: None,
            });
            if platform == Platform::Windows {
                installed.note = Some(
                    "on Windows browsers find hosts through the registry, not the profile folder".to_owned(),
                );
            }
        }
        Target::Browsers(browsers) => {
            for &browser in browsers {
                let path = browser.manifest_path(platform, opts.scope, places);
                let (created_dirs, written) = write_manifest(&path, text, public);
                record.add_dirs(created_dirs);
                let mut entry = Entry {
                    browser: Some(browser),
                    profile: None,
                    path: path.clone(),
                    registry_key: None,
                };
                if let Err(source) = written {
                    record.add(entry);
                    return Err(write_error(&path, source, public));
                }
                let key = (platform == Platform::Windows).then(|| browser.registry_key(opts.scope));
                if let Some(key) = &key {
                    if let Err(detail) = set_registry(key, &path) {
                        record.add(entry);
                        return Err(InstallError::Registry {
                            key: key.clone(),
                            detail,
                        });
                    }
                }
                entry.registry_key = key.clone();
                record.add(entry);
                installed.written.push(Written {
                    browser: Some(browser),
                    manifest: path,
                    registry_key: key,
                });
            }
        }
    }
    // An id other than Waymark's own is recorded, so the host serves it when the browser starts it for
    // that extension (see `origin`).
    if !origin::is_builtin(&opts.extension_id) {
        let store = opts.extension_store.as_ref().ok_or(StoreError::NoConfigDir)?;
        let existed = store.exists();
        if let Some(dir) = store.parent() {
            record.add_dirs(create_dirs(dir, false).0);
        }
        if origin::register(store, &opts.extension_id)? {
            record.add_id(store, &opts.extension_id, !existed);
            installed.id_added = true;
        }
    }
    Ok(())
}

fn write_error(path: &Path, source: std::io::Error, public: bool) -> InstallError {
    if public && source.kind() == std::io::ErrorKind::PermissionDenied {
        InstallError::NeedsAdmin {
            path: path.to_path_buf(),
        }
    } else {
        InstallError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Writes one manifest, creating its folder; returns the folders it created (deepest first, also when
/// the write then failed) and how the write went. `public`: folders every user's browser must read.
fn write_manifest(path: &Path, text: &str, public: bool) -> (Vec<PathBuf>, std::io::Result<()>) {
    let Some(dir) = path.parent() else {
        return (Vec::new(), Err(std::io::ErrorKind::InvalidInput.into()));
    };
    let (created, made) = create_dirs(dir, public);
    // 0644: the browser reads it as whichever user runs it.
    let result = made.and_then(|()| write_file(path, text.as_bytes(), 0o644));
    (created, result)
}

/// Creates `dir` and its missing parents; returns those that did not exist and do now.
fn create_dirs(dir: &Path, public: bool) -> (Vec<PathBuf>, std::io::Result<()>) {
    let mut missing = Vec::new();
    let mut next = Some(dir);
    while let Some(d) = next {
        if d.as_os_str().is_empty() || d.exists() {
            break;
        }
        missing.push(d.to_path_buf());
        next = d.parent();
    }
    let result = std::fs::create_dir_all(dir).and_then(|()| open_to_all(&missing, public));
    missing.retain(|d| d.exists());
    (missing, result)
}

/// Makes `dirs` readable by every user when `public`: a root whose umask is 077 would otherwise make
/// them unreadable to every browser.
#[cfg(unix)]
fn open_to_all(dirs: &[PathBuf], public: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    if public {
        for dir in dirs {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    Ok(())
}

/// Windows: folders inherit their access list; nothing to open.
#[cfg(not(unix))]
fn open_to_all(_dirs: &[PathBuf], _public: bool) -> std::io::Result<()> {
    Ok(())
}

/// Writes `bytes` to `path` whole: a temp file of its own beside it, then a rename. `mode` is the
/// file's permission bits on Unix.
pub(crate) fn write_file(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A name of its own: two installs at once (the end-to-end tests register profiles in parallel)
    // never write into the same temp file.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt as _;
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = mode;
        let mut file = options.open(&tmp)?;
        #[cfg(unix)]
        {
            // The umask narrows `mode` at creation; the file gets exactly `mode`.
            use std::os::unix::fs::PermissionsExt as _;
            file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(windows)]
fn set_registry(key: &str, manifest: &Path) -> Result<(), String> {
    let out = std::process::Command::new("reg")
        .args(["add", key, "/ve", "/t", "REG_SZ", "/d"])
        .arg(manifest)
        .arg("/f")
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        Err(if key.starts_with("HKLM") {
            format!("{why} (every user's key needs an administrator)")
        } else {
            why
        })
    }
}

#[cfg(not(windows))]
fn set_registry(_key: &str, _manifest: &Path) -> Result<(), String> {
    Err("the registry exists only on Windows".to_owned())
}

/// The default value of a key in the output of `reg query KEY /ve`:
/// `    (Default)    REG_SZ    C:\path\to\manifest.json`.
#[cfg(any(windows, test))]
pub fn registry_default(output: &str) -> Option<PathBuf> {
    output.lines().find_map(|line| {
        let (_, value) = line.split_once("REG_SZ")?;
        let value = value.trim();
        (!value.is_empty()).then(|| PathBuf::from(value))
    })
}

/// `path` without Windows' verbatim prefix (`\\?\C:\x` → `C:\x`, `\\?\UNC\srv\share` →
/// `\\srv\share`), which `canonicalize` adds there: Chrome starts a Windows host through `cmd.exe`,
/// which cannot run a verbatim path.
fn plain_path(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return PathBuf::from(format!(r"\\{rest}"));
    }
    match text.strip_prefix(r"\\?\") {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => PathBuf::from(rest),
        _ => path.to_path_buf(),
    }
}

/// Which of the recorded registrations `uninstall` removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Which {
    /// Everything recorded for the scope.
    All,
    /// The browsers' own places (not profile folders).
    Browsers(Vec<Browser>),
    /// One profile folder.
    Profile(PathBuf),
}

impl Which {
    fn matches(&self, entry: &Entry) -> bool {
        match self {
            Which::All => true,
            Which::Browsers(list) => {
                entry.profile.is_none() && entry.browser.is_some_and(|b| list.contains(&b))
            }
            Which::Profile(dir) => entry.profile.as_deref() == Some(absolute(dir).as_path()),
        }
    }

    fn describe(&self) -> String {
        match self {
            Which::All => String::new(),
            Which::Browsers(list) => spoken_list(list),
            Which::Profile(dir) => format!("the profile folder {}", absolute(dir).display()),
        }
    }
}

fn absolute(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// One thing `uninstall` did, or found, in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removed {
    File {
        path: PathBuf,
        browsers: Vec<Browser>,
    },
    #[cfg_attr(not(windows), allow(dead_code))]
    Key {
        key: String,
    },
    Dir {
        path: PathBuf,
    },
    Id {
        id: String,
        store: PathBuf,
    },
    Store {
        path: PathBuf,
    },
    AlreadyGone {
        what: String,
    },
    LeftAlone {
        what: String,
        why: &'static str,
    },
    Failed {
        what: String,
        error: String,
    },
    NothingRecorded {
        what: String,
        record: PathBuf,
    },
}

impl std::fmt::Display for Removed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Removed::File { path, browsers } if browsers.is_empty() => {
                write!(f, "removed {}", path.display())
            }
            Removed::File { path, browsers } => {
                write!(f, "removed {} ({})", path.display(), spoken_list(browsers))
            }
            Removed::Key { key } => write!(f, "removed the registry key {key}"),
            Removed::Dir { path } => write!(
                f,
                "removed the folder {}, which install had created",
                path.display()
            ),
            Removed::Id { id, store } => {
                write!(
                    f,
                    "the extension {id} may no longer use this host (removed from {})",
                    store.display()
                )
            }
            Removed::Store { path } => write!(f, "removed {}, now empty", path.display()),
            Removed::AlreadyGone { what } => write!(f, "{what} was already gone"),
            Removed::LeftAlone { what, why } => write!(f, "left {what} where it is: {why}"),
            Removed::Failed { what, error } => write!(f, "could not remove {what}: {error}"),
            Removed::NothingRecorded { what, record } if what.is_empty() => {
                write!(f, "nothing is recorded in {}", record.display())
            }
            Removed::NothingRecorded { what, record } => {
                write!(f, "nothing is recorded for {what} in {}", record.display())
            }
        }
    }
}

/// Removes what `install` recorded for `which` in `scope`, and forgets it; what could not be removed
/// stays recorded (and is reported as [`Removed::Failed`]) so a second run can finish.
pub fn uninstall(scope: Scope, which: &Which, places: &Places) -> Result<Vec<Removed>, InstallError> {
    let record_path = places.record_path(scope);
    let mut record = record::load(&record_path)?;
    let (chosen, mut kept): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut record.manifests)
        .into_iter()
        .partition(|e| which.matches(e));
    if chosen.is_empty() {
        record.manifests = kept;
        return Ok(vec![Removed::NothingRecorded {
            what: which.describe(),
            record: record_path,
        }]);
    }
    let mut done = Vec::new();

    // Registry keys first: a key naming a missing file would send the browser to nothing.
    let mut cleared = Vec::new();
    for mut entry in chosen {
        if let Some(key) = entry.registry_key.clone() {
            match remove_key(&key, &entry.path) {
                Ok(step) => done.push(step),
                Err(error) => {
                    done.push(Removed::Failed {
                        what: format!("the registry key {key}"),
                        error,
                    });
                    kept.push(entry);
                    continue;
                }
            }
            entry.registry_key = None;
        }
        cleared.push(entry);
    }

    // Then each file once (on Windows one file serves every browser), unless a registration that stays
    // still uses it.
    let needed: HashSet<PathBuf> = kept.iter().map(|e| e.path.clone()).collect();
    let mut paths: Vec<PathBuf> = Vec::new();
    for entry in &cleared {
        if !paths.contains(&entry.path) {
            paths.push(entry.path.clone());
        }
    }
    for path in paths {
        let (of_path, rest): (Vec<Entry>, Vec<Entry>) = cleared.into_iter().partition(|e| e.path == path);
        cleared = rest;
        if needed.contains(&path) {
            continue;
        }
        let browsers: Vec<Browser> = of_path.iter().filter_map(|e| e.browser).collect();
        match remove_manifest(&path, browsers) {
            Ok(step) => done.push(step),
            Err(error) => {
                done.push(Removed::Failed {
                    what: path.display().to_string(),
                    error: error.to_string(),
                });
                kept.extend(of_path);
            }
        }
    }

    // The ids were there for the manifests; with the last manifest gone they go too.
    if kept.is_empty() {
        if let Some(added) = record.extensions.take() {
            for id in &added.ids {
                if origin::unregister(&added.store, id)? {
                    done.push(Removed::Id {
                        id: id.clone(),
                        store: added.store.clone(),
                    });
                }
            }
            if added.created_store && added.store.exists() && origin::load(&added.store)?.is_empty() {
                match std::fs::remove_file(&added.store) {
                    Ok(()) => done.push(Removed::Store {
                        path: added.store.clone(),
                    }),
                    Err(e) => done.push(Removed::Failed {
                        what: added.store.display().to_string(),
                        error: e.to_string(),
                    }),
                }
            }
        }
    }
    record.manifests = kept;

    // With nothing left to undo, the record goes too, before the folders (its own among them).
    let finished = record.holds_nothing_to_undo();
    if finished {
        record::save(&record_path, &Record::default())?;
    }
    // Then the folders install created, deepest first: any that is empty now. One that holds anything
    // else stays; once nothing is left to undo it is no longer install's (a browser's data lives in it).
    let mut dirs = std::mem::take(&mut record.created_dirs);
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for dir in dirs {
        if std::fs::remove_dir(&dir).is_ok() {
            done.push(Removed::Dir { path: dir });
        } else if !finished && dir.exists() {
            record.created_dirs.push(dir);
        }
    }
    if !finished {
        record::save(&record_path, &record)?;
    }
    Ok(done)
}

/// Removes the manifest at `path` if it is still Waymark's.
fn remove_manifest(path: &Path, browsers: Vec<Browser>) -> std::io::Result<Removed> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Removed::AlreadyGone {
                what: path.display().to_string(),
            })
        }
        Err(e) => return Err(e),
    };
    let ours = serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|manifest| manifest["name"].as_str() == Some(HOST_NAME));
    if !ours {
        return Ok(Removed::LeftAlone {
            what: path.display().to_string(),
            why: "it is no longer a Waymark host manifest",
        });
    }
    std::fs::remove_file(path)?;
    Ok(Removed::File {
        path: path.to_path_buf(),
        browsers,
    })
}

/// Removes the registry key if it still names `manifest`.
#[cfg(windows)]
fn remove_key(key: &str, manifest: &Path) -> Result<Removed, String> {
    let query = std::process::Command::new("reg")
        .args(["query", key, "/ve"])
        .output()
        .map_err(|e| e.to_string())?;
    if !query.status.success() {
        return Ok(Removed::AlreadyGone {
            what: format!("the registry key {key}"),
        });
    }
    let names = registry_default(&String::from_utf8_lossy(&query.stdout));
    let same = names.is_some_and(|named| {
        named.to_string_lossy().to_lowercase() == manifest.to_string_lossy().to_lowercase()
    });
    if !same {
        return Ok(Removed::LeftAlone {
            what: format!("the registry key {key}"),
            why: "it names another manifest now",
        });
    }
    let delete = std::process::Command::new("reg")
        .args(["delete", key, "/f"])
        .output()
        .map_err(|e| e.to_string())?;
    if delete.status.success() {
        Ok(Removed::Key { key: key.to_owned() })
    } else {
        Err(String::from_utf8_lossy(&delete.stderr).trim().to_owned())
    }
}

#[cfg(not(windows))]
fn remove_key(key: &str, _manifest: &Path) -> Result<Removed, String> {
    Ok(Removed::LeftAlone {
        what: format!("the registry key {key}"),
        why: "the registry exists only on Windows",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_paths::path;

    const OTHER: &str = "abcdefghijklmnopabcdefghijklmnop";

    fn host() -> PathBuf {
        path("/opt/waymark/waymark-host")
    }

    fn opts(scope: Scope, target: Target) -> InstallOptions {
        InstallOptions {
            scope,
            target,
            extension_id: EXTENSION_ID.into(),
            host_path: host(),
            extension_store: None,
        }
    }

    fn read_json(path: &Path) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// Every file and folder under `dir`, relative, sorted.
    fn tree(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for item in std::fs::read_dir(&d).unwrap() {
                let p = item.unwrap().path();
                out.push(p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
                if p.is_dir() {
                    stack.push(p);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_profile_folder_gets_a_manifest_naming_waymarks_origins() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let profile = dir.path().join("profile");
        let done = install_on(
            Platform::Linux,
            &opts(
                Scope::User,
                Target::Profile {
                    dir: profile.clone(),
                    browser: None,
                },
            ),
            &places,
        )
        .unwrap();
        let manifest = profile.join("NativeMessagingHosts/io.waymark.host.json");
        assert_eq!(
            done.written,
            vec![Written {
                browser: None,
                manifest: manifest.clone(),
                registry_key: None
            }]
        );
        let written = read_json(&manifest);
        assert_eq!(written["name"], "io.waymark.host");
        assert_eq!(written["type"], "stdio");
        assert_eq!(written["path"], host().to_string_lossy().as_ref());
        let origins: Vec<String> = origin::builtin_ids()
            .map(|id| format!("chrome-extension://{id}/"))
            .collect();
        assert_eq!(written["allowed_origins"], json!(origins));
        assert_eq!(
            written["allowed_origins"][0],
            format!("chrome-extension://{EXTENSION_ID}/")
        );
    }

    #[test]
    fn bad_ids_and_relative_paths_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let target = Target::Browsers(vec![Browser::Chromium]);
        let mut o = opts(Scope::User, target.clone());
        o.extension_id = "not-an-id".into();
        assert!(matches!(
            install_on(Platform::Linux, &o, &places),
            Err(InstallError::BadExtensionId(_))
        ));
        let mut o = opts(Scope::User, target.clone());
        o.host_path = PathBuf::from("waymark-host");
        assert!(matches!(
            install_on(Platform::Linux, &o, &places),
            Err(InstallError::RelativeHostPath(_))
        ));
        let mut o = opts(Scope::System, target);
        o.extension_id = OTHER.into();
        let error = install_on(Platform::Linux, &o, &places).unwrap_err();
        assert!(matches!(error, InstallError::OtherIdSystemWide(_)), "{error}");
        assert!(!dir.path().join("home").exists() && !dir.path().join("root").exists());
    }

    #[test]
    fn the_fixed_id_is_an_id() {
        assert!(is_extension_id(EXTENSION_ID));
        assert!(!is_extension_id("cefdccnmncoeemlgklbddcicjlldkfkz"));
        assert_eq!(
            allowed_ids(EXTENSION_ID),
            origin::builtin_ids().map(str::to_owned).collect::<Vec<_>>()
        );
        assert_eq!(allowed_ids(OTHER).last().map(String::as_str), Some(OTHER));
    }

    #[test]
    fn the_manifest_names_the_host_without_a_verbatim_prefix() {
        assert_eq!(
            plain_path(Path::new(r"\\?\C:\Program Files\Waymark\waymark-host.exe")),
            PathBuf::from(r"C:\Program Files\Waymark\waymark-host.exe")
        );
        assert_eq!(
            plain_path(Path::new(r"\\?\UNC\server\share\waymark-host.exe")),
            PathBuf::from(r"\\server\share\waymark-host.exe")
        );
        assert_eq!(
            plain_path(Path::new("/opt/waymark/waymark-host")),
            PathBuf::from("/opt/waymark/waymark-host")
        );
    }

    #[test]
    fn the_registry_names_the_manifest() {
        let out = "\r\nHKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\io.waymark.host\r\n    \
                   (Default)    REG_SZ    C:\\Users\\ada\\AppData\\Local\\Waymark\\io.waymark.host.json\r\n\r\n";
        assert_eq!(
            registry_default(out),
            Some(PathBuf::from(
                r"C:\Users\ada\AppData\Local\Waymark\io.waymark.host.json"
            ))
        );
        assert_eq!(
            registry_default("ERROR: The system was unable to find the specified registry key"),
            None
        );
        assert_eq!(registry_default("    (Default)    REG_SZ    \r\n"), None);
    }

    #[test]
    fn system_wide_install_then_uninstall_leaves_the_tree_as_it_was() {
        for platform in [Platform::Linux, Platform::MacOs] {
            let dir = tempfile::tempdir().unwrap();
            let places = Places::under(platform, dir.path());
            // Something of the system's own that must survive: an existing /etc with another host in it.
            let other_host = places
                .root
                .join("etc/chromium/native-messaging-hosts/org.other.host.json");
            std::fs::create_dir_all(other_host.parent().unwrap()).unwrap();
            std::fs::write(&other_host, "{}").unwrap();
            let before = tree(dir.path());

            let target = Target::Browsers(vec![Browser::Chrome, Browser::Chromium]);
            let done = install_on(platform, &opts(Scope::System, target), &places).unwrap();
            assert_eq!(done.written.len(), 2);
            for w in &done.written {
                let browser = w.browser.unwrap();
                assert_eq!(
                    w.manifest,
                    browser.manifest_path(platform, Scope::System, &places)
                );
                assert_eq!(read_json(&w.manifest)["name"], "io.waymark.host");
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt as _;
                    let mode = std::fs::metadata(&w.manifest).unwrap().permissions().mode();
                    assert_eq!(mode & 0o777, 0o644, "every user's browser reads it");
                    let dir_mode = std::fs::metadata(w.manifest.parent().unwrap())
                        .unwrap()
                        .permissions()
                        .mode();
                    assert_eq!(dir_mode & 0o755, 0o755);
                }
            }
            assert!(
                !Browser::Edge
                    .manifest_path(platform, Scope::System, &places)
                    .exists(),
                "not chosen"
            );
            assert_eq!(done.record, places.record_path(Scope::System));
            assert!(
                !places.record_path(Scope::User).exists(),
                "the user's record is not the computer's"
            );

            let removed = uninstall(Scope::System, &Which::All, &places).unwrap();
            assert!(
                removed
                    .iter()
                    .filter(|r| matches!(r, Removed::File { .. }))
                    .count()
                    == 2,
                "{removed:?}"
            );
            assert_eq!(tree(dir.path()), before, "{platform:?}: {removed:#?}");
            assert!(other_host.exists());
        }
    }

    #[test]
    fn uninstalling_one_browser_keeps_the_others_and_their_shared_folders() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let target = Target::Browsers(Browser::ALL.to_vec());
        install_on(Platform::Linux, &opts(Scope::System, target), &places).unwrap();
        let chrome = Browser::Chrome.manifest_path(Platform::Linux, Scope::System, &places);
        let edge = Browser::Edge.manifest_path(Platform::Linux, Scope::System, &places);

        let removed = uninstall(Scope::System, &Which::Browsers(vec![Browser::Chrome]), &places).unwrap();
        assert!(!chrome.exists() && edge.exists(), "{removed:?}");
        // root/etc/opt/chrome went; root/etc/opt still holds edge.
        assert!(!chrome.parent().unwrap().parent().unwrap().exists());
        assert!(places.root.join("etc/opt").exists());
        let said: Vec<String> = removed.iter().map(ToString::to_string).collect();
        assert!(
            said[0].starts_with("removed ") && said[0].ends_with("(Google Chrome)"),
            "{said:?}"
        );

        let again = uninstall(Scope::System, &Which::Browsers(vec![Browser::Chrome]), &places).unwrap();
        assert!(
            matches!(&again[..], [Removed::NothingRecorded { .. }]),
            "{again:?}"
        );
        assert!(again[0]
            .to_string()
            .starts_with("nothing is recorded for Google Chrome in "));

        uninstall(Scope::System, &Which::All, &places).unwrap();
        assert_eq!(
            tree(dir.path()),
            Vec::<String>::new(),
            "root/etc, root/var/lib: all install's"
        );
    }

    #[test]
    fn a_manifest_that_is_no_longer_waymarks_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let done = install_on(
            Platform::Linux,
            &opts(Scope::User, Target::Browsers(vec![Browser::Edge])),
            &places,
        )
        .unwrap();
        let manifest = &done.written[0].manifest;
        std::fs::write(manifest, r#"{"name": "org.someone.else"}"#).unwrap();
        let removed = uninstall(Scope::User, &Which::All, &places).unwrap();
        assert!(manifest.exists());
        assert!(
            removed
                .iter()
                .any(|r| r.to_string().ends_with("it is no longer a Waymark host manifest")),
            "{removed:?}"
        );
        assert!(
            !places.record_path(Scope::User).exists(),
            "nothing of install's is left to remove"
        );
    }

    #[test]
    fn an_extension_id_is_registered_recorded_and_withdrawn() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let store = dir.path().join("config/waymark/extensions.toml");
        let profile = dir.path().join("profile");
        std::fs::create_dir(&profile).unwrap();
        let mut o = opts(
            Scope::User,
            Target::Profile {
                dir: profile.clone(),
                browser: Some(Browser::Chromium),
            },
        );
        o.extension_id = OTHER.into();
        o.extension_store = Some(store.clone());
        let done = install_on(Platform::Linux, &o, &places).unwrap();
        assert!(done.id_added);
        assert_eq!(origin::load(&store).unwrap(), vec![OTHER.to_owned()]);
        let manifest = read_json(&done.written[0].manifest);
        let origins = manifest["allowed_origins"].as_array().unwrap();
        assert!(
            origins.contains(&json!(format!("chrome-extension://{OTHER}/"))),
            "{manifest}"
        );
        assert!(
            origins.contains(&json!(format!("chrome-extension://{EXTENSION_ID}/"))),
            "{manifest}"
        );

        // Another profile for the same id: the id was already there, nothing new to record.
        let mut second = o.clone();
        second.target = Target::Profile {
            dir: dir.path().join("profile2"),
            browser: None,
        };
        assert!(!install_on(Platform::Linux, &second, &places).unwrap().id_added);

        // The id stays while a manifest still lets that extension start the host.
        let removed = uninstall(Scope::User, &Which::Profile(profile.clone()), &places).unwrap();
        assert!(!profile.join("NativeMessagingHosts").exists(), "{removed:?}");
        assert!(profile.exists(), "the profile folder was there before install");
        assert_eq!(origin::load(&store).unwrap(), vec![OTHER.to_owned()]);
        let removed = uninstall(Scope::User, &Which::All, &places).unwrap();
        assert!(origin::load(&store).unwrap().is_empty());
        assert!(!store.exists(), "install created it: {removed:?}");
        assert!(!store.parent().unwrap().exists(), "and its folder: {removed:?}");
        assert!(
            !dir.path().join("profile2").exists(),
            "install created that profile folder"
        );
        assert!(removed
            .iter()
            .any(|r| matches!(r, Removed::Id { id, .. } if id == OTHER)));
    }

    #[test]
    fn an_id_the_user_had_registered_before_is_not_withdrawn() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let store = dir.path().join("config/waymark/extensions.toml");
        origin::register(&store, OTHER).unwrap();
        let mut o = opts(Scope::User, Target::Browsers(vec![Browser::Chromium]));
        o.extension_id = OTHER.into();
        o.extension_store = Some(store.clone());
        assert!(!install_on(Platform::Linux, &o, &places).unwrap().id_added);
        uninstall(Scope::User, &Which::All, &places).unwrap();
        assert_eq!(origin::load(&store).unwrap(), vec![OTHER.to_owned()]);
    }

    #[test]
    fn a_write_that_fails_is_said_and_what_was_written_stays_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        // A file where Chrome's folder would go: the write fails (also as root, who passes any mode).
        std::fs::create_dir_all(places.root.join("etc")).unwrap();
        std::fs::write(places.root.join("etc/opt"), "").unwrap();
        let target = Target::Browsers(vec![Browser::Chromium, Browser::Chrome]);
        let error = install_on(Platform::Linux, &opts(Scope::System, target), &places).unwrap_err();
        assert!(matches!(error, InstallError::Write { .. }), "{error}");
        assert!(error.to_string().contains("etc/opt/chrome"), "{error}");
        let record = record::load(&places.record_path(Scope::System)).unwrap();
        assert_eq!(
            record.manifests.len(),
            1,
            "Chromium was written before Chrome failed"
        );
        assert_eq!(record.manifests[0].browser, Some(Browser::Chromium));

        let denied = write_error(
            Path::new("/etc/x"),
            std::io::ErrorKind::PermissionDenied.into(),
            true,
        );
        assert!(denied.to_string().contains("needs root"), "{denied}");
        let mine = write_error(
            Path::new("/home/x"),
            std::io::ErrorKind::PermissionDenied.into(),
            false,
        );
        assert!(matches!(mine, InstallError::Write { .. }), "{mine}");
    }

    #[test]
    fn a_gone_profile_is_forgotten_at_the_next_install() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        let throwaway = dir.path().join("throwaway");
        let o = opts(
            Scope::User,
            Target::Profile {
                dir: throwaway.clone(),
                browser: None,
            },
        );
        install_on(Platform::Linux, &o, &places).unwrap();
        std::fs::remove_dir_all(&throwaway).unwrap();
        let kept = dir.path().join("kept");
        install_on(
            Platform::Linux,
            &opts(
                Scope::User,
                Target::Profile {
                    dir: kept.clone(),
                    browser: None,
                },
            ),
            &places,
        )
        .unwrap();
        let record = record::load(&places.record_path(Scope::User)).unwrap();
        let profiles: Vec<_> = record
            .manifests
            .iter()
            .filter_map(|e| e.profile.clone())
            .collect();
        assert_eq!(profiles, vec![kept]);
    }
}
