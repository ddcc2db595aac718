// The body of POST /aplicativo/criar-issue-externo.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::server::tracker {

struct IssueInput {
  std::string titulo;
  std::optional<std::string> descricao;
  std::optional<std::int64_t> lote_id;
  std::optional<std::string> camada, registro_id;  ///< both or neither
  std::vector<std::int64_t> anexos;                ///< ids of midia.arquivo, distinct
};

/// titulo (required, not blank, ≤ 200), descricao (≤ 20000), lote_id (positive integer),
/// camada (an identifier) + registro_id (text or positive integer) together, anexos (at
/// most 50 distinct positive integers). Another member → 400 campo_desconhecido.
IssueInput parse_issue(std::string_view body);

}  // namespace cadastre::server::tracker
