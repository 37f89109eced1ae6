//! Finds the message catalogues (`locales/<language>/<area>.ftl`) and embeds them, so a new language is
//! a new directory: no list in the code names the languages. English (the fallback) is embedded with the
//! `english` feature, every language with `all-languages` (the host); the extension's wasm embeds none
//! and loads them from its package at run time instead, to keep its wasm small.
//!
//! Must not read anything outside `locales/`, nor fail on a catalogue's content (the crate's tests
//! judge the words; the build only carries them, without the translators' comments).

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs, io};

fn main() -> io::Result<()> {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").map_err(io::Error::other)?).join("locales");
    println!("cargo:rerun-if-changed=locales");
    let mut languages: Vec<_> = fs::read_dir(&root)?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    languages.sort();
    let embed_all = env::var_os("CARGO_FEATURE_ALL_LANGUAGES").is_some();
    let embed_english = embed_all || env::var_os("CARGO_FEATURE_ENGLISH").is_some();
    let mut out = String::from(
        "/// Every catalogue: (language tag, [(file name, its text, or \"\" when not embedded)]).\n",
    );
    out.push_str("pub static CATALOGUES: &[(&str, &[(&str, &str)])] = &[\n");
    for language in &languages {
        let dir = root.join(language);
        println!("cargo:rerun-if-changed=locales/{language}");
        let mut files: Vec<_> = fs::read_dir(&dir)?
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| name.ends_with(".ftl"))
            .collect();
        files.sort();
        let _ = writeln!(out, "    ({language:?}, &[");
        for file in &files {
            println!("cargo:rerun-if-changed=locales/{language}/{file}");
            if embed_all || (embed_english && language == "en") {
                // Embedded without its comments, which are for translators: the wasm carries the words.
                let text = fs::read_to_string(dir.join(file))?;
                let words: String = text
                    .lines()
                    .filter(|line| !line.starts_with('#'))
                    .flat_map(|line| [line, "\n"])
                    .collect();
                let _ = writeln!(out, "        ({file:?}, {words:?}),");
            } else {
                let _ = writeln!(out, "        ({file:?}, \"\"),");
            }
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    let target = Path::new(&env::var("OUT_DIR").map_err(io::Error::other)?).join("catalogues.rs");
    fs::write(target, out)
}
