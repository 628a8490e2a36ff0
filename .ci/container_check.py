#!/usr/bin/env python3
"""Checks the container recipe (Dockerfile, .dockerignore, compose.yaml) without a Docker daemon.

  container_check.py static [--repo DIR] [--dockerfile F] [--dockerignore F] [--compose F]
                            [--env-example F]
      (a) the Dockerfile's shape, (b) what it COPYs from the context, (d) compose.yaml.
  container_check.py run --binary BIN [--repo DIR] [--dockerfile F]
      (c) the runtime stage's USER, ENV, WORKDIR, VOLUME, ENTRYPOINT and HEALTHCHECK applied to
      an already built binary: `local --no-png` plays a move and the database lands in the
      directory standing for the volume; `serve`'s health check answers, and fails once it stops.

Every problem is one line on stderr starting with "container check:"; exit code 1 if any.
.ci/container.sh runs both, and first runs them on broken copies to see them fail.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROBLEMS = []

# The lines `local` reads in every check (and in the Docker run): a game starts, a move is saved.
LOCAL_INPUT = "new heximeros ann bob cy di ed flo\nplay K2-H3\nquit\n"
LOCAL_EXPECT = ["== HexiMeros #1", "Silver played K2-H3", "saved (game #1, turn 2)"]
# Debian's default PATH, which the runtime image has unless it sets another.
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def ok(msg):
    print(f"container check: ok: {msg}")


def problem(msg):
    PROBLEMS.append(msg)
    print(f"container check: {msg}", file=sys.stderr)


# ---------------------------------------------------------------- the Dockerfile


class Stage:
    def __init__(self, index, base, name):
        self.index, self.base, self.name = index, base, name
        self.instructions = []  # (KEYWORD, argument text)

    def all(self, key):
        return [arg for k, arg in self.instructions if k == key]

    def last(self, key):
        found = self.all(key)
        return found[-1] if found else None


def parse_dockerfile(text):
    """Stages of instructions: comments dropped, `\\` continuations joined."""
    logical, cur = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not cur and (not line or line.startswith("#")):
            continue
        if cur and line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        logical.append(cur + line)
        cur = ""
    if cur:
        logical.append(cur)
    stages = []
    for line in logical:
        key, _, arg = line.partition(" ")
        key, arg = key.upper(), arg.strip()
        if key == "FROM":
            words = arg.split()
            words = [w for w in words if not w.startswith("--platform")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(len(stages), words[0] if words else "", name))
        elif stages:
            stages[-1].instructions.append((key, arg))
        elif key != "ARG":
            problem(f"Dockerfile: {key} before the first FROM")
    return stages


def exec_form(arg):
    """A JSON array (exec form) as a list, else None."""
    if arg and arg.startswith("["):
        try:
            v = json.loads(arg)
        except json.JSONDecodeError:
            return None
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return v
    return None


def env_of(stage):
    env = {}
    for arg in stage.all("ENV"):
        words = shlex.split(arg)
        if words and "=" not in words[0]:
            env[words[0]] = arg.split(None, 1)[1] if len(words) > 1 else ""
            continue
        for w in words:
            k, _, v = w.partition("=")
            env[k] = v
    return env


def volumes_of(stage):
    vols = []
    for arg in stage.all("VOLUME"):
        v = exec_form(arg)
        vols += v if v is not None else arg.split()
    return [os.path.normpath(v) for v in vols]


def copy_args(arg):
    """(flags, sources, destination) of a COPY or ADD."""
    form = exec_form(arg)
    words = form if form is not None else shlex.split(arg)
    flags = [w for w in words if w.startswith("--")]
    rest = [w for w in words if not w.startswith("--")]
    return flags, rest[:-1], rest[-1] if rest else ""


def flag(flags, name):
    for f in flags:
        if f.startswith(f"--{name}="):
            return f.split("=", 1)[1]
    return None


def workdir_of(stage, upto=None):
    wd = "/"
    for k, arg in stage.instructions[:upto]:
        if k == "WORKDIR":
            wd = os.path.normpath(os.path.join(wd, arg))
    return wd


def under(path, root):
    path, root = os.path.normpath(path), os.path.normpath(root)
    return path == root or path.startswith(root.rstrip("/") + "/")


def user_uid(runtime):
    """The runtime stage's USER as (text, uid or None)."""
    user = runtime.last("USER")
    if user is None:
        return None, None
    name = user.split(":")[0]
    if name.isdigit():
        return user, int(name)
    for arg in runtime.all("RUN"):
        if re.search(rf"\buseradd\b[^&;|]*\s{re.escape(name)}(\s|$)", arg):
            m = re.search(r"(?:--uid|-u)[ =](\d+)", arg)
            if m:
                return user, int(m.group(1))
    return user, None


