#include "platform/additional_layers/input.hpp"

#include <simdjson.h>

#include <climits>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::additional_layers {
namespace {

constexpr std::size_t kMaxUrl = 2000, kMaxLayers = 2000, kMaxOptions = 16384;

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The URL a map client will request: an absolute http(s) URL with a host and no
// credentials (they would be shown to every user of the project).
void check_url(const std::string& url, const std::string& tipo) {
  if (url.size() > kMaxUrl) throw Error(errc::invalid_argument, "url longa demais (máximo 2000)", "url");
  for (unsigned char c : url)
    if (c <= 0x20 || c == 0x7F) throw Error(errc::invalid_argument, "url com espaço ou caractere de controle", "url");
  std::string l = lowered(url);
  std::size_t scheme = l.rfind("https://", 0) == 0 ? 8 : l.rfind("http://", 0) == 0 ? 7 : 0;
  if (!scheme) throw Error(errc::invalid_argument, "url deve começar com http:// ou https://", "url");
  std::size_t end = url.find_first_of("/?#", scheme);
  std::string authority = url.substr(scheme, end == std::string::npos ? std::string::npos : end - scheme);
  if (authority.find('@') != std::string::npos)
    throw Error(errc::invalid_argument, "url não pode levar usuário ou senha", "url");
  if (authority.empty() || authority.front() == ':') throw Error(errc::invalid_argument, "url sem servidor", "url");
  if (tipo == "xyz")
    for (const char* part : {"{z}", "{x}", "{y}"})
      if (url.find(part) == std::string::npos)
        throw Error(errc::invalid_argument, std::string("url de camada xyz deve conter {z}, {x} e {y}; falta ") + part,
                    "url");
}

}  // namespace

NewLayer parse_new_layer(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  NewLayer n;
  bool has_project = false;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idProjeto") {
      n.project = jsonin::integer(root, "idProjeto");
      if (n.project < 1) throw Error(errc::invalid_argument, "idProjeto deve ser um id positivo", "idProjeto");
      has_project = true;
    } else if (k == "nome") {
      n.nome = jsonin::to_string(value, k);
      if (n.nome.size() > 200) throw Error(errc::invalid_argument, "nome longo demais (máximo 200)", "nome");
      if (n.nome.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
    } else if (k == "tipo") {
      n.tipo = jsonin::to_string(value, k);
    } else if (k == "url") {
      n.url = jsonin::to_string(value, k);
    } else if (k == "camadas") {
      if (!value.is_null()) n.camadas = jsonin::to_string(value, k);
    } else if (k == "opcoes") {
      if (value.is_null()) continue;
      jsonin::as_object(value, "opcoes");
      n.opcoes = simdjson::minify(value);
      if (n.opcoes.size() > kMaxOptions) throw Error(errc::invalid_argument, "opcoes grande demais (máximo 16 kB)", "opcoes");
    } else if (k == "ordem") {
      std::int64_t o = jsonin::integer(root, "ordem");
      if (o < INT_MIN || o > INT_MAX) throw Error(errc::invalid_argument, "ordem fora do intervalo", "ordem");
      n.ordem = static_cast<int>(o);
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!has_project) throw Error(errc::missing_field, "informe idProjeto", "idProjeto");
  if (n.nome.empty()) throw Error(errc::missing_field, "informe nome", "nome");
  if (n.tipo.empty()) throw Error(errc::missing_field, "informe tipo", "tipo");
  if (n.tipo != "wms" && n.tipo != "xyz" && n.tipo != "vetor")
    throw Error(errc::invalid_argument, "tipo deve ser wms, xyz ou vetor", "tipo");
  if (n.url.empty()) throw Error(errc::missing_field, "informe url", "url");
  check_url(n.url, n.tipo);
  if (n.camadas && (n.camadas->size() > kMaxLayers || n.camadas->find('\0') != std::string::npos))
    throw Error(errc::invalid_argument, "camadas longo demais (máximo 2000)", "camadas");
  if (n.tipo == "wms" && (!n.camadas || n.camadas->find_first_not_of(" ,") == std::string::npos))
    throw Error(errc::missing_field, "camadas (as camadas do WMS) é obrigatório para tipo wms", "camadas");
  return n;
}

std::optional<std::vector<std::int64_t>> parse_project_ids(const http::Request& req) {
  auto v = req.query_value("id_projetos");
  if (!v) return std::nullopt;
  std::vector<std::int64_t> ids;
  for (std::size_t i = 0; i <= v->size();) {
    std::size_t j = std::min(v->find(',', i), v->size());
    ids.push_back(query::parse_integer(std::string_view(*v).substr(i, j - i), "id_projetos", 1, INT64_MAX));
    if (ids.size() > 1000) throw Error(errc::invalid_argument, "id_projetos: no máximo 1000 ids", "id_projetos");
    i = j + 1;
  }
  return ids;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      // camadas is required for tipo wms; an xyz url holds {z}, {x} and {y}.
      {"CamadaAdicionalNova",
       object({{"idProjeto", R"({"type":"integer","format":"int64","minimum":1})"},
               {"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
               {"tipo", enumeration({"wms", "xyz", "vetor"})},
               {"url", R"({"type":"string","maxLength":2000,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://[^\\s@/?#:][^\\s@/?#]*([/?#]\\S*)?$"})"},
               {"camadas", R"({"type":"string","maxLength":2000,"nullable":true})"},
               {"opcoes", R"({"type":"object","nullable":true})"},
               {"ordem", R"({"type":"integer","minimum":-2147483648,"maximum":2147483647})"}},
              {"idProjeto", "nome", "tipo", "url"}, true),
       R"({"idProjeto":12,"nome":"Ortofoto 2023","tipo":"wms","url":"https://geo.campinas.sp.gov.br/geoserver/wms","camadas":"ortofoto_2023,limites_bairros","opcoes":{"formato":"image/png","transparente":true},"ordem":2})",
       [](std::string_view body) { parse_new_layer(body); }},
  };
}

}  // namespace cadastre::platform::additional_layers
