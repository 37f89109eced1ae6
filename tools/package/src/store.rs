//! The extension as the Chrome Web Store and Edge Add-ons take it: a zip of the built extension whose
//! `manifest.json` has no `key` (the store signs with its own) and names Waymark's icons, plus the
//! listing text. [`check`] reads a zip back and says what a store would refuse.
//!
//! What it must not do: change what the extension does — only the development key goes and the
//! icons come in; every other entry of `manifest.json` and every file is copied as built. And nothing
//! that looks like a private key ever goes into the zip.

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::icon;

/// The manifest's `description` limit in the stores (and in Chrome's documentation).
pub const DESCRIPTION_LIMIT: usize = 132;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("{} is not valid JSON: {message}", path.display())]
    Json { path: PathBuf, message: String },
    #[error("the zip {}: {message}", path.display())]
    Zip { path: PathBuf, message: String },
    #[error(transparent)]
    Icon(#[from] icon::IconError),
    #[error("the zip is not store-ready:\n  {}", .0.join("\n  "))]
    NotReady(Vec<String>),
}

/// `manifest.json` as the store takes it: without `key`, with the icons.
pub fn store_manifest(dev: &Value) -> Value {
    let mut manifest = dev.clone();
    if let Some(object) = manifest.as_object_mut() {
        object.remove("key");
        let icons: serde_json::Map<String, Value> = icon::SIZES
            .iter()
            .map(|size| (size.to_string(), json!(icon_path(*size))))
            .collect();
        object.insert("icons".to_owned(), Value::Object(icons.clone()));
        let action = object.entry("action").or_insert_with(|| json!({}));
        if let Some(action) = action.as_object_mut() {
            // The toolbar takes the small ones.
            let small: serde_json::Map<String, Value> = icons
                .into_iter()
                .filter(|(size, _)| size == "16" || size == "32")
                .collect();
            action.insert("default_icon".to_owned(), Value::Object(small));
        }
    }
    manifest
}

fn icon_path(size: u32) -> String {
    format!("icons/icon-{size}.png")
}

/// Every file of the built extension, by its path in the zip (forward slashes), sorted.
fn files_of(dir: &Path) -> Result<BTreeMap<String, PathBuf>, StoreError> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|source| StoreError::Read {
            path: d.clone(),
            source,
        })?;
        for entry in entries {
            let path = entry
                .map_err(|source| StoreError::Read {
                    path: d.clone(),
                    source,
                })?
                .path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                let name = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.insert(name, path);
            }
        }
    }
    Ok(out)
}

/// Zips the built extension in `from` into `zip`, as the store takes it, and checks the result.
pub fn build(from: &Path, zip: &Path) -> Result<Summary, StoreError> {
    let manifest_path = from.join("manifest.json");
    let dev = read_json(&manifest_path)?;
    let mut entries: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (name, path) in files_of(from)? {
        if name == "manifest.json" {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|source| StoreError::Read { path, source })?;
        entries.insert(name, bytes);
    }
    let manifest = serde_json::to_vec_pretty(&store_manifest(&dev)).unwrap_or_default();
    entries.insert("manifest.json".to_owned(), manifest);
    for size in icon::SIZES {
        entries.insert(icon_path(size), icon::png(size)?);
    }

    let write_err = |source| StoreError::Write {
        path: zip.to_path_buf(),
        source,
    };
    if let Some(dir) = zip.parent() {
        std::fs::create_dir_all(dir).map_err(write_err)?;
    }
    let file = std::fs::File::create(zip).map_err(write_err)?;
    let mut writer = zip::ZipWriter::new(file);
    // A fixed time and order: the same build gives the same zip.
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644);
    let zip_err = |e: zip::result::ZipError| StoreError::Zip {
        path: zip.to_path_buf(),
        message: e.to_string(),
    };
    for (name, bytes) in &entries {
        writer.start_file(name.as_str(), options).map_err(zip_err)?;
        writer.write_all(bytes).map_err(write_err)?;
    }
    writer.finish().map_err(zip_err)?;
    check(zip)
}

/// What a store-ready zip holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub name: String,
    pub version: String,
    pub files: usize,
    pub bytes: u64,
}

