// JSON reading and writing of domain records.
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "cadastre/domain.hpp"
#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "domain/rules.hpp"

namespace cadastre::domain {
namespace {

// id/codigo as text: a JSON string, or an integer written in decimal.
std::string code_text(jsonin::element e, std::string_view field) {
  if (e.is<std::int64_t>()) return std::to_string(e.get_int64().value_unsafe());
  if (e.is<std::uint64_t>()) return std::to_string(e.get_uint64().value_unsafe());
  std::string_view s;
  if (e.get(s)) {
    throw Error(errc::invalid_argument,
                "campo '" + std::string(field) + "' deve ser um texto ou um número inteiro",
                std::string(field));
  }
  return std::string(s);
}

std::optional<std::string> opt_code(jsonin::object o, std::string_view field) {
  auto e = jsonin::find(o, field);
  if (!e) return std::nullopt;
  return code_text(*e, field);
}

std::string required_code(jsonin::object o, std::string_view field) {
  auto v = opt_code(o, field);
  if (!v) {
    throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(field) + "'",
                std::string(field));
  }
  return *v;
}

Scalar scalar(jsonin::element e, const std::string& name) {
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      return std::monostate{};
    case simdjson::dom::element_type::BOOL:
      return e.get_bool().value_unsafe();
    case simdjson::dom::element_type::INT64:
      return e.get_int64().value_unsafe();
    // Above int64: kept as a number, as PostgreSQL numeric columns would read it.
    case simdjson::dom::element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    case simdjson::dom::element_type::DOUBLE:
      return e.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING:
      return std::string(e.get_string().value_unsafe());
    default:
      throw Error(errc::invalid_argument,
                  "campo '" + name +
                      "' deve ser um valor simples (texto, número, "
                      "booleano ou nulo)",
                  name);
  }
}

// Reads descricao and the extra members shared by create and update.
Record read_common(jsonin::object o) {
  Record r;
  r.descricao = jsonin::string(o, "descricao");
  for (auto [key, value] : o) {
    if (key == "id" || key == "codigo" || key == "descricao") continue;
    std::string name(key);
    r.extra.emplace_back(name, scalar(value, name));
  }
  return r;
}

}  // namespace

Record Record::from_json_for_create(std::string_view json) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, json), "corpo");
  std::string id = required_code(o, "id");
  std::string codigo = required_code(o, "codigo");
  Record r = read_common(o);
  r.id = std::move(id);
  r.codigo = std::move(codigo);
  r.validate();
  return r;
}

Record Record::from_json_for_update(std::string_view json, std::string_view path_id) {
  detail::check_code(path_id, "id");
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, json), "corpo");
  if (auto id = opt_code(o, "id"); id && *id != path_id) {
    throw Error(
        errc::invalid_argument,
        "o id do corpo ('" + *id + "') difere do id da rota ('" + std::string(path_id) + "')",
        "id");
  }
  if (auto codigo = opt_code(o, "codigo"); codigo && *codigo != path_id) {
    throw Error(errc::invalid_argument,
                "codigo não pode ser alterado: id e codigo devem ser iguais (id '" +
                    std::string(path_id) + "', codigo '" + *codigo + "')",
                "codigo");
  }
  Record r = read_common(o);
  r.id = std::string(path_id);
  r.codigo = r.id;
  r.validate();
  return r;
}

std::string Record::to_json() const {
  JsonWriter w;
  w.begin_object()
      .key("id")
      .value(id)
      .key("codigo")
      .value(codigo)
      .key("descricao")
      .value(descricao);
  for (const auto& [name, v] : extra) {
    w.key(name);
    std::visit(
        [&w](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::monostate>) {
            w.null();
          } else {
            w.value(x);
          }
        },
        v);
  }
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::domain
