//! Which extensions the host serves. The browser starts the host as `waymark-host
//! chrome-extension://<id>/`; before reading a single frame the host checks that origin and serves
//! only Waymark's own id ([`EXTENSION_ID`]), the store-published ids compiled in ([`PUBLISHED_IDS`]),
//! and the ids the user registered with `waymark-host install --extension-id ID`, which are kept in
//! `extensions.toml` next to `config.toml`.
//!
//! Why the host checks at all, when the manifest's `allowed_origins` already names one extension: the
//! manifest is the browser's check, and anything that can write a manifest naming this binary (another
//! extension's installer, a stale manifest of an old id) would otherwise hand the agent, the policy
//! gate's questions and the MCP socket of this user's browser to an extension that is not Waymark.
//!
//! What this module must not do: accept anything looser than the exact `chrome-extension://<id>/`
//! form, or learn ids from anything but the user's own `install` command (which `uninstall` undoes).

use std::path::{Path, PathBuf};

use waymark_protocol::EXTENSION_ID;

/// Ids of Waymark as published in extension stores (Chrome Web Store, Edge Add-ons): served without
/// any registration, and named in every manifest `install` writes, so the host a package installs
/// serves the store's extension with nothing more to do. Empty until Waymark is published; add each
/// store's id here when it is, before the package is built (`docs/installers.md`, "Extension ids").
pub const PUBLISHED_IDS: &[&str] = &[];

/// The file, next to `config.toml`, holding the ids registered with `install --extension-id`.
const STORE_FILE: &str = "extensions.toml";

/// Why the host refuses to serve the process that started it.
#[derive(Debug, thiserror::Error)]
pub enum OriginError {
    #[error(
        "no caller was named: the browser starts waymark-host as `waymark-host chrome-extension://<id>/`; \
         to set it up, run `waymark-host install`"
    )]
    Missing,
    #[error("{0:?} is not an extension origin: the browser names its caller as chrome-extension://<id>/")]
    Malformed(String),
    #[error(
        "the extension {id} may not use waymark-host: it serves Waymark ({EXTENSION_ID}) and the extensions \
         registered with `waymark-host install --extension-id ID`{why}"
    )]
    NotAllowed { id: String, why: String },
}

/// Reading or writing the registered ids.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no configuration folder to keep the registered extension ids in: set HOME or XDG_CONFIG_HOME")]
    NoConfigDir,
    #[error("cannot read the registered extension ids in {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("the registered extension ids in {} are not readable: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    #[error("cannot record the extension id in {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

/// The file's form: `ids = ["…", …]`.
#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
struct Stored {
    #[serde(default)]
    ids: Vec<String>,
}

/// Whether `id` is served without registration.
pub fn is_builtin(id: &str) -> bool {
    builtin_ids().any(|builtin| builtin == id)
}

/// Every id served without registration: Waymark's development id, then the store ids. `install`
/// names them all in the manifest's `allowed_origins`, because a browser reads only one manifest per
/// host name (Edge on Windows falls back to Chrome's key), so one manifest must admit every Waymark.
pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    std::iter::once(EXTENSION_ID).chain(PUBLISHED_IDS.iter().copied())
}

/// The extension id in an origin of exactly the form `chrome-extension://<id>/`.
pub fn extension_of(origin: &str) -> Result<&str, OriginError> {
    origin
        .strip_prefix("chrome-extension://")
        .and_then(|rest| rest.strip_suffix('/'))
        .filter(|id| crate::install::is_extension_id(id))
        .ok_or_else(|| OriginError::Malformed(origin.to_owned()))
}

/// Checks the origin the browser started the host with (`None`: it named none) against the built-in
/// ids and `registered`; `unreadable` says why the registered ids could not be read, for the refusal.
/// Returns the caller's id.
pub fn check<'a>(
    origin: Option<&'a str>,
    registered: &[String],
    unreadable: Option<&StoreError>,
) -> Result<&'a str, OriginError> {
    let id = extension_of(origin.ok_or(OriginError::Missing)?)?;
    if is_builtin(id) || registered.iter().any(|r| r == id) {
        return Ok(id);
    }
    let why = match unreadable {
        Some(e) => format!(" ({e})"),
        None => String::new(),
    };
    Err(OriginError::NotAllowed {
        id: id.to_owned(),
        why,
    })
}

