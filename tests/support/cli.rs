//! Running the `hexmeros` binary from the command-line tests: `ok` for a call that must
//! succeed, `fails` for one that must be refused the way every CLI error is (exit 2, nothing on
//! stdout, one line `error: …` on stderr saying what was wrong).
#![allow(dead_code)] // each test file uses what it needs

use std::io::Write;
use std::process::{Command, Stdio};

/// Exit code (`None` if killed by a signal), stdout and stderr of `hexmeros ARGS` fed `stdin`.
pub fn run(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    run_with(Command::new(crate::hexmeros_bin()), args, stdin)
}

/// [`run`] in the folder `dir`, as an operator in the bot's folder would, with none of the
/// test's own `DATABASE_URL` and `DISCORD_TOKEN` and with the variables `env` set.
pub fn run_in(
    dir: &std::path::Path,
    env: &[(&str, &str)],
    args: &[&str],
) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(crate::hexmeros_bin());
    cmd.current_dir(dir)
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_TOKEN")
        .envs(env.iter().copied());
    run_with(cmd, args, "")
}

fn run_with(mut cmd: Command, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hexmeros binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A command that reads no input may exit before it is written: a broken pipe is fine.
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    let out = child
        .wait_with_output()
        .expect("the hexmeros binary finishes");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Stdout of a call that must succeed quietly (exit 0, nothing on stderr).
#[track_caller]
pub fn ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    assert!(err.is_empty(), "{args:?}: stderr {err:?}");
    out
}

/// A call that must be refused: exit 2, nothing on stdout, one line `error: …` containing `why`.
#[track_caller]
pub fn fails(args: &[&str], stdin: &str, why: &str) {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, Some(2), "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?}: stdout {out:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(why), "{args:?}: {err:?} lacks {why:?}");
}
