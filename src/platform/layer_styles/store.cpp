#include "platform/layer_styles/store.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/layers/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::layer_styles {
namespace {

std::string id_text(std::int64_t id) { return std::to_string(id); }

// Exact text of a double for PostgreSQL (std::to_string keeps six decimals only).
std::string decimal(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

bool numeric(const std::string& tipo) { return tipo == "inteiro" || tipo == "decimal" || tipo == "calculado"; }

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string field_ref(const Field& f) {
  JsonWriter w;
  w.begin_object().key("id").value(f.id).key("chave").value(f.chave).key("nome").value(f.nome).end_object();
  return std::move(w).str();
}

// Upserts the override row: `values` appends the texto, posicao, rotacao and
// campo_rotacao_id values; `sets` are the SQL assignments (ours) of a row that exists.
void upsert_label(soci::session& db, const service::Caller& s, std::int64_t geometry_id,
                  const std::function<void(store::Sql&)>& values, const std::string& sets) {
  store::Sql q("insert into projeto.rotulos_geometria as r (geometria_id, texto, posicao, rotacao, "
               "campo_rotacao_id, atualizado_por) values (");
  q.bind(id_text(geometry_id), "bigint"), q << ", ";
  values(q);
  q << ", ", q.bind(id_text(s.user.user_id), "bigint");
  q << ") on conflict (geometria_id) do update set " << sets
    << ", atualizado_por = excluded.atualizado_por, atualizado_em = now()";
  store::execute(db, q);
  store::Sql empty("delete from projeto.rotulos_geometria where texto is null and posicao is null and "
                   "rotacao is null and campo_rotacao_id is null and geometria_id = ");
  empty.bind(id_text(geometry_id), "bigint");
  store::execute(db, empty);
}

}  // namespace

Field layer_field(const service::Caller& s, std::int64_t layer_id, std::int64_t id, const std::string& param) {
  store::Sql q("select k.chave, k.nome, k.tipo from projeto.campos k join projeto.formularios f "
               "on f.id = k.formulario_id where k.id = ");
  q.bind(id_text(id), "bigint"), q << " and f.camada_id = ", q.bind(id_text(layer_id), "bigint").reuse_plan();
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty())
    throw Error(errc::invalid_argument,
                param + ": o campo " + id_text(id) + " não é de um formulário da camada " + id_text(layer_id), param);
  return {id, *rows[0][0], *rows[0][1], *rows[0][2]};
}

void set_label(const service::Caller& s, std::int64_t layer_id, const std::vector<Field>& fields,
               const std::string& separator) {
  std::string campos = "[";
  for (std::size_t i = 0; i < fields.size(); ++i) campos += (i ? "," : "") + field_ref(fields[i]);
  campos += "]";
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    store::Sql q("update projeto.camadas set rotulo = coalesce(rotulo, '{}') || jsonb_build_object('campos', ");
    q.bind(campos, "jsonb"), q << ", 'separador', ", q.bind(separator, "text");
    q << ") where id = ", q.bind(id_text(layer_id), "bigint");
    store::execute(db, q);
    layers::bump_generation(db, layer_id);
    tx.commit();
  });
}

void set_label_rotation(const service::Caller& s, std::int64_t layer_id, const Field& f) {
  if (!numeric(f.tipo))
    throw Error(errc::invalid_argument, "idCampo: a rotação vem de um campo numérico; " + f.chave + " é " + f.tipo,
                "idCampo");
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    store::Sql q("update projeto.camadas set rotulo = coalesce(rotulo, '{}') || jsonb_build_object('rotacao', ");
    q.bind(field_ref(f), "jsonb"), q << ") where id = ", q.bind(id_text(layer_id), "bigint");
    store::execute(db, q);
    layers::bump_generation(db, layer_id);
    tx.commit();
  });
}

void set_geometry_label(const service::Caller& s, std::int64_t layer_id, std::int64_t geometry_id,
                        const GeometryLabel& l) {
  auto values = [&](store::Sql& q) {
    q.bind(l.texto, "text"), q << ", ";
    if (l.posicao) {
      q << "st_setsrid(st_makepoint(", q.bind(decimal(l.posicao->first), "float8");
      q << ", ", q.bind(decimal(l.posicao->second), "float8"), q << "), 4674)";
    } else {
      q << "null::geometry";
    }
    q << ", ", q.bind(l.rotacao ? std::optional(decimal(*l.rotacao)) : std::nullopt, "float8");
    q << ", null";
  };
  auto keep = [](bool set, const char* column) {
    return std::string(column) + " = " + (set ? "excluded." : "r.") + column;
  };
  // A fixed angle replaces a rotation field (the table holds one or the other).
  std::string sets = keep(l.set_texto, "texto") + ", " + keep(l.set_posicao, "posicao") + ", " +
                     keep(l.set_rotacao, "rotacao") + ", " + keep(l.set_rotacao, "campo_rotacao_id");
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    upsert_label(db, s, geometry_id, values, sets);
    layers::bump_generation(db, layer_id);
    tx.commit();
  });
}

void set_geometry_label_rotation(const service::Caller& s, std::int64_t layer_id, std::int64_t geometry_id,
                                 const Field& f) {
  if (!numeric(f.tipo))
    throw Error(errc::invalid_argument, "idCampo: a rotação vem de um campo numérico; " + f.chave + " é " + f.tipo,
                "idCampo");
  auto values = [&](store::Sql& q) { q << "null, null, null, ", q.bind(id_text(f.id), "bigint"); };
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    upsert_label(db, s, geometry_id, values, "rotacao = null, campo_rotacao_id = excluded.campo_rotacao_id");
    layers::bump_generation(db, layer_id);
    tx.commit();
  });
}