def debian_release(image):
    """bookworm, trixie…: the Debian release an image tag names, or None."""
    for rel in ["bullseye", "bookworm", "trixie", "forky"]:
        if rel in image:
            return rel
    return None


def check_dockerfile(stages):
    if len(stages) < 2:
        problem(f"Dockerfile: {len(stages)} stage(s); a build stage and a runtime stage are needed")
        return None
    runtime = stages[-1]
    by_name = {s.name: s for s in stages if s.name} | {str(s.index): s for s in stages}

    # The runtime stage: a slim image, a non-root user owning a volume the database is in.
    if "slim" not in runtime.base and "distroless" not in runtime.base:
        problem(f"Dockerfile: the runtime stage is FROM {runtime.base}, not a slim image")
    user, uid = user_uid(runtime)
    if user is None:
        problem("Dockerfile: the runtime stage sets no USER, so the bot runs as root")
    elif user.split(":")[0] in ("root", "0") or uid == 0:
        problem(f"Dockerfile: the runtime stage runs as USER {user}, which is root")
    elif uid is None:
        problem(f"Dockerfile: USER {user} is created by no `useradd --uid N` in the runtime stage")
    vols = volumes_of(runtime)
    env = env_of(runtime)
    if not vols:
        problem("Dockerfile: the runtime stage declares no VOLUME for the database")
    url = env.get("DATABASE_URL")
    if url is None:
        problem("Dockerfile: the runtime stage sets no DATABASE_URL, so the database would be "
                "sqlite://hexmeros.db wherever the bot runs")
    elif url.startswith("sqlite:"):
        path = re.sub(r"^sqlite:(//)?", "", url).split("?")[0]
        full = os.path.normpath(os.path.join(workdir_of(runtime), path))
        if not any(under(full, v) for v in vols):
            problem(f"Dockerfile: DATABASE_URL={url} is the file {full}, in no VOLUME "
                    f"({', '.join(vols) or 'none'}): the games would go with the container")
    for v in vols:
        # A named volume starts as a copy of the image's directory, ownership included; changes
        # to it after the VOLUME line are thrown away.
        at = next(i for i, (k, a) in enumerate(runtime.instructions)
                  if k == "VOLUME" and v in [os.path.normpath(x) for x in
                                             (exec_form(a) or a.split())])
        owners = [a for k, a in runtime.instructions[:at] if k == "RUN"
                  and re.search(rf"\bchown\b[^&;|]*\s{re.escape(v)}(/)?(\s|$|&|;)", a)]
        if user is not None and not owners:
            problem(f"Dockerfile: nothing chowns {v} to the bot's user before VOLUME {v}, "
                    "so the user cannot write its volume")
    if not runtime.last("ENTRYPOINT"):
        problem("Dockerfile: the runtime stage has no ENTRYPOINT")
    if not runtime.last("CMD"):
        problem("Dockerfile: the runtime stage has no CMD (the verb, serve)")

    # The build stage: `cargo build --release --locked`, its binary copied into the runtime stage.
    copies = [copy_args(a) for a in runtime.all("COPY")]
    from_build = [(f, s, d) for f, s, d in copies if flag(f, "from") is not None]
    if not from_build:
        problem("Dockerfile: the runtime stage COPYs nothing --from the build stage")
    binary_dest = None
    for f, srcs, dest in from_build:
        src_stage = by_name.get(flag(f, "from"))
        if src_stage is None or src_stage is runtime:
            problem(f"Dockerfile: COPY --from={flag(f, 'from')} names no earlier stage")
            continue
        builds = [(i, a) for i, (k, a) in enumerate(src_stage.instructions)
                  if k == "RUN" and re.search(r"\bcargo\s+build\b", a)]
        if not builds:
            problem(f"Dockerfile: stage {src_stage.name or src_stage.index} runs no cargo build")
            continue
        i, build = builds[-1]
        for needed in ["--release", "--locked"]:
            if needed not in build.split():
                problem(f"Dockerfile: `{build}` lacks {needed}")
        target = env_of(src_stage).get("CARGO_TARGET_DIR", "target")
        made = os.path.normpath(os.path.join(workdir_of(src_stage, i), target, "release",
                                             "hexmeros"))
        for s in srcs:
            if os.path.normpath(s) != made:
                problem(f"Dockerfile: COPY --from={flag(f, 'from')} {s}: the build stage makes "
                        f"{made}")
            else:
                binary_dest = dest if not dest.endswith("/") else dest + "hexmeros"
        installs = " ".join(a for a in src_stage.all("RUN") if "apt-get install" in a).split()
        for pkg in ["nodejs", "npm"]:
            if pkg not in installs:
                problem(f"Dockerfile: the build stage does not install {pkg}: build.rs bundles "
                        "the Activity's script with npm, and the image would have no Activity")
        if not src_stage.base.startswith("rust:"):
            problem(f"Dockerfile: the build stage is FROM {src_stage.base}, not the official "
                    "rust image")
        else:
            check_rust_tag(src_stage.base)
        br, rr = debian_release(src_stage.base), debian_release(runtime.base)
        if br and rr and br != rr:
            problem(f"Dockerfile: built on Debian {br} but run on {rr}: the binary needs the "
                    "glibc it was linked against")
    entry = exec_form(runtime.last("ENTRYPOINT") or "")
    if runtime.last("ENTRYPOINT") and entry is None:
        problem("Dockerfile: ENTRYPOINT is in shell form (signals would go to a shell, not "
                "the bot): use [\"hexmeros\"]")
    elif entry and binary_dest:
        path = env.get("PATH", DEFAULT_PATH)
        program = entry[0]
        found = program if "/" in program else next(
            (os.path.join(d, program) for d in path.split(":")
             if os.path.normpath(os.path.join(d, program)) == os.path.normpath(binary_dest)),
            None)
        if found is None or os.path.normpath(found) != os.path.normpath(binary_dest):
            problem(f"Dockerfile: ENTRYPOINT {entry[0]} is not the copied binary {binary_dest}")
    return binary_dest


