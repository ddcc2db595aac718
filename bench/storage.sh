#!/usr/bin/env bash
# Issue 30's benchmark ("Layer data stored for speed and size"): how a platform layer's
# attribute values could be stored, measured on the demo project (a layer of N lots with a
# 10-field form, a value for every lot and field), all in the same tenant database:
#   A  today: typed EAV rows, one per (geometry, field), in projeto.valores (decision 0011),
#      the geometries in the shared table projeto.geometrias (decision 0013);
#   B  a table per layer, one row per geometry: id, geom and one typed column per field
#      (text, numeric, date, boolean, text[]), a GiST index, a B-tree (column, id) per field
#      and a trigram GIN on projeto.chave_busca(column) per text field;
#   B0 the same table with only its primary key and GiST index (B before its field
#      indexes: the "one row per lot, typed columns" floor the issue cites);
#   C  a table per layer with one JSONB document per geometry (id, geom, dados), the same
#      indexes as B on expressions of dados.
# B and C are built from A's rows (insert ... select, then the indexes; each step timed),
# in the schema bench_storage, and vacuumed with A before anything is measured.
#
# It prints:
#   - the disk of each (table, each index, total) and the ratio to B0 and B; the issue's
#     target is the layer's disk <= 2x B. A's geometries live in projeto.geometrias and are
#     shown apart, then added (B and C hold theirs in their own table);
#   - the median ms of each workload of decision 0011 on one numeric field (area_terreno),
#     one text field (logradouro) and one list field (uso), and each candidate's ratio to
#     the best. A runs the very statements of the routes (src/platform: layer_styles,
#     values, fields, projects); B and C the same logic on their tables. Each workload's SQL
#     is a heredoc below, A, B and C side by side. Everything runs in pgbench (one
#     connection, every transaction's latency logged), A, B and C taking turns so that
#     whatever else the machine runs falls on all three alike: reads and single-value
#     writes in BENCH_SECONDS rounds of 1 s each, the heavy ones (type conversion, layer
#     copy) in BENCH_RUNS rounds of one run; writes are rolled back and the tables they
#     touched vacuumed after each turn. The deterministic reads are first run once in psql
#     and their answers compared across A, B and C.
#
#   bench/storage.sh [lots=100000]
#   BENCH_NO_BUILD=1 bench/storage.sh 10000      (uses the build as it is)
#   CADASTRE_BUILD_DIR=build CADASTRE_BUILD_TYPE=Check BENCH_NO_BUILD=1 bench/storage.sh
#   BENCH_SECONDS=3 BENCH_RUNS=3                  (the defaults)
#   BENCH_SQL_DIR=/tmp/cargas bench/storage.sh    (keeps each workload's SQL and the reads' plans)
#
# It starts its own throwaway cluster and removes it at exit. At 100,000 lots it takes
# about 5 minutes on 2 CPUs.
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
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start_demo_project "$build" "$lots"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
run_sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$tenant_dsn" "$@"; }  # the statements on stdin
say() { echo "$*" >&2; }

# ---------------------------------------------------------------------------------------
# The layer and its fields.
L=$DEMO_PROJECT_LAYER_ID
read -r gmin gmax n_geom < <(sql "select min(id), max(id), count(*) from projeto.geometrias where camada_id = $L" | tr '|' ' ')
others=$(sql "select (select count(*) from projeto.geometrias where camada_id <> $L)
              || ' ' || (select count(*) from projeto.valores v join projeto.geometrias g on g.id = v.geometria_id where g.camada_id <> $L)")
[[ $others == "0 0" ]] ||
  say "aviso: projeto.geometrias/valores têm linhas de outras camadas ($others); o disco de A as inclui"
declare -A field_id
ids=() keys=() families=()
while IFS='|' read -r id key tipo; do
  case $tipo in
    texto | texto_longo | lista | lista_dominio | foto) family=texto ;;
    inteiro | decimal | calculado) family=numero ;;
    data | booleano) family=$tipo ;;
    multipla) family=lista ;;
    *) say "campo $key: tipo $tipo desconhecido"; exit 1 ;;
  esac
  [[ $key != id && $key != geom && $key != dados ]] || { say "campo $key: a chave colide com uma coluna das tabelas B e C"; exit 1; }
  field_id[$key]=$id
  ids+=("$id") keys+=("$key") families+=("$family")
done < <(sql "select k.id, k.chave, k.tipo from projeto.campos k join projeto.formularios f on f.id = k.formulario_id
              where f.camada_id = $L order by f.ordem, f.id, k.ordem, k.id")
for key in area_terreno logradouro uso; do
  [[ -n ${field_id[$key]:-} ]] || { say "a camada da demonstração não tem o campo $key"; exit 1; }
done
K_NUM=${field_id[area_terreno]} K_TXT=${field_id[logradouro]} K_LISTA=${field_id[uso]}
deep=$((n_geom / 2))  # the deep page's offset
term='sao jose'       # "Rua São José, ..." in an eighth of the lots

# What B's and C's DDL and statements need per field, from the fields' type families:
#   b_columns   "inscricao" text, ..., "area_terreno" numeric, ...
#   b_pivot     (array_agg(v.texto) filter (where v.campo_id = 1))[1] as "inscricao", ...
#               (A's rows of one geometry, by field)
#   b_names     "inscricao", "logradouro", ...; b_from_p, b_from_b: p."inscricao", b."inscricao", ...
#   b_values    jsonb_strip_nulls(jsonb_build_object('inscricao', b."inscricao", ...)): a
#               row's values as A's pages show them ({chave: typed JSON}), C's dados as is.
# b_indexes TABLE / c_indexes TABLE print the field indexes of B and C for a table.
b_columns='' b_pivot='' b_names='' b_from_p='' b_from_b='' b_values=''
for i in "${!keys[@]}"; do
  key=${keys[$i]} id=${ids[$i]} family=${families[$i]}
  case $family in
    texto) type='text' ;; numero) type='numeric' ;; data) type='date' ;; booleano) type='boolean' ;; lista) type='text[]' ;;
  esac
  pivot="(array_agg(v.$family) filter (where v.campo_id = $id))[1]"
  [[ $family == lista ]] && pivot="bench_storage.lista_texto($pivot)"
  sep=${b_columns:+, }
  b_columns+="$sep\"$key\" $type" b_pivot+="$sep$pivot as \"$key\"" b_names+="$sep\"$key\""
  b_from_p+="${sep}p.\"$key\"" b_from_b+="${sep}b.\"$key\"" b_values+="$sep'$key', b.\"$key\""
