//! The checks on made-up inputs (so each is seen to catch what it is for), then on the repository.

use std::collections::BTreeSet;

use super::*;

fn tree_of(paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|p| (*p).to_owned()).collect()
}

#[test]
fn a_rust_file_without_a_module_doc_is_named() {
    let files = [
        ("a/src/good.rs", "//! Does one thing.\n\nfn f() {}\n"),
        ("a/src/bad.rs", "// A plain comment.\nfn f() {}\n"),
        ("a/README.md", "no doc needed"),
    ];
    let problems = missing_module_docs(files);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("a/src/bad.rs:"), "{problems:?}");
}

#[test]
fn a_long_file_is_named_unless_it_is_a_word_table() {
    let long = "x\n".repeat(MAX_LINES + 1);
    let just_fits = "x\n".repeat(MAX_LINES);
    let files = [
        ("a/src/room.rs", long.as_str()),
        ("a/src/fits.rs", just_fits.as_str()),
        ("a/src/policy/words.rs", long.as_str()),
        ("a/src/words/ru.rs", long.as_str()),
        ("tests/e2e/big.test.mjs", long.as_str()),
        ("docs/long.md", long.as_str()),
    ];
    let problems = too_long(files);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("a/src/room.rs:"), "{problems:?}");
    assert!(problems[1].starts_with("tests/e2e/big.test.mjs:"), "{problems:?}");
}

#[test]
fn citing_a_document_outside_the_repository_is_named_with_its_line() {
    let tree = tree_of(&["docs/", "docs/requirements.md", "README.md", "a/src/x.rs"]);
    let files = [
        (
            "a/src/x.rs",
            "//! Doc.\n// As MISSION.md says, and ../../../notes/plan.md.\n// See README.md.\n",
        ),
        (
            "docs/a.md",
            "See docs/requirements.md, [the map](../README.md) and `requirements.md`.",
        ),
        ("docs/b.md", "Read [the plan](../../shared/design/INTERFACES.md)."),
        (
            "docs/c.md",
            "Not documents: <https://example.org/GUIDE.md>, `<state_dir>/log.txt`, robots.txt, x.rs.",
        ),
    ];
    let problems = outside_references(files, &tree);
    assert_eq!(
        problems,
        vec![
            "a/src/x.rs:2: cites `MISSION.md`, which is not in the repository (cite docs/ instead)",
            "a/src/x.rs:2: cites `../../../notes/plan.md`, which climbs out of the repository (cite docs/ instead)",
            "docs/b.md:1: cites `../../shared/design/INTERFACES.md`, which climbs out of the repository (cite docs/ instead)",
        ]
    );
}

#[test]
fn architecture_paths_resolve_within_their_section() {
    let tree = tree_of(&[
        "build.sh",
        "extension/",
        "extension/src/",
        "extension/src/effect.rs",
        "native-host/",
        "native-host/src/",
        "native-host/src/gate/",
        "native-host/src/gate/mod.rs",
        "tests/",
        "tests/e2e/",
    ]);
    let text = "\
# Architecture
The build (`build.sh`) and `tests/e2e/` and a command `/list` and `<state_dir>/logs/x.jsonl`.
### `extension/` — crate `waymark-extension`
- `effect.rs` — what an action would do
- `gate/` — not here: the gate is the host's
### `native-host/` — binary `waymark-host`
- `gate/` and `gate/mod.rs` and `effect.rs`
## Invariants
- `dist/extension/` is written by the build; `gone.rs` is not anywhere.
";
    let problems = architecture_paths(text, &tree);
    assert_eq!(
        problems,
        vec![
            "ARCHITECTURE.md:5: names `gate/`, which does not exist under extension/",
            "ARCHITECTURE.md:7: names `effect.rs`, which does not exist under native-host/",
            "ARCHITECTURE.md:9: names `gone.rs`, which does not exist",
        ]
    );
}

// ---------------------------------------------------------------------------------------------------
// The repository itself

fn repository() -> (BTreeSet<String>, Vec<(String, String)>) {
    let root = repo_root();
    let tree = tree(&root).expect("the checkout can be listed");
    let texts = tree
        .iter()
        .filter(|path| !path.ends_with('/') && !path.starts_with("tools/tidy/"))
        .filter(|path| TEXT_EXTENSIONS.contains(&extension(path)))
        .filter_map(|path| Some((path.clone(), std::fs::read_to_string(root.join(path)).ok()?)))
        .collect();
    (tree, texts)
}

fn pairs(texts: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    texts.iter().map(|(p, t)| (p.as_str(), t.as_str()))
}

