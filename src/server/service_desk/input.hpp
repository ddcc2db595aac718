// Requests of /atendimento, read and checked before any SQL: the list filters, the
// {agendamento_id} of the path, the inspection (staff create / update), the citizen's update
// through the public route and the approval audit. Unknown or non-editable members are
// refused with 400 naming the member (who may change which member: cadastre/inspection.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/query.hpp"
#include "http/http.hpp"
#include "store/sql.hpp"

namespace cadastre::server::media {
class Files;
}

namespace cadastre::server::desk {

/// A column set by the client: name, value (nullopt = null), SQL cast.
struct Assignment {
  std::string column;
  store::Value value;
  std::string cast;
};

struct VistoriaInput {
  std::optional<std::string> agendamento_id;  ///< required on create
  std::vector<Assignment> columns;  ///< checklist, constatacoes, fotos, protocolo_id, status
  std::vector<std::string> fotos;   ///< media ids given in `fotos` (to check they exist)
  std::optional<std::string> protocolo_id;  ///< given and not null (to check it exists)
};

/// {agendamento_id} of the path as a positive integer (400 otherwise).
std::string parse_agendamento_id(const http::Request& req);

/// Filters of GET .../protocolos (de/ate: local dates of the opening).
struct ProtocolFilter {
  std::optional<std::string> status, ano, numero, solicitante, assunto, de, ate;
  query::Paging paging;
};
ProtocolFilter parse_protocol_filter(const http::Request& req);

/// Filters of GET .../vistoria (de/ate: local dates of the reservation's start).
struct InspectionFilter {
  std::optional<std::string> status, protocolo_id, de, ate;
  query::Paging paging;
};
InspectionFilter parse_inspection_filter(const http::Request& req);

/// Staff body. `path_id` is set on update: agendamento_id, if present, must equal it.
VistoriaInput parse_vistoria(std::string_view body, const std::optional<std::string>& path_id);

/// The access token of a public request: member `token` of a JSON body, else nullopt.
std::optional<std::string> body_token(std::string_view body);

struct CitizenInput {
  std::vector<Assignment>
      columns;  ///< contato_cidadao, disponibilidade, observacoes_cidadao, fotos_cidadao
  std::vector<std::string>
      fotos_cidadao;  ///< keys given in fotos_cidadao (to check they are stored)
};

/// Citizen body: `token` plus the citizen-editable members only; any other member → 400,
/// as is a photo key that `files` does not hold.
CitizenInput parse_citizen(std::string_view body, const media::Files& files);

struct AuditoriaInput {
  std::string tabela, registro_id, alteracao, decisao;
  store::Value comentario;
};

/// {tabela, registro_id, alteracao (object), decisao (aprovado|reprovado), comentario?}.
AuditoriaInput parse_auditoria(std::string_view body);

}  // namespace cadastre::server::desk
