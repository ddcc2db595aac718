#!/usr/bin/env bash
# Two instances behind HAProxy (deploy/haproxy.cfg, unchanged) against one, in one run:
# requests/s, p50 and p99 of cadastre-server and cadastre-platform, each measured
#
#   (1) directly on one instance,
#   (2) through HAProxy with that one instance behind it (both `server` lines point at it):
#       what the balancer itself costs, against (1),
#   (3) through HAProxy with two instances behind it,
#
# with wrk over keep-alive connections, for three authenticated reads:
#
#   - cadastre-server, one lot:  GET /{municipio}/lote/{id}/  (bearer; the cheapest /rest read)
#   - cadastre-server, 100 lots: GET /{municipio}/lote/?limit=100 (a page: the heavier read)
#   - cadastre-platform:         GET /minha-conta (session headers after POST /login: the
#                                session check and one query)
#
# Each run follows a second of the same load (pools open, caches warm). During it,
# pg_stat_activity is sampled twice a second: "PG held" is the peak of the connections the
# measured service's processes hold (tenant and platform databases; the events' LISTEN
# connection apart), "PG busy" the peak of those running a statement at that moment.
# After the loads it prints who holds connections (by application_name), and again once
# the pools' idle timeout has passed. Last, the latency of an event across instances:
# a logout through platform instance A, timed until cadastre-server B and platform B
# refuse the session (the revocation travels as an event, plataforma.eventos + NOTIFY;
# the instances run with a 60 s token cache, so without the event they would accept it a
# minute longer), idle and while wrk loads both server instances.
#
#   bench/cluster.sh [seconds=10] [connections=64]
#
# Reading the ratios. On a 2-core machine the two instances, HAProxy, wrk and PostgreSQL
# all share the same two cores: "2 instances / direct" then measures what the second
# process and the extra hop cost, not capacity (expect it near or under 1). On a machine
# with cores to spare (or with each instance on a machine of its own, PostgreSQL on
# another), the same ratio approaches the number of instances until PostgreSQL or the
# balancer saturates; "HAProxy → 1 / direct" is the balancer's own share, which does not
# depend on the number of instances. Give wrk and HAProxy their own cores before trusting
# the 2-instance figure (taskset, or wrk on another machine).
#
# It starts its own throwaway PostgreSQL cluster (cadastre-admin demo setup: identity
# store, demo municipalities, a small platform project), two instances of cadastre-server
# and of cadastre-platform (--trusted-proxies 127.0.0.1, --no-access-log,
# --pool-idle-seconds 5 so the idle sample comes soon, --token-ttl-ms 60000 for the event
# test, the platform's --login-max-failures out of the way; other flags at their
# defaults: --pool-size 16, --threads 64), and two HAProxy processes on deploy/haproxy.cfg
# (one per configuration; the gateway backends point at a closed port and stay DOWN: the
# gateway is bench/gateway.sh's), and stops all of them on exit. It also prints the demo city's
# disk per row (its largest tables), for sizing. Environment: CADASTRE_BUILD_DIR, CADASTRE_BUILD_TYPE
# (Release into build-release by default, like the other benches), BENCH_THREADS (wrk
# threads, 2), DEMO_LOTS (2000), BENCH_EVENTS (logouts timed per case, 10; 0 skips),
# BENCH_TENANTS (200; 0 skips the last phase, below).
#
# Last, many municipalities: the cluster gets BENCH_TENANTS of them in all (copies of the
# second demo city's database, CREATE DATABASE ... TEMPLATE, each registered with one user
# and a bearer token), and wrk loads the 2-instance HAProxy with a Lua script that cycles
# through all of them (GET /{municipio}/lote/?limit=1 on cadastre-server, GET
# /referencias-geograficas?pageSize=1 on the platform: both read the municipality's own
# database), then one municipality alone on the same route for comparison. During each
# load pg_stat_activity is sampled twice a second, each connection put to its process (ss)
# and its kind (tenant database, platform pool, LISTEN), and the peaks are printed next to
# the ceiling the flags allow (operations.md: --connections-per-server per tenant server +
# --pool-size + 1 per process), with the tenant connections opened meanwhile
# (pg_stat_database.sessions), PostgreSQL's accept queue and the answers other than 200 by
# message; then again after --pool-idle-seconds. Before the loads, pgbench -C measures
# what a new connection costs on the machine (each municipality in turn may need one). For
# that phase the throwaway cluster's max_connections is raised to 400 (docs/scaling.md's
# figure): the four processes' ceiling, 324, is above scripts/pg's 300. The setup takes
# half a minute to a minute (the copies); cadastre-admin registers the first two municipalities
# and is timed, SQL the others (the same rows, a few hundred times faster).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-64}
wrk_threads=${BENCH_THREADS:-2}
events=${BENCH_EVENTS:-10}
tenants=${BENCH_TENANTS:-200}
# The pool flags, passed explicitly: the ceiling printed in the last phase is computed from them.
pool_size=16 per_server=64

for tool in wrk psql haproxy curl python3 $( ((tenants > 0)) && echo ss stdbuf); do
  command -v "$tool" >/dev/null || { echo "bench/cluster.sh: falta $tool (rode ./scripts/bootstrap)" >&2; exit 1; }
