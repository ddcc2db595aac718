#include "platform/companies/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::companies {

Fields parse_fields(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  Fields f;
  for (auto [key, value] : root) {
    std::string k(key), v = jsonin::to_string(value, k);
    if (v.size() > 300) throw Error(errc::invalid_argument, k + " longo demais", k);
    if (k == "nome") f.nome = v;
    else if (k == "cnpj") f.cnpj = v;
    else if (k == "email") f.email = v.empty() ? v : normalize_email(v);
    else if (k == "telefone") f.telefone = v;
    else if (k == "endereco") f.endereco = v;
    else if (k == "site") f.site = v;
    else throw Error(errc::unknown_field, "campo desconhecido: " + k, k);
  }
  if (f.nome && f.nome->empty()) throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
  if (f.cnpj) {
    std::erase_if(*f.cnpj, [](char c) { return c == '.' || c == '/' || c == '-'; });
    if (!f.cnpj->empty() && (f.cnpj->size() != 14 || f.cnpj->find_first_not_of("0123456789") != std::string::npos))
      throw Error(errc::invalid_argument, "cnpj deve ter 14 dígitos", "cnpj");
  }
  return f;
}

}  // namespace cadastre::platform::companies
