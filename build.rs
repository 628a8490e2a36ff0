//! Bundles Discord's Embedded App SDK for the web board's Activity mode (issue 46).
//!
//! The SDK is an npm package of many small ES modules with dependencies of its own, which a
//! browser cannot load as they are. This script installs exactly what `web/activity/
//! package-lock.json` pins (versions and integrity hashes, from the npm registry, into the
//! build's own `OUT_DIR`, never the source tree), and esbuild (pinned there too) bundles
//! `web/activity/sdk.js` into one minified module that the binary serves as
//! `/assets/discord-sdk.js`. So `cargo build --release` stays the whole set-up, nothing is
//! committed that another project wrote or a tool made, and the same lock makes the same bundle.
//!
//! Without `npm` (or offline with an empty npm cache) the build still succeeds with a warning:
//! the binary then has no Activity (`serve` says so if it is configured for one), and
//! everything else works. `HEXMEROS_NPM` names another npm.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let dir = Path::new("web/activity");
    for f in ["package.json", "package-lock.json", "sdk.js"] {
        println!("cargo:rerun-if-changed={}", dir.join(f).display());
    }
    println!("cargo:rerun-if-env-changed=HEXMEROS_NPM");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let bundle = out.join("discord-sdk.js");
    let why = match build(dir, &out.join("activity"), &bundle) {
        Ok(()) => String::new(),
        Err(e) => {
            println!(
                "cargo:warning=no Activity script in this build (the web board works, the Discord \
                 Activity does not): {e}"
            );
            // The binary includes the file either way; empty means "not built", and why.
            std::fs::write(&bundle, "").expect("OUT_DIR is writable");
            e
        }
    };
    println!("cargo:rustc-env=HEXMEROS_ACTIVITY_MISSING={why}");
}

fn build(src: &Path, work: &Path, bundle: &Path) -> Result<(), String> {
    std::fs::create_dir_all(work).map_err(|e| format!("cannot make {}: {e}", work.display()))?;
    for f in ["package.json", "package-lock.json", "sdk.js"] {
        std::fs::copy(src.join(f), work.join(f))
            .map_err(|e| format!("cannot copy web/activity/{f}: {e}"))?;
    }
    let npm = std::env::var("HEXMEROS_NPM").unwrap_or_else(|_| "npm".to_string());
    // Install scripts are not needed (esbuild's binary comes as an optional dependency) and
    // are not run.
    run(
        Command::new(&npm)
            .args([
                "ci",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--prefer-offline",
            ])
            .current_dir(work),
        "npm ci (install Node.js and npm, then build again)",
    )?;
    run(
        Command::new("node")
            .arg("node_modules/esbuild/bin/esbuild")
            .args([
                "sdk.js",
                "--bundle",
                "--format=esm",
                "--minify",
                "--target=es2020",
                // The packages' licence notices stay with their code, at the bundle's end.
                "--legal-comments=eof",
                "--log-level=warning",
            ])
            .arg(format!("--outfile={}", bundle.display()))
            .current_dir(work),
        "esbuild",
    )
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "{what} failed ({}): {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
        Err(e) => Err(format!("{what} could not run: {e}")),
    }
}
