#!/usr/bin/env bash
# What cadastre-gateway costs, against two destinations, each measured directly, through
# the gateway and through nginx configured as a plain reverse proxy (the reference), with
# wrk over keep-alive connections at 8 and 64 connections:
#
#  - a fixed-response destination (bench/fixed_upstream.cpp): a destination that does no
#    work at all, so the figures are the proxies' own cost — the worst case for any proxy;
#  - cadastre-server with the demo city (the gateway's real destination): GET of one lot
#    by id, the cheapest real /rest call, and a page of 10 lots.
#
# Prints requests/s, p50 and p99 for each, then the latency each proxy adds at p50 and its
# share of direct throughput.
#
#   bench/gateway.sh [seconds=10]
#
# It starts its own throwaway PostgreSQL cluster (cadastre-admin demo setup: identity store,
# demo municipalities), installs nginx if missing (apt-get install nginx-light), runs nginx
# in the foreground on a free loopback port with a configuration in a temporary folder,
# and stops everything on exit. Environment: CADASTRE_BUILD_DIR, BENCH_THREADS (wrk
# threads, 2), DEMO_LOTS (2000).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
wrk_threads=${BENCH_THREADS:-2}

for tool in wrk psql g++; do
  command -v "$tool" >/dev/null || { echo "bench/gateway.sh: falta $tool (rode ./scripts/bootstrap)" >&2; exit 1; }
done
if ! command -v nginx >/dev/null; then
  echo "instalando nginx (apt-get install nginx-light)..." >&2
  if [[ $(id -u) -eq 0 ]]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  "${apt_get[@]}" install -y nginx-light >/dev/null 2>&1 || "${apt_get[@]}" install -y nginx >/dev/null
  # The package may start a system nginx on port 80; the bench runs its own.
  (systemctl stop nginx || service nginx stop || true) >/dev/null 2>&1
fi

build=${CADASTRE_BUILD_DIR:-$here/build}
CADASTRE_BUILD_DIR=$build CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-gateway cadastre-server cadastre-admin >/dev/null
gateway_bin=$build/apps/cadastre-gateway/cadastre-gateway

# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_workspace gw

# Identity store and the demo municipalities, as ./scripts/demo makes them.
start_demo "$build" "$tmp"
token=$DEMO_TOKEN
municipio=$DEMO_MUNICIPIO
lot_id=$(./scripts/pg psql -qtA -d "cad_$municipio" -c "select min(id) from cadastro.lote")

# cadastre-server, the gateway's real destination.
srv_port=$(free_port)
"$build/apps/cadastre-server/cadastre-server" --platform-dsn "$platform_dsn" --port "$srv_port" --threads 160 \
  --no-access-log --media-root "$tmp/midia" 2>"$tmp/server.log" &
pids+=($!)
wait_http "http://127.0.0.1:$srv_port/health-check/liveness/"

# The destination.
g++ -O2 -std=c++20 $(pkg-config --cflags cpp-httplib) bench/fixed_upstream.cpp -o "$tmp/fixed_upstream" \
  $(pkg-config --libs cpp-httplib) -lpthread
up_port=$(free_port)
"$tmp/fixed_upstream" "$up_port" 256 &
pids+=($!)
wait_http "http://127.0.0.1:$up_port/bench/lote/"

# Two gateways on the same identity store: one in front of each destination.
start_gateway() {  # NAME DESTINATION_BASE → sets started_port
  local name=$1 base=$2 port
  port=$(free_port)
  cat >"$tmp/$name.json" <<JSON
{
  "destinations": {
    "rest": "$base/{municipio}",
    "tiles": "$base/tiles/{municipio}",
    "platform_rest": "$base/plataforma",
    "platform_tiles": "$base/plataforma/tiles"
  },
  "providers": { "geo-state-ows": "http://127.0.0.1:$up_port/bench" },
  "upstream": { "max_idle_per_host": 256 }
}
JSON
  "$gateway_bin" --config "$tmp/$name.json" --platform-dsn "$platform_dsn" --port "$port" --threads 160 \
    --no-access-log >/dev/null 2>"$tmp/$name.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$port/health-check/liveness"
  started_port=$port
}
start_gateway gateway-fixed "http://127.0.0.1:$up_port"
gw_port=$started_port
start_gateway gateway-server "http://127.0.0.1:$srv_port"
gw_real_port=$started_port
# A cold burst first: 32 connections at once through a gateway that has no connection to
# cadastre-server yet (issue 12: with a listen backlog of 5 this lost SYNs, the connect
# time-outs opened the breaker and most answers were 503). Every answer must be 2xx.
cold=$(wrk -t2 -c32 -d3s -H "Authorization: Bearer $token" "http://127.0.0.1:$gw_real_port/rest/lote/$lot_id/")
cold_bad=$(awk '/Non-2xx or 3xx responses/ {print $NF}' <<<"$cold")
echo "cold burst (wrk -c32 -d3s through a fresh gateway to cadastre-server): $(awk '/^ +[0-9]+ requests in/ {print $1}' <<<"$cold") requests, ${cold_bad:-0} non-2xx"
curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$gw_port/rest/lote/"
curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$gw_real_port/rest/lote/$lot_id/"

