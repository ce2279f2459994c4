//! Reading the library's source as text, for the tests that keep its shape
//! (`layers`, `open_house`): which files are test code.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The names of the modules a file declares behind `#[cfg(test)]`
/// (`#[cfg(test)] mod tests;`): their files are test code.
pub fn test_only_children(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        if !pair[0].starts_with("#[cfg(test)]") {
            continue;
        }
        let decl = pair[1]
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ");
        if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
            out.push(name.to_string());
        }
    }
    out
}

/// The files and folders the Rust files of `files` declare as test-only
/// modules (`x.rs` and `x/` beside or below their parent).
pub fn test_module_paths(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        let dir = if f
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
        {
            f.parent().map_or_else(PathBuf::new, Path::to_path_buf)
        } else {
            f.with_extension("")
        };
        for child in test_only_children(&text) {
            out.insert(dir.join(format!("{child}.rs")));
            out.insert(dir.join(&child));
        }
    }
    out
}
