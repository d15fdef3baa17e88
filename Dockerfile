# syntax=docker/dockerfile:1
# Warden in a container. Stage 1 installs every dependency and builds the console, the
# compiled server and the migrated embedded-database template; stage 2 keeps the production
# dependencies only and runs as the unprivileged `node` user.
#   docker build -t warden .
#   docker run -p 3000:3000 -v warden-data:/data warden     (embedded database in /data)
# With PostgreSQL: compose.yaml.

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1
COPY package.json package-lock.json ./
# No dependency needs its install scripts (see allowScripts in package.json); the project's own
# postinstall (the build) runs below, once the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Every build step must succeed here: a container has no tsx fallback for a missing step.
# The template's files are written 0600 by root; the runtime user copies them into /data.
RUN node scripts/ensure-build.mjs \
    && test -f dist/server/main.js \
    && test -f dist/db-template/PG_VERSION \
    && chmod -R a+rX dist/db-template \
    && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    CHECKPOINT_DISABLE=1
# The server reads files beside its sources (migrations, data sets), so the tree is kept whole.
COPY --from=build --chown=root:root /app /app
RUN mkdir -p /data && chown node:node /data
# The embedded database, the generated encryption key and the mail outbox live here.
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs once built (package.json), without npm in between: signals reach node.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "--liftoff-only", "dist/server/main.js"]
