#!/usr/bin/env bash
# Runs a command beside a throw-away PostgreSQL and Redis on loopback, then stops them and removes
# their data. Both come from Debian's packages, installed here when missing. The command finds them in
#   CAFE_TEST_DATABASE=postgresql://cafe@127.0.0.1:PORT/cafe   and   CAFE_TEST_BROKER=redis://127.0.0.1:PORT/0
# Usage: scripts/with-services.sh COMMAND [ARGS...]
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

missing=()
[ -n "$(pg_bin)" ] || missing+=(postgresql)
command -v redis-server > /dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -q
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q "${missing[@]}"
fi

PG="$(pg_bin)"
work="$(mktemp -d)"
chmod 755 "$work"
pg_port="$(free_port)"
redis_port="$(free_port)"
# PostgreSQL will not run as root: as root, its own user runs it
if [ "$(id -u)" = 0 ]; then pg_user=(runuser -u postgres --); chown postgres "$work"; else pg_user=(); fi

stop() {
  "${pg_user[@]}" "$PG/pg_ctl" -D "$work/pg" -m immediate stop > /dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2> /dev/null || true
  rm -rf "$work"
}
trap stop EXIT

"${pg_user[@]}" "$PG/initdb" -D "$work/pg" -A trust -U cafe > "$work/initdb.log"
"${pg_user[@]}" "$PG/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start > /dev/null
"${pg_user[@]}" "$PG/createdb" -h 127.0.0.1 -p "$pg_port" -U cafe cafe
redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --daemonize yes \
  --pidfile "$work/redis.pid" --logfile "$work/redis.log" --dir "$work"
for _ in $(seq 50); do
  redis-cli -p "$redis_port" ping > /dev/null 2>&1 && break
  sleep 0.1
done

export CAFE_TEST_DATABASE="postgresql://cafe@127.0.0.1:$pg_port/cafe"
export CAFE_TEST_BROKER="redis://127.0.0.1:$redis_port/0"
"$@"
