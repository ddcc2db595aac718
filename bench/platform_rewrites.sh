#!/usr/bin/env bash
# Issue 30's heavy value workloads, each route against its own statements: cadastre-platform
# on the demo project (a layer of N lots with a 10-field form, a value for every lot and
# field).
#   dry run     GET /campos/:logradouro/converter?tipo=decimal       (reads every value, changes nothing)
#   convert     GET /campos/:area_terreno/converter?tipo=texto&confirmar=true   (decimal → texto, every
#               value rewritten and audited; the next case turns it back)
#   convert back GET /campos/:area_terreno/converter?tipo=decimal&confirmar=true (texto → decimal)
#   copy        POST /projetos/copiar-projeto {geometrias, valores}  (a new project with the layer's
#               geometries and values)
#   transfer    GET /projetos/transferir?id=<that copy>&tenant=valinhos  (the copy moved to the other
#               municipality's database by two-phase commit; both databases' statements count)
#
# The four that change the data run once per round (they take seconds), each request timed
# with curl; its floor is the time PostgreSQL spent on that request's own statements (their
# logged durations, bench/sql_time.py). A replay would not do: a copy's statements pass the
# ids each one made to the next.
#
# The dry run changes nothing and takes tens of milliseconds, so three rounds would be
# noise: it runs `dry_runs` times as the others do, against its logged durations. Those
# leave out what every client pays per statement besides its execution (the protocol's
# messages, the result's transport): pgbench running the dry run's 45 statements took 30.1
# ms a request where their logged durations summed to 26.9 (2026-11-30), so a request of
# many short statements cannot reach 0.9 of that sum. Its floor is therefore also its
# statements, captured from the log of a first request (bench/capture_sql.py) and replayed
# by pgbench as bench/platform_layers.sh does, back to back for 10 seconds on one
# connection, against the route back to back on one connection (wrk -c1).
#
# Prints each case's median route and floor time, floor/route (the route's speed as a
# fraction of its statements'; the target is >= 0.9) as the median of each request's own
# ratio, then (in parentheses) the ratio of the two medians, and each round's two times.
#
#   bench/platform_rewrites.sh [rounds=3] [geometries=100000] [dry_runs=9]
#   BENCH_NO_BUILD=1 CADASTRE_BUILD_DIR=build CADASTRE_BUILD_TYPE=Check bench/platform_rewrites.sh
#
# It builds, starts its own throwaway cluster and server, and removes them at exit. About
# 4 minutes at 100,000 lots on 2 CPUs (Release).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
rounds=${1:-3}
geometries=${2:-100000}
dry_runs=${3:-9}

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