def check_rust_tag(base):
    m = re.match(r"rust:(\d+)\.(\d+)", base)
    if not m:
        problem(f"Dockerfile: FROM {base} names no Rust version (rust:1.NN-slim-bookworm)")
        return
    ver = (int(m.group(1)), int(m.group(2)))
    if ver < (1, 85):
        problem(f"Dockerfile: FROM {base}: edition 2024 needs Rust 1.85 or later")
    try:
        local = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout
        lm = re.search(r"(\d+)\.(\d+)", local)
        if lm and (int(lm.group(1)), int(lm.group(2))) != ver:
            print(f"container check: note: the image builds with Rust {ver[0]}.{ver[1]}, this "
                  f"machine with {lm.group(0)}", file=sys.stderr)
    except OSError:
        pass


# ---------------------------------------------------------------- the build context


def ignore_patterns(path):
    pats = []
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            neg = line.startswith("!")
            p = os.path.normpath(line[1:] if neg else line).lstrip("/")
            pats.append((neg, pattern_re(p), line))
    return pats


def pattern_re(p):
    """Go's filepath.Match with Docker's `**`: `*` and `?` stop at `/`."""
    out, i = "", 0
    while i < len(p):
        c = p[i]
        if p.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif p.startswith("**", i):
            out += ".*"
            i += 2
        elif c == "*":
            out += "[^/]*"
            i += 1
        elif c == "?":
            out += "[^/]"
            i += 1
        elif c == "[":
            j = p.find("]", i)
            if j < 0:
                out += re.escape(c)
                i += 1
            else:
                out += "[" + p[i + 1:j].replace("\\", "\\\\") + "]"
                i = j + 1
        else:
            out += re.escape(c)
            i += 1
    return re.compile(out)


