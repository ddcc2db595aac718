#include "cadastre/error.hpp"

namespace cadastre {
namespace {
struct Entry {
  std::string_view code;
  int status;
};

constexpr Entry entry(errc e) noexcept {
  switch (e) {
    case errc::invalid_argument: return {"parametro_invalido", 400};
    case errc::invalid_json: return {"json_invalido", 400};
    case errc::missing_field: return {"campo_obrigatorio", 400};
    case errc::unknown_field: return {"campo_desconhecido", 400};
    case errc::invalid_identifier: return {"identificador_invalido", 400};
    case errc::invalid_geometry: return {"geometria_invalida", 400};
    case errc::unknown_code: return {"codigo_desconhecido", 400};
    case errc::not_found: return {"nao_encontrado", 404};
    case errc::route_not_found: return {"rota_nao_encontrada", 404};
    case errc::layer_not_found: return {"camada_nao_encontrada", 404};
    case errc::method_not_allowed: return {"metodo_nao_permitido", 405};
    case errc::unauthenticated: return {"nao_autenticado", 401};
    case errc::forbidden: return {"acesso_negado", 403};
    case errc::tenant_forbidden: return {"municipio_nao_permitido", 403};
    case errc::conflict: return {"conflito", 409};
    case errc::invalid_transition: return {"transicao_invalida", 409};
    case errc::payload_too_large: return {"corpo_muito_grande", 413};
    case errc::unsupported_media_type: return {"tipo_de_midia_nao_suportado", 415};
    case errc::unprocessable: return {"entidade_improcessavel", 422};
    case errc::unavailable: return {"servico_indisponivel", 503};
    case errc::upstream_failed: return {"falha_no_servico_externo", 502};
    case errc::upstream_timeout: return {"tempo_esgotado_no_servico_externo", 504};
    case errc::internal: return {"erro_interno", 500};
    case errc::too_many_requests: return {"muitas_requisicoes", 429};
    case errc::license_inactive: return {"licenca_inativa", 403};
    case errc::quota_exceeded: return {"cota_excedida", 403};
  }
  return {"erro_interno", 500};
}
}  // namespace

std::string_view code_string(errc e) noexcept { return entry(e).code; }
int http_status(errc e) noexcept { return entry(e).status; }

}  // namespace cadastre
