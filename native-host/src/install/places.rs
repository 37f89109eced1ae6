//! Where each browser looks for Waymark's host manifest — for one user or for every user of the
//! computer, on Linux, macOS and Windows — and where `install` keeps its record of what it wrote.
//!
//! Every place is computed from a [`Places`] (the folders the environment names) and a [`Platform`], so
//! the tests check the macOS and Windows tables on Linux too, under a temp dir, and `docs/installers.md`
//! can say exactly what the tests hold. What it must not do: touch the file system beyond asking
//! whether a browser's folder exists — writing is `install`'s job.

use std::path::{Path, PathBuf};

use waymark_protocol::HOST_NAME;

/// The file name every browser looks for: the host's name plus `.json`.
pub fn manifest_file_name() -> String {
    format!("{HOST_NAME}.json")
}

/// The file, in the user's or the computer's Waymark folder, recording what `install` wrote.
pub const RECORD_FILE: &str = "installed.toml";

/// The operating systems whose browsers find hosts differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Linux,
    MacOs,
    Windows,
}

impl Platform {
    /// The platform this binary was built for (the BSDs read manifests where Linux does).
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else if cfg!(target_os = "macos") {
        Platform::MacOs
    } else {
        Platform::Linux
    };
}

/// For whom a registration is: the user running `install`, or every user (`--system`, as root or
/// administrator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    User,
    System,
}

/// A browser family that reads native-messaging manifests from its own place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

    /// The name `--browser` takes, and the debconf question's value.
    pub fn key(self) -> &'static str {
        match self {
            Browser::Chrome => "chrome",
            Browser::Chromium => "chromium",
            Browser::Edge => "edge",
        }
    }

    pub fn from_key(key: &str) -> Option<Browser> {
        Browser::ALL.into_iter().find(|b| b.key() == key)
    }

    /// The browser's per-user data folder (its default "user data dir").
    pub fn user_data_dir(self, platform: Platform, places: &Places) -> PathBuf {
        match platform {
            Platform::Linux => places.config_home.join(match self {
                Browser::Chrome => "google-chrome",
                Browser::Chromium => "chromium",
                Browser::Edge => "microsoft-edge",
            }),
            Platform::MacOs => {
                let support = places.home.join("Library").join("Application Support");
                match self {
                    Browser::Chrome => support.join("Google").join("Chrome"),
                    Browser::Chromium => support.join("Chromium"),
                    Browser::Edge => support.join("Microsoft Edge"),
                }
            }
            Platform::Windows => {
                let local = &places.local_app_data;
                let vendor = match self {
                    Browser::Chrome => local.join("Google").join("Chrome"),
                    Browser::Chromium => local.join("Chromium"),
                    Browser::Edge => local.join("Microsoft").join("Edge"),
                };
                vendor.join("User Data")
            }
        }
    }

    /// The folder the browser reads host manifests from; `None` on Windows, where a registry key
    /// names the manifest instead ([`Browser::registry_key`]).
    pub fn manifest_dir(self, platform: Platform, scope: Scope, places: &Places) -> Option<PathBuf> {
        let root = &places.root;
        match (platform, scope) {
            (Platform::Windows, _) => None,
            (_, Scope::User) => Some(self.user_data_dir(platform, places).join("NativeMessagingHosts")),
            // Chromium's own tables (chrome_paths): Google Chrome's branded build reads
            // /etc/opt/chrome, every other build /etc/chromium; Edge reads /etc/opt/edge.
            (Platform::Linux, Scope::System) => Some(match self {
                Browser::Chrome => root.join("etc/opt/chrome/native-messaging-hosts"),
                Browser::Chromium => root.join("etc/chromium/native-messaging-hosts"),
                Browser::Edge => root.join("etc/opt/edge/native-messaging-hosts"),
            }),
            (Platform::MacOs, Scope::System) => Some(match self {
                Browser::Chrome => root.join("Library/Google/Chrome/NativeMessagingHosts"),
                Browser::Chromium => root.join("Library/Application Support/Chromium/NativeMessagingHosts"),
                Browser::Edge => root.join("Library/Microsoft/Edge/NativeMessagingHosts"),
            }),
        }
    }

    /// The registry key whose default value names the manifest on Windows: under HKCU for one user,
    /// HKLM for every user.
    pub fn registry_key(self, scope: Scope) -> String {
        let hive = match scope {
            Scope::User => "HKCU",
            Scope::System => "HKLM",
        };
        let vendor = match self {
            Browser::Chrome => r"Google\Chrome",
            Browser::Chromium => "Chromium",
            Browser::Edge => r"Microsoft\Edge",
        };
        format!(r"{hive}\Software\{vendor}\NativeMessagingHosts\{HOST_NAME}")
    }

    /// Where the manifest for this browser goes: its manifest folder, or on Windows the one file in
    /// Waymark's own folder that every browser's registry key points at.
    pub fn manifest_path(self, platform: Platform, scope: Scope, places: &Places) -> PathBuf {
        match self.manifest_dir(platform, scope, places) {
            Some(dir) => dir.join(manifest_file_name()),
            None => places.waymark_dir(scope).join(manifest_file_name()),
        }
    }

    /// Folders whose presence shows the browser is there: for one user, its data folder (it has run
    /// at least once); for the computer, where its package installs it.
    fn markers(self, platform: Platform, scope: Scope, places: &Places) -> Vec<PathBuf> {
        if scope == Scope::User {
            return vec![self.user_data_dir(platform, places)];
        }
        let root = &places.root;
        match platform {
            Platform::Linux => match self {
                Browser::Chrome => vec![root.join("opt/google/chrome")],
                // Debian's package, and Ubuntu's older one.
                Browser::Chromium => vec![
                    root.join("usr/lib/chromium"),
                    root.join("usr/lib/chromium-browser"),
                ],
                Browser::Edge => vec![root.join("opt/microsoft/msedge")],
            },
            Platform::MacOs => {
                let app = match self {
                    Browser::Chrome => "Google Chrome.app",
                    Browser::Chromium => "Chromium.app",
                    Browser::Edge => "Microsoft Edge.app",
                };
                vec![root.join("Applications").join(app)]
            }
            Platform::Windows => {
                let sub = match self {
                    Browser::Chrome => r"Google\Chrome\Application",
                    Browser::Chromium => r"Chromium\Application",
                    Browser::Edge => r"Microsoft\Edge\Application",
                };
                places.program_files.iter().map(|dir| dir.join(sub)).collect()
            }
        }
    }

    /// Whether this browser seems to be there, for the question `install` asks.
    pub fn found(self, platform: Platform, scope: Scope, places: &Places) -> bool {
        self.markers(platform, scope, places).iter().any(|p| p.is_dir())
    }
}