/// The origin among the arguments the browser passed: the first that is not Windows'
/// `--parent-window=…`.
pub fn origin_argument(args: &[String]) -> Option<&str> {
    args.iter()
        .skip(1)
        .map(String::as_str)
        .find(|a| !a.starts_with("--parent-window"))
}

/// Where the registered ids are kept: next to `config.toml`.
pub fn store_path(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    crate::config::config_file_path(env).map(|config| config.with_file_name(STORE_FILE))
}

/// The registered ids in `path`; none when the file does not exist.
pub fn load(path: &Path) -> Result<Vec<String>, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(StoreError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let stored: Stored = toml::from_str(&text).map_err(|e| StoreError::Parse {
        path: path.to_path_buf(),
        message: e.to_string().trim_end().to_owned(),
    })?;
    // A hand-edited entry that is not an id could never match an origin; leaving it out keeps the
    // list what it claims to be.
    Ok(stored
        .ids
        .into_iter()
        .filter(|id| crate::install::is_extension_id(id))
        .collect())
}

/// Adds `id` to the registered ids in `path` (temp file and rename, 0600). Returns whether it was new;
/// built-in ids are never written.
pub fn register(path: &Path, id: &str) -> Result<bool, StoreError> {
    if is_builtin(id) {
        return Ok(false);
    }
    let mut ids = load(path)?;
    if ids.iter().any(|known| known == id) {
        return Ok(false);
    }
    ids.push(id.to_owned());
    write_ids(path, ids)?;
    Ok(true)
}

/// Removes `id` from the registered ids in `path` (what `uninstall` does for an id `install` added).
/// Returns whether it was there.
pub fn unregister(path: &Path, id: &str) -> Result<bool, StoreError> {
    let mut ids = load(path)?;
    let before = ids.len();
    ids.retain(|known| known != id);
    if ids.len() == before {
        return Ok(false);
    }
    write_ids(path, ids)?;
    Ok(true)
}

