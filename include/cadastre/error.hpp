// The one error catalog of libcadastre and its services.
//
// Every failure the library reports is a cadastre::Error carrying an errc. Each errc maps
// to a stable string code (the `codigo` of the HTTP error body) and an HTTP status, so the
// servers render every error in the shared shape {"mensagem","tipo","codigo"}.
// The enum is append-only: values are never renumbered or reused.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace cadastre {

enum class errc : int {
  invalid_argument = 1,   ///< a parameter has a bad value (400 parametro_invalido)
  invalid_json,           ///< body or document is not valid JSON (400 json_invalido)
  missing_field,          ///< a required field is absent (400 campo_obrigatorio)
  unknown_field,          ///< a field/column that does not exist (400 campo_desconhecido)
  invalid_identifier,     ///< an identifier fails the identifier rules (400 identificador_invalido)
  invalid_geometry,       ///< geometry cannot be parsed or is invalid (400 geometria_invalida)
  unknown_code,           ///< a code not present in a table/profile (400 codigo_desconhecido)
  not_found,              ///< a record does not exist (404 nao_encontrado)
  route_not_found,        ///< no route has this path (404 rota_nao_encontrada)
  layer_not_found,        ///< no such layer in the tenant catalog (404 camada_nao_encontrada)
  method_not_allowed,     ///< the path exists with other methods (405 metodo_nao_permitido)
  unauthenticated,        ///< credential missing or invalid (401 nao_autenticado)
  forbidden,              ///< credential valid but not permitted (403 acesso_negado)
  tenant_forbidden,       ///< unknown tenant or token of another tenant (403 municipio_nao_permitido)
  conflict,               ///< state conflict, e.g. duplicate or still referenced (409 conflito)
  invalid_transition,     ///< state machine move not allowed (409 transicao_invalida)
  payload_too_large,      ///< body or upload over the limit (413 corpo_muito_grande)
  unsupported_media_type, ///< content type not accepted (415 tipo_de_midia_nao_suportado)
  unprocessable,          ///< well-formed but semantically unusable (422 entidade_improcessavel)
  unavailable,            ///< a dependency (database, pool) is unavailable (503 servico_indisponivel)
  upstream_failed,        ///< an upstream service failed (502 falha_no_servico_externo)
  upstream_timeout,       ///< an upstream service timed out (504 tempo_esgotado_no_servico_externo)
  internal,               ///< unexpected failure; details only in the log (500 erro_interno)
  too_many_requests,      ///< rate or capacity limit (429 muitas_requisicoes)
  license_inactive,       ///< the tenant's license ended, is suspended or cancelled (403 licenca_inativa)
  quota_exceeded,         ///< a quota of the tenant's license is used up (403 cota_excedida)
};

/// Stable string code of an errc, e.g. "parametro_invalido".
std::string_view code_string(errc e) noexcept;
/// HTTP status for an errc, e.g. 400.
int http_status(errc e) noexcept;

/// The exception type thrown by libcadastre. `field` names the offending input when known.
class Error : public std::runtime_error {
 public:
  Error(errc code, std::string message, std::string field = {})
      : std::runtime_error(std::move(message)), code_(code), field_(std::move(field)) {}

  errc code() const noexcept { return code_; }
  const std::string& field() const noexcept { return field_; }

 private:
  errc code_;
  std::string field_;
};

/// A refusal that says when to try again: 429 muitas_requisicoes (or `code`, e.g. 503
/// while a derivative is being made), and the servers add `Retry-After: <seconds>`.
class RetryLater : public Error {
 public:
  RetryLater(std::string message, long long seconds)
      : Error(errc::too_many_requests, std::move(message)), seconds_(seconds) {}
  RetryLater(errc code, std::string message, long long seconds) : Error(code, std::move(message)), seconds_(seconds) {}
  long long seconds() const noexcept { return seconds_; }

 private:
  long long seconds_;
};

}  // namespace cadastre
