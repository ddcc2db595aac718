// OpenAPI parameter descriptions shared by the gateway's route modules.
#pragma once

#include <vector>

#include "http/http.hpp"

namespace cadastre::gateway {

/// The query fields a route takes without declaring them one by one: free-form fields
/// (http::Param type "object"), here passed on to the destination or, on the routes that
/// answer 404, ignored.
inline http::Param other_query_fields(const char* what = "demais parâmetros: repassados ao destino") {
  return {"consulta", "query", "object", false, what};
}

/// The parameters of a route that forwards the caller's query: `params`, then the free-form rest.
inline std::vector<http::Param> forwarding(std::vector<http::Param> params = {}) {
  params.push_back(other_query_fields());
  return params;
}

/// The credential carriers of the four auth forms, documented on every protected route.
inline std::vector<http::Param> credential_params() {
  return {
      {"X-Auth-Token", "header", "string", false, "auth_token do usuário (forma por cabeçalhos, com X-Tn-Token)"},
      {"X-Tn-Token", "header", "string", false,
       "id do município em base64 do número decimal (ex.: NQ== para 5); deve ser o município da credencial"},
      {"X-Origin", "header", "string", false, "login_intranet: Authorization traz o JWT da intranet"},
      {"x_auth_token", "query", "string", false, "forma legada do auth_token; retirado antes do encaminhamento"},
      {"x_tn_token", "query", "string", false, "forma legada do X-Tn-Token; retirado antes do encaminhamento"},
      {"nome_tenant", "query", "string", false, "login da intranet: slug do município do JWT"},
  };
}

}  // namespace cadastre::gateway
