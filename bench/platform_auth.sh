#!/usr/bin/env bash
# cadastre-platform: an authenticated read against the floor of the same server's
# /health-check/liveness (no auth, no database), and login throughput, measured in one
# session with wrk over keep-alive connections. Prints a table, the ratio authenticated/
# floor (target ≥ 0.8 for GET /teste/tenant, which is the session check and nothing else),
# and the argon2id cost parameters that make a login deliberately slow.
#
#   bench/platform_auth.sh [seconds=10] [connections=32]
#
# It starts its own throwaway cluster and server so results do not depend on the demo.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
secs=${1:-10}
conns=${2:-32}

./scripts/bootstrap >/dev/null
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-platform cadastre-admin >/dev/null
bin=${CADASTRE_BUILD_DIR:-$here/build}/apps

export CADASTRE_PG_DIR
CADASTRE_PG_DIR=$(mktemp -d /tmp/cadastre-bench-pg.XXXXXX)
platform_pid=""
work=$(mktemp -d /tmp/cadastre-bench-platform.XXXXXX)
cleanup() {
  [[ -n $platform_pid ]] && kill -TERM "$platform_pid" 2>/dev/null && wait "$platform_pid" 2>/dev/null
  ./scripts/pg stop >/dev/null 2>&1 || true
  rm -rf "$CADASTRE_PG_DIR" "$work"
}
trap cleanup EXIT
./scripts/pg start >/dev/null
export CADASTRE_PLATFORM_DSN
CADASTRE_PLATFORM_DSN=$(./scripts/pg dsn cadastre_platform)
eval "$("$bin/cadastre-admin/cadastre-admin" demo setup --lots 50 --lots2 10 2>/dev/null)"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Logins from one address would trip the throttle: the bench's are all right, so it is
# not in the way, but keep its limits out of the measurement anyway.
"$bin/cadastre-platform/cadastre-platform" --port "$port" --threads 32 --no-access-log \
  --login-max-failures 1000000 2>/dev/null &
platform_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/health-check/liveness" >/dev/null 2>&1 && break; sleep 0.1; done

login=$(curl -fsS -d "email=$DEMO_EMAIL" -d "senha=$DEMO_PASSWORD" "$url/login")
auth=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["authToken"])' <<<"$login")
tn=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tnToken"])' <<<"$login")

cat >"$work/login.lua" <<LUA
wrk.method = "POST"
wrk.body = "email=$DEMO_EMAIL&senha=$DEMO_PASSWORD"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
LUA

# wrk prints "Requests/sec: N" and, with --latency, a " 99%  X" line with a unit.
run() {
  local out rps p99
  out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "$@")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$rps $p99"
}
session=(-H "X-Auth-Token: $auth" -H "X-Tn-Token: $tn")
read -r floor_rps floor_p99 < <(run "$url/health-check/liveness")
read -r auth_rps auth_p99 < <(run "${session[@]}" "$url/teste/tenant")
read -r me_rps me_p99 < <(run "${session[@]}" "$url/minha-conta")
read -r login_rps login_p99 < <(conns=4 run -s "$work/login.lua" "$url/login")

printf '%-46s %12s %10s\n' "route (wrk -t2 -c$conns -d${secs}s)" "requests/s" "p99"
printf '%-46s %12s %10s\n' "GET /health-check/liveness (floor)" "$floor_rps" "$floor_p99"
printf '%-46s %12s %10s\n' "GET /teste/tenant (session)" "$auth_rps" "$auth_p99"
printf '%-46s %12s %10s\n' "GET /minha-conta (session + one query)" "$me_rps" "$me_p99"
printf '%-46s %12s %10s\n' "POST /login (argon2id, -c4)" "$login_rps" "$login_p99"
awk -v a="$auth_rps" -v f="$floor_rps" 'BEGIN { printf "ratio /teste/tenant / floor: %.2f (target >= 0.80)\n", a / f }'
awk -v a="$me_rps" -v f="$floor_rps" 'BEGIN { printf "ratio /minha-conta / floor: %.2f\n", a / f }'
hash=$(psql -Atq "$CADASTRE_PLATFORM_DSN" -c "select senha_hash from plataforma.usuarios where email = '$DEMO_EMAIL'")
echo "argon2id cost (libsodium interactive limits, from the stored hash): $(cut -d'$' -f3,4 <<<"$hash")"