done
b_values="jsonb_strip_nulls(jsonb_build_object($b_values))"
b_indexes() {
  local i key
  for i in "${!keys[@]}"; do
    key=${keys[$i]}
    echo "create index ${1}_${key}_idx on bench_storage.$1 (\"$key\", id);"
    if [[ ${families[$i]} == texto ]]; then
      echo "create index ${1}_${key}_busca_idx on bench_storage.$1 using gin (projeto.chave_busca(\"$key\") gin_trgm_ops);"
    fi
  done
}
# C's expressions: a text as ->>, the others cast back to their type (dates through an
# IMMUTABLE helper), a list as its JSON array.
c_expr() {
  case $2 in
    texto) echo "(dados->>'$1')" ;;
    numero) echo "((dados->>'$1')::numeric)" ;;
    data) echo "bench_storage.data_iso(dados->>'$1')" ;;
    booleano) echo "((dados->>'$1')::boolean)" ;;
    lista) echo "(dados->'$1')" ;;
  esac
}
c_indexes() {
  local i key
  for i in "${!keys[@]}"; do
    key=${keys[$i]}
    echo "create index ${1}_${key}_idx on bench_storage.$1 ($(c_expr "$key" "${families[$i]}"), id);"
    if [[ ${families[$i]} == texto ]]; then
      echo "create index ${1}_${key}_busca_idx on bench_storage.$1 using gin (projeto.chave_busca(dados->>'$key') gin_trgm_ops);"
    fi
  done
}

# ---------------------------------------------------------------------------------------
# Building B0/B and C (each step timed; B0 is B before its field indexes).
say "construindo B e C a partir de projeto.valores ($n_geom geometrias)..."
run_sql <<'SQL'
set client_min_messages = warning;
drop schema if exists bench_storage cascade;
create schema bench_storage;
-- multipla's JSON array as text[] (B's column).
create function bench_storage.lista_texto(j jsonb) returns text[] language sql immutable parallel safe strict
  as $f$ select array(select jsonb_array_elements_text(j)) $f$;
-- C's dates are ISO texts, which read the same under any DateStyle: the cast may be
-- declared IMMUTABLE (text::date is only STABLE), so an index expression may use it.
create function bench_storage.data_iso(t text) returns date language sql immutable parallel safe strict
  as $f$ select t::date $f$;
-- Whether a text reads as a number as the type converter reads it (field_values::
-- brazilian_number: "12,5", "1.234,56", "1.234", "-3", "12.5"), for the conversion's dry run.
create function bench_storage.e_numero(t text) returns boolean language sql immutable parallel safe strict
  as $f$ select btrim(t, E' \t\r\n') ~ '^[+-]?((\d+|\d{1,3}(\.\d{3})+)(,\d+)?|\d*\.\d+)$' $f$;
SQL
geom_type=$(sql "select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'projeto.geometrias'::regclass and attname = 'geom'")

t=$(now)
run_sql <<SQL
create table bench_storage.b (id bigint not null, geom $geom_type not null, $b_columns);
-- One row per geometry: A's value rows of the layer grouped by geometry, a column per field.
insert into bench_storage.b (id, geom, $b_names)
select g.id, g.geom, $b_from_p
  from projeto.geometrias g
  left join (select v.geometria_id, $b_pivot
               from projeto.valores v join projeto.geometrias g on g.id = v.geometria_id
              where g.camada_id = $L group by v.geometria_id) p on p.geometria_id = g.id
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

t=$(now)
run_sql <<SQL
create table bench_storage.c (id bigint not null, geom $geom_type not null, dados jsonb not null);
-- One document per geometry: {chave: the value's typed JSON} (projeto.valor_json, what A's
-- pages show), empty values left out.
insert into bench_storage.c (id, geom, dados)
select g.id, g.geom, coalesce(d.dados, '{}')
  from projeto.geometrias g
  left join (select v.geometria_id,
                    jsonb_object_agg(k.chave, projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista))
                      filter (where projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista) <> 'null') as dados
               from projeto.valores v join projeto.geometrias g on g.id = v.geometria_id
               join projeto.campos k on k.id = v.campo_id
              where g.camada_id = $L group by v.geometria_id) d on d.geometria_id = g.id
 where g.camada_id = $L order by g.id;
SQL
c_load=$(since "$t")
t=$(now)
run_sql <<SQL
alter table bench_storage.c add primary key (id);
create index c_geom_idx on bench_storage.c using gist (geom);
SQL
c_base=$(since "$t")

