# shellcheck shell=bash
# Shared by the bench scripts (source it from the repository's top folder): free loopback
# ports, waiting for a service, and the demo identity store.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits up to 10 s for URL to answer 2xx.
wait_http() {
  for _ in $(seq 1 200); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "$(basename "$0"): $1 não respondeu" >&2
  return 1
}

# start_demo BUILD_DIR TMP: starts the private cluster ($CADASTRE_PG_DIR) with the demo
# municipalities, as ./scripts/demo makes them (DEMO_LOTS lots, default 2000); sets
# platform_dsn and the demo's variables (DEMO_TOKEN, DEMO_MUNICIPIO...).
start_demo() {
  ./scripts/pg start >/dev/null
  platform_dsn=$(./scripts/pg dsn cadastre_platform)
  CADASTRE_PLATFORM_DSN=$platform_dsn "$1/apps/cadastre-admin/cadastre-admin" demo setup --lots "${DEMO_LOTS:-2000}" \
    --media-root "$2/midia" >"$2/demo.env" 2>"$2/demo.log"
  # shellcheck disable=SC1091
  source "$2/demo.env"
}

# bench_workspace NAME: a temporary folder in $tmp (readable by the cluster's and nginx's
# unprivileged users), the private cluster inside it, and a trap that on exit stops every
# process whose pid was added to `pids`, the cluster, and removes the folder.
bench_workspace() {
  tmp=$(mktemp -d "/tmp/cadastre-bench-$1.XXXXXX")
  chmod 755 "$tmp"
  export CADASTRE_PG_DIR=$tmp/pg
  pids=()
  trap bench_cleanup EXIT
}
bench_cleanup() {
  local status=$?
  if ((status != 0)); then  # a failed run shows the end of its servers' logs
    for log in "$tmp"/*.log; do [[ -f $log ]] && { echo "== $log" >&2; tail -n 20 "$log" >&2; }; done
  fi
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  ./scripts/pg stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}

# start_demo_project BUILD_DIR GEOMETRIES: the private cluster ($CADASTRE_PG_DIR) with the
# demo's platform project of GEOMETRIES lots (and small cities around it), vacuumed; sets
# platform_dsn, tenant_dsn, tenant_db, the demo's variables (DEMO_PROJECT_LAYER_ID...) and
# sql(), which runs a statement on the tenant database. Needs bench_workspace first.
start_demo_project() {
  echo "carregando a demonstração (projeto com $2 lotes)..." >&2
  ./scripts/pg start >/dev/null
  platform_dsn=$(./scripts/pg dsn cadastre_platform)
  CADASTRE_PLATFORM_DSN=$platform_dsn "$1/apps/cadastre-admin/cadastre-admin" demo setup --lots 50 --lots2 20 \
    --project-geometries "$2" --media-root "$tmp/midia" >"$tmp/demo.out" 2>"$tmp/demo.log" ||
    { cat "$tmp/demo.log" >&2; return 1; }
  eval "$(grep -E "^[A-Z0-9_]+='" "$tmp/demo.out")"
  tenant_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = '$DEMO_MUNICIPIO'")
  tenant_db=$(psql -X -At "$tenant_dsn" -c "select current_database()")
  sql "vacuum analyze" >/dev/null
}
sql() { psql -X -At "$tenant_dsn" -c "$1"; }
# demo_field CHAVE: the id of the demo project layer's field CHAVE (after start_demo_project).
demo_field() {
  sql "select k.id from projeto.campos k join projeto.formularios f on f.id = k.formulario_id
       where f.camada_id = $DEMO_PROJECT_LAYER_ID and k.chave = '$1'"
}

# start_platform BUILD_DIR THREADS [POOL]: cadastre-platform on a free port of the demo's
# identity store (after start_demo_project), logged in as the demo's user; sets url,
# session (curl's headers of that login) and platform_pid. Without POOL, the server's
# default pool size. Its log is $tmp/platform.log.
start_platform() {
  local port login auth pool=()
  [[ -n ${3:-} ]] && pool=(--pool-size "$3")
  port=$(free_port)
  "$1/apps/cadastre-platform/cadastre-platform" --platform-dsn "$platform_dsn" --port "$port" --threads "$2" \
    "${pool[@]}" --no-access-log --files-dir "$tmp/arquivos" 2>"$tmp/platform.log" &
  platform_pid=$!
  pids+=("$platform_pid")
  url="http://127.0.0.1:$port"
  wait_http "$url/health-check/liveness"
  login=$(curl -fsS -d "email=$DEMO_EMAIL" -d "senha=$DEMO_PASSWORD" "$url/login")
  auth=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["authToken"])' <<<"$login")
  session=(-H "X-Auth-Token: $auth" -H "X-Tn-Token: $DEMO_TN_TOKEN")
}

# tile_ranges XMIN YMIN XMAX YMAX ZOOM...: the web-mercator tiles covering a lon/lat box,
# one line "z x0 x1 y0 y1" per zoom.
tile_ranges() {
  python3 - "$@" <<'PY'
import math, sys
xmin, ymin, xmax, ymax = map(float, sys.argv[1:5])
def tile(lon, lat, z):
    n = 2 ** z
    y = (1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n
    return int((lon + 180) / 360 * n), int(y)
for z in map(int, sys.argv[5:]):
    x0, y0 = tile(xmin, ymax, z)
    x1, y1 = tile(xmax, ymin, z)
    print(z, x0, x1, y0, y1)
PY
}

# rotate_lua FILE: wrk's script that cycles through the URL list named by $URL_LIST, each
# thread from its own place in it (setup runs once per thread in wrk's main Lua state and
# hands the thread its offset).
rotate_lua() {
  cat >"$1" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("URL_LIST")) do paths[#paths + 1] = line end
local threads = 0
function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end
local i = 0
function init(args)
  i = (offset or 0) % #paths
end
function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
}

# wrk_rotate LUA BASE LIST SECONDS [wrk args...] → "requests/s p99": wrk -t2 -c$conns on BASE
# through the URL list LIST (LUA made by rotate_lua), warning of non-2xx answers. wrk prints
# "Requests/sec: N", a " 99%  X" line with --latency and a "Non-2xx" line on errors.
wrk_rotate() {
  local lua=$1 base=$2 list=$3 duration=$4 out
  shift 4
  # shellcheck disable=SC2154 # conns: the sourcing script's connection count
  out=$(URL_LIST=$list wrk -t2 -c"$conns" -d"${duration}s" --latency -s "$lua" "$@" "$base")
  if grep -q "Non-2xx" <<<"$out"; then echo "aviso: $(grep Non-2xx <<<"$out") em $list" >&2; fi
  echo "$(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '$1 == "99%" {print $2}' <<<"$out")"
}

# capture_vt_floor BASE LAYER PREFIX [curl args...] < "z x0 x1 y0 y1" lines: the platform's
# /vt floor. One request per zoom with the statement log on; the statements it ran
# (bench/capture_sql.py, bound values written in as '<x>'::integer) become the pgbench
# script PREFIX<z>.sql with x and y random over the zoom's range. Needs sql(), tenant_db
# and the private cluster ($CADASTRE_PG_DIR).
capture_vt_floor() {
  local base=$1 layer=$2 prefix=$3 ranges z x0 x1 y0 y1 wx code superuser_dsn
  shift 3
  ranges=$(cat)
  superuser_dsn=$(./scripts/pg dsn postgres)
  psql -X -q "$superuser_dsn" -c "alter system set log_statement = 'all'" \
    -c "alter system set log_line_prefix = '@@%d@@ '" -c "select pg_reload_conf()" >/dev/null
  sleep 0.5
  while read -r z x0 x1 y0 y1; do
    # Another tile of the layer first: a steady request's guard answer is kept (decision
    # 0029), and its tile is not in the server's cache.
    if [[ $x1/$y1 == "$x0/$y0" ]]; then wx=$((x0 + 1)); else wx=$x1; fi
    curl -sS -o /dev/null "$@" "$base/vt/$z/$wx/$y1?camada=$layer"
    sql "select 'bench-begin-$z'" >/dev/null
    code=$(curl -sS -o /dev/null -w '%{http_code}' "$@" "$base/vt/$z/$x0/$y0?camada=$layer")
    sql "select 'bench-end-$z'" >/dev/null
    [[ $code == 200 || $code == 204 ]] || { echo "/vt/$z/$x0/$y0: $code" >&2; return 1; }
  done <<<"$ranges"
  psql -X -q "$superuser_dsn" -c "alter system reset log_statement" -c "alter system reset log_line_prefix" \
    -c "select pg_reload_conf()" >/dev/null
  while read -r z x0 x1 y0 y1; do
    {
      echo "\\set z $z"
      echo "\\set layer $layer"
      echo "\\set x random($x0, $x1)"
      echo "\\set y random($y0, $y1)"
      python3 bench/capture_sql.py "$CADASTRE_PG_DIR/server.log" "$tenant_db" "bench-begin-$z" "bench-end-$z" |
        sed -e "s/'$z'::integer, '$x0'::integer, '$y0'::integer/:z::integer, :x::integer, :y::integer/g" \
          -e "s/'$layer'::bigint/:layer::bigint/g"
    } >"$prefix$z.sql"
    grep -q ':x::integer' "$prefix$z.sql" ||
      { echo "z$z: o ST_AsMVT não foi capturado" >&2; cat "$prefix$z.sql" >&2; return 1; }
  done <<<"$ranges"
}
