//! The house's bounds (issue 47), measured on the sources ([`TREES`]: the bot's `src/` and the
//! render crate's `render/src/`): every file at most [`FILE_LINES`] lines (unit-test modules
//! aside: a `tests.rs` file, or what follows a file's `#[cfg(test)]`), every function of
//! `src/host` and `src/discord` at most [`FRONT_FN_LINES`] lines and any other at most
//! [`FN_LINES`], and no import circle among the modules of `src/discord/`.
//!
//! [`KNOWN`] lists what exceeded a bound when the guard came, each at its length then: it may
//! shrink (and must leave the list once within the bound: a stale entry fails too) but not grow.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::purity::sources;

const FILE_LINES: usize = 800;
const FRONT_FN_LINES: usize = 80;
const FN_LINES: usize = 120;

/// The source trees measured, from the workspace root.
const TREES: &[&str] = &["src", "render/src"];

/// Files and functions over their bound when the guard came: (`file` or `file:function`, lines).
const KNOWN: &[(&str, usize)] = &[];

/// A source file's lines up to its unit-test module.
fn body(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect()
}

/// The functions of a file's lines: (name, lines from `fn` to its closing brace). A function
/// ends at the first line after its signature that is its own indentation and `}`.
fn functions(lines: &[&str]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let mut words = trimmed.split_whitespace();
        let mut is_fn = false;
        for w in words.by_ref() {
            if w == "fn" {
                is_fn = true;
                break;
            }
            let modifier = w == "async"
                || w == "const"
                || w == "unsafe"
                || w == "extern"
                || w.starts_with("pub")
                || w.starts_with('"');
            if !modifier {
                break;
            }
        }
        if !is_fn {
            continue;
        }
        let Some(name) = words
            .next()
            .map(|w| w.split(['(', '<']).next().unwrap().to_string())
        else {
            continue;
        };
        // The signature ends at the line ending in `{` (a body) or `;` (a declaration).
        let Some(open) = (i..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.ends_with('{') || l.ends_with(';')
        }) else {
            continue;
        };
        if lines[open].trim_end().ends_with(';') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = (open + 1..lines.len()).find(|&j| lines[j] == close) {
            out.push((name, end - i + 1));
        }
    }
    out
}

fn relative(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// Everything over its bound: (`file` or `file:function`, lines, bound).
fn over_bounds(root: &Path) -> Vec<(String, usize, usize)> {
    let mut files = Vec::new();
    for tree in TREES {
        let before = files.len();
        sources(&root.join(tree), &mut files);
        assert!(files.len() > before, "no source files in {tree}");
    }
    assert!(files.len() > 100, "{} source files", files.len());
    let mut over = Vec::new();
    for p in &files {
        let name = relative(root, p);
        let text = std::fs::read_to_string(p).unwrap();
        let lines = body(&text);
        if lines.len() > FILE_LINES {
            over.push((name.clone(), lines.len(), FILE_LINES));
        }
        let bound = if name.starts_with("src/host/") || name.starts_with("src/discord/") {
            FRONT_FN_LINES
        } else {
            FN_LINES
        };
        for (f, n) in functions(&lines) {
            if n > bound {
                over.push((format!("{name}:{f}"), n, bound));
            }
        }
    }
    over
}

#[test]
fn files_and_functions_keep_their_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let over = over_bounds(root);
    let known: BTreeMap<&str, usize> = KNOWN.iter().copied().collect();
    let mut failures = Vec::new();
    for (what, n, bound) in &over {
        match known.get(what.as_str()) {
            Some(&was) if *n <= was => {}
            Some(&was) => failures.push(format!(
                "{what}: {n} lines, more than the {was} it had (the bound is {bound})"
            )),
            None => failures.push(format!("{what}: {n} lines, over the bound of {bound}")),
        }
    }
    let still: BTreeSet<&str> = over.iter().map(|(w, _, _)| w.as_str()).collect();
    for what in known.keys() {
        if !still.contains(what) {
            failures.push(format!(
                "{what} is within its bound now (or gone): take it off KNOWN"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The guard's measures can fail: a function one line over its bound is found, with its name.
#[test]
fn the_function_measure_finds_a_long_function() {
    let mut text =
        String::from("impl X {\n    pub async fn long<T>(\n        a: T,\n    ) -> T {\n");
    for _ in 0..FN_LINES {
        text.push_str("        a;\n");
    }
    text.push_str("    }\n\n    fn short() {}\n}\n");
    let lines: Vec<&str> = text.lines().collect();
    let found = functions(&lines);
    // The signature's three lines, the body, the closing brace.
    assert_eq!(found, [("long".to_string(), FN_LINES + 4)]);
    // A unit-test module does not count toward a file's length.
    assert_eq!(body("a\nb\n#[cfg(test)]\nmod tests {}\n").len(), 2);
}

/// The modules of `src/discord/` (a file `x.rs` or a folder `x/` is module `x`) and the sibling
/// modules each imports.
fn discord_imports(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let dir = root.join("src/discord");
    let mut modules = BTreeSet::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        if stem != "mod" {
            modules.insert(stem);
        }
    }
    let mut files = Vec::new();
    sources(&dir, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in files {
        let rel = p.strip_prefix(&dir).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts == ["mod"] {
            continue;
        }
        let module = parts[0].clone();
        // How a sibling is reached from this file: `super::` from `x.rs`, `super::super::`
        // from `x/y.rs`, and `crate::discord::` from anywhere.
        let up = "super::".repeat(parts.len());
        let text = std::fs::read_to_string(&p).unwrap();
        let body = body(&text).join("\n");
        for sibling in &modules {
            if *sibling == module {
                continue;
            }
            let uses = [
                format!("{up}{sibling}::"),
                format!("{up}{sibling};"),
                format!("{up}{{"),
                format!("crate::discord::{sibling}"),
            ];
            let braced = body.match_indices(&uses[2]).any(|(i, _)| {
                let rest = &body[i + uses[2].len()..];
                let group = &rest[..rest.find('}').unwrap_or(rest.len())];
                group
                    .split([',', ' ', '\n'])
                    .any(|w| w == sibling || w.starts_with(&format!("{sibling}::")))
            });
            if braced
                || uses
                    .iter()
                    .take(2)
                    .chain(&uses[3..])
                    .any(|u| body.contains(u))
            {
                graph
                    .entry(module.clone())
                    .or_default()
                    .insert(sibling.clone());
            }
        }
    }
    graph
}

/// A circle in `graph`, if there is one: the modules round it.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            return Some(path[i..].to_vec());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_discord_modules_import_each_other_in_no_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = discord_imports(root);
    // The measure sees imports: the events import the host's answers' helpers, say.
    assert!(
        graph.values().map(BTreeSet::len).sum::<usize>() > 10,
        "{graph:?}"
    );
    assert_eq!(circle(&graph), None, "{graph:#?}");
    // And it would see a circle.
    let mut knotted = graph.clone();
    let (a, bs) = graph.iter().find(|(_, b)| !b.is_empty()).unwrap();
    let b = bs.iter().next().unwrap();
    knotted.entry(b.clone()).or_default().insert(a.clone());
    assert!(circle(&knotted).is_some());
}