# nginx as a plain reverse proxy to the same destination (keep-alive both sides).
ngx_port=$(free_port)
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  keepalive_requests 1000000;
  upstream destination { server 127.0.0.1:$up_port; keepalive 128; }
  upstream server { server 127.0.0.1:$srv_port; keepalive 128; }
  server {
    listen 127.0.0.1:$ngx_port;
    location /rest/ {
      proxy_pass http://destination/bench/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
    location /servidor/ {
      proxy_pass http://server/$municipio/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
CONF
nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" &
pids+=($!)
wait_http "http://127.0.0.1:$ngx_port/rest/lote/"

# wrk prints "Requests/sec: N" and, with --latency, " 50%  X" / " 99%  X" with a unit.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }
run() {
  local conns=$1; shift
  local out rps p50 p99 bad
  out=$(wrk -t"$wrk_threads" -c"$conns" -d"${secs}s" --latency "$@")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  # Answers other than 2xx/3xx (a destination's 503, an open breaker) are counted apart:
  # a run with them measures refusals, not forwarding.
  bad=$(awk '/Non-2xx or 3xx responses/ {print $NF}' <<<"$out")
  echo "$rps $(to_ms "$p50") $(to_ms "$p99") ${bad:-0}"
}
row() { printf '%-6s %-52s %12s %10s %10s %8s\n' "$@"; }

auth=(-H "Authorization: Bearer $token")
row conns "path (wrk -t$wrk_threads -d${secs}s, keep-alive)" "requests/s" "p50 ms" "p99 ms" "non-2xx"
summary=()
# compare LABEL DIRECT_URL GATEWAY_URL NGINX_URL [EXTRA_GATEWAY_URL EXTRA_LABEL]
compare() {
  local label=$1 direct=$2 via_gateway=$3 via_nginx=$4 extra=${5:-} extra_label=${6:-}
  local conns d_rps d_p50 d_p99 d_bad g_rps g_p50 g_p99 g_bad n_rps n_p50 n_p99 n_bad p_rps p_p50 p_p99 p_bad
  for conns in 8 64; do
    read -r d_rps d_p50 d_p99 d_bad < <(run "$conns" "${auth[@]}" "$direct")
    read -r g_rps g_p50 g_p99 g_bad < <(run "$conns" "${auth[@]}" "$via_gateway")
    read -r n_rps n_p50 n_p99 n_bad < <(run "$conns" "${auth[@]}" "$via_nginx")
    row "$conns" "$label: direct" "$d_rps" "$d_p50" "$d_p99" "$d_bad"
    row "$conns" "$label: gateway /rest (bearer, auth cached)" "$g_rps" "$g_p50" "$g_p99" "$g_bad"
    if [[ -n $extra ]]; then
      read -r p_rps p_p50 p_p99 p_bad < <(run "$conns" "$extra")
      row "$conns" "$label: $extra_label" "$p_rps" "$p_p50" "$p_p99" "$p_bad"
    fi
    row "$conns" "$label: nginx reverse proxy" "$n_rps" "$n_p50" "$n_p99" "$n_bad"
    summary+=("$(awk -v l="$label" -v c="$conns" -v d="$d_rps" -v dp="$d_p50" -v g="$g_rps" -v gp="$g_p50" -v n="$n_rps" -v np="$n_p50" \
      -v bad="$((d_bad + g_bad + n_bad))" 'BEGIN {
      printf "%s, c=%s: gateway adds %.3f ms at p50 and keeps %.0f%% of direct throughput; nginx adds %.3f ms and keeps %.0f%%",
        l, c, gp - dp, 100 * g / d, np - dp, 100 * n / d
      if (bad > 0) printf " (NOT COMPARABLE: %d non-2xx answers)", bad }')")
  done
}
compare "fixed destination" "http://127.0.0.1:$up_port/bench/lote/" "http://127.0.0.1:$gw_port/rest/lote/" \
  "http://127.0.0.1:$ngx_port/rest/lote/" "http://127.0.0.1:$gw_port/outros/geo-state-ows/lote/" "gateway /outros (public provider)"
compare "cadastre-server, one lot" "http://127.0.0.1:$srv_port/$municipio/lote/$lot_id/" \
  "http://127.0.0.1:$gw_real_port/rest/lote/$lot_id/" "http://127.0.0.1:$ngx_port/servidor/lote/$lot_id/"
compare "cadastre-server, 10 lots" "http://127.0.0.1:$srv_port/$municipio/lote/?limit=10" \
  "http://127.0.0.1:$gw_real_port/rest/lote/?limit=10" "http://127.0.0.1:$ngx_port/servidor/lote/?limit=10"
echo
printf '%s\n' "${summary[@]}"
echo "target: the gateway adds under 0.5 ms at p50 and keeps at least 70% of direct throughput"