std::string geometry_label_json(const service::Caller& s, std::int64_t geometry_id) {
  store::Sql q(
      "select jsonb_build_object('idGeometria', g.id, 'idCamada', g.camada_id, 'texto', r.texto, 'posicao', "
      "case when r.posicao is null then null else jsonb_build_array(st_x(r.posicao), st_y(r.posicao)) end, "
      "'rotacao', r.rotacao, 'idCampoRotacao', r.campo_rotacao_id)::text from projeto.geometrias g "
      "left join projeto.rotulos_geometria r on r.geometria_id = g.id where ");
  common::where_geometry(q, "g.", geometry_id);
  auto out = s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
  if (!out) throw Error(errc::not_found, "geometria " + id_text(geometry_id) + " não encontrada", "idGeometria");
  return *out;
}

categories::Classes categorize(const service::Caller& s, std::int64_t layer_id, const Field& f,
                               int intervals, const std::string& ramp) {
  categories::Classes c;
  c.campo = f.id;
  c.chave = f.chave;
  c.nome = f.nome;
  c.tipo_campo = f.tipo;
  c.paleta = ramp;
  c.gerado_em = now_utc();
  const bool text = f.tipo == "texto" || f.tipo == "lista" || f.tipo == "lista_dominio";
  const bool boolean = f.tipo == "booleano";
  if (!text && !boolean && !numeric(f.tipo))
    throw Error(errc::invalid_argument,
                "idCampo: um campo " + f.tipo + " não se categoriza; use um campo de texto, lista, booleano ou número",
                "idCampo");
  c.tipo = numeric(f.tipo) ? "intervalos" : "valores";

  // Every geometry of the layer counts once: those without a value (no row in the layer's
  // table, or a NULL) go to the "no value" class, the layer's geometries less those with
  // one. One statement reading only the field's column, an index-only scan of its (c_k, id)
  // index, and the layer's number of geometries (kept on its row, migration 0039).
  const std::string table = common::layer_table(layer_id), column = common::field_column(f.id);
  store::Sql q;
  q << "with ";
  if (c.tipo == "valores") {
    q << "c as (select " << column << "::text as valor, count(*) as n from " << table << " where " << column
      << " is not null group by 1), r as (select valor, n, row_number() over (order by n desc, valor) as i from c) "
         "select 'v', valor, n::text, i::text from r where i <= " << std::to_string(categories::kMaxValues)
      << " union all select 'o', null, sum(n)::text, null from r where i > " << std::to_string(categories::kMaxValues)
      << " having count(*) > 0 union all select 's', null, (";
    common::layer_total(q, layer_id);
    q << " - coalesce((select sum(n) from c), 0))::text, null";
  } else {
    q << "v as (select " << column << " as x from " << table << " where " << column << " is not null), "
      << "b as (select min(x) as lo, max(x) as hi, case when min(x) = max(x) then 1 else "
      << std::to_string(intervals)
      << " end as k from v), h as (select case when b.k = 1 then 1 "
         "else least(width_bucket(x, b.lo, b.hi, b.k), b.k) end as classe, count(*) as n from v, b group by 1) "
         "select 'v', (b.lo + (b.hi - b.lo) * (s.i - 1) / b.k)::float8::text, "
         "(b.lo + (b.hi - b.lo) * s.i / b.k)::float8::text, coalesce(h.n, 0)::text, s.i::text "
         "from b cross join generate_series(1, b.k) s(i) left join h on h.classe = s.i where b.lo is not null "
         "union all select 's', null, null, (";
    common::layer_total(q, layer_id);
    q << " - (select count(*) from v))::text, null";
  }

  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    // Prepared on the connection (its text repeats per layer and field): planning it took
    // about 1.3 ms of a 6 ms categorisation at 100,000 lots.
    std::vector<store::Row> rows = store::fetch(db, q.reuse_plan());
    c.classes.clear();
    c.outros.reset();
    // The classes by rank (the last column: frequency rank or interval number); the rows of
    // "outros" and "sem valor" have none and are set apart below.
    std::sort(rows.begin(), rows.end(), [](const store::Row& a, const store::Row& b) {
      return std::strtoll(a.back().value_or("0").c_str(), nullptr, 10) <
             std::strtoll(b.back().value_or("0").c_str(), nullptr, 10);
    });
    for (const store::Row& r : rows) {
      categories::Class k;
      if (c.tipo == "valores") {
        k.total = std::stoll(*r[2]);
        if (*r[0] == "v") k.valor = boolean ? *r[1] : json_quote(*r[1]);
      } else {
        k.total = std::stoll(*r[3]);
        if (*r[0] == "v") k.minimo = std::strtod(r[1]->c_str(), nullptr), k.maximo = std::strtod(r[2]->c_str(), nullptr);
      }
      if (*r[0] == "v") c.classes.push_back(std::move(k));
      else if (*r[0] == "o") c.outros = std::move(k);
      else c.sem_valor = std::move(k);
    }
    categories::paint(c);
    store::Sql w("update projeto.camadas set categorias = ");
    w.bind(categories::to_json(c), "jsonb"), w << " where id = ", w.bind(id_text(layer_id), "bigint");
    store::execute(db, w);
    layers::bump_generation(db, layer_id);
    tx.commit();
  });
  return c;
}

Stored stored_classes(const service::Caller& s, std::int64_t layer_id) {
  store::Sql q("select categorias::text, geometria from projeto.camadas where id = ");
  q.bind(id_text(layer_id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) throw Error(errc::not_found, "camada " + id_text(layer_id) + " não encontrada", "idCamada");
  return {rows[0][0], *rows[0][1]};
}

}  // namespace cadastre::platform::layer_styles
