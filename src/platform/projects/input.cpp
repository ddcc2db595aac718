#include "platform/projects/input.hpp"

#include <simdjson.h>

#include <climits>
#include <regex>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::projects {
namespace {

// The lengths are the table's checks (migration 0015), said before the database says them.
std::string text(jsonin::element value, const std::string& field, std::size_t max, bool required_not_blank) {
  std::string v = jsonin::to_string(value, field);
  if (v.size() > max) throw Error(errc::invalid_argument, field + " longo demais (máximo " + std::to_string(max) + ")", field);
  if (required_not_blank && v.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::invalid_argument, field + " não pode ser vazio", field);
  return v;
}


jsonin::object object_of(simdjson::dom::parser& parser, std::string_view body) {
  return jsonin::as_object(jsonin::parse(parser, body), "corpo");
}

}  // namespace

ProjectFields parse_project(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body);
  ProjectFields f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "nome") f.nome = text(value, k, 200, true);
    else if (k == "descricao") f.descricao = text(value, k, 4000, false);
    else if (k == "tipo" && creating) f.tipo = text(value, k, 40, true);
    else throw body::unknown_member(k);
  }
  if (creating && !f.nome) throw Error(errc::missing_field, "informe nome", "nome");
  if (f.tipo && *f.tipo != "geral" && *f.tipo != "cadastro_imobiliario")
    throw Error(errc::invalid_argument, "tipo deve ser geral ou cadastro_imobiliario", "tipo");
  return f;
}

std::int64_t parse_project_ref(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body);
  body::only_members(root, {"idProjeto"});
  return body::required_id(root, "idProjeto");
}

CopyRequest parse_copy(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body);
  CopyRequest c;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idProjeto") c.id = body::required_id(root, "idProjeto");
    else if (k == "nome") c.nome = text(value, k, 200, true);
    else if (k == "geometrias") c.geometrias = jsonin::opt_bool(root, "geometrias").value_or(false);
    else if (k == "valores") c.valores = jsonin::opt_bool(root, "valores").value_or(false);
    else throw body::unknown_member(k);
  }
  if (!c.id) throw Error(errc::missing_field, "informe idProjeto", "idProjeto");
  if (c.nome.empty()) throw Error(errc::missing_field, "informe nome", "nome");
  if (c.valores && !c.geometrias)
    throw Error(errc::invalid_argument, "valores pede geometrias: os valores pertencem às geometrias", "valores");
  return c;
}

std::string parse_notes(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body);
  body::only_members(root, {"notas"});
  std::string notas = jsonin::string(root, "notas");
  if (notas.size() > kMaxNotes)
    throw Error(errc::payload_too_large, "notas passam de " + std::to_string(kMaxNotes / 1000) + " kB", "notas");
  return notas;
}

Share parse_share(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body);
  body::only_members(root, {"idProjeto", "idUsuario", "papel"});
  Share s{body::required_id(root, "idProjeto"), body::required_id(root, "idUsuario"), jsonin::string(root, "papel")};
  if (s.papel != "leitura" && s.papel != "edicao" && s.papel != "admin")
    throw Error(errc::invalid_argument, "papel deve ser leitura, edicao ou admin", "papel");
  return s;
}

TransferRequest parse_transfer(const http::Request& req) {
  auto required = [&](const char* name) {
    auto v = req.query_value(name);
    if (!v || v->empty()) throw Error(errc::missing_field, std::string(name) + " é obrigatório", name);
    return *v;
  };
  TransferRequest t;
  t.id = query::parse_integer(required("id"), "id", 1, INT64_MAX);
  t.user = query::parse_integer(required("idUsuario"), "idUsuario", 1, INT64_MAX);
  t.tenant = required("tenant");
  static const std::regex kTenant("[0-9]{1,18}|[a-z][a-z0-9_]{0,62}");
  if (!std::regex_match(t.tenant, kTenant))
    throw Error(errc::invalid_argument, "tenant deve ser o nome (slug) ou o id de um município", "tenant");
  return t;
}

std::string parse_domain(const http::Request& req) {
  auto v = req.query_value("dominio");
  if (!v || v->empty()) throw Error(errc::missing_field, "dominio é obrigatório", "dominio");
  std::string d;
  for (char c : *v) d += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (!d.empty() && d.front() == '@') d.erase(0, 1);  // "@alfa.gov.br" means the same
  static const std::regex kDomain("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]");
  if (d.size() > 253 || !std::regex_match(d, kDomain))
    throw Error(errc::invalid_argument, "dominio deve ser um domínio de e-mail, como prefeitura.gov.br", "dominio");
  return d;
}

bool parse_active(const http::Request& req) { return req.query_value("ativo").value_or("true") == "true"; }

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string name = R"({"type":"string","minLength":1,"maxLength":200,"pattern":"[^ \\t\\r\\n]"})";
  const std::string description = R"({"type":"string","maxLength":4000})";
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  return {
      {"ProjetoNovo", object({{"nome", name}, {"descricao", description}, {"tipo", enumeration({"geral", "cadastro_imobiliario"})}},
                             {"nome"}, true),
       R"({"nome":"Cadastro imobiliário 2025","descricao":"Recadastramento dos lotes da zona urbana","tipo":"cadastro_imobiliario"})",
       [](std::string_view body) { parse_project(body, true); }},
      {"ProjetoAlteracao", object({{"nome", name}, {"descricao", description}}, {}, true),
       R"j({"nome":"Cadastro imobiliário 2025 (revisado)","descricao":""})j",
       [](std::string_view body) { parse_project(body, false); }},
      {"ReferenciaProjeto", object({{"idProjeto", id}}, {"idProjeto"}, true), R"({"idProjeto":12})",
       [](std::string_view body) { parse_project_ref(body); }},
      {"NotasProjetoAlteracao",
       object({{"notas", R"({"type":"string","maxLength":200000,"description":"HTML, saneado ao gravar; até 200000 bytes"})"}}, {"notas"}, true),
       R"({"notas":"<h2>Pendências</h2><p>Conferir os lotes da <b>quadra 14</b>.</p>"})",
       [](std::string_view body) { parse_notes(body); }},
      {"CopiaProjeto", object({{"idProjeto", id}, {"nome", name},
                               {"geometrias", R"({"type":"boolean","nullable":true})"},
                               {"valores", R"({"type":"boolean","nullable":true,"description":"pede geometrias"})"}},
                              {"idProjeto", "nome"}, true),
       R"({"idProjeto":12,"nome":"Cópia de trabalho","geometrias":true,"valores":true})",
       [](std::string_view body) { parse_copy(body); }},
      {"CompartilhamentoNovo", object({{"idProjeto", id}, {"idUsuario", id},
                                       {"papel", enumeration({"leitura", "edicao", "admin"})}},
                                      {"idProjeto", "idUsuario", "papel"}, true),
       R"({"idProjeto":12,"idUsuario":31,"papel":"edicao"})", [](std::string_view body) { parse_share(body); }},
  };
}

}  // namespace cadastre::platform::projects
