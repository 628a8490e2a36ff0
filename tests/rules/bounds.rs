//! The house's bounds (issue 47), measured on the sources ([`TREES`]: the bot's `src/` and the
//! render crate's `render/src/`): every file at most [`FILE_LINES`] lines (unit-test modules
//! aside: a `tests.rs` file, or what follows a file's `#[cfg(test)]`), every function of
//! `src/host` and `src/discord` at most [`FRONT_FN_LINES`] lines and any other at most
//! [`FN_LINES`], and no import circle among the modules of `src/discord/` (each module of its
//! inbound and outbound wings, every other top-level module), with the outbound wing importing
//! nothing of the inbound and the wire neither.
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

/// The wings of `src/discord/`: folders whose modules are each a node of the import graph.
const WINGS: [&str; 2] = ["inbound", "outbound"];

/// The module path (from `src/discord/`) of the file at `parts` (`x/y.rs` → `[x, y]`; a
/// `mod.rs` is its folder).
fn module_path(parts: &[String]) -> Vec<String> {
    let mut m = parts.to_vec();
    if m.last().is_some_and(|l| l == "mod") {
        m.pop();
    }
    m
}

/// The node of the import graph a module path belongs to: `wing::x` inside a wing, else the
/// top-level module (`None` for the root and the wings' own files).
fn node_of(path: &[String]) -> Option<String> {
    match path {
        [] => None,
        [w] if WINGS.contains(&w.as_str()) => None,
        [w, x, ..] if WINGS.contains(&w.as_str()) => Some(format!("{w}::{x}")),
        [x, ..] => Some(x.clone()),
    }
}

/// The paths `body` names through `crate::discord::` or `super::` (resolved from the module at
/// `here`), each as segments from `src/discord/` up to its first braced group (a group right
/// after the prefix gives one path per item).
fn named_paths(body: &str, here: &[String]) -> Vec<Vec<String>> {
    let ident = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|w| {
                w.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|w| !w.is_empty())
            .collect()
    };
    let mut found = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < body.len() {
        let rest = &body[i..];
        let boundary = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let (base, len) = if boundary && rest.starts_with("crate::discord::") {
            (Vec::new(), "crate::discord::".len())
        } else if boundary && rest.starts_with("super::") {
            let mut k = 0;
            while body[i + k * 7..].starts_with("super::") {
                k += 1;
            }
            (here[..here.len().saturating_sub(k)].to_vec(), k * 7)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = &body[i + len..];
        if let Some(group) = after.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                let mut p = base.clone();
                p.extend(ident(item.trim()));
                found.push(p);
            }
        } else {
            let mut p = base;
            p.extend(ident(after));
            found.push(p);
        }
        i += len;
    }
    found
}

/// The nodes of `src/discord/`'s import graph (each module of a wing, every other top-level
/// module) and the nodes each imports.
fn discord_imports(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let dir = root.join("src/discord");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    let parts_of = |p: &Path| -> Vec<String> {
        p.strip_prefix(&dir)
            .unwrap()
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect()
    };
    let nodes: BTreeSet<String> = files
        .iter()
        .filter_map(|p| node_of(&module_path(&parts_of(p))))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &files {
        let here = module_path(&parts_of(p));
        let Some(node) = node_of(&here) else {
            continue;
        };
        let text = std::fs::read_to_string(p).unwrap();
        let body = body(&text).join("\n");
        for target in named_paths(&body, &here) {
            if let Some(t) = node_of(&target).filter(|t| *t != node && nodes.contains(t)) {
                graph.entry(node.clone()).or_default().insert(t);
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
    // The wings: the outbound imports nothing of the inbound, the wire neither wing.
    let upward: Vec<(&String, &String)> = graph
        .iter()
        .flat_map(|(a, bs)| bs.iter().map(move |b| (a, b)))
        .filter(|(a, b)| {
            (a.starts_with("outbound::") && b.starts_with("inbound::"))
                || (a.as_str() == "wire"
                    && (b.starts_with("inbound::") || b.starts_with("outbound::")))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports against the wings' order: {upward:?}"
    );
    // The measure sees the wings' modules and resolves both kinds of path.
    assert!(
        graph["inbound::lobby"].contains("outbound::deliver"),
        "{graph:#?}"
    );
    let here = [
        "outbound".to_string(),
        "deliver".to_string(),
        "thread".to_string(),
    ];
    assert_eq!(
        named_paths("use super::super::post::{a, b};", &here),
        [vec!["outbound", "post"]]
    );
    assert_eq!(
        named_paths("x(crate::discord::{names, inbound::scope::Scope})", &here),
        [vec!["names"], vec!["inbound", "scope", "Scope"]]
    );
    // And it would see a circle.
    let mut knotted = graph.clone();
    let (a, bs) = graph.iter().find(|(_, b)| !b.is_empty()).unwrap();
    let b = bs.iter().next().unwrap();
    knotted.entry(b.clone()).or_default().insert(a.clone());
    assert!(circle(&knotted).is_some());
}

/// No bench or test target of the workspace is named like a package of `Cargo.lock`: `.ci/run`
/// cleans this workspace's targets by name before it builds, and a target called `digest`
/// took the `digest` crate's artifacts along, so sqlx, serenity and all that depends on them
/// were built again on every run (two minutes of CI).
#[test]
fn no_target_is_named_like_a_dependency() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let packages: BTreeSet<&str> = lock
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .collect();
    assert!(
        packages.contains("digest") && packages.contains("sqlx"),
        "Cargo.lock read"
    );
    let mut targets = Vec::new();
    for dir in ["benches", "tests", "render/benches", "render/tests"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            let name = match path.extension() {
                Some(ext) if ext == "rs" => path.file_stem(),
                None if path.join("main.rs").exists() => path.file_name(),
                _ => None,
            };
            if let Some(n) = name {
                targets.push(format!("{dir}/{}", n.to_string_lossy()));
            }
        }
    }
    assert!(targets.iter().any(|t| t == "tests/host"), "{targets:?}");
    assert!(
        targets.iter().any(|t| t == "benches/daily_digest"),
        "{targets:?}"
    );
    let clashes: Vec<&String> = targets
        .iter()
        .filter(|t| t.rsplit('/').next().is_some_and(|n| packages.contains(n)))
        .collect();
    assert!(
        clashes.is_empty(),
        "targets named like a dependency: {clashes:?}"
    );
}
