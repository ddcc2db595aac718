#include "server/issue_tracker/input.hpp"

#include <simdjson.h>

#include <set>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::tracker {
namespace {

constexpr std::size_t kMaxTitulo = 200, kMaxDescricao = 20000, kMaxAnexos = 50;

std::int64_t positive_id(simdjson::dom::element e, const std::string& field) {
  std::int64_t v = 0;
  if (e.get(v) != simdjson::SUCCESS || v <= 0)
    throw Error(errc::invalid_argument, field + " deve ser um inteiro positivo", field);
  return v;
}

}  // namespace

IssueInput parse_issue(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  static const std::set<std::string_view> known = {"titulo", "descricao",   "lote_id",
                                                   "camada", "registro_id", "anexos"};
  for (auto [key, _] : root)
    if (!known.count(key))
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  IssueInput in;
  in.titulo = jsonin::string(root, "titulo");
  if (in.titulo.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::missing_field, "titulo não pode ser vazio", "titulo");
  if (in.titulo.size() > kMaxTitulo)
    throw Error(errc::invalid_argument, "titulo com mais de 200 caracteres", "titulo");
  in.descricao = jsonin::opt_string(root, "descricao");
  if (in.descricao && in.descricao->size() > kMaxDescricao)
    throw Error(errc::invalid_argument, "descricao com mais de 20000 caracteres", "descricao");
  if (auto e = jsonin::find(root, "lote_id")) in.lote_id = positive_id(*e, "lote_id");
  in.camada = jsonin::opt_string(root, "camada");
  if (auto e = jsonin::find(root, "registro_id"))
    in.registro_id = e->is_string() ? std::string(std::string_view(*e))
                                    : std::to_string(positive_id(*e, "registro_id"));
  if (in.camada.has_value() != in.registro_id.has_value())
    throw Error(errc::missing_field, "camada e registro_id vão juntos",
                in.camada ? "registro_id" : "camada");
  if (in.camada) query::check_identifier(*in.camada, "camada");
  if (auto e = jsonin::find(root, "anexos")) {
    auto list = jsonin::as_array(*e, "anexos");
    for (auto item : list) in.anexos.push_back(positive_id(item, "anexos"));
    if (in.anexos.size() > kMaxAnexos)
      throw Error(errc::invalid_argument, "no máximo 50 anexos", "anexos");
    std::set<std::int64_t> unique(in.anexos.begin(), in.anexos.end());
    if (unique.size() != in.anexos.size())
      throw Error(errc::invalid_argument, "anexo repetido", "anexos");
  }
  return in;
}

}  // namespace cadastre::server::tracker
