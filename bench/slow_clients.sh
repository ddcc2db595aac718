#!/usr/bin/env bash
# What slow and hostile clients cost the services (issue 12's attacks, measured):
#
#  1. With 1,000 slow connections held against a service (each sends a byte of its request
#     head every 3 s, and is opened again when the service cuts it off), a normal client
#     on 4 keep-alive connections gets liveness and an authenticated read of 10 lots:
#     p50 and p99 from wrk, next to the same calls with no attacker. Target: p99 < 100 ms.
#  2. Resident memory of each service after warming up, after a 100 MB chunked body and
#     after a request with 1,000,000 header lines (both refused: 413 and 431), once the
#     connections are gone. Target: within 10% of the warmed-up baseline.
#
# cadastre-server and cadastre-gateway (demo wiring, in front of it) run as real processes
# with their default limits, on a throwaway PostgreSQL cluster with the demo city.
#
#   bench/slow_clients.sh [seconds=10]
#
# Environment: CADASTRE_BUILD_DIR, SLOW_CLIENTS (1000), DEMO_LOTS (2000).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
slow=${SLOW_CLIENTS:-1000}

for tool in wrk psql python3 curl; do
  command -v "$tool" >/dev/null || { echo "bench/slow_clients.sh: falta $tool (rode ./scripts/bootstrap)" >&2; exit 1; }
done
build=${CADASTRE_BUILD_DIR:-$here/build}
CADASTRE_BUILD_DIR=$build CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-gateway cadastre-server cadastre-admin >/dev/null

# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_workspace slow
ulimit -n "$(ulimit -Hn)"  # the attacker's own sockets

start_demo "$build" "$tmp"

srv_port=$(free_port)
"$build/apps/cadastre-server/cadastre-server" --platform-dsn "$platform_dsn" --port "$srv_port" \
  --no-access-log --media-root "$tmp/midia" 2>"$tmp/server.log" &
srv_pid=$!
pids+=("$srv_pid")
wait_http "http://127.0.0.1:$srv_port/health-check/liveness/"
gw_port=$(free_port)
"$build/apps/cadastre-gateway/cadastre-gateway" --print-demo-config "http://127.0.0.1:$srv_port" >"$tmp/gateway.json"
"$build/apps/cadastre-gateway/cadastre-gateway" --config "$tmp/gateway.json" --platform-dsn "$platform_dsn" \
  --port "$gw_port" --no-access-log 2>"$tmp/gateway.log" &
gw_pid=$!
pids+=("$gw_pid")
wait_http "http://127.0.0.1:$gw_port/health-check/liveness"

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }
# LABEL URL [curl-style header] → one row: requests/s, p50, p99, errors
measure() {
  local label=$1 url=$2 out
  shift 2
  out=$(wrk -t1 -c4 -d"${secs}s" --latency "$@" "$url")
  printf '%-58s %10s %9s %9s %8s\n' "$label" "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")")" "$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")" \
    "$(awk '/Non-2xx|Socket errors/ {s = s $0 "; "} END {print (s == "" ? "0" : s)}' <<<"$out")"
}
auth=(-H "Authorization: Bearer $DEMO_TOKEN")
srv_read="http://127.0.0.1:$srv_port/$DEMO_MUNICIPIO/lote/?limit=10"
gw_read="http://127.0.0.1:$gw_port/rest/lote/?limit=10"

printf '%-58s %10s %9s %9s %8s\n' "normal client (wrk -t1 -c4 -d${secs}s)" "requests/s" "p50 ms" "p99 ms" "erros"
for phase in "sem ataque" "com $slow conexões lentas"; do
  attackers=()
  if [[ $phase != "sem ataque" ]]; then
    python3 bench/slow_clients.py 127.0.0.1 "$srv_port" "$slow" $((secs * 2 + 8)) >"$tmp/slow-srv.txt" &
    attackers+=($!)
    python3 bench/slow_clients.py 127.0.0.1 "$gw_port" "$slow" $((secs * 2 + 8)) >"$tmp/slow-gw.txt" &
    attackers+=($!)
    sleep 4  # every slow connection open and holding
  fi
  measure "cadastre-server liveness, $phase" "http://127.0.0.1:$srv_port/health-check/liveness/"
  measure "cadastre-server 10 lots (bearer), $phase" "$srv_read" "${auth[@]}"
  measure "cadastre-gateway liveness, $phase" "http://127.0.0.1:$gw_port/health-check/liveness"
  measure "cadastre-gateway 10 lots (bearer), $phase" "$gw_read" "${auth[@]}"
  for pid in "${attackers[@]}"; do wait "$pid"; done
done
echo "slow connections against cadastre-server: $(cat "$tmp/slow-srv.txt")"
echo "slow connections against cadastre-gateway: $(cat "$tmp/slow-gw.txt")"
echo "target: p99 < 100 ms for liveness and the authenticated read while the slow connections are held"
echo

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
# attack PORT PATH chunked|headers: a 100 MB chunked body, or one request with 1,000,000
# header lines, sent as fast as the service takes it; prints the status line it got.
attack() {
  python3 - "$@" <<'PY'
import socket, sys
port, path, kind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.create_connection(("127.0.0.1", port))
if kind == "chunked":
    head = f"POST {path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    piece, count = b"10000\r\n" + b"a" * 0x10000 + b"\r\n", 1600
else:
    head = f"GET {path} HTTP/1.1\r\nHost: a\r\n"
    piece, count = b"".join(b"X-Linha: %d\r\n" % i for i in range(1000)), 1000
try:
    s.sendall(head.encode())
    for _ in range(count):
        s.sendall(piece)
except OSError:
    pass  # the service answered and closed: what the attack is meant to find
s.settimeout(5)
print(s.recv(200).split(b"\r\n")[0].decode(errors="replace"))
PY
}
printf '%-18s %14s %16s %16s %8s\n' "resident memory" "warmed up (kB)" "after 100 MB" "after 1M headers" "change"
for svc in server gateway; do
  if [[ $svc == server ]]; then pid=$srv_pid port=$srv_port path=/midia/storage read=$srv_read
  else pid=$gw_pid port=$gw_port path=/rest/midia/storage read=$gw_read; fi
  wrk -t1 -c4 -d3s "${auth[@]}" "$read" >/dev/null
  sleep 3
  base=$(rss_kb "$pid")
  answer1=$(attack "$port" "$path" chunked)
  sleep 3
  after1=$(rss_kb "$pid")
  answer2=$(attack "$port" "$path" headers)
  sleep 3
  after2=$(rss_kb "$pid")
  printf '%-18s %14s %16s %16s %7s%%   (%s; %s)\n' "cadastre-$svc" "$base" "$after1" "$after2" \
    "$(awk -v a="$base" -v b="$after2" 'BEGIN { printf "%+.1f", 100 * (b - a) / a }')" "$answer1" "$answer2"
done
echo "target: resident memory after both within 10% of the warmed-up baseline"
