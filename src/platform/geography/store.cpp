// Name searches rank exact > prefix > contains, then by pg_trgm similarity; the where is
// chave_busca(nome) like '%' || chave_busca(term) || '%', which the trigram GIN indexes of
// migration 0023 answer.
#include "platform/geography/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geography {
namespace {

// "case ... end as nivel" of `expr` against the bound term (raw) and its LIKE-escaped form.
std::string rank_sql(const std::string& expr, const std::string& raw, const std::string& like,
                     const std::string& key = "projeto.chave_busca") {
  return "case when " + key + "(" + expr + ") = " + key + "(" + raw + ") then 3 when " + key + "(" + expr +
         ") like " + key + "(" + like + ") || '%' then 2 else 1 end";
}

std::string digits_of(const std::string& s) {
  std::string d;
  for (char c : s)
    if (c >= '0' && c <= '9') d += c;
    else if (c != '-' && c != '.' && c != ' ') return {};
  return d;
}

const std::string kReference =
    "jsonb_build_object('id', r.id, 'tipo', r.tipo, 'codigo', r.codigo, 'nome', r.nome, "
    "'centro', jsonb_build_object('x', st_x(st_pointonsurface(r.geom)), 'y', st_y(st_pointonsurface(r.geom))), "
    "'bbox', jsonb_build_array(st_xmin(r.geom), st_ymin(r.geom), st_xmax(r.geom), st_ymax(r.geom)))";

}  // namespace

