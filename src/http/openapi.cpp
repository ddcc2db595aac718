// Builds the OpenAPI 3.0 document from the route table, so the contract can never drift
// from what the server dispatches.
#include <algorithm>
#include <map>
#include <set>

#include "cadastre/json.hpp"
#include "http/server.hpp"

namespace cadastre::http {
namespace {


// "{rest*}" is not valid OpenAPI templating: document it as "{rest}".
std::string openapi_path(const std::string& pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '*' && i + 1 < pattern.size() && pattern[i + 1] == '}') continue;
    out.push_back(pattern[i]);
  }
  return out;
}

std::vector<std::pair<std::string, bool>> path_params(const std::string& pattern) {
  std::vector<std::pair<std::string, bool>> out;  // name, is_rest
  std::size_t i = 0;
  while ((i = pattern.find('{', i)) != std::string::npos) {
    std::size_t j = pattern.find('}', i);
    std::string name = pattern.substr(i + 1, j - i - 1);
    bool rest = !name.empty() && name.back() == '*';
    if (rest) name.pop_back();
    out.emplace_back(name, rest);
    i = j;
  }
  return out;
}

std::string operation_id(const Route& r) {
  std::string id = lower_ascii(r.method) + "_";
  for (char c : r.pattern) id.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  while (!id.empty() && id.back() == '_') id.pop_back();
  return id;
}

void parameter(JsonWriter& w, const Param& p) {
  w.begin_object()
      .key("name")
      .value(p.name)
      .key("in")
      .value(p.in)
      .key("required")
      .value(p.required);
  w.key("schema").begin_object().key("type").value(p.type);
  if (p.type == "object")
    w.key("additionalProperties").begin_object().key("type").value("string").end_object();
  if (!p.values.empty()) {
    w.key("enum").begin_array();
    for (const auto& v : p.values) w.value(v);
    w.end_array();
  }
  w.end_object();
  // Free-form fields: each one a key=value of its own in the query string.
  if (p.type == "object") w.key("style").value("form").key("explode").value(true);
  if (!p.description.empty()) w.key("description").value(p.description);
  w.end_object();
}

void error_responses(JsonWriter& w, const Route& r) {
  auto ref = [&](const char* status, const char* text) {
    w.key(status).begin_object().key("description").value(text);
    w.key("content")
        .begin_object()
        .key("application/json")
        .begin_object()
        .key("schema")
        .begin_object();
    w.key("$ref")
        .value("#/components/schemas/Erro")
        .end_object()
        .end_object()
        .end_object()
        .end_object();
  };
  ref("400", "entrada inválida");
  if (r.auth != "none") {
    ref("401", "credencial ausente ou inválida");
    ref("403", "credencial sem permissão ou município não permitido");
  }
  if (r.pattern.find('{') != std::string::npos) ref("404", "não encontrado");
  ref("500", "erro interno");
  ref("503", "banco de dados ou serviço indisponível (veja Retry-After)");
}
}  // namespace

std::string Server::openapi() const {
  JsonWriter w;
  w.begin_object().key("openapi").value("3.0.3");
  w.key("info").begin_object().key("title").value(info_.title).key("version").value(info_.version);
  w.key("description").value(info_.description).end_object();

  std::map<std::string, std::vector<const Route*>> by_path;
  std::set<std::string> tags;
  for (const auto& r : router_.routes()) {
    by_path[openapi_path(r.pattern)].push_back(&r);
    if (!r.tag.empty()) tags.insert(r.tag);
  }
  w.key("tags").begin_array();
  for (const auto& t : tags) w.begin_object().key("name").value(t).end_object();
  w.end_array();

  w.key("paths").begin_object();
  for (const auto& [path, routes] : by_path) {
    w.key(path).begin_object();
    for (const Route* r : routes) {
      w.key(lower_ascii(r->method)).begin_object();
      w.key("operationId").value(operation_id(*r)).key("summary").value(r->summary);
      // The permission comes from the route table, the same entry the dispatcher enforces.
      if (std::string needs = r->access.describe(); !needs.empty()) {
        w.key("description").value("Permissão: " + needs + ".");
        w.key("x-permissao").value(needs);
      }
      if (!r->tag.empty()) w.key("tags").begin_array().value(r->tag).end_array();
      w.key("security").begin_array();
      if (r->auth != "none") w.begin_object().key(r->auth).begin_array().end_array().end_object();
      w.end_array();
      w.key("parameters").begin_array();
      for (const auto& [name, rest] : path_params(r->pattern)) {
        w.begin_object()
            .key("name")
            .value(name)
            .key("in")
            .value("path")
            .key("required")
            .value(true);
        w.key("schema").begin_object().key("type").value("string").end_object();
        if (rest) w.key("description").value("restante do caminho (pode conter '/')");
        w.end_object();
      }
      for (const auto& p : r->params) parameter(w, p);
      w.end_array();
      if (!r->body.description.empty()) {
        w.key("requestBody")
            .begin_object()
            .key("required")
            .value(true)
            .key("description")
            .value(r->body.description);
        w.key("content")
            .begin_object()
            .key(r->body.content_type)
            .begin_object()
            .key("schema");
        if (!r->body.schema.empty())
          w.raw(r->body.schema);
        else
          w.begin_object()
              .key("type")
              .value(r->body.content_type == "application/json" ? "object" : "string")
              .end_object();
        w.end_object().end_object().end_object();
      }
      w.key("responses").begin_object();
      w.key(std::to_string(r->answer_status)).begin_object();
      w.key("description").value(r->answers.empty() ? "sucesso, sem corpo" : "sucesso");
      if (!r->answers.empty()) {
        w.key("content").begin_object().key(r->answers).begin_object();
        if (!r->answer_schema.empty()) w.key("schema").raw(r->answer_schema);
        w.end_object().end_object();
      }
      w.end_object();
      error_responses(w, *r);
      w.end_object();
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();

  w.key("components").begin_object();
  w.key("schemas").begin_object().key("Erro").begin_object().key("type").value("object");
  w.key("required").begin_array().value("mensagem").value("tipo").value("codigo").end_array();
  w.key("properties").begin_object();
  w.key("mensagem").begin_object().key("type").value("string").end_object();
  w.key("tipo")
      .begin_object()
      .key("type")
      .value("string")
      .key("enum")
      .begin_array()
      .value("erro")
      .end_array()
      .end_object();
  w.key("codigo").begin_object().key("type").value("string").end_object();
  w.end_object().end_object();
  for (const auto& [name, schema] : info_.schemas) w.key(name).raw(schema);
  w.end_object();
  w.key("securitySchemes").begin_object();
  for (const auto& s : schemes_)
    if (!s.openapi_json.empty()) w.key(s.name).raw(s.openapi_json);
  w.end_object();
  w.end_object();
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::http
