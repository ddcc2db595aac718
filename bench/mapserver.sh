#!/usr/bin/env bash
# Issue 30's comparison: our tile and feature routes side by side with MapServer 8 (Debian
# 12's cgi-mapserver, run as its users run it: FastCGI under spawn-fcgi behind nginx, the
# PostGIS layers with PROCESSING "CLOSE_CONNECTION=DEFER") serving the very same rows, and
# the SQL floor of each of our routes (pgbench running the SQL the route runs).
#
# One demo database holds both data sets: the cadastre city of LOTS lots (cadastro.lote,
# served by cadastre-server) and the platform's demo project of LOTS lots
# (the geometries of the layer DEMO_PROJECT_LAYER_ID, served by cadastre-platform; MapServer
# reads the layer's partition camadas.g<layer>, its own table, as a MapServer user would).
# One mapfile in the workspace puts both tables in MapServer (layers "lote" and
# "camada_N"), in web mercator, with an MVT output format and OGC API Features.
#
# Cases, each measured in turn with wrk (keep-alive, a Lua script rotating through a fixed
# URL list) against ours, then MapServer, then pgbench for the floor:
#   - cadastre-server GET /tiles/{m}/lote/{z}/{x}/{y}.pbf, z14..z17, every tile covering
#     the city (bench/layers.sh's lists)  vs  MapServer mode=tile&tilemode=gmap (MVT);
#     floor: bench/layers.sh's SQL (generation lookup + ST_AsMVT);
#   - cadastre-platform GET /vt/{z}/{x}/{y}?camada=N, z14..z17, every tile covering the
#     layer  vs  MapServer MVT of the same layer; floor: the statements one /vt request
#     ran, captured from PostgreSQL's log (bench/capture_sql.py, as bench/platform_tiles.sh);
#   - cadastre-server GET /geo/{m}/lote/?minLongitude=..&limit=100 over a 20 x 20 grid of
#     300 m boxes  vs  MapServer /ogcapi/collections/lote/items?bbox=..&limit=100&f=json;
#     floor: bench/layers.sh's SQL.
# Prints requests/s and p99 of both, pgbench tps, ours/floor (target >= 0.9) and
# ours/MapServer (target >= 1.5).
#
#   bench/mapserver.sh [seconds=10] [connections=8] [lots=100000]
#   CADASTRE_BUILD_DIR=build CADASTRE_BUILD_TYPE=Check BENCH_NO_BUILD=1 bench/mapserver.sh 3 8 5000
#
# Environment: BENCH_NO_BUILD=1 (use the build as it is), MAPSERVER_PROCESSES (FastCGI
# processes, default: as many as connections, see below).
# It installs cgi-mapserver, spawn-fcgi and nginx-light when missing, starts its own
# throwaway cluster, servers, mapserv processes and nginx, and stops them all at exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-8}
lots=${3:-100000}
warmup=2
# mapserv is single-threaded: one FastCGI process answers one request at a time and holds
# one database connection (CLOSE_CONNECTION=DEFER keeps it open between requests). Our
# servers get a pool of `conns` database connections and pgbench `conns` clients, so
# MapServer gets `conns` processes: fewer (say 2, one per core) would leave it waiting on
# PostgreSQL with idle CPU, more would only queue behind the same 2 cores.
ms_procs=${MAPSERVER_PROCESSES:-$conns}