/// Writes the file (temp file and rename, 0600).
fn write_ids(path: &Path, ids: Vec<String>) -> Result<(), StoreError> {
    let body = toml::to_string(&Stored { ids }).map_err(|e| StoreError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let text = format!(
        "# Extensions besides Waymark itself that may start waymark-host, added by\n\
         # `waymark-host install --extension-id ID`. Remove a line to withdraw the permission.\n{body}"
    );
    crate::atomic_file::write_private(path, text.as_bytes()).map_err(|source| StoreError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// [`check`] with the real environment: the registered ids are read from the user's config folder.
pub fn check_caller(args: &[String]) -> Result<String, OriginError> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let loaded = store_path(&env)
        .ok_or(StoreError::NoConfigDir)
        .and_then(|path| load(&path));
    let (registered, unreadable) = match loaded {
        Ok(ids) => (ids, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    check(origin_argument(args), &registered, unreadable.as_ref()).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OTHER: &str = "abcdefghijklmnopabcdefghijklmnop";

    fn origin(id: &str) -> String {
        format!("chrome-extension://{id}/")
    }

    #[test]
    fn waymark_itself_is_served() {
        let ours = origin(EXTENSION_ID);
        assert_eq!(check(Some(&ours), &[], None).unwrap(), EXTENSION_ID);
    }

    #[test]
    fn an_unregistered_extension_is_refused_by_name() {
        let error = check(Some(&origin(OTHER)), &[], None).unwrap_err();
        assert!(matches!(&error, OriginError::NotAllowed { id, .. } if id == OTHER));
        let text = error.to_string();
        assert!(
            text.contains(OTHER) && text.contains("install --extension-id"),
            "{text}"
        );
    }

    #[test]
    fn a_registered_extension_is_served() {
        let registered = vec![OTHER.to_owned()];
        assert_eq!(check(Some(&origin(OTHER)), &registered, None).unwrap(), OTHER);
    }

    #[test]
    fn only_the_exact_origin_form_counts() {
        for bad in [
            "",
            "chrome-extension://",
            &format!("chrome-extension://{EXTENSION_ID}"),
            &format!("chrome-extension://{EXTENSION_ID}/sidepanel.html"),
            &format!("chrome-extension://{EXTENSION_ID}//"),
            &format!("CHROME-EXTENSION://{EXTENSION_ID}/"),
            &format!("moz-extension://{EXTENSION_ID}/"),
            &format!("https://{EXTENSION_ID}/"),
            &format!(" chrome-extension://{EXTENSION_ID}/"),
            &format!("chrome-extension://{}/", EXTENSION_ID.to_uppercase()),
            "chrome-extension://cefdccnmncoeemlgklbddcicjlldkfkz/",
        ] {
            assert!(
                matches!(check(Some(bad), &[], None), Err(OriginError::Malformed(_))),
                "{bad:?} was not refused as malformed"
            );
        }
        assert!(matches!(check(None, &[], None), Err(OriginError::Missing)));
    }

    #[test]
    fn the_origin_is_the_first_argument_that_is_not_the_parent_window() {
        let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let ours = origin(EXTENSION_ID);
        assert_eq!(
            origin_argument(&args(&["waymark-host", &ours])),
            Some(ours.as_str())
        );
        assert_eq!(
            origin_argument(&args(&["waymark-host", &ours, "--parent-window=0"])),
            Some(ours.as_str())
        );
        assert_eq!(
            origin_argument(&args(&["waymark-host", "--parent-window=0", &ours])),
            Some(ours.as_str())
        );
        assert_eq!(
            origin_argument(&args(&["waymark-host", "--parent-window=0"])),
            None
        );
    }

    #[test]
    fn registering_keeps_ids_privately_and_once_and_never_the_builtin_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("waymark").join(STORE_FILE);
        assert_eq!(load(&path).unwrap(), Vec::<String>::new(), "no file: no ids");
        assert!(!register(&path, EXTENSION_ID).unwrap());
        assert!(!path.exists(), "Waymark's own id is never written");
        assert!(register(&path, OTHER).unwrap());
        assert!(!register(&path, OTHER).unwrap(), "already there");
        assert_eq!(load(&path).unwrap(), vec![OTHER.to_owned()]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# "), "the file says what it is:\n{text}");
        assert!(unregister(&path, OTHER).unwrap());
        assert!(!unregister(&path, OTHER).unwrap(), "already gone");
        assert_eq!(load(&path).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn a_broken_file_serves_waymark_and_says_why_others_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(STORE_FILE);
        std::fs::write(&path, "ids = [oops").unwrap();
        let error = load(&path).unwrap_err();
        assert!(matches!(error, StoreError::Parse { .. }));
        let ours = origin(EXTENSION_ID);
        assert!(check(Some(&ours), &[], Some(&error)).is_ok());
        let refused = check(Some(&origin(OTHER)), &[], Some(&error))
            .unwrap_err()
            .to_string();
        assert!(refused.contains("not readable"), "{refused}");
        // Entries that are not ids are dropped.
        std::fs::write(&path, format!("ids = [\"nope\", \"{OTHER}\"]\n")).unwrap();
        assert_eq!(load(&path).unwrap(), vec![OTHER.to_owned()]);
    }

    #[test]
    fn the_ids_live_next_to_the_config_file() {
        let env = |name: &str| (name == "XDG_CONFIG_HOME").then(|| crate::test_paths::abs("/cfg"));
        assert_eq!(
            store_path(&env),
            Some(crate::test_paths::path("/cfg/waymark/extensions.toml"))
        );
    }
}