# B0's disk: B as it is now (primary key and GiST only).
size_rows() {  # relation → "table indexes total" in bytes
  sql "select pg_table_size('$1'), pg_indexes_size('$1'), pg_total_relation_size('$1')" | tr '|' ' '
}
index_rows() {  # relation → "index|bytes" lines, largest first
  sql "select i.indexrelid::regclass, pg_relation_size(i.indexrelid) from pg_index i
        where i.indrelid = '$1'::regclass order by 2 desc, 1"
}
read -r b0_table b0_idx b0_total < <(size_rows bench_storage.b)

t=$(now)
b_indexes b | run_sql
b_fields=$(since "$t")
t=$(now)
c_indexes c | run_sql
c_fields=$(since "$t")
t=$(now)
run_sql <<<"vacuum analyze bench_storage.b"
b_vacuum=$(awk -v a="$b_vacuum" -v b="$(since "$t")" 'BEGIN { printf "%.2f", a + b }')
t=$(now)
run_sql <<<"vacuum analyze bench_storage.c"
c_vacuum=$(since "$t")
run_sql <<<"vacuum analyze projeto.valores; vacuum analyze projeto.geometrias; vacuum analyze projeto.campos"

# The disk, now: the workloads' writes (rolled back, vacuumed) leave index pages behind.
read -r av_table av_idx av_total < <(size_rows projeto.valores)
read -r ag_table ag_idx ag_total < <(size_rows projeto.geometrias)
read -r b_table b_idx b_total < <(size_rows bench_storage.b)
read -r c_table c_idx c_total < <(size_rows bench_storage.c)
a_table=$((av_table + ag_table)) a_idx=$((av_idx + ag_idx)) a_total=$((av_total + ag_total))
indexes_mb=$(for rel in projeto.valores projeto.geometrias bench_storage.b bench_storage.c; do
  echo "  $rel: $(index_rows "$rel" | awk -F'|' '{ sub(/^.*\./, "", $1); printf "%s%s %.1f", (NR > 1 ? ", " : ""), $1, $2 / 1048576 }')"
done)
# What the geometries themselves take in B's heap (the same in C's).
b_geom=$(sql "select sum(pg_column_size(geom)) from bench_storage.b")