store::PageRows references(store::Pool& pool, const std::optional<std::string>& tipo, const Page& page) {
  store::Sql q;
  auto where = [&] {
    q << "true";
    if (tipo) q << " and r.tipo = ", q.bind(*tipo, "text");
  };
  const std::string order = page.order_by == "nome" ? "r.nome" : "r.id";
  const std::string dir = page.descending ? " desc" : "";
  q << "select (select count(*) from geografia.referencias r where ";
  where();
  q << ")::text, coalesce(jsonb_agg(p.j order by p.o" << dir << ", p.id" << dir << "), '[]')::text from (select "
    << kReference << " as j, " << order << " as o, r.id from geografia.referencias r where ";
  where();
  q << " order by " << order << dir << ", r.id" << dir;
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string find_references(store::Pool& pool, const std::string& term) {
  store::Sql q;
  // SOCI numbers every occurrence of a placeholder: each use binds the term again.
  auto raw = [&] { return q.placeholder(term, "text"); };
  auto like = [&] { return q.placeholder(query::escape_like(term), "text"); };
  q << "select coalesce(jsonb_agg(j order by nivel desc, sim desc, id), '[]')::text from (select " << kReference
    << " as j, r.id, " << rank_sql("r.nome", raw(), like()) << " as nivel, similarity(projeto.chave_busca(r.nome), "
    << "projeto.chave_busca(" << raw() << ")) as sim from geografia.referencias r where projeto.chave_busca(r.nome) like "
    << "'%' || projeto.chave_busca(" << like() << ") || '%' order by nivel desc, sim desc, r.id limit 20) x";
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string find_municipalities(store::Pool& platform, const std::string& term) {
  store::Sql q;
  const std::string code = digits_of(term);
  q << "select coalesce(jsonb_agg(jsonb_build_object('codigo', m.codigo, 'nome', m.nome, 'uf', m.uf, "
       "'areaKm2', m.area_km2) order by x.nivel desc, x.sim desc, m.nome, m.codigo), '[]')::text from (";
  if (!code.empty()) {
    q << "select codigo, 1 as nivel, 0::real as sim from geografia.municipios where codigo like ";
    q.bind(code + "%", "text");
  } else {
    // SOCI numbers every occurrence of a placeholder: each use binds the term again.
  auto raw = [&] { return q.placeholder(term, "text"); };
  auto like = [&] { return q.placeholder(query::escape_like(term), "text"); };
    q << "select codigo, " << rank_sql("nome", raw(), like(), "geografia.chave_busca")
      << " as nivel, similarity(geografia.chave_busca(nome), geografia.chave_busca(" << raw() << ")) as sim "
      << "from geografia.municipios where geografia.chave_busca(nome) like '%' || geografia.chave_busca(" << like()
      << ") || '%'";
  }
  q << " order by nivel desc, sim desc, codigo limit 20) x join geografia.municipios m on m.codigo = x.codigo";
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string find_sectors(store::Pool& platform, const std::string& term) {
  store::Sql q;
  const std::string code = digits_of(term);
  q << "select coalesce(jsonb_agg(jsonb_build_object('codigo', s.codigo, 'codigoMunicipio', m.codigo, "
       "'municipio', m.nome, 'uf', m.uf, 'situacao', s.situacao, 'tipo', s.tipo, 'areaKm2', s.area_km2) "
       "order by s.codigo), '[]')::text from (select codigo from geografia.setores where ";
  if (code.size() == 7) {  // a municipality's code: its sectors
    q << "municipio_codigo = ";
    q.bind(code, "text");
  } else if (!code.empty()) {
    q << "codigo like ";
    q.bind(code + "%", "text");
  } else {
    q << "municipio_codigo in (select codigo from geografia.municipios where geografia.chave_busca(nome) = "
         "geografia.chave_busca(";
    q.bind(term, "text");
    q << "))";
  }
  q << " order by codigo limit 100) x join geografia.setores s on s.codigo = x.codigo "
       "join geografia.municipios m on m.codigo = s.municipio_codigo";
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string find_ceps(store::Pool& pool, const std::string& tenant_nome, const std::string& uf, const std::string& term,
                      const std::optional<std::string>& cidade) {
  store::Sql q;
  const std::string code = digits_of(term);
  if (!code.empty() && (code.size() < 5 || code.size() > 8))
    throw Error(errc::invalid_argument, "q: um CEP tem de 5 a 8 dígitos", "q");
  // SOCI numbers every occurrence of a placeholder: each use binds its value again.
  auto nome = [&] { return q.placeholder(tenant_nome, "text"); };
  // A CEP prefix, or the street name LIKE-escaped.
  auto key = [&] { return code.empty() ? q.placeholder(query::escape_like(term), "text") : q.placeholder(code + "%", "text"); };
  auto city = [&] { return q.placeholder(*cidade, "text"); };
  // The tenant's own streets: their CEP written with or without the hyphen.
  q << "select coalesce(jsonb_agg(j order by j->>'cep', j->>'logradouro'), '[]')::text from (select * from ("
       "select jsonb_build_object('cep', regexp_replace(l.cep, '[^0-9]', '', 'g'), 'logradouro', "
       "coalesce(t.descricao || ' ', '') || l.nome, 'codigoLogradouro', l.codigo, 'bairro', null, 'cidade', "
    << nome() << ", 'uf', ";
  q.bind(uf, "text");
  q << ", 'origem', 'cadastro') as j from cadastro.logradouro l left join dominio.tipo_logradouro t on t.codigo = l.tipo "
       "where l.cep is not null and ";
  if (!code.empty()) q << "regexp_replace(l.cep, '[^0-9]', '', 'g') like " << key();
  else q << "projeto.chave_busca(l.nome) like '%' || projeto.chave_busca(" << key() << ") || '%'";
  if (cidade) q << " and projeto.chave_busca(" << nome() << ") = projeto.chave_busca(" << city() << ")";
  q << " order by l.nome, l.id limit 50) a union all select * from (select jsonb_build_object('cep', c.cep, "
       "'logradouro', c.logradouro, 'codigoLogradouro', null, 'bairro', c.bairro, 'cidade', c.cidade, 'uf', c.uf, "
       "'origem', 'correios') from geografia.ceps c where ";
  if (!code.empty()) q << "c.cep like " << key();
  else q << "projeto.chave_busca(c.logradouro) like '%' || projeto.chave_busca(" << key() << ") || '%'";
  if (cidade) q << " and projeto.chave_busca(c.cidade) = projeto.chave_busca(" << city() << ")";
  q << " order by c.cep, c.logradouro limit 50) b limit 50) x";
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string zones(store::Pool& pool) {
  store::Sql q(
      "select coalesce(jsonb_agg(jsonb_build_object('id', z.id, 'codigo', z.codigo, 'nome', z.nome, 'observacao', "
      "z.observacao, 'areaM2', round(st_area(z.geom::geography)::numeric, 2), 'geometria', "
      "st_asgeojson(z.geom, 7)::jsonb) order by z.codigo), '[]')::text from geografia.zonas z");
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

store::PageRows observations(store::Pool& pool, const std::optional<std::string>& inscricao, const Page& page) {
  store::Sql q;
  auto where = [&] {
    q << "true";
    if (inscricao) q << " and o.inscricao = ", q.bind(*inscricao, "text");
  };
  q << "select (select count(*) from geografia.observacoes o where ";
  where();
  q << ")::text, coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'inscricao', p.inscricao, 'texto', p.texto, "
       "'autor', p.autor, 'criadoEm', p.criado_em) order by p.criado_em desc, p.id desc), '[]')::text from "
       "(select * from geografia.observacoes o where ";
  where();
  q << " order by o.criado_em desc, o.id desc";
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string property(store::Pool& pool, const std::string& inscricao) {
  store::Sql q("select jsonb_build_object('inscricao', l.inscricao, 'areaTerreno', l.area_terreno, 'testada', "
               "l.testada, 'logradouro', coalesce(t.descricao || ' ', '') || g.nome, 'numero', l.numero, 'cep', g.cep, "
               "'quadra', q.codigo, 'bairro', b.nome, "
               "'zonas', (select coalesce(jsonb_agg(jsonb_build_object('codigo', z.codigo, 'nome', z.nome, "
               "'proporcao', round((st_area(st_intersection(z.geom, l.geom)::geography) / "
               "nullif(st_area(l.geom::geography), 0))::numeric, 4)) order by z.codigo), '[]') "
               "from geografia.zonas z where st_intersects(z.geom, l.geom)), "
               "'observacoes', (select coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'texto', o.texto, 'autor', "
               "o.autor, 'criadoEm', o.criado_em) order by o.criado_em desc, o.id desc), '[]') "
               "from geografia.observacoes o where o.inscricao = l.inscricao))::text "
               "from cadastro.lote l join cadastro.quadra q on q.id = l.quadra_id "
               "left join cadastro.bairro b on b.id = q.bairro_id "
               "left join cadastro.logradouro g on g.id = l.logradouro_id "
               "left join dominio.tipo_logradouro t on t.codigo = g.tipo where l.inscricao = ");
  q.bind(inscricao, "text");
  auto out = pool.with([&](soci::session& s) { return store::fetch_value(s, q); });
  if (!out) throw Error(errc::not_found, "nenhum lote com a inscrição " + inscricao, "inscricao");
  return *out;
}

}  // namespace cadastre::platform::geography