/// Reads the zip back and lists everything a store would refuse: no valid manifest, a `key`, missing
/// or wrong-sized icons, a file the manifest names that is not there, a description over the limit, a
/// private key or hidden file.
pub fn check(zip: &Path) -> Result<Summary, StoreError> {
    let zip_err = |message: String| StoreError::Zip {
        path: zip.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(zip).map_err(|source| StoreError::Read {
        path: zip.to_path_buf(),
        source,
    })?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut archive = zip::ZipArchive::new(file).map_err(|e| zip_err(e.to_string()))?;
    let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    let mut read = |name: &str| -> Option<Vec<u8>> {
        let mut entry = archive.by_name(name).ok()?;
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).ok()?;
        Some(bytes)
    };
    let mut problems = Vec::new();

    let Some(manifest) = read("manifest.json").and_then(|b| serde_json::from_slice::<Value>(&b).ok()) else {
        return Err(StoreError::NotReady(vec![
            "no valid manifest.json at the top of the zip".to_owned(),
        ]));
    };
    if manifest.get("key").is_some() {
        problems.push("manifest.json has a key: the store assigns its own".to_owned());
    }
    if manifest["manifest_version"] != 3 {
        problems.push("manifest_version is not 3".to_owned());
    }
    let version = manifest["version"].as_str().unwrap_or_default().to_owned();
    let version_ok = !version.is_empty()
        && version.split('.').count() <= 4
        && version
            .split('.')
            .all(|part| !part.is_empty() && part.parse::<u16>().is_ok());
    if !version_ok {
        problems.push(format!(
            "version {version:?} is not one to four dot-separated numbers"
        ));
    }

    // Strings may be `__MSG_name__`, taken from the default locale's messages.
    let messages: Value = manifest["default_locale"]
        .as_str()
        .and_then(|locale| read(&format!("_locales/{locale}/messages.json")))
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null);
    let text = |value: &Value| -> Option<String> {
        let raw = value.as_str()?;
        match raw.strip_prefix("__MSG_").and_then(|r| r.strip_suffix("__")) {
            Some(key) => messages
                .as_object()?
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .and_then(|(_, m)| m["message"].as_str())
                .map(str::to_owned),
            None => Some(raw.to_owned()),
        }
    };
    let name = text(&manifest["name"]).unwrap_or_default();
    if name.is_empty() {
        problems.push("the manifest has no name (or its message is missing)".to_owned());
    }
    match text(&manifest["description"]) {
        None => problems.push("the manifest has no description (or its message is missing)".to_owned()),
        Some(d) if d.chars().count() > DESCRIPTION_LIMIT => problems.push(format!(
            "the description has {} characters; the stores take at most {DESCRIPTION_LIMIT}",
            d.chars().count()
        )),
        Some(_) => {}
    }

    for size in icon::SIZES {
        let key = size.to_string();
        match manifest["icons"][&key].as_str() {
            None => problems.push(format!("no {size} px icon in the manifest")),
            Some(path) => match read(path) {
                None => problems.push(format!("the {size} px icon {path} is not in the zip")),
                Some(bytes) => match png_size(&bytes) {
                    Some(found) if found == (size, size) => {}
                    other => problems.push(format!("{path} is {other:?}, not a {size}×{size} PNG")),
                },
            },
        }
    }
    if manifest["action"]["default_icon"]
        .as_object()
        .is_none_or(|o| o.is_empty())
    {
        problems.push("the toolbar button (action.default_icon) has no icon".to_owned());
    }

    for path in referenced_files(&manifest) {
        if !names.contains(&path) {
            problems.push(format!("the manifest names {path}, which is not in the zip"));
        }
    }
    for path in INJECTED {
        if !names.iter().any(|n| n == path) {
            problems.push(format!(
                "the service worker injects {path}, which is not in the zip"
            ));
        }
    }
    for n in &names {
        let base = n.rsplit('/').next().unwrap_or(n);
        if base.starts_with('.') || base.ends_with(".pem") || base.ends_with(".key") {
            problems.push(format!("{n} does not belong in a store upload"));
        }
    }

    if problems.is_empty() {
        Ok(Summary {
            name,
            version,
            files: names.len(),
            bytes,
        })
    } else {
        Err(StoreError::NotReady(problems))
    }
}

/// The files the service worker puts into pages by name (`chrome.scripting`, see
/// `extension/src/tabs/in_use.rs`): no manifest entry names them, so the check names them here.
const INJECTED: [&str; 1] = ["content.js"];

/// Every file `manifest.json` names: the service worker, the pages, content scripts and styles, the
/// web-accessible resources, icons.
pub fn referenced_files(manifest: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |v: &Value| {
        if let Some(s) = v.as_str() {
            // A glob (`*`) names no one file.
            if !s.contains('*') {
                out.push(s.trim_start_matches('/').to_owned());
            }
        }
    };
    add(&manifest["background"]["service_worker"]);
    add(&manifest["side_panel"]["default_path"]);
    add(&manifest["options_page"]);
    add(&manifest["options_ui"]["page"]);
    add(&manifest["action"]["default_popup"]);
    for script in manifest["content_scripts"].as_array().into_iter().flatten() {
        for key in ["js", "css"] {
            script[key].as_array().into_iter().flatten().for_each(&mut add);
        }
    }
    for group in manifest["web_accessible_resources"]
        .as_array()
        .into_iter()
        .flatten()
    {
        group["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .for_each(&mut add);
    }
    manifest["icons"]
        .as_object()
        .into_iter()
        .flatten()
        .for_each(|(_, v)| add(v));
    if let Some(icons) = manifest["action"]["default_icon"].as_object() {
        icons.values().for_each(&mut add);
    }
    out.sort();
    out.dedup();
    out
}

/// Width and height from a PNG's header, if it is one.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().ok()?;
    Some((reader.info().width, reader.info().height))
}

