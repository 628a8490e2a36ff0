#!/usr/bin/env bash
# The container recipe (Dockerfile, .dockerignore, compose.yaml), checked in seconds.
#
#   bash .ci/container.sh [BINARY]     BINARY: a built hexmeros (default: target/debug, or release)
#
# With a Docker daemon (`docker info` answers) the image is built and `hexmeros local` is played
# in it, twice on one volume. CI's machine has the docker CLI but no daemon (no
# /var/run/docker.sock, no buildx or compose plugin), so there the recipe is checked without one
# (.ci/container_check.py), and that check runs with a daemon too:
#   * the Dockerfile: a build stage running `cargo build --release --locked` on Debian's release
#     the runtime stage runs, with npm for the Activity; a slim runtime stage with a non-root USER
#     (a fixed uid) that owns the VOLUME the DATABASE_URL points into; the binary COPYed from
#     where the build stage makes it; ENTRYPOINT and CMD;
#   * the build context: every path COPYed exists, is in git, is not left out by .dockerignore,
#     and the copied tree is a workspace from which cargo would build the binary;
#   * the runtime stage applied to BINARY: its ENV, WORKDIR, VOLUME (temporary directories) and
#     USER (with setpriv, as root) run `local --no-png` as the image would, and the database must
#     appear in the volume; `serve` is started the same way and the HEALTHCHECK must pass against
#     it, then fail once it stops;
#   * compose.yaml parses; the bot builds the image, its DATABASE_URL names the db service (and
#     its user and database), it waits for db's health check; db keeps its data in a volume;
#     every ${VAR} is explained in .env.example or a comment.
# Then the checker runs on broken copies (root user, a database outside the volume, a missing
# --locked, …), each of which it must refuse, so that it cannot pass by checking nothing.
set -euo pipefail
# A BINARY given is relative to where this was started.
bin=${1:-${HEXMEROS_BIN:-}}
[ -z "$bin" ] || bin=$(realpath -m -- "$bin")
cd "$(dirname "$0")/.."
check=.ci/container_check.py

if [ -z "$bin" ]; then
    t=${CARGO_TARGET_DIR:-target}
    bin=$t/debug/hexmeros
    [ -x "$bin" ] || bin=$t/release/hexmeros
fi
if [ ! -x "$bin" ]; then
    echo "container.sh: no built hexmeros at $bin (build it first, or pass its path)" >&2
    exit 1