#[test]
fn every_markdown_page_can_be_navigated_by_its_headings() {
    let (tree, texts) = repository();
    let pages: std::collections::BTreeMap<String, String> = texts
        .iter()
        .filter(|(path, _)| path.ends_with(".md"))
        .cloned()
        .collect();
    let mut problems = crate::markdown::problems(&pages, &tree);
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    problems.extend(crate::markdown::setup_too_late(&readme));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_fence_left_open_a_skipped_level_and_a_dead_anchor_are_named() {
    use crate::markdown::{anchor, problems, setup_too_late};
    let page = "# Title\n\n### Too deep\n\n```sh\necho hi\n``` trailing words\n\n## Hidden\n";
    let found = crate::markdown::read("a.md", page).problems;
    assert!(
        found
            .iter()
            .any(|p| p.contains("a.md:5: a code fence opened here is never closed")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("level 3 right after level 1")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("a.md:7: this line looks like the end")),
        "{found:?}"
    );
    let mut pages = std::collections::BTreeMap::new();
    pages.insert(
        "a.md".to_owned(),
        "# A\n\nSee [b](docs/b.md#two) and [here](#a) and [gone](#nope).\n".to_owned(),
    );
    pages.insert(
        "docs/b.md".to_owned(),
        "# B\n\n## Two\n\n[back](../a.md)\n".to_owned(),
    );
    let files = tree_of(&["a.md", "docs/", "docs/b.md"]);
    assert_eq!(
        problems(&pages, &files),
        vec!["a.md:3: links to #nope, which no heading of a.md makes"]
    );
    assert_eq!(
        anchor("Use Waymark from Claude Desktop, Cursor or any MCP client"),
        "use-waymark-from-claude-desktop-cursor-or-any-mcp-client"
    );
    assert_eq!(
        anchor("Against a real model server: `./build.sh llm-check`"),
        "against-a-real-model-server-buildsh-llm-check"
    );
    let commands = "```sh\n./build.sh install\n./build.sh test   # all\n```\n";
    assert_eq!(setup_too_late(&format!("# W\n\n## Set up\n{commands}")), None);
    assert!(setup_too_late(&format!("# W\n{}## Set up\n{commands}", "text\n".repeat(40))).is_some());
    // The heading near the top is not enough: a listener hears everything before the commands.
    let late = setup_too_late(&format!("# W\n\n## Set up\n{}{commands}", "text\n".repeat(40)));
    assert!(late.is_some_and(|p| p.contains("`./build.sh install` is shown at line 45")));
    // Commands only named in prose are not shown to run.
    let prose = setup_too_late("# W\n\n## Set up\nRun `./build.sh install` and `./build.sh test`.\n");
    assert_eq!(
        prose.as_deref(),
        Some("README.md shows `./build.sh install` in no code block")
    );
}

#[test]
fn every_rust_module_says_what_it_is_for() {
    let (_, texts) = repository();
    let problems = missing_module_docs(pairs(&texts));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn architecture_md_names_only_paths_that_exist() {
    let (tree, _) = repository();
    let text = std::fs::read_to_string(repo_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let problems = architecture_paths(&text, &tree);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn nothing_cites_documents_outside_the_repository() {
    let (tree, texts) = repository();
    let problems = outside_references(pairs(&texts), &tree);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let (_, texts) = repository();
    let problems = too_long(pairs(&texts));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_message_the_catalogue_lacks_or_nobody_says_is_named() {
    let sources = [
        (
            "a.rs",
            "let s = say!(w, \"pong\", ms = 1); let t = say!(w, \"gone\");",
        ),
        ("b.rs", "w.say(\"pong-detail\", &args)"),
    ];
    let catalogue = "# c\npong = Pong\npong-detail = D\n    .title = T\nunused = U\nrole-button = button\n";
    let problems = message_ids(sources.into_iter(), catalogue);
    assert_eq!(
        problems,
        [
            "a.rs: says `gone`, which i18n/locales/en lacks",
            "i18n/locales/en: `unused` is said by no code; remove it",
        ]
    );
}

#[test]
fn every_message_said_is_in_the_catalogue_and_every_message_is_said() {
    let (tree, texts) = repository();
    let catalogue: String = tree
        .iter()
        .filter(|p| p.starts_with("i18n/locales/en/") && p.ends_with(".ftl"))
        .map(|p| std::fs::read_to_string(repo_root().join(p)).expect("a catalogue file"))
        .collect::<Vec<_>>()
        .join("\n");
    let problems = message_ids(pairs(&texts).filter(|(p, _)| !p.starts_with("i18n/")), &catalogue);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
