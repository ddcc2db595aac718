#!/usr/bin/env bash
# Issue 30's heavy value workloads, each route against its own statements: cadastre-platform
# on the demo project (a layer of N lots with a 10-field form, a value for every lot and
# field). A route runs once per round (they take seconds and change the data), so this is
# not a throughput run like bench/platform_layers.sh: each round times one request with
# curl, and its floor is the time PostgreSQL spent on that request's own statements (their
# logged durations, bench/sql_time.py). A replay would not do: a copy's statements pass
# the ids each one made to the next.
#   dry run     GET /campos/:logradouro/converter?tipo=decimal       (reads every value, changes nothing)
#   convert     GET /campos/:area_terreno/converter?tipo=texto&confirmar=true   (decimal → texto, every
#               value rewritten and audited; the next case turns it back)
#   convert back GET /campos/:area_terreno/converter?tipo=decimal&confirmar=true (texto → decimal)
#   copy        POST /projetos/copiar-projeto {geometrias, valores}  (a new project with the layer's
#               geometries and values)
#   transfer    GET /projetos/transferir?id=<that copy>&tenant=valinhos  (the copy moved to the other
#               municipality's database by two-phase commit; both databases' statements count)
# Prints each case's median route and floor time, floor/route (the route's speed as a
# fraction of its statements'; the target is >= 0.9) and each round's two times.
#
#   bench/platform_rewrites.sh [rounds=3] [geometries=100000]
#   BENCH_NO_BUILD=1 CADASTRE_BUILD_DIR=build CADASTRE_BUILD_TYPE=Check bench/platform_rewrites.sh
#
# It builds, starts its own throwaway cluster and server, and removes them at exit. About
# 3 minutes at 100,000 lots on 2 CPUs (Release).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
rounds=${1:-3}
geometries=${2:-100000}

# shellcheck source=bench/lib.sh
source bench/lib.sh
./scripts/bootstrap >/dev/null
if [[ -z ${BENCH_NO_BUILD:-} ]]; then
  CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-platform cadastre-admin >/dev/null
fi
build=${CADASTRE_BUILD_DIR:-$here/build}

bench_workspace platform-rewrites
start_demo_project "$build" "$geometries"
logradouro=$(demo_field logradouro)
area=$(demo_field area_terreno)
# The transfer is for platform administrators: the demo's user becomes one, before it logs in.
psql -X -q "$platform_dsn" -c "update plataforma.usuarios set adm_plataforma = true where email = '$DEMO_EMAIL'"
target_user=$(psql -X -At "$platform_dsn" -c "select id from plataforma.usuarios where email = 'demo@valinhos.sp.gov.br'")
target_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = 'valinhos'")
target_db=$(psql -X -At "$target_dsn" -c "select current_database()")
start_platform "$build" 4 4

# name|method|path|body
cases=(
  "simulação (logradouro → decimal)|GET|/campos/$logradouro/converter?tipo=decimal|"
  "conversão (área decimal → texto)|GET|/campos/$area/converter?tipo=texto&confirmar=true|"
  "conversão de volta (texto → decimal)|GET|/campos/$area/converter?tipo=decimal&confirmar=true|"
  "cópia do projeto (geometrias e valores)|POST|/projetos/copiar-projeto|{\"idProjeto\":$DEMO_PROJECT_ID,\"nome\":\"Cópia\",\"geometrias\":true,\"valores\":true}"
  # The copy the case before made (@copia@), moved to Valinhos: both databases' statements count.
  "transferência da cópia (para valinhos)|GET|/projetos/transferir?id=@copia@&tenant=valinhos&idUsuario=$target_user|"
)

route() {  # method path body → seconds (fails on a status other than 200/201)
  local out status
  if [[ -n $3 ]]; then
    out=$(curl -sS -o "$tmp/answer" -w '%{http_code} %{time_total}' -X "$1" "${session[@]}" \
      -H 'Content-Type: application/json' --data-binary "$3" "$url$2")
  else
    out=$(curl -sS -o "$tmp/answer" -w '%{http_code} %{time_total}' -X "$1" "${session[@]}" "$url$2")
  fi
  status=${out%% *}
  [[ $status == 200 || $status == 201 ]] || { echo "$1 $2: $status $(head -c 300 "$tmp/answer")" >&2; return 1; }
  echo "${out#* }"
}

# Every statement's duration in the log, while the rounds run.
superuser_dsn=$(./scripts/pg dsn postgres)
psql -X -q "$superuser_dsn" -c "alter system set log_min_duration_statement = 0" \
  -c "alter system set log_line_prefix = '@@%d@@ '" -c "select pg_reload_conf()" >/dev/null
sleep 0.5
log=$CADASTRE_PG_DIR/server.log
declare -A route_t floor_t
n=0
for ((r = 0; r < rounds; r++)); do
  echo "rodada $((r + 1)) de $rounds..." >&2
  i=0
  for c in "${cases[@]}"; do
    IFS='|' read -r name method path body <<<"$c"
    path=${path//@copia@/${copia:-}}
    sql "select 'bench-begin-$n'" >/dev/null
    psql -X -At "$target_dsn" -c "select 'bench-begin-$n'" >/dev/null
    route_t[$i]+="$(route "$method" "$path" "$body") "
    sql "select 'bench-end-$n'" >/dev/null
    psql -X -At "$target_dsn" -c "select 'bench-end-$n'" >/dev/null
    here_s=$(python3 bench/sql_time.py "$log" "$tenant_db" "bench-begin-$n" "bench-end-$n")
    there_s=$(python3 bench/sql_time.py "$log" "$target_db" "bench-begin-$n" "bench-end-$n" 2>/dev/null || echo 0)
    floor_t[$i]+="$(awk -v a="$here_s" -v b="$there_s" 'BEGIN { printf "%.3f", a + b }') "
    if [[ $path == /projetos/copiar-projeto ]]; then
      copia=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/answer")
    fi
    i=$((i + 1)) n=$((n + 1))
  done
done
psql -X -q "$superuser_dsn" -c "alter system reset log_min_duration_statement" \
  -c "alter system reset log_line_prefix" -c "select pg_reload_conf()" >/dev/null

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
printf '\n%-42s %10s %10s %8s\n' "$rounds rodadas, mediana (s)" "rota" "piso" "piso/rota"
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r name _ <<<"$c"
  rt=$(median <<<"${route_t[$i]}")
  ft=$(median <<<"${floor_t[$i]}")
  printf '%-42s %10.3f %10.3f %8.2f   rodadas: %s/ %s\n' "$name" "$rt" "$ft" "$(awk -v a="$rt" -v b="$ft" 'BEGIN { print b / a }')" \
    "$(printf '%.3f ' ${route_t[$i]})" "$(printf '%.3f ' ${floor_t[$i]})"
  i=$((i + 1))
done
echo "(rotas: curl, uma requisição; pisos: o tempo das instruções dessa requisição no PostgreSQL, somado do log;"
echo " $geometries lotes × 10 campos, $(nproc) CPUs, servidor, PostgreSQL e clientes na mesma máquina; alvo piso/rota >= 0.9)"