def excluded(rel, pats):
    """Whether .dockerignore leaves `rel` out: the last pattern matching it or a parent wins."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    out = False
    for neg, rx, _ in pats:
        if any(rx.fullmatch(p) for p in prefixes):
            out = not neg
    return out


def tracked(repo):
    r = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True)
    if r.returncode != 0:
        problem(f"git ls-files failed in {repo}: {r.stderr.decode().strip()}")
        return []
    return [f for f in r.stdout.decode().split("\0") if f]


def check_context(stages, repo, dockerignore):
    """(b): every COPY source from the context exists, is tracked and not ignored; the copied
    tree is a workspace cargo can read, with every file the binary's code includes."""
    pats = ignore_patterns(dockerignore)
    files = tracked(repo)
    ctx = tempfile.mkdtemp(prefix="hexmeros-context-")
    try:
        for stage in stages:
            for key in ("COPY", "ADD"):
                for arg in stage.all(key):
                    f, srcs, _ = copy_args(arg)
                    if flag(f, "from") is not None:
                        continue
                    for s in srcs:
                        rel = os.path.normpath(s).lstrip("/")
                        rel = "" if rel == "." else rel
                        if rel and not os.path.exists(os.path.join(repo, rel)):
                            problem(f"Dockerfile: {key} {s}: no such path in the repository")
                            continue
                        inside = [x for x in files if not rel or x == rel
                                  or x.startswith(rel + "/")]
                        if not inside:
                            problem(f"Dockerfile: {key} {s}: no file under it is in git")
                        for x in inside:
                            if excluded(x, pats):
                                problem(f"Dockerfile: {key} {s}: .dockerignore leaves out {x}")
                            else:
                                dest = os.path.join(ctx, x)
                                os.makedirs(os.path.dirname(dest), exist_ok=True)
                                shutil.copy2(os.path.join(repo, x), dest)
        check_copied_tree(ctx)
    finally:
        shutil.rmtree(ctx, ignore_errors=True)


INCLUDE = re.compile(r"(include_str|include_bytes|sqlx::migrate)!\(\s*\"([^\"]+)\"")


def check_copied_tree(ctx):
    if not os.path.exists(os.path.join(ctx, "Cargo.toml")):
        problem("Dockerfile: Cargo.toml is not copied into the build stage")
        return
    # Cargo reads every manifest of the workspace, finds every target it declares and resolves
    # the lock before it looks for a binary: asked for one that does not exist, it stops there,
    # naming the binaries it has, and builds nothing.
    r = subprocess.run(["cargo", "run", "--offline", "--locked", "--bin", "no-such-binary"],
                       capture_output=True, text=True, cwd=ctx,
                       env=dict(os.environ, CARGO_TARGET_DIR=os.path.join(ctx, "target")))
    if "no bin target named `no-such-binary`" not in r.stderr or not re.search(
            r"^\s+hexmeros$", r.stderr, re.M):
        err = " ".join(line.strip() for line in r.stderr.strip().splitlines()[:4])
        problem(f"Dockerfile: cargo cannot build the hexmeros binary from what is copied: {err}")
    # The files the code includes (outside its tests: what follows a file's first
    # #[cfg(test)], and tests.rs files), relative to the including file or the crate root.
    for crate in ["", "render"]:
        src = os.path.join(ctx, crate, "src")
        for root, _, names in os.walk(src):
            for n in names:
                if not n.endswith(".rs") or n == "tests.rs":
                    continue
                text = open(os.path.join(root, n), encoding="utf-8").read()
                text = text.split("#[cfg(test)]")[0]
                for macro, path in INCLUDE.findall(text):
                    if "OUT_DIR" in path or path.startswith("/"):
                        continue
                    base = os.path.join(ctx, crate) if macro == "sqlx::migrate" else root
                    if not os.path.exists(os.path.join(base, path)):
                        rel = os.path.relpath(os.path.join(root, n), ctx)
                        problem(f"Dockerfile: {rel} includes {path}, which is not copied")
    for f in ["web/activity/package.json", "web/activity/package-lock.json",
              "web/activity/sdk.js"]:
        if not os.path.exists(os.path.join(ctx, f)):
            problem(f"Dockerfile: build.rs needs {f}, which is not copied")


