#include "platform/city_reports/input.hpp"

#include <simdjson.h>

#include <algorithm>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::city_reports {

ValuationOrder parse_valuation(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idImovel", "inscricao", "anoReferencia"});
  ValuationOrder v;
  auto id = jsonin::find(o, "idImovel");
  auto inscricao = jsonin::opt_string(o, "inscricao");
  if (id && inscricao) throw Error(errc::invalid_argument, "informe idImovel ou inscricao, não os dois", "idImovel");
  if (!id && !inscricao) throw Error(errc::missing_field, "informe idImovel ou inscricao", "idImovel");
  if (id) {
    std::int64_t n = 0;
    if (id->get(n) || n < 1 || n > INT32_MAX)
      throw Error(errc::invalid_argument, "idImovel deve ser um id (inteiro positivo)", "idImovel");
    v.imovel = n;
  } else {
    if (inscricao->empty() || inscricao->size() > 50)
      throw Error(errc::invalid_argument, "inscricao deve ter de 1 a 50 caracteres", "inscricao");
    v.inscricao = *inscricao;
  }
  if (auto ano = jsonin::opt_integer(o, "anoReferencia")) {
    if (*ano < 1800 || *ano > 2200) throw Error(errc::invalid_argument, "anoReferencia deve estar entre 1800 e 2200", "anoReferencia");
    v.ano = static_cast<int>(*ano);
  }
  return v;
}

std::int64_t parse_property_id(const http::Request& req) {
  auto v = req.query_value("idImovel");
  if (!v || v->empty()) throw Error(errc::missing_field, "informe idImovel", "idImovel");
  return query::parse_integer(*v, "idImovel", 1, INT32_MAX);
}

std::string parse_city(const http::Request& req) {
  const std::string& cidade = req.param("cidade");
  bool slug = !cidade.empty() && cidade.size() <= 63 && std::all_of(cidade.begin(), cidade.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
  if (!slug) throw Error(errc::invalid_argument, "cidade deve ser o identificador de um município", "cidade");
  return cidade;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"PedidoLaudo",
       R"({"type":"object","additionalProperties":false,"description":"idImovel ou inscricao, um só",)"
       R"("properties":{"idImovel":{"type":"integer","minimum":1,"maximum":2147483647},)"
       R"("inscricao":{"type":"string","minLength":1,"maxLength":50},)"
       R"("anoReferencia":{"type":"integer","minimum":1800,"maximum":2200}}})",
       R"({"inscricao":"01.02.003.0045.001","anoReferencia":2026})", [](std::string_view body) { parse_valuation(body); }},
  };
}

}  // namespace cadastre::platform::city_reports
