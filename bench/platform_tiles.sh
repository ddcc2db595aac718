#!/usr/bin/env bash
# Issue 16's tile benchmark: GET /vt on the demo project's layer (100,000 lots) at z14..z17,
# wrk rotating through every tile that covers the layer (a Lua script, as bench/layers.sh),
# next to its floor: the very statements one /vt request ran (the guard's, the layer's
# generation and the ST_AsMVT), captured from PostgreSQL's log (bench/capture_sql.py) with
# the tile's z, x, y and the layer id turned into pgbench variables (x and y over the same
# tile range), run by pgbench -M prepared with as many connections as wrk: the server
# prepares the same statements per connection with every value a parameter, so both sides
# get the same kind of plan.
# Prints requests/s and p99, pgbench tps and the ratio server/floor (target >= 0.8).
# Then an edit-then-tile round trip: a tile's ETag, PUT /valores/:id on a lot in it, the
# tile again with If-None-Match: 200 and a new ETag (the write bumped the generation).
#
#   bench/platform_tiles.sh [seconds=10] [connections=8] [geometries=100000]
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

bench_workspace platform-tiles
start_demo_project "$build" "$geometries"
layer=$DEMO_PROJECT_LAYER_ID
read -r xmin ymin xmax ymax < <(sql "select st_xmin(e), st_ymin(e), st_xmax(e), st_ymax(e) from
  (select st_extent(geom) as e from projeto.geometrias where camada_id = $layer) x" | tr '|' ' ')

start_platform "$build" $((conns + 4)) "$conns"

# The tiles covering the layer per zoom: "z x0 x1 y0 y1".
zooms="14 15 16 17"
declare -A range
# shellcheck disable=SC2086 # one argument per zoom
while read -r z x0 x1 y0 y1; do range[$z]="$x0 $x1 $y0 $y1"; done < <(tile_ranges "$xmin" "$ymin" "$xmax" "$ymax" $zooms)

for z in $zooms; do
  read -r x0 x1 y0 y1 <<<"${range[$z]}"
  for ((x = x0; x <= x1; x++)); do for ((y = y0; y <= y1; y++)); do
    echo "/vt/$z/$x/$y?camada=$layer"
  done; done >"$tmp/z$z.urls"
done
# The floor: the statements one /vt request ran, per zoom (bench/lib.sh).
for z in $zooms; do echo "$z ${range[$z]}"; done | capture_vt_floor "$url" "$layer" "$tmp/z" "${session[@]}"
if [[ -n ${BENCH_SQL_DIR:-} ]]; then mkdir -p "$BENCH_SQL_DIR" && cp "$tmp"/z*.sql "$BENCH_SQL_DIR"/; fi

rotate_lua "$tmp/rotate.lua"
server_run() { wrk_rotate "$tmp/rotate.lua" "$url" "$1" "$2" "${session[@]}"; }  # list seconds → "requests/s p99"
pgbench_run() {  # file → "tps latency"
  local out
  out=$(pgbench -n -M prepared -f "$1" -T "$secs" -c "$conns" -j 2 "$tenant_dsn" 2>&1)
  echo "$(awk '/^tps = / {print $3}' <<<"$out") $(awk '/latency average/ {print $4 "ms"}' <<<"$out")"
}

printf '\n%-30s %12s %10s %12s %12s %8s\n' "wrk -t2 -c$conns -d${secs}s" "server rps" "p99" "pgbench tps" "pg lat avg" "ratio"
for z in $zooms; do
  server_run "$tmp/z$z.urls" "$warmup" >/dev/null  # prepares the statements on every connection
  read -r rps p99 < <(server_run "$tmp/z$z.urls" "$secs")
  read -r tps lat < <(pgbench_run "$tmp/z$z.sql")
  ratio=$(awk -v a="$rps" -v b="$tps" 'BEGIN { printf "%.2f", a / b }')
  printf '%-30s %12s %10s %12.1f %12s %8s\n' "/vt z$z ($(wc -l <"$tmp/z$z.urls") tiles)" "$rps" "$p99" "$tps" "$lat" "$ratio"
done
echo "alvo: razão servidor/pgbench >= 0.8 ($geometries lotes, $(nproc) CPUs, tudo na mesma máquina)"

# ------------------------------------------------------------------ edit, then tile
# The first lot's area (its column c_<field> in the layer's table; the value's id computed).
read -r campo posicao < <(sql "select k.id, k.posicao from projeto.campos k join projeto.formularios f on
  f.id = k.formulario_id where f.camada_id = $layer and k.chave = 'area_terreno'" | tr '|' ' ')
read -r value lon lat < <(sql "select projeto.valor_id(g.id, $posicao::smallint), st_x(st_centroid(g.geom)),
  st_y(st_centroid(g.geom)) from camadas.l$layer l join projeto.geometrias g on g.id = l.id
  where l.c_$campo is not null order by g.id limit 1" | tr '|' ' ')
tile=$(python3 -c 'import math,sys; lon,lat,z=float(sys.argv[1]),float(sys.argv[2]),16; n=2**z
print(f"{z}/{int((lon+180)/360*n)}/{int((1-math.asinh(math.tan(math.radians(lat)))/math.pi)/2*n)}")' "$lon" "$lat")
etag() { curl -sS -D - -o /dev/null "${session[@]}" "$@" | awk 'tolower($1) == "etag:" {print $2}' | tr -d '\r'; }
before=$(etag "$url/vt/$tile?camada=$layer")
same=$(curl -sS -o /dev/null -w '%{http_code}' "${session[@]}" -H "If-None-Match: $before" "$url/vt/$tile?camada=$layer")
started=$(date +%s%N)
curl -fsS -o /dev/null -X PUT "${session[@]}" -H 'Content-Type: application/json' -d '{"valor": 432.1}' \
  "$url/valores/$value"
read -r code after < <(curl -sS -D - -o /dev/null -w '%{http_code}\n' "${session[@]}" -H "If-None-Match: $before" \
  "$url/vt/$tile?camada=$layer" | awk 'tolower($1) == "etag:" {e=$2} /^[0-9]+$/ {c=$1} END {print c, e}' | tr -d '\r')
ms=$(( ($(date +%s%N) - started) / 1000000 ))
echo
echo "edição e tile: /vt/$tile ETag $before (If-None-Match: $same); PUT /valores/$value;"
echo "  o mesmo tile com If-None-Match $before: $code, ETag $after (${ms} ms da escrita ao tile novo)"
[[ $code == 200 && $after != "$before" ]] || { echo "o ETag não mudou depois da escrita" >&2; exit 1; }
