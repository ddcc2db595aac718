#include "platform/tenants/input.hpp"

#include <simdjson.h>

#include <functional>
#include <map>
#include <regex>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::tenants {
namespace {

using Check = std::function<void(jsonin::element, const std::string& path)>;

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw Error(errc::invalid_argument, path + ": " + why, path);
}

Check text(std::size_t max) {
  return [max](jsonin::element e, const std::string& path) {
    if (!e.is_string() || std::string_view(e).size() > max) bad(path, "texto de até " + std::to_string(max) + " caracteres");
  };
}

Check color() {
  return [](jsonin::element e, const std::string& path) {
    static const std::regex hex("#[0-9A-Fa-f]{6}");
    if (!e.is_string() || !std::regex_match(std::string(std::string_view(e)), hex)) bad(path, "cor no formato #RRGGBB");
  };
}

Check object(std::map<std::string, Check> members) {
  return [members = std::move(members)](jsonin::element e, const std::string& path) {
    if (!e.is_object()) bad(path.empty() ? "corpo" : path, "deve ser um objeto");
    for (auto [key, value] : jsonin::object(e)) {
      std::string k(key), p = path.empty() ? k : path + "." + k;
      auto it = members.find(k);
      if (it == members.end()) bad(p, "membro desconhecido");
      it->second(value, p);
    }
  };
}

const Check& schema() {
  static const Check root = object({
      {"mapa", object({{"centro",
                        [](jsonin::element e, const std::string& path) {
                          if (!e.is_array() || jsonin::array(e).size() != 2) bad(path, "[longitude, latitude]");
                          double lon = jsonin::to_number(jsonin::array(e).at(0), path);
                          double lat = jsonin::to_number(jsonin::array(e).at(1), path);
                          if (lon < -180 || lon > 180 || lat < -90 || lat > 90) bad(path, "fora da Terra");
                        }},
                       {"zoom",
                        [](jsonin::element e, const std::string& path) {
                          if (!e.is_int64() || int64_t(e) < 0 || int64_t(e) > 22) bad(path, "inteiro de 0 a 22");
                        }},
                       {"mapaBase", text(200)}})},
      {"tema", object({{"corPrimaria", color()}, {"corSecundaria", color()}, {"logo", text(500)}})},
      {"contato", object({{"email",
                           [](jsonin::element e, const std::string& path) {
                             if (!e.is_string()) bad(path, "e-mail");
                             normalize_email(std::string_view(e), "contato.email");
                           }},
                          {"telefone", text(40)},
                          {"site", text(300)}})},
      {"modulos",
       [](jsonin::element e, const std::string& path) {
         if (!e.is_array() || jsonin::array(e).size() > 50) bad(path, "lista de até 50 nomes");
         for (auto m : jsonin::array(e)) text(50)(m, path);
       }},
  });
  return root;
}

}  // namespace

std::string parse_config(std::string_view body) {
  simdjson::dom::parser parser;
  schema()(jsonin::parse(parser, body), "");
  return std::string(body);
}

}  // namespace cadastre::platform::tenants
