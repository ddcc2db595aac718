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
# threads, 2), DEMO_LOTS (2000), BENCH_EVENTS (logouts timed per case, 10; 0 skips).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
secs=${1:-10}
conns=${2:-64}
wrk_threads=${BENCH_THREADS:-2}
events=${BENCH_EVENTS:-10}

for tool in wrk psql haproxy curl python3; do
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
        --token-ttl-ms 60000)
export CADASTRE_FILES_SECRET=bench-cluster-$RANDOM$RANDOM
declare -A srv_port plat_port
for i in a b; do
  srv_port[$i]=$(free_port)
  "$bin/cadastre-server/cadastre-server" "${common[@]}" --port "${srv_port[$i]}" --media-root "$tmp/midia" \
    2>"$tmp/server-$i.log" &
  pids+=($!)
done
for i in a b; do
  plat_port[$i]=$(free_port)
  # The bench's logins are all right; keep the password throttle out of the way anyway.
  "$bin/cadastre-platform/cadastre-platform" "${common[@]}" --port "${plat_port[$i]}" --files-dir "$tmp/plataforma" \
    --login-max-failures 1000000 2>"$tmp/platform-$i.log" &
  pids+=($!)
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
