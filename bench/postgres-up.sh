#!/usr/bin/env bash
# Debian's PostgreSQL 15 for bench/postgres.ts, on this machine only: installed if missing,
# started (Debian's default listen_addresses = 'localhost', plus the Unix socket
# /var/run/postgresql), and a superuser role for the current user (peer authentication over the
# socket). The same lines serve CI (.ci/run style: root or sudo, no prompts).
# Stop it with: pg_ctlcluster 15 main stop
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ! -x /usr/lib/postgresql/15/bin/postgres ]; then
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15
fi
[ -d /etc/postgresql/15/main ] || $sudo pg_createcluster 15 main
grep -Eq "^\s*listen_addresses\s*=\s*'(localhost|127\.0\.0\.1)?'" /etc/postgresql/15/main/postgresql.conf \
  || ! grep -Eq "^\s*listen_addresses" /etc/postgresql/15/main/postgresql.conf \
  || { echo "postgresql.conf sets listen_addresses beyond localhost; refusing" >&2; exit 1; }
$sudo pg_ctlcluster 15 main start 2>/dev/null || pg_lsclusters | grep -q '^15 *main .* online' || { echo "PostgreSQL 15 did not start" >&2; exit 1; }
me="$(id -un)"
$sudo runuser -u postgres -- psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = '$me'" | grep -q 1 \
  || $sudo runuser -u postgres -- createuser --superuser "$me"
echo "PostgreSQL 15 is up on /var/run/postgresql (and localhost:5432) for role $me"