fn read_json(path: &Path) -> Result<Value, StoreError> {
    let text = std::fs::read_to_string(path).map_err(|source| StoreError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| StoreError::Json {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The permissions and host permissions `manifest` asks for that `listing` does not name: the store
/// asks why each is needed, and the listing must say.
pub fn unexplained_permissions(manifest: &Value, listing: &str) -> Vec<String> {
    let asked = ["permissions", "host_permissions", "optional_permissions"]
        .iter()
        .flat_map(|key| manifest[*key].as_array().into_iter().flatten())
        .filter_map(Value::as_str);
    asked
        .filter(|permission| !listing.contains(permission))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's own sources: `manifest.json`, the loaders, and the listing.
    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// The languages Waymark speaks: its catalogues' directories (`i18n/locales/<language>`), sorted.
    fn catalogue_languages() -> Vec<String> {
        let mut languages: Vec<String> = std::fs::read_dir(repo().join("i18n/locales"))
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        languages.sort();
        languages
    }

    /// The message ids of one locale's `messages.json`, each with its text.
    fn messages(locale: &str) -> BTreeMap<String, String> {
        let path = repo().join(format!("extension/static/_locales/{locale}/messages.json"));
        let all: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        all.as_object()
            .unwrap()
            .iter()
            .map(|(id, m)| (id.clone(), m["message"].as_str().unwrap_or_default().to_owned()))
            .collect()
    }

    #[test]
    fn every_locale_says_every_message_and_the_manifest_names_only_messages_that_exist() {
        let manifest = std::fs::read_to_string(repo().join("manifest.json")).unwrap();
        let default: Value = serde_json::from_str(&manifest).unwrap();
        let default = default["default_locale"].as_str().unwrap();
        let base = messages(default);
        // Every `__MSG_id__` in the manifest is a message of the default locale.
        for part in manifest.split("__MSG_").skip(1) {
            let id = part.split("__").next().unwrap();
            assert!(
                base.contains_key(id),
                "manifest.json names __MSG_{id}__, which {default} lacks"
            );
        }
        let mut locales: Vec<String> = std::fs::read_dir(repo().join("extension/static/_locales"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        locales.sort();
        // The browser's own words for Waymark (its name, its shortcuts) in every language Waymark
        // speaks, and in no language it does not.
        assert_eq!(
            locales,
            catalogue_languages(),
            "extension/static/_locales has other languages than i18n/locales"
        );
        for locale in &locales {
            let these = messages(locale);
            let ids: Vec<&String> = these.keys().collect();
            assert_eq!(
                ids,
                base.keys().collect::<Vec<_>>(),
                "{locale} has other messages than {default}"
            );
            for (id, text) in &these {
                assert!(!text.trim().is_empty(), "{locale}: {id} is empty");
            }
        }
    }

    /// A built extension as `build.sh` lays it out, with stand-ins for the wasm-bindgen output.
    fn built_extension(dir: &Path) {
        std::fs::copy(repo().join("manifest.json"), dir.join("manifest.json")).unwrap();
        for (name, path) in files_of(&repo().join("extension/static")).unwrap() {
            let to = dir.join(&name);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(path, to).unwrap();
        }
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        // The two wasm modules build.sh makes: `content` for every frame, `extension` for the rest.
        for module in ["content", "extension"] {
            std::fs::write(dir.join(format!("pkg/{module}.js")), "export default 1;").unwrap();
            std::fs::write(dir.join(format!("pkg/{module}_bg.wasm")), b"\0asm\x01\0\0\0").unwrap();
        }
    }

    #[test]
    fn the_repositorys_extension_zips_store_ready() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("extension");
        std::fs::create_dir(&from).unwrap();
        built_extension(&from);
        let zip = dir.path().join("out/waymark.zip");
        let summary = build(&from, &zip).unwrap();
        assert_eq!(summary.name, "Waymark");

        let mut archive = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
        let mut text = String::new();
        archive
            .by_name("manifest.json")
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        let manifest: Value = serde_json::from_str(&text).unwrap();
        assert!(manifest.get("key").is_none());
        let dev: Value =
            serde_json::from_str(&std::fs::read_to_string(repo().join("manifest.json")).unwrap()).unwrap();
        assert!(dev.get("key").is_some(), "the development manifest keeps its key");
        // Nothing but the key and the icons changed.
        let mut back = manifest.clone();
        let object = back.as_object_mut().unwrap();
        object.remove("icons");
        object["action"].as_object_mut().unwrap().remove("default_icon");
        let mut dev_without_key = dev.clone();
        dev_without_key.as_object_mut().unwrap().remove("key");
        assert_eq!(back, dev_without_key);

        // Byte for byte the same on a second build.
        let again = dir.path().join("out/again.zip");
        build(&from, &again).unwrap();
        assert_eq!(std::fs::read(&zip).unwrap(), std::fs::read(&again).unwrap());
    }

    #[test]
    fn each_listing_explains_every_permission_and_sums_up_as_its_manifest_does() {
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(repo().join("manifest.json")).unwrap()).unwrap();
        let mut languages = Vec::new();
        for entry in std::fs::read_dir(repo().join("packaging")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(rest) = name
                .strip_prefix("store-listing")
                .and_then(|n| n.strip_suffix(".txt"))
            else {
                continue;
            };
            let language = rest.strip_prefix('.').unwrap_or("en");
            let listing = std::fs::read_to_string(repo().join("packaging").join(&name)).unwrap();
            assert_eq!(
                unexplained_permissions(&manifest, &listing),
                Vec::<String>::new(),
                "{name}"
            );
            // The store shows the listing's summary and the browser the manifest's description: one text.
            let description = &messages(language)["extDescription"];
            assert!(
                listing.lines().any(|line| line == description),
                "{name} does not sum up as _locales/{language} says: {description}"
            );
            assert!(description.chars().count() <= 132, "{language}: {description}");
            languages.push(language.to_owned());
        }
        languages.sort();
        assert_eq!(
            languages,
            catalogue_languages(),
            "a listing (packaging/store-listing.<language>.txt) for each language of i18n/locales"
        );
        let english = std::fs::read_to_string(repo().join("packaging/store-listing.txt")).unwrap();
        assert!(
            english.contains("telemetry"),
            "the listing states the privacy practice"
        );
        let bare = json!({"permissions": ["tabs", "cookies"], "host_permissions": ["<all_urls>"]});
        assert_eq!(
            unexplained_permissions(&bare, "tabs: to list them"),
            vec!["cookies", "<all_urls>"]
        );
    }

    #[test]
    fn the_check_names_what_a_store_would_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let zip = dir.path().join("bad.zip");
        let mut writer = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        let manifest = json!({
            "manifest_version": 3,
            "name": "__MSG_name__",
            "default_locale": "en",
            "version": "1.2.x",
            "description": "x".repeat(140),
            "key": "MIIB",
            "icons": {"16": "icons/icon-16.png", "32": "icons/wrong.png"},
            "background": {"service_worker": "sw.js"},
        });
        writer.start_file("manifest.json", options).unwrap();
        writer.write_all(manifest.to_string().as_bytes()).unwrap();
        writer.start_file("_locales/en/messages.json", options).unwrap();
        writer.write_all(br#"{"name": {"message": "Waymark"}}"#).unwrap();
        writer.start_file("icons/icon-16.png", options).unwrap();
        writer.write_all(&icon::png(16).unwrap()).unwrap();
        writer.start_file("icons/wrong.png", options).unwrap();
        writer.write_all(&icon::png(16).unwrap()).unwrap();
        writer.start_file("dev.pem", options).unwrap();
        writer.write_all(b"-----BEGIN PRIVATE KEY-----").unwrap();
        writer.finish().unwrap();

        let StoreError::NotReady(problems) = check(&zip).unwrap_err() else {
            panic!("not a readiness error");
        };
        let all = problems.join("\n");
        for expected in [
            "manifest.json has a key",
            "version \"1.2.x\"",
            "the description has 140 characters",
            "icons/wrong.png is Some((16, 16)), not a 32×32 PNG",
            "no 48 px icon",
            "action.default_icon",
            "the manifest names sw.js, which is not in the zip",
            "dev.pem does not belong",
        ] {
            assert!(all.contains(expected), "missing {expected:?} in:\n{all}");
        }
        assert!(
            !all.contains("has no name"),
            "__MSG_name__ resolved through _locales:\n{all}"
        );
    }

    #[test]
    fn the_manifest_names_its_files() {
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(repo().join("manifest.json")).unwrap()).unwrap();
        let files = referenced_files(&store_manifest(&manifest));
        for expected in [
            "sw.js",
            "sidepanel.html",
            "settings.html",
            "pkg/content.js",
            "icons/icon-128.png",
        ] {
            assert!(files.iter().any(|f| f == expected), "{expected} in {files:?}");
        }
    }
}