# The same rows in B and C as in A.
check=$(sql "select (select count(*) from bench_storage.b) || ' ' || (select count(*) from bench_storage.c)
             || ' ' || (select count(*) from projeto.valores v join projeto.geometrias g on g.id = v.geometria_id where g.camada_id = $L)
             || ' ' || (select sum((select count(*) from jsonb_object_keys(dados))) from bench_storage.c)")
read -r b_rows c_rows a_values c_values <<<"$check"
[[ $b_rows == "$n_geom" && $c_rows == "$n_geom" && $c_values == "$a_values" ]] ||
  { say "B ou C não têm as linhas de A: $check (esperado $n_geom $n_geom $a_values $a_values)"; exit 1; }

# ---------------------------------------------------------------------------------------
# The workloads: one file per workload and candidate (A, B, C), pgbench's syntax
# (\set for random ids; everything else plain SQL).
w=$tmp/cargas
mkdir -p "$w" "$tmp/pgb"

# 1-3. Categorise (POST /camadas/categorizar, layer_styles::categorize): every geometry
#    of the layer counts once, those without a value in "sem valor". One statement; the
#    route then stores the classes in projeto.camadas, the same for every storage: left out.
#    A reads the layer's geometries and joins the field's value rows; B and C read their
#    table. $1: the value of one geometry; $2: from where (one row per geometry).
#  - a text field ("valores"): the 50 most frequent values, the rest as "outros";
categorise_values() {
  cat <<SQL
with c as (select $1 as valor, count(*) as n from $2 group by 1),
     r as (select valor, n, row_number() over (order by n desc, valor) as i from c where valor is not null)
select 'v', valor, n::text, i from r where i <= 50
union all select 'o', null, sum(n)::text, null from r where i > 50 having count(*) > 0
union all select 's', null, coalesce(sum(n), 0)::text, null from c where valor is null;
SQL
}
#  - a numeric field ("intervalos"): 5 equal intervals between min and max, width_bucket.
categorise_intervals() {
  cat <<SQL
with v as (select $1 as x from $2),
     b as (select min(x) as lo, max(x) as hi, case when min(x) = max(x) then 1 else 5 end as k from v),
     h as (select case when x is null then 0 when b.k = 1 then 1 else least(width_bucket(x, b.lo, b.hi, b.k), b.k) end
                  as classe, count(*) as n from v, b group by 1)
select 'v', (b.lo + (b.hi - b.lo) * (s.i - 1) / b.k)::float8::text, (b.lo + (b.hi - b.lo) * s.i / b.k)::float8::text,
       coalesce(h.n, 0)::text, s.i
  from b cross join generate_series(1, b.k) s(i) left join h on h.classe = s.i where b.lo is not null
union all select 's', null, null, coalesce((select n from h where classe = 0), 0)::text, null;
SQL
}
a_layer() {  # the layer's geometries, each with its value row of field $1 (if any)
  echo "projeto.geometrias g left join projeto.valores v on v.geometria_id = g.id and v.campo_id = $1 where g.camada_id = $L"
}
# 1. a list field (uso: 7 values);
categorise_values "v.texto::text" "$(a_layer "$K_LISTA")" >"$w/cat_lista.A.sql"
categorise_values "b.uso::text" "bench_storage.b b" >"$w/cat_lista.B.sql"
categorise_values "(c.dados->>'uso')::text" "bench_storage.c c" >"$w/cat_lista.C.sql"
# 2. a text field with many distinct values (logradouro: 12,000 at 100,000 lots);
categorise_values "v.texto::text" "$(a_layer "$K_TXT")" >"$w/cat_texto.A.sql"
categorise_values "b.logradouro::text" "bench_storage.b b" >"$w/cat_texto.B.sql"
categorise_values "(c.dados->>'logradouro')::text" "bench_storage.c c" >"$w/cat_texto.C.sql"
# 3. a numeric field (area_terreno).
categorise_intervals "v.numero" "$(a_layer "$K_NUM")" >"$w/cat_numero.A.sql"
categorise_intervals "b.area_terreno" "bench_storage.b b" >"$w/cat_numero.B.sql"
categorise_intervals "((c.dados->>'area_terreno')::numeric)" "bench_storage.c c" >"$w/cat_numero.C.sql"

# 4. A page of 100 geometries ordered by a field, with all their values (GET
#    /valores/camada/:id/pg?orderBy=<chave>, values::page_statement): first page and a deep
#    one (offset = half the layer). A: the field's value rows in index order, then the
#    geometries without a value; B and C: the layer's rows in the field's order, nulls
#    last (the same order: value ids grow with geometry ids here).
page_a() {  # column type field offset
  cat <<SQL
with ordem as (select v.id, v.$1 as chave from projeto.valores v where v.campo_id = $3 and v.$1 is not null
                order by v.$1 asc, v.id asc limit 100 offset $4),
     com as (select w.geometria_id as gid, o.chave as chave_ordem, o.id as desempate, 0 as parte
               from ordem o join projeto.valores w on w.id = o.id),
     sem as (select g.id as gid, null::$2 as chave_ordem, g.id as desempate, 1 as parte from projeto.geometrias g
              where g.camada_id = $L and not exists (select 1 from projeto.valores x where x.geometria_id = g.id
                    and x.campo_id = $3 and x.$1 is not null offset 0)
              order by g.id asc
              limit (case when (select count(*) from com) >= 100 then 0 else 100 - (select count(*) from com) end)
             offset (case when (select count(*) from com) > 0 then 0 else greatest(0, $4 -
                     (select count(*) from projeto.valores n where n.campo_id = $3 and n.$1 is not null)) end))
select (select count(*) from projeto.geometrias where camada_id = $L)::text,
       coalesce(json_agg(json_build_object('idGeometria', p.gid, 'valores',
         (select coalesce(jsonb_object_agg(k.chave, projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista)), '{}')
            from projeto.valores v join projeto.campos k on k.id = v.campo_id where v.geometria_id = p.gid))
         order by p.parte, p.chave_ordem asc, p.desempate asc), '[]')::text
  from (select * from com union all select * from sem limit 100) p;
SQL
}
page_b() {  # column offset
  cat <<SQL
with ordem as (select b.id from bench_storage.b b order by b.$1 asc nulls last, b.id asc limit 100 offset $2)
select (select count(*) from bench_storage.b)::text,
       coalesce(json_agg(json_build_object('idGeometria', b.id, 'valores', $b_values)
                order by b.$1 asc nulls last, b.id asc), '[]')::text
  from ordem o join bench_storage.b b on b.id = o.id;
SQL
}
page_c() {  # expression offset
  cat <<SQL
with ordem as (select c.id from bench_storage.c c order by $1 asc nulls last, c.id asc limit 100 offset $2)
select (select count(*) from bench_storage.c)::text,
       coalesce(json_agg(json_build_object('idGeometria', c.id, 'valores', c.dados)
                order by $1 asc nulls last, c.id asc), '[]')::text
  from ordem o join bench_storage.c c on c.id = o.id;
SQL
}
for p in "pag_numero_1 0" "pag_numero_fundo $deep"; do
  read -r name offset <<<"$p"
  page_a numero numeric "$K_NUM" "$offset" >"$w/$name.A.sql"
  page_b area_terreno "$offset" >"$w/$name.B.sql"
  page_c "((c.dados->>'area_terreno')::numeric)" "$offset" >"$w/$name.C.sql"
done
for p in "pag_texto_1 0" "pag_texto_fundo $deep"; do
  read -r name offset <<<"$p"
  page_a texto text "$K_TXT" "$offset" >"$w/$name.A.sql"
  page_b logradouro "$offset" >"$w/$name.B.sql"
  page_c "(c.dados->>'logradouro')" "$offset" >"$w/$name.C.sql"
done

# 5. Accent-insensitive search within one field (GET /valores/search?campoId=<logradouro>
#    &termo=sao jose&pageSize=20, values::search_statement): the count and the first page,
#    through the trigram index on projeto.chave_busca. A answers each value's id, author
#    and time too (B and C keep none per value).
cat >"$w/busca.A.sql" <<SQL
with achados as (select v.id, v.geometria_id, v.campo_id, v.texto, v.atualizado_por, v.atualizado_em
                   from projeto.valores v where v.campo_id = $K_TXT
                    and projeto.chave_busca(v.texto) like '%' || projeto.chave_busca('$term') || '%')
select (select count(*) from achados)::text,
       coalesce((select json_agg(json_build_object('id', a.id, 'idGeometria', a.geometria_id, 'idCampo', a.campo_id,
                   'valor', a.texto, 'atualizadoPor', a.atualizado_por, 'atualizadoEm', a.atualizado_em) order by a.texto, a.id)
                   from (select * from achados order by texto, id limit 20 offset 0) a), '[]')::text;
