#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server: initdb in a temporary folder, start it on
# 127.0.0.1:$PG_PORT (default 55432), export DATABASE_URL, run the command, stop and remove it.
# Uses the PostgreSQL already on the machine (/usr/lib/postgresql/<version>/bin). initdb refuses
# to run as root, so as root the server runs as the `postgres` user. WITH_POSTGRES_SOCKET=1 makes
# DATABASE_URL use the server's Unix socket instead of TCP.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z $bin || ! -x $bin/initdb ]]; then
  echo "with-postgres: no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
port=${PG_PORT:-55432}
dir=$(mktemp -d /tmp/svc-pg.XXXXXX)
as_pg=()
if [[ $(id -u) == 0 ]]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi

stop() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null

if [[ ${WITH_POSTGRES_SOCKET:-} == 1 ]]; then
  export DATABASE_URL="postgres://postgres@localhost:$port/postgres?host=$dir"
else
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
fi
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
"$@"
