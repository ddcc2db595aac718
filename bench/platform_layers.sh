#!/usr/bin/env bash
# Issue 15's benchmark: cadastre-platform on the demo project (a layer of 100,000 lots with
# a 10-field form and a value for every lot and field), four workloads of
# docs/platform-projects.md, each next to its floor: the very statements the route ran for
# one request, captured from PostgreSQL's log (bench/capture_sql.py) and run by pgbench
# with as many connections as wrk has, twice: each statement parsed and planned at every
# run (-M simple), and prepared once per connection (-M prepared). The server prepares a
# statement without values, and one marked Sql::reuse_plan() (the page's, the fields', the
# categorisation's); a search's, planned with its pattern, it does not (decision 0028).
#   categorise   POST /camadas/categorizar?idCamada=&idCampo=<uso>        (a grouped count, stored)
#   value page   GET /valores/camada/:id/pg?orderBy=area_terreno&pageNumber=200&pageSize=50
#   value search GET /valores/search?campoId=<logradouro>&termo=sao jose&pageSize=20
#   layer list   GET /camadas?idProjeto=<the demo project>
# Prints requests/s and p99 per route, pgbench transactions/s of both floors, and the
# ratio route/floor (issue #30's target for the value workloads: >= 0.9; the layer list is not one). The
# floor holds every statement of the request (the guard's included), so the ratio is what HTTP, the
# session and the JSON cost.
#
#   bench/platform_layers.sh [seconds=10] [connections=8] [geometries=100000]
#   BENCH_SQL_DIR=/tmp/pisos bench/platform_layers.sh   (keeps each case's captured statements)
#
# It builds, starts its own throwaway cluster and server, and removes them at exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-8}
geometries=${3:-100000}
warmup=2

# shellcheck source=bench/lib.sh
source bench/lib.sh
./scripts/bootstrap >/dev/null
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-platform cadastre-admin >/dev/null
build=${CADASTRE_BUILD_DIR:-$here/build}

bench_workspace platform-layers
start_demo_project "$build" "$geometries"
uso=$(demo_field uso)
logradouro=$(demo_field logradouro)
start_platform "$build" $((conns + 4)) "$conns"

# name|method|path
cases=(
  "categorizar (uso)|POST|/camadas/categorizar?idCamada=$DEMO_PROJECT_LAYER_ID&idCampo=$uso"
  "página de valores (área)|GET|/valores/camada/$DEMO_PROJECT_LAYER_ID/pg?orderBy=area_terreno&pageNumber=200&pageSize=50"
  "busca de valores (sao jose)|GET|/valores/search?campoId=$logradouro&termo=sao%20jose&pageSize=20"
  "lista de camadas|GET|/camadas?idProjeto=$DEMO_PROJECT_ID"
)

# Each case's statements, captured from the log around one request: its second, as every
# request of the measured runs but their first (the first also reads what a process keeps
# for a while: the session, the tenant, the guard's answer for a read, decision 0029).
superuser_dsn=$(./scripts/pg dsn postgres)
psql -X -q "$superuser_dsn" -c "alter system set log_statement = 'all'" \
  -c "alter system set log_line_prefix = '@@%d@@ '" -c "select pg_reload_conf()" >/dev/null
sleep 0.5
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r name method path <<<"$c"
  curl -sS -o /dev/null -X "$method" "${session[@]}" "$url$path"
  sql "select 'bench-begin-$i'" >/dev/null
  status=$(curl -sS -o "$tmp/answer.$i" -w '%{http_code}' -X "$method" "${session[@]}" "$url$path")
  sql "select 'bench-end-$i'" >/dev/null
  [[ $status == 200 ]] || { echo "$name: $status $(head -c 300 "$tmp/answer.$i")" >&2; exit 1; }
  i=$((i + 1))
done
psql -X -q "$superuser_dsn" -c "alter system reset log_statement" -c "alter system reset log_line_prefix" \
  -c "select pg_reload_conf()" >/dev/null
log=$CADASTRE_PG_DIR/server.log
for ((j = 0; j < i; j++)); do
  python3 bench/capture_sql.py "$log" "$tenant_db" "bench-begin-$j" "bench-end-$j" >"$tmp/case.$j.sql"
done
# The floors' statements go with the workspace; BENCH_SQL_DIR keeps them.
if [[ -n ${BENCH_SQL_DIR:-} ]]; then mkdir -p "$BENCH_SQL_DIR" && cp "$tmp"/case.*.sql "$BENCH_SQL_DIR"/; fi

server_run() {  # method path seconds → "requests/s p99"
  local out
  printf 'wrk.method = "%s"\n' "$1" >"$tmp/method.lua"
  out=$(wrk -t2 -c"$conns" -d"${3}s" --latency -s "$tmp/method.lua" "${session[@]}" "$url$2")
  if grep -q "Non-2xx" <<<"$out"; then echo "aviso: $(grep Non-2xx <<<"$out") em $2" >&2; fi
  echo "$(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '$1 == "99%" {print $2}' <<<"$out")"
}
pgbench_run() {  # file mode → "tps"
  local out
  out=$(pgbench -n -M "$2" -f "$1" -T "$secs" -c "$conns" -j 2 "$tenant_dsn" 2>&1)
  awk '/^tps = / {print $3}' <<<"$out"
}

printf '\n%-30s %12s %10s %14s %8s %14s %8s\n' "wrk -t2 -c$conns -d${secs}s" "server rps" "p99" "simple tps" "ratio" \
  "prepared tps" "ratio"
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r name method path <<<"$c"
  server_run "$method" "$path" "$warmup" >/dev/null
  read -r rps p99 < <(server_run "$method" "$path" "$secs")
  simple=$(pgbench_run "$tmp/case.$i.sql" simple)
  prepared=$(pgbench_run "$tmp/case.$i.sql" prepared)
  printf '%-30s %12s %10s %14.1f %8.2f %14.1f %8.2f\n' "$name" "$rps" "$p99" "$simple" \
    "$(awk -v a="$rps" -v b="$simple" 'BEGIN { print a / b }')" "$prepared" \
    "$(awk -v a="$rps" -v b="$prepared" 'BEGIN { print a / b }')"
  i=$((i + 1))
done
echo "alvo: razão servidor/pgbench >= 0.9 nas três primeiras ($geometries lotes × 10 campos, $(nproc) CPUs, tudo na mesma máquina)"
echo "(simple: cada instrução analisada e planejada a cada execução; prepared: uma vez por conexão)"