SQL
cat >"$w/busca.B.sql" <<SQL
with achados as (select b.id, b.logradouro as texto from bench_storage.b b
                  where projeto.chave_busca(b.logradouro) like '%' || projeto.chave_busca('$term') || '%')
select (select count(*) from achados)::text,
       coalesce((select json_agg(json_build_object('idGeometria', a.id, 'idCampo', $K_TXT, 'valor', a.texto)
                   order by a.texto, a.id)
                   from (select * from achados order by texto, id limit 20 offset 0) a), '[]')::text;
SQL
cat >"$w/busca.C.sql" <<SQL
with achados as (select c.id, c.dados->>'logradouro' as texto from bench_storage.c c
                  where projeto.chave_busca(c.dados->>'logradouro') like '%' || projeto.chave_busca('$term') || '%')
select (select count(*) from achados)::text,
       coalesce((select json_agg(json_build_object('idGeometria', a.id, 'idCampo', $K_TXT, 'valor', a.texto)
                   order by a.texto, a.id)
                   from (select * from achados order by texto, id limit 20 offset 0) a), '[]')::text;
SQL

# 6. One geometry's whole form (GET /valores/geometria/:id, values::of_geometry): every
#    value with its field's chave, nome and tipo, in form and field order; a random lot.
cat >"$w/ficha.A.sql" <<SQL
\set gid random($gmin, $gmax)
select (select coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'idGeometria', v.geometria_id, 'idCampo', v.campo_id,
          'valor', projeto.valor_json(v.texto, v.numero, v.data, v.booleano, v.lista),
          'atualizadoPor', v.atualizado_por, 'atualizadoEm', v.atualizado_em)
          || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo)
          order by f.ordem, f.id, k.ordem, k.id), '[]')
          from projeto.valores v join projeto.campos k on k.id = v.campo_id join projeto.formularios f on f.id = k.formulario_id
         where v.geometria_id = :gid)::text;
SQL
cat >"$w/ficha.B.sql" <<SQL
\set gid random($gmin, $gmax)
select (select coalesce(jsonb_agg(jsonb_build_object('idGeometria', d.id, 'idCampo', k.id, 'valor', d.valores->k.chave)
          || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo)
          order by f.ordem, f.id, k.ordem, k.id), '[]')
          from (select b.id, $b_values as valores from bench_storage.b b where b.id = :gid) d
          cross join projeto.formularios f join projeto.campos k on k.formulario_id = f.id
         where f.camada_id = $L and d.valores ? k.chave)::text;
SQL
cat >"$w/ficha.C.sql" <<SQL
\set gid random($gmin, $gmax)
select (select coalesce(jsonb_agg(jsonb_build_object('idGeometria', d.id, 'idCampo', k.id, 'valor', d.valores->k.chave)
          || jsonb_build_object('chave', k.chave, 'nome', k.nome, 'tipo', k.tipo)
          order by f.ordem, f.id, k.ordem, k.id), '[]')
          from (select c.id, c.dados as valores from bench_storage.c c where c.id = :gid) d
          cross join projeto.formularios f join projeto.campos k on k.formulario_id = f.id
         where f.camada_id = $L and d.valores ? k.chave)::text;
SQL

# 7. Change one value of one geometry (PUT /valores/:id, values::store_write): lock the
#    geometry, read its values, write the new one; rolled back. A upserts its row (the
#    other typed columns cleared); B updates a column; C rewrites the document. (The route
#    also writes an audit row, the same for every storage: left out.)
update_files() {  # name field column-of-A B's new value expression
  cat >"$w/$1.A.sql" <<SQL
\set gid random($gmin, $gmax)
\set v random(15000, 100000)
begin;
select 1 from projeto.geometrias where id = :gid for no key update;
select v.id, v.campo_id, v.texto, v.numero, v.data, v.booleano, v.lista from projeto.valores v where v.geometria_id = :gid;
insert into projeto.valores (geometria_id, campo_id, $3, atualizado_por) values (:gid, ${field_id[$2]}, $4, 1)
    on conflict (geometria_id, campo_id) do update set $(for col in texto numero data booleano lista; do
      [[ $col == "$3" ]] && echo -n "$col = excluded.$col, " || echo -n "$col = null, "; done)
       atualizado_por = excluded.atualizado_por, atualizado_em = now()
returning id::text, $3::text;
rollback;
SQL
  cat >"$w/$1.B.sql" <<SQL
\set gid random($gmin, $gmax)
\set v random(15000, 100000)
begin;
select $b_values from bench_storage.b b where b.id = :gid for no key update;
update bench_storage.b set $2 = $4 where id = :gid returning id::text, $2::text;
rollback;
SQL
  cat >"$w/$1.C.sql" <<SQL
\set gid random($gmin, $gmax)
\set v random(15000, 100000)
begin;
select c.dados from bench_storage.c c where c.id = :gid for no key update;
update bench_storage.c set dados = jsonb_set(dados, '{$2}', to_jsonb($4)) where id = :gid
returning id::text, dados->>'$2';
rollback;
SQL
}
update_files alterar_numero area_terreno numero ":v / 100.0"
update_files alterar_texto logradouro texto "'Rua Nova, ' || :v"