# ---------------------------------------------------------------- compose.yaml


def check_compose(compose, env_example):
    try:
        import yaml
    except ImportError:
        problem("python3 has no yaml module (apt-get install python3-yaml)")
        return
    text = open(compose, encoding="utf-8").read()
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        problem(f"{compose} does not parse: {e}")
        return
    services = (doc or {}).get("services") or {}
    bot, db = services.get("bot"), services.get("db")
    if not isinstance(bot, dict) or not isinstance(db, dict):
        problem(f"{compose}: services bot and db are needed, found {sorted(services)}")
        return

    def env(service):
        e = service.get("environment") or {}
        if isinstance(e, list):
            e = dict(x.split("=", 1) if "=" in x else (x, None) for x in e)
        return e

    url = str(env(bot).get("DATABASE_URL", ""))
    m = re.match(r"postgres(?:ql)?://(?:[^@/]*@)?([^:/?]+)", url)
    if not m:
        problem(f"{compose}: the bot's DATABASE_URL is not a postgres:// URL: {url!r}")
    else:
        host = m.group(1)
        if host not in services:
            problem(f"{compose}: the bot's DATABASE_URL names host {host}, which is no service "
                    f"({', '.join(services)})")
        elif host != "db":
            problem(f"{compose}: the bot's DATABASE_URL names {host}, not the db service")
        dbenv = env(db)
        um = re.match(r"postgres(?:ql)?://([^:@/]+)(?::[^@]*)?@[^/]+/([^?]+)", url)
        if um:
            for key, want in [("POSTGRES_USER", um.group(1)), ("POSTGRES_DB", um.group(2))]:
                if str(dbenv.get(key, "postgres")) != want:
                    problem(f"{compose}: the bot logs in with {want} but db's {key} is "
                            f"{dbenv.get(key, 'postgres (the default)')}")
    if "build" not in bot:
        problem(f"{compose}: the bot service does not build the image from this folder")
    deps = bot.get("depends_on") or {}
    if "db" not in deps:
        problem(f"{compose}: the bot does not depend on db")
    elif isinstance(deps, dict) and (deps["db"] or {}).get("condition") != "service_healthy":
        problem(f"{compose}: the bot starts before db is healthy (condition: service_healthy)")
    if not db.get("volumes"):
        problem(f"{compose}: db keeps its data in no volume")
    elif not any(str(v).split(":")[-1].rstrip("/") == "/var/lib/postgresql/data"
                 for v in db["volumes"]):
        problem(f"{compose}: no volume of db is at /var/lib/postgresql/data")
    hc = db.get("healthcheck") or {}
    if not hc.get("test"):
        problem(f"{compose}: db has no healthcheck")
    if not str(db.get("image", "")).startswith("postgres"):
        problem(f"{compose}: db is not the postgres image")
    # Every ${VAR} compose substitutes is explained: in .env.example or a comment here.
    documented = set()
    if os.path.exists(env_example):
        documented |= set(re.findall(r"^#?\s*([A-Z_][A-Z0-9_]*)=", open(env_example).read(),
                                     re.M))
    comments = " ".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)
    code = "\n".join(line.split(" #")[0] for line in text.splitlines()
                     if not line.lstrip().startswith("#"))
    for var in sorted(set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)", code))):
        if var not in documented and not re.search(rf"\b{var}\b", comments):
            problem(f"{compose} uses ${{{var}}}, explained neither in {env_example} nor in a "
                    "comment")


