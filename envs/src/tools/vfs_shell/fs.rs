//! The virtual file system and its shell-like operations.
//!
//! A tree is a sorted map from absolute path to `None` (a directory) or
//! `Some(content)` (a file). The root `/` is implicit and always exists.
//! Every operation returns its output text or an error text; errors change
//! nothing.

use crate::toolkit::tool_env::ToolError;
use std::collections::BTreeMap;

/// Path → `None` for a directory, `Some(content)` for a file.
pub type Tree = BTreeMap<String, Option<String>>;

/// Most lines `grep` and `find` print.
const MAX_MATCHES: usize = 200;
/// Longest path an agent may create.
const MAX_PATH: usize = 200;
/// Largest file an agent may write, and most entries in a tree.
const MAX_FILE: usize = 10_000;
const MAX_ENTRIES: usize = 2_000;

/// The absolute, normalised form of `path` (relative paths are from `/`).
///
/// # Errors
/// A path that climbs above the root or is over-long.
pub(crate) fn normalize(path: &str) -> Result<String, ToolError> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.trim().split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!("{path}: above the root").into());
                }
            }
            p => parts.push(p),
        }
    }
    let out = format!("/{}", parts.join("/"));
    if out.len() > MAX_PATH {
        return Err(format!("{path}: path too long").into());
    }
    Ok(out)
}

fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

pub(crate) fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn is_dir(tree: &Tree, path: &str) -> bool {
    path == "/" || matches!(tree.get(path), Some(None))
}

fn exists(tree: &Tree, path: &str) -> bool {
    path == "/" || tree.contains_key(path)
}

/// The path and everything under it.
fn subtree<'a>(
    tree: &'a Tree,
    path: &'a str,
) -> impl Iterator<Item = (&'a String, &'a Option<String>)> {
    let prefix = if path == "/" {
        "/".to_string()
    } else {
        format!("{path}/")
    };
    tree.iter()
        .filter(move |(p, _)| path == "/" || p.as_str() == path || p.starts_with(&prefix))
}

fn missing(path: &str) -> String {
    format!("error: {path}: no such file or directory")
}

pub(crate) fn ls(tree: &Tree, path: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    match tree.get(&path) {
        Some(Some(_)) => return Ok(basename(&path).to_string()),
        None if path != "/" => return Err(missing(&path).into()),
        _ => {}
    }
    let names: Vec<String> = subtree(tree, &path)
        .filter(|(p, _)| p.as_str() != path && parent(p) == path)
        .map(|(p, node)| format!("{}{}", basename(p), if node.is_none() { "/" } else { "" }))
        .collect();
    Ok(if names.is_empty() {
        "(empty)".into()
    } else {
        names.join("\n")
    })
}

pub(crate) fn cat(tree: &Tree, path: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    match tree.get(&path) {
        Some(Some(content)) => Ok(content.clone()),
        Some(None) => Err(format!("error: {path}: is a directory").into()),
        None if path == "/" => Err("error: /: is a directory".into()),
        None => Err(missing(&path).into()),
    }
}

/// Lines containing `pattern` literally, as `path:line:text`, in the file or
/// under the directory at `path`.
pub(crate) fn grep(tree: &Tree, pattern: &str, path: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    if !exists(tree, &path) {
        return Err(missing(&path).into());
    }
    if pattern.is_empty() {
        return Err("error: empty pattern".into());
    }
    let mut out = Vec::new();
    for (p, node) in subtree(tree, &path) {
        let Some(content) = node else { continue };
        for (i, line) in content.lines().enumerate() {
            if line.contains(pattern) {
                out.push(format!("{p}:{}:{line}", i + 1));
            }
        }
    }
    Ok(cap_lines(out, "no matches"))
}

fn cap_lines(mut lines: Vec<String>, empty: &str) -> String {
    if lines.is_empty() {
        return format!("({empty})");
    }
    let total = lines.len();
    if total > MAX_MATCHES {
        lines.truncate(MAX_MATCHES);
        lines.push(format!("…({} more)", total - MAX_MATCHES));
    }
    lines.join("\n")
}

/// `*` matches any run of characters, `?` any one; everything else literally.
pub(crate) fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Paths under `path` whose base name matches the glob `name`.
pub(crate) fn find(tree: &Tree, path: &str, name: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    if !is_dir(tree, &path) {
        return Err(format!("error: {path}: not a directory").into());
    }
    let found: Vec<String> = subtree(tree, &path)
        .filter(|(p, _)| p.as_str() != path && glob_match(name, basename(p)))
        .map(|(p, node)| format!("{p}{}", if node.is_none() { "/" } else { "" }))
        .collect();
    Ok(cap_lines(found, "nothing found"))
}

pub(crate) fn mkdir(tree: &mut Tree, path: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    let mut at = String::new();
    let mut created = Vec::new();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        at = format!("{at}/{part}");
        match tree.get(&at) {
            Some(Some(_)) => return Err(format!("error: {at}: is a file").into()),
            Some(None) => {}
            None => created.push(at.clone()),
        }
    }
    if tree.len() + created.len() > MAX_ENTRIES {
        return Err("error: file system full".into());
    }
    if created.is_empty() {
        return Ok(format!("{path} already exists"));
    }
    for dir in created {
        tree.insert(dir, None);
    }
    Ok(format!("created {path}"))
}

