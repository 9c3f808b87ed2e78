#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL server on loopback:
# installs PostgreSQL from Debian's packages when absent, initialises a cluster in a
# temporary folder, starts it, runs the command, then stops the server and deletes the folder.
#   scripts/with-postgres.sh npm test
set -euo pipefail

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  return 1
}

if ! PGBIN=$(find_bin); then
  echo "with-postgres: installing PostgreSQL from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
  PGBIN=$(find_bin)
fi

PORT=${PGPORT_TEST:-54329}
WORK=$(mktemp -d /tmp/trustgate-pg.XXXXXX)
RUN_AS=()
if [ "$(id -u)" = 0 ]; then
  # PostgreSQL refuses to run as root: run the server as the postgres user (or nobody).
  OWNER=$(id -u postgres >/dev/null 2>&1 && echo postgres || echo nobody)
  chown "$OWNER" "$WORK"
  RUN_AS=(runuser -u "$OWNER" --)
fi

cleanup() {
  "${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"${RUN_AS[@]}" "$PGBIN/initdb" -D "$WORK/data" -U postgres --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w \
  -o "-p $PORT -k $WORK -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT" >&2
"$@"