/// The folders every place is computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `~/.config`: where Linux browsers keep their data.
    pub config_home: PathBuf,
    /// `%LOCALAPPDATA%`, else `~\AppData\Local`: where Windows browsers keep their data.
    pub local_app_data: PathBuf,
    /// Waymark's folder for this user: the record, and on Windows the manifest.
    pub user_dir: PathBuf,
    /// The root the system-wide places of Linux and macOS are under: `/` (a temp dir in tests).
    pub root: PathBuf,
    /// Waymark's folder for the computer: the record, and on Windows the manifest.
    pub system_dir: PathBuf,
    /// Windows: `%ProgramFiles%` and `%ProgramFiles(x86)%`, where browsers install for everyone.
    pub program_files: Vec<PathBuf>,
}

impl Places {
    /// The places of this computer, from the environment; `None` without a home folder.
    pub fn from_env(platform: Platform, env: &impl Fn(&str) -> Option<String>) -> Option<Places> {
        let absolute = |name: &str| env(name).map(PathBuf::from).filter(|p| p.is_absolute());
        let home = absolute(if platform == Platform::Windows {
            "USERPROFILE"
        } else {
            "HOME"
        })?;
        let config_home = absolute("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
        let local_app_data = absolute("LOCALAPPDATA").unwrap_or_else(|| home.join("AppData").join("Local"));
        let user_dir = match platform {
            // Where earlier versions wrote the Windows manifest: the registry keys point there.
            Platform::Windows => local_app_data.join("Waymark"),
            _ => absolute("XDG_DATA_HOME")
                .unwrap_or_else(|| home.join(".local").join("share"))
                .join("waymark"),
        };
        let root = PathBuf::from("/");
        let program_data = absolute("ProgramData").unwrap_or_else(|| PathBuf::from(r"C:\ProgramData"));
        let program_files = ["ProgramFiles", "ProgramFiles(x86)"]
            .into_iter()
            .filter_map(absolute)
            .collect();
        Some(Places {
            system_dir: system_dir(platform, &root, &program_data),
            home,
            config_home,
            local_app_data,
            user_dir,
            root,
            program_files,
        })
    }

    /// Every place under `base`, as a test wants them (nothing outside it is ever named).
    #[cfg(test)]
    pub fn under(platform: Platform, base: &Path) -> Places {
        let home = base.join("home");
        let root = base.join("root");
        let local_app_data = home.join("AppData").join("Local");
        let user_dir = match platform {
            Platform::Windows => local_app_data.join("Waymark"),
            _ => home.join(".local/share/waymark"),
        };
        Places {
            config_home: home.join(".config"),
            system_dir: system_dir(platform, &root, &root.join("ProgramData")),
            program_files: vec![root.join("Program Files")],
            home,
            local_app_data,
            user_dir,
            root,
        }
    }

    /// Waymark's own folder for `scope`.
    pub fn waymark_dir(&self, scope: Scope) -> &Path {
        match scope {
            Scope::User => &self.user_dir,
            Scope::System => &self.system_dir,
        }
    }

    /// The record of what `install` wrote for `scope`.
    pub fn record_path(&self, scope: Scope) -> PathBuf {
        self.waymark_dir(scope).join(RECORD_FILE)
    }
}

/// Waymark's folder for the whole computer: state a package manager would keep (`/var/lib`), the
/// macOS equivalent, or `%ProgramData%`.
fn system_dir(platform: Platform, root: &Path, program_data: &Path) -> PathBuf {
    match platform {
        Platform::Linux => root.join("var/lib/waymark"),
        Platform::MacOs => root.join("Library/Application Support/Waymark"),
        Platform::Windows => program_data.join("Waymark"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(places: &Places, path: &Path) -> String {
        let base = places.home.parent().unwrap();
        path.strip_prefix(base)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    }

    #[test]
    fn each_browser_reads_its_own_folders_on_linux() {
        let places = Places::under(Platform::Linux, Path::new("/t"));
        let table: Vec<(String, String)> = Browser::ALL
            .into_iter()
            .map(|b| {
                (
                    rel(&places, &b.manifest_path(Platform::Linux, Scope::User, &places)),
                    rel(&places, &b.manifest_path(Platform::Linux, Scope::System, &places)),
                )
            })
            .collect();
        assert_eq!(
            table,
            [
                (
                    "home/.config/google-chrome/NativeMessagingHosts/io.waymark.host.json",
                    "root/etc/opt/chrome/native-messaging-hosts/io.waymark.host.json"
                ),
                (
                    "home/.config/chromium/NativeMessagingHosts/io.waymark.host.json",
                    "root/etc/chromium/native-messaging-hosts/io.waymark.host.json"
                ),
                (
                    "home/.config/microsoft-edge/NativeMessagingHosts/io.waymark.host.json",
                    "root/etc/opt/edge/native-messaging-hosts/io.waymark.host.json"
                ),
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert_eq!(
            rel(&places, &places.record_path(Scope::User)),
            "home/.local/share/waymark/installed.toml"
        );
        assert_eq!(
            rel(&places, &places.record_path(Scope::System)),
            "root/var/lib/waymark/installed.toml"
        );
    }

    #[test]
    fn each_browser_reads_its_own_folders_on_macos() {
        let places = Places::under(Platform::MacOs, Path::new("/t"));
        let table: Vec<(String, String)> = Browser::ALL
            .into_iter()
            .map(|b| {
                (
                    rel(&places, &b.manifest_path(Platform::MacOs, Scope::User, &places)),
                    rel(&places, &b.manifest_path(Platform::MacOs, Scope::System, &places)),
                )
            })
            .collect();
        assert_eq!(
            table,
            [
                (
                    "home/Library/Application Support/Google/Chrome/NativeMessagingHosts/io.waymark.host.json",
                    "root/Library/Google/Chrome/NativeMessagingHosts/io.waymark.host.json"
                ),
                (
                    "home/Library/Application Support/Chromium/NativeMessagingHosts/io.waymark.host.json",
                    "root/Library/Application Support/Chromium/NativeMessagingHosts/io.waymark.host.json"
                ),
                (
                    "home/Library/Application Support/Microsoft Edge/NativeMessagingHosts/io.waymark.host.json",
                    "root/Library/Microsoft/Edge/NativeMessagingHosts/io.waymark.host.json"
                ),
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert_eq!(
            rel(&places, &places.record_path(Scope::System)),
            "root/Library/Application Support/Waymark/installed.toml"
        );
    }

    #[test]
    fn on_windows_one_file_per_scope_is_named_by_each_browsers_key() {
        let places = Places::under(Platform::Windows, Path::new("/t"));
        for browser in Browser::ALL {
            assert_eq!(
                browser.manifest_dir(Platform::Windows, Scope::User, &places),
                None
            );
            assert_eq!(
                rel(
                    &places,
                    &browser.manifest_path(Platform::Windows, Scope::User, &places)
                ),
                "home/AppData/Local/Waymark/io.waymark.host.json"
            );
            assert_eq!(
                rel(
                    &places,
                    &browser.manifest_path(Platform::Windows, Scope::System, &places)
                ),
                "root/ProgramData/Waymark/io.waymark.host.json"
            );
        }
        let keys: Vec<(String, String)> = Browser::ALL
            .into_iter()
            .map(|b| (b.registry_key(Scope::User), b.registry_key(Scope::System)))
            .collect();
        assert_eq!(
            keys,
            [
                (
                    r"HKCU\Software\Google\Chrome\NativeMessagingHosts\io.waymark.host",
                    r"HKLM\Software\Google\Chrome\NativeMessagingHosts\io.waymark.host"
                ),
                (
                    r"HKCU\Software\Chromium\NativeMessagingHosts\io.waymark.host",
                    r"HKLM\Software\Chromium\NativeMessagingHosts\io.waymark.host"
                ),
                (
                    r"HKCU\Software\Microsoft\Edge\NativeMessagingHosts\io.waymark.host",
                    r"HKLM\Software\Microsoft\Edge\NativeMessagingHosts\io.waymark.host"
                ),
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
        assert_eq!(
            rel(&places, &Browser::Edge.user_data_dir(Platform::Windows, &places)),
            "home/AppData/Local/Microsoft/Edge/User Data"
        );
    }

    #[test]
    fn the_environment_names_the_folders() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let places = Places::from_env(
            Platform::Linux,
            &env(&[
                ("HOME", "/home/ada"),
                ("XDG_DATA_HOME", "/data"),
                ("XDG_CONFIG_HOME", "relative"),
            ]),
        )
        .unwrap();
        assert_eq!(places.user_dir, PathBuf::from("/data/waymark"));
        assert_eq!(
            places.config_home,
            PathBuf::from("/home/ada/.config"),
            "a relative XDG path is ignored"
        );
        assert_eq!(places.system_dir, PathBuf::from("/var/lib/waymark"));
        assert_eq!(
            Places::from_env(Platform::Linux, &env(&[("HOME", "nowhere")])),
            None
        );
    }

    #[test]
    fn a_browser_is_found_by_its_folders() {
        let dir = tempfile::tempdir().unwrap();
        let places = Places::under(Platform::Linux, dir.path());
        assert!(!Browser::Chromium.found(Platform::Linux, Scope::User, &places));
        std::fs::create_dir_all(places.config_home.join("chromium")).unwrap();
        assert!(Browser::Chromium.found(Platform::Linux, Scope::User, &places));
        assert!(!Browser::Chromium.found(Platform::Linux, Scope::System, &places));
        std::fs::create_dir_all(places.root.join("usr/lib/chromium")).unwrap();
        assert!(Browser::Chromium.found(Platform::Linux, Scope::System, &places));
        assert!(!Browser::Chrome.found(Platform::Linux, Scope::System, &places));
    }

    #[test]
    fn browsers_have_names_for_people_and_for_options() {
        for browser in Browser::ALL {
            assert_eq!(Browser::from_key(browser.key()), Some(browser));
        }
        assert_eq!(Browser::from_key("firefox"), None);
    }
}
