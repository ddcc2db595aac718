#!/usr/bin/env bash
# Issue 30's benchmark ("Layer data stored for speed and size"), on the storage as built
# (decision 0023 step 1 and decision 0024: tenant migrations 0035 and 0036): a platform
# layer's data against the floor
# of a table per layer, measured on the demo project (a layer of N lots with a 10-field
# form, a value for every lot and field), in the same tenant database:
#   A  as built: the values in the layer's table camadas.l<L> (one row per geometry with a
#      value, one typed column c_<campo> per field, the field indexes of
#      projeto.coluna_indices: a B-tree (column, id) per field, and per text field a trigram
#      GIN and a text_pattern_ops B-tree on projeto.chave_busca(column)), the geometries in
#      the layer's partition of projeto.geometrias;
#   B  the floor: one table per layer, one row per lot: id, geom and the same typed columns
#      (named and typed as A's), its primary key, a GiST index and the same field indexes;
#   B0 the same table with only its primary key and GiST (B before its field indexes).
# B is built from A's rows (insert ... select, then the indexes; each step timed) in the
# schema bench_storage, and vacuumed with A before anything is measured. (Decision 0023
# also measured a JSONB document per geometry; its numbers stay recorded there.)
#
# It prints:
#   - the disk of each (table, each index, total) and A/B; the issue's target is A <= 2x B.
#     A's table is measured twice: as the demo wrote it (one insert into the table with its
#     field indexes in place, so they grew by insertion, the trigram GINs through their
#     pending list, as when values are written through the routes), and after REINDEX
#     (indexes built after the rows, as an import, migration 0035 and B build them); the
#     workloads run on it reindexed, like for like with B.
#     A's geometries are the layer's partition of projeto.geometrias, camadas.g<L> (tenant
#     migration 0036, decision 0024); the whole projeto.geometrias is shown next to it for
#     reference;
#   - the median ms of each workload on one numeric field (area_terreno), one text field
#     (logradouro) and one list field (uso), and B/A (A's speed as a fraction of the
#     floor's; the target is >= 0.9). A runs the statements the routes run, copied from the
#     stores with the bound values written in: categorisation (layer_styles::categorize),
#     pages and search (values::page_statement, values::search_statement), a geometry's form
#     (values::of_geometry, through projeto.valores_de), a value's write (values::Writer:
#     lock_geometry's lock and read, put's upsert), type conversion (fields::convert_values:
#     the values' read, the retype whose trigger makes the column anew, the rewrite with its
#     audit rows) and a layer's copy (projects::copy_contents as copiar-projeto runs it for
#     one layer with its geometries and values). Statements of a route that are the same
#     whatever the storage and stand alone (the field's and project's locks, a write's audit
#     row and generation bump, the copy's files and events, information_schema reads) are
#     left out of both. B runs the same statements on its table, with what one table per
#     layer changes: no projeto.geometrias (the count of the layer is a count of B's rows,
#     where A reads the number its layer's row keeps, tenant migration 0039; a form reads
#     B's row without projeto.valores_de; a write locks and reads B's row in one statement,
#     where A locks the geometry's row and then reads the values'; a page needs no second pass for
#     geometries without a value), a conversion's DDL
#     written out (A's comes from the trigger on projeto.campos), and a copy that loads the
#     new table bare and then indexes it (A's copy does the same with its two tables, the
#     layer's partition and its values table). Each workload's SQL is a heredoc below, A and B side by
#     side. Everything runs in pgbench (one connection, every transaction's latency
#     logged), A and B taking turns so that whatever else the machine runs falls on both
#     alike: reads and single-value writes in BENCH_SECONDS rounds of 1 s each, the heavy
#     ones (type conversion, layer copy) in BENCH_RUNS rounds of one run; writes are rolled
#     back and the tables they touched vacuumed after each turn. The deterministic reads
#     (categories, pages, search, the form of one lot, the conversion's read) are first run
#     once in psql and their answers compared between A and B; after the measurement the
#     conversion and the copy run once more, checking before their rollback that they wrote
#     what they should (every value converted; every geometry and value copied).
#
#   bench/storage.sh [lots=100000]
#   BENCH_NO_BUILD=1 bench/storage.sh 10000      (uses the build as it is)
#   CADASTRE_BUILD_DIR=build CADASTRE_BUILD_TYPE=Check BENCH_NO_BUILD=1 bench/storage.sh
#   BENCH_SECONDS=3 BENCH_RUNS=3                  (the defaults)
#   BENCH_SQL_DIR=/tmp/cargas bench/storage.sh    (keeps each workload's SQL and the reads' plans)
#
# It starts its own throwaway cluster and removes it at exit. On 2 CPUs: about 45 s at
# 10,000 lots with BENCH_SECONDS=1 BENCH_RUNS=1; 3.5 to 4.5 minutes at 100,000 lots with the
# defaults (the conversion and the copy take 5-10 s a run there).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
# Optimised code, in a build folder of its own (the README's commands build Check in build/).
export CADASTRE_BUILD_TYPE=${CADASTRE_BUILD_TYPE:-Release} CADASTRE_BUILD_DIR=${CADASTRE_BUILD_DIR:-$here/build-release}
lots=${1:-100000}
secs=${BENCH_SECONDS:-3}
runs=${BENCH_RUNS:-3}
if ! [[ $lots =~ ^[0-9]+$ ]] || ((lots < 1000 || lots > 1000000)); then
  echo "uso: bench/storage.sh [lotes=100000] (entre 1000 e 1000000)" >&2
  exit 2
fi
for tool in psql pgbench; do
  command -v "$tool" >/dev/null || { echo "$(basename "$0"): $tool não encontrado (instale postgresql-client-15)" >&2; exit 1; }
done

# shellcheck source=bench/lib.sh
source bench/lib.sh
if [[ -z ${BENCH_NO_BUILD:-} ]]; then
  ./scripts/bootstrap >/dev/null
  CADASTRE_BUILD_PYTHON=OFF ./scripts/build cadastre-admin >/dev/null
fi
build=${CADASTRE_BUILD_DIR:-$here/build}
[[ -x $build/apps/cadastre-admin/cadastre-admin ]] ||
  { echo "$(basename "$0"): $build/apps/cadastre-admin/cadastre-admin não existe (compile-o ou defina CADASTRE_BUILD_DIR)" >&2; exit 1; }

bench_workspace storage
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start_demo_project "$build" "$lots"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
run_sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$tenant_dsn" "$@"; }  # the statements on stdin
say() { echo "$*" >&2; }

