//! Uninstall: removes exactly what `install` recorded, and says what it did, what it left and why.
//!
//! What it must not do: remove anything the record does not name, or forget what it could not remove.

use super::*;

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
}

pub(super) fn absolute(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// One thing `uninstall` did, or found; said in a sentence by [`Removed::said`].
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
        what: Thing,
    },
    LeftAlone {
        what: Thing,
        why: Kept,
    },
    Failed {
        what: Thing,
        error: String,
    },
    NothingRecorded {
        which: Which,
        record: PathBuf,
    },
}

/// What a step was about: a file, or (on Windows) a registry key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Thing {
    Path(PathBuf),
    #[cfg_attr(not(windows), allow(dead_code))]
    RegistryKey(String),
}

/// Why uninstall left something where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// The file is no longer a Waymark host manifest.
    NotOurs,
    /// The registry key names another manifest now.
    #[cfg_attr(not(windows), allow(dead_code))]
    OtherManifest,
    /// A registry key recorded on another system: the registry exists only on Windows.
    #[cfg_attr(windows, allow(dead_code))]
    NotWindows,
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
            which: which.clone(),
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
                        what: Thing::RegistryKey(key.clone()),
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
                    what: Thing::Path(path.clone()),
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
                        what: Thing::Path(added.store.clone()),
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
                what: Thing::Path(path.to_path_buf()),
            })
        }
        Err(e) => return Err(e),
    };
    let ours = serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|manifest| manifest["name"].as_str() == Some(HOST_NAME));
    if !ours {
        return Ok(Removed::LeftAlone {
            what: Thing::Path(path.to_path_buf()),
            why: Kept::NotOurs,
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
            what: Thing::RegistryKey(key.to_owned()),
        });
    }
    let names = registry_default(&String::from_utf8_lossy(&query.stdout));
    let same = names.is_some_and(|named| {
        named.to_string_lossy().to_lowercase() == manifest.to_string_lossy().to_lowercase()
    });
    if !same {
        return Ok(Removed::LeftAlone {
            what: Thing::RegistryKey(key.to_owned()),
            why: Kept::OtherManifest,
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
        what: Thing::RegistryKey(key.to_owned()),
        why: Kept::NotWindows,
    })
}
