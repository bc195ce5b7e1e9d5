# Shard Manager service image. Build: `docker build -t shard-manager .`
# Run: mount a config at /config/config.yaml (see compose.yaml).
# Deno is pinned in .dvmrc: 2.9.4 and later abort under ordinary client
# disconnects (docs/reliability.md, "Runtime"). The default below must equal
# .dvmrc (tests/runtime_pin_test.ts checks it); to build another release:
# `docker build --build-arg DENO_VERSION=$(cat .dvmrc) .`
ARG DENO_VERSION=2.9.3
FROM denoland/deno:${DENO_VERSION}

WORKDIR /app
# The base image creates the `deno` user (uid 1993) and owns DENO_DIR
# (/deno-dir) by it: fill the cache as that user so the service can use it.
USER deno

# Dependencies first: this layer is rebuilt only when deno.json/deno.lock change.
# The workspace's SDK member (packages/sdk/) must exist for the root config to
# load; the service imports none of it, so its deno.json is enough.
COPY deno.json deno.lock ./
COPY packages/sdk/deno.json packages/sdk/
RUN deno install --frozen

COPY bin/ bin/
COPY src/ src/
COPY config/ config/
# Cache the entry point's module graph, so a container starts without downloading.
RUN deno cache --frozen src/main.ts

ENV DENO_NO_UPDATE_CHECK=1
# V8 lets the heap grow 1.5x past its live memory, not up to 4x: the service
# stays near its live memory (docs/limits.md, "Memory"; src/heap_growth.ts).
ENV DENO_V8_FLAGS=--heap-growing-percent=50
# 7943: gRPC. 7944: HTTP (metrics, /healthz, /readyz, dashboard).
EXPOSE 7943 7944
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:7944/readyz'); Deno.exit(r.ok ? 0 : 1)"]
# bin/shard-manager execs Deno: the service is the process tini (the image's PID 1) signals,
# as it is under any supervisor. Its only writable folder is /app/.data (SHARD_MANAGER_DATA).
CMD ["/app/bin/shard-manager", "--config", "/config/config.yaml"]
