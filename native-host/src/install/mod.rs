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
mod said;
mod uninstall;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::json;
use waymark_protocol::{EXTENSION_ID, HOST_NAME};

pub use ask::{ask, Answer};
pub use places::{manifest_file_name, Browser, Places, Platform, Scope};
pub use record::RecordError;
pub use said::{spoken_choice, spoken_list};
pub use uninstall::{uninstall, Kept, Removed, Thing, Which};

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
    pub note: Option<Note>,
}

/// Something the user should know about what install did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// A profile folder on Windows: browsers find hosts through the registry, not the folder.
    WindowsProfile,
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
        format!(
            "; found here: {}",
            spoken_list(found, &waymark_i18n::Words::english())
        )
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

/// The browsers found for `scope` on this computer, for the question, `--browser found` and error
/// messages. For one user, a browser installed for everyone that they have not opened yet counts.
pub fn found(scope: Scope, places: &Places) -> Vec<Browser> {
    Browser::ALL
        .into_iter()
        .filter(|b| {
            b.found(Platform::CURRENT, scope, places)
                || (scope == Scope::User && b.found(Platform::CURRENT, Scope::System, places))
        })
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
                installed.note = Some(Note::WindowsProfile);
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
    let result = made.and_then(|()| crate::atomic_file::write(path, text.as_bytes(), 0o644));
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

#[cfg(test)]
mod tests;
