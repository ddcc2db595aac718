#include "platform/wikimap/input.hpp"

#include <simdjson.h>

#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::wikimap {
namespace {

std::string trimmed(std::string text, std::size_t max, const std::string& field) {
  auto first = text.find_first_not_of(" \t\r\n");
  text = first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (text.empty()) throw Error(errc::invalid_argument, field + " não pode ser vazio", field);
  if (text.size() > max)
    throw Error(errc::invalid_argument, field + " longo demais (até " + std::to_string(max) + " caracteres)", field);
  return text;
}

std::string query_text(const http::Request& req, const char* name, std::size_t max) {
  auto v = req.query_value(name);
  if (!v) return "";
  if (v->size() > max)
    throw Error(errc::invalid_argument, std::string(name) + " longo demais (até " + std::to_string(max) + " caracteres)",
                name);
  return *v;
}

}  // namespace

EntryFields parse_entry(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  EntryFields f;
  for (auto [key, value] : root) {
    std::string k(key);
    auto nullable = [&](std::size_t max) -> std::optional<std::string> {
      if (value.is_null()) return std::nullopt;
      return trimmed(jsonin::to_string(value, k), max, k);
    };
    if (k == "titulo") f.titulo = trimmed(jsonin::to_string(value, k), 200, k);
    else if (k == "organizacao") f.organizacao = trimmed(jsonin::to_string(value, k), 200, k);
    else if (k == "descricao") f.descricao = nullable(4000);
    else if (k == "temaGeral") f.tema_geral = nullable(100);
    else if (k == "temaEspecifico") f.tema_especifico = nullable(100);
    else throw body::unknown_member(k);
  }
  if (f.tema_geral.has_value() != f.tema_especifico.has_value() ||
      (f.tema_geral && f.tema_geral->has_value() != f.tema_especifico->has_value()))
    throw Error(errc::invalid_argument, "informe temaGeral e temaEspecifico juntos (veja /wikimap/cfgs)",
                f.tema_geral ? "temaEspecifico" : "temaGeral");
  return f;
}

int parse_rating(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  std::optional<int> nota;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k != "nota") throw body::unknown_member(k);
    double v = value.is_number() ? jsonin::to_number(value, k) : 0;
    if (!value.is_number() || v != std::floor(v) || v < 1 || v > 5)
      throw Error(errc::invalid_argument, "nota deve ser um inteiro de 1 a 5", "nota");
    nota = int(v);
  }
  if (!nota) throw Error(errc::missing_field, "informe nota (1 a 5)", "nota");
  return *nota;
}

std::string parse_comment(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  std::optional<std::string> texto;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k != "texto") throw body::unknown_member(k);
    texto = trimmed(jsonin::to_string(value, k), 2000, k);
  }
  if (!texto) throw Error(errc::missing_field, "informe texto", "texto");
  return *texto;
}

Search parse_search(const http::Request& req) {
  Search s;
  s.id = optional_id(req);
  s.q = query_text(req, "q", 200);
  s.tema_geral = query_text(req, "temaGeral", 100);
  s.tema_especifico = query_text(req, "temaEspecifico", 100);
  s.organizacao = query_text(req, "organizacao", 200);
  return s;
}

std::optional<std::int64_t> optional_id(const http::Request& req) {
  auto v = req.query_value("id");
  if (!v) return std::nullopt;
  return query::parse_integer(*v, "id", 1, INT64_MAX);
}

std::int64_t required_id(const http::Request& req) {
  auto id = optional_id(req);
  if (!id) throw Error(errc::missing_field, "informe id (o mapa do catálogo)", "id");
  return *id;
}


std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // Trimmed, then not empty and at most `max`.
  auto text = [](int max, bool nullable) {
    return R"({"type":"string","minLength":1,"maxLength":)" + std::to_string(max) +
           (nullable ? R"(,"nullable":true)" : "") + "}";
  };
  return {
      {"MapaWikiAlteracao",
       object({{"titulo", text(200, false)}, {"descricao", text(4000, true)},
               {"temaGeral", R"({"type":"string","minLength":1,"maxLength":100,"nullable":true,"description":"com temaEspecifico (os dois, ou os dois null); veja /wikimap/cfgs"})"},
               {"temaEspecifico", R"({"type":"string","minLength":1,"maxLength":100,"nullable":true,"description":"com temaGeral"})"},
               {"organizacao", text(200, false)}},
              {}, true),
       R"({"titulo":"Áreas de risco de alagamento","descricao":"Pontos de alagamento registrados pela Defesa Civil em 2023.","temaGeral":"Meio ambiente","temaEspecifico":"Drenagem","organizacao":"Defesa Civil de Campinas"})",
       [](std::string_view body) { parse_entry(body); }},
      {"AvaliacaoWikiNova", object({{"nota", R"({"type":"integer","minimum":1,"maximum":5})"}}, {"nota"}, true),
       R"({"nota":4})", [](std::string_view body) { parse_rating(body); }},
      {"ComentarioWikiNovo", object({{"texto", text(2000, false)}}, {"texto"}, true),
       R"({"texto":"O ponto da Av. Norte-Sul já foi drenado em 2024."})",
       [](std::string_view body) { parse_comment(body); }},
  };
}

}  // namespace cadastre::platform::wikimap
