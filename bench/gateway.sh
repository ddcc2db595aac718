#!/usr/bin/env bash
# What cadastre-gateway costs: the same fixed-response destination (bench/fixed_upstream.cpp)
# measured directly, through the gateway (authenticated /rest route and a public /outros
# provider route), and through nginx configured as a plain reverse proxy (the reference),
# with wrk over keep-alive connections at 8 and 64 connections. Prints requests/s, p50 and
# p99 for each, then the latency the gateway adds at p50 and its share of direct throughput.
#
#   bench/gateway.sh [seconds=10]
#
# It starts its own throwaway PostgreSQL cluster (identity store with one tenant and one
# user), installs nginx if missing (apt-get install nginx-light), runs nginx in the
# foreground on a free loopback port with a configuration in a temporary folder, and
# stops everything on exit. Environment: CADASTRE_BUILD_DIR, BENCH_THREADS (wrk threads, 2).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
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
CADASTRE_BUILD_DIR=$build CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-gateway >/dev/null
gateway_bin=$build/apps/cadastre-gateway/cadastre-gateway

tmp=$(mktemp -d /tmp/cadastre-bench-gw.XXXXXX)
chmod 755 "$tmp"  # nginx workers (user nobody) read the config folder
export CADASTRE_PG_DIR=$tmp/pg
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  ./scripts/pg stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() {
  for _ in $(seq 1 200); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "bench/gateway.sh: $1 não respondeu" >&2
  return 1
}

# Identity store: the gateway reads only plataforma.tenants and plataforma.usuarios, so the
# platform migrations and two rows are enough (no tenant database is needed).
./scripts/pg start >/dev/null
./scripts/pg psql -q -d postgres -c "create database cadastre_platform" >/dev/null
for f in db/migrations/platform/*.sql; do ./scripts/pg psql -q -v ON_ERROR_STOP=1 -d cadastre_platform -f "$f" >/dev/null; done
token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
token_hash=$(printf '%s' "$token" | sha256sum | cut -d' ' -f1)
./scripts/pg psql -q -v ON_ERROR_STOP=1 -d cadastre_platform >/dev/null <<SQL
insert into plataforma.tenants (slug, nome, uf, dsn) values ('bench', 'Município de bancada', 'SP', 'dbname=cad_bench');
insert into plataforma.usuarios (tenant_id, email, nome, auth_token_hash)
  select id, 'bench@bench.gov.br', 'Bancada', '$token_hash' from plataforma.tenants where slug = 'bench';
SQL
platform_dsn=$(./scripts/pg dsn cadastre_platform)

# The destination.
g++ -O2 -std=c++20 $(pkg-config --cflags cpp-httplib) bench/fixed_upstream.cpp -o "$tmp/fixed_upstream" \
  $(pkg-config --libs cpp-httplib) -lpthread
up_port=$(free_port)
"$tmp/fixed_upstream" "$up_port" 256 &
pids+=($!)
wait_http "http://127.0.0.1:$up_port/bench/lote/"

# The gateway.
gw_port=$(free_port)
cat >"$tmp/gateway.json" <<JSON
{
  "destinations": {
    "rest": "http://127.0.0.1:$up_port/{municipio}",
    "tiles": "http://127.0.0.1:$up_port/tiles/{municipio}",
    "platform_rest": "http://127.0.0.1:$up_port/plataforma",
    "platform_tiles": "http://127.0.0.1:$up_port/plataforma/tiles"
  },
  "providers": { "geo-state-ows": "http://127.0.0.1:$up_port/bench" },
  "upstream": { "max_idle_per_host": 256 }
}
JSON
"$gateway_bin" --config "$tmp/gateway.json" --platform-dsn "$platform_dsn" --port "$gw_port" --threads 160 \
  --no-access-log 2>"$tmp/gateway.log" &
pids+=($!)
wait_http "http://127.0.0.1:$gw_port/health-check/liveness"
curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$gw_port/rest/lote/"

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
  server {
    listen 127.0.0.1:$ngx_port;
    location /rest/ {
      proxy_pass http://destination/bench/;
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
  local out rps p50 p99
  out=$(wrk -t"$wrk_threads" -c"$conns" -d"${secs}s" --latency "$@")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$rps $(to_ms "$p50") $(to_ms "$p99")"
}

auth=(-H "Authorization: Bearer $token")
printf '%-6s %-40s %12s %10s %10s\n' conns "path (wrk -t$wrk_threads -d${secs}s, keep-alive)" "requests/s" "p50 ms" "p99 ms"
summary=()
for conns in 8 64; do
  read -r d_rps d_p50 d_p99 < <(run "$conns" "http://127.0.0.1:$up_port/bench/lote/")
  read -r g_rps g_p50 g_p99 < <(run "$conns" "${auth[@]}" "http://127.0.0.1:$gw_port/rest/lote/")
  read -r p_rps p_p50 p_p99 < <(run "$conns" "http://127.0.0.1:$gw_port/outros/geo-state-ows/lote/")
  read -r n_rps n_p50 n_p99 < <(run "$conns" "http://127.0.0.1:$ngx_port/rest/lote/")
  printf '%-6s %-40s %12s %10s %10s\n' "$conns" "direct" "$d_rps" "$d_p50" "$d_p99"
  printf '%-6s %-40s %12s %10s %10s\n' "$conns" "gateway /rest (bearer, auth cached)" "$g_rps" "$g_p50" "$g_p99"
  printf '%-6s %-40s %12s %10s %10s\n' "$conns" "gateway /outros (public provider)" "$p_rps" "$p_p50" "$p_p99"
  printf '%-6s %-40s %12s %10s %10s\n' "$conns" "nginx reverse proxy" "$n_rps" "$n_p50" "$n_p99"
  summary+=("$(awk -v c="$conns" -v d="$d_rps" -v dp="$d_p50" -v g="$g_rps" -v gp="$g_p50" -v n="$n_rps" -v np="$n_p50" 'BEGIN {
    printf "c=%s: gateway adds %.3f ms at p50 and keeps %.0f%% of direct throughput; nginx adds %.3f ms and keeps %.0f%%",
      c, gp - dp, 100 * g / d, np - dp, 100 * n / d }')")
done
echo
printf '%s\n' "${summary[@]}"
echo "target: the gateway adds under 0.5 ms at p50 and keeps at least 70% of direct throughput"