done
build=$CADASTRE_BUILD_DIR
CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-server cadastre-platform cadastre-admin >/dev/null
bin=$build/apps

# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_workspace cluster

# The demo municipalities, with a small platform project (the default 100,000 geometries
# would only slow the start down: no route measured here reads them).
echo "carregando a demonstração (${DEMO_LOTS:-2000} lotes)..." >&2
./scripts/pg start >/dev/null
if ((tenants > 0)); then
  # Room for the four processes' ceiling of the many-municipality phase (4 × 81 = 324).
  psql -X -q "$(./scripts/pg dsn postgres)" -c "alter system set max_connections = 400"
  ./scripts/pg stop >/dev/null
  ./scripts/pg start >/dev/null
fi
platform_dsn=$(./scripts/pg dsn cadastre_platform)
CADASTRE_PLATFORM_DSN=$platform_dsn "$bin/cadastre-admin/cadastre-admin" demo setup --lots "${DEMO_LOTS:-2000}" \
  --project-geometries 100 --media-root "$tmp/midia" >"$tmp/demo.out" 2>"$tmp/demo.log" ||
  { cat "$tmp/demo.log" >&2; exit 1; }
eval "$(grep -E "^[A-Z0-9_]+='" "$tmp/demo.out")"
municipio=$DEMO_MUNICIPIO
tenant_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = '$municipio'")
psql -X -q "$tenant_dsn" -c "vacuum analyze" >/dev/null
lot_id=$(psql -X -At "$tenant_dsn" -c "select min(id) from cadastro.lote")

# Two instances of each service, as scripts/demo --cluster starts them behind HAProxy.
common=(--platform-dsn "$platform_dsn" --trusted-proxies 127.0.0.1 --no-access-log --pool-idle-seconds 5
        --pool-size "$pool_size" --connections-per-server "$per_server" --token-ttl-ms 60000)
export CADASTRE_FILES_SECRET=bench-cluster-$RANDOM$RANDOM
declare -A srv_port plat_port
proc_labels=""  # pid=label,... : whose connection is whose in the last phase
for i in a b; do
  srv_port[$i]=$(free_port)
  "$bin/cadastre-server/cadastre-server" "${common[@]}" --port "${srv_port[$i]}" --media-root "$tmp/midia" \
    2>"$tmp/server-$i.log" &
  pids+=($!)
  proc_labels+="$!=server-$i,"
done
for i in a b; do
  plat_port[$i]=$(free_port)
  # The bench's logins are all right; keep the password throttle out of the way anyway.
  "$bin/cadastre-platform/cadastre-platform" "${common[@]}" --port "${plat_port[$i]}" --files-dir "$tmp/plataforma" \
    --login-max-failures 1000000 2>"$tmp/platform-$i.log" &
  pids+=($!)
  proc_labels+="$!=platform-$i,"
done
# up URL LOG: URL answers, or LOG's end is shown (the workspace goes at exit).
up() { wait_http "$1" || { tail -n 20 "$2" >&2; return 1; }; }
for i in a b; do
  up "http://127.0.0.1:${srv_port[$i]}/health-check/readiness/" "$tmp/server-$i.log"
  up "http://127.0.0.1:${plat_port[$i]}/health-check/readiness" "$tmp/platform-$i.log"
done

# HAProxy on deploy/haproxy.cfg, twice: with instance A alone behind it (both server
# lines to A), and with A and B. The gateway backends go to a port nobody listens on.
closed=127.0.0.1:$(free_port)
declare -A lb_srv lb_plat
start_haproxy() {  # NAME SERVER_B PLATFORM_B
  local name=$1
  lb_srv[$name]=$(free_port) lb_plat[$name]=$(free_port)
  CADASTRE_LB_HOST=127.0.0.1 CADASTRE_LB_SERVER_PORT=${lb_srv[$name]} CADASTRE_LB_PLATFORM_PORT=${lb_plat[$name]} \
    CADASTRE_LB_GATEWAY_PORT=$(free_port) \
    CADASTRE_SERVER_A=127.0.0.1:${srv_port[a]} CADASTRE_SERVER_B=$2 \
    CADASTRE_PLATFORM_A=127.0.0.1:${plat_port[a]} CADASTRE_PLATFORM_B=$3 \
    CADASTRE_GATEWAY_A=$closed CADASTRE_GATEWAY_B=$closed \
    haproxy -f deploy/haproxy.cfg -db 2>"$tmp/haproxy-$name.log" &
  pids+=($!)
  up "http://127.0.0.1:${lb_srv[$name]}/health-check/readiness/" "$tmp/haproxy-$name.log"
  up "http://127.0.0.1:${lb_plat[$name]}/health-check/readiness" "$tmp/haproxy-$name.log"
}
start_haproxy one "127.0.0.1:${srv_port[a]}" "127.0.0.1:${plat_port[a]}"
start_haproxy two "127.0.0.1:${srv_port[b]}" "127.0.0.1:${plat_port[b]}"
sleep 1.5  # a first round of health checks on every server line