# 8. Type conversion, dry run (GET /campos/:id/converter?tipo=decimal on logradouro,
#    fields::convert_values without confirmar): how many of the field's values fail to read
#    as a number. The route reads the values and parses them in C++; here SQL does both.
cat >"$w/conv_teste.A.sql" <<SQL
select count(*)::text, count(*) filter (where not bench_storage.e_numero(v.texto))::text
  from projeto.valores v where v.campo_id = $K_TXT and v.texto is not null;
SQL
cat >"$w/conv_teste.B.sql" <<SQL
select count(*)::text, count(*) filter (where not bench_storage.e_numero(b.logradouro))::text
  from bench_storage.b b where b.logradouro is not null;
SQL
cat >"$w/conv_teste.C.sql" <<SQL
select count(*)::text, count(*) filter (where not bench_storage.e_numero(c.dados->>'logradouro'))::text
  from bench_storage.c c where c.dados->>'logradouro' is not null;
SQL

# 9. Type conversion, applied (area_terreno decimal -> texto, every value succeeds; rolled
#    back): the field's type, its values rewritten, the layer's generation bumped. A
#    rewrites the field's value rows (its indexes cover every field); B changes the
#    column's type (a rewrite of the table and all its indexes, under an exclusive lock)
#    and adds the trigram index a text field has; C rewrites every document and swaps the
#    field's expression indexes. (The route's audit rows, one per value, left out.)
retype="update projeto.campos set tipo = 'texto', atualizado_em = now() where id = $K_NUM;
update projeto.camadas set geracao = geracao + 1, atualizado_em = now() where id = $L;"
cat >"$w/conv_aplicar.A.sql" <<SQL
begin;
$retype
update projeto.valores v set texto = v.numero::text, numero = null, atualizado_por = 1, atualizado_em = now()
 where v.campo_id = $K_NUM and v.numero is not null;
rollback;
SQL
cat >"$w/conv_aplicar.B.sql" <<SQL
begin;
$retype
alter table bench_storage.b alter column area_terreno type text using area_terreno::text;
create index b_area_terreno_busca_idx on bench_storage.b using gin (projeto.chave_busca(area_terreno) gin_trgm_ops);
rollback;
SQL
cat >"$w/conv_aplicar.C.sql" <<SQL
begin;
$retype
drop index bench_storage.c_area_terreno_idx;
update bench_storage.c set dados = jsonb_set(dados, '{area_terreno}', to_jsonb(dados->>'area_terreno'))
 where dados ? 'area_terreno';
create index c_area_terreno_idx on bench_storage.c ((dados->>'area_terreno'), id);
create index c_area_terreno_busca_idx on bench_storage.c using gin (projeto.chave_busca(dados->>'area_terreno') gin_trgm_ops);
rollback;
SQL

# 10. Copy the layer with its geometries and values (POST /projetos/:id/copiar's statement,
#    projects::copy_contents, for one layer; rolled back): the layer, its forms and fields
#    with new ids (the same in every candidate), then A: the geometries into
#    projeto.geometrias and the value rows into projeto.valores, new ids drawn with
#    nextval; B and C: a new table of the layer, loaded bare and then indexed as built
#    above (ids from the shared geometry sequence).
structure="with src_c as materialized (select c.* from projeto.camadas c where c.id = $L),
     map_c as materialized (select id as old, nextval('projeto.camadas_id_seq') as new from src_c),
     ins_c as (insert into projeto.camadas (id, projeto_id, nome, tipo, geometria, propriedades, estilo, criado_por)
               select m.new, c.projeto_id, c.nome || ' (cópia)', c.tipo, c.geometria, c.propriedades, c.estilo, c.criado_por
                 from src_c c join map_c m on m.old = c.id returning 1),
     src_f as materialized (select f.* from projeto.formularios f join map_c m on m.old = f.camada_id),
     map_f as materialized (select id as old, nextval('projeto.formularios_id_seq') as new from src_f),
     ins_f as (insert into projeto.formularios (id, camada_id, nome, ativo, ordem)
               select m.new, mc.new, f.nome, f.ativo, f.ordem from src_f f join map_f m on m.old = f.id
                 join map_c mc on mc.old = f.camada_id returning 1),
     src_k as materialized (select k.* from projeto.campos k join map_f m on m.old = k.formulario_id),
     map_k as materialized (select id as old, nextval('projeto.campos_id_seq') as new from src_k),
     ins_k as (insert into projeto.campos (id, formulario_id, nome, chave, tipo, obrigatorio, unico, opcoes, ordem)
               select m.new, mf.new, k.nome, k.chave, k.tipo, k.obrigatorio, k.unico, k.opcoes, k.ordem
                 from src_k k join map_k m on m.old = k.id join map_f mf on mf.old = k.formulario_id returning 1)"
cat >"$w/copiar.A.sql" <<SQL
begin;
$structure,
     src_g as materialized (select g.* from projeto.geometrias g join map_c m on m.old = g.camada_id),
     map_g as materialized (select id as old, nextval('projeto.geometrias_id_seq') as new from src_g),
     ins_g as (insert into projeto.geometrias (id, camada_id, geom, versao)
               select mg.new, mc.new, g.geom, g.versao from src_g g join map_g mg on mg.old = g.id
                 join map_c mc on mc.old = g.camada_id returning 1),
     src_v as materialized (select v.* from projeto.valores v join map_g mg on mg.old = v.geometria_id
                              join map_k mk on mk.old = v.campo_id),
     map_v as materialized (select id as old, nextval('projeto.valores_id_seq') as new from src_v),
     ins_v as (insert into projeto.valores (id, geometria_id, campo_id, texto, numero, data, booleano, lista, atualizado_em)
               select m.new, mg.new, mk.new, v.texto, v.numero, v.data, v.booleano, v.lista, v.atualizado_em
                 from src_v v join map_v m on m.old = v.id join map_g mg on mg.old = v.geometria_id
                 join map_k mk on mk.old = v.campo_id returning 1)
