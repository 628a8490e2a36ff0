//! `hexmeros render` as a process: a PNG of a position, a GIF of an export, and bad input
//! answered with exit status 2 and one line on stderr.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn hexmeros(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexmeros"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
fn a_board_png_decodes_with_the_size_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.png");
    let o = hexmeros(
        &[
            "render",
            "--game",
            "hexdame",
            "--as",
            "black",
            "--size",
            "500",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap();
    assert_eq!(img.width().max(img.height()), 500);

    // A position from standard input, with a move highlighted and one staged.
    let json = hexmeros::games::AnyGame::new(hexmeros::games::GameKind::HexDame, None, None)
        .unwrap()
        .to_json();
    let o = hexmeros(
        &[
            "render",
            "--position",
            "-",
            "--staged",
            "a4-a5",
            "-o",
            out.to_str().unwrap(),
        ],
        Some(&json),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap();
    assert_eq!(
        img.width().max(img.height()),
        hexmeros::view::HEXDAME_SIZE,
        "HexDame's default size"
    );
}

#[test]
fn a_replay_gif_from_an_export() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.gif");
    let export =
        "# hexmeros game export\ngame hexdame\nseats 2\nhouse {}\nwhite a4-a5\nblack f6-e5\n";
    let o = hexmeros(
        &["render", "--replay", "-", "-o", out.to_str().unwrap()],
        Some(export),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, Option<&str>, &str)> = vec![
        (vec!["render", "--game", "hexdame"], None, "-o"),
        (vec!["render", "--game", "chess", "-o", out], None, "chess"),
        (
            vec!["render", "--game", "hexdame", "--as", "purple", "-o", out],
            None,
            "purple",
        ),
        (
            vec![
                "render", "--game", "hexdame", "--staged", "a1-a9", "-o", out,
            ],
            None,
            "a1-a9",
        ),
        (
            vec!["render", "--game", "hexdame", "--last", "zz", "-o", out],
            None,
            "zz",
        ),
        (
            vec!["render", "--position", "/nonexistent.json", "-o", out],
            None,
            "nonexistent",
        ),
        (
            vec!["render", "--position", "-", "-o", out],
            Some("{not json"),
            "",
        ),
        (
            vec!["render", "--replay", "-", "-o", out],
            Some("game hexdame\nwhite a1-a9\n"),
            "a1-a9",
        ),
        (
            vec!["render", "--game", "hexdame", "--size", "5", "-o", out],
            None,
            "5",
        ),
        (
            vec![
                "render",
                "--game",
                "hexdame",
                "-o",
                "/nonexistent/dir/x.png",
            ],
            None,
            "/nonexistent/dir",
        ),
    ];
    for (args, stdin, needle) in cases {
        let o = hexmeros(&args, stdin);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?} should mention {needle:?}: {err}"
        );
    }
}

/// What `render --help` says of the default size is what a picture gets without `--size`:
/// 1600 for HexiMeros, 1200 for HexDame (issue 61: the help said 1600 for every board).
#[test]
fn the_default_sizes_are_those_the_help_states() {
    let help = String::from_utf8_lossy(&hexmeros(&["render", "--help"], None).stdout).into_owned();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1600 for most boards, 1200 for HexDame"),
        "{help}"
    );
    let dir = tempfile::tempdir().unwrap();
    for (game, long) in [("heximeros", 1600), ("hexdame", 1200)] {
        let out = dir.path().join(format!("{game}.png"));
        let o = hexmeros(
            &["render", "--game", game, "-o", out.to_str().unwrap()],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let img = image::open(&out).unwrap();
        assert_eq!(img.width().max(img.height()), long, "{game}");
    }
}
