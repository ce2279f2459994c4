//! The library's layers point down only: each top-level module of `src/`
//! names only the modules below it in `LAYERS` (the order `src/lib.rs`
//! describes), so the rules (`games`, `core`, and `eval`, the terms-times-
//! weights shape of the games' evaluations) know nothing of search,
//! protocol, engine, client, referee or board, and no two modules import
//! each other. Test-only code (`#[cfg(test)]` modules) may reach further.
//! A `#[macro_export]` macro, named from the crate root, counts as part
//! of the module that defines it.
//! Relative paths (`self::`, `super::`, `super::super::`) count as the
//! `crate::` paths they resolve to from the file's module.

mod source;
use source::{test_module_paths, test_only_children};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top to bottom: a module may name only the ones after it.
const LAYERS: [&str; 13] = [
    "board", "openings", "referee", "record", "client", "engine", "learn", "solve", "search",
    "protocol", "games", "eval", "core",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file without comments, string literals, one-line
/// `#[cfg(test)]` declarations (`mod tests;`), and the inline
/// `#[cfg(test)]` items (from the attribute to the end of the file: test
/// modules come last, which this also checks).
fn non_test_code(text: &str, file: &Path) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // A one-line declaration (`mod tests;`) is skipped alone: the
            // code after it is still checked.
            if lines
                .peek()
                .is_some_and(|next| next.trim_end().ends_with(';'))
            {
                lines.next();
                continue;
            }
            break;
        }
        code.push_str(line);
        code.push('\n');
    }
    let code = strip_strings(&code);
    if text.contains("#[cfg(test)]") {
        let after = &text[text.find("#[cfg(test)]").unwrap()..];
        let after_decl = after.lines().nth(1).unwrap_or("").trim();
        assert!(
            after_decl.starts_with("mod ")
                || after_decl.starts_with("pub(crate) mod ")
                || after_decl.starts_with("fn ")
                || after_decl.starts_with("use ")
                || after_decl.starts_with("#["),
            "{}: #[cfg(test)] on `{after_decl}`: the layer check reads everything after \
             the first #[cfg(test)] as test code",
            file.display()
        );
    }
    code
}

/// Drops the contents of "…" string literals and `//` comments to the end
/// of their line (char literals and lifetimes are left alone: they cannot
/// hold a path).
fn strip_strings(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut in_str = false;
    let mut in_comment = false;
    let mut escaped = false;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '\n' {
                in_comment = false;
                out.push(c);
            }
            continue;
        }
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
                out.push(c);
            }
            continue;
        }
        if c == '\'' {
            // A quote as a char literal ('"' or '\"') opens no string.
            let ahead: String = chars.clone().take(3).collect();
            if let Some(lit) = ["\"'", "\\\"'"].into_iter().find(|l| ahead.starts_with(l)) {
                out.push(c);
                for _ in 0..lit.len() {
                    out.extend(chars.next());
                }
                continue;
            }
        }
        if c == '/' && chars.peek() == Some(&'/') {
            in_comment = true;
            continue;
        }
        if c == '"' {
            in_str = true;
        }
        out.push(c);
    }
    out
}

/// The module path of a file of `src/`: `referee/pool.rs` is
/// `["referee", "pool"]`, `referee/mod.rs` is `["referee"]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut path: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// Rewrites relative paths (`self::`, `super::`, `super::super::`, ...)
/// as the `crate::` paths they stand for in the module `module`, so that
/// `crate_paths` sees an upward import however it is spelt. A `super`
/// chain that climbs above the crate root is left alone (rustc refuses it).
fn absolute_paths(code: &str, module: &[String]) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    loop {
        // Not the tail of a longer name or of a path (`a::super::`).
        let starts = |i: &usize| {
            let before = rest[..*i].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '$')
        };
        let next = ["self::", "super::"]
            .iter()
            .filter_map(|k| rest.match_indices(k).map(|(i, _)| i).find(starts))
            .min();
        let Some(i) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i]);
        let mut tail = &rest[i..];
        let mut depth = 0;
        loop {
            if let Some(t) = tail.strip_prefix("self::") {
                tail = t;
            } else if let Some(t) = tail.strip_prefix("super::") {
                tail = t;
                depth += 1;
            } else {
                break;
            }
        }
        match module.len().checked_sub(depth) {
            Some(keep) => {
                out.push_str("crate::");
                for m in &module[..keep] {
                    out.push_str(m);
                    out.push_str("::");
                }
            }
            None => out.push_str(&rest[i..rest.len() - tail.len()]),
        }
        rest = tail;
    }
}