# A platform session (its authToken is also a bearer token for cadastre-server).
login=$(curl -fsS -d "email=$DEMO_EMAIL" -d "senha=$DEMO_PASSWORD" "http://127.0.0.1:${plat_port[a]}/login")
auth_token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["authToken"])' <<<"$login")
tn_token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["tnToken"])' <<<"$login")
bearer=(-H "Authorization: Bearer $DEMO_TOKEN")
session=(-H "X-Auth-Token: $auth_token" -H "X-Tn-Token: $tn_token")
for url in "http://127.0.0.1:${srv_port[b]}/$municipio/lote/$lot_id/" "http://127.0.0.1:${lb_srv[two]}/$municipio/lote/?limit=100"; do
  curl -fsS -o /dev/null "${bearer[@]}" "$url"
done
curl -fsS -o /dev/null "${session[@]}" "http://127.0.0.1:${plat_port[b]}/minha-conta"

# ------------------------------------------------------------------ measuring
# Connections the measured service's processes hold on the cluster (their pools name
# themselves: application_name cadastre-server:<slug>, cadastre-server:plataforma...; the
# events' LISTEN connections have no name and are left out), and how many of them are
# running a statement at that moment.
pg_counts() {
  psql -X -At -F ' ' "$platform_dsn" -c "select count(*), count(*) filter (where state <> 'idle')
    from pg_stat_activity where backend_type = 'client backend' and application_name like '$1%'"
}
pg_holders() {
  psql -X -At -F ' ' "$platform_dsn" -c "select count(*), datname, coalesce(nullif(application_name, ''), '(no name)')
    from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
    group by 2, 3 order by 2, 3" | awk '{ n = $1; $1 = ""; printf "  %4d %s\n", n, substr($0, 2) }'
}
# Requests an instance answered so far (its /metrics, the health checks left out).
served() {
  curl -fsS "$1/metrics" | awk '/_http_requests_total\{/ && !/health-check/ { n += $NF } END { print n + 0 }'
}

# wrk prints "Requests/sec: N" and, with --latency, " 50%  X" / " 99%  X" with a unit.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }
# run APPLICATION_NAME ARGS... → "rps p50 p99 non2xx pg_held_peak pg_busy_peak"
run() {
  local app=$1 out rps p50 p99 bad sampler
  shift
  # A second of the same load first: the pools of the instances measured are open.
  wrk -t"$wrk_threads" -c"$conns" -d1s "$@" >/dev/null
  : >"$tmp/pg.samples"
  # Twice a second, bounded by itself too should this function be cut short.
  (end=$((SECONDS + secs + 5)); while ((SECONDS < end)); do pg_counts "$app" >>"$tmp/pg.samples" 2>/dev/null || true; sleep 0.5; done) &
  sampler=$!
  out=$(wrk -t"$wrk_threads" -c"$conns" -d"${secs}s" --latency "$@")
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  # Answers other than 2xx/3xx (a pool's 503, a balancer's 502) are counted apart: a run
  # with them measures refusals, not serving.
  bad=$(awk '/Non-2xx or 3xx responses/ {print $NF}' <<<"$out")
  echo "$rps $(to_ms "$p50") $(to_ms "$p99") ${bad:-0} $(awk '$1 > h { h = $1 } $2 > b { b = $2 } END { print h + 0, b + 0 }' "$tmp/pg.samples")"
}
row() { printf '%-26s %-24s %11s %9s %9s %8s %9s %9s\n' "$@"; }

echo
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
echo "build $CADASTRE_BUILD_TYPE ($build), DEMO_LOTS=${DEMO_LOTS:-2000}, wrk -t$wrk_threads -c$conns -d${secs}s, keep-alive"
echo "PostgreSQL max_connections: $(psql -X -At "$platform_dsn" -c 'show max_connections')"
# Disk per lot, for sizing (after vacuum analyze: n_live_tup is exact enough).
echo "disk, $municipio's database ($(psql -X -At "$tenant_dsn" -c "select pg_size_pretty(pg_database_size(current_database()))") in all), its largest tables with their indexes:"
psql -X -At -F ' ' "$tenant_dsn" -c "select schemaname || '.' || relname, n_live_tup, pg_total_relation_size(relid)
    from pg_stat_user_tables order by 3 desc limit 5" |
  awk '{ printf "  %-34s %9d rows %9.1f MB %8.0f bytes/row\n", $1, $2, $3 / 1048576, $2 ? $3 / $2 : 0 }'
