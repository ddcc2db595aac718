// The request body of POST/PUT /agendamento/{municipio}/reservas, read and checked before
// any SQL: known fields only, right JSON types, no "status" (that moves only through
// avanca-status).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/sql.hpp"

namespace cadastre::server::sched {

struct ReservaInput {
  std::optional<std::string> inicio, fim;  ///< RFC 3339 text, when given
  bool has_vistoriador = false;            ///< "vistoriador" given (null clears it)
  std::optional<std::string> vistoriador;
  /// Plain columns given: name, value (nullopt = null), SQL cast.
  struct Column {
    std::string name;
    store::Value value;
    std::string cast;
  };
  std::vector<Column> columns;

  bool has(std::string_view column) const;
  /// True when the column is given with a non-null value.
  bool has_value(std::string_view column) const;
};

/// Parses the body; `creating` requires inicio, solicitante.nome and a property or protocol
/// reference (imobiliario_id, lote_id or protocolo).
ReservaInput parse_reserva(std::string_view body, bool creating);

}  // namespace cadastre::server::sched