# ------------------------------------------------------------------ tools
missing=()
command -v mapserv >/dev/null || missing+=(cgi-mapserver)
command -v spawn-fcgi >/dev/null || missing+=(spawn-fcgi)
command -v nginx >/dev/null || missing+=(nginx-light)
if ((${#missing[@]})); then
  echo "instalando ${missing[*]} (apt-get install)..." >&2
  if [[ $(id -u) -eq 0 ]]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y "${missing[@]}" >/dev/null ||
    { "${apt_get[@]}" update >/dev/null && DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y "${missing[@]}" >/dev/null; }
  # The nginx package may start a system nginx on port 80; the bench runs its own.
  if [[ " ${missing[*]} " == *" nginx-light "* ]]; then (systemctl stop nginx || service nginx stop || true) >/dev/null 2>&1; fi
fi
for tool in wrk pgbench psql ogrinfo python3; do
  command -v "$tool" >/dev/null || { echo "bench/mapserver.sh: falta $tool (rode ./scripts/bootstrap)" >&2; exit 1; }
done

# shellcheck source=bench/lib.sh
source bench/lib.sh
if [[ -z ${BENCH_NO_BUILD:-} ]]; then
  ./scripts/bootstrap >/dev/null
  CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-server cadastre-platform cadastre-admin >/dev/null
fi
build=${CADASTRE_BUILD_DIR:-$here/build}

# ------------------------------------------------------------------ data
# One demo setup: the city of $lots lots (as bench/layers.sh) and the project of $lots
# geometries (as start_demo_project) in the same tenant database.
bench_workspace mapserver
# mapserv's FastCGI processes (spawn-fcgi forks them and exits, so they are not this
# shell's children) do not always end on SIGTERM: after a run some were seen idle and
# alive long after bench_cleanup's TERM. They hold nothing to flush, so they get SIGKILL
# first; they are in `pids` too.
ms_pids=()
stop_mapserv() { if ((${#ms_pids[@]})); then kill -KILL "${ms_pids[@]}" 2>/dev/null || true; fi; }
trap 'stop_mapserv; bench_cleanup' EXIT
echo "carregando a demonstração (cidade com $lots lotes, projeto com $lots lotes)..." >&2
./scripts/pg start >/dev/null
platform_dsn=$(./scripts/pg dsn cadastre_platform)
export CADASTRE_PLATFORM_DSN=$platform_dsn
"$build/apps/cadastre-admin/cadastre-admin" demo setup --lots "$lots" --lots2 50 --project-geometries "$lots" \
  --media-root "$tmp/midia" >"$tmp/demo.out" 2>"$tmp/demo.log" || { cat "$tmp/demo.log" >&2; exit 1; }
eval "$(grep -E "^[A-Z0-9_]+='" "$tmp/demo.out")"
tenant_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = '$DEMO_MUNICIPIO'")
tenant_db=$(psql -X -At "$tenant_dsn" -c "select current_database()")
sql() { psql -X -At -F ' ' "$tenant_dsn" -c "$1"; }
sql "vacuum analyze" >/dev/null
layer=$DEMO_PROJECT_LAYER_ID
m=$DEMO_MUNICIPIO

# ------------------------------------------------------------------ our servers
# As bench/layers.sh and bench/platform_tiles.sh: each keep-alive connection holds one
# worker thread, a few spare; one database connection per client connection.
srv_port=$(free_port)
"$build/apps/cadastre-server/cadastre-server" --port "$srv_port" --threads $((conns + 4)) --pool-size "$conns" \
  --no-access-log --media-root "$tmp/midia" 2>"$tmp/server.log" &
pids+=($!)
srv="http://127.0.0.1:$srv_port"
wait_http "$srv/health-check/liveness/"
srv_auth=(-H "Authorization: Bearer $DEMO_TOKEN")

start_platform "$build" $((conns + 4)) "$conns"
plat=$url
plat_auth=("${session[@]}")

# ------------------------------------------------------------------ extents and tile ranges
read -r cxmin cymin cxmax cymax < <(sql "select ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) from
                                        (select ST_Extent(geom) e from cadastro.lote) x")
read -r pxmin pymin pxmax pymax < <(sql "select ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) from
                                        (select ST_Extent(geom) e from projeto.geometrias where camada_id = $layer) x")
zooms="14 15 16 17"
declare -A crange prange
# shellcheck disable=SC2086 # one argument per zoom
while read -r z x0 x1 y0 y1; do crange[$z]="$x0 $x1 $y0 $y1"; done < <(tile_ranges "$cxmin" "$cymin" "$cxmax" "$cymax" $zooms)
# shellcheck disable=SC2086 # one argument per zoom
while read -r z x0 x1 y0 y1; do prange[$z]="$x0 $x1 $y0 $y1"; done < <(tile_ranges "$pxmin" "$pymin" "$pxmax" "$pymax" $zooms)

# ------------------------------------------------------------------ MapServer
# The mapfile: the same two tables through PostGIS, web mercator output, MVT as the image
# type (so mode=tile answers MVT), OGC API Features on every layer. Layer extents are
# given so MapServer never scans a table to compute one. mapserv connects with the same
# DSN our servers' tenant pool uses.
ms_port=$(free_port)
ms="http://127.0.0.1:$ms_port"
mkdir -p "$tmp/mapserver" "$tmp/nginx"
cat >"$tmp/mapserver/cadastre.map" <<MAPFILE
MAP
  NAME "cadastre"
  STATUS ON
  SIZE 256 256
  UNITS METERS
  EXTENT -20037508.34 -20037508.34 20037508.34 20037508.34
  IMAGETYPE "mvt"
  PROJECTION "init=epsg:3857" END
  OUTPUTFORMAT
    NAME "mvt"
    DRIVER MVT
    # Our tiles: extent 4096, buffer 64 of 4096 = 4 pixels of 256.
    FORMATOPTION "EXTENT=4096"
    FORMATOPTION "EDGE_BUFFER=4"
  END
  WEB
    METADATA
      "ows_title" "cadastre"
      "ows_enable_request" "*"
      "oga_enable_request" "*"
      "oga_onlineresource" "$ms/cadastre/ogcapi"
      "ows_srs" "EPSG:3857 EPSG:4326 EPSG:4674"
    END
  END
  LAYER
    NAME "lote"
    TYPE POLYGON
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "$tenant_dsn"
    DATA "geom from cadastro.lote using unique id using srid=4674"
    PROCESSING "CLOSE_CONNECTION=DEFER"
    EXTENT $cxmin $cymin $cxmax $cymax
    PROJECTION "init=epsg:4674" END
    TEMPLATE "void"
    METADATA
      "ows_title" "lote"
      "ows_extent" "$cxmin $cymin $cxmax $cymax"
      "gml_featureid" "id"
      "gml_include_items" "all"
      "gml_types" "auto"
      "gml_geometries" "geom"
    END
    CLASS STYLE END END
  END
  LAYER
    NAME "camada_$layer"
    TYPE POLYGON
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "$tenant_dsn"
    DATA "geom from camadas.g$layer using unique id using srid=4674"
    PROCESSING "CLOSE_CONNECTION=DEFER"
    EXTENT $pxmin $pymin $pxmax $pymax
    PROJECTION "init=epsg:4674" END
    TEMPLATE "void"
    METADATA
      "ows_title" "camada_$layer"
      "ows_extent" "$pxmin $pymin $pxmax $pymax"
      "gml_featureid" "id"
      "gml_exclude_items" "id"
      "gml_types" "auto"
    END
    CLASS STYLE END END
  END
END
MAPFILE
# MapServer 8 reads a configuration file at start; MS_MAPFILE names the one mapfile.
cat >"$tmp/mapserver/mapserver.conf" <<CONF
CONFIG
  ENV
    MS_MAPFILE "$tmp/mapserver/cadastre.map"
    MS_ERRORFILE "$tmp/mapserver/error.log"
  END
  # OGC API paths name the map by its key here: /cadastre/ogcapi/...
  MAPS
    cadastre "$tmp/mapserver/cadastre.map"
  END
END
CONF
# The FastCGI processes (spawn-fcgi -F forks them and exits; their pids go to the pid file).
if [[ $(id -u) -eq 0 ]]; then run_as=(-u nobody -g nogroup); else run_as=(); fi
touch "$tmp/mapserver/error.log" && chmod 666 "$tmp/mapserver/error.log"
MAPSERVER_CONFIG_FILE=$tmp/mapserver/mapserver.conf MS_MAPFILE=$tmp/mapserver/cadastre.map \
  spawn-fcgi -s "$tmp/mapserver/fcgi.sock" -M 0666 -F "$ms_procs" -P "$tmp/mapserver/fcgi.pid" "${run_as[@]}" \
  -- /usr/bin/mapserv >"$tmp/mapserver/spawn.log" 2>&1
# (The pid file has no newline after the last pid.)
while read -r pid || [[ -n $pid ]]; do pids+=("$pid") ms_pids+=("$pid"); done <"$tmp/mapserver/fcgi.pid"
cat >"$tmp/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  keepalive_requests 1000000;
  fastcgi_buffers 64 16k;
  server {
    listen 127.0.0.1:$ms_port;
    location / {
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_NAME "";
      fastcgi_param PATH_INFO \$uri;
      fastcgi_param MS_MAPFILE $tmp/mapserver/cadastre.map;
      fastcgi_param MAPSERVER_CONFIG_FILE $tmp/mapserver/mapserver.conf;
      fastcgi_pass unix:$tmp/mapserver/fcgi.sock;
    }
  }
}
CONF
nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" &
pids+=($!)
ms_tile() { echo "/?mode=tile&tilemode=gmap&tile=$2+$3+$1&layers=$4"; }  # z x y layer
wait_http "$ms$(ms_tile 14 "${crange[14]%% *}" "$(cut -d' ' -f3 <<<"${crange[14]}")" lote)" ||
  { cat "$tmp/mapserver/spawn.log" "$tmp/nginx/error.log" "$tmp/mapserver/error.log" >&2; exit 1; }

# ------------------------------------------------------------------ URL lists and floors
# (a) bbox page: a 20 × 20 grid of 300 m boxes across the city (bench/layers.sh).
grid=20
read -r dx dy w h < <(awk -v a="$cxmin" -v b="$cymin" -v c="$cxmax" -v d="$cymax" -v n="$grid" \
  'BEGIN { w = 300 / 102000; h = 300 / 111000; printf "%.9f %.9f %.9f %.9f\n", (c - a - w) / (n - 1), (d - b - h) / (n - 1), w, h }')
boxes() {
  awk -v a="$cxmin" -v b="$cymin" -v dx="$dx" -v dy="$dy" -v w="$w" -v h="$h" -v n="$grid" 'BEGIN {
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
      x = a + i * dx; y = b + j * dy
      printf "%.9f %.9f %.9f %.9f\n", x, y, x + w, y + h
    } }'
}
boxes | awk -v m="$m" '{ printf "/geo/%s/lote/?minLongitude=%s&minLatitude=%s&maxLongitude=%s&maxLatitude=%s&limit=100\n", m, $1, $2, $3, $4 }' \
  >"$tmp/bbox.ours.urls"
boxes | awk '{ printf "/cadastre/ogcapi/collections/lote/items?f=json&limit=100&bbox=%s,%s,%s,%s\n", $1, $2, $3, $4 }' >"$tmp/bbox.ms.urls"
cat >"$tmp/bbox.sql" <<SQL
\set i random(0, $((grid - 1)))
\set j random(0, $((grid - 1)))
\set minlon $cxmin + :i * $dx
\set minlat $cymin + :j * $dy
\set maxlon :minlon + $w
\set maxlat :minlat + $h
select coalesce(json_agg(json_build_object('type', 'Feature', 'id', t."id", 'geometry', ST_AsGeoJSON(ST_Transform(t."geom", 4326), 7)::json, 'properties', to_jsonb(t) - 'geom')), '[]')::text, count(*)::text from (select * from "cadastro"."lote" t where ST_Intersects(t."geom", ST_MakeEnvelope(:minlon::float8, :minlat::float8, :maxlon::float8, :maxlat::float8, 4674)) order by t."id" limit 100 offset 0) t;
SQL

# (b) cadastre tiles: every tile covering the city, and bench/layers.sh's SQL.
columns=$(sql "select string_agg(case when udt_name = 'numeric' then format('t.%I::float8 as %I', column_name, column_name)
                                      when udt_name in ('json', 'jsonb') then format('t.%I::text as %I', column_name, column_name)
                                      else format('t.%I', column_name) end, ', ' order by ordinal_position)
               from information_schema.columns
               where table_schema = 'cadastro' and table_name = 'lote' and udt_name <> 'geometry'")
for z in $zooms; do
  read -r x0 x1 y0 y1 <<<"${crange[$z]}"
  for ((x = x0; x <= x1; x++)); do for ((y = y0; y <= y1; y++)); do
    echo "/tiles/$m/lote/$z/$x/$y.pbf" >&3
    ms_tile "$z" "$x" "$y" lote >&4
  done; done 3>"$tmp/cz$z.ours.urls" 4>"$tmp/cz$z.ms.urls"
  cat >"$tmp/cz$z.sql" <<SQL
\set x random($x0, $x1)
\set y random($y0, $y1)
select coalesce((select geracao from auditoria.geracao_camada where camada = 'lote'), 0)::text;
select ST_AsMVT(q, 'lote'::text, 4096, 'geom'::text) from (select $columns, ST_AsMVTGeom(ST_Transform(t."geom", 3857), ST_TileEnvelope($z::integer, :x::integer, :y::integer), 4096, 64, true) as "geom" from "cadastro"."lote" t where t."geom" && ST_Transform(ST_TileEnvelope($z::integer, :x::integer, :y::integer), 4674)) q;
SQL
done

# (c) platform tiles: every tile covering the layer; the floor is what one /vt request ran,
# captured from the statement log (capture_vt_floor, bench/lib.sh).
for z in $zooms; do
  read -r x0 x1 y0 y1 <<<"${prange[$z]}"
  for ((x = x0; x <= x1; x++)); do for ((y = y0; y <= y1; y++)); do
    echo "/vt/$z/$x/$y?camada=$layer" >&3
    ms_tile "$z" "$x" "$y" "camada_$layer" >&4
  done; done 3>"$tmp/pz$z.ours.urls" 4>"$tmp/pz$z.ms.urls"
done
for z in $zooms; do echo "$z ${prange[$z]}"; done | capture_vt_floor "$plat" "$layer" "$tmp/pz" "${plat_auth[@]}"

rotate_lua "$tmp/rotate.lua"

# ------------------------------------------------------------------ comparability
# Once per case, the same request to both: an MVT's layers and feature counts (GDAL's MVT
# driver), a page's feature count. Tiles are taken at the middle of the data; differences
# are printed, not fatal (MapServer clips and simplifies on its own: a feature just inside
# the buffer may be kept by one and dropped by the other).
mvt_count() {  # file → feature count (0 for an empty answer)
  [[ -s $1 ]] || { echo 0; return; }
  ogrinfo -ro -so -al "$1" 2>/dev/null | awk '/^Feature Count:/ {n += $3} END {print n + 0}'
}
mvt_fields() {  # file → the attribute names
  [[ -s $1 ]] || return 0
  ogrinfo -ro -so -al "$1" 2>/dev/null | awk -F: '/^[A-Za-z_][A-Za-z0-9_]*: [A-Za-z0-9]+(\([A-Za-z0-9]+\))? \(/ {printf "%s ", $1}'
}
mid_tile() {  # z lon lat → "x y"
  python3 -c 'import math,sys; z,lon,lat=int(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]); n=2**z
print(int((lon+180)/360*n), int((1-math.asinh(math.tan(math.radians(lat)))/math.pi)/2*n))' "$@"
}
notes=()
compare_tile() {  # name z x y our_url ms_url our_auth...
  local name=$1 z=$2 x=$3 y=$4 ours=$5 theirs=$6; shift 6
  mkdir -p "$tmp/cmp/$name/$z/$x"
  local a="$tmp/cmp/$name/$z/$x/$y.ours.pbf" b="$tmp/cmp/$name/$z/$x/$y.ms.pbf" ca cb na nb
  ca=$(curl -sS -o "$a" -w '%{http_code}' "$@" "$ours")
  cb=$(curl -sS -o "$b" -w '%{http_code}' "$theirs")
  na=$(mvt_count "$a"); nb=$(mvt_count "$b")
  local line
  line="$name z$z $x/$y: ours $ca $(stat -c %s "$a") bytes $na features; MapServer $cb $(stat -c %s "$b") bytes $nb features"
  if [[ $z == 16 ]]; then
    line+=$'\n'"    attributes ours: $(mvt_fields "$a")"$'\n'"    attributes MapServer: $(mvt_fields "$b")"
  fi
  # A few features apart is clipping at the buffer's edge; more, or an empty tile, is not.
  if [[ $na == 0 || $nb == 0 || $ca != 200 || $cb != 200 ]] || ((100 * (na > nb ? na - nb : nb - na) > 2 * na)); then
    line+="  <- DIFFERENT"
  elif [[ $na != "$nb" ]]; then
    line+="  (differ by $((na > nb ? na - nb : nb - na)): clipping at the buffer's edge)"
  fi
  notes+=("$line")
}
ccx=$(awk -v a="$cxmin" -v b="$cxmax" 'BEGIN { printf "%.9f", (a + b) / 2 }')
ccy=$(awk -v a="$cymin" -v b="$cymax" 'BEGIN { printf "%.9f", (a + b) / 2 }')
pcx=$(awk -v a="$pxmin" -v b="$pxmax" 'BEGIN { printf "%.9f", (a + b) / 2 }')
pcy=$(awk -v a="$pymin" -v b="$pymax" 'BEGIN { printf "%.9f", (a + b) / 2 }')
for z in $zooms; do
  read -r x y < <(mid_tile "$z" "$ccx" "$ccy")
  compare_tile cadastre "$z" "$x" "$y" "$srv/tiles/$m/lote/$z/$x/$y.pbf" "$ms$(ms_tile "$z" "$x" "$y" lote)" "${srv_auth[@]}"
  read -r x y < <(mid_tile "$z" "$pcx" "$pcy")
  compare_tile platform "$z" "$x" "$y" "$plat/vt/$z/$x/$y?camada=$layer" "$ms$(ms_tile "$z" "$x" "$y" "camada_$layer")" "${plat_auth[@]}"
done
# The bbox page: the box at the middle of the grid.
mid=$(( (grid / 2) * grid + grid / 2 + 1 ))
ours_page=$(curl -fsS "${srv_auth[@]}" "$srv$(sed -n "${mid}p" "$tmp/bbox.ours.urls")")
ms_page=$(curl -fsS "$ms$(sed -n "${mid}p" "$tmp/bbox.ms.urls")")
page_note=$(python3 - "$ours_page" "$ms_page" <<'PY'
import json, sys
def features(text):
    d = json.loads(text)
    if isinstance(d, list):
        return d
    return d.get("features", d.get("data", d.get("items", [])))
a, b = features(sys.argv[1]), features(sys.argv[2])
ia = {str(f.get("id", (f.get("properties") or {}).get("id"))) for f in a}
ib = {str(f.get("id", (f.get("properties") or {}).get("id"))) for f in b}
pa = sorted((a[0].get("properties") or {}).keys()) if a else []
pb = sorted((b[0].get("properties") or {}).keys()) if b else []
line = f"bbox page (middle box): ours {len(a)} features, MapServer {len(b)}; ids in common {len(ia & ib)}"
if len(a) != len(b) or ia != ib or not a:
    line += "  <- DIFFERENT"
if pa != pb:
    line += f"\n    properties ours: {' '.join(pa)}\n    properties MapServer: {' '.join(pb)}"
print(line)
PY
) || page_note="bbox page: could not compare (ours: ${ours_page:0:200}; MapServer: ${ms_page:0:200})"
notes+=("$page_note")

# ------------------------------------------------------------------ measuring
wrk_run() { wrk_rotate "$tmp/rotate.lua" "$@"; }  # base list seconds [header args] → "requests/s p99"
# pgbench prints "tps = N (without initial connection time)".
pgbench_run() {
  local out
  out=$(pgbench -n -M prepared -f "$1" -T "$secs" -c "$conns" -j 2 "$tenant_dsn" 2>&1)
  awk '/^tps = / {print $3}' <<<"$out"
}

cases=()
for z in $zooms; do cases+=("cadastre /tiles z$z ($(wc -l <"$tmp/cz$z.ours.urls"))|srv|$tmp/cz$z"); done
for z in $zooms; do cases+=("platform /vt z$z ($(wc -l <"$tmp/pz$z.ours.urls"))|plat|$tmp/pz$z"); done
cases+=("cadastre bbox page 100 ($grid×$grid)|srv|$tmp/bbox")

echo
echo "bench/mapserver.sh — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo))"
echo "  $lots lots in the city and $lots in the platform layer; wrk -t2 -c$conns -d${secs}s keep-alive (warm-up ${warmup}s), pgbench -M prepared -c$conns"
echo "  ours: $build ($CADASTRE_BUILD_TYPE), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src apps 2>/dev/null || echo ' + uncommitted changes'); servers --threads $((conns + 4)) --pool-size $conns"
echo "  MapServer: $(mapserv -v | sed 's/ OUTPUT=.*//'), $ms_procs FastCGI processes (spawn-fcgi) behind nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), CLOSE_CONNECTION=DEFER"
echo "  PostgreSQL $(psql -X -At "$tenant_dsn" -c 'show server_version' | cut -d' ' -f1), PostGIS $(sql 'select postgis_lib_version()'); all on one machine"
echo "  targets: ours/floor >= 0.9 and ours/MapServer >= 1.5"
printf '\n%-32s %10s %9s %10s %9s %10s %8s %8s\n' "case (URLs)" "ours rps" "ours p99" "MS rps" "MS p99" "floor tps" "/floor" "/MS"
for c in "${cases[@]}"; do
  IFS='|' read -r name who base <<<"$c"
  if [[ $who == srv ]]; then url=$srv auth=("${srv_auth[@]}"); else url=$plat auth=("${plat_auth[@]}"); fi
  wrk_run "$url" "$base.ours.urls" "$warmup" "${auth[@]}" >/dev/null  # caches, prepared statements
  read -r rps p99 < <(wrk_run "$url" "$base.ours.urls" "$secs" "${auth[@]}")
  wrk_run "$ms" "$base.ms.urls" "$warmup" >/dev/null  # opens every process's connection
  read -r ms_rps ms_p99 < <(wrk_run "$ms" "$base.ms.urls" "$secs")
  tps=$(pgbench_run "$base.sql")
  awk -v n="$name" -v r="$rps" -v p="$p99" -v mr="$ms_rps" -v mp="$ms_p99" -v t="$tps" 'BEGIN {
    f = r / t; q = r / mr
    printf "%-32s %10.1f %9s %10.1f %9s %10.1f %7.2f%s %7.2f%s\n", n, r, p, mr, mp, t,
      f, (f >= 0.9 ? " " : "*"), q, (q >= 1.5 ? " " : "*") }'
done
echo "(* = below target)"
echo
echo "comparability (one request to each, same tile / box):"
printf '  %s\n' "${notes[@]}"
