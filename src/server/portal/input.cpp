#include "server/portal/input.hpp"

#include "cadastre/error.hpp"

namespace cadastre::server::portal {
namespace {
constexpr const char* kKeys[] = {"id", "inscricao_cartografica", "numero_cadastro"};
}  // namespace

PropertyKey parse_property_key(const http::Request& req) {
  PropertyKey key;
  int given = 0;
  for (const auto& [name, value] : req.query)
    for (const char* k : kKeys)
      if (name == k) {
        ++given;
        key = {k, value};
      }
  if (given != 1)
    throw Error(errc::invalid_argument,
                "informe exatamente um entre id, inscricao_cartografica e numero_cadastro", "id");
  if (key.field == "id") key.value = std::to_string(query::parse_integer(key.value, "id", 1, 2147483647));
  if (key.value.empty())
    throw Error(errc::invalid_argument, "o valor de " + key.field + " está vazio", key.field);
  return key;
}

std::optional<int> parse_reference_year(const http::Request& req) {
  if (auto y = req.query_value("ano_referencia"))
    return static_cast<int>(query::parse_integer(*y, "ano_referencia", 1, 9999));
  return std::nullopt;
}

Search parse_search(const http::Request& req) {
  Search out;
  out.paging = query::normalize_paging(req.query);
  struct Field {
    const char* param;
    const char* column;
    bool by_name;
  };
  static constexpr Field kFields[] = {
      {"inscricao_cartografica", "i.inscricao_cartografica", false},
      {"numero_cadastro", "i.numero_cadastro", false},
      {"inscricao_lote", "l.inscricao", false},
      {"uso", "i.uso", false},
      {"logradouro", "g.nome", true},
      {"bairro", "b.nome", true},
  };
  for (const auto& f : kFields)
    if (auto v = req.query_value(f.param)) out.filters.push_back({f.column, *v, f.by_name});
  return out;
}

}  // namespace cadastre::server::portal
