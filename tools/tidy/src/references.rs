//! References to documents outside the repository, found by what they are rather than by a list of
//! names: a relative path that climbs out of the checkout (`../notes/plan.md`), or the name of a
//! document (`*.md`, `*.rst`, `*.adoc`) whose name exists nowhere in the tree (so an installed copy of
//! the README, `usr/share/doc/…/README.md`, is no citation). Code and docs must cite what a reader of
//! the repository can open; what the code relies on lives in `docs/`.
//!
//! Must not: flag addresses (`https://…/README.md` is a public page a reader can open), placeholders
//! (`<state_dir>/…`, `$HOME/…`, `{name}.md`), or absolute paths on a user's machine.

use std::collections::BTreeSet;

/// What a word must end with to be taken for a written document's name (a `.txt` or `.pdf` in code is
/// a user's file in a test, not a citation).
const DOCUMENT_EXTENSIONS: &[&str] = &["md", "markdown", "rst", "adoc"];

/// Characters that separate words in prose, code and markup (a path is what lies between them).
fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '`' | '(' | ')' | '[' | ']' | '"' | '\'' | ',' | ';' | '*' | '|' | '='
        )
}

/// Lines of `files` (`path`, `text`) that cite a document outside the repository whose files are
/// `tree` (see [`crate::tree`]).
pub fn outside_references<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
    tree: &BTreeSet<String>,
) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in files {
        if !crate::TEXT_EXTENSIONS.contains(&crate::extension(path)) {
            continue;
        }
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        for (number, line) in text.lines().enumerate() {
            for word in line.split(is_separator) {
                let word = word.trim_end_matches(['.', ':', '!', '?', '>', '{', '}']);
                if let Some(why) = outside(word, dir, tree) {
                    found.push(format!(
                        "{path}:{}: cites `{word}`, {why} (cite docs/ instead)",
                        number + 1
                    ));
                }
            }
        }
    }
    found
}

/// Why `word`, read in a file in directory `dir`, names something outside the repository; `None`
/// when it is not a reference or names something in `tree`.
fn outside(word: &str, dir: &str, tree: &BTreeSet<String>) -> Option<&'static str> {
    let placeholder = word.contains("://") || word.contains(['<', '$', '{', '%', '~', '\\']);
    if word.is_empty() || placeholder {
        return None;
    }
    if word.starts_with("../") {
        return match resolve(dir, word) {
            None => Some("which climbs out of the repository"),
            Some(_) => None,
        };
    }
    let name = word.rsplit('/').next().unwrap_or(word);
    let is_document = name
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && DOCUMENT_EXTENSIONS.contains(&ext));
    if !is_document || word.starts_with('/') {
        return None;
    }
    let in_tree = tree.contains(name) || tree.iter().any(|p| p.ends_with(&format!("/{name}")));
    (!in_tree).then_some("which is not in the repository")
}

/// `relative` read from directory `dir` (both relative to the repository's root), or `None` when it
/// climbs above the root.
fn resolve(dir: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}
