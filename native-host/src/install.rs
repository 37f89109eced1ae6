//! Registers the host with the browsers: writes the native-messaging host manifest where Chrome,
//! Chromium and Edge look for it (Linux and macOS: a JSON file in a per-user folder; Windows: a JSON
//! file plus a registry key pointing at it).
//!
//! The manifest names exactly one extension origin: the fixed id from `manifest.json`'s `key`, unless the
//! user names another.

use std::path::{Path, PathBuf};

use serde_json::json;
use waymark_protocol::{EXTENSION_ID, HOST_NAME};

/// A browser family that reads native-messaging manifests from its own place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Browser {
    Chrome,
    Chromium,
    Edge,
}

impl Browser {
    pub const ALL: [Browser; 3] = [Browser::Chrome, Browser::Chromium, Browser::Edge];

    pub fn label(self) -> &'static str {
        match self {
            Browser::Chrome => "Google Chrome",
            Browser::Chromium => "Chromium",
            Browser::Edge => "Microsoft Edge",
        }
    }

    /// Where this browser looks for Waymark's host manifest (Linux, macOS), and its data folder.
    #[cfg_attr(windows, allow(dead_code))]
    pub fn manifest_location(self, home: &Path, config_home: &Path) -> (PathBuf, PathBuf) {
        let root = self.profile_root(home, config_home);
        let manifest = root
            .join("NativeMessagingHosts")
            .join(format!("{HOST_NAME}.json"));
        (manifest, root)
    }

    /// The browser's per-user data folder (its "user data dir"), relative to the platform's base.
    fn profile_root(self, home: &Path, config_home: &Path) -> PathBuf {
        if cfg!(target_os = "macos") {
            let support = home.join("Library/Application Support");
            match self {
                Browser::Chrome => support.join("Google/Chrome"),
                Browser::Chromium => support.join("Chromium"),
                Browser::Edge => support.join("Microsoft Edge"),
            }
        } else {
            match self {
                Browser::Chrome => config_home.join("google-chrome"),
                Browser::Chromium => config_home.join("chromium"),
                Browser::Edge => config_home.join("microsoft-edge"),
            }
        }
    }

    /// The browser's user data folder on Windows, under `%LOCALAPPDATA%`.
    #[cfg_attr(not(windows), allow(dead_code))]
    pub fn windows_data_dir(self, local_app_data: &Path) -> PathBuf {
        let vendor = match self {
            Browser::Chrome => local_app_data.join("Google").join("Chrome"),
            Browser::Chromium => local_app_data.join("Chromium"),
            Browser::Edge => local_app_data.join("Microsoft").join("Edge"),
        };
        vendor.join("User Data")
    }

    /// Registry key (under HKCU) that points at the manifest on Windows.
    #[cfg_attr(not(windows), allow(dead_code))]
    pub fn registry_key(self) -> String {
        let vendor = match self {
            Browser::Chrome => r"Google\Chrome",
            Browser::Chromium => "Chromium",
            Browser::Edge => r"Microsoft\Edge",
        };
        format!(r"HKCU\Software\{vendor}\NativeMessagingHosts\{HOST_NAME}")
    }
}

/// What to install, and for whom.
#[derive(Debug, Clone)]
pub struct InstallOptions {
    /// `None`: every supported browser found for this user.
    pub browser: Option<Browser>,
    /// A custom profile folder (`--user-data-dir`): the manifest goes into `DIR/NativeMessagingHosts/`.
    pub user_data_dir: Option<PathBuf>,
    pub extension_id: String,
    /// Absolute path of the host binary the browser should start.
    pub host_path: PathBuf,
}

/// One manifest written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub browser: Option<Browser>,
    pub manifest: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("{0:?} is not an extension id: ids are 32 letters from a to p")]
    BadExtensionId(String),
    #[error("the host path {0} is not absolute; browsers need an absolute path")]
    RelativeHostPath(PathBuf),
    #[error("cannot find your home folder: set HOME")]
    NoHome,
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[cfg_attr(not(windows), allow(dead_code))]
    #[error("cannot register the host for {browser} in the registry: {detail}")]
    Registry { browser: &'static str, detail: String },
}

/// The manifest's contents.
pub fn manifest(host_path: &Path, extension_id: &str) -> serde_json::Value {
    json!({
        "name": HOST_NAME,
        "description": "Waymark: an AI browser copilot for screen-reader users",
        "path": host_path,
        "type": "stdio",
        "allowed_origins": [format!("chrome-extension://{extension_id}/")],
    })
}

pub fn is_extension_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