# ---------------------------------------------------------------- (c) the binary as the image runs it


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_run(stages, binary):
    if len(stages) < 2:
        problem("Dockerfile: no runtime stage to run")
        return
    runtime = stages[-1]
    if not os.access(binary, os.X_OK):
        problem(f"no binary at {binary} to run as the image would")
        return
    vols = volumes_of(runtime)
    user, uid = user_uid(runtime)
    top = tempfile.mkdtemp(prefix="hexmeros-image-")
    os.chmod(top, 0o755)
    try:
        # The image's filesystem, as far as it matters: each VOLUME and the WORKDIR are
        # directories under `top`; the binary is where the ENTRYPOINT finds it.
        def mapped(path):
            return os.path.join(top, "root" + os.path.normpath(path))

        for v in vols:
            os.makedirs(mapped(v), exist_ok=True)
        wd = workdir_of(runtime)
        os.makedirs(mapped(wd), exist_ok=True)
        exe = os.path.join(top, "hexmeros")
        shutil.copy2(binary, exe)
        os.chmod(exe, 0o755)
        # Run as the image's user where this machine allows it (root with setpriv).
        prefix = []
        if uid is not None and os.geteuid() == 0 and shutil.which("setpriv"):
            for v in vols:
                os.chown(mapped(v), uid, uid)
            for d in [top, os.path.join(top, "root")]:
                os.chmod(d, 0o755)
            prefix = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        else:
            print(f"container check: note: running as uid {os.geteuid()}, not the image's "
                  f"{uid} (needs root and setpriv)", file=sys.stderr)

        def rewrite(value):
            # An absolute path, alone or in a sqlite:// URL, names a file of the image.
            m = re.match(r"^(sqlite://)?(/.*)$", value)
            return m.group(1) + mapped(m.group(2)) if m and m.group(1) else (
                mapped(value) if m else value)

        image_env = {k: rewrite(v) for k, v in env_of(runtime).items()}
        env = {"PATH": os.environ.get("PATH", DEFAULT_PATH), "HOME": mapped(wd)}
        env.update(image_env)
        entry = exec_form(runtime.last("ENTRYPOINT") or "") or ["hexmeros"]
        argv = prefix + [exe] + entry[1:]

        r = subprocess.run(argv + ["local", "--no-png"], input=LOCAL_INPUT, text=True,
                           capture_output=True, cwd=mapped(wd), env=env, timeout=60)
        missing = [e for e in LOCAL_EXPECT if e not in r.stdout]
        if r.returncode != 0 or missing:
            problem(f"`hexmeros local --no-png` as the image runs it (DATABASE_URL="
                    f"{env_of(runtime).get('DATABASE_URL')}, WORKDIR {wd}): exit code "
                    f"{r.returncode}, missing {missing}; stderr: {r.stderr.strip()[-400:]}")
        dbs = [os.path.relpath(os.path.join(d, f), top) for v in vols
               for d, _, fs in os.walk(mapped(v)) for f in fs if f.endswith(".db")]
        if not dbs:
            elsewhere = [os.path.relpath(os.path.join(d, f), os.path.join(top, "root"))
                         for d, _, fs in os.walk(top) for f in fs if f.endswith(".db")]
            problem(f"`hexmeros local` wrote no database in the volume ({', '.join(vols)}); "
                    f"found: {', '.join('/' + e for e in elsewhere) or 'none'}")
        else:
            ok(f"`hexmeros local --no-png` as uid {os.geteuid() if not prefix else uid}, in "
               f"WORKDIR {wd}, played a move into {', '.join('/' + d.split('/', 1)[1] for d in dbs)}"
               f" (volume {', '.join(vols)})")
        check_healthcheck(runtime, argv, env, mapped(wd))
    finally:
        shutil.rmtree(top, ignore_errors=True)


