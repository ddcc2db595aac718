#include "platform/audit/input.hpp"

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::platform::audit {
namespace {

// Epoch milliseconds from 1970 to the year 9999 (what timestamptz holds comfortably).
constexpr std::int64_t kMaxEpochMs = 253402300799999;

std::optional<std::int64_t> optional_id(const http::Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return query::parse_integer(*v, name, 1, INT64_MAX);
}

std::int64_t required_ms(const http::Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v) throw Error(errc::missing_field, std::string("informe ") + name + " (milissegundos desde 1970)", name);
  return query::parse_integer(*v, name, 0, kMaxEpochMs);
}

}  // namespace

AuditQuery parse_query(const http::Request& req) {
  AuditQuery q;
  q.projeto = optional_id(req, "idProjeto");
  q.camada = optional_id(req, "idCamada");
  q.usuario = optional_id(req, "idUsuario");
  q.inicio_ms = required_ms(req, "dataInicioLong");
  q.fim_ms = required_ms(req, "dataFinalLong");
  if (q.fim_ms < q.inicio_ms)
    throw Error(errc::invalid_argument, "dataFinalLong deve ser igual ou posterior a dataInicioLong", "dataFinalLong");
  if (q.fim_ms - q.inicio_ms > kMaxRangeMs)
    throw Error(errc::invalid_argument, "o intervalo de dataInicioLong a dataFinalLong vai até 366 dias",
                "dataFinalLong");
  if (auto v = req.query_value("limite")) q.limite = query::parse_integer(*v, "limite", 1, kMaxLimit);
  return q;
}

}  // namespace cadastre::platform::audit
