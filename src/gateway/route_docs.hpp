// OpenAPI parameter descriptions shared by the gateway's route modules.
#pragma once

#include <vector>

#include "http/http.hpp"

namespace cadastre::gateway {

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
