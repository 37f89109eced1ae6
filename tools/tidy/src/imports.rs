//! Which modules of a crate use which, read from its source, and the circles they form.
//!
//! The content script's modules must import each other in layers, never in a circle: small DOM and
//! text helpers live in leaf modules that import no feature module, and a feature module that needs
//! another's work calls it one way only. A circle (`detect` uses `effect`, which uses `detect`) makes
//! every module of it a part of every other, so none can be read, tested or moved alone.
//!
//! What counts as a use: a path that starts with `crate::`, `super::` or `self::` anywhere in the code,
//! and every `use` (a grouped one too), followed through the names a module imports or re-exports
//! (`pub use bulk::Rect` makes `detect::Rect` a use of `detect::bulk`). Comments and string literals
//! are not code. A use between a module and one of its own (a parent and its child, both ways) is how
//! Rust puts a module together, not a circle; so the circles are looked for among siblings: among the
//! top-level modules, and among the children of every module.
//!
//! Must not: build or compile anything; it reads text, as a person reading the `use` lines would.

use std::collections::{BTreeMap, BTreeSet};

/// A module's path from the crate root (`["detect", "scan"]`); the root is empty.
pub type ModulePath = Vec<String>;

/// The module a source file is, from its path under `src/` (`detect/scan.rs`, `detect/mod.rs`,
/// `lib.rs`); `None` for a file that is not Rust.
pub fn module_of(path: &str) -> Option<ModulePath> {
    let stem = path.strip_suffix(".rs")?;
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|last| last == "mod") || parts == ["lib"] || parts == ["main"] {
        parts.pop();
    }
    Some(parts)
}

/// The top-level modules `lib.rs` declares that the content script compiles: all but those only the
/// extension's own contexts have (`#[cfg(feature = "extension")]`).
pub fn content_modules(lib_rs: &str) -> BTreeSet<String> {
    let mut modules = BTreeSet::new();
    let mut extension_only = false;
    for line in lib_rs.lines().map(str::trim) {
        if line.starts_with("#[cfg(") {
            extension_only = line == r#"#[cfg(feature = "extension")]"#;
            continue;
        }
        if line.starts_with("#[") || line.starts_with("//") || line.is_empty() {
            continue;
        }
        let declared = line
            .strip_prefix("pub ")
            .unwrap_or(line)
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'));
        if let Some(name) = declared {
            if !extension_only {
                modules.insert(name.trim().to_owned());
            }
        }
        extension_only = false;
    }
    modules
}

/// The circles among the modules of `files` (`(path under src/, text)`): among the top-level modules
/// named in `top` and among the children of every module below them. One line each, naming the
/// modules and, for each use that closes the circle, where it is.
pub fn circles<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
    top: &BTreeSet<String>,
) -> Vec<String> {
    let sources: BTreeMap<ModulePath, (&str, &str)> = files
        .into_iter()
        .filter_map(|(path, text)| Some((module_of(path)?, (path, text))))
        .collect();
    let modules: BTreeSet<ModulePath> = sources.keys().cloned().collect();
    let read: BTreeMap<&ModulePath, Vec<Use>> = sources
        .iter()
        .map(|(module, (_, text))| (module, uses(&tokens(text))))
        .collect();
    // What each module imports, by the name it is known by there: how `super::Rect` is followed.
    let mut imports: BTreeMap<ModulePath, BTreeMap<String, ModulePath>> = BTreeMap::new();
    for (module, found) in &read {
        for u in found.iter().filter(|u| u.import) {
            let target = resolve(module, &u.path, &modules, &BTreeMap::new());
            if let (Some(target), Some(name)) = (target, u.name.clone()) {
                imports.entry((*module).clone()).or_default().insert(name, target);
            }
        }
    }
    // Sibling groups: the parent's path, then each child's uses of another child, with one example.
    type Group = BTreeMap<String, BTreeMap<String, String>>;
    let mut groups: BTreeMap<ModulePath, Group> = BTreeMap::new();
    for (module, found) in &read {
        let (path, _) = sources[*module];
        for u in found {
            let Some(target) = resolve(module, &u.path, &modules, &imports) else {
                continue;
            };
            let shared = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            let (Some(from), Some(to)) = (module.get(shared), target.get(shared)) else {
                continue; // the same module, or one inside the other
            };
            if shared == 0 && !(top.contains(from) && top.contains(to)) {
                continue;
            }
            let example = format!("{path}:{} `{}`", u.line, u.path.join("::"));
            groups
                .entry(module[..shared].to_vec())
                .or_default()
                .entry(from.clone())
                .or_default()
                .entry(to.clone())
                .or_insert(example);
        }
    }
    let mut found = Vec::new();
    for (parent, group) in &groups {
        if parent.first().is_some_and(|first| !top.contains(first)) {
            continue;
        }
        for circle in strongly_connected(group) {
            let names: Vec<String> = circle.iter().map(|m| format!("`{m}`")).collect();
            let ties: Vec<String> = circle
                .iter()
                .flat_map(|from| {
                    group[from]
                        .iter()
                        .filter(|(to, _)| circle.contains(*to))
                        .map(move |(to, example)| format!("{from} → {to} ({example})"))
                })
                .collect();
            let place = if parent.is_empty() {
                "the crate's top".to_owned()
            } else {
                format!("`{}`", parent.join("::"))
            };
            found.push(format!(
                "in {place}, {} import each other in a circle: {}",
                names.join(", "),
                ties.join("; ")
            ));
        }
    }
    found
}

/// One use of a path in a file.
#[derive(Debug)]
struct Use {
    /// As written: `crate::detect::name_of`, `super::bulk::Rect`, `bulk::Rect` (in a `use`).
    path: Vec<String>,
    line: usize,
    /// A `use` item, which also names what it imports.
    import: bool,
    /// The name it imports under (its last segment, or its `as`).
    name: Option<String>,
}

