#include "platform/geometries/store_write.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <sstream>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geometries {
namespace steps {
namespace {

// "xmin ymin xmax ymax" as geometry_box writes it.
std::array<double, 4> box_of(const std::string& text) {
  std::array<double, 4> b{};
  std::istringstream in(text);
  in >> b[0] >> b[1] >> b[2] >> b[3];
  return b;
}

constexpr const char* kBox = "concat_ws(' ', st_xmin(g.geom), st_ymin(g.geom), st_xmax(g.geom), st_ymax(g.geom))";

void audit(soci::session& s, std::int64_t id, std::int64_t layer, const std::string& operacao,
           const std::optional<std::string>& antes, std::int64_t user) {
  store::Sql q("select projeto.geometria_registrar(");
  q.bind(std::to_string(id), "bigint") << ", ";
  q.bind(std::to_string(layer), "bigint") << ", ";
  q.bind(operacao) << ", ";
  q.bind(antes, "jsonb") << ", ";
  q.bind(std::to_string(user), "bigint") << ")::text";
  store::fetch(s, q);
}

// The version and box of a geometry just written.
Touched touched_now(soci::session& s, std::int64_t id, std::int64_t layer, const std::string& operacao) {
  store::Sql q(std::string("select g.versao::text, ") + kBox + " from projeto.geometrias g where g.id = ");
  q.bind(std::to_string(id), "bigint") << " and g.camada_id = ";
  q.bind(std::to_string(layer), "bigint");
  auto rows = store::fetch(s, q);
  Touched t{.layer = layer, .id = id, .versao = std::stoll(*rows.at(0)[0]), .operacao = operacao, .boxes = {}};
  t.boxes.push_back(box_of(*rows[0][1]));
  return t;
}

// The values of `from.from` into the new geometry `to` of `layer`: by field chave and type
// (one value per destination field: the origin's first field of that chave holding one),
// as one row of the layer's table. How many values were copied.
std::int64_t copy_matching_values(soci::session& s, const ValuesFrom& from, std::int64_t to, std::int64_t layer) {
  // Each destination field with the origin's fields of its chave and type, by id.
  store::Sql pairs("select kd.id::text, string_agg(ko.id::text, ',' order by ko.id), g.camada_id::text "
                   "from projeto.geometrias g join projeto.formularios fo on fo.camada_id = g.camada_id "
                   "join projeto.campos ko on ko.formulario_id = fo.id "
                   "join projeto.campos kd on kd.chave = ko.chave and kd.tipo = ko.tipo "
                   "join projeto.formularios fd on fd.id = kd.formulario_id where ");
  common::where_geometry(pairs, "g.", from.from);
  pairs << " and fd.camada_id = ";
  pairs.bind(std::to_string(layer), "bigint");
  if (from.form) {
    pairs << " and fd.id = ";
    pairs.bind(std::to_string(from.form), "bigint");
  }
  pairs << " group by kd.id, g.camada_id order by kd.id";
  std::vector<store::Row> rows = store::fetch(s, pairs);
  if (rows.empty()) return 0;
  std::string columns, values, copied, given;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const store::Row& r = rows[k];
    const std::string column = common::field_column(std::stoll(*r[0]));
    std::string origin;
    for (std::size_t i = 0, j; i < r[1]->size(); i = j + 1) {
      j = std::min(r[1]->find(',', i), r[1]->size());
      origin += (origin.empty() ? "o." : ", o.") + common::field_column(std::stoll(r[1]->substr(i, j - i)));
    }
    // How many are not null, by num_nonnulls of at most 100 arguments.
    const char* sep = k % 100 ? ", " : k ? ") + num_nonnulls(" : "(num_nonnulls(";
    columns += ", " + column;
    values += (k ? ", coalesce(" : "coalesce(") + origin + ")";
    copied += sep + column;
    given += sep + ("coalesce(" + origin + ")");
  }
  store::Sql q("with i as (insert into " + common::layer_table(layer) + " (id" + columns + ") select ");
  q.bind(std::to_string(to), "bigint") << ", " << values << " from " << common::layer_table(std::stoll(*rows[0][2]))
                                      << " o where o.id = ";
  q.bind(std::to_string(from.from), "bigint") << " and " << given << ")) > 0 returning " << copied
                                              << ")) as n) select coalesce(sum(n), 0)::text from i";
  return std::stoll(store::fetch_value(s, q).value_or("0"));
}

}  // namespace

