//! The circle check on made-up crates (so it is seen to catch each kind of use), then on the content
//! script itself.

use std::collections::BTreeSet;

use super::*;

fn top(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn a_file_is_the_module_its_path_names() {
    assert_eq!(module_of("lib.rs"), Some(vec![]));
    assert_eq!(module_of("detect/mod.rs"), Some(vec!["detect".to_owned()]));
    assert_eq!(
        module_of("detect/scan.rs"),
        Some(vec!["detect".to_owned(), "scan".to_owned()])
    );
    assert_eq!(module_of("static/content.js"), None);
}

#[test]
fn the_content_modules_are_those_lib_rs_does_not_keep_for_the_extension() {
    let lib = "//! Doc.\n\n#[cfg(feature = \"extension\")]\npub mod commands;\n\
        #[cfg_attr(not(all(feature = \"content\", feature = \"extension\")), allow(dead_code))]\nmod chrome;\n\
        #[cfg(feature = \"content\")]\nmod act;\nmod dom;\n#[cfg(feature = \"extension\")]\nmod panel;\n";
    assert_eq!(content_modules(lib), top(&["act", "chrome", "dom"]));
}

#[test]
fn a_circle_is_named_with_where_each_of_its_uses_is() {
    let files = [
        ("lib.rs", "//! Root.\nmod a;\nmod b;\nmod c;\nmod leaf;\n"),
        // a uses b by a full path; b uses a through a grouped `use`; both use the leaf.
        ("a.rs", "//! A.\nfn f() { crate::b::g(); crate::leaf::h(); }\n"),
        ("b.rs", "//! B.\nuse crate::{a::f, leaf};\n"),
        // c uses a, and nothing uses c: outside the circle.
        ("c.rs", "//! C.\nuse crate::a;\n"),
        ("leaf.rs", "//! Leaf.\npub fn h() {}\n"),
    ];
    let found = circles(files, &top(&["a", "b", "c", "leaf"]));
    assert_eq!(
        found,
        [
            "in the crate's top, `a`, `b` import each other in a circle: a → b (a.rs:2 `crate::b::g`); \
             b → a (b.rs:2 `crate::a::f`)"
        ]
    );
}

#[test]
fn comments_strings_characters_and_parents_are_not_circles() {
    let files = [
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "// crate::b::g() in a comment\n/* and crate::b /* nested */ here */\n\
             const S: &str = \"crate::b::g\";\nconst R: &str = r#\"crate::b \"quoted\"\"#;\n\
             const Q: char = '\"'; fn life<'a>(x: &'a str) -> &'a str { x }\nmod inner;\n",
        ),
        // A child and its parent use each other: how a module is put together.
        ("a/inner.rs", "use super::S;\nfn f() { super::life(\"\"); }\n"),
        ("b.rs", "fn g() { crate::a::life(\"\"); }\n"),
    ];
    assert!(circles(files, &top(&["a", "b"])).is_empty());
}

#[test]
fn a_circle_through_a_re_export_and_among_children_is_found() {
    let files = [
        ("lib.rs", "mod detect;\nmod overlay;\nmod other;\n"),
        // detect re-exports bulk's Rect; overlay uses it as detect's; detect's scan uses overlay.
        (
            "detect/mod.rs",
            "mod bulk;\nmod scan;\nmod name;\nmod text;\npub use bulk::{Bulk, Rect as Box};\n",
        ),
        ("detect/bulk.rs", "pub struct Rect;\n"),
        (
            "detect/scan.rs",
            "fn f() { let v = crate::overlay::viewport(); }\n",
        ),
        // Two children of detect use each other, one through `super::`.
        ("detect/name.rs", "use super::text::visible_text;\n"),
        ("detect/text.rs", "fn f() { super::name::secret_of(); }\n"),
        ("overlay.rs", "use crate::detect::Box;\n"),
        // Not a content module: its circle with overlay is not this check's.
        ("other.rs", "use crate::overlay;\n"),
    ];
    let found = circles(files, &top(&["detect", "overlay"]));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("in the crate's top, `detect`, `overlay` import each other")
            && found[0].contains("detect → overlay (detect/scan.rs:1 `crate::overlay::viewport`)")
            && found[0].contains("overlay → detect (overlay.rs:1 `crate::detect::Box`)"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("in `detect`, `name`, `text` import each other"),
        "{found:#?}"
    );
}

#[test]
fn the_content_script_imports_in_layers_without_a_circle() {
    let root = crate::repo_root().join("extension/src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("extension/src/lib.rs");
    let files: Vec<(String, String)> = crate::tree(&root)
        .expect("extension/src can be listed")
        .into_iter()
        .filter(|path| path.ends_with(".rs"))
        .filter_map(|path| {
            let text = std::fs::read_to_string(root.join(&path)).ok()?;
            Some((path, text))
        })
        .collect();
    assert!(files.len() > 20, "extension/src has {} files", files.len());
    let problems = circles(
        files.iter().map(|(p, t)| (p.as_str(), t.as_str())),
        &content_modules(&lib),
    );
    assert!(
        problems.is_empty(),
        "extension/src (move a shared helper into a leaf module such as `dom.rs`):\n{}",
        problems.join("\n")
    );
}
