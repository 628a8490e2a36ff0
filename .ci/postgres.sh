#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (PostgreSQL 15 is installed, not running).
#
#   eval "$(bash .ci/postgres.sh start)"   # exports HEXMEROS_TEST_POSTGRES and PG_CI_DIR
#   bash .ci/postgres.sh stop "$PG_CI_DIR"
#
# `start` makes a cluster in a new temporary directory owned by the `postgres` user (the server
# refuses to run as root), on a free loopback port with trust authentication on 127.0.0.1 only,
# waits until it accepts connections, and prints the two export lines. It exits non-zero (and
# leaves nothing running) if the server does not come up: a CI run must fail, not skip.
# Durability is off (fsync, synchronous_commit, full_page_writes): the cluster lives for one
# test run.
set -euo pipefail

find_bin() {
    local name=$1
    if command -v "$name" >/dev/null 2>&1; then
        command -v "$name"
        return
    fi
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/$name" ]; then
            echo "$dir/$name"
            return
        fi
    done
    echo "postgres.sh: $name not found (install PostgreSQL)" >&2
    exit 1
}

as_postgres() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    local initdb pg_ctl pg_isready dir port url
    initdb=$(find_bin initdb)
    pg_ctl=$(find_bin pg_ctl)
    pg_isready=$(find_bin pg_isready)
    dir=$(mktemp -d /tmp/hexmeros-pg.XXXXXX)
    chmod 755 "$dir"
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$dir"
    fi
    as_postgres "$initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 \
        >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        echo "postgres.sh: initdb failed" >&2
        stop "$dir"
        exit 1
    }
    port=$(free_port)
    local opts="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir"
    opts+=" -c max_connections=400 -c fsync=off -c synchronous_commit=off"
    opts+=" -c full_page_writes=off"
    if ! as_postgres "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$opts" \
        start >"$dir/pg_ctl.log" 2>&1; then
        cat "$dir/pg_ctl.log" "$dir/server.log" >&2 || true
        echo "postgres.sh: the server did not start" >&2
        stop "$dir"
        exit 1
    fi
    if ! "$pg_isready" -h 127.0.0.1 -p "$port" -t 30 >/dev/null; then
        cat "$dir/server.log" >&2 || true
        echo "postgres.sh: the server does not accept connections on 127.0.0.1:$port" >&2
        stop "$dir"
        exit 1
    fi
    url="postgres://postgres@127.0.0.1:$port/postgres"
    echo "export HEXMEROS_TEST_POSTGRES=$url"
    echo "export PG_CI_DIR=$dir"
}

stop() {
    local dir=${1:?usage: postgres.sh stop DIR}
    local pg_ctl
    pg_ctl=$(find_bin pg_ctl)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_postgres "$pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    case "$dir" in
        /tmp/hexmeros-pg.*) rm -rf "$dir" ;;
    esac
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    *)
        echo "usage: postgres.sh start | stop DIR" >&2
        exit 2
        ;;
esac
