#include "server/service_desk/input.hpp"

#include <simdjson.h>

#include <algorithm>

#include "cadastre/inspection.hpp"
#include "cadastre/schedule.hpp"
#include "core/json_in.hpp"
#include "server/media/files.hpp"
#include "file_store/keys.hpp"
#include "service/geojson.hpp"  // query_params

namespace cadastre::server::desk {
namespace {

using simdjson::dom::element;

[[noreturn]] void bad(const std::string& field, const std::string& message) {
  throw Error(errc::invalid_argument, message, field);
}

store::Value optional_text(element e, const std::string& field, std::size_t max) {
  if (e.is_null()) return std::nullopt;
  if (!e.is_string()) bad(field, "o campo '" + field + "' deve ser texto");
  std::string v(std::string_view(e.get_string().value()));
  if (v.size() > max)
    bad(field, "o campo '" + field + "' excede " + std::to_string(max) + " bytes");
  return v;
}

std::string positive_id(element e, const std::string& field) {
  std::int64_t v = 0;
  if (e.get_int64().get(v) || v < 1)
    bad(field, "o campo '" + field + "' deve ser um id inteiro positivo");
  return std::to_string(v);
}

// A PostgreSQL array literal of plain tokens (digits or media keys: no quotes inside).
std::string array_literal(const std::vector<std::string>& items) {
  std::string out = "{";
  for (const auto& i : items) out += (out.size() > 1 ? ",\"" : "\"") + i + "\"";
  return out + "}";
}

void no_repeats(std::vector<std::string> items, const std::string& field) {
  std::sort(items.begin(), items.end());
  if (std::adjacent_find(items.begin(), items.end()) != items.end())
    bad(field, "a lista '" + field + "' repete itens");
}

std::string checklist(element e) {
  auto items = jsonin::as_array(e, "checklist");
  for (element item : items)
    if (!item.is_object() && !item.is_string())
      bad("checklist",
          "cada item do checklist deve ser um objeto (ex.: {\"item\": \"telhado\", \"ok\": true}) "
          "ou um texto");
  std::string json = simdjson::minify(e);
  if (json.size() > 65536) bad("checklist", "checklist longo demais (máximo 64 KiB)");
  return json;
}

std::optional<std::string> date_filter(const http::Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  schedule::parse_date(*v, name);
  return v;
}

std::optional<std::string> integer_filter(const http::Request& req, const char* name,
                                          std::int64_t min, std::int64_t max) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return std::to_string(query::parse_integer(*v, name, min, max));
}

}  // namespace

std::string parse_agendamento_id(const http::Request& req) {
  const std::string& id = req.param("agendamento_id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "agendamento_id inválido: " + id, "agendamento_id");
  return id;
}

ProtocolFilter parse_protocol_filter(const http::Request& req) {
  ProtocolFilter f;
  f.status = req.query_value("status");
  f.ano = integer_filter(req, "ano", 2000, 2200);
  f.numero = integer_filter(req, "numero", 1, 2147483647);
  f.solicitante = req.query_value("solicitante");
  f.assunto = req.query_value("assunto");
  f.de = date_filter(req, "de");
  f.ate = date_filter(req, "ate");
  f.paging = query::normalize_paging(query_params(req));
  return f;
}

InspectionFilter parse_inspection_filter(const http::Request& req) {
  InspectionFilter f;
  f.status = req.query_value("status");
  f.protocolo_id = integer_filter(req, "protocolo_id", 1, INT64_MAX);
  f.de = date_filter(req, "de");
  f.ate = date_filter(req, "ate");
  f.paging = query::normalize_paging(query_params(req));
  return f;
}

VistoriaInput parse_vistoria(std::string_view body, const std::optional<std::string>& path_id) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  VistoriaInput in;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k != "agendamento_id" && !schedule::staff_field(k))
      throw Error(
          errc::unknown_field,
          "campo desconhecido ou não editável: '" + k +
              "' (use agendamento_id, checklist, constatacoes, fotos, protocolo_id, status)",
          k);
    if (k == "agendamento_id") {
      in.agendamento_id = positive_id(v, k);
      if (path_id && *in.agendamento_id != *path_id)
        bad(k, "agendamento_id não muda: a vistoria é a da reserva " + *path_id);
    } else if (k == "checklist") {
      in.columns.push_back({k, checklist(v), "jsonb"});
    } else if (k == "constatacoes") {
      in.columns.push_back({k, optional_text(v, k, 20000), ""});
    } else if (k == "fotos") {
      auto items = jsonin::as_array(v, k);
      for (element id : items) in.fotos.push_back(positive_id(id, "fotos"));
      if (in.fotos.size() > 100) bad(k, "no máximo 100 fotos por vistoria");
      no_repeats(in.fotos, k);
      in.columns.push_back({k, array_literal(in.fotos), "bigint[]"});
    } else if (k == "protocolo_id") {
      if (!v.is_null()) in.protocolo_id = positive_id(v, k);
      in.columns.push_back({k, in.protocolo_id, "bigint"});
    } else {  // status
      auto s = optional_text(v, k, 20);
      if (!s) bad(k, "status inválido: use pendente, em_andamento, concluida ou cancelada");
      schedule::parse_inspection_status(*s);
      in.columns.push_back({k, s, ""});
    }
  }
  if (!path_id && !in.agendamento_id)
    throw Error(errc::missing_field, "informe a reserva da vistoria (agendamento_id)",
                "agendamento_id");
  if (path_id && in.columns.empty())
    throw Error(errc::missing_field,
                "nada a alterar: informe checklist, constatacoes, fotos, protocolo_id ou status");
  return in;
}

