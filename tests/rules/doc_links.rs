//! What the documents cite is in the repository (issue 61): every relative link of the README
//! and of `docs/` (and of the render crate's README) names a file that exists, no document
//! points outside the repository (`../shared`, the source documents), and every rules file the
//! sources cite (`docs/rules/<game>.md`) is there, as is the licence the README states.
#![allow(clippy::unwrap_used)] // a test: a panic is the failure report

use std::path::{Path, PathBuf};

/// Every Markdown file of the documents: the READMEs and `docs/`, recursively.
fn documents(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root.join("README.md"), root.join("render/README.md")];
    walk(&root.join("docs"), &mut out);
    out
}

/// The targets of a text's Markdown links (`[text](target)`), outside code blocks and spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold examples (`[x](y)` in a sentence about links), not links.
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// Whether a link leaves the repository's files alone (a web address, an anchor, mail).
fn is_external(target: &str) -> bool {
    target.starts_with("http://")
        || target.starts_with("https://")
        || target.starts_with("mailto:")
        || target.starts_with('#')
        || target.starts_with('<')
}

#[test]
fn every_link_of_the_documents_resolves_inside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.strip_prefix(root).unwrap().display().to_string();
        for target in links(&text) {
            if is_external(&target) {
                continue;
            }
            let file = target.split('#').next().unwrap_or_default();
            let path = doc.parent().unwrap().join(file);
            checked += 1;
            let inside = path
                .canonicalize()
                .is_ok_and(|p| p.starts_with(root.canonicalize().unwrap()));
            if !inside {
                broken.push(format!("{name}: ({target})"));
            }
        }
        for outside in ["../shared", "shared/seeds", "seeds/0"] {
            if text.contains(outside) {
                broken.push(format!("{name}: cites {outside}, outside the repository"));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: the scan is broken"
    );
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_rules_the_sources_cite_are_in_docs_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cited = std::collections::BTreeSet::new();
    let mut files = Vec::new();
    super::purity::sources(&root.join("src"), &mut files);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("rules/") {
            let after = &rest[i + "rules/".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect();
            if after[name.len()..].starts_with(".md") {
                cited.insert((name, path.display().to_string()));
            }
            rest = after;
        }
    }
    assert!(cited.len() >= 5, "{cited:?}");
    for (game, file) in &cited {
        assert!(
            root.join("docs/rules").join(format!("{game}.md")).is_file(),
            "{file} cites rules/{game}.md, which is not in docs/rules"
        );
    }
}

#[test]
fn the_licence_the_readme_states_is_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mit = std::fs::read_to_string(root.join("LICENSE-MIT")).unwrap();
    assert!(mit.starts_with("MIT License"), "{mit}");
    let apache = std::fs::read_to_string(root.join("LICENSE-APACHE")).unwrap();
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("[MIT](LICENSE-MIT) or [Apache-2.0](LICENSE-APACHE)"),
        "the README names no licence"
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("license = \"MIT OR Apache-2.0\""),
        "Cargo.toml states none"
    );
}
