#include <charconv>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/geostatistics/samples.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geostatistics {
double number_of(const std::string& text) {
  double d = 0;
  std::from_chars(text.data(), text.data() + text.size(), d);
  return d;
}

namespace {

FieldInfo field_of(soci::session& db, std::int64_t layer, const FieldParam& f) {
  store::Sql q("select k.chave, k.nome, k.tipo from projeto.campos k join projeto.formularios f "
               "on f.id = k.formulario_id where k.id = ");
  q.bind(std::to_string(f.id), "bigint") << " and f.camada_id = ";
  q.bind(std::to_string(layer), "bigint");
  auto rows = store::fetch(db, q);
  if (rows.empty())
    throw Error(errc::invalid_argument,
                f.param + ": o campo " + std::to_string(f.id) + " não é da camada " + std::to_string(layer), f.param);
  return {f.id, *rows[0][0], *rows[0][1], *rows[0][2]};
}

}  // namespace

std::vector<FieldInfo> check_fields(const service::Caller& s, std::int64_t layer, const std::vector<FieldParam>& fields,
                                    const std::optional<FieldParam>& check) {
  return s.db->with([&](soci::session& db) {
    std::vector<FieldInfo> out;
    for (const FieldParam& f : fields) {
      FieldInfo info = field_of(db, layer, f);
      if (info.tipo != "inteiro" && info.tipo != "decimal" && info.tipo != "calculado")
        throw Error(errc::invalid_argument,
                    f.param + ": o campo " + info.chave + " é do tipo " + info.tipo + ", não numérico", f.param);
      out.push_back(std::move(info));
    }
    if (check && field_of(db, layer, *check).tipo != "booleano")
      throw Error(errc::invalid_argument, check->param + ": o campo de seleção deve ser booleano", check->param);
    return out;
  });
}

std::vector<SampleRow> load_rows(const service::Caller& s, std::int64_t layer, const std::vector<FieldParam>& fields,
                                 const std::optional<FieldParam>& check) {
  // The geometries' rows of the layer's table (a geometry without one has no values).
  store::Sql q("select g.id::text, st_x(c.p)::text, st_y(c.p)::text");
  for (const FieldParam& f : fields) q << ", l." << common::field_column(f.id) << "::float8::text";
  q << " from projeto.geometrias g cross join lateral (select st_centroid(g.geom) as p) c left join "
    << common::layer_table(layer) << " l on l.id = g.id where g.camada_id = ";
  q.bind(std::to_string(layer), "bigint");
  if (check) q << " and l." << common::field_column(check->id);
  q << " order by g.id limit " << std::to_string(kMaxSamples + 1);
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.size() > kMaxSamples)
    throw Error(errc::payload_too_large,
                "a camada tem mais de " + std::to_string(kMaxSamples) + " amostras: filtre-as com um campo de seleção",
                "amostras");
  std::vector<SampleRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    SampleRow row{std::stoll(*r[0]), number_of(*r[1]), number_of(*r[2]), {}};
    for (std::size_t i = 0; i < fields.size(); ++i)
      row.values.push_back(r[3 + i] ? std::optional<double>(number_of(*r[3 + i])) : std::nullopt);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace cadastre::platform::geostatistics