/// Writes the manifest(s) and returns where they went, plus a note for the user when the choice of
/// browsers was not obvious.
pub fn install(opts: &InstallOptions) -> Result<(Vec<Installed>, Option<String>), InstallError> {
    if !is_extension_id(&opts.extension_id) {
        return Err(InstallError::BadExtensionId(opts.extension_id.clone()));
    }
    if !opts.host_path.is_absolute() {
        return Err(InstallError::RelativeHostPath(opts.host_path.clone()));
    }
    let body = manifest(&plain_path(&opts.host_path), &opts.extension_id);

    if let Some(dir) = &opts.user_data_dir {
        // Chromium reads DIR/NativeMessagingHosts first when started with --user-data-dir=DIR (Linux, macOS).
        let path = dir.join("NativeMessagingHosts").join(format!("{HOST_NAME}.json"));
        write_json(&path, &body)?;
        let note = cfg!(windows).then(|| {
            "on Windows browsers find hosts through the registry, not the profile folder".to_string()
        });
        return Ok((
            vec![Installed {
                browser: opts.browser,
                manifest: path,
            }],
            note,
        ));
    }

    let home = home_dir().ok_or(InstallError::NoHome)?;
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| home.join(".config"));

    let (browsers, note) = match opts.browser {
        Some(b) => (vec![b], None),
        None => {
            let found: Vec<Browser> = Browser::ALL
                .into_iter()
                .filter(|b| cfg!(windows) || b.profile_root(&home, &config_home).is_dir())
                .collect();
            if found.is_empty() {
                (
                    Browser::ALL.to_vec(),
                    Some(
                        "no Chrome, Chromium or Edge profile was found for this user; the host is registered \
                         for all three, so a browser installed later finds it"
                            .to_string(),
                    ),
                )
            } else {
                (found, None)
            }
        }
    };

    let mut out = Vec::new();
    for browser in browsers {
        out.push(install_one(browser, &home, &config_home, &body)?);
    }
    Ok((out, note))
}

#[cfg(not(windows))]
fn install_one(
    browser: Browser,
    home: &Path,
    config_home: &Path,
    body: &serde_json::Value,
) -> Result<Installed, InstallError> {
    let path = browser
        .profile_root(home, config_home)
        .join("NativeMessagingHosts")
        .join(format!("{HOST_NAME}.json"));
    write_json(&path, body)?;
    Ok(Installed {
        browser: Some(browser),
        manifest: path,
    })
}

#[cfg(windows)]
fn install_one(
    browser: Browser,
    home: &Path,
    _config_home: &Path,
    body: &serde_json::Value,
) -> Result<Installed, InstallError> {
    // One manifest file serves every browser; each browser's registry key points at it.
    let base = std::env::var_os("LOCALAPPDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join("AppData/Local"));
    let path = base.join("Waymark").join(format!("{HOST_NAME}.json"));
    write_json(&path, body)?;
    let status = std::process::Command::new("reg")
        .args(["add", &browser.registry_key(), "/ve", "/t", "REG_SZ", "/d"])
        .arg(&path)
        .arg("/f")
        .output()
        .map_err(|e| InstallError::Registry {
            browser: browser.label(),
            detail: e.to_string(),
        })?;
    if !status.status.success() {
        return Err(InstallError::Registry {
            browser: browser.label(),
            detail: String::from_utf8_lossy(&status.stderr).into_owned(),
        });
    }
    Ok(Installed {
        browser: Some(browser),
        manifest: path,
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

fn write_json(path: &Path, body: &serde_json::Value) -> Result<(), InstallError> {
    let err = |source| InstallError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let text = serde_json::to_string_pretty(body).unwrap_or_default();
    std::fs::write(path, text + "\n").map_err(err)
}

fn home_dir() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// Default extension id for `install`.
pub fn default_extension_id() -> &'static str {
    EXTENSION_ID
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_paths::{abs, path};

    fn opts(dir: &Path) -> InstallOptions {
        InstallOptions {
            browser: None,
            user_data_dir: Some(dir.to_path_buf()),
            extension_id: EXTENSION_ID.into(),
            host_path: path("/opt/waymark/waymark-host"),
        }
    }

    #[test]
    fn user_data_dir_gets_a_manifest_naming_exactly_our_origin() {
        let dir = tempfile::tempdir().unwrap();
        let (installed, _) = install(&opts(dir.path())).unwrap();
        let path = dir.path().join("NativeMessagingHosts/io.waymark.host.json");
        assert_eq!(
            installed,
            vec![Installed {
                browser: None,
                manifest: path.clone()
            }]
        );
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(written["name"], "io.waymark.host");
        assert_eq!(written["type"], "stdio");
        assert_eq!(written["path"], abs("/opt/waymark/waymark-host"));
        assert_eq!(
            written["allowed_origins"],
            json!([format!("chrome-extension://{EXTENSION_ID}/")])
        );
    }

    #[test]
    fn bad_ids_and_relative_paths_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = opts(dir.path());
        o.extension_id = "not-an-id".into();
        assert!(matches!(install(&o), Err(InstallError::BadExtensionId(_))));
        let mut o = opts(dir.path());
        o.host_path = PathBuf::from("waymark-host");
        assert!(matches!(install(&o), Err(InstallError::RelativeHostPath(_))));
        assert!(
            !dir.path().join("NativeMessagingHosts").exists(),
            "nothing written on refusal"
        );
    }

    #[test]
    fn the_fixed_id_is_an_id() {
        assert!(is_extension_id(EXTENSION_ID));
        assert!(!is_extension_id("cefdccnmncoeemlgklbddcicjlldkfkz"));
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
}
