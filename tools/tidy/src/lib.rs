//! Tidy: the repository's own rules, checked by `cargo test` so they cannot drift.
//!
//! - every Rust source file opens with a `//!` doc saying what it is for;
//! - every path `ARCHITECTURE.md` names exists (a map that names files which are gone is wrong);
//! - nothing cites documents that are not in the repository, found by what they are: paths that climb
//!   out of the checkout and document names the tree does not have (`references.rs`);
//! - no source file grows past [`MAX_LINES`] lines, except data tables (word lists);
//! - the Markdown pages are navigable: fences closed, no heading level skipped, links to headings and
//!   files that exist, the README's set-up near its top (`markdown.rs`);
//! - every message the code says (`say!(words, "id", …)`) is in the English catalogue, and every
//!   English message is said somewhere (the catalogue's own tests hold the other languages to English);
//! - the content script's modules import each other in layers, never in a circle (`imports.rs`).
//!
//! Each check is a function returning the problems it found, in words a person can act on, so the
//! checks themselves are tested on small made-up inputs (`tests.rs`) as well as run on the repository.
//!
//! Must not: change any file, or need anything beyond the checkout (no network, no git, no build output).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub mod imports;
pub mod markdown;
pub mod references;

pub use references::outside_references;

/// Directories never searched: build output, installed packages, version control.
const SKIP_DIRS: &[&str] = &["target", "node_modules", "dist", ".git"];

/// Lines a source file may have. Past this, a file does more than one job or should be split by topic.
pub const MAX_LINES: usize = 700;

/// Source files whose length is checked.
const SOURCE_EXTENSIONS: &[&str] = &["rs", "mjs", "js", "sh"];

/// Files whose text is searched for references to documents outside the repository.
const TEXT_EXTENSIONS: &[&str] = &["rs", "md", "mjs", "js", "sh", "toml", "json", "html", "css"];

/// What a word must end with to be taken for a file's name (so `chrome.tabs.sendMessage` and
/// `cmd.exe` are not).
const FILE_EXTENSIONS: &[&str] = &[
    "rs", "md", "mjs", "js", "sh", "toml", "json", "html", "css", "lock", "txt", "wasm", "py", "c",
];

/// Paths ARCHITECTURE.md may name although they are not in the checkout: what the build writes, and
/// places on the user's machine.
const NOT_IN_CHECKOUT: &[&str] = &[
    "dist/",
    "dist/extension/",
    "target/",
    "node_modules/",
    "pkg/content_bg.wasm",
    "pkg/extension_bg.wasm",
    "NativeMessagingHosts/",
    "config.toml",
    "installed.toml",
    // A peer's file the benchmark fetches from its package at run time.
    "dom_tree/index.js",
];

/// Message ids named at run time rather than by a literal in `say!` (a control's role, the
/// catalogue's own tests), by their prefix.
pub const RUNTIME_MESSAGE_PREFIXES: &[&str] = &["role-", "test-"];

/// The ids said in `sources` (by `say!(words, "id"` or `.say("id"`) that `catalogue` (the English
/// `.ftl` files, concatenated) lacks, and the catalogue's ids that no source says.
pub fn message_ids<'a>(sources: impl Iterator<Item = (&'a str, &'a str)>, catalogue: &str) -> Vec<String> {
    let defined: BTreeSet<&str> = catalogue
        .lines()
        .filter_map(|line| {
            let (id, _) = line.split_once('=')?;
            let id = id.trim_end();
            let ok = id.starts_with(|c: char| c.is_ascii_alphabetic())
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            ok.then_some(id)
        })
        .collect();
    let mut said = BTreeSet::new();
    let mut problems = Vec::new();
    for (path, text) in sources.filter(|(p, _)| p.ends_with(".rs")) {
        for marker in ["say!(", ".say("] {
            for (at, _) in text.match_indices(marker) {
                let rest = &text[at + marker.len()..];
                let Some(open) = rest.find('"') else { continue };
                // `say!(words, "id"`: the id is the first literal, before any `)`.
                if rest[..open].contains(')') {
                    continue;
                }
                let Some(len) = rest[open + 1..].find('"') else {
                    continue;
                };
                let id = &rest[open + 1..open + 1 + len];
                if id.is_empty() || id.contains(char::is_whitespace) {
                    continue;
                }
                said.insert(id.to_owned());
                if !defined.contains(id) {
                    problems.push(format!("{path}: says `{id}`, which i18n/locales/en lacks"));
                }
            }
        }
    }
    for id in defined {
        let runtime = RUNTIME_MESSAGE_PREFIXES.iter().any(|p| id.starts_with(p));
        if !runtime && !said.contains(id) {
            problems.push(format!("i18n/locales/en: `{id}` is said by no code; remove it"));
        }
    }
    problems
}

