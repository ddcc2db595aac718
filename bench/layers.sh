#!/usr/bin/env bash
# Issue 4's benchmark: requests/s and p99 of cadastre-server on a 100,000-lot demo city for
#   (a) a bbox list  GET /geo/{m}/lote/?minLongitude=..&limit=100  over a fixed list of boxes
#   (b) vector tiles GET /tiles/{m}/lote/{z}/{x}/{y}.pbf at z14, z15, z16 and z17 over the
#       tiles covering the city
# measured with wrk (keep-alive, URL lists rotated by a small Lua script), next to a
# baseline of the same SQL run by pgbench against the tenant database with the same
# number of connections. Prints, per case, server requests/s and p99, pgbench
# transactions/s and the ratio server/pgbench (target: >= 0.7).
#
#   bench/layers.sh [seconds=10] [connections=8] [lots=100000]
#
# It builds, starts its own throwaway cluster and server, and removes them at exit.
#
# The SQL given to pgbench mirrors what the server runs (it is not read from the server):
#   - bbox list: store::append_feature_page (src/store/features.cpp) for a bbox and
#     limit=100, default order by the primary key;
#   - tile: the generation lookup and tile_sql() of src/server/tiles/store.cpp, the column
#     list derived with the same rules (numeric as float8, json as text, no geometry).
# pgbench runs them as prepared statements (-M prepared), its fastest mode: the tile
# route keeps its statements prepared per pooled connection too.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# shellcheck source=bench/lib.sh
source bench/lib.sh  # tile_ranges, rotate_lua, wrk_rotate
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-8}
lots=${3:-100000}
warmup=2

./scripts/bootstrap >/dev/null
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-server cadastre-admin >/dev/null
bin=${CADASTRE_BUILD_DIR:-$here/build}/apps

export CADASTRE_PG_DIR
CADASTRE_PG_DIR=$(mktemp -d /tmp/cadastre-bench-pg.XXXXXX)
work=$(mktemp -d /tmp/cadastre-bench-layers.XXXXXX)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  ./scripts/pg stop >/dev/null 2>&1 || true
  rm -rf "$CADASTRE_PG_DIR" "$work"
}
trap cleanup EXIT
./scripts/pg start >/dev/null
export CADASTRE_PLATFORM_DSN
CADASTRE_PLATFORM_DSN=$(./scripts/pg dsn cadastre_platform)
echo "carregando a cidade de demonstração ($lots lotes)..." >&2
# demo setup reports progress on stdout too: keep only its KEY='value' lines.
"$bin/cadastre-admin/cadastre-admin" demo setup --lots "$lots" --lots2 50 >"$work/demo.out" 2>"$work/demo.err" ||
  { cat "$work/demo.err" >&2; exit 1; }
eval "$(grep -E "^[A-Z0-9_]+='" "$work/demo.out")"
tenant_dsn=$(psql -X -At "$CADASTRE_PLATFORM_DSN" -c "select dsn from plataforma.tenants where slug = '$DEMO_MUNICIPIO'")
sql() { psql -X -At -F ' ' "$tenant_dsn" -c "$1"; }
sql "vacuum analyze" >/dev/null

# Each keep-alive connection holds one worker thread of the server; a few spare threads
# serve anything else. One database connection per client connection, as pgbench has.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/cadastre-server/cadastre-server" --port "$port" --threads $((conns + 4)) --pool-size "$conns" --no-access-log \
  2>"$work/server.log" &
server_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/health-check/liveness/" >/dev/null 2>&1 && break; sleep 0.1; done

# ------------------------------------------------------------------ URL lists and SQL
read -r xmin ymin xmax ymax < <(sql "select ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) from
                                    (select ST_Extent(geom) e from cadastro.lote) x")

# (a) a 20 × 20 grid of 300 m boxes across the city extent.
grid=20
read -r dx dy w h < <(awk -v a="$xmin" -v b="$ymin" -v c="$xmax" -v d="$ymax" -v n="$grid" \
  'BEGIN { w = 300 / 102000; h = 300 / 111000; printf "%.9f %.9f %.9f %.9f\n", (c - a - w) / (n - 1), (d - b - h) / (n - 1), w, h }')
awk -v a="$xmin" -v b="$ymin" -v dx="$dx" -v dy="$dy" -v w="$w" -v h="$h" -v n="$grid" -v m="$DEMO_MUNICIPIO" 'BEGIN {
  for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
    x = a + i * dx; y = b + j * dy
    printf "/geo/%s/lote/?minLongitude=%.9f&minLatitude=%.9f&maxLongitude=%.9f&maxLatitude=%.9f&limit=100\n", m, x, y, x + w, y + h
  } }' >"$work/bbox.urls"
