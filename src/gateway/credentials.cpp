#include "gateway/credentials.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>

#include "store/crypto.hpp"

namespace cadastre::gateway {
namespace {
std::string trimmed(std::string s) {
  auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}
}  // namespace

std::string_view form_name(AuthForm f) noexcept {
  switch (f) {
    case AuthForm::bearer: return "bearer";
    case AuthForm::tenant_headers: return "cabecalhos";
    case AuthForm::legacy_query: return "query_legado";
    case AuthForm::intranet: return "intranet";
    case AuthForm::none: break;
  }
  return "nenhuma";
}

bool is_legacy_credential_param(std::string_view key) noexcept { return key == "x_auth_token" || key == "x_tn_token"; }


Credential read_credential(const http::Request& req) {
  Credential c;
  auto bearer = req.bearer_token();
  const std::string* origin = req.header("X-Origin");
  const std::string* tn_header = req.header("X-Tn-Token");

  if (origin && equals_ignore_case(trimmed(*origin), "login_intranet")) {
    c.form = AuthForm::intranet;
    auto slug = req.query_value("nome_tenant");
    if (!bearer) {
      c.problem = "login da intranet sem token: envie Authorization: Bearer <JWT>";
    } else if (!slug || trimmed(*slug).empty()) {
      c.problem = "login da intranet sem município: informe o parâmetro nome_tenant";
    } else {
      c.token = *bearer;
      c.nome_tenant = trimmed(*slug);
    }
    return c;
  }
  if (bearer) {
    c.form = AuthForm::bearer;
    c.token = *bearer;
    if (tn_header) c.tenant_token = *tn_header;
    return c;
  }
  if (const std::string* auth = req.header("X-Auth-Token")) {
    c.form = AuthForm::tenant_headers;
    c.token = trimmed(*auth);
    if (!tn_header) c.problem = "X-Auth-Token sem X-Tn-Token: envie também o município (base64 do id)";
    else c.tenant_token = *tn_header;
    if (c.token.empty()) c.problem = "X-Auth-Token vazio";
    return c;
  }
  if (auto token = req.query_value("x_auth_token")) {
    c.form = AuthForm::legacy_query;
    c.token = trimmed(*token);
    auto tn = req.query_value("x_tn_token");
    if (!tn) c.problem = "x_auth_token sem x_tn_token: informe também o município (base64 do id)";
    else c.tenant_token = *tn;
    if (c.token.empty()) c.problem = "x_auth_token vazio";
    return c;
  }
  c.problem =
      "credencial ausente: envie Authorization: Bearer <token>, X-Auth-Token e X-Tn-Token, "
      "ou o login da intranet";
  return c;
}

}  // namespace cadastre::gateway
