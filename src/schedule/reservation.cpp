// Reading reservations from JSON (API bodies and database rows rendered as JSON).
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"
#include "core/json_in.hpp"

namespace cadastre::schedule {
namespace {

std::chrono::sys_seconds read_instant(jsonin::object o, std::string_view key, const std::string& prefix) {
  const std::string field = prefix + "." + std::string(key);
  auto e = jsonin::find(o, key);
  if (!e) throw Error(errc::missing_field, "campo obrigatório ausente: '" + field + "'", field);
  return parse_instant(jsonin::to_string(*e, field), field);
}

// Other keys (id, imovel, observacoes, …) are ignored on purpose: callers pass whole rows.
Reservation read_reservation(jsonin::element e, const std::string& prefix) {
  auto o = jsonin::as_object(e, prefix);
  Reservation r;
  r.intervalo.inicio = read_instant(o, "inicio", prefix);
  r.intervalo.fim = read_instant(o, "fim", prefix);
  if (r.intervalo.fim <= r.intervalo.inicio) {
    throw Error(errc::invalid_argument, "em '" + prefix + "', 'fim' deve ser posterior a 'inicio'",
                prefix + ".fim");
  }
  if (auto v = jsonin::find(o, "vistoriador")) {
    auto id = jsonin::to_string(*v, prefix + ".vistoriador");
    if (!id.empty()) r.vistoriador = std::move(id);  // "" = not assigned, as null
  }
  if (auto s = jsonin::find(o, "status")) {
    const std::string field = prefix + ".status";
    try {
      r.status = parse_status(jsonin::to_string(*s, field));
    } catch (const Error& err) {
      throw Error(err.code(), err.what(), field);
    }
  }
  return r;
}

}  // namespace

Reservation parse_reservation(std::string_view json_object, std::string_view field) {
  simdjson::dom::parser parser;
  return read_reservation(jsonin::parse(parser, json_object), std::string(field));
}

std::vector<Reservation> parse_reservations(std::string_view json_array) {
  simdjson::dom::parser parser;
  std::vector<Reservation> out;
  std::size_t i = 0;
  for (auto item : jsonin::as_array(jsonin::parse(parser, json_array), "reservas")) {
    out.push_back(read_reservation(item, "reservas[" + std::to_string(i++) + "]"));
  }
  return out;
}

}  // namespace cadastre::schedule