# ---------------------------------------------------------------------------------------
# The layer, its table and its fields.
L=$DEMO_PROJECT_LAYER_ID
LT=camadas.l$L            # A's table of the layer's values
read -r gmin gmax n_geom < <(sql "select min(id), max(id), count(*) from projeto.geometrias where camada_id = $L" | tr '|' ' ')
read -r P user_id < <(sql "select projeto_id, coalesce(criado_por, 1) from projeto.camadas where id = $L" | tr '|' ' ')
n_all_geom=$(sql "select count(*) from projeto.geometrias")
[[ -n $(sql "select to_regclass('$LT')") ]] || { say "a camada $L não tem a tabela $LT (migração 0035?)"; exit 1; }
# The fields as common::layer_fields lists them (form order, then field order): id, chave,
# tipo, posicao and the SQL type of the column (projeto.tipo_coluna).
declare -A field_id field_pos field_type keys_by_id
ids=() keys=()
while IFS='|' read -r id key _ posicao type; do
  field_id[$key]=$id field_pos[$id]=$posicao field_type[$id]=$type keys_by_id[$id]=$key
  ids+=("$id") keys+=("$key")
done < <(sql "select k.id, k.chave, k.tipo, k.posicao, projeto.tipo_coluna(k.tipo) from projeto.campos k
              join projeto.formularios f on f.id = k.formulario_id where f.camada_id = $L order by f.ordem, f.id, k.ordem, k.id")
for key in area_terreno logradouro uso; do
  [[ -n ${field_id[$key]:-} ]] || { say "a camada da demonstração não tem o campo $key"; exit 1; }
done
K_NUM=${field_id[area_terreno]} K_TXT=${field_id[logradouro]} K_LISTA=${field_id[uso]}
[[ ${field_type[$K_NUM]} == numeric && ${field_type[$K_TXT]} == text ]] ||
  { say "area_terreno deve ser numérico e logradouro texto"; exit 1; }
mapfile -t ids_by_id < <(printf '%s\n' "${ids[@]}" | sort -n)  # the Writer's and the copy's order
deep=$((n_geom / 2))  # the deep page's offset
term='sao jose'       # "Rua São José, ..." in an eighth of the lots
mid=$(((gmin + gmax) / 2))  # the lot whose form the answers compare
VID=4503599627370496  # common::kValueIdBase: value ids are VID + geometry * 1024 + posicao
value_id_sql() { echo "($VID + ($1) * 1024 + ($2))"; }  # common::value_id_sql

# What the statements need per field:
#   b_columns   c_1 text, c_2 numeric, ...  (B's columns: A's names and types)
#   col_list    c_1, c_2, ...; col_from_l: l.c_1, l.c_2, ...
#   values_object ALIAS: common::values_object_sql over every field (a row's {chave: value})
# field_indexes TABLE PREFIX ID...: projeto.coluna_indices' indexes of those fields on TABLE.
b_columns='' col_list='' col_from_l=''
for id in "${ids[@]}"; do
  sep=${b_columns:+, }
  b_columns+="${sep}c_$id ${field_type[$id]}" col_list+="${sep}c_$id" col_from_l+="${sep}l.c_$id"
done
values_object() {
  local i out="jsonb_strip_nulls("
  for i in "${!ids[@]}"; do
    if ((i % 50 == 0)); then
      if ((i)); then out+=") || jsonb_build_object("; else out+="jsonb_build_object("; fi
    else
      out+=", "
    fi
    out+="'${keys[$i]}', $1.c_${ids[$i]}"
  done
  echo "$out))"
}
field_indexes() {
  local table=$1 prefix=$2 id
  shift 2
  for id in "$@"; do
    echo "create index ${prefix}_c_${id}_idx on $table (c_$id, id);"
    if [[ ${field_type[$id]} == text ]]; then
      echo "create index ${prefix}_c_${id}_busca_idx on $table using gin (projeto.chave_busca(c_$id) gin_trgm_ops);"
      echo "create index ${prefix}_c_${id}_prefixo_idx on $table (projeto.chave_busca(c_$id) text_pattern_ops);"
    fi
  done
}

# ---------------------------------------------------------------------------------------
# Building B0/B (each step timed; B0 is B before its field indexes). A's geometries are
# the layer's partition of projeto.geometrias, camadas.g<L> (tenant migration 0036).
say "construindo B a partir de $LT e projeto.geometrias ($n_geom geometrias)..."
run_sql <<SQL
set client_min_messages = warning;
drop schema if exists bench_storage cascade;
create schema bench_storage;
SQL
AG=camadas.g$L
geom_type=$(sql "select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'projeto.geometrias'::regclass and attname = 'geom'")

t=$(now)
run_sql <<SQL
create table bench_storage.b (id bigint not null, geom $geom_type not null, $b_columns);
-- One row per geometry: its geometry and its row of the layer's table (none: NULLs).
insert into bench_storage.b (id, geom, $col_list)
select g.id, g.geom, $col_from_l
  from projeto.geometrias g left join $LT l on l.id = g.id
 where g.camada_id = $L order by g.id;
SQL
b_load=$(since "$t")
t=$(now)
run_sql <<SQL
alter table bench_storage.b add primary key (id);
create index b_geom_idx on bench_storage.b using gist (geom);
SQL
b_base=$(since "$t")
t=$(now)
run_sql <<<"vacuum analyze bench_storage.b"
b_vacuum=$(since "$t")

size_rows() {  # relation → "table indexes total" in bytes
  sql "select pg_table_size('$1'), pg_indexes_size('$1'), pg_total_relation_size('$1')" | tr '|' ' '
}
index_rows() {  # relation → "label|bytes" lines, largest first; a field's index by its chave
  local name def bytes id label
  while IFS='|' read -r name def bytes; do
    label=${name##*.}
    if [[ $def =~ c_([0-9]+) ]]; then
      id=${BASH_REMATCH[1]}
      label=${keys_by_id[$id]:-c_$id}
      if [[ $def == *gin_trgm_ops* ]]; then label+=" trgm"; elif [[ $def == *text_pattern_ops* ]]; then label+=" prefixo"; fi
    fi
    echo "$label|$bytes"
  done < <(sql "select i.indexrelid::regclass, pg_get_indexdef(i.indexrelid), pg_relation_size(i.indexrelid) from pg_index i
                 where i.indrelid = '$1'::regclass order by 3 desc, 1")
}
read -r b0_table b0_idx b0_total < <(size_rows bench_storage.b)

t=$(now)
field_indexes bench_storage.b b "${ids[@]}" | run_sql
b_fields=$(since "$t")
t=$(now)
run_sql <<<"vacuum analyze bench_storage.b"
b_vacuum=$(awk -v a="$b_vacuum" -v b="$(since "$t")" 'BEGIN { printf "%.2f", a + b }')
run_sql <<<"vacuum analyze $LT; vacuum analyze $AG; vacuum analyze projeto.geometrias; vacuum analyze projeto.campos"

# The disk, now (before the workloads: their rolled-back writes leave index pages behind).
read -r av_table av_idx av_total < <(size_rows "$LT")
read -r ag_table ag_idx ag_total < <(size_rows $AG)
read -r pg_table pg_idx pg_total < <(sql "select sum(pg_table_size(relid)), sum(pg_indexes_size(relid)),
  sum(pg_total_relation_size(relid)) from pg_partition_tree('projeto.geometrias')" | tr '|' ' ')
read -r b_table b_idx b_total < <(size_rows bench_storage.b)
a_table=$((av_table + ag_table)) a_idx=$((av_idx + ag_idx)) a_total=$((av_total + ag_total))
a_indexes_filled=$(index_rows "$LT" | awk -F'|' '{ printf "%s%s %.1f", (NR > 1 ? ", " : ""), $1, $2 / 1048576 }')
# The demo wrote the layer's rows into its table with the field indexes in place, so they
# grew by insertion (the trigram GINs through their pending list), as a layer whose values
# are written through the routes; an import and migration 0035 build them after the rows,
# as B's are. A's table is measured both ways and the workloads run on it reindexed (like
# for like with B). The geometries stay as inserted (the demo inserts them into the
# attached partition, indexes in place).
t=$(now)
run_sql <<<"reindex table $LT; vacuum analyze $LT"
a_reindex=$(since "$t")
read -r ar_table ar_idx ar_total < <(size_rows "$LT")
r_table=$((ar_table + ag_table)) r_idx=$((ar_idx + ag_idx)) r_total=$((ar_total + ag_total))
indexes_mb=$(echo "  $LT, como gravados: $a_indexes_filled"
for rel in "$LT" $AG bench_storage.b; do
  echo "  $rel$([[ $rel == "$LT" ]] && echo ", refeitos"): $(index_rows "$rel" | awk -F'|' '{ printf "%s%s %.1f", (NR > 1 ? ", " : ""), $1, $2 / 1048576 }')"
done)
# What the geometries themselves take in B's heap.
b_geom=$(sql "select sum(pg_column_size(geom)) from bench_storage.b")

# The same rows and values in B as in A.
nonnull="num_nonnulls($col_list)"
check=$(sql "select (select count(*) from bench_storage.b) || ' ' || (select count(*) from $AG)
             || ' ' || (select count(*) from $LT) || ' ' || (select coalesce(sum($nonnull), 0) from $LT)
             || ' ' || (select coalesce(sum($nonnull), 0) from bench_storage.b)")
read -r b_rows ag_rows a_rows a_values b_values <<<"$check"
[[ $b_rows == "$n_geom" && $ag_rows == "$n_geom" && $b_values == "$a_values" ]] ||
  { say "B não tem as linhas de A: $check (esperado $n_geom $n_geom - $a_values $a_values)"; exit 1; }

# ---------------------------------------------------------------------------------------
# The workloads: one file per workload and candidate (A, B), pgbench's syntax (\set for
# random ids, \gset for what a route passes from one statement to the next; everything
# else plain SQL, the bound values written in).
w=$tmp/cargas
mkdir -p "$w" "$tmp/pgb"
B=bench_storage.b
A_COUNT="(select t.total_geometrias from projeto.camadas t where t.id = $L::bigint)"  # the layer's geometries, kept (0039)
B_COUNT="(select count(*) from $B)"

# 1-3. Categorise (POST /camadas/categorizar, layer_styles::categorize): the field's column
#    of the layer's table (an index-only scan of its (c_k, id) index); the geometries
#    without a value are the layer's count less those with one. One statement; the route
#    then stores the classes in projeto.camadas (the same for both: left out).
#    $1 the table, $2 the column, $3 the count of the layer's geometries.
#  - a text or list field ("valores"): the 50 most frequent values, the rest as "outros";
categorise_values() {
  cat <<SQL
with c as (select $2::text as valor, count(*) as n from $1 where $2 is not null group by 1), r as (select valor, n, row_number() over (order by n desc, valor) as i from c) select 'v', valor, n::text, i::text from r where i <= 50 union all select 'o', null, sum(n)::text, null from r where i > 50 having count(*) > 0 union all select 's', null, ($3 - coalesce((select sum(n) from c), 0))::text, null;
SQL
}
#  - a numeric field ("intervalos"): 5 equal intervals between min and max, width_bucket.
categorise_intervals() {
  cat <<SQL
with v as (select $2 as x from $1 where $2 is not null), b as (select min(x) as lo, max(x) as hi, case when min(x) = max(x) then 1 else 5 end as k from v), h as (select case when b.k = 1 then 1 else least(width_bucket(x, b.lo, b.hi, b.k), b.k) end as classe, count(*) as n from v, b group by 1) select 'v', (b.lo + (b.hi - b.lo) * (s.i - 1) / b.k)::float8::text, (b.lo + (b.hi - b.lo) * s.i / b.k)::float8::text, coalesce(h.n, 0)::text, s.i::text from b cross join generate_series(1, b.k) s(i) left join h on h.classe = s.i where b.lo is not null union all select 's', null, null, ($3 - (select count(*) from v))::text, null;
SQL
}
categorise_values "$LT" "c_$K_LISTA" "$A_COUNT" >"$w/cat_lista.A.sql"
categorise_values "$B" "c_$K_LISTA" "$B_COUNT" >"$w/cat_lista.B.sql"
categorise_values "$LT" "c_$K_TXT" "$A_COUNT" >"$w/cat_texto.A.sql"
categorise_values "$B" "c_$K_TXT" "$B_COUNT" >"$w/cat_texto.B.sql"
categorise_intervals "$LT" "c_$K_NUM" "$A_COUNT" >"$w/cat_numero.A.sql"
categorise_intervals "$B" "c_$K_NUM" "$B_COUNT" >"$w/cat_numero.B.sql"

# 4. A page of 100 geometries ordered by a field, with all their values (GET
#    /valores/camada/:id/pg?orderBy=<chave>, values::page_statement): the first page and a
#    deep one (offset = half the layer). A: the geometries with a value in the column's
#    index order, then those without one from projeto.geometrias; B: its rows in the
#    column's order, NULLs last (the same order).
page_a() {  # field offset
  local col=c_$1 type=${field_type[$1]}
  cat <<SQL
with ordem as (select l.id as gid, l.$col as chave from $LT l where l.$col is not null order by l.$col asc, l.id asc limit 100 offset $2), com as (select gid, chave as chave_ordem, gid as desempate, 0 as parte from ordem), sem as (select g.id as gid, null::$type as chave_ordem, g.id as desempate, 1 as parte from projeto.geometrias g where g.camada_id = $L::bigint and not exists (select 1 from $LT x where x.id = g.id and x.$col is not null offset 0) order by g.id asc limit (case when (select count(*) from com) >= 100 then 0 else 100 - (select count(*) from com) end) offset (case when (select count(*) from com) > 0 then 0 else greatest(0, $2 - (select count(*) from $LT n where n.$col is not null)) end)) select $A_COUNT::text, coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores', coalesce((select $(values_object v) from $LT v where v.id = p.gid), '{}')) order by p.parte, p.chave_ordem asc, p.desempate asc), '[]')::text from (select * from com union all select * from sem limit 100) p;
SQL
}
page_b() {  # field offset
  local col=c_$1
  cat <<SQL
with ordem as (select b.id from $B b order by b.$col asc nulls last, b.id asc limit 100 offset $2) select $B_COUNT::text, coalesce(json_agg(json_build_object('idGeometria', v.id, 'valores', $(values_object v)) order by v.$col asc nulls last, v.id asc), '[]')::text from ordem o join $B v on v.id = o.id;
SQL
}
for p in "pag_numero_1 $K_NUM 0" "pag_numero_fundo $K_NUM $deep" "pag_texto_1 $K_TXT 0" "pag_texto_fundo $K_TXT $deep"; do
  read -r name field offset <<<"$p"
  page_a "$field" "$offset" >"$w/$name.A.sql"
  page_b "$field" "$offset" >"$w/$name.B.sql"
done

# 5. Accent-insensitive search within one field (GET /valores/search?campoId=<logradouro>
#    &termo=sao jose&pageSize=20, values::search_statement): the count and the first page,
#    through the trigram index on projeto.chave_busca(c_k); each value's id and who wrote
#    it last (projeto.valor_atualizacao). $1: the table.
search_sql() {
  cat <<SQL
with achados as (select l.id as gid, l.c_$K_TXT as texto from $1 l where projeto.chave_busca(l.c_$K_TXT) like '%' || projeto.chave_busca('$term'::text) || '%') select (select count(*) from achados)::text, coalesce((select json_agg(json_build_object('id', $(value_id_sql p.gid "${field_pos[$K_TXT]}"), 'idGeometria', p.gid, 'idCampo', $K_TXT, 'valor', p.texto, 'atualizadoPor', au.por, 'atualizadoEm', au.em) order by p.texto, p.gid) from (select * from achados order by texto, gid limit 20 offset 0) p cross join lateral projeto.valor_atualizacao(p.gid, $K_TXT) au), '[]')::text;
SQL
}
search_sql "$LT" >"$w/busca.A.sql"
search_sql "$B" >"$w/busca.B.sql"

# 6. One geometry's whole form (GET /valores/geometria/:id, values::of_geometry): every
#    value with its field's chave, nome and tipo and who wrote it last, in form and field
#    order; a random lot. A: projeto.valores_de (the geometry's layer from
#    projeto.geometrias, then its row of the layer's table); B: its row unpivoted.
form_sql() {  # the rows (campo_id, valor) of geometry gg.gid
  cat <<SQL
\set gid random($gmin, $gmax)
select (select coalesce(jsonb_agg(jsonb_build_object('id', $(value_id_sql gg.gid k.posicao), 'idGeometria', gg.gid, 'idCampo', k.id, 'valor', v.valor, 'atualizadoPor', au.por, 'atualizadoEm', au.em) || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo) order by f.ordem, f.id, k.ordem, k.id), '[]') from (select :gid::bigint as gid) gg cross join lateral $1 v join projeto.campos k on k.id = v.campo_id join projeto.formularios f on f.id = k.formulario_id cross join lateral projeto.valor_atualizacao(gg.gid, k.id) au)::text;
SQL
}
form_sql "projeto.valores_de(gg.gid)" >"$w/ficha.A.sql"
unpivot=$(for id in "${ids[@]}"; do printf '%s(%s::bigint, to_jsonb(l.c_%s))' "${sep_u:-}" "$id" "$id"; sep_u=', '; done)
form_sql "(select u.campo_id, u.valor from $B l cross join lateral (values $unpivot) u(campo_id, valor) where l.id = gg.gid and u.valor is not null)" >"$w/ficha.B.sql"

# 7. Change one value of one geometry (PUT /valores/:id, values::Writer; rolled back): lock
#    the geometry and read its values (lock_geometry), write the value (put). A: the row of
#    projeto.geometrias locked, then the layer table's row read (after the lock, so that a
#    wait for a concurrent writer reads what it wrote), then its update (the row exists:
#    every lot has values; a geometry without one gets an insert); B: its row, locked and
#    read in one statement, then an update. (put's audit row, the generation
#    bump and the answer's read are the same for both: left out.)
update_files() {  # name field new-value-expression
  local col=c_$2 reads
  reads=$(for id in "${ids_by_id[@]}"; do printf '%sc_%s::text' "${sep_r:-}" "$id"; sep_r=', '; done)
  cat >"$w/$1.A.sql" <<SQL
\set gid random($gmin, $gmax)
\set v random(15000, 100000)
begin;
select 1 from projeto.geometrias where id = :gid::bigint and camada_id = $L::bigint for no key update;
select 1, $reads from $LT where id = :gid::bigint;
update $LT set $col = $3 where id = :gid::bigint returning $col::text;
rollback;
SQL
  cat >"$w/$1.B.sql" <<SQL
\set gid random($gmin, $gmax)
\set v random(15000, 100000)
begin;
select $reads from $B where id = :gid::bigint for no key update;
update $B set $col = $3 where id = :gid::bigint returning $col::text;
rollback;
SQL
}
update_files alterar_numero "$K_NUM" "(:v / 100.0)::numeric"
update_files alterar_texto "$K_TXT" "('Rua Nova, ' || :v)::text"

# 8. Type conversion, dry run (GET /campos/:id/converter?tipo=decimal on logradouro,
#    fields::convert_values without confirmar): the field's values read by geometry with
#    their ids (fields' values_of); the route then parses them in C++ (left out).
read_values() {  # table field [for update]
  echo "select $(value_id_sql l.id k.posicao)::text, l.id::text, l.c_$2::text from $1 l join projeto.campos k on k.id = $2::bigint where l.c_$2 is not null order by l.id${3:+ for update of l};"
}
read_values "$LT" "$K_TXT" >"$w/conv_teste.A.sql"
read_values "$B" "$K_TXT" >"$w/conv_teste.B.sql"

# 9. Type conversion, applied (area_terreno decimal -> texto, every value succeeds; rolled
#    back; fields::convert_values with confirmar): the values read and locked, the field
#    retyped, the values rewritten with an audit row each (rewrite_values: the plan's
#    arrays, written in here as the route binds them). A's retype is the route's update of
#    projeto.campos, whose trigger drops the column and adds it anew (empty, text) with its
#    indexes (projeto.coluna_criar); B runs that DDL on its table. (The field's lock and the
#    generation bump, the same for both: left out.)
rewrite=$(sql "select format('with n as (select * from unnest(%L::bigint[], %L::bigint[], %L::text[], %L::text[], %L::text[]) as n(id, geometria, valor, antes, depois)), u as (update @T@ l set c_$K_NUM = n.valor::text from n where l.id = n.geometria returning n.id, l.id as geometria, n.antes, n.depois) insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, antes, depois, usuario_id) select id, geometria, $K_NUM, ''converter'', antes::jsonb, depois::jsonb, $user_id from u;',
                 array_agg($(value_id_sql l.id k.posicao) order by l.id), array_agg(l.id order by l.id),
                 array_agg(l.c_$K_NUM::text order by l.id), array_agg(to_jsonb(l.c_$K_NUM)::text order by l.id),
                 array_agg(to_jsonb(l.c_$K_NUM::text)::text order by l.id))
               from $LT l join projeto.campos k on k.id = $K_NUM where l.c_$K_NUM is not null")
{
  echo "begin;"
  read_values "$LT" "$K_NUM" update
  echo "update projeto.campos set tipo = 'texto', minimo = null, maximo = null, padrao = null, opcoes = null, unico = false, dominio = null, formula = null, atualizado_em = now() where id = $K_NUM::bigint;"
  echo "${rewrite//@T@/$LT}"
  echo "rollback;"
} >"$w/conv_aplicar.A.sql"
{
  echo "begin;"
  read_values "$B" "$K_NUM" update
  echo "alter table $B drop column c_$K_NUM;"
  echo "alter table $B add column c_$K_NUM text;"
  numeric_type=${field_type[$K_NUM]}
  field_type[$K_NUM]=text
  field_indexes "$B" bt "$K_NUM"
  field_type[$K_NUM]=$numeric_type
  echo "${rewrite//@T@/$B}"
  echo "rollback;"
} >"$w/conv_aplicar.B.sql"
grep -q "create index bt_c_${K_NUM}_busca_idx" "$w/conv_aplicar.B.sql" ||
  { say "conv_aplicar.B.sql: faltam os índices de texto"; exit 1; }

# 10. Copy the layer with its geometries and values (POST /projetos/:id/copiar with
#    geometrias and valores, projects::copy_project and copy_contents, for one layer;
#    rolled back): a new project, then copy_contents' three statements, built from the
#    tables' own column lists as the route builds them: (1) the layer and its form (the
#    layer's trigger creates its values table and its partition, bare:
#    cadastre.indices_depois), (2) its fields (each field's trigger adds its column, bare),
#    the styles' field ids remapped, (3) the geometries into the new layer's partition,
#    their labels, and the values from the old table into the new one, then (4) the
#    partition attached (its key, GiST, id ranges and count) and the new columns indexed
#    (projeto.camada_anexar, projeto.camada_indices).
#    Each statement's maps go to the next through \gset, as the route passes them; one
#    small select stands for the C++ that reads the new ids from them. B runs the project
#    and the first two statements alike (the same layer, form and fields), then makes the
#    new layer's table bare, loads it, and builds its primary key, GiST and field indexes.
declare -A table_columns
for table in camadas formularios camadas_adicionais campos geometrias rotulos_geometria; do
  table_columns[$table]=$(sql "select string_agg(column_name::text, ' ' order by ordinal_position) from information_schema.columns
                              where table_schema = 'projeto' and is_generated = 'NEVER' and table_name = '$table'")
  [[ -n ${table_columns[$table]} ]] || { say "tabela desconhecida: projeto.$table"; exit 1; }
done
copy_insert() {  # table alias from [column=expression]... (an empty expression: left out) — store_copy's insert()
  local table=$1 alias=$2 from=$3 c cols='' exprs='' kv
  shift 3
  local -A o=()
  for kv in "$@"; do o[${kv%%=*}]=${kv#*=}; done
  for c in ${table_columns[$table]}; do
    if [[ -v o[$c] && -z ${o[$c]} ]]; then continue; fi
    cols+="${cols:+, }$c"
    if [[ -v o[$c] ]]; then exprs+="${exprs:+, }${o[$c]}"; else exprs+="${exprs:+, }$alias.$c"; fi
  done
  echo "insert into projeto.$table ($cols) select $exprs $from returning 1"
}
copy_head=$(cat <<SQL
begin;
set local statement_timeout = '300s';
select set_config('cadastre.indices_depois', 'on', true);
insert into projeto.projetos (nome, descricao, tipo, notas, criado_por) select 'Cópia (bench)'::text, descricao, tipo, notas, $user_id from projeto.projetos where id = $P returning id::text as para \gset
with src_c as materialized (select c.* from projeto.camadas c where c.projeto_id = $P and (c.id = $L)), map_c as materialized (select id as old, nextval('projeto.camadas_id_seq') as new from src_c), ins_c as ($(copy_insert camadas c "from src_c c join map_c m on m.old = c.id" id=m.new projeto_id=:para geracao=1 total_geometrias=0 "criado_por=$user_id" "criado_em=now()" "atualizado_em=now()")), src_f as materialized (select f.* from projeto.formularios f join map_c m on m.old = f.camada_id), map_f as materialized (select id as old, nextval('projeto.formularios_id_seq') as new from src_f), ins_f as ($(copy_insert formularios f "from src_f f join map_f m on m.old = f.id join map_c mc on mc.old = f.camada_id" id=m.new camada_id=mc.new "criado_em=now()" "atualizado_em=now()")), ins_a as ($(copy_insert camadas_adicionais a "from projeto.camadas_adicionais a where a.projeto_id = $P" id= projeto_id=:para)) select concat_ws(',', (select count(*) from ins_c), (select count(*) from ins_f)) as contagem1, (select coalesce(jsonb_agg(jsonb_build_array(m.old, m.new, mc.old, mc.new)), '[]') from map_f m join src_f f on f.id = m.old join map_c mc on mc.old = f.camada_id)::text as mapa_f, (select coalesce(jsonb_agg(jsonb_build_array(m.old, m.new, c.arquivo) order by m.old), '[]') from map_c m join src_c c on c.id = m.old)::text as copias \gset
with map_f as materialized (select (e->>0)::bigint as old, (e->>1)::bigint as new, (e->>2)::bigint as old_c, (e->>3)::bigint as new_c from jsonb_array_elements(':mapa_f'::jsonb) e), src_k as materialized (select k.* from projeto.campos k join map_f m on m.old = k.formulario_id), map_k as materialized (select id as old, nextval('projeto.campos_id_seq') as new from src_k), ins_k as ($(copy_insert campos k "from src_k k join map_k m on m.old = k.id join map_f mf on mf.old = k.formulario_id" id=m.new formulario_id=mf.new "criado_em=now()" "atualizado_em=now()")) select (select count(*) from ins_k)::text as contagem2, (select coalesce(jsonb_object_agg(old::text, new), '{}') from map_k)::text as mapa_k, (select coalesce(jsonb_agg(jsonb_build_array(mf.old_c, mf.new_c, m.old, m.new, k.tipo) order by mf.old_c, m.old), '[]') from map_k m join src_k k on k.id = m.old join map_f mf on mf.old = k.formulario_id)::text as campos \gset
select set_config('cadastre.indices_depois', 'off', true);
update projeto.camadas c set rotulo = c.rotulo || case when jsonb_typeof(c.rotulo->'campos') = 'array' then jsonb_build_object('campos', coalesce((select jsonb_agg(case when m.d ? (e->>'id') then jsonb_set(e, '{id}', m.d->(e->>'id')) else e end order by i) from jsonb_array_elements(c.rotulo->'campos') with ordinality x(e, i)), '[]')) else '{}' end || case when jsonb_typeof(c.rotulo->'rotacao') = 'object' then jsonb_build_object('rotacao', (select case when m.d ? (e->>'id') then jsonb_set(e, '{id}', m.d->(e->>'id')) else e end from (select c.rotulo->'rotacao' as e) y)) else '{}' end, categorias = case when m.d ? (c.categorias->>'idCampo') then jsonb_set(c.categorias, '{idCampo}', m.d->(c.categorias->>'idCampo')) else c.categorias end from (select ':mapa_k'::jsonb as d) m where c.projeto_id = :para and (c.rotulo is not null or c.categorias is not null);
SQL
)
# The C++ between the statements: the new layer, [[old, new]] of the layers, and the new
# field of each old one (the columns of the values' insert).
new_ids=$(for i in "${!ids_by_id[@]}"; do printf ", (':mapa_k'::jsonb->>'%s') as k%s" "${ids_by_id[$i]}" "$i"; done)
new_cols='' old_cols=''
for i in "${!ids_by_id[@]}"; do
  new_cols+="${new_cols:+, }c_:k$i" old_cols+=", l.c_${ids_by_id[$i]}"
done
cat >"$w/copiar.A.sql" <<SQL
$copy_head
select (':copias'::jsonb->0->>1) as nova, (select jsonb_agg(jsonb_build_array(e->0, e->1)) from jsonb_array_elements(':copias'::jsonb) e)::text as mapa_c$new_ids \gset
with map_c as materialized (select (e->>0)::bigint as old, (e->>1)::bigint as new from jsonb_array_elements(':mapa_c'::jsonb) e), map_k as materialized (select key::bigint as old, value::bigint as new from jsonb_each_text(':mapa_k'::jsonb)), map_g as materialized (select id as old, nextval('projeto.geometrias_id_seq') as new from (select g.id, g.camada_id from projeto.geometrias g join map_c m on m.old = g.camada_id where g.camada_id = any('{$L}'::bigint[]) order by g.camada_id, g.id) o), ins_g0 as ($(copy_insert geometrias g "from projeto.geometrias g join map_g m on m.old = g.id left join map_g mv on mv.old = g.vinculo_id where g.camada_id = $L" id=m.new camada_id=:nova vinculo_id=mv.new | sed 's/^insert into projeto.geometrias /insert into camadas.g:nova /')), ins_l as ($(copy_insert rotulos_geometria l "from projeto.rotulos_geometria l join map_g mg on mg.old = l.geometria_id left join map_k mk on mk.old = l.campo_rotacao_id" geometria_id=mg.new campo_rotacao_id=mk.new)), ins_v0 as (insert into camadas.l:nova (id, $new_cols) select mg.new$old_cols from $LT l join map_g mg on mg.old = l.id returning (num_nonnulls($new_cols)) as n) select concat_ws(',', 0 + (select count(*) from ins_g0), 0 + (select coalesce(sum(n), 0) from ins_v0));
select projeto.camada_anexar(x)::text from unnest('{:nova}'::bigint[]) x;
select sum(projeto.camada_indices(x))::text from unnest('{:nova}'::bigint[]) x;
rollback;
SQL
cat >"$w/copiar.B.sql" <<SQL
$copy_head
create table bench_storage.bc (like $B);
insert into bench_storage.bc (id, geom, $col_list) select nextval('projeto.geometrias_id_seq'), b.geom, ${col_list//c_/b.c_} from $B b order by b.id;
alter table bench_storage.bc add primary key (id);
create index bc_geom_idx on bench_storage.bc using gist (geom);
$(field_indexes bench_storage.bc bc "${ids[@]}")
rollback;
SQL

# name|description|how (T: pgbench for BENCH_SECONDS; R: BENCH_RUNS runs, a vacuum between)|check
# (igual: the answers of A and B must be the same; -: none)
workloads=(
  "cat_lista|categorizar lista (uso, $(sql "select count(distinct c_$K_LISTA) from $LT") valores)|T|igual"
  "cat_texto|categorizar texto (logradouro, $(sql "select count(distinct c_$K_TXT) from $LT") valores)|T|igual"
  "cat_numero|categorizar número (área, 5 intervalos)|T|igual"
  "pag_numero_1|página de 100 por área, a primeira|T|igual"
  "pag_numero_fundo|página de 100 por área, offset $deep|T|igual"
  "pag_texto_1|página de 100 por logradouro, a primeira|T|igual"
  "pag_texto_fundo|página de 100 por logradouro, offset $deep|T|igual"
  "busca|busca '$term' em logradouro (20 e total)|T|igual"
  "ficha|ficha de uma geometria (${#ids[@]} campos)|T|igual"
  "alterar_numero|alterar um valor numérico (rollback)|T|-"
  "alterar_texto|alterar um valor de texto (rollback)|T|-"
  "conv_teste|converter texto→número, simulação (a leitura)|T|igual"
  "conv_aplicar|converter área decimal→texto (rollback)|R|-"
  "copiar|copiar a camada (rollback)|R|-"
)

# The tables a candidate's writes leave dead tuples in (vacuumed after its turns).
vacuum_of() {
  local common="vacuum projeto.valores_auditoria; vacuum projeto.campos; vacuum projeto.camadas; vacuum projeto.formularios; vacuum projeto.projetos"
  case $1 in
    A) run_sql <<<"vacuum $LT; vacuum projeto.geometrias; $common" ;;
    B) run_sql <<<"vacuum $B; $common" ;;
  esac
}
median_ms() {  # microseconds on stdin, one a line → the median in ms
  sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) { print "nan"; exit }
    m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f\n", m / 1000 }'
}
pgb() {  # log-prefix pgbench-args... → appends every transaction's latency (µs) to <log-prefix>.lat
  local prefix=$1
  shift
  rm -f "$prefix".[0-9]*
  if ! pgbench -n -c 1 -j 1 -l --log-prefix="$prefix" "$@" "$tenant_dsn" >"$prefix.out" 2>&1 ||
    grep -q "aborted\|ERROR\|error:" "$prefix.out"; then
    say "pgbench falhou ($*):"
    cat "$prefix.out" >&2
    exit 1
  fi
  cat "$prefix".[0-9]* | awk '{ print $3 }' >>"$prefix.lat"
}
# measure NAME HOW: A and B in turns, so that whatever else the machine runs meanwhile
# falls on both alike. T: BENCH_SECONDS rounds of 1 s of pgbench each (after two warm-up
# transactions); R: BENCH_RUNS rounds of one transaction each. A candidate that writes is
# vacuumed after its turn. Sets result[NAME,c] (median ms) and samples[NAME,c].
declare -A result samples
measure() {
  local c r prefix
  for c in A B; do rm -f "$tmp/pgb/$1.$c".*; done
  if [[ $2 == T ]]; then
    for c in A B; do pgb "$tmp/pgb/$1.$c.aquece" -t 2 -f "$w/$1.$c.sql"; done
  fi
  local rounds=$runs
  if [[ $2 == T ]]; then rounds=$secs; fi
  for ((r = 0; r < rounds; r++)); do
    for c in A B; do
      prefix=$tmp/pgb/$1.$c
      if [[ $2 == T ]]; then pgb "$prefix" -T 1 -f "$w/$1.$c.sql"; else pgb "$prefix" -t 1 -f "$w/$1.$c.sql"; fi
      if [[ $2 == R || $1 == alterar_* ]]; then vacuum_of "$c"; fi
    done
  done
  for c in A B; do
    result[$1,$c]=$(median_ms <"$tmp/pgb/$1.$c.lat")
    samples[$1,$c]=$(wc -l <"$tmp/pgb/$1.$c.lat")
  done
}

# The answers compared once (psql, the deterministic reads; the form of lot $mid).
fixed() { grep -v '^\\set' "$1" | sed "s/:gid/$mid/g"; }
mismatches=()
for wl in "${workloads[@]}"; do
  IFS='|' read -r name _ _ how <<<"$wl"
  [[ $how == - ]] && continue
  for c in A B; do
    fixed "$w/$name.$c.sql" | run_sql -F '|' | sort >"$tmp/pgb/$name.$c.answer"
  done
  if ! cmp -s "$tmp/pgb/$name.A.answer" "$tmp/pgb/$name.B.answer"; then
    mismatches+=("$name")
  elif [[ ! -s $tmp/pgb/$name.A.answer ]]; then
    mismatches+=("$name (vazia)")
  fi
done
for m in "${mismatches[@]}"; do say "aviso: respostas diferentes: $m"; done

# BENCH_SQL_DIR keeps the workloads' files and the plans of the reads (EXPLAIN ANALYZE; the
# form of lot $mid).
if [[ -n ${BENCH_SQL_DIR:-} ]]; then
  mkdir -p "$BENCH_SQL_DIR"
  cp "$w"/*.sql "$BENCH_SQL_DIR"/
  for f in "$w"/*.sql; do
    grep -q '^begin;' "$f" && continue
    { printf 'explain (analyze, buffers) '; fixed "$f"; } | run_sql >"$BENCH_SQL_DIR/$(basename "$f" .sql).plan"
  done
fi

t_all=$(now)
for wl in "${workloads[@]}"; do
  IFS='|' read -r name desc how _ <<<"$wl"
  say "medindo: $desc..."
  measure "$name" "$how"
done
t_all=$(since "$t_all")
# The heavy writes run once more, untimed, with what they wrote checked before the rollback
# (a check that fails divides by zero and stops the script): the conversion rewrote every
# value of area_terreno as text; the copy made every geometry and value anew. After the
# measurement: a rolled-back write of every row leaves the tables' indexes twice their size
# (vacuum frees the pages but keeps them), which would slow the reads measured after it.
n_num=$(sql "select count(*) from $LT where c_$K_NUM is not null")
new_values="coalesce(sum(num_nonnulls($new_cols)), 0)"
declare -A write_check=(
  [conv_aplicar.A]="(select count(*) from $LT where c_$K_NUM is not null and pg_typeof(c_$K_NUM) = 'text'::regtype) = $n_num"
  [conv_aplicar.B]="(select count(*) from $B where c_$K_NUM is not null and pg_typeof(c_$K_NUM) = 'text'::regtype) = $n_num"
  [copiar.A]="(select count(*) from projeto.geometrias where camada_id = :nova) = $n_geom and (select $new_values from camadas.l:nova) = $a_values"
  [copiar.B]="(select count(*) from bench_storage.bc) = $n_geom and (select coalesce(sum(num_nonnulls($col_list)), 0) from bench_storage.bc) = $a_values"
)
say "conferindo o que a conversão e a cópia escrevem..."
for f in "${!write_check[@]}"; do
  [[ $(tail -1 "$w/$f.sql") == "rollback;" ]] || { say "$f.sql não termina em rollback"; exit 1; }
  { sed '$d' "$w/$f.sql"; echo "select 1 / (${write_check[$f]})::int;"; echo "rollback;"; } >"$w/$f.confere.sql"
  pgb "$tmp/pgb/$f.confere" -t 1 -f "$w/$f.confere.sql"
  vacuum_of "${f#*.}"
done

# ---------------------------------------------------------------------------------------
# The report.
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
# A text padded to a width in characters (printf's widths count bytes: "é", "×", "→").
left() { local LC_ALL=C.UTF-8 s=$1; printf '%s%*s' "$s" $(($2 - ${#s})) ''; }
right() { local LC_ALL=C.UTF-8 s=$1; printf '%*s%s' $(($2 - ${#s})) '' "$s"; }
row() {  # label-width label [width value]...
  local width=$1
  left "$2" "$width"
  shift 2
  while (($#)); do right "$2" $(($1 + 1)); shift 2; done
  echo
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo
echo "== armazenamento de uma camada como construído (issue #30, decisão 0023): bench/storage.sh $lots =="
echo "data: $(date '+%Y-%m-%d %H:%M %Z')   máquina: $(nproc) CPUs, ${cpu:-?}, carga $load_start no início, $(cut -d' ' -f1-3 /proc/loadavg) ao fim"
echo "PostgreSQL $(sql "show server_version"), PostGIS $(sql "select postgis_lib_version()"); shared_buffers $(sql "show shared_buffers"), work_mem $(sql "show work_mem"), jit $(sql "show jit")"
echo "camada $L: $n_geom lotes × ${#ids[@]} campos ($a_values valores em $a_rows linhas de $LT); pgbench, 1 conexão, A e B alternados: $secs rodadas de 1 s por carga, $runs execuções das pesadas"
echo "A: como construído, os valores em $LT (uma linha por geometria, uma coluna tipada por campo), as geometrias na partição $AG de projeto.geometrias"
echo "B: o piso, uma tabela por camada com id, geom e as mesmas colunas e índices dos campos; B0: a mesma só com chave primária e GiST"

echo
row 30 "construção de B (s)" 9 carga 9 "pk+GiST" 9 "índices" 9 vacuum 9 total
row 30 "B (B0: carga + pk+GiST)" 9 "$b_load" 9 "$b_base" 9 "$b_fields" 9 "$b_vacuum" 9 \
  "$(awk -v a="$b_load" -v b="$b_base" -v c="$b_fields" -v d="$b_vacuum" 'BEGIN { printf "%.2f", a + b + c + d }')"

echo
disk_line() { row 44 "$1" 9 "$(mb "$2")" 9 "$(mb "$3")" 9 "$(mb "$4")" 7 "$(ratio "$4" "$b0_total")" 7 "$(ratio "$4" "$b_total")"; }
row 44 "disco (MB)" 9 tabela 9 "índices" 9 total 7 "×B0" 7 "×B"
disk_line "A valores, índices refeitos ($LT)" "$ar_table" "$ar_idx" "$ar_total"
disk_line "A geometrias (as da camada, $AG)" "$ag_table" "$ag_idx" "$ag_total"
disk_line "A = valores + geometrias" "$r_table" "$r_idx" "$r_total"
disk_line "A valores, como a demonstração os gravou" "$av_table" "$av_idx" "$av_total"
disk_line "A = valores como gravados + geometrias" "$a_table" "$a_idx" "$a_total"
disk_line "B0 tabela tipada, pk + GiST" "$b0_table" "$b0_idx" "$b0_total"
disk_line "B tabela tipada + índices dos campos" "$b_table" "$b_idx" "$b_total"
target() { awk -v a="$1" -v b="$b_total" 'BEGIN { printf "%.2f× (%s)", a / b, (a <= 2 * b) ? "atingido" : "NÃO atingido" }'; }
echo "alvo da issue: A <= 2× B  →  A/B = $(target "$r_total") com os índices de A refeitos, como os de B;"
echo "                              $(target "$a_total") com os índices como a demonstração os gravou"
echo "(medido após a construção e o vacuum analyze, antes das cargas; REINDEX de $LT: ${a_reindex} s; as geometrias ocupam"
echo " $(mb "$b_geom") MB do heap de B; projeto.geometrias inteira, $n_all_geom linhas de todas as camadas: $(mb "$pg_table") + $(mb "$pg_idx") = $(mb "$pg_total") MB)"
echo "índices (MB):"
echo "$indexes_mb"

echo
row 50 "carga (mediana, ms)" 9 A 9 B 6 "B/A"
below=()
for wl in "${workloads[@]}"; do
  IFS='|' read -r name desc _ _ <<<"$wl"
  a=${result[$name,A]} b=${result[$name,B]}
  r=$(ratio "$b" "$a")
  row 50 "$desc" 9 "$a" 9 "$b" 6 "$r"
  if awk -v r="$r" 'BEGIN { exit !(r + 0 < 0.9) }'; then below+=("$name ($r)"); fi
done
counts=$(for k in "${!samples[@]}"; do echo "${samples[$k]}"; done | sort -n)
echo "(B/A = a velocidade de A como fração da do piso, alvo >= 0.9; $(head -1 <<<"$counts")–$(tail -1 <<<"$counts") amostras por carga e candidato; medição: ${t_all}s)"
if ((${#below[@]})); then
  echo "abaixo do alvo: ${below[*]}"
else
  echo "todas as cargas no alvo (B/A >= 0.9)"
fi
if ((${#mismatches[@]})); then
  echo "AVISO: respostas diferentes entre A e B: ${mismatches[*]}"
else
  echo "respostas conferidas: A e B respondem o mesmo nas leituras determinísticas (categorias, páginas, busca, ficha do lote $mid, leitura da conversão)"
fi
echo "escritas conferidas: a conversão reescreve os $n_num valores de area_terreno como texto; a cópia, as $n_geom geometrias e os $a_values valores"
echo "(tempo total do script: $(($(date +%s) - t_start)) s)"
