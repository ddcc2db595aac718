#include "platform/companies/input.hpp"

#include <simdjson.h>

#include <map>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::companies {

Fields parse_fields(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  Fields f;
  const std::map<std::string, std::optional<std::string>*> members = {
      {"nome", &f.nome},         {"cnpj", &f.cnpj},         {"email", &f.email},
      {"telefone", &f.telefone}, {"endereco", &f.endereco}, {"site", &f.site}};
  for (auto [key, value] : root) {
    std::string k(key);
    auto member = members.find(k);  // an unknown member is named as such, whatever its type
    if (member == members.end()) throw body::unknown_member(k);
    std::string v = jsonin::to_string(value, k);
    if (v.size() > 300) throw Error(errc::invalid_argument, k + " longo demais", k);
    *member->second = k == "email" && !v.empty() ? normalize_email(v) : v;
  }
  if (f.nome && f.nome->empty()) throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
  if (f.cnpj) {
    std::erase_if(*f.cnpj, [](char c) { return c == '.' || c == '/' || c == '-'; });
    if (!f.cnpj->empty() && (f.cnpj->size() != 14 || f.cnpj->find_first_not_of("0123456789") != std::string::npos))
      throw Error(errc::invalid_argument, "cnpj deve ter 14 dígitos", "cnpj");
  }
  return f;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"EmpresaAlteracao", object({{"nome", kText}, {"cnpj", kText}, {"email", kText}, {"telefone", kText},
                                   {"endereco", kText}, {"site", kText}},
                                  {}, true),
       R"({"nome":"Prefeitura de Campinas","cnpj":"46.068.425/0001-33","email":"cadastro@campinas.sp.gov.br","site":"https://campinas.sp.gov.br"})",
       [](std::string_view body) { parse_fields(body); }},
  };
}

}  // namespace cadastre::platform::companies