fi
command -v python3 >/dev/null || { echo "container.sh: python3 is needed" >&2; exit 1; }
python3 -c 'import yaml' 2>/dev/null || {
    echo "container.sh: python3's yaml module is needed (apt-get install python3-yaml)" >&2
    exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- the recipe itself
python3 "$check" static
python3 "$check" run --binary "$bin"

# ---- the checker refuses what is broken
failures=0
tests=0
# expect_fail WHAT MESSAGE ARGS…: the checker, run with ARGS, fails saying MESSAGE.
expect_fail() {
    local what=$1 message=$2
    shift 2
    local out rc=0
    tests=$((tests + 1))
    out=$(python3 "$check" "$@" 2>&1) || rc=$?
    if [ "$rc" -eq 0 ] || ! grep -qF -- "$message" <<<"$out"; then
        echo "container.sh: self-test: $what was not refused with \"$message\" (exit code $rc):" >&2
        echo "$out" | sed 's/^/    /' >&2
        failures=$((failures + 1))
    fi
}
# broken NAME SED-SCRIPT [FILE]: the path of a copy of FILE (the Dockerfile) edited by
# SED-SCRIPT. An edit that no longer changes anything names no file, so its test fails.
broken() {
    local name=$1 script=$2 file=${3:-Dockerfile}
    sed -e "$script" "$file" >"$work/$name"
    if cmp -s "$file" "$work/$name"; then
        echo "container.sh: self-test: \"$script\" no longer changes $file; update the test" >&2
        rm "$work/$name"
    fi
    echo "$work/$name"
}
# s WHAT MESSAGE PART DOCKERFILE [ARGS…]: the static check's PART (dockerfile, context, compose).
s() { expect_fail "$1" "$2" static --only "$3" --dockerfile "$4" "${@:5}"; }
s "USER root" "which is root" dockerfile "$(broken root 's/^USER .*/USER root/')"
s "no USER" "sets no USER" dockerfile "$(broken nouser '/^USER /d')"
s "a database outside the volume" "in no VOLUME" dockerfile \
    "$(broken outside 's|^ENV DATABASE_URL=.*|ENV DATABASE_URL=sqlite:///var/lib/hexmeros.db|')"
s "no DATABASE_URL" "sets no DATABASE_URL" dockerfile "$(broken nourl '/^ENV DATABASE_URL=/d')"
s "a build without --locked" "lacks --locked" dockerfile "$(broken unlocked 's/ --locked//')"
s "the debug binary copied" "the build stage makes" dockerfile \
    "$(broken debug 's|/target/release/hexmeros|/target/debug/hexmeros|')"
s "a single stage" "a build stage and a runtime stage" dockerfile \
    "$(broken onestage '/^FROM debian/,$d')"
s "no npm in the build" "does not install npm" dockerfile "$(broken nonpm 's/nodejs npm/nodejs/')"
s "the runtime on a newer Debian" "run on trixie" dockerfile \
    "$(broken trixie 's/^FROM debian:bookworm-slim/FROM debian:trixie-slim/')"
s "a volume nobody owns" "nothing chowns /data" dockerfile \
    "$(broken nochown 's/chown hexmeros:hexmeros \/data/true/')"
s "the benches not copied" "cargo cannot build" context "$(broken nobenches '/^COPY benches/d')"
s "a path that does not exist" "no such path" context \
    "$(broken nopath 's|^COPY web/ web/|COPY webb/ web/|')"
s "a shell-form ENTRYPOINT" "shell form" dockerfile \
    "$(broken shellentry 's/^ENTRYPOINT .*/ENTRYPOINT hexmeros/')"
printf '%s\n' 'src/**/*.rs' >"$work/ignore-rs"
s "the sources left out by .dockerignore" ".dockerignore leaves out src/" context Dockerfile \
    --dockerignore "$work/ignore-rs"
s "compose's DATABASE_URL on another host" "names host postgres" compose Dockerfile \
    --compose "$(broken host 's/@db\/hexmeros/@postgres\/hexmeros/' compose.yaml)"
s "compose's db without a health check" "db has no healthcheck" compose Dockerfile \
    --compose "$(broken nohealth '/^    healthcheck:/,/^      retries:/d' compose.yaml)"
s "compose's bot not waiting for db" "does not depend on db" compose Dockerfile \
    --compose "$(broken nodep '/^    depends_on:/,/condition:/d' compose.yaml)"
s "a \${VAR} nobody explains" "explained neither" compose Dockerfile \
    --compose "$(broken var 's/^      POSTGRES_DB: hexmeros/      POSTGRES_DB: ${PG_DB_X}/' compose.yaml)"
s "compose that does not parse" "does not parse" compose Dockerfile \
    --compose "$(broken yaml 's/^services:/services: [/' compose.yaml)"
r() { expect_fail "$1" "$2" run --binary "$bin" --dockerfile "$3"; }
r "a relative database beside a WORKDIR outside the volume" "wrote no database in the volume" \
    "$(broken workdir 's|^WORKDIR /data|WORKDIR /srv|; s|^ENV DATABASE_URL=.*|ENV DATABASE_URL=sqlite://hexmeros.db|')"
r "a database in a folder the image lacks" "hexmeros local --no-png" \
    "$(broken nodir 's|^ENV DATABASE_URL=.*|ENV DATABASE_URL=sqlite:///data/games/hexmeros.db|')"
r "a HEALTHCHECK that checks nothing" "checks nothing" \
    "$(broken hctrue 's|^    CMD \[.*|    CMD ["true"]|')"
if [ "$failures" -gt 0 ]; then
    echo "container.sh: $failures self-test(s) failed: the checker would pass broken recipes" >&2
    exit 1
fi
echo "container.sh: the checker refuses each of $tests broken recipes"

# ---- with a Docker daemon: the image itself
if ! docker info >/dev/null 2>&1; then
    echo "container.sh: no Docker daemon here (docker info fails), so the image was checked" \
        "without being built: see the top of this script"
    exit 0
fi
image=hexmeros-ci:$$
volume=hexmeros-ci-$$
trap 'rm -rf "$work"; docker rmi -f "$image" >/dev/null 2>&1 || true; docker volume rm -f "$volume" >/dev/null 2>&1 || true' EXIT
docker build -t "$image" .
uid=$(docker run --rm --entrypoint id "$image" -u)
[ "$uid" != 0 ] || { echo "container.sh: the image runs as root" >&2; exit 1; }
input=$(python3 -c "import sys; sys.path.insert(0, '.ci'); import container_check as c; print(c.LOCAL_INPUT, end='')")
out=$(printf '%s' "$input" | docker run --rm -i -v "$volume:/data" "$image" local --no-png)
for want in "== HexiMeros #1" "saved (game #1, turn 2)"; do
    grep -qF "$want" <<<"$out" || { echo "container.sh: the image's local printed no \"$want\":" >&2; echo "$out" >&2; exit 1; }
done
# The game is in the volume: a new container on it resumes it.
out=$(printf 'quit\n' | docker run --rm -i -v "$volume:/data" "$image" local --no-png)
grep -qF "resuming game #1" <<<"$out" || { echo "container.sh: the volume kept no game:" >&2; echo "$out" >&2; exit 1; }
if docker compose version >/dev/null 2>&1 && [ -f .env ]; then
    POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-ci} docker compose config -q
fi
echo "container.sh: the image builds, runs local as uid $uid and keeps its game in the volume"