tenant2_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = '$DEMO2_MUNICIPIO'")
echo "  ($DEMO2_MUNICIPIO's database, $(psql -X -At "$tenant2_dsn" -c "select count(*) from cadastro.lote") lots, the demo's geography and nothing else: $(psql -X -At "$tenant2_dsn" -c "select pg_size_pretty(pg_database_size(current_database()))"))"
echo
row "read" "setup" "requests/s" "p50 ms" "p99 ms" "non-2xx" "PG held" "PG busy"
summary=()
# measure LABEL APPLICATION_NAME PATH DIRECT_PORT LB_PORT_ONE LB_PORT_TWO INSTANCE_A_URL INSTANCE_B_URL HEADER_ARGS...
measure() {
  local label=$1 app=$2 path=$3 direct=$4 one=$5 two=$6 url_a=$7 url_b=$8
  shift 8
  local d1 d2 d3 d4 d5 d6 o1 o2 o3 o4 o5 o6 t1 t2 t3 t4 t5 t6 a0 b0 a1 b1
  # Instance B's tenant connections from the previous read close first (--pool-idle-seconds),
  # so the direct run's count is A's alone.
  sleep 7
  read -r d1 d2 d3 d4 d5 d6 < <(run "$app" "$@" "http://127.0.0.1:$direct$path")
  read -r o1 o2 o3 o4 o5 o6 < <(run "$app" "$@" "http://127.0.0.1:$one$path")
  a0=$(served "$url_a") b0=$(served "$url_b")
  read -r t1 t2 t3 t4 t5 t6 < <(run "$app" "$@" "http://127.0.0.1:$two$path")
  a1=$(served "$url_a") b1=$(served "$url_b")
  row "$label" "1 instance, direct" "$d1" "$d2" "$d3" "$d4" "$d5" "$d6"
  row "" "HAProxy → 1 instance" "$o1" "$o2" "$o3" "$o4" "$o5" "$o6"
  row "" "HAProxy → 2 instances" "$t1" "$t2" "$t3" "$t4" "$t5" "$t6"
  summary+=("$(awk -v l="$label" -v d="$d1" -v dp="$d2" -v o="$o1" -v op="$o2" -v t="$t1" -v tp="$t2" \
    -v a="$((a1 - a0))" -v b="$((b1 - b0))" -v bad="$((d4 + o4 + t4))" 'BEGIN {
    printf "%s: HAProxy → 1 / direct = %.2f (p50 %+.3f ms); HAProxy → 2 / direct = %.2f (p50 %+.3f ms); split A/B %.0f%%/%.0f%%",
      l, o / d, op - dp, t / d, tp - dp, 100 * a / (a + b), 100 * b / (a + b)
    if (bad > 0) printf " (NOT COMPARABLE: %d non-2xx answers)", bad }')")
}
srv_a="http://127.0.0.1:${srv_port[a]}" srv_b="http://127.0.0.1:${srv_port[b]}"
plat_a="http://127.0.0.1:${plat_port[a]}" plat_b="http://127.0.0.1:${plat_port[b]}"
measure "cadastre-server, one lot" cadastre-server "/$municipio/lote/$lot_id/" "${srv_port[a]}" "${lb_srv[one]}" "${lb_srv[two]}" \
  "$srv_a" "$srv_b" "${bearer[@]}"
measure "cadastre-server, 100 lots" cadastre-server "/$municipio/lote/?limit=100" "${srv_port[a]}" "${lb_srv[one]}" "${lb_srv[two]}" \
  "$srv_a" "$srv_b" "${bearer[@]}"
measure "platform, /minha-conta" cadastre-platform "/minha-conta" "${plat_port[a]}" "${lb_plat[one]}" "${lb_plat[two]}" \
  "$plat_a" "$plat_b" "${session[@]}"
echo
printf '%s\n' "${summary[@]}"

echo
echo "PostgreSQL client connections right after the loads (count, database, application_name):"
pg_holders
sleep 7  # past --pool-idle-seconds 5 and the sweeper's second
echo "and 7 s later, the pools' idle connections closed (--pool-idle-seconds 5):"
pg_holders

# ------------------------------------------------------------------ an event across instances
if ((events > 0)); then
  cat >"$tmp/event_latency.py" <<'PY'
# A logout through platform instance A, then cadastre-server B and platform B are asked
# again and again (keep-alive) until they refuse the session: the revocation reached them
# as an event. Prints the median and the largest of each, in ms from the logout's request.
import http.client, json, statistics, sys, time, urllib.parse

plat_a, plat_b, srv_b, path_b, email, password, n = sys.argv[1:8]
n = int(n)

def connect(hostport):
    host, port = hostport.rsplit(":", 1)
    return http.client.HTTPConnection(host, int(port), timeout=10)

conns = {}
def call(hostport, method, path, headers=None, body=None):
    for attempt in (1, 2):
        c = conns.get(hostport) or conns.setdefault(hostport, connect(hostport))
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
            if r.getheader("Connection", "").lower() == "close":
                c.close(); conns.pop(hostport, None)
            return r.status, data
        except (http.client.HTTPException, OSError):
            c.close(); conns.pop(hostport, None)
            if attempt == 2:
                raise

