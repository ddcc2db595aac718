#include "platform/sessions/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <map>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "http/request_head.hpp"
#include "cadastre/query.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::sessions {
namespace {

constexpr std::size_t kMaxEmail = 254;
constexpr std::size_t kMaxPassword = 1024;

bool is_json(const http::Request& req) {
  const std::string* ct = req.header("Content-Type");
  return ct && http::lower_ascii(*ct).find("json") != std::string::npos;
}

// The fields of a form-encoded or JSON object body; only `allowed` keys, each at most once.
std::map<std::string, std::string> fields(const http::Request& req, std::initializer_list<std::string_view> allowed) {
  std::map<std::string, std::string> out;
  auto take = [&](std::string key, std::string value) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw body::unknown_member(key);
    if (!out.emplace(key, std::move(value)).second) throw Error(errc::invalid_argument, "campo repetido: " + key, key);
  };
  if (is_json(req)) {
    simdjson::dom::parser parser;
    auto root = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
    for (auto [key, value] : root) {
      std::string k(key);
      if (value.is_int64()) take(k, std::to_string(int64_t(value)));
      else take(k, jsonin::to_string(value, k));
    }
  } else {
    for (auto& [k, v] : http::wire::parse_query(req.body)) take(k, v);
  }
  return out;
}

std::string required(std::map<std::string, std::string>& f, const std::string& key, std::size_t max) {
  auto it = f.find(key);
  if (it == f.end() || it->second.empty()) throw Error(errc::missing_field, "informe " + key, key);
  if (it->second.size() > max) throw Error(errc::invalid_argument, key + " longo demais", key);
  return std::move(it->second);
}

}  // namespace

PasswordLogin parse_password_login(const http::Request& req, bool with_tenant) {
  auto f = with_tenant ? fields(req, {"email", "senha", "idTenant"}) : fields(req, {"email", "senha"});
  PasswordLogin in{required(f, "email", kMaxEmail), required(f, "senha", kMaxPassword), std::nullopt};
  if (auto it = f.find("idTenant"); it != f.end()) {
    in.tenant_id = query::parse_integer(it->second, "idTenant", 1, INT64_MAX);
  }
  return in;
}

directory::Credentials parse_directory_login(const http::Request& req) {
  auto f = fields(req, {"username", "password", "municipio"});
  directory::Credentials c{required(f, "username", 256), required(f, "password", kMaxPassword), ""};
  if (auto it = f.find("municipio"); it != f.end()) c.municipio = it->second;
  return c;
}

OidcLogin parse_oidc_login(const http::Request& req) {
  auto f = fields(req, {"email", "uid", "id_token"});
  OidcLogin in{required(f, "email", kMaxEmail), required(f, "uid", 256), ""};
  if (auto it = f.find("id_token"); it != f.end()) in.id_token = it->second;
  return in;
}

std::string parse_email_query(const http::Request& req) {
  std::string email = http::lower_ascii(req.query_value("email").value_or(""));
  auto first = email.find_first_not_of(" \t"), last = email.find_last_not_of(" \t");
  email = first == std::string::npos ? "" : email.substr(first, last - first + 1);
  if (email.empty()) throw Error(errc::missing_field, "informe email", "email");
  if (email.size() > kMaxEmail) throw Error(errc::invalid_argument, "email longo demais", "email");
  return email;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string email = R"({"type":"string","format":"email","minLength":1,"maxLength":254})";
  const std::string password = R"({"type":"string","minLength":1,"maxLength":1024})";
  const std::string name = R"({"type":"string","minLength":1,"maxLength":256})";
  return {
      {"LoginSenha", object({{"email", email}, {"senha", password}}, {"email", "senha"}, true),
       R"({"email":"ana.lima@campinas.sp.gov.br","senha":"c0rreta-e-longa"})",
       [](std::string_view body) { parse_password_login(common::json_request(body), false); }},
      {"LoginPrestador",
       object({{"email", email}, {"senha", password},
               {"idTenant", R"({"type":"integer","format":"int64","minimum":1,"description":"quando o prestador atende mais de um município"})"}},
              {"email", "senha"}, true),
       R"({"email":"marina@geolevantamentos.com.br","senha":"c0rreta-e-longa","idTenant":3})",
       [](std::string_view body) { parse_password_login(common::json_request(body), true); }},
      {"LoginDiretorio", object({{"username", name}, {"password", password}, {"municipio", kText}},
                                {"username", "password"}, true),
       R"({"username":"ana.lima","password":"c0rreta-e-longa","municipio":"campinas"})",
       [](std::string_view body) { parse_directory_login(common::json_request(body)); }},
      {"LoginOidc",
       object({{"email", email}, {"uid", name},
               {"id_token", R"({"type":"string","description":"obrigatório: sem ele, 401"})"}},
              {"email", "uid", "id_token"}, true),
       R"({"email":"ana.lima@campinas.sp.gov.br","uid":"108234776152093412345","id_token":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMDgyMzQ3NzYxNTIwOTM0MTIzNDUifQ.c2lnbmF0dXJh"})",
       [](std::string_view body) { parse_oidc_login(common::json_request(body)); }},
  };
}

}  // namespace cadastre::platform::sessions