cat >"$work/bbox.sql" <<SQL
\set i random(0, $((grid - 1)))
\set j random(0, $((grid - 1)))
\set minlon $xmin + :i * $dx
\set minlat $ymin + :j * $dy
\set maxlon :minlon + $w
\set maxlat :minlat + $h
select coalesce(json_agg(json_build_object('type', 'Feature', 'id', t."id", 'geometry', ST_AsGeoJSON(ST_Transform(t."geom", 4326), 7)::json, 'properties', to_jsonb(t) - 'geom')), '[]')::text, count(*)::text from (select * from "cadastro"."lote" t where ST_Intersects(t."geom", ST_MakeEnvelope(:minlon::float8, :minlat::float8, :maxlon::float8, :maxlat::float8, 4674)) order by t."id" limit 100 offset 0) t;
SQL

# (b) every tile covering the city extent at z14..z17 (x0 x1 y0 y1 per zoom).
columns=$(sql "select string_agg(case when udt_name = 'numeric' then format('t.%I::float8 as %I', column_name, column_name)
                                      when udt_name in ('json', 'jsonb') then format('t.%I::text as %I', column_name, column_name)
                                      else format('t.%I', column_name) end, ', ' order by ordinal_position)
               from information_schema.columns
               where table_schema = 'cadastro' and table_name = 'lote' and udt_name <> 'geometry'")
zooms="14 15 16 17"
declare -A range
# shellcheck disable=SC2086 # one argument per zoom
while read -r z x0 x1 y0 y1; do range[$z]="$x0 $x1 $y0 $y1"; done < <(tile_ranges "$xmin" "$ymin" "$xmax" "$ymax" $zooms)
for z in $zooms; do
  read -r x0 x1 y0 y1 <<<"${range[$z]}"
  for ((x = x0; x <= x1; x++)); do for ((y = y0; y <= y1; y++)); do
    echo "/tiles/$DEMO_MUNICIPIO/lote/$z/$x/$y.pbf"
  done; done >"$work/z$z.urls"
  cat >"$work/z$z.sql" <<SQL
\set x random($x0, $x1)
\set y random($y0, $y1)
select coalesce((select geracao from auditoria.geracao_camada where camada = 'lote'), 0)::text;
select ST_AsMVT(q, 'lote'::text, 4096, 'geom'::text) from (select $columns, ST_AsMVTGeom(ST_Transform(t."geom", 3857), ST_TileEnvelope($z::integer, :x::integer, :y::integer), 4096, 64, true) as "geom" from "cadastro"."lote" t where t."geom" && ST_Transform(ST_TileEnvelope($z::integer, :x::integer, :y::integer), 4674)) q;
SQL
done

rotate_lua "$work/rotate.lua"

# ------------------------------------------------------------------ measuring
# Each URL list must answer 200 or 204 before it is measured.
check() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $DEMO_TOKEN" "$url$(head -n1 "$1")")
  [[ $code == 200 || $code == 204 ]] || { echo "falha: $(head -n1 "$1") respondeu $code" >&2; exit 1; }
}
server_run() { wrk_rotate "$work/rotate.lua" "$url" "$1" "$2" -H "Authorization: Bearer $DEMO_TOKEN"; }  # list seconds
# pgbench prints "tps = N (without initial connection time)" and "latency average = X ms".
pgbench_run() {
  local out
  out=$(pgbench -n -M prepared -f "$1" -T "$secs" -c "$conns" -j 2 "$tenant_dsn" 2>&1)
  echo "$(awk '/^tps = / {print $3}' <<<"$out") $(awk '/latency average/ {print $4 "ms"}' <<<"$out")"
}

cases=("bbox list (limit=100)|$work/bbox.urls|$work/bbox.sql")
for z in $zooms; do cases+=("tiles z$z ($(wc -l <"$work/z$z.urls") tiles)|$work/z$z.urls|$work/z$z.sql"); done

printf '\n%-30s %12s %10s %12s %12s %8s\n' "wrk -t2 -c$conns -d${secs}s" "server rps" "p99" "pgbench tps" "pg lat avg" "ratio"
for c in "${cases[@]}"; do
  IFS='|' read -r name list script <<<"$c"
  check "$list"
  server_run "$list" "$warmup" >/dev/null  # fills caches and prepares statements on every connection
  read -r rps p99 < <(server_run "$list" "$secs")
  read -r tps lat < <(pgbench_run "$script")
  ratio=$(awk -v a="$rps" -v b="$tps" 'BEGIN { printf "%.2f", a / b }')
  printf '%-30s %12s %10s %12.1f %12s %8s\n' "$name" "$rps" "$p99" "$tps" "$lat" "$ratio"
done
echo "alvo: razão servidor/pgbench >= 0.7 ($lots lotes, $(nproc) CPUs, servidor, PostgreSQL e clientes na mesma máquina)"