/// The top-level modules a piece of code names through `crate::` paths,
/// grouped ones (`use crate::{a::X, b}`) included.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `koma_crate::`, `$crate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut at_item_start = true;
            let mut word = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && at_item_start && (c.is_alphanumeric() || c == '_') {
                    word.push(c);
                    continue;
                }
                if !word.is_empty() {
                    out.insert(std::mem::take(&mut word));
                    at_item_start = false;
                }
                if depth == 1 {
                    if c == ',' {
                        at_item_start = true;
                    } else if !c.is_whitespace() {
                        at_item_start = false;
                    }
                }
            }
            if !word.is_empty() {
                out.insert(word);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

/// For each non-test file of the library: its top-level module and the
/// top-level modules its code names.
fn imports() -> Vec<(PathBuf, String, BTreeSet<String>)> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let test_files = test_module_paths(&files);
    let top_of = |f: &Path| {
        let rel = f.strip_prefix(&root).unwrap();
        let top = rel.components().next().unwrap().as_os_str();
        top.to_str().unwrap().trim_end_matches(".rs").to_string()
    };
    // Exported macros live at the crate root: `crate::m!` is their module's.
    let mut macros = std::collections::BTreeMap::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for name in exported_macros(&text) {
            macros.insert(name, top_of(f));
        }
    }
    let mut out = Vec::new();
    for f in files {
        let top = top_of(&f);
        if ["lib", "main", "bin"].contains(&top.as_str()) {
            continue; // the binaries stand above every layer
        }
        if test_files.iter().any(|t| f.starts_with(t)) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let module = module_path(f.strip_prefix(&root).unwrap());
        let names = crate_paths(&absolute_paths(&non_test_code(&text, &f), &module))
            .into_iter()
            .map(|n| macros.get(&n).cloned().unwrap_or(n))
            .collect();
        out.push((f, top, names));
    }
    out
}

/// The names of the `#[macro_export]` macros a file defines.
fn exported_macros(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[macro_export]")
        .filter_map(|w| w[1].strip_prefix("macro_rules! "))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn each_module_names_only_the_layers_below_it() {
    let mut wrong = Vec::new();
    let files = imports();
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    for (file, top, names) in &files {
        let Some(rank) = LAYERS.iter().position(|l| l == top) else {
            wrong.push(format!("{}: module {top} is not in LAYERS", file.display()));
            continue;
        };
        for name in names {
            if name == top {
                continue;
            }
            match LAYERS.iter().position(|l| l == name) {
                Some(r) if r > rank => {}
                Some(_) => wrong.push(format!("{}: {top} names {name}", file.display())),
                None => wrong.push(format!(
                    "{}: crate::{name} is not a known layer",
                    file.display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "layers pointing up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_rules_name_nothing_but_the_rules() {
    for (file, top, names) in imports() {
        if ["games", "eval", "core"].contains(&top.as_str()) {
            let foreign: Vec<_> = names
                .iter()
                .filter(|n| !["games", "eval", "core"].contains(&n.as_str()))
                .collect();
            assert!(foreign.is_empty(), "{}: {foreign:?}", file.display());
        }
    }
}

#[test]
fn the_scanner_sees_plain_grouped_and_nested_paths() {
    let code = "use crate::search::Worker;\n\
                use crate::{core::{Color, Square}, games::GameId as G, solve as s};\n\
                fn f() { crate::protocol::parse_move(\"crate::board\"); } // crate::client\n\
                const Q: char = '\"'; use crate::engine::X;\n\
                /// crate::referee in a doc comment\n\
                macro_rules! m { () => { $crate::client::x() } }\n";
    let code = non_test_code(code, Path::new("example.rs"));
    let names: Vec<_> = crate_paths(&code).into_iter().collect();
    assert_eq!(
        names,
        ["core", "engine", "games", "protocol", "search", "solve"]
    );
    let test_tail = "use crate::core::X;\n#[cfg(test)]\nmod tests {\n use crate::board::Y;\n}\n";
    let names: Vec<_> = crate_paths(&non_test_code(test_tail, Path::new("t.rs")))
        .into_iter()
        .collect();
    assert_eq!(names, ["core"]);
    // Code after a one-line `#[cfg(test)] mod tests;` is still checked.
    let test_decl = "#[cfg(test)]\nmod tests;\nuse crate::search::Z;\n";
    let names: Vec<_> = crate_paths(&non_test_code(test_decl, Path::new("t.rs")))
        .into_iter()
        .collect();
    assert_eq!(names, ["search"]);
    assert_eq!(
        exported_macros("#[macro_export]\nmacro_rules! impl_it {\n"),
        ["impl_it"]
    );
    assert_eq!(
        test_only_children("#[cfg(test)]\nmod tests;\n#[cfg(test)]\npub(crate) mod conformance;\n"),
        ["tests", "conformance"]
    );
}

#[test]
fn relative_paths_are_resolved_from_the_files_module() {
    let module = module_path(Path::new("games/nana/index.rs"));
    assert_eq!(module, ["games", "nana", "index"]);
    assert_eq!(module_path(Path::new("referee/mod.rs")), ["referee"]);
    let names = |code: &str, module: &[String]| -> Vec<String> {
        crate_paths(&absolute_paths(code, module))
            .into_iter()
            .collect()
    };
    // Up three levels from games::nana::index is the crate root.
    let code = "use super::super::super::search::Worker;\n\
                use super::super::eval::X; use self::super::Y;\n\
                pub(super) fn f() { super::super::super::{client, protocol::Z}::g(); }\n";
    assert_eq!(
        names(code, &module),
        ["client", "games", "protocol", "search"]
    );
    // From a top-level module, `super::` is already the root; `self::` is
    // the module itself.
    let top = module_path(Path::new("core/mod.rs"));
    let code = "use super::board::Table; use self::color::Color;\n";
    assert_eq!(names(code, &top), ["board", "core"]);
    // Names that merely end in `super`/`self`, and paths that climb above
    // the root, stay as they are.
    let code = "use crate::a::selfish::b; my_super::x(); super::super::q(); super::b::c();\n";
    assert_eq!(names(code, &top), ["a", "b"]);
}
