#!/usr/bin/env bash
# Throughput and p99 of an authenticated cadastre-server route against the floor of the
# same server's /health-check/liveness/ (no auth, no database), measured in one session
# with wrk over keep-alive connections. Prints a table and the ratio auth/liveness.
#
#   bench/http_auth.sh [seconds=10] [connections=32]
#
# It starts its own throwaway cluster and server so results do not depend on the demo.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-32}

./scripts/bootstrap >/dev/null
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-server cadastre-admin >/dev/null
bin=${CADASTRE_BUILD_DIR:-$here/build}/apps

export CADASTRE_PG_DIR
CADASTRE_PG_DIR=$(mktemp -d /tmp/cadastre-bench-pg.XXXXXX)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  ./scripts/pg stop >/dev/null 2>&1 || true
  rm -rf "$CADASTRE_PG_DIR"
}
trap cleanup EXIT
./scripts/pg start >/dev/null
export CADASTRE_PLATFORM_DSN
CADASTRE_PLATFORM_DSN=$(./scripts/pg dsn cadastre_platform)
eval "$("$bin/cadastre-admin/cadastre-admin" demo setup --lots 500 --lots2 50 2>/dev/null)"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/cadastre-server/cadastre-server" --port "$port" --threads 32 --no-access-log 2>/dev/null &
server_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/health-check/liveness/" >/dev/null 2>&1 && break; sleep 0.1; done

# wrk prints "Requests/sec: N" and, with --latency, a " 99%  X" line with a unit.
run() {
  local out rps p99
  out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "$@")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$rps $p99"
}
read -r floor_rps floor_p99 < <(run "$url/health-check/liveness/")
read -r auth_rps auth_p99 < <(run -H "Authorization: Bearer $DEMO_TOKEN" "$url/geo/$DEMO_MUNICIPIO/usuarios/permissoes/")

printf '%-44s %12s %10s\n' "route (wrk -t2 -c$conns -d${secs}s)" "requests/s" "p99"
printf '%-44s %12s %10s\n' "GET /health-check/liveness/ (floor)" "$floor_rps" "$floor_p99"
printf '%-44s %12s %10s\n' "GET /geo/{m}/usuarios/permissoes/ (bearer)" "$auth_rps" "$auth_p99"
awk -v a="$auth_rps" -v f="$floor_rps" 'BEGIN { printf "ratio authenticated/floor: %.2f\n", a / f }'
