#include "server/scheduling/input.hpp"

#include <simdjson.h>

#include <algorithm>

#include "core/json_in.hpp"
#include "service/geojson.hpp"  // query_params

namespace cadastre::server::sched {
namespace {

using simdjson::dom::element;

std::optional<std::string> text_or_null(element e, std::string_view field) {
  if (e.is_null()) return std::nullopt;
  if (!e.is_string())
    throw Error(errc::invalid_argument, "o campo '" + std::string(field) + "' deve ser texto",
                std::string(field));
  std::string v(std::string_view(e.get_string().value()));
  if (v.empty())
    throw Error(errc::invalid_argument, "o campo '" + std::string(field) + "' não pode ser vazio",
                std::string(field));
  return v;
}

std::optional<std::string> id_or_null(element e, std::string_view field) {
  if (e.is_null()) return std::nullopt;
  std::int64_t v = 0;
  if (e.get_int64().get(v) || v < 1 || v > 2147483647)
    throw Error(errc::invalid_argument,
                "o campo '" + std::string(field) + "' deve ser um id inteiro positivo",
                std::string(field));
  return std::to_string(v);
}

void read_solicitante(element e, ReservaInput& in) {
  auto obj = jsonin::as_object(e, "solicitante");
  for (auto [k, v] : obj) {
    if (k == "nome")
      in.columns.push_back({"solicitante_nome", text_or_null(v, "solicitante.nome"), ""});
    else if (k == "contato")
      in.columns.push_back({"solicitante_contato", text_or_null(v, "solicitante.contato"), ""});
    else
      throw Error(errc::unknown_field,
                  "campo desconhecido em solicitante: '" + std::string(k) + "' (use nome, contato)",
                  "solicitante." + std::string(k));
  }
}

std::optional<std::string> date_param(const http::Request& req, const char* name, bool required) {
  auto v = req.query_value(name);
  if (!v || v->empty()) {
    if (required)
      throw Error(errc::missing_field, std::string("informe ?") + name + "=YYYY-MM-DD", name);
    return std::nullopt;
  }
  schedule::parse_date(*v, name);
  return v;
}

}  // namespace

std::string parse_reservation_id(const http::Request& req) {
  const std::string& id = req.param("id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "id de reserva inválido: " + id, "id");
  return id;
}

ListFilter parse_list(const http::Request& req) {
  ListFilter f;
  f.status = req.query_value("status");
  f.vistoriador = req.query_value("vistoriador");
  f.de = date_param(req, "de", false);
  f.ate = date_param(req, "ate", false);
  f.paging = query::normalize_paging(query_params(req));
  return f;
}

DateRange parse_date_range(const http::Request& req) {
  DateRange r;
  r.de = *date_param(req, "de", true);
  r.ate = *date_param(req, "ate", true);
  r.first = schedule::parse_date(r.de, "de");
  r.last = schedule::parse_date(r.ate, "ate");
  return r;
}

schedule::Agenda parse_agenda(std::string_view json, const store::Tenant& tenant) {
  schedule::Agenda agenda = schedule::Agenda::from_json(json);
  simdjson::dom::parser p;
  auto root = jsonin::as_object(jsonin::parse(p, json), "agenda");
  if (!jsonin::find(root, "fuso_horario") && !tenant.fuso_horario.empty()) {
    agenda.fuso_horario = tenant.fuso_horario;
    agenda.validate();
  }
  return agenda;
}

bool ReservaInput::has(std::string_view column) const {
  return std::any_of(columns.begin(), columns.end(),
                     [&](const Column& c) { return c.name == column; });
}

bool ReservaInput::has_value(std::string_view column) const {
  return std::any_of(columns.begin(), columns.end(),
                     [&](const Column& c) { return c.name == column && c.value; });
}

ReservaInput parse_reserva(std::string_view body, bool creating) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  ReservaInput in;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "inicio" || k == "fim") {
      auto t = text_or_null(v, k);
      if (!t) throw Error(errc::invalid_argument, "o campo '" + k + "' não pode ser nulo", k);
      (k == "inicio" ? in.change.inicio : in.change.fim) = t;
    } else if (k == "vistoriador") {
      in.change.has_vistoriador = true;
      in.change.vistoriador = text_or_null(v, k);
    } else if (k == "imobiliario_id" || k == "lote_id") {
      in.columns.push_back({k, id_or_null(v, k), "integer"});
    } else if (k == "protocolo" || k == "observacao") {
      in.columns.push_back({k, text_or_null(v, k), ""});
    } else if (k == "solicitante") {
      read_solicitante(v, in);
    } else if (k == "status") {
      throw Error(
          errc::invalid_argument,
          "o status não é alterado por aqui: use PUT /agendamento/{municipio}/avanca-status/{id}",
          "status");
    } else if (k != "id") {
      throw Error(errc::unknown_field,
                  "campo desconhecido: '" + k +
                      "' (use inicio, fim, vistoriador, imobiliario_id, lote_id, protocolo, "
                      "solicitante, observacao)",
                  k);
    }
  }
  if (in.has("solicitante_nome") && !in.has_value("solicitante_nome"))
    throw Error(errc::invalid_argument, "o nome do solicitante não pode ser nulo",
                "solicitante.nome");
  if (creating) {
    if (!in.change.inicio)
      throw Error(errc::missing_field, "informe o início da reserva (inicio, RFC 3339)", "inicio");
    if (!in.has_value("solicitante_nome"))
      throw Error(errc::missing_field, "informe o solicitante (solicitante.nome)",
                  "solicitante.nome");
    if (!in.has_value("imobiliario_id") && !in.has_value("lote_id") && !in.has_value("protocolo"))
      throw Error(errc::missing_field,
                  "informe o imóvel (imobiliario_id ou lote_id) ou o protocolo da vistoria",
                  "imobiliario_id");
  }
  return in;
}

}  // namespace cadastre::server::sched