/// A word of code, or one of the marks a path is made of, with its line.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    line: usize,
}

/// The code's words and path marks (`::`, `{`, `}`, `,`, `;`, `*`); every other mark is `.`, which
/// ends a path. Comments, strings, characters and lifetimes are left out.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut push = |text: String, line: usize| out.push(Token { text, line });
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    line += usize::from(chars[i] == '\n');
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            '\'' => {
                // A character ('x', '\n', '\u{200B}'), or a lifetime ('a), which has no closing quote.
                if at(i + 1) == '\\' {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            c if c.is_alphanumeric() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                // A raw string: r"…", r#"…"#, br"…".
                let hashes = chars[i..].iter().take_while(|c| **c == '#').count();
                if matches!(word.as_str(), "r" | "br") && at(i + hashes) == '"' {
                    i += hashes + 1;
                    let closes = |i: usize| chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#');
                    while i < chars.len() && !closes(i) {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                    i += hashes + 1;
                    continue;
                }
                push(word, start_line);
            }
            ':' if at(i + 1) == ':' => {
                push("::".into(), line);
                i += 2;
            }
            '{' | '}' | ',' | ';' | '*' => {
                push(c.to_string(), line);
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            _ => {
                push(".".into(), line);
                i += 1;
            }
        }
    }
    out
}

/// Every use in a file's tokens: `use` items (each leaf of a grouped one), and paths that start with
/// `crate`, `super` or `self` elsewhere.
fn uses(tokens: &[Token]) -> Vec<Use> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let word = tokens[i].text.as_str();
        if word == "use" {
            i = use_tree(tokens, i + 1, &[], &mut found);
            continue;
        }
        let next_is_path = tokens.get(i + 1).is_some_and(|t| t.text == "::");
        if matches!(word, "crate" | "super" | "self") && next_is_path {
            let line = tokens[i].line;
            let mut path = vec![word.to_owned()];
            i += 1;
            while tokens.get(i).is_some_and(|t| t.text == "::") {
                match tokens.get(i + 1) {
                    Some(t) if is_word(&t.text) => path.push(t.text.clone()),
                    _ => break,
                }
                i += 2;
            }
            found.push(Use {
                path,
                line,
                import: false,
                name: None,
            });
            continue;
        }
        i += 1;
    }
    found
}

fn is_word(text: &str) -> bool {
    text.chars().all(|c| c.is_alphanumeric() || c == '_') && !text.is_empty()
}

/// Reads one use tree from `i` under `prefix`, adding its leaves; returns where it ends.
fn use_tree(tokens: &[Token], mut i: usize, prefix: &[String], found: &mut Vec<Use>) -> usize {
    let mut path = prefix.to_vec();
    let line = tokens.get(i).map_or(0, |t| t.line);
    while let Some(token) = tokens.get(i) {
        match token.text.as_str() {
            "::" => i += 1,
            "{" => {
                i += 1;
                while tokens.get(i).is_some_and(|t| t.text != "}") {
                    i = use_tree(tokens, i, &path, found);
                    if tokens.get(i).is_some_and(|t| t.text == ",") {
                        i += 1;
                    }
                }
                return i + 1;
            }
            "*" => {
                found.push(Use {
                    path,
                    line,
                    import: true,
                    name: None,
                });
                return i + 1;
            }
            word if is_word(word) && word != "as" => {
                path.push(word.to_owned());
                i += 1;
                if tokens.get(i).is_some_and(|t| t.text == "::") {
                    continue;
                }
                let mut name = Some(word.to_owned());
                if tokens.get(i).is_some_and(|t| t.text == "as") {
                    name = tokens.get(i + 1).map(|t| t.text.clone());
                    i += 2;
                }
                if path.last().is_some_and(|last| last == "self") {
                    path.pop();
                    name = path.last().cloned();
                }
                found.push(Use {
                    path,
                    line,
                    import: true,
                    name,
                });
                return i;
            }
            _ => return i,
        }
    }
    i
}

/// The module of this crate a use in `module` reaches, through child modules and the names modules
/// import; `None` for other crates.
fn resolve(
    module: &[String],
    path: &[String],
    modules: &BTreeSet<ModulePath>,
    imports: &BTreeMap<ModulePath, BTreeMap<String, ModulePath>>,
) -> Option<ModulePath> {
    let mut current: ModulePath = module.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            current.clear();
            rest = &path[1..];
        }
        Some("super" | "self") => {
            while let Some(first) = rest.first().map(String::as_str) {
                match first {
                    "super" => {
                        current.pop()?;
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        // A `use` of a child module by its bare name (`use bulk::Rect` in `detect`); else another crate.
        Some(first) if modules.contains(&[module, &[first.to_owned()]].concat()) => {}
        _ => return None,
    }
    for segment in rest {
        let child = [current.as_slice(), std::slice::from_ref(segment)].concat();
        if modules.contains(&child) {
            current = child;
        } else if let Some(target) = imports.get(&current).and_then(|names| names.get(segment)) {
            current = target.clone();
        } else {
            break;
        }
    }
    Some(current)
}

/// The groups of two or more modules that each reach all the others (Tarjan's algorithm), each
/// sorted, in name order.
fn strongly_connected(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, node: &'g str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        let graph = s.graph;
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            let next = next.as_str();
            if !s.index.contains_key(next) {
                visit(s, next);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut group = Vec::new();
            while let Some(member) = s.stack.pop() {
                s.on_stack.remove(member);
                group.push(member.to_owned());
                if member == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found.sort();
    state.found
}

#[cfg(test)]
mod tests;
