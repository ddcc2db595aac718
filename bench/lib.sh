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