select (select count(*) from ins_c), (select count(*) from ins_k), (select count(*) from ins_g), (select count(*) from ins_v);
rollback;
SQL
cat >"$w/copiar.B.sql" <<SQL
begin;
$structure
select (select count(*) from ins_c), (select count(*) from ins_k);
create table bench_storage.bc (like bench_storage.b);
insert into bench_storage.bc (id, geom, $b_names)
select nextval('projeto.geometrias_id_seq'), b.geom, $b_from_b
  from bench_storage.b b order by b.id;
alter table bench_storage.bc add primary key (id);
create index bc_geom_idx on bench_storage.bc using gist (geom);
$(b_indexes bc)
rollback;
SQL
cat >"$w/copiar.C.sql" <<SQL
begin;
$structure
select (select count(*) from ins_c), (select count(*) from ins_k);
create table bench_storage.cc (like bench_storage.c);
insert into bench_storage.cc (id, geom, dados)
select nextval('projeto.geometrias_id_seq'), c.geom, c.dados from bench_storage.c c order by c.id;
alter table bench_storage.cc add primary key (id);
create index cc_geom_idx on bench_storage.cc using gist (geom);
$(c_indexes cc)
rollback;
SQL

# name|description|how (T: pgbench for BENCH_SECONDS; R: BENCH_RUNS runs, a vacuum between)|check
# (igual: the answers of A, B and C must be the same; contagem: their first column; -: none)
workloads=(
  "cat_lista|categorizar lista (uso, 7 valores)|T|igual"
  "cat_texto|categorizar texto (logradouro, muitos valores)|T|igual"
  "cat_numero|categorizar número (área, 5 intervalos)|T|igual"
  "pag_numero_1|página de 100 por área, a primeira|T|igual"
  "pag_numero_fundo|página de 100 por área, offset $deep|T|igual"
  "pag_texto_1|página de 100 por logradouro, a primeira|T|igual"
  "pag_texto_fundo|página de 100 por logradouro, offset $deep|T|igual"
  "busca|busca '$term' em logradouro (20 e total)|T|contagem"
  "ficha|ficha de uma geometria (10 campos)|T|-"
  "alterar_numero|alterar um valor numérico (rollback)|T|-"
  "alterar_texto|alterar um valor de texto (rollback)|T|-"
  "conv_teste|converter texto→número, simulação|T|igual"
  "conv_aplicar|converter área decimal→texto (rollback)|R|-"
  "copiar|copiar a camada (rollback)|R|-"
)

# The tables a candidate's writes leave dead tuples in (vacuumed after its runs).
vacuum_of() {
  case $1 in
    A) run_sql <<<"vacuum projeto.valores; vacuum projeto.geometrias; vacuum projeto.campos; vacuum projeto.camadas" ;;
    B) run_sql <<<"vacuum bench_storage.b; vacuum projeto.campos; vacuum projeto.camadas" ;;
    C) run_sql <<<"vacuum bench_storage.c; vacuum projeto.campos; vacuum projeto.camadas" ;;
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
# measure NAME HOW: A, B and C in turns, so that whatever else the machine runs meanwhile
# falls on all three alike. T: BENCH_SECONDS rounds of 1 s of pgbench each (after two
# warm-up transactions); R: BENCH_RUNS rounds of one transaction each. A candidate that
# writes is vacuumed after its turn. Sets result[NAME,c] (median ms) and samples[NAME,c].
declare -A result samples
measure() {
  local c r prefix
  for c in A B C; do rm -f "$tmp/pgb/$1.$c".*; done
  if [[ $2 == T ]]; then
    for c in A B C; do pgb "$tmp/pgb/$1.$c.aquece" -t 2 -f "$w/$1.$c.sql"; done
  fi
  local rounds=$runs
  if [[ $2 == T ]]; then rounds=$secs; fi
  for ((r = 0; r < rounds; r++)); do
    for c in A B C; do
      prefix=$tmp/pgb/$1.$c
      if [[ $2 == T ]]; then pgb "$prefix" -T 1 -f "$w/$1.$c.sql"; else pgb "$prefix" -t 1 -f "$w/$1.$c.sql"; fi
      if [[ $2 == R || $1 == alterar_* ]]; then vacuum_of "$c"; fi
    done
  done
  for c in A B C; do
    result[$1,$c]=$(median_ms <"$tmp/pgb/$1.$c.lat")
    samples[$1,$c]=$(wc -l <"$tmp/pgb/$1.$c.lat")
  done
}

# The answers compared once (psql, the deterministic reads).
mismatches=()
for wl in "${workloads[@]}"; do
  IFS='|' read -r name _ _ how <<<"$wl"
  [[ $how == - ]] && continue
  for c in A B C; do
    run_sql -F '|' -f "$w/$name.$c.sql" | sort >"$tmp/pgb/$name.$c.answer"
    if [[ $how == contagem ]]; then
      cut -d'|' -f1 "$tmp/pgb/$name.$c.answer" >"$tmp/pgb/$name.$c.answer.1"
      mv "$tmp/pgb/$name.$c.answer.1" "$tmp/pgb/$name.$c.answer"
    fi
  done
  for c in B C; do
    cmp -s "$tmp/pgb/$name.A.answer" "$tmp/pgb/$name.$c.answer" || mismatches+=("$name: $c difere de A")
  done