pub(crate) fn write(tree: &mut Tree, path: &str, content: &str) -> Result<String, ToolError> {
    let path = normalize(path)?;
    if path == "/" || is_dir(tree, &path) {
        return Err(format!("error: {path}: is a directory").into());
    }
    if !is_dir(tree, parent(&path)) {
        return Err(format!("error: {}: no such directory", parent(&path)).into());
    }
    if content.len() > MAX_FILE || tree.len() >= MAX_ENTRIES {
        return Err("error: file system full".into());
    }
    tree.insert(path.clone(), Some(content.to_string()));
    Ok(format!("wrote {} bytes to {path}", content.len()))
}

pub(crate) fn rm(tree: &mut Tree, path: &str, recursive: bool) -> Result<String, ToolError> {
    let path = normalize(path)?;
    if !exists(tree, &path) {
        return Err(missing(&path).into());
    }
    if is_dir(tree, &path) && !recursive {
        return Err(format!("error: {path}: is a directory (pass recursive=true)").into());
    }
    let doomed: Vec<String> = subtree(tree, &path).map(|(p, _)| p.clone()).collect();
    for p in &doomed {
        tree.remove(p);
    }
    Ok(format!("removed {} entries", doomed.len()))
}

/// Where `src` lands for `mv`/`cp` to `dst`: inside `dst` when it is a
/// directory.
fn landing(tree: &Tree, src: &str, dst: &str) -> Result<String, ToolError> {
    let target = if is_dir(tree, dst) {
        normalize(&format!("{dst}/{}", basename(src)))?
    } else {
        dst.to_string()
    };
    if exists(tree, &target) {
        return Err(format!("error: {target}: already exists").into());
    }
    if !is_dir(tree, parent(&target)) {
        return Err(format!("error: {}: no such directory", parent(&target)).into());
    }
    if target == src || target.starts_with(&format!("{src}/")) {
        return Err(format!("error: cannot put {src} inside itself").into());
    }
    Ok(target)
}

fn transfer(tree: &mut Tree, src: &str, dst: &str, keep: bool) -> Result<String, ToolError> {
    let (src, dst) = (normalize(src)?, normalize(dst)?);
    if src == "/" {
        return Err("error: cannot move or copy the root".into());
    }
    if !exists(tree, &src) {
        return Err(missing(&src).into());
    }
    let target = landing(tree, &src, &dst)?;
    let moved: Vec<(String, Option<String>)> = subtree(tree, &src)
        .map(|(p, node)| (p.clone(), node.clone()))
        .collect();
    if keep && tree.len() + moved.len() > MAX_ENTRIES {
        return Err("error: file system full".into());
    }
    for (p, node) in moved {
        if !keep {
            tree.remove(&p);
        }
        tree.insert(format!("{target}{}", &p[src.len()..]), node);
    }
    Ok(format!(
        "{} {src} -> {target}",
        if keep { "copied" } else { "moved" }
    ))
}

pub(crate) fn mv(tree: &mut Tree, src: &str, dst: &str) -> Result<String, ToolError> {
    transfer(tree, src, dst, false)
}

pub(crate) fn cp(tree: &mut Tree, src: &str, dst: &str) -> Result<String, ToolError> {
    transfer(tree, src, dst, true)
}

/// File text as compared at scoring: trailing spaces on each line and
/// trailing blank lines do not matter.
pub(crate) fn normalize_content(content: &str) -> String {
    let lines: Vec<&str> = content.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_string()
}

/// The tree with every file normalised for comparison.
pub(crate) fn canonical(tree: &Tree) -> Tree {
    tree.iter()
        .map(|(p, node)| (p.clone(), node.as_deref().map(normalize_content)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        let mut t = Tree::new();
        mkdir(&mut t, "/a/b").unwrap();
        write(&mut t, "/a/x.txt", "one\ntwo ERROR\n").unwrap();
        write(&mut t, "/a/b/y.log", "ERROR here").unwrap();
        t
    }

    #[test]
    fn shell_operations_behave_like_a_shell() {
        let mut t = tree();
        assert_eq!(ls(&t, "/").unwrap(), "a/");
        assert_eq!(ls(&t, "a").unwrap(), "b/\nx.txt");
        assert_eq!(
            grep(&t, "ERROR", "/").unwrap(),
            "/a/b/y.log:1:ERROR here\n/a/x.txt:2:two ERROR"
        );
        assert_eq!(find(&t, "/", "*.l?g").unwrap(), "/a/b/y.log");
        assert_eq!(
            mv(&mut t, "/a/x.txt", "/a/b").unwrap(),
            "moved /a/x.txt -> /a/b/x.txt"
        );
        assert_eq!(cat(&t, "/a/b/x.txt").unwrap(), "one\ntwo ERROR\n");
        assert!(
            mv(&mut t, "/a", "/a/b")
                .unwrap_err()
                .to_string()
                .contains("inside itself")
        );
        assert!(
            rm(&mut t, "/a", false)
                .unwrap_err()
                .to_string()
                .contains("recursive")
        );
        cp(&mut t, "/a/b", "/c").unwrap();
        assert_eq!(ls(&t, "/c").unwrap(), "x.txt\ny.log");
        assert!(
            write(&mut t, "/nope/z", "")
                .unwrap_err()
                .to_string()
                .contains("no such directory")
        );
        assert!(normalize("/../x").is_err());
        assert_eq!(normalize("a//b/./c/..").unwrap(), "/a/b");
        rm(&mut t, "/", true).unwrap();
        assert!(t.is_empty());
    }

    #[test]
    fn globs_match_whole_names() {
        assert!(glob_match("inv-*.txt", "inv-0042.txt"));
        assert!(!glob_match("inv-*.txt", "inv-0042.txt.bak"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("?", ""));
    }
}
