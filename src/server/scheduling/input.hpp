// Requests of /agendamento/{municipio}/..., read and checked before any SQL: the body of
// POST/PUT .../reservas (known fields only, right JSON types, no "status": that moves only
// through avanca-status), the {id} of a reservation, the list filters, the date range of
// the free slots and the agenda body.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/query.hpp"
#include "cadastre/schedule.hpp"
#include "http/http.hpp"
#include "store/identity.hpp"
#include "store/sql.hpp"

namespace cadastre::server::sched {

struct ReservaInput {
  schedule::ReservationChange change;  ///< inicio, fim, vistoriador
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

/// The reservation {id} of the path: a positive integer (400 otherwise).
std::string parse_reservation_id(const http::Request& req);

/// The filters and page of GET .../reservas (de/ate: local dates, by the start).
struct ListFilter {
  std::optional<std::string> status, vistoriador, de, ate;
  query::Paging paging;
};
ListFilter parse_list(const http::Request& req);

/// The local dates of GET .../horarios-disponiveis (both required, "YYYY-MM-DD").
struct DateRange {
  std::string de, ate;
  std::chrono::year_month_day first, last;
};
DateRange parse_date_range(const http::Request& req);

/// Parses and validates an agenda body as load_agenda reads it back: an agenda that names
/// no "fuso_horario" takes the tenant's time zone.
schedule::Agenda parse_agenda(std::string_view json, const store::Tenant& tenant);

}  // namespace cadastre::server::sched