form = urllib.parse.urlencode({"email": email, "senha": password})
to_srv, to_plat, logout_ms = [], [], []
for _ in range(n):
    status, data = call(plat_a, "POST", "/login", {"Content-Type": "application/x-www-form-urlencoded"}, form)
    assert status == 200, (status, data)
    body = json.loads(data)
    session = {"X-Auth-Token": body["authToken"], "X-Tn-Token": body["tnToken"]}
    bearer = {"Authorization": "Bearer " + body["authToken"]}
    # Both B instances hold the session in their cache now.
    assert call(srv_b, "GET", path_b, bearer)[0] == 200
    assert call(plat_b, "GET", "/minha-conta", session)[0] == 200
    t0 = time.perf_counter()
    status, _ = call(plat_a, "POST", "/logout", dict(session, **{"Content-Length": "0"}))
    assert status < 300, status
    logout_ms.append((time.perf_counter() - t0) * 1000)
    seen = {}
    while len(seen) < 2 and time.perf_counter() - t0 < 10:
        if "srv" not in seen and call(srv_b, "GET", path_b, bearer)[0] in (401, 403):
            seen["srv"] = (time.perf_counter() - t0) * 1000
        if "plat" not in seen and call(plat_b, "GET", "/minha-conta", session)[0] in (401, 403):
            seen["plat"] = (time.perf_counter() - t0) * 1000
    to_srv.append(seen.get("srv"))
    to_plat.append(seen.get("plat"))

def show(values):
    got = [v for v in values if v is not None]
    lost = len(values) - len(got)
    if not got:
        return "never within 10 s"
    text = "median %.1f ms, max %.1f ms" % (statistics.median(got), max(got))
    return text + (" (%d of %d never within 10 s)" % (lost, len(values)) if lost else "")

print("  logout answered by A: median %.1f ms" % statistics.median(logout_ms))
print("  refused by cadastre-server B: " + show(to_srv))
print("  refused by platform B:        " + show(to_plat))
PY
  event_run() {
    python3 "$tmp/event_latency.py" "127.0.0.1:${plat_port[a]}" "127.0.0.1:${plat_port[b]}" "127.0.0.1:${srv_port[b]}" \
      "/$municipio/lote/$lot_id/" "$DEMO_EMAIL" "$DEMO_PASSWORD" "$events"
  }
  echo
  echo "an event across instances (logout through platform A → session refused on B), $events logouts, idle:"
  event_run
  echo "the same while wrk -c$conns loads both cadastre-server instances through HAProxy:"
  wrk -t"$wrk_threads" -c"$conns" -d600s "${bearer[@]}" "http://127.0.0.1:${lb_srv[two]}/$municipio/lote/$lot_id/" \
    >/dev/null &
  load=$!
  pids+=("$load")
  event_run
  kill "$load" 2>/dev/null || true
  wait "$load" 2>/dev/null || true
fi

# ------------------------------------------------------------------ many municipalities
if ((tenants > 0)); then
  echo
  pg_port=$(./scripts/pg port)
  platform_db=$(psql -X -At "$platform_dsn" -c "select current_database()")
  existing=$(psql -X -At "$platform_dsn" -c "select count(*) from plataforma.tenants")
  copies=$((tenants - existing))
  ((copies >= 0)) || copies=0
  # Slugs b001, b002...; their databases cad_<slug>, as cadastre-admin names them.
  slug_of() { printf 'b%03d' "$1"; }
  echo "$tenants municipalities: $existing of the demo and $copies copies of $DEMO2_MUNICIPIO's database..." >&2
  t0=$SECONDS
  # A template nobody connects to, made once from the second demo city (no service has used
  # it: the loads above read the first one); CREATE DATABASE copies its files.
  psql -X -q "$platform_dsn" -c "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'cad_$DEMO2_MUNICIPIO'" >/dev/null
  psql -X -q "$platform_dsn" -c "create database cad_bench_template template cad_$DEMO2_MUNICIPIO strategy file_copy"
  for ((i = 1; i <= copies; i++)); do
    echo "create database cad_$(slug_of "$i") template cad_bench_template strategy file_copy;"
  done | psql -X -q -v ON_ERROR_STOP=1 "$platform_dsn"
  copy_s=$((SECONDS - t0))
  # Registration. cadastre-admin (tenant add, which runs the migrations on the copy: none
  # left; user add; token issue) is timed on the first two; the rest get the same rows by SQL.
  admin=$bin/cadastre-admin/cadastre-admin
  : >"$tmp/pairs"
  by_admin=$((copies < 2 ? copies : 2))
  t1=$(date +%s.%N)
  for ((i = 1; i <= by_admin; i++)); do
    slug=$(slug_of "$i")
    CADASTRE_PLATFORM_DSN=$platform_dsn "$admin" tenant add "$slug" --nome "Bench $i" --uf SP \
      --dsn "$(./scripts/pg dsn "cad_$slug")" >/dev/null 2>>"$tmp/admin.log"
    CADASTRE_PLATFORM_DSN=$platform_dsn "$admin" user add --tenant "$slug" --email "$slug@bench.example" \
      --nome "Bench $slug" --perm '*:rw' >/dev/null 2>>"$tmp/admin.log"
    echo "$slug $(CADASTRE_PLATFORM_DSN=$platform_dsn "$admin" token issue --email "$slug@bench.example" 2>>"$tmp/admin.log")" \
      >>"$tmp/pairs"
  done
  t2=$(date +%s.%N)
  # The same rows for the others: the tenant (cadastre-admin's columns), the user, '*' read
  # and write, and an issued session ('emitido', a year) whose token_hash is the SHA-256 of
  # a random 64-hex token.
  if ((copies > by_admin)); then
    psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 "$platform_dsn" >>"$tmp/pairs" <<SQL