def check_healthcheck(runtime, argv, env, cwd):
    hc = runtime.last("HEALTHCHECK")
    if hc is None or hc.upper() == "NONE":
        return
    m = re.search(r"\bCMD\s+(.*)$", hc)
    if not m:
        problem(f"Dockerfile: HEALTHCHECK {hc}: no CMD")
        return
    cmd = exec_form(m.group(1)) or ["/bin/sh", "-c", m.group(1)]
    metrics = env.get("HEXMEROS_METRICS")
    if not metrics:
        problem("Dockerfile: a HEALTHCHECK but no HEXMEROS_METRICS, so serve answers no probe")
        return
    # The image's metrics address, on a free port of this machine; a fake token and a Discord
    # that never answers: serve stays up, retrying, with its probes served.
    env = dict(env, HEXMEROS_METRICS=f"{metrics.rsplit(':', 1)[0]}:{free_port()}",
               DISCORD_TOKEN="container.check.token", DISCORD_API_BASE="http://127.0.0.1:1")
    serve = subprocess.Popen(argv + ["serve"], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 20
        passed = False
        while time.time() < deadline and serve.poll() is None:
            r = subprocess.run(cmd, env=env, capture_output=True, timeout=10)
            if r.returncode == 0:
                passed = True
                break
            time.sleep(0.2)
        if not passed:
            serve.kill()
            err = serve.communicate()[1]
            problem(f"the HEALTHCHECK never passed against `hexmeros serve` (exit code "
                    f"{serve.returncode}); its stderr: {err.strip()[-400:]}")
            return
    finally:
        if serve.poll() is None:
            serve.send_signal(signal.SIGTERM)
            try:
                serve.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.communicate()
    if subprocess.run(cmd, env=env, capture_output=True, timeout=10).returncode == 0:
        problem("the HEALTHCHECK passes with serve stopped: it checks nothing")
    else:
        ok("the HEALTHCHECK passes against `hexmeros serve` and fails once it has stopped")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["static", "run"])
    ap.add_argument("--repo", default=".")
    ap.add_argument("--dockerfile")
    ap.add_argument("--dockerignore")
    ap.add_argument("--compose")
    ap.add_argument("--env-example")
    ap.add_argument("--binary")
    ap.add_argument("--only", choices=["dockerfile", "context", "compose"],
                    help="static: this one part (the self-tests)")
    a = ap.parse_args()
    repo = os.path.abspath(a.repo)
    dockerfile = a.dockerfile or os.path.join(repo, "Dockerfile")
    if not os.path.exists(dockerfile):
        problem(f"no Dockerfile at {dockerfile}")
        return 1
    stages = parse_dockerfile(open(dockerfile, encoding="utf-8").read())
    if a.what == "static":
        compose = a.compose or os.path.join(repo, "compose.yaml")
        for part, what, check in [
            ("dockerfile", "the Dockerfile's stages, user, volume, database URL, binary and entry point",
             lambda: check_dockerfile(stages)),
            ("context", "every COPY from the context is in git, not ignored, and makes a workspace cargo "
             "builds the binary from", lambda: check_context(
                 stages, repo, a.dockerignore or os.path.join(repo, ".dockerignore"))),
            ("compose", f"{os.path.basename(compose)} parses; bot and db are linked as they should be",
             lambda: check_compose(compose, a.env_example or os.path.join(repo, ".env.example"))),
        ]:
            if a.only and a.only != part:
                continue
            before = len(PROBLEMS)
            check()
            if len(PROBLEMS) == before:
                ok(what)
    else:
        if not a.binary:
            problem("run needs --binary")
            return 1
        check_run(stages, os.path.abspath(a.binary))
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
