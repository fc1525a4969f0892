# syntax=docker/dockerfile:1
# Waitlist & Text: a small, non-root production image (issue 17).
#   docker build -t waitlist-and-text .
#   docker compose up --build          (PostgreSQL, Redis, two instances, a reverse proxy: compose.yaml)

# ---- 1. every dependency, to build with the project's own scripts ----
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY e2e/package.json e2e/
# `npm install` honours package-lock.json as `npm ci` would (see scripts/lib.mjs for why not `npm ci`).
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# ---- 2. only what the server needs at run time ----
FROM node:22-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY packages/contract/package.json packages/contract/
RUN npm install --omit=dev --no-audit --no-fund -w apps/server -w packages/contract --include-workspace-root \
  && npm cache clean --force

# ---- 3. the image ----
FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=runtime-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/apps/server/package.json ./apps/server/package.json
COPY --from=build --chown=node:node /app/apps/server/dist ./apps/server/dist
COPY --from=build --chown=node:node /app/apps/server/src/features/docs/assets ./apps/server/src/features/docs/assets
COPY --from=build --chown=node:node /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build --chown=node:node /app/apps/web/dist ./apps/web/dist
USER node
EXPOSE 3000
# Liveness only: the database being down must not get the container restarted (readiness is for the proxy).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/v1/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM goes straight to node (no npm or shell in between): graceful shutdown within SHUTDOWN_TIMEOUT_SECONDS.
CMD ["node", "apps/server/dist/main.js"]
