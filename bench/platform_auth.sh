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
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-32}

# shellcheck source=bench/lib.sh
source bench/lib.sh
./scripts/bootstrap >/dev/null
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-platform cadastre-admin >/dev/null
build=${CADASTRE_BUILD_DIR:-$here/build}

bench_workspace platform
DEMO_LOTS=50 start_demo "$build" "$tmp"

port=$(free_port)
# The bench's logins are all right, so the throttle is not in the way; keep its limits
# out of the measurement anyway.
"$build/apps/cadastre-platform/cadastre-platform" --platform-dsn "$platform_dsn" --port "$port" --threads 32 \
  --no-access-log --login-max-failures 1000000 2>/dev/null &
pids+=($!)
url="http://127.0.0.1:$port"
wait_http "$url/health-check/liveness"

login=$(curl -fsS -d "email=$DEMO_EMAIL" -d "senha=$DEMO_PASSWORD" "$url/login")
auth=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["authToken"])' <<<"$login")
tn=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tnToken"])' <<<"$login")

cat >"$tmp/login.lua" <<LUA
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
read -r login_rps login_p99 < <(conns=4 run -s "$tmp/login.lua" "$url/login")

printf '%-46s %12s %10s\n' "route (wrk -t2 -c$conns -d${secs}s)" "requests/s" "p99"
printf '%-46s %12s %10s\n' "GET /health-check/liveness (floor)" "$floor_rps" "$floor_p99"
printf '%-46s %12s %10s\n' "GET /teste/tenant (session)" "$auth_rps" "$auth_p99"
printf '%-46s %12s %10s\n' "GET /minha-conta (session + one query)" "$me_rps" "$me_p99"
printf '%-46s %12s %10s\n' "POST /login (argon2id, -c4)" "$login_rps" "$login_p99"
awk -v a="$auth_rps" -v f="$floor_rps" 'BEGIN { printf "ratio /teste/tenant / floor: %.2f (target >= 0.80)\n", a / f }'
awk -v a="$me_rps" -v f="$floor_rps" 'BEGIN { printf "ratio /minha-conta / floor: %.2f\n", a / f }'
hash=$(psql -Atq "$platform_dsn" -c "select senha_hash from plataforma.usuarios where email = '$DEMO_EMAIL'")
echo "argon2id cost (libsodium interactive limits, from the stored hash): $(cut -d'$' -f3,4 <<<"$hash")"
