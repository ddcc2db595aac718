#!/usr/bin/env bash
# The browser test of the platform's vector tiles: a private cluster with the demo project
# (a few hundred lots), cadastre-platform on a loopback port, the project published, and
# page.html rendering the layer's /vt (with a session) and /svt (without) tiles in MapLibre
# GL JS in headless Chromium (run.mjs). Passes when both sources drew features; saves a
# screenshot.
#
#   tests/browser/run.sh <cadastre-platform> <cadastre-admin> <output folder>
#
# Exit 77 (ctest: skipped) only when Chromium is not installed (scripts/bootstrap installs
# it). The npm packages come from package-lock.json with `npm ci`, into the output folder.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
platform_bin=$1 admin_bin=$2 out=$3
chromium=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
  echo "SKIP: o Chromium não está instalado ($chromium); scripts/bootstrap instala chromium e chromium-driver"
  exit 77
fi

# shellcheck source=bench/lib.sh
source "$repo/bench/lib.sh"
mkdir -p "$out/npm"
# npm ci again only when the lock file changed.
if ! cmp -s "$here/package-lock.json" "$out/npm/package-lock.json" || [[ ! -d $out/npm/node_modules ]]; then
  cp "$here/package.json" "$here/package-lock.json" "$out/npm/"
  (cd "$out/npm" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

work=$(mktemp -d /tmp/cadastre-browser.XXXXXX)
chmod 755 "$work"
export CADASTRE_PG_DIR=$work/pg
server=""
cleanup() {
  [[ -n $server ]] && { kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
  "$repo/scripts/pg" stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

"$repo/scripts/pg" start >/dev/null
platform_dsn=$("$repo/scripts/pg" dsn cadastre_platform)
CADASTRE_PLATFORM_DSN=$platform_dsn "$admin_bin" demo setup --lots 20 --lots2 10 --project-geometries 400 \
  --media-root "$work/midia" >"$work/demo.env" 2>"$work/demo.log" || { cat "$work/demo.log" >&2; exit 1; }
eval "$(grep -E "^[A-Z0-9_]+='" "$work/demo.env")"
tenant_id=$(psql -X -At "$platform_dsn" -c "select id from plataforma.tenants where slug = '$DEMO_MUNICIPIO'")
tenant_dsn=$(psql -X -At "$platform_dsn" -c "select dsn from plataforma.tenants where slug = '$DEMO_MUNICIPIO'")
bbox=$(psql -X -At "$tenant_dsn" -c "select concat_ws(',', st_xmin(e), st_ymin(e), st_xmax(e), st_ymax(e)) from
  (select st_extent(geom) as e from projeto.geometrias where camada_id = $DEMO_PROJECT_LAYER_ID) x")

port=$(free_port)
"$platform_bin" --platform-dsn "$platform_dsn" --port "$port" --no-access-log --files-dir "$work/arquivos" \
  2>"$work/platform.log" &
server=$!
api="http://127.0.0.1:$port"
wait_http "$api/health-check/liveness"
login=$(curl -fsS -d "email=$DEMO_EMAIL" -d "senha=$DEMO_PASSWORD" "$api/login")
token=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["authToken"])' <<<"$login")
# /svt shows only a published project's layers.
curl -fsS -o /dev/null -X POST -H "X-Auth-Token: $token" -H "X-Tn-Token: $DEMO_TN_TOKEN" \
  "$api/projetos/$DEMO_PROJECT_ID/publicar"

TILES_API=$api TILES_LAYER=$DEMO_PROJECT_LAYER_ID TILES_TENANT=$tenant_id TILES_TOKEN=$token \
  TILES_TN=$DEMO_TN_TOKEN TILES_BBOX=$bbox TILES_SCREENSHOT=$out/platform_tiles.png TILES_MODULES=$out/npm \
  CHROMIUM=$chromium node "$here/run.mjs"