dry_path="/campos/$logradouro/converter?tipo=decimal"
# name|method|path|body
cases=(
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

superuser_dsn=$(./scripts/pg dsn postgres)
log=$CADASTRE_PG_DIR/server.log
reload() { psql -X -q "$superuser_dsn" "${@/#/-c}" -c "select pg_reload_conf()" >/dev/null; sleep 0.5; }

# The dry run's statements, captured around a second request, as the back-to-back run's
# requests are: the first opens the server's connection to the tenant (no measured request
# pays for it) and leaves the guard's answer kept for the next reads (decision 0029).
route GET "$dry_path" "" >/dev/null
reload "alter system set log_statement = 'all'" "alter system set log_line_prefix = '@@%d@@ '"
sql "select 'bench-capture-begin'" >/dev/null
route GET "$dry_path" "" >/dev/null
sql "select 'bench-capture-end'" >/dev/null
reload "alter system reset log_statement"
python3 bench/capture_sql.py "$log" "$tenant_db" bench-capture-begin bench-capture-end >"$tmp/dry.sql"

# Every statement's duration in the log, while the requests run.
reload "alter system set log_min_duration_statement = 0"
n=0
timed() {  # method path body → route_s, floor_s (seconds; the floor summed from both databases' logs)
  local here_s there_s
  sql "select 'bench-begin-$n'" >/dev/null
  psql -X -At "$target_dsn" -c "select 'bench-begin-$n'" >/dev/null
  route_s=$(route "$1" "$2" "$3")
  sql "select 'bench-end-$n'" >/dev/null
  psql -X -At "$target_dsn" -c "select 'bench-end-$n'" >/dev/null
  here_s=$(python3 bench/sql_time.py "$log" "$tenant_db" "bench-begin-$n" "bench-end-$n")
  there_s=$(python3 bench/sql_time.py "$log" "$target_db" "bench-begin-$n" "bench-end-$n" 2>/dev/null || echo 0)
  n=$((n + 1))
  floor_s=$(awk -v a="$here_s" -v b="$there_s" 'BEGIN { printf "%.4f", a + b }')
}

echo "simulação: $dry_runs requisições..." >&2
dry_route="" dry_floor=""
for ((k = 0; k < dry_runs; k++)); do
  timed GET "$dry_path" ""
  dry_route+="$route_s " dry_floor+="$floor_s "
done
# Back to back, one at a time, for 10 seconds each: the route (wrk, one connection: its
# mean time is 1 / requests per second) and its statements replayed (pgbench, one client),
# both logged as the requests above were.
printf 'wrk.method = "GET"\n' >"$tmp/get.lua"
dry_rps=$(wrk -t1 -c1 -d10s -s "$tmp/get.lua" "${session[@]}" "$url$dry_path" | awk '/Requests\/sec/ {print $2}')
replay_tps=$(pgbench -n -M extended -c 1 -T 10 -f "$tmp/dry.sql" "$tenant_dsn" 2>&1 | awk '/^tps = / {print $3}')
[[ -n $dry_rps && -n $replay_tps ]] || { echo "wrk ou pgbench não rodou a simulação" >&2; exit 1; }

declare -A route_t floor_t
for ((r = 0; r < rounds; r++)); do
  echo "rodada $((r + 1)) de $rounds..." >&2
  i=0
  for c in "${cases[@]}"; do
    IFS='|' read -r name method path body <<<"$c"
    path=${path//@copia@/${copia:-}}
    timed "$method" "$path" "$body"
    route_t[$i]+="$route_s " floor_t[$i]+="$floor_s "
    if [[ $path == /projetos/copiar-projeto ]]; then
      copia=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/answer")
    fi
    i=$((i + 1))
  done
done
reload "alter system reset log_min_duration_statement" "alter system reset log_line_prefix"

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# The ratio is the median of each request's floor/route: a request against its own
# statements. (The ratio of the two medians, in parentheses, may pair one round's route with
# another's floor.)
line() {  # name route-times floor-times
  local rt ft paired
  rt=$(median <<<"$2")
  ft=$(median <<<"$3")
  paired=$(paste -d' ' <(tr ' ' '\n' <<<"$2" | grep -v '^$') <(tr ' ' '\n' <<<"$3" | grep -v '^$') |
    awk '{ print $2 / $1 }' | median)
  printf '%-42s %10.3f %10.3f %8.2f (%.2f)   %s: %s/ %s\n' "$1" "$rt" "$ft" "$paired" \
    "$(awk -v a="$rt" -v b="$ft" 'BEGIN { print b / a }')" "$4" "$(printf '%.3f ' $2)" "$(printf '%.3f ' $3)"
}
printf '\n%-42s %10s %10s %8s\n' "mediana (s)" "rota" "piso" "piso/rota (razão das medianas)"
line "simulação (logradouro → decimal)" "$dry_route" "$dry_floor" "requisições"
printf '%-42s %10.4f %10.4f %8.2f   (wrk -c1 e pgbench -c1 das instruções, 10 s cada)\n' \
  "  em sequência: rota / instruções repetidas" "$(awk -v r="$dry_rps" 'BEGIN { print 1 / r }')" \
  "$(awk -v t="$replay_tps" 'BEGIN { print 1 / t }')" "$(awk -v r="$dry_rps" -v t="$replay_tps" 'BEGIN { print r / t }')"
i=0
for c in "${cases[@]}"; do
  IFS='|' read -r name _ <<<"$c"
  line "$name" "${route_t[$i]}" "${floor_t[$i]}" "rodadas"
  i=$((i + 1))
done
echo "(rotas: curl, uma requisição; pisos: o tempo das instruções dessa requisição no PostgreSQL, somado do log;"
echo " $geometries lotes × 10 campos, $rounds rodadas, $dry_runs simulações, $(nproc) CPUs, servidor, PostgreSQL e"
echo " clientes na mesma máquina; alvo piso/rota >= 0.9)"