done
for m in "${mismatches[@]}"; do say "aviso: respostas diferentes: $m"; done

# BENCH_SQL_DIR keeps the workloads' files and the plans of the reads (EXPLAIN ANALYZE; the
# form of the geometry in the middle of the layer).
if [[ -n ${BENCH_SQL_DIR:-} ]]; then
  mkdir -p "$BENCH_SQL_DIR"
  cp "$w"/*.sql "$BENCH_SQL_DIR"/
  for f in "$w"/*.sql; do
    grep -q '^begin;' "$f" && continue
    { printf 'explain (analyze, buffers) '; grep -v '^\\set' "$f" | sed "s/:gid/$(((gmin + gmax) / 2))/g"; } |
      run_sql >"$BENCH_SQL_DIR/$(basename "$f" .sql).plan"
  done
fi

t_all=$(now)
for wl in "${workloads[@]}"; do
  IFS='|' read -r name desc how _ <<<"$wl"
  say "medindo: $desc..."
  measure "$name" "$how"
done
t_all=$(since "$t_all")

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
echo "== armazenamento dos valores de uma camada (issue #30): bench/storage.sh $lots =="
echo "data: $(date '+%Y-%m-%d %H:%M %Z')   máquina: $(nproc) CPUs, ${cpu:-?}, carga $load_start no início, $(cut -d' ' -f1-3 /proc/loadavg) ao fim"
echo "PostgreSQL $(sql "show server_version"), PostGIS $(sql "select postgis_lib_version()"); shared_buffers $(sql "show shared_buffers"), work_mem $(sql "show work_mem"), jit $(sql "show jit")"
echo "camada: $n_geom lotes × ${#keys[@]} campos ($a_values valores); pgbench, 1 conexão, A, B e C alternados: $secs rodadas de 1 s por carga, $runs execuções das pesadas"
echo "A: hoje, linhas tipadas em projeto.valores (uma por geometria e campo), geometrias em projeto.geometrias"
echo "B: tabela por camada, uma linha por geometria, uma coluna tipada por campo; B0: a mesma só com chave primária e GiST"
echo "C: tabela por camada, uma linha por geometria, um documento JSONB com os valores"

echo
row 30 "construção de B e C (s)" 9 carga 9 "pk+GiST" 9 "índices" 9 vacuum 9 total
row 30 "B (B0: carga + pk+GiST)" 9 "$b_load" 9 "$b_base" 9 "$b_fields" 9 "$b_vacuum" 9 \
  "$(awk -v a="$b_load" -v b="$b_base" -v c="$b_fields" -v d="$b_vacuum" 'BEGIN { printf "%.2f", a + b + c + d }')"
row 30 "C" 9 "$c_load" 9 "$c_base" 9 "$c_fields" 9 "$c_vacuum" 9 \
  "$(awk -v a="$c_load" -v b="$c_base" -v c="$c_fields" -v d="$c_vacuum" 'BEGIN { printf "%.2f", a + b + c + d }')"

echo
disk_line() { row 40 "$1" 9 "$(mb "$2")" 9 "$(mb "$3")" 9 "$(mb "$4")" 7 "$(ratio "$4" "$b0_total")" 7 "$(ratio "$4" "$b_total")"; }
row 40 "disco (MB)" 9 tabela 9 "índices" 9 total 7 "×B0" 7 "×B"
disk_line "A valores (projeto.valores)" "$av_table" "$av_idx" "$av_total"
disk_line "A geometrias (projeto.geometrias)" "$ag_table" "$ag_idx" "$ag_total"
disk_line "A = valores + geometrias" "$a_table" "$a_idx" "$a_total"
disk_line "B0 tabela tipada, pk + GiST" "$b0_table" "$b0_idx" "$b0_total"
disk_line "B tabela tipada + índices dos campos" "$b_table" "$b_idx" "$b_total"
disk_line "C JSONB + índices dos campos" "$c_table" "$c_idx" "$c_total"
echo "alvo da issue: disco da camada <= 2× B  →  A: $(ratio "$a_total" "$b_total")×, C: $(ratio "$c_total" "$b_total")×"
echo "(medido logo após a construção e o vacuum analyze; as geometrias ocupam $(mb "$b_geom") MB do heap de B e do de C)"
echo "índices (MB):"
echo "$indexes_mb"

echo
row 48 "carga (mediana, ms)" 9 A 9 B 9 C 6 "A×" 6 "B×" 6 "C×"
for wl in "${workloads[@]}"; do
  IFS='|' read -r name desc _ _ <<<"$wl"
  a=${result[$name,A]} b=${result[$name,B]} c=${result[$name,C]}
  best=$(printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -g | head -1)
  row 48 "$desc" 9 "$a" 9 "$b" 9 "$c" 6 "$(ratio "$a" "$best")" 6 "$(ratio "$b" "$best")" 6 "$(ratio "$c" "$best")"
done
counts=$(for k in "${!samples[@]}"; do echo "${samples[$k]}"; done | sort -n)
echo "(× = razão para o melhor dos três; $(head -1 <<<"$counts")–$(tail -1 <<<"$counts") amostras por carga e candidato; medição: ${t_all}s)"
if ((${#mismatches[@]})); then
  echo "AVISO: respostas diferentes entre os candidatos: ${mismatches[*]}"
else
  echo "respostas conferidas: A, B e C respondem o mesmo nas leituras determinísticas (categorias, páginas, total da busca, simulação)"
fi
