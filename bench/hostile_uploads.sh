#!/usr/bin/env bash
# Issue 27's probes rerun: the bombs of an ordinary signed-in user against a running
# platform (Release build, the demo municipality), each sent as the probe sent it. Prints,
# per bomb, the HTTP answer (and the job's end when one was accepted), the seconds until
# the answer (or the job's end) and the platform process's peak resident memory during
# that bomb (VmHWM, reset before each through /proc/<pid>/clear_refs), besides its
# resident memory before.
#
#   bench/hostile_uploads.sh
#   BENCH_NO_BUILD=1 bench/hostile_uploads.sh    (uses the build as it is)
#
# It starts its own throwaway cluster and server, and removes them at exit.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}

# shellcheck source=bench/lib.sh
source bench/lib.sh
if [[ -z ${BENCH_NO_BUILD:-} ]]; then
  ./scripts/bootstrap >/dev/null
  CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-platform cadastre-admin >/dev/null
fi
build=${CADASTRE_BUILD_DIR:-$here/build}

bench_workspace hostile
start_demo_project "$build" 100
start_platform "$build" 8
pid=$platform_pid
now() { date +%s.%N; }
rss() { awk -v k="$1:" '$1 == k { printf "%d", $2 / 1024 }' "/proc/$pid/status"; }

echo "gerando as bombas..." >&2
cd "$tmp"
# V1: 800 MB of KML in a KMZ of under 1 MB.
python3 - <<'PY'
import zipfile
with zipfile.ZipFile('bomba.kmz', 'w', zipfile.ZIP_DEFLATED) as z:
    with z.open('doc.kml', 'w', force_zip64=True) as f:
        f.write(b'<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>')
        chunk = b' ' * (1 << 20)
        for _ in range(800):
            f.write(chunk)
        f.write(b'</Document></kml>')
PY
# V2: 200 points x 250 fields x 254 characters (the DBF bomb), and the same grown toward
# the upload limit: 5000 records, a 317 MB DBF in a zip of under 1 MB.
for records in 200 5000; do
  python3 - "$records" <<'PY'
import sys
n = int(sys.argv[1])
row = ',' + ','.join(['x' * 254] * 250)
with open('dbf%d.csv' % n, 'w') as out:
    out.write('x,y,' + ','.join('c%d' % i for i in range(250)) + '\n')
    for p in range(n):
        out.write('%f,-22.9%s\n' % (-47 + p * 1e-5, row))
PY
  ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:4674 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y "dbf$records.shp" "dbf$records.csv"
  zip -qj "dbf$records.zip" "dbf$records.shp" "dbf$records.shx" "dbf$records.dbf" "dbf$records.prj"
done
# A DXF block of 2,000 vertices inserted 3,000 times (6 million vertices in 325 KB).
python3 - <<'PY'
import json
line = {'type': 'Feature', 'properties': {'BlockName': 'B'},
        'geometry': {'type': 'LineString', 'coordinates': [[i * 0.01, (i % 2) * 0.01] for i in range(2000)]}}
json.dump({'type': 'FeatureCollection', 'features': [line]}, open('blocks.geojson', 'w'))
pts = [{'type': 'Feature', 'properties': {'BlockName': 'B'},
        'geometry': {'type': 'Point', 'coordinates': [300000 + k, 7400000]}} for k in range(3000)]
json.dump({'type': 'FeatureCollection', 'features': pts}, open('entities.geojson', 'w'))
PY
ogr2ogr -f GPKG blocos.gpkg blocks.geojson -nln blocks
ogr2ogr -update -f GPKG blocos.gpkg entities.geojson -nln entities
ogr2ogr -f DXF blocos.dxf blocos.gpkg
python3 - <<'PY'
s = open('blocos.dxf').read()
s = s.replace('100\nAcDbBlockBegin\n  2\n\n', '100\nAcDbBlockBegin\n  2\nB\n', 1).replace('  3\n\n', '  3\nB\n', 1)
s = s.replace('  0\nPOINT\n', '  0\nINSERT\n').replace('100\nAcDbPoint\n', '100\nAcDbBlockReference\n  2\nB\n')
open('bomba.dxf', 'w').write(s)
PY
# V3: a 10000 x 10000 interlaced PNG (100 MP).
python3 - <<'PY'
import struct, zlib
w = h = 10000
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
z = zlib.compressobj(9)
data = b''
for (x0, y0, dx, dy) in [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]:
    pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
    row = b'\x00' * (1 + pw * 3)
    for y in range(ph): data += z.compress(row)