/// The repository's root (this crate lives in `tools/tidy`).
pub fn repo_root() -> PathBuf {
    // Cargo names the package's folder when it runs the tests; the folder it was compiled in is only
    // the fallback, since checkouts that share a target folder may share this binary.
    let package = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    package.join("../..")
}

/// Every file and directory of the checkout, relative to `root`, with `/` separators; directories end
/// with `/`. Build output and installed packages are left out.
pub fn tree(root: &Path) -> std::io::Result<BTreeSet<String>> {
    let mut paths = BTreeSet::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(root.join(&dir))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = dir.join(&name);
            let shown = relative.to_string_lossy().replace('\\', "/");
            if entry.file_type()?.is_dir() {
                if SKIP_DIRS.contains(&name.as_str()) {
                    continue;
                }
                paths.insert(format!("{shown}/"));
                pending.push(relative);
            } else {
                paths.insert(shown);
            }
        }
    }
    Ok(paths)
}

fn extension(path: &str) -> &str {
    path.rsplit_once('.').map_or("", |(_, ext)| ext)
}

/// Rust files (`path`, `text`) that do not open with a `//!` module doc.
pub fn missing_module_docs<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    files
        .into_iter()
        .filter(|(path, _)| extension(path) == "rs")
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(path, _)| format!("{path}: no `//!` doc saying what the module is for"))
        .collect()
}

/// Source files longer than [`MAX_LINES`], except data tables: a `words.rs` file or any file in a
/// `words/` directory holds word lists, which are long by nature and have no logic to split.
pub fn too_long<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    files
        .into_iter()
        .filter(|(path, _)| SOURCE_EXTENSIONS.contains(&extension(path)))
        .filter(|(path, _)| !(path.ends_with("/words.rs") || path.contains("/words/")))
        .filter_map(|(path, text)| {
            let lines = text.lines().count();
            (lines > MAX_LINES)
                .then(|| format!("{path}: {lines} lines, more than {MAX_LINES}: split it by job or topic"))
        })
        .collect()
}

/// Whether a backticked word of ARCHITECTURE.md is meant as a path: only path characters, and a
/// directory (`…/`) or a file with an extension. Commands (`/list`), addresses (`chrome://…`) and
/// placeholders (`<state_dir>/…`) are not.
fn is_path(word: &str) -> bool {
    let path_chars = word
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    let looks_like_file = word
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext));
    path_chars && !word.starts_with('/') && !word.starts_with('.') && (word.ends_with('/') || looks_like_file)
}

/// Paths named in `architecture` (the text of ARCHITECTURE.md) that are not in `tree` (see [`tree`]).
///
/// A section whose heading names one directory (`` ### `extension/` — … ``) names its files relative to
/// that directory, at any depth (`` `effect.rs` `` is `extension/src/effect.rs`); elsewhere a path is
/// looked for from the root, or as the end of any path.
pub fn architecture_paths(architecture: &str, tree: &BTreeSet<String>) -> Vec<String> {
    let mut base: Option<String> = None;
    let mut missing = Vec::new();
    for (number, line) in architecture.lines().enumerate() {
        let words: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
        if line.starts_with("## ") || line.starts_with("### ") {
            let dirs: Vec<&&str> = words.iter().filter(|w| w.ends_with('/') && is_path(w)).collect();
            base = match (line.starts_with("### "), dirs.as_slice()) {
                (true, [dir]) => Some((**dir).to_owned()),
                _ => None,
            };
        }
        for word in words.into_iter().filter(|w| is_path(w)) {
            if NOT_IN_CHECKOUT.contains(&word) || exists(word, base.as_deref(), tree) {
                continue;
            }
            missing.push(format!(
                "ARCHITECTURE.md:{}: names `{word}`, which does not exist{}",
                number + 1,
                base.as_deref().map(|b| format!(" under {b}")).unwrap_or_default()
            ));
        }
    }
    missing
}

fn exists(word: &str, base: Option<&str>, tree: &BTreeSet<String>) -> bool {
    if tree.contains(word) {
        return true;
    }
    let suffix = format!("/{word}");
    tree.iter()
        .filter(|path| base.is_none_or(|base| path.starts_with(base)))
        .any(|path| path.ends_with(&suffix) || base.is_some_and(|base| path.strip_prefix(base) == Some(word)))
}

#[cfg(test)]
mod tests;
