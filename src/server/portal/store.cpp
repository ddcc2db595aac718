#include "server/portal/store.hpp"

#include <charconv>
#include <stdexcept>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server::portal {
namespace {

std::optional<double> number(const store::Value& v) {
  if (!v) return std::nullopt;
  double d = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
  if (ec != std::errc() || end != v->data() + v->size())
    throw std::runtime_error("valor numérico inesperado do banco: " + *v);  // logged, never answered
  return d;
}

std::string text(const store::Value& v) { return v.value_or(""); }

std::optional<int> integer(const store::Value& v) {
  auto d = number(v);
  return d ? std::optional<int>(static_cast<int>(*d)) : std::nullopt;
}

}  // namespace

StoredProperty load_property(soci::session& s, const PropertyKey& key, bool with_buildings) {
  const std::string& field = key.field;
  const std::string& value = key.value;
  store::Sql sql(
      "select i.id::text, i.lote_id::text, i.inscricao_cartografica, i.numero_cadastro, i.uso, i.fracao_ideal::text, "
      "l.inscricao, l.area_terreno::text, l.testada::text, l.profundidade::text, l.topografia, l.pedologia, "
      "l.situacao, f.codigo, f.valor_m2::text, f.melhoramentos::text "
      "from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "left join cadastro.face_quadra f on f.id = l.face_quadra_id where ");
  // `field` is one of the key names: a fixed column name, never request text.
  sql << "i." << field << " = ";
  sql.bind(value, field == "id" ? "integer" : "text");
  store::Sql buildings(
      "select id::text, area_construida::text, padrao, ano_construcao::text, conservacao, uso "
      "from cadastro.edificacao where lote_id = (select lote_id from cadastro.imobiliario i where i.");
  buildings << field << " = ";
  buildings.bind(value, field == "id" ? "integer" : "text");
  buildings << ") order by id";
  auto rows = store::fetch(s, sql);
  auto building_rows = rows.empty() || !with_buildings ? std::vector<store::Row>{} : store::fetch(s, buildings);
  if (rows.empty()) throw Error(errc::not_found, "imóvel não encontrado: " + field + " = " + value, field);
  const auto& r = rows[0];
  StoredProperty p;
  p.id = static_cast<std::int64_t>(*number(r[0]));
  p.lote_id = static_cast<std::int64_t>(*number(r[1]));
  p.inscricao_cartografica = text(r[2]);
  p.numero_cadastro = text(r[3]);
  p.uso = text(r[4]);
  p.fracao_ideal = *number(r[5]);
  p.lote_inscricao = text(r[6]);
  p.area_terreno = *number(r[7]);
  p.testada = *number(r[8]);
  p.profundidade = number(r[9]);
  p.topografia = text(r[10]);
  p.pedologia = text(r[11]);
  p.situacao = text(r[12]);
  p.face_quadra = r[13];
  p.valor_m2 = number(r[14]);
  p.melhoramentos = integer(r[15]);
  for (const auto& b : building_rows)
    p.buildings.push_back({static_cast<std::int64_t>(*number(b[0])), *number(b[1]), text(b[2]), text(b[4]), text(b[5]),
                           integer(b[3])});
  return p;
}

store::PageRows search_properties(soci::session& s, const Search& search) {
  store::Sql sql(
      "with base as (select i.id, i.inscricao_cartografica, i.numero_cadastro, i.complemento, "
      "i.uso, "
      "i.fracao_ideal, i.area_privativa, l.id as lote_id, l.inscricao as lote_inscricao, "
      "trim(coalesce(g.tipo || ' ', '') || coalesce(g.nome, '')) as logradouro, l.numero, b.nome "
      "as bairro "
      "from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "left join cadastro.logradouro g on g.id = l.logradouro_id "
      "left join cadastro.quadra q on q.id = l.quadra_id left join cadastro.bairro b on b.id = "
      "q.bairro_id "
      "where true");
  for (const auto& f : search.filters) {
    if (f.by_name) {
      sql << " and unaccent(" << f.column << ") ilike unaccent(";
      sql.bind(query::like_pattern(query::FilterType::icontains, f.value)) << ")";
    } else {
      sql << " and " << f.column << " = ";
      sql.bind(f.value);
    }
  }
  sql << ") select (select count(*) from base)::text, (select coalesce(json_agg(json_build_object("
         "'id', p.id, 'inscricao_cartografica', p.inscricao_cartografica, 'numero_cadastro', "
         "p.numero_cadastro, "
         "'complemento', p.complemento, 'uso', p.uso, 'fracao_ideal', p.fracao_ideal, "
         "'area_privativa', p.area_privativa, 'lote', json_build_object('id', p.lote_id, "
         "'inscricao', "
         "p.lote_inscricao), 'endereco', json_build_object('logradouro', p.logradouro, 'numero', "
         "p.numero, "
         "'bairro', p.bairro)) order by p.id), '[]') from (select * from base order by id";
  store::append_page(sql, search.paging);
  sql << ") p)::text";
  return store::fetch_page(s, sql);
}

}  // namespace cadastre::server::portal
