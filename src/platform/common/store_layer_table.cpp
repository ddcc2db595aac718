#include "platform/common/layer_table.hpp"

#include <soci/soci.h>

namespace cadastre::platform::common {

std::string layer_table(std::int64_t camada) { return "camadas.l" + std::to_string(camada); }
std::string geometry_partition(std::int64_t camada) { return "camadas.g" + std::to_string(camada); }

void where_geometry(store::Sql& q, std::string_view alias, std::int64_t id) {
  const std::string a(alias), text = std::to_string(id);
  q << a << "id = ", q.bind(text, "bigint") << " and " << a << "camada_id = projeto.camada_da_geometria(";
  q.bind(text, "bigint") << ")";
}

void layer_total(store::Sql& q, std::int64_t camada) {
  q << "(select t.total_geometrias from projeto.camadas t where t.id = ", q.bind(std::to_string(camada), "bigint");
  q << ")";
}

std::string project_layers(soci::session& s, std::int64_t projeto, std::optional<std::int64_t> of_geometry) {
  store::Sql q("select coalesce(array_agg(c.id order by c.id), '{}')::text from projeto.camadas c where c.projeto_id = ");
  if (of_geometry) {
    q << "(select x.projeto_id from projeto.camadas x where x.id = projeto.camada_da_geometria(";
    q.bind(std::to_string(*of_geometry), "bigint") << "))";
  } else {
    q.bind(std::to_string(projeto), "bigint");
  }
  return store::fetch_value(s, q).value_or("{}");
}

void where_geometries(store::Sql& q, std::string_view alias, const std::string& ids) {
  const std::string a(alias);
  q << a << "id = any(", q.bind(ids, "bigint[]") << ") and " << a
                                                  << "camada_id = any(projeto.camadas_das_geometrias(";
  q.bind(ids, "bigint[]") << "))";
}

std::string field_column(std::int64_t campo) { return "c_" + std::to_string(campo); }

std::string column_type(std::string_view tipo) {
  std::string_view family = field_values::column_of(tipo);
  if (family == "numero") return "numeric";
  if (family == "data") return "date";
  if (family == "booleano") return "boolean";
  if (family == "lista") return "jsonb";
  return "text";
}

std::string value_id_sql(const std::string& geometria, const std::string& posicao) {
  return "(" + std::to_string(kValueIdBase) + " + (" + geometria + ") * 1024 + (" + posicao + "))";
}

store::Sql layer_fields_statement(std::int64_t camada) {
  store::Sql q("select k.id::text, f.id::text, k.chave, k.nome, k.tipo, k.posicao::text from projeto.campos k "
               "join projeto.formularios f on f.id = k.formulario_id where f.camada_id = ");
  q.bind(std::to_string(camada), "bigint") << " order by f.ordem, f.id, k.ordem, k.id";
  q.reuse_plan();  // every page, search and write of a layer's values reads them
  return q;
}

std::vector<LayerField> layer_fields_of(const std::vector<store::Row>& rows) {
  std::vector<LayerField> out;
  out.reserve(rows.size());
  for (const store::Row& r : rows)
    out.push_back({std::stoll(*r[0]), std::stoll(*r[1]), *r[2], *r[3], *r[4], std::stoi(*r[5])});
  return out;
}

std::vector<LayerField> layer_fields(soci::session& s, std::int64_t camada) {
  return layer_fields_of(store::fetch(s, layer_fields_statement(camada)));
}

std::optional<std::int64_t> layer_of_field(soci::session& s, std::int64_t campo) {
  store::Sql q("select f.camada_id::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
               "where k.id = ");
  q.bind(std::to_string(campo), "bigint").reuse_plan();
  if (auto v = store::fetch_value(s, q)) return std::stoll(*v);
  return std::nullopt;
}

std::optional<field_values::Typed> stored_value(std::string_view tipo, const store::Value& text) {
  if (!text) return std::nullopt;
  return field_values::Typed{std::string(field_values::column_of(tipo)), text};
}

std::string values_object_sql(const std::vector<LayerField>& fields, const std::string& alias) {
  if (fields.empty()) return "'{}'::jsonb";
  // jsonb_build_object takes at most 100 arguments: 50 fields per call, concatenated.
  std::string out = "jsonb_strip_nulls(";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i % 50 == 0) out += i ? ") || jsonb_build_object(" : "jsonb_build_object(";
    else out += ", ";
    // The chave is a machine name (^[a-z][a-z0-9_]{0,62}$, checked by the table): a literal.
    out += "'" + fields[i].chave + "', " + alias + "." + fields[i].column();
  }
  return out + "))";
}

}  // namespace cadastre::platform::common
