#include "server/ldap/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::ldap {

directory::Credentials parse_login(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, _] : root)
    if (key != "username" && key != "password" && key != "municipio")
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  return {jsonin::string(root, "username"), jsonin::string(root, "password"),
          jsonin::opt_string(root, "municipio").value_or("")};
}

}  // namespace cadastre::server::ldap
