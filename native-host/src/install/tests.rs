//! Tests of install and uninstall: which browsers are found, what is written where, and that uninstall removes exactly what install recorded.

use super::*;
use crate::test_paths::{path, tree};

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
    let out =
        "\r\nHKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\io.waymark.host\r\n    \
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

#[cfg(target_os = "linux")]
#[test]
fn a_browser_installed_for_everyone_is_found_for_a_user_who_has_not_opened_it() {
    let dir = tempfile::tempdir().unwrap();
    let places = Places::under(Platform::Linux, dir.path());
    assert_eq!(found(Scope::User, &places), vec![]);
    // Debian's package put Chromium there; this user never started it (no ~/.config/chromium).
    std::fs::create_dir_all(places.root.join("usr/lib/chromium")).unwrap();
    assert_eq!(found(Scope::User, &places), vec![Browser::Chromium]);
    assert_eq!(found(Scope::System, &places), vec![Browser::Chromium]);
}