begin;
insert into plataforma.tenants (slug, nome, uf, dsn, fuso_horario)
  select format('b%s', lpad(i::text, 3, '0')), 'Bench ' || i, 'SP',
         format('$(./scripts/pg dsn "cad_%s")', format('b%s', lpad(i::text, 3, '0'))), 'America/Sao_Paulo'
    from generate_series($((by_admin + 1)), $copies) i;
insert into plataforma.usuarios (tenant_id, email, nome)
  select id, slug || '@bench.example', 'Bench ' || slug from plataforma.tenants
   where slug ~ '^b[0-9]{3,}\$' and id not in (select tenant_id from plataforma.usuarios where tenant_id is not null);
insert into plataforma.permissoes_camada (usuario_id, camada, leitura, escrita)
  select id, '*', true, true from plataforma.usuarios where email like '%@bench.example'
  on conflict do nothing;
create temporary table bench_tokens on commit drop as
  select u.id as usuario_id, u.tenant_id, t.slug, md5(random()::text || u.id) || md5(clock_timestamp()::text || random()) as token
    from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id
   where u.email like '%@bench.example' and not exists (select from plataforma.sessoes s where s.usuario_id = u.id);
insert into plataforma.sessoes (usuario_id, tenant_id, token_hash, origem, expira_em)
  select usuario_id, tenant_id, encode(sha256(convert_to(token, 'UTF8')), 'hex'), 'emitido', now() + interval '365 days'
    from bench_tokens;
select slug, token from bench_tokens order by slug;
commit;
SQL
  fi
  t3=$(date +%s.%N)
  # The demo's two cities with their own tokens.
  printf '%s %s\n%s %s\n' "$municipio" "$DEMO_TOKEN" "$DEMO2_MUNICIPIO" "$DEMO2_TOKEN" >>"$tmp/pairs"
  head -n 1 "$tmp/pairs" >"$tmp/pairs.one"
  awk -v c="$copies" -v s="$copy_s" -v d="$by_admin" -v a="$(awk -v a="$t1" -v b="$t2" -v n="$by_admin" 'BEGIN { printf "%.2f", n ? (b - a) / n : 0 }')" \
    -v q="$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.2f", b - a }')" 'BEGIN {
    printf "setup: %d database copies in %d s; cadastre-admin tenant add + user add + token issue %.2f s per municipality (%.0f s for all %d), SQL for the other %d: %.2f s\n",
      c, s, a, a * c, c, c - d, q }' >"$tmp/setup.line"
  [[ $(wc -l <"$tmp/pairs") -eq $tenants ]] || { echo "bench/cluster.sh: $(wc -l <"$tmp/pairs") municipalities with tokens, not $tenants" >&2; exit 1; }

  # wrk's Lua: each thread cycles through the (municipio, token) pairs of args[1], from its
  # own starting point, on the path template args[2] ({m}: the municipality).
  cat >"$tmp/tenants.lua" <<'LUA'
