# The bot in a container: `docker build -t hexmeros .`, then see docs/running.md ("In a
# container") and compose.yaml. CI checks this file without a Docker daemon (.ci/container.sh).
#
# Plain `docker build` (no BuildKit-only syntax such as cache mounts), so the legacy builder works
# too. The build and runtime images are both Debian bookworm: the binary links against glibc, so
# it must not be built on a newer release than it runs on.

# ---- build: the release binary, with the Discord Activity's script (build.rs runs npm) ----
FROM rust:1.95-slim-bookworm AS build
# build.rs bundles Discord's Embedded App SDK with npm (web/activity/package-lock.json); without
# npm the build only warns and the binary has no Activity.
RUN apt-get update \
    && apt-get install -y --no-install-recommends nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# What `cargo build --bin hexmeros` reads: the workspace's manifests and lock, every member
# (render, testkit), the benches Cargo.toml declares, the schema, the board's files and build.rs.
COPY Cargo.toml Cargo.lock build.rs ./
COPY src/ src/
COPY render/ render/
COPY testkit/ testkit/
COPY benches/ benches/
COPY migrations/ migrations/
COPY web/ web/
RUN cargo build --release --locked --bin hexmeros

# ---- runtime: the binary, CA certificates and a user ----
FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin hexmeros \
    && mkdir /data \
    && chown hexmeros:hexmeros /data
COPY --from=build /src/target/release/hexmeros /usr/local/bin/hexmeros
# The database (SQLite by default) and the pictures `local` writes live in /data, a volume owned
# by the bot's user: `docker run -v hexmeros-data:/data …`. The bot also reads /data/.env, if any.
VOLUME /data
WORKDIR /data
ENV DATABASE_URL=sqlite:///data/hexmeros.db
# The metrics and probes on the container's own loopback, for the health check below: nothing is
# reachable from outside. To scrape them, set HEXMEROS_METRICS=0.0.0.0:9100 and publish the
# port. The web board is off unless HEXMEROS_WEB is set (HEXMEROS_WEB=0.0.0.0:8080 in a
# container, with -p 127.0.0.1:8080:8080 and a reverse proxy in front), so no port is exposed.
ENV HEXMEROS_METRICS=127.0.0.1:9100
# `serve`'s /healthz over bash's /dev/tcp: the image has no curl. Empty HEXMEROS_METRICS turns
# the probe off, so then there is nothing to check.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["bash", "-c", "[ -z \"$HEXMEROS_METRICS\" ] && exit 0; exec 3<>\"/dev/tcp/${HEXMEROS_METRICS%:*}/${HEXMEROS_METRICS##*:}\" && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '^ok' <&3"]
# Numeric, so an orchestrator can tell it is not root without reading /etc/passwd.
USER 10001:10001
ENTRYPOINT ["hexmeros"]
CMD ["serve"]