data += z.flush()
open('bomba.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 1))
                               + chunk(b'IDAT', data) + chunk(b'IEND', b''))
PY
# V4: a sparse 100000 x 100000 GeoTIFF.
gdal_create -of GTiff -outsize 100000 100000 -bands 1 -ot Byte -co SPARSE_OK=TRUE -co TILED=YES -co BIGTIFF=YES \
  -a_srs EPSG:31983 -a_ullr 300000 7500000 400000 7400000 esparso.tif
cd "$here"

printf '%-34s %-44s %9s %12s %12s\n' bomba resposta segundos "RSS antes" "pico (MB)"
probe() {  # name, then curl's arguments; a 202 is followed to the job's end
  local name=$1
  shift
  local before t0 out status t1 answer
  before=$(rss VmRSS)
  echo 5 >"/proc/$pid/clear_refs"
  t0=$(now)
  out=$(curl -sS -o "$tmp/answer" -w '%{http_code}' "${session[@]}" "$@")
  status=$out
  answer=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("codigo") or d.get("estado") or "")' "$tmp/answer" 2>/dev/null || true)
  if [[ $status == 202 ]]; then
    local id
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["idImportacao"])' "$tmp/answer")
    for _ in $(seq 1 3000); do
      answer=$(sql "select estado || ': ' || coalesce(mensagem, '') from projeto.importacoes where id = $id")
      [[ $answer == concluida* || $answer == falhou* || $answer == cancelada* ]] && break
      sleep 0.1
    done
  fi
  t1=$(now)
  printf '%-34s %-44s %9.2f %12s %12s\n' "$name" "$status ${answer:0:40}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$before" "$(rss VmHWM)"
}
q="idProjeto=$DEMO_PROJECT_ID"
probe "V1 KMZ 800 MB em $(($(stat -c %s "$tmp/bomba.kmz") / 1024)) KB" -F "file=@$tmp/bomba.kmz" "$url/importar/kml?codigo=v1&nomeCamada=V1&$q"
probe "V2 DBF 250x254 em $(($(stat -c %s "$tmp/dbf200.zip") / 1024)) KB" -F "file=@$tmp/dbf200.zip" "$url/importar/shp?codigo=v2&nomeCamada=V2&$q"
foto=$(curl -sS "${session[@]}" -F "file=@$tmp/bomba.png" "$url/usuarios/foto" |
  python3 -c 'import json,sys; print(json.load(sys.stdin).get("id", ""))')
probe "V2 DBF 5000x250x254 em $(($(stat -c %s "$tmp/dbf5000.zip") / 1024)) KB" -F "file=@$tmp/dbf5000.zip" "$url/importar/shp?codigo=v2b&nomeCamada=V2b&$q"
probe "DXF: bloco inserido 3000 vezes" -F "file=@$tmp/bomba.dxf" "$url/importar/dxf?codigo=dxf&nomeCamada=DXF&srid=31983&$q"
probe "V3 PNG 100 MP, miniatura" "$url/arquivos/fotos/$foto?miniatura=true"
probe "V3 PNG 100 MP, miniatura (de novo)" "$url/arquivos/fotos/$foto?miniatura=true"
probe "V4 GeoTIFF 100000x100000 esparso" -F "file=@$tmp/esparso.tif" "$url/importar/tiff?nomeCamada=V4&$q"
