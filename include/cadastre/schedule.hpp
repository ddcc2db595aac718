// Scheduling of inspections (/agendamento): reservation states, weekly agendas and the
// free time slots they offer, and the checks the server runs before storing a reservation.
//
// The module is pure: it reads no database and no network. The only outside input is the
// system time-zone database (/usr/share/zoneinfo), used to turn local wall-clock times of
// an agenda into instants.
//
// Conventions
//  * Instants are std::chrono::sys_seconds (UTC, one-second resolution). In JSON they are
//    RFC 3339 strings with an offset, e.g. "2026-03-02T08:00:00-03:00" or "...Z";
//    fractional seconds are accepted and truncated.
//  * Local dates are std::chrono::year_month_day; in JSON "YYYY-MM-DD".
//  * Weekdays are numbered 0 = domingo (Sunday) … 6 = sábado (Saturday), as in
//    std::chrono::weekday::c_encoding().
//  * Intervals are half-open: [inicio, fim).
//  * Every failure throws cadastre::Error (see error.hpp) with a Portuguese message and,
//    when known, the offending field.
#pragma once

#include <array>
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::schedule {

// ---------------------------------------------------------------------------------------
// Reservation states
// ---------------------------------------------------------------------------------------

/// Status of a reservation. The only moves are agendado → em_progresso → concluido;
/// concluido is final. There is no "cancelado": a cancelled reservation is deleted
/// (DELETE /agendamento/{municipio}/reservas/{id}), so every stored reservation occupies
/// its time, whatever its status.
enum class Status { agendado, em_progresso, concluido };

/// Parses "agendado", "em_progresso" or "concluido" (exact, lower case).
/// Anything else → Error(errc::invalid_argument, field "status").
Status parse_status(std::string_view s);

/// The wire name of a status, e.g. "em_progresso".
std::string_view to_string(Status s) noexcept;

/// The state reached by "avança status" from `current`.
/// From concluido → Error(errc::invalid_transition) naming the current state.
Status next_status(Status current);

/// String form of next_status: parses `current` (errors as parse_status) and returns the
/// wire name of the next state.
std::string next_status(std::string_view current);

/// Checks an explicit move `from` → `to`. Only the single forward step is allowed; any
/// other move (backwards, skipping, staying, leaving concluido) →
/// Error(errc::invalid_transition) whose message names both states.
void check_transition(Status from, Status to);

// ---------------------------------------------------------------------------------------
// Time values
// ---------------------------------------------------------------------------------------

/// A half-open span of time [inicio, fim).
struct Interval {
  std::chrono::sys_seconds inicio;  ///< first instant inside the interval
  std::chrono::sys_seconds fim;     ///< first instant after the interval
};

/// True when the half-open intervals share at least one instant. Touching intervals
/// ([8h,9h) and [9h,10h)) do not overlap; an empty interval overlaps nothing.
bool overlaps(Interval a, Interval b) noexcept;

/// Parses an RFC 3339 instant with a mandatory offset ("Z" or ±hh:mm).
/// Bad text → Error(errc::invalid_argument) naming `field`.
std::chrono::sys_seconds parse_instant(std::string_view rfc3339, std::string_view field = "instante");

/// Formats `t` as RFC 3339 in the IANA zone `time_zone`, with that zone's offset at `t`,
/// e.g. "2026-03-02T08:00:00-03:00". Unknown zone → Error(errc::invalid_argument,
/// field "fuso_horario").
std::string format_instant(std::chrono::sys_seconds t, std::string_view time_zone);

/// Parses a local date "YYYY-MM-DD" (exactly that form, a real calendar date).
/// Bad text → Error(errc::invalid_argument) naming `field`.
std::chrono::year_month_day parse_date(std::string_view text, std::string_view field = "data");

/// Formats a local date as "YYYY-MM-DD".
std::string format_date(std::chrono::year_month_day d);

// ---------------------------------------------------------------------------------------
// Weekly agenda
// ---------------------------------------------------------------------------------------

/// One opening period of a day, in minutes since local midnight: [inicio, fim).
/// fim may be 1440 ("24:00", end of the day).
struct OpeningInterval {
  int inicio_minuto = 0;  ///< e.g. 480 for "08:00"
  int fim_minuto = 0;     ///< e.g. 720 for "12:00"
};

/// The weekly opening hours of a tenant's inspection service.
///
/// Capacity of a slot = capacidade_por_slot × number of vistoriadores, or just
/// capacidade_por_slot when no vistoriadores are listed (anonymous pool of vacancies).
struct Agenda {
  /// Default time zone of a new agenda.
  static constexpr std::string_view default_time_zone = "America/Sao_Paulo";

  std::string fuso_horario{default_time_zone};  ///< IANA zone name
  /// Opening periods per weekday, index 0 = domingo … 6 = sábado; empty = closed.
  /// validate() requires them sorted and non-overlapping (from_json sorts them).
  std::array<std::vector<OpeningInterval>, 7> semana{};
  int duracao_slot_minutos = 60;         ///< slot length; must divide every opening period
  int capacidade_por_slot = 1;           ///< reservations per slot (per vistoriador, if any)
  std::vector<std::string> vistoriadores;          ///< inspector ids; may be empty
  std::vector<std::chrono::year_month_day> feriados;  ///< local dates with no slots

  /// Parses and validates an agenda (format in docs of the JSON helpers below).
  /// Errors: errc::invalid_json, errc::missing_field, errc::unknown_field (a key not in
  /// the format, to catch misspellings), errc::invalid_argument naming the field.
  static Agenda from_json(std::string_view json);

  /// Checks every rule from_json enforces on an agenda built in code: known time zone,
  /// 1 ≤ duracao_slot_minutos ≤ 1440, capacidade_por_slot ≥ 1, periods within 00:00–24:00
  /// with fim > inicio, sorted and not overlapping, lengths multiple of the slot length,
  /// non-empty unique vistoriadores, valid feriados. Throws Error naming the field.
  void validate() const;

  /// Serialises the agenda in the from_json format (weekdays by name, times as "HH:MM").
  std::string to_json() const;

  /// Total capacity of one slot (see the struct comment).
  int capacidade_total() const noexcept;
};

// ---------------------------------------------------------------------------------------
// Reservations and slots
// ---------------------------------------------------------------------------------------

/// An existing (or proposed) reservation, as far as availability is concerned.
struct Reservation {
  std::optional<std::string> vistoriador;  ///< assigned inspector, if any
  Interval intervalo;                      ///< reserved time, fim > inicio
  Status status = Status::agendado;        ///< informative: every status occupies the time
};

/// Parses one reservation object (fields "inicio", "fim", optional "vistoriador" and
/// "status"; other keys such as "id" are ignored). `field` prefixes error field names.
Reservation parse_reservation(std::string_view json_object, std::string_view field = "reserva");

/// Parses a JSON array of reservation objects; error fields read "reservas[i].inicio".
std::vector<Reservation> parse_reservations(std::string_view json_array);

/// One bookable slot of the agenda with its occupation.
struct Slot {
  std::chrono::year_month_day data;  ///< local date of the slot
  Interval intervalo;                ///< the slot as instants
  std::string inicio;                ///< intervalo.inicio as RFC 3339 in the agenda zone
  std::string fim;                   ///< intervalo.fim as RFC 3339 in the agenda zone
  int capacidade = 0;                ///< Agenda::capacidade_total()
  int ocupadas = 0;                  ///< reservations overlapping the slot
  int livres = 0;                    ///< max(0, capacidade − ocupadas), > 0 in results
  /// Listed inspectors with remaining capacity in this slot (agenda order); empty when
  /// the agenda lists no vistoriadores.
  std::vector<std::string> vistoriadores_livres;
};

/// Longest date range free_slots accepts, in days (inclusive count).
inline constexpr int max_range_days = 92;

/// The available slots of `agenda` on the local dates [data_inicio, data_fim] (inclusive),
/// in chronological order.
///
/// Omitted: holidays; closed weekdays; slots with no free place (full); slots starting
/// before `now`; slots whose local start or end does not exist or occurs twice that day
/// because of a daylight-saving change (the wall-clock time would be ambiguous).
/// Every reservation overlapping a slot counts once towards `ocupadas` (whatever its
/// status or inspector). An inspector is free in a slot while their own overlapping
/// reservations are fewer than capacidade_por_slot; reservations without an inspector
/// consume the pool but no particular inspector.
///
/// Errors (errc::invalid_argument): data_fim before data_inicio (field "data_fim"), range
/// longer than max_range_days (field "data_fim"); agenda errors as Agenda::validate().
std::vector<Slot> free_slots(const Agenda& agenda, std::span<const Reservation> reservas,
                             std::chrono::year_month_day data_inicio,
                             std::chrono::year_month_day data_fim, std::chrono::sys_seconds now);

/// Result of check_capacity: the slot that would hold the new reservation.
struct CapacityCheck {
  Slot slot;  ///< occupation before the new reservation (livres ≥ 1)
  /// Inspector to record: the one requested, else the first free listed inspector;
  /// nullopt when the agenda lists no vistoriadores and none was requested.
  std::optional<std::string> vistoriador;
};

/// Checks that `nova` can be stored next to `existentes` (which must not include `nova`
/// itself; when updating, leave out the reservation being updated).
///
/// `nova.intervalo` must lie inside one slot of the agenda on an open, non-holiday day,
/// else Error(errc::invalid_argument, field "inicio"). If `now` is given, a slot that
/// already started → errc::invalid_argument (field "inicio"). A requested inspector not in
/// a non-empty vistoriadores list → errc::invalid_argument (field "vistoriador").
/// A full slot, or a requested inspector who already has capacidade_por_slot overlapping
/// reservations in it (checked even when the agenda lists no vistoriadores) →
/// errc::conflict.
CapacityCheck check_capacity(const Agenda& agenda, std::span<const Reservation> existentes,
                             const Reservation& nova,
                             std::optional<std::chrono::sys_seconds> now = std::nullopt);

// ---------------------------------------------------------------------------------------
// Changing reservations (the rules the server applies before storing one)
// ---------------------------------------------------------------------------------------

/// The time and inspector a request gives for a reservation (creation or change); a member
/// not given keeps the stored value (or takes the default, when creating).
struct ReservationChange {
  std::optional<std::string> inicio;  ///< RFC 3339, when given
  std::optional<std::string> fim;     ///< RFC 3339, when given
  bool has_vistoriador = false;       ///< "vistoriador" given (nullopt then clears it)
  std::optional<std::string> vistoriador;
};

/// Whether `change` moves `current` in time or to another inspector, so that it must be
/// checked against the agenda again (check_reschedule, propose, check_capacity).
bool moves(const Reservation& current, const ReservationChange& change) noexcept;

/// Only a reservation still agendado may be moved: em_progresso or concluido →
/// Error(errc::conflict, field "status") naming the current state.
void check_reschedule(Status current);

/// The reservation `change` proposes, to check with check_capacity.
///  - creating (`current` absent): inicio is required (errc::missing_field, field
///    "inicio"); fim defaults to inicio + the agenda's slot length;
///  - changing: a new inicio without fim keeps the reservation's length; members not given
///    keep their stored values; the status stays.
/// Bad RFC 3339 text → errc::invalid_argument naming "inicio" or "fim"; fim not after inicio
/// → errc::invalid_argument, field "fim".
Reservation propose(const Agenda& agenda, const ReservationChange& change,
                    const std::optional<Reservation>& current = std::nullopt);

/// The reservations check_capacity needs for `nova`: those overlapping this window (a day
/// before its start to a day after its end), since a slot never spans more than a day.
Interval capacity_window(Interval nova) noexcept;

/// The reservations free_slots needs for the local dates [data_inicio, data_fim]: those
/// overlapping this window. Local midnight lies within ±14 h of UTC midnight in every zone,
/// so the window runs from two days before data_inicio to three days after data_fim (UTC).
Interval slots_window(std::chrono::year_month_day data_inicio, std::chrono::year_month_day data_fim) noexcept;

// ---------------------------------------------------------------------------------------
// JSON helpers (HTTP server, Python binding)
// ---------------------------------------------------------------------------------------
//
// Agenda:
//   {"fuso_horario": "America/Sao_Paulo",          optional, default America/Sao_Paulo
//    "duracao_slot_minutos": 60,                   required integer 1..1440
//    "capacidade_por_slot": 1,                     optional integer ≥ 1, default 1
//    "vistoriadores": ["ana", "bruno"],            optional, default []
//    "feriados": ["2026-04-21"],                   optional, default []
//    "semana": {"segunda": [{"inicio": "08:00", "fim": "12:00"}, ...], "2": [...]}}
//   semana keys: "0".."6" (0 = domingo) or domingo, segunda, terca/terça, quarta, quinta,
//   sexta, sabado/sábado; a day given twice is an error; missing days are closed.
//   Times are "HH:MM" (24 h); "24:00" is allowed as fim.
// Reservation: {"inicio": RFC 3339, "fim": RFC 3339, "vistoriador": "ana" | null
//   (optional), "status": "agendado" (optional, default agendado)}; other keys ignored.
// Slot: {"data": "2026-03-02", "inicio": "2026-03-02T08:00:00-03:00",
//   "fim": "2026-03-02T09:00:00-03:00", "capacidade": 2, "ocupadas": 1, "livres": 1,
//   "vistoriadores_livres": ["bruno"]}

/// The slot list as a JSON array of Slot objects (format above).
std::string to_json(std::span<const Slot> slots);

/// A capacity check as {"slot": Slot, "vistoriador": "ana" | null}.
std::string to_json(const CapacityCheck& check);

/// free_slots on JSON input: the agenda object, the reservations array, the dates
/// "YYYY-MM-DD" (errors name "data_inicio" / "data_fim") and the optional current instant
/// (RFC 3339, field "agora"; absent = the system clock). Returns the slot JSON array.
std::string free_slots_json(std::string_view agenda_json, std::string_view reservations_json_array,
                            std::string_view start_date, std::string_view end_date,
                            std::optional<std::string_view> now_rfc3339 = std::nullopt);

/// check_capacity on JSON input (the new reservation is one reservation object, error
/// fields prefixed "reserva"); `now_rfc3339` as in free_slots_json (absent = the system
/// clock, so slots already started are refused). Returns to_json(CapacityCheck).
std::string check_capacity_json(std::string_view agenda_json, std::string_view reservations_json_array,
                                std::string_view new_reservation_json,
                                std::optional<std::string_view> now_rfc3339 = std::nullopt);

}  // namespace cadastre::schedule