std::optional<std::string> body_token(std::string_view body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  element t;
  if (obj.at_key("token").get(t) || !t.is_string()) return std::nullopt;
  return std::string(std::string_view(t.get_string().value()));
}

CitizenInput parse_citizen(std::string_view body, const media::Files& files) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  CitizenInput in;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "token") continue;  // checked by the route's auth scheme
    if (!schedule::citizen_field(k))
      bad(k, "o campo '" + k +
                 "' não pode ser alterado pelo cidadão (use contato_cidadao, disponibilidade, "
                 "observacoes_cidadao, "
                 "fotos_cidadao)");
    if (k == "contato_cidadao") {
      in.columns.push_back({k, optional_text(v, k, 500), ""});
    } else if (k == "disponibilidade") {
      in.columns.push_back({k, optional_text(v, k, 1000), ""});
    } else if (k == "observacoes_cidadao") {
      in.columns.push_back({k, optional_text(v, k, 4000), ""});
    } else {  // fotos_cidadao
      auto items = jsonin::as_array(v, k);
      for (element e : items) {
        auto key_text = optional_text(e, k, 200);
        auto parsed = key_text ? cadastre::media::parse_key(*key_text) : std::nullopt;
        if (!parsed || parsed->area != cadastre::media::kPublicArea)
          bad(k, "fotos_cidadao aceita as chaves devolvidas por POST /midia/storage");
        in.fotos_cidadao.push_back(*key_text);
      }
      if (in.fotos_cidadao.size() > 20) bad(k, "no máximo 20 fotos do cidadão");
      no_repeats(in.fotos_cidadao, k);
      in.columns.push_back({k, array_literal(in.fotos_cidadao), "text[]"});
    }
  }
  if (in.columns.empty())
    throw Error(errc::missing_field,
                "nada a alterar: informe contato_cidadao, disponibilidade, observacoes_cidadao ou "
                "fotos_cidadao");
  for (const auto& key : in.fotos_cidadao)
    if (!files.exists(key))
      throw Error(errc::invalid_argument, "foto não encontrada no armazenamento: " + key,
                  "fotos_cidadao");
  return in;
}

AuditoriaInput parse_auditoria(std::string_view body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  AuditoriaInput in;
  bool has_change = false;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "tabela") {
      in.tabela = jsonin::to_string(v, k);
    } else if (k == "registro_id") {
      std::int64_t n = 0;
      if (!v.get_int64().get(n))
        in.registro_id = std::to_string(n);
      else
        in.registro_id = jsonin::to_string(v, k);
      if (in.registro_id.empty() || in.registro_id.size() > 200)
        bad(k, "registro_id deve ter de 1 a 200 caracteres");
    } else if (k == "alteracao") {
      jsonin::as_object(v, k);
      in.alteracao = simdjson::minify(v);
      has_change = true;
    } else if (k == "decisao") {
      in.decisao = jsonin::to_string(v, k);
      if (in.decisao != "aprovado" && in.decisao != "reprovado")
        bad(k, "decisao deve ser aprovado ou reprovado");
    } else if (k == "comentario") {
      in.comentario = optional_text(v, k, 4000);
    } else {
      throw Error(errc::unknown_field,
                  "campo desconhecido: '" + k +
                      "' (use tabela, registro_id, alteracao, decisao, comentario)",
                  k);
    }
  }
  if (in.tabela.empty())
    throw Error(errc::missing_field, "informe a tabela alterada (tabela)", "tabela");
  // "schema.tabela" or "tabela": lowercase identifiers only.
  bool ok = in.tabela.size() <= 127;
  std::size_t dots = 0;
  for (std::size_t i = 0; i < in.tabela.size() && ok; ++i) {
    char c = in.tabela[i];
    bool start = i == 0 || in.tabela[i - 1] == '.';
    if (c == '.')
      ok = !start && ++dots <= 1 && i + 1 < in.tabela.size();
    else
      ok = (c >= 'a' && c <= 'z') || c == '_' || (!start && c >= '0' && c <= '9');
  }
  if (!ok) bad("tabela", "tabela inválida: use tabela ou esquema.tabela em minúsculas");
  if (in.registro_id.empty())
    throw Error(errc::missing_field, "informe o registro alterado (registro_id)", "registro_id");
  if (!has_change)
    throw Error(errc::missing_field, "informe a alteração (alteracao, um objeto)", "alteracao");
  if (in.decisao.empty())
    throw Error(errc::missing_field, "informe a decisao (aprovado ou reprovado)", "decisao");
  return in;
}

}  // namespace cadastre::server::desk