local threads = {}
function setup(thread)
  thread:set("first", #threads * 61)
  threads[#threads + 1] = thread
end
local list, i = {}, 0
function init(args)
  for line in io.lines(args[1]) do
    local slug, token = line:match("^(%S+) (%S+)$")
    if slug then list[#list + 1] = {(args[2]:gsub("{m}", slug)), "Bearer " .. token} end
  end
  i = (first or 0) % #list
end
function request()
  i = i % #list + 1
  return wrk.format("GET", list[i][1], {["Authorization"] = list[i][2]})
end
-- Answers other than 200, by status and message, summed over the threads at the end.
errors = {}
function response(status, headers, body)
  if status ~= 200 then
    local key = status .. " " .. (body:match('"mensagem":"([^"]*)"') or "")
    errors[key] = (errors[key] or 0) + 1
  end
end
function done(summary, latency, requests)
  local all = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("errors") or {}) do all[k] = (all[k] or 0) + v end
  end
  for k, v in pairs(all) do io.write(string.format("answer %s: %d\n", k, v)) end
end
LUA
  srv_path='/{m}/lote/?limit=1' plat_path='/referencias-geograficas?pageSize=1'
  # A municipality registered by cadastre-admin and one by SQL answer on both services.
  for pair in "$(head -n 1 "$tmp/pairs")" "$(sed -n "$((copies > 2 ? copies : 1))p" "$tmp/pairs")"; do
    read -r slug token <<<"$pair"
    curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:${lb_srv[two]}${srv_path/\{m\}/$slug}"
    curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:${lb_plat[two]}$plat_path"
  done

  # One sample: "N process kind busy" per client connection. The process is found by the
  # connection's client port (ss, before and after pg_stat_activity, so that a connection
  # opened or closed meanwhile is still found; "other" when none: a client that gave up
  # before its backend started); the kind by database and name: the platform database with
  # no application_name is the events' LISTEN connection. And "N #queue Q": the connections
  # waiting in PostgreSQL's accept queue (its listening socket's Recv-Q). During a load the
  # query goes over one connection opened before it (pg_session): a new one would wait in
  # that queue with the services' own.
  pg_session() {
    coproc PG_SESSION { stdbuf -oL psql -X -At -F '|' "$platform_dsn" 2>/dev/null; }
    exec {pg_to}>&"${PG_SESSION[1]}" {pg_from}<&"${PG_SESSION[0]}"
  }
  pg_query() {
    if [[ -z ${pg_to:-} ]]; then psql -X -At -F '|' "$platform_dsn" -c "$1"; return; fi
    local line
    printf '%s;\n\\echo #end\n' "$1" >&"$pg_to"
    while IFS= read -r -t 10 line <&"$pg_from"; do
      [[ $line == '#end' ]] && return 0
      printf '%s\n' "$line"
    done
    return 1
  }
  pg_sample() {
    ss -Hltn "( sport = :$pg_port )" | awk -v n="$1" '{ print n, "#queue", $2 }'
    { ss -Htnp state established "( dport = :$pg_port )"
      pg_query "select client_port, datname, coalesce(application_name, ''), (state <> 'idle')::int
          from pg_stat_activity where backend_type = 'client backend' and client_port is not null and pid <> pg_backend_pid()" |
        sed 's/^/P|/'
      ss -Htnp state established "( dport = :$pg_port )"; } |
      awk -v n="$1" -v labels="$proc_labels" -v plat="$platform_db" '
        BEGIN { k = split(labels, l, ","); for (j = 1; j <= k; j++) if (split(l[j], kv, "=") == 2) who[kv[1]] = kv[2] }
        /^P\|/ { split($0, f, "|"); port[++m] = f[2]; db[m] = f[3]; app[m] = f[4]; busy[m] = f[5]; next }
        match($0, /pid=[0-9]+/) { c = split($3, a, ":"); owner[a[c]] = substr($0, RSTART + 4, RLENGTH - 4) }
        END { for (j = 1; j <= m; j++) {
                p = (port[j] in owner) && (owner[port[j]] in who) ? who[owner[port[j]]] : "other"
                kind = db[j] != plat ? "tenant" : app[j] == "" ? "listen" : "platform"
                print n, p, kind, busy[j] } }'
  }
  # Tenant connections opened so far (all tenant databases' sessions).
  opened() { psql -X -At "$platform_dsn" -c "select coalesce(sum(sessions), 0) from pg_stat_database where datname like 'cad\_%'"; }
  procs=(server-a server-b platform-a platform-b)
  declare -A proc_name=([server-a]="cadastre-server A" [server-b]="cadastre-server B" [platform-a]="cadastre-platform A"
                        [platform-b]="cadastre-platform B" [other]="no client found (ss)")
  bound_proc=$((per_server + pool_size + 1))  # one tenant server: the copies and the demo's cities share the cluster
  # peaks SAMPLES: per process and kind, the largest count over the samples; per process and
  # for the four together, the largest total at one sample; with the ceiling.
  peaks() {
    awk -v procs="${procs[*]} other" -v bp="$bound_proc" -v names="$(for p in "${procs[@]}" other; do printf '%s=%s;' "$p" "${proc_name[$p]}"; done)" '
      $2 == "#queue" { if ($3 > queue) queue = $3; next }
      { c[$1, $2, $3]++; t[$1, $2]++; b[$1] += $4; if ($2 != "other") ours[$1]++; all[$1]++; s[$1] }
      END {
        k = split(names, nl, ";"); for (j = 1; j <= k; j++) if (split(nl[j], kv, "=") == 2) name[kv[1]] = kv[2]
        np = split(procs, P, " ")
        for (x in c) { split(x, q, SUBSEP); if (c[x] > pk[q[2], q[3]]) pk[q[2], q[3]] = c[x] }
        for (x in t) { split(x, q, SUBSEP); if (t[x] > pt[q[2]]) pt[q[2]] = t[x] }
        for (x in s) { if (ours[x] > po) po = ours[x]; if (all[x] > pa) pa = all[x]; if (b[x] > pb) pb = b[x] }
        printf "    %-26s %7s %9s %7s %7s %8s\n", "peak (samples twice a s)", "tenant", "platform", "listen", "total", "ceiling"
        for (j = 1; j <= np; j++) {
          p = P[j]; if (p == "other" && !pt[p]) continue
          printf "    %-26s %7d %9d %7d %7d %8s\n", name[p], pk[p, "tenant"], pk[p, "platform"], pk[p, "listen"], pt[p], p == "other" ? "" : bp
        }
        printf "    %-26s %7s %9s %7s %7d %8d\n", "the four, at one sample", "", "", "", po, 4 * bp
        printf "    %-26s %7s %9s %7s %7d %8s  (%d running a statement at most; accept queue %d at most)\n", "all on PostgreSQL", "", "", "", pa, "", pb, queue
      }' "$1"
  }
  # many NAME PAIRS_FILE "PORT PATH"...: wrk on each PORT at once (a second first), sampled;
  # the answers other than 200 are counted by status and message (the services' JSON
  # "mensagem"; none for HAProxy's own). wrk's --timeout is 10 s: its default, 2 s, is
  # --pool-wait-ms too, and would drop the slowest answers from the latencies.
  many() {
    local name=$1 pairs=$2 spec port path k sampler o0 o1
    shift 2
    local -a w=()
    for spec in "$@"; do
      read -r port path _ <<<"$spec"
      wrk -t"$wrk_threads" -c"$conns" -d1s -s "$tmp/tenants.lua" "http://127.0.0.1:$port/" -- "$pairs" "$path" >/dev/null &
      w+=($!)
    done
    wait "${w[@]}"
    o0=$(opened)
    : >"$tmp/many.samples"
    (pg_session
     end=$((SECONDS + secs + 5)) n=0
     while ((SECONDS < end)); do pg_sample $((n++)) >>"$tmp/many.samples" 2>/dev/null || true; sleep 0.5; done) &
    sampler=$!
    w=() k=0
    for spec in "$@"; do
      read -r port path _ <<<"$spec"
      wrk -t"$wrk_threads" -c"$conns" -d"${secs}s" --timeout 10s --latency -s "$tmp/tenants.lua" "http://127.0.0.1:$port/" \
        -- "$pairs" "$path" >"$tmp/many-$k.out" &
      w+=($!)
      k=$((k + 1))
    done
    wait "${w[@]}"
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    sleep 1  # the last connections' statistics reach pg_stat_database
    o1=$(opened)
    echo "  $name"
    k=0
    for spec in "$@"; do
      read -r port path <<<"$spec"
      local out rps p50 p99 bad errors
      out=$(cat "$tmp/many-$k.out")
      rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
      p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
      p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
      bad=$(awk '/Non-2xx or 3xx responses/ {print $NF}' <<<"$out")
      errors=$(awk '/Socket errors/ { sub(/^ *Socket errors: */, ""); print "; wrk socket errors: " $0 }' <<<"$out")
      printf '    %-34s %9s requests/s, p50 %s ms, p99 %s ms, non-2xx %s%s\n' "$path" "$rps" \
        "$(to_ms "$p50")" "$(to_ms "$p99")" "${bad:-0}" "$errors"
      awk '/^answer / { sub(/^answer /, ""); print "      " $0 }' <<<"$out" | sort
      k=$((k + 1))
    done
    echo "    tenant connections opened during the ${secs} s: $((o1 - o0)) ($(awk -v n="$((o1 - o0))" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')/s)"
    peaks "$tmp/many.samples"
  }

  echo "many municipalities: $tenants, each with its own database on this one PostgreSQL server"
  cat "$tmp/setup.line"
  echo "wrk -t$wrk_threads -c$conns -d${secs}s per service through HAProxy → 2 instances, each request the next municipality"
  echo "with its own bearer token; ceiling per process --connections-per-server $per_server × 1 tenant server +"
  echo "--pool-size $pool_size + 1 LISTEN = $bound_proc, the four processes $((4 * bound_proc)) (no gateway here; with 2 gateways"
  echo "× (8 + 1), operations.md's 342); max_connections $(psql -X -At "$platform_dsn" -c 'show max_connections')"
  # What a new connection costs here: a process serving more municipalities at once than
  # --connections-per-server closes one's connection to open another's.
  pgbench_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}/pgbench
  if [[ -x $pgbench_bin ]]; then
    echo "select 1;" >"$tmp/connect.sql"
    echo "select st_asgeojson(st_transform(geom, 4326), 7) from cadastro.lote limit 1;" >"$tmp/first-read.sql"
    connect_ms() {
      "$pgbench_bin" -n -C -c1 -T 3 -f "$tmp/$1" "$(./scripts/pg dsn "cad_$DEMO2_MUNICIPIO")" 2>/dev/null |
        awk '/^latency average/ { printf "%.0f", $4 }'
    }
    echo "a new connection to a municipality's database (pgbench -C, one client, 3 s each): $(connect_ms connect.sql) ms with select 1,"
    echo "$(connect_ms first-read.sql) ms with one lot's geometry in EPSG:4326 as the route reads it (PostGIS and PROJ loaded by the"
    echo "new backend); with 4 clients at once, $("$pgbench_bin" -n -C -c4 -j2 -T 3 -f "$tmp/connect.sql" "$(./scripts/pg dsn "cad_$DEMO2_MUNICIPIO")" 2>/dev/null |
      awk '/^tps/ { printf "%.0f", $3 }') new connections/s in all (select 1)"
  fi
  server_spec="${lb_srv[two]} $srv_path" platform_spec="${lb_plat[two]} $plat_path"
  sleep 7  # the loads above: their tenant connections closed (--pool-idle-seconds 5)
  many "cadastre-server, $tenants municipalities in turn" "$tmp/pairs" "$server_spec"
  sleep 7
  many "cadastre-server, one municipality ($(head -n 1 "$tmp/pairs" | cut -d' ' -f1)), the same route" "$tmp/pairs.one" "$server_spec"
  sleep 7
  many "cadastre-platform, $tenants municipalities in turn" "$tmp/pairs" "$platform_spec"
  sleep 7
  many "both at once, $tenants municipalities in turn" "$tmp/pairs" "$server_spec" "$platform_spec"
  sleep 7  # past --pool-idle-seconds 5 and the sweeper's second
  echo "  7 s after the last load (--pool-idle-seconds 5):"
  pg_sample 0 >"$tmp/idle.samples"
  peaks "$tmp/idle.samples"
fi