const std::string& geometry_sql() {
  static const std::string sql =
      "jsonb_build_object('id', g.id, 'idCamada', g.camada_id, 'versao', g.versao, 'vinculoId', g.vinculo_id, "
      "'geometria', st_asgeojson(g.geom, 9, 0)::jsonb, 'indiceTematico', g.indice_tematico, "
      "'criadoPor', g.criado_por, 'criadoEm', g.criado_em, 'atualizadoPor', g.atualizado_por, "
      "'atualizadoEm', g.atualizado_em)";
  return sql;
}

Read read(soci::session& s, const Shape& shape) {
  store::Sql q("select geom::text, erro from projeto.geometria_ler(");
  q.bind(shape.wkt) << ", ";
  q.bind(shape.geojson) << ", ";
  q.bind(shape.srid ? std::optional<std::string>(std::to_string(*shape.srid)) : std::nullopt, "integer") << ")";
  auto rows = store::fetch(s, q);
  Read r;
  if (rows.at(0)[1]) r.erro = *rows[0][1];
  else r.geom = *rows[0][0];
  return r;
}

std::string read_or_throw(soci::session& s, const Shape& shape) {
  Read r = read(s, shape);
  if (r.erro) throw Error(errc::invalid_argument, shape.field() + ": " + *r.erro, shape.field());
  return r.geom;
}

std::optional<std::string> type_mismatch(soci::session& s, const std::string& geom, std::int64_t layer) {
  store::Sql q("select projeto.geometria_do_tipo(");
  q.bind(geom, "geometry") << ", c.geometria)::text, c.geometria, geometrytype(";
  q.bind(geom, "geometry") << ") from projeto.camadas c where c.id = ";
  q.bind(std::to_string(layer), "bigint");
  auto rows = store::fetch(s, q);
  if (rows.empty()) throw Error(errc::not_found, "camada não encontrada", "idCamada");
  if (rows[0][0] == "true") return std::nullopt;
  return "a camada " + std::to_string(layer) + " é de " + *rows[0][1] + ", não aceita " + *rows[0][2];
}

std::optional<Locked> lock(soci::session& s, std::int64_t id) {
  store::Sql q(std::string("select g.camada_id::text, g.versao::text, projeto.geometria_estado(g.id)::text, ") + kBox +
               " from projeto.geometrias g where ");
  common::where_geometry(q, "g.", id);
  q << " for update";
  auto rows = store::fetch(s, q);
  if (rows.empty()) return std::nullopt;
  return Locked{id, std::stoll(*rows[0][0]), std::stoll(*rows[0][1]), *rows[0][2], box_of(*rows[0][3])};
}

Locked lock_at(soci::session& s, std::int64_t id, std::int64_t versao) {
  auto row = lock(s, id);
  if (!row) throw Stale(id, 0);
  if (row->versao != versao) throw Stale(id, row->versao);
  return *row;
}

namespace {

// The new row, not yet audited (the audit takes the layer's row: last, see store.hpp).
std::int64_t insert_row(soci::session& s, std::int64_t user, std::int64_t layer, const std::string& geom,
                        std::optional<std::int64_t> vinculo) {
  if (auto why = type_mismatch(s, geom, layer)) throw Error(errc::invalid_argument, *why, "geometria");
  store::Sql q("insert into projeto.geometrias (camada_id, geom, vinculo_id, criado_por, atualizado_por) values (");
  q.bind(std::to_string(layer), "bigint") << ", ";
  q.bind(geom, "geometry") << ", ";
  q.bind(vinculo ? std::optional<std::string>(std::to_string(*vinculo)) : std::nullopt, "bigint") << ", ";
  q.bind(std::to_string(user), "bigint") << ", ";
  q.bind(std::to_string(user), "bigint") << ") returning id::text";
  return std::stoll(*store::fetch_value(s, q));
}

}  // namespace

Touched insert(soci::session& s, std::int64_t user, std::int64_t layer, const std::string& geom,
               std::optional<std::int64_t> vinculo, const std::string& operacao, ValuesFrom* values) {
  std::int64_t id = insert_row(s, user, layer, geom, vinculo);
  if (values) values->copied = copy_matching_values(s, *values, id, layer);
  audit(s, id, layer, operacao, std::nullopt, user);
  return touched_now(s, id, layer, operacao);
}

Touched insert_with_values(soci::session& s, std::int64_t user, std::int64_t layer, const std::string& geom,
                           std::optional<std::int64_t> vinculo, const std::vector<values::Entry>& entries,
                           std::string& values_json) {
  std::int64_t id = insert_row(s, user, layer, geom, vinculo);
  // The values' lock order (unique fields, the geometry's row, the layer's row) holds: the
  // new row's insert only key-shares the layer, which the audit below then updates.
  values::BatchResult r = values::write_batch_in(s, user, id, layer, entries);
  if (!r.problems.empty()) throw ValuesRefused(std::move(r.problems));
  values_json = std::move(r.values);
  audit(s, id, layer, "criar", std::nullopt, user);
  Touched t = touched_now(s, id, layer, "criar");
  t.valores = true;
  return t;
}

