#include "platform/licenses/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <regex>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::licenses {
namespace {

// A calendar date (2023-02-29 is not one), of a year the database stores.
std::string date(const std::string& text, const char* field) {
  static const std::regex iso(R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))");
  bool ok = std::regex_match(text, iso);
  if (ok) {
    std::chrono::year_month_day d{
        std::chrono::year(std::stoi(text.substr(0, 4))),
        std::chrono::month(static_cast<unsigned>(std::stoi(text.substr(5, 2)))),
        std::chrono::day(static_cast<unsigned>(std::stoi(text.substr(8, 2))))};
    ok = d.ok() && d.year() >= std::chrono::year(1900);
  }
  if (!ok)
    throw Error(errc::invalid_argument, std::string(field) + " deve ser uma data AAAA-MM-DD",
                field);
  return text;
}

// The quotas are integer columns: a larger number is the caller's error, not the database's.
std::int64_t quota(jsonin::object root, const char* field) {
  std::int64_t v = jsonin::integer(root, field);
  if (v <= 0 || v > INT32_MAX)
    throw Error(errc::invalid_argument, std::string(field) + " deve ser de 1 a 2147483647", field);
  return v;
}


LicenseFields fields(jsonin::object root, bool allow_tenant) {
  LicenseFields f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idTenant" && allow_tenant) continue;
    if (k == "plano") f.plano = jsonin::to_string(value, k);
    else if (k == "status") f.status = jsonin::to_string(value, k);
    else if (k == "inicio") f.inicio = date(jsonin::to_string(value, k), "inicio");
    else if (k == "fim") f.fim = date(jsonin::to_string(value, k), "fim");
    else if (k == "observacao") f.observacao = jsonin::to_string(value, k);
    else if (k == "maxUsuarios") f.max_usuarios = quota(root, "maxUsuarios");
    else if (k == "maxArmazenamentoMb") f.max_armazenamento_mb = quota(root, "maxArmazenamentoMb");
    else if (k == "pagamentoConfirmado" && !allow_tenant)
      f.pagamento_confirmado = body::required_id(root, "pagamentoConfirmado");
    else throw body::unknown_member(k);
  }
  if (f.status && std::none_of(std::begin(kStoredStatuses), std::end(kStoredStatuses),
                               [&](const char* s) { return *f.status == s; }))
    throw Error(errc::invalid_argument, "status deve ser teste, ativa, suspensa ou cancelada", "status");
  if (f.plano && (f.plano->empty() || f.plano->size() > 100))
    throw Error(errc::invalid_argument, "plano deve ter de 1 a 100 caracteres", "plano");
  if (f.observacao && f.observacao->size() > 4000)
    throw Error(errc::invalid_argument, "observacao deve ter até 4000 caracteres", "observacao");
  if (f.inicio && f.fim && *f.fim < *f.inicio)  // ISO dates order as text
    throw Error(errc::invalid_argument, "fim deve ser igual ou posterior a inicio", "fim");
  return f;
}

}  // namespace

NewLicense parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  NewLicense n{jsonin::integer(root, "idTenant"), fields(root, true)};
  if (!n.fields.plano) throw Error(errc::missing_field, "informe plano", "plano");
  if (!n.fields.fim) throw Error(errc::missing_field, "informe fim", "fim");
  if (!n.fields.max_usuarios) throw Error(errc::missing_field, "informe maxUsuarios", "maxUsuarios");
  if (!n.fields.max_armazenamento_mb) throw Error(errc::missing_field, "informe maxArmazenamentoMb", "maxArmazenamentoMb");
  return n;
}

LicenseFields parse_change(std::string_view body) {
  simdjson::dom::parser parser;
  LicenseFields f = fields(jsonin::as_object(jsonin::parse(parser, body), "corpo"), false);
  // A payment is recorded on its own, so a refused change never leaves it half done.
  if (f.pagamento_confirmado && f.changes_license())
    throw Error(errc::invalid_argument, "pagamentoConfirmado vai sozinho, sem outros campos", "pagamentoConfirmado");
  return f;
}

TokenRequest parse_token_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  TokenRequest t;
  body::only_members(root, {"id", "nome", "escopo"});
  t.id = jsonin::opt_integer(root, "id");
  if (t.id) return t;
  t.nome = jsonin::string(root, "nome");
  t.escopo = jsonin::string(root, "escopo");
  if (t.nome.empty() || t.nome.size() > 100) throw Error(errc::invalid_argument, "nome deve ter de 1 a 100 caracteres", "nome");
  if (t.escopo != "integracao" && t.escopo != "avaliacao")
    throw Error(errc::invalid_argument, "escopo deve ser integracao ou avaliacao", "escopo");
  return t;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string day = R"({"type":"string","format":"date","description":"AAAA-MM-DD, a partir de 1900"})";
  const std::string limit = R"({"type":"integer","format":"int32","minimum":1,"maximum":2147483647})";
  // The members both bodies share (fim not before inicio).
  Props license = {{"plano", R"({"type":"string","minLength":1,"maxLength":100})"},
                   {"status", enumeration({"teste", "ativa", "suspensa", "cancelada"})},
                   {"inicio", day},
                   {"fim", day},
                   {"maxUsuarios", limit},
                   {"maxArmazenamentoMb", limit},
                   {"observacao", R"({"type":"string","maxLength":4000})"}};
  Props created = license, changed = license;
  created.emplace_back("idTenant", kInt);
  changed.emplace_back("pagamentoConfirmado",
                       R"({"type":"integer","format":"int64","minimum":1,"description":"o id de um contrato da licença cujo pagamento chegou; vai sozinho, sem outros campos"})");
  std::string token = object({{"id", kInt},
                              {"nome", R"({"type":"string","minLength":1,"maxLength":100})"},
                              {"escopo", enumeration({"avaliacao", "integracao"})}},
                             {}, true);
  // {"id"} rotates that token; without it, nome and escopo issue one.
  token.insert(token.size() - 1, R"(,"anyOf":[{"required":["id"]},{"required":["nome","escopo"]}])");
  return {
      {"LicencaNova", object(created, {"idTenant", "plano", "fim", "maxUsuarios", "maxArmazenamentoMb"}, true),
       R"({"idTenant":3,"plano":"Municipal 50","status":"ativa","inicio":"2025-01-01","fim":"2025-12-31",)"
       R"("maxUsuarios":50,"maxArmazenamentoMb":20480,"observacao":"Contrato 12/2025, pago anualmente"})",
       [](std::string_view body) { parse_new(body); }},
      {"LicencaAlteracao", object(changed, {}, true),
       R"({"plano":"Municipal 100","fim":"2026-12-31","maxUsuarios":100,"maxArmazenamentoMb":51200,)"
       R"("observacao":"Ampliada pelo aditivo 1"})",
       [](std::string_view body) { parse_change(body); }},
      {"TokenApiPedido", token, R"({"nome":"integracao-erp","escopo":"integracao"})",
       [](std::string_view body) { parse_token_request(body); }},
  };
}

}  // namespace cadastre::platform::licenses
