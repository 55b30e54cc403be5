#!/usr/bin/env bash
# Sourced by .ci/run before the test command. Brings up what a fresh CI machine lacks:
# - Debian's Chromium, for the GraphiQL page test (headless);
# - Debian's PostgreSQL 15 server on loopback, for the suites that run against a real Postgres
#   (exported as DATABASE_URL; the default suites still use embedded PGlite).
# Both come from the machine's package manager; nothing is downloaded at test time.

if ! command -v chromium >/dev/null 2>&1; then
  echo "ci: installing chromium"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "ci: could not install chromium"
fi

if command -v pg_ctlcluster >/dev/null 2>&1; then
  pg_ctlcluster 15 main start >/dev/null 2>&1 || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done
  su postgres -c "psql -q -c \"DO \\\$\\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bench') THEN CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench'; END IF; END \\\$\\\$;\"" >/dev/null
  # graph-node requires C collation; the local node follows it.
  # A fresh database per run; --force ends sessions a previous run left behind.
  su postgres -c "dropdb --if-exists --force bench_test" >/dev/null 2>&1 || true
  su postgres -c "createdb -O bench -E UTF8 --locale=C -T template0 bench_test" || echo "ci: could not create bench_test"
  export DATABASE_URL="postgres://bench:bench@127.0.0.1:5432/bench_test"
  echo "ci: postgres ready at 127.0.0.1:5432 (DATABASE_URL set for the Postgres suites)"
else
  echo "ci: no PostgreSQL server on this machine; the Postgres suites will report it"
fi