Touched replace(soci::session& s, std::int64_t user, const Locked& row, const std::string& geom,
                const std::string& operacao) {
  if (auto why = type_mismatch(s, geom, row.layer)) throw Error(errc::invalid_argument, *why, "geometria");
  // The version in the where clause as well as under the row lock: a write never lands on
  // a version it did not read.
  store::Sql q("update projeto.geometrias set geom = ");
  q.bind(geom, "geometry") << ", versao = versao + 1, atualizado_por = ";
  q.bind(std::to_string(user), "bigint") << ", atualizado_em = now() where id = ";
  q.bind(std::to_string(row.id), "bigint") << " and camada_id = ";
  q.bind(std::to_string(row.layer), "bigint") << " and versao = ";
  q.bind(std::to_string(row.versao), "integer");
  if (store::execute(s, q) != 1) throw Stale(row.id, 0);
  audit(s, row.id, row.layer, operacao, row.estado, user);
  Touched t = touched_now(s, row.id, row.layer, operacao);
  t.boxes.insert(t.boxes.begin(), row.box);
  return t;
}

Touched erase(soci::session& s, std::int64_t user, const Locked& row) {
  store::Sql q("delete from projeto.geometrias where id = ");
  q.bind(std::to_string(row.id), "bigint") << " and camada_id = ";
  q.bind(std::to_string(row.layer), "bigint") << " and versao = ";
  q.bind(std::to_string(row.versao), "integer");
  if (store::execute(s, q) != 1) throw Stale(row.id, 0);
  audit(s, row.id, row.layer, "excluir", row.estado, user);
  return Touched{.layer = row.layer, .id = row.id, .versao = std::nullopt, .operacao = "excluir", .boxes = {row.box}};
}

std::string json_of(soci::session& s, std::int64_t id, const std::optional<std::string>& valores) {
  store::Sql q("select (" + geometry_sql());
  if (valores) q << " || jsonb_build_object('valores', ", q.bind(*valores, "jsonb"), q << ")";
  q << ")::text from projeto.geometrias g where ";
  common::where_geometry(q, "g.", id);
  auto v = store::fetch_value(s, q);
  if (!v) throw Error(errc::not_found, "geometria não encontrada", "id");
  return *v;
}

}  // namespace steps

std::string ValuesRefused::fields_text() const {
  std::string out;
  for (const values::Problem& p : problems) {
    out += out.empty() ? "" : "; ";
    out += (p.chave.empty() ? "campo " + std::to_string(p.campo) : "'" + p.chave + "'") + ": " + p.motivo;
  }
  return out;
}

Written create(store::Pool& pool, std::int64_t user, std::int64_t layer, const NewGeometry& g) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::string geom = steps::read_or_throw(s, g.shape);
    if (!g.valores) {
      Touched t = steps::insert(s, user, layer, geom, g.vinculo);
      Written w{steps::json_of(s, t.id), {t}};
      tx.commit();
      return w;
    }
    std::string values_json;
    Touched t = steps::insert_with_values(s, user, layer, geom, g.vinculo, *g.valores, values_json);
    // The geometry's object with the values as one more member.
    Written w{steps::json_of(s, t.id, values_json), {t}};
    tx.commit();
    return w;
  });
}

Written change(store::Pool& pool, std::int64_t user, std::int64_t id, const Change& c) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::string geom = steps::read_or_throw(s, c.shape);
    steps::Locked row = steps::lock_at(s, id, c.versao);
    Touched t = steps::replace(s, user, row, geom);
    Written w{steps::json_of(s, id), {t}};
    tx.commit();
    return w;
  });
}

Written remove(store::Pool& pool, std::int64_t user, std::int64_t id, std::int64_t versao) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    Touched t = steps::erase(s, user, steps::lock_at(s, id, versao));
    tx.commit();
    return Written{"", {t}};
  });
}

Written remove_many(store::Pool& pool, std::int64_t user, const Union& order) {
  std::vector<std::int64_t> ids = order.ids;
  std::sort(ids.begin(), ids.end());  // lock order: ascending id
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    Written w;
    for (std::int64_t id : ids) {
      auto row = steps::lock(s, id);
      if (!row) throw Stale(id, 0);
      if (auto v = order.versoes.find(id); v != order.versoes.end() && v->second != row->versao)
        throw Stale(id, row->versao);
      w.touched.push_back(steps::erase(s, user, *row));
    }
    tx.commit();
    return w;
  });
}

}  // namespace cadastre::platform::geometries
