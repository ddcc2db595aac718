#include "server/dbrest/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::server::dbrest {
namespace {

// PostgreSQL array literal of integers / of identifiers (the names passed here are
// catalog layer names, so they hold no quote or backslash to escape).
std::string array_literal(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

std::string array_literal(const std::vector<std::string>& names) {
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ",\"" : "\"") + names[i] + "\"";
  return out + "}";
}

}  // namespace

std::optional<std::string> form_page(soci::session& s, const std::string& camada, const std::string& formulario,
                                     std::int64_t limite, std::int64_t offset) {
  store::Sql sql("with f as (select id, camada, nome, titulo from formulario.formulario where camada = ");
  sql.bind(camada) << " and nome = ";
  sql.bind(formulario) << "), g as (select distinct v.geometria_id from formulario.valor v join f on f.id = v.formulario_id "
                          "order by 1 limit ";
  sql.bind(std::to_string(limite), "bigint") << " offset ";
  sql.bind(std::to_string(offset), "bigint") << ") "
      "select json_build_object('camada', f.camada, 'formulario', f.nome, 'titulo', f.titulo, 'limite', ";
  sql.bind(std::to_string(limite), "bigint") << ", 'offset', ";
  sql.bind(std::to_string(offset), "bigint") << ", "
      "'total', (select count(distinct v.geometria_id) from formulario.valor v where v.formulario_id = f.id), "
      "'campos', (select coalesce(json_agg(json_build_object('nome', c.nome, 'rotulo', c.rotulo, 'tipo', c.tipo, "
      "'obrigatorio', c.obrigatorio, 'ordem', c.ordem, 'valores_permitidos', c.valores_permitidos) "
      "order by c.ordem, c.id), '[]') from formulario.campo c where c.formulario_id = f.id), "
      "'valores', (select coalesce(json_agg(x order by x.geometria_id), '[]') from ("
      "select v.geometria_id, max(v.atualizado_em) as atualizado_em, "
      "json_object_agg(c.nome, v.valor order by c.ordem, c.id) as valores "
      "from g join formulario.valor v on v.geometria_id = g.geometria_id and v.formulario_id = f.id "
      "join formulario.campo c on c.id = v.campo_id group by v.geometria_id) x))::text from f";
  return store::fetch_value(s, sql);
}

std::vector<std::string> form_layers(soci::session& s) {
  std::vector<std::string> out;
  for (const auto& row : store::fetch(s, store::Sql("select distinct camada from formulario.formulario order by 1")))
    out.push_back(row.at(0).value_or(""));
  return out;
}

std::string value_types(soci::session& s, const std::vector<std::int64_t>& ids, const std::vector<std::string>& layers) {
  store::Sql sql("with ids as (select u.id, u.ord from unnest(");
  sql.bind(array_literal(ids), "bigint[]") << ") with ordinality as u(id, ord)) "
      "select json_build_object('geometrias', coalesce(json_agg(json_build_object('geometria_id', ids.id, "
      "'formularios', coalesce((select json_agg(json_build_object('camada', f.camada, 'formulario', f.nome, "
      "'titulo', f.titulo, 'campos', (select json_agg(json_build_object('nome', c.nome, 'rotulo', c.rotulo, "
      "'tipo', c.tipo, 'obrigatorio', c.obrigatorio, 'valores_permitidos', c.valores_permitidos, 'valor', v.valor, "
      "'atualizado_em', v.atualizado_em, 'atualizado_por', v.atualizado_por) order by c.ordem, c.id) "
      "from formulario.valor v join formulario.campo c on c.id = v.campo_id "
      "where v.formulario_id = f.id and v.geometria_id = ids.id)) order by f.camada, f.nome) "
      "from formulario.formulario f where f.camada = any(";
  sql.bind(array_literal(layers), "text[]") << ") and exists (select 1 from formulario.valor v "
      "where v.formulario_id = f.id and v.geometria_id = ids.id)), '[]')) order by ids.ord), '[]'))::text from ids";
  return store::fetch_value(s, sql).value_or("{\"geometrias\":[]}");
}

}  // namespace cadastre::server::dbrest
