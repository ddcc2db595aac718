#include "server/ldap/input.hpp"

#include <simdjson.h>

#include <algorithm>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::ldap {
namespace {
constexpr std::size_t kMaxUsername = 256;
constexpr std::size_t kMaxPassword = 1024;
}  // namespace

bool LoginInput::plausible() const {
  bool control = std::any_of(username.begin(), username.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  return !password.empty() && !username.empty() && !control && username.size() <= kMaxUsername &&
         password.size() <= kMaxPassword;
}

LoginInput parse_login(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, _] : root)
    if (key != "username" && key != "password" && key != "municipio")
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  return {jsonin::string(root, "username"), jsonin::string(root, "password"),
          jsonin::opt_string(root, "municipio").value_or("")};
}

}  // namespace cadastre::server::ldap
