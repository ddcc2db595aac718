#include "platform/city_reports/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::city_reports {
namespace {

std::string id_text(std::int64_t id) { return std::to_string(id); }

std::optional<double> number(const store::Value& v) {
  return v ? std::optional<double>(std::stod(*v)) : std::nullopt;
}
std::optional<int> integer(const store::Value& v) { return v ? std::optional<int>(std::stoi(*v)) : std::nullopt; }

}  // namespace

Property load_property(store::Pool& pool, std::int64_t id, const std::string& inscricao, const std::string& field) {
  store::Sql q("select i.id::text, i.lote_id::text, i.inscricao_cartografica, i.numero_cadastro, "
               "coalesce(i.complemento, ''), i.uso, i.fracao_ideal::text, i.area_privativa::text, l.inscricao, "
               "l.area_terreno::text, l.testada::text, l.profundidade::text, l.topografia, l.pedologia, l.situacao, "
               "f.codigo, f.valor_m2::text, f.melhoramentos::text, "
               "trim(coalesce(g.tipo || ' ', '') || coalesce(g.nome, '')), l.numero::text, coalesce(b.nome, ''), "
               "coalesce(q.codigo, '') from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
               "left join cadastro.face_quadra f on f.id = l.face_quadra_id "
               "left join cadastro.logradouro g on g.id = l.logradouro_id "
               "left join cadastro.quadra q on q.id = l.quadra_id left join cadastro.bairro b on b.id = q.bairro_id where ");
  if (inscricao.empty())
    q << "i.id = ", q.bind(id_text(id), "integer");
  else
    q << "i.inscricao_cartografica = ", q.bind(inscricao, "text");
  return pool.with([&](soci::session& s) {
    auto rows = store::fetch(s, q);
    if (rows.empty())
      throw Error(errc::not_found, "imóvel não encontrado: " + (inscricao.empty() ? id_text(id) : inscricao), field);
    const auto& r = rows[0];
    Property p;
    p.id = std::stoll(*r[0]);
    p.lote_id = std::stoll(*r[1]);
    p.inscricao_cartografica = *r[2];
    p.numero_cadastro = *r[3];
    p.complemento = *r[4];
    p.uso = *r[5];
    p.fracao_ideal = *number(r[6]);
    p.area_privativa = number(r[7]);
    p.lote_inscricao = *r[8];
    p.area_terreno = *number(r[9]);
    p.testada = *number(r[10]);
    p.profundidade = number(r[11]);
    p.topografia = *r[12];
    p.pedologia = *r[13];
    p.situacao = *r[14];
    p.face_quadra = r[15];
    p.valor_m2 = number(r[16]);
    p.melhoramentos = integer(r[17]);
    p.logradouro = *r[18];
    p.numero = integer(r[19]);
    p.bairro = *r[20];
    p.quadra = *r[21];
    store::Sql b("select id::text, area_construida::text, padrao, ano_construcao::text, conservacao, uso "
                 "from cadastro.edificacao where lote_id = ");
    b.bind(id_text(p.lote_id), "integer") << " order by id";
    for (const auto& row : store::fetch(s, b))
      p.buildings.push_back({std::stoll(*row[0]), *number(row[1]), *row[2], *row[4], *row[5], integer(row[3])});
    return p;
  });
}

std::optional<StoredProfile> active_profile(store::Pool& pool) {
  store::Sql q("select nome, configuracao::text from avaliacao.perfil where ativo");
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  if (rows.empty()) return std::nullopt;
  return StoredProfile{rows[0][0].value_or(""), rows[0][1].value_or("{}")};
}

std::vector<Shape> map_shapes(store::Pool& pool, std::int64_t lote_id, std::int64_t geometria) {
  // The neighbourhood: the lot's box grown by its larger side (at least 30 m), in metres.
  store::Sql q("with alvo as (select l.id, st_transform(l.geom, 3857) as g from cadastro.lote l where l.id = ");
  q.bind(id_text(lote_id), "integer");
  q << "), caixa as (select st_expand(st_envelope(g), greatest(30, st_xmax(g) - st_xmin(g), st_ymax(g) - st_ymin(g))) "
       "as b from alvo), vizinhos as (select l.id, st_transform(l.geom, 3857) as g from cadastro.lote l, caixa "
       "where l.geom && st_transform(caixa.b, 4674) and l.id <> ";
  q.bind(id_text(lote_id), "integer");
  q << ") select 'vizinho', encode(st_asbinary(g), 'hex') from vizinhos "
       "union all select 'lote', encode(st_asbinary(g), 'hex') from alvo "
       "union all select 'edificacao', encode(st_asbinary(st_transform(e.geom, 3857)), 'hex') from cadastro.edificacao e "
       "where e.lote_id in (select id from alvo union select id from vizinhos) "
       "union all select 'geometria', encode(st_asbinary(st_transform(g.geom, 3857)), 'hex') from projeto.geometrias g where ";
  common::where_geometry(q, "g.", geometria);
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  std::vector<Shape> out;
  for (const auto& r : rows)
    if (r[1]) out.push_back({*r[0], geom::parts(geom::Geometry::from_hex_wkb(*r[1]))});
  return out;
}

GeometryValues geometry_values(store::Pool& pool, std::int64_t geometria) {
  // The values: the geometry's row of its layer's table (projeto.valores_de), each as its
  // column's text (#>> of its JSON gives the same text: the string, number, date, boolean
  // or the list's JSON).
  store::Sql q("select c.nome, k.nome, k.tipo, v.valor #>> '{}' from projeto.geometrias g "
               "join projeto.camadas c on c.id = g.camada_id left join lateral projeto.valores_de(g.id) v on true "
               "left join projeto.campos k on k.id = v.campo_id "
               "left join projeto.formularios f on f.id = k.formulario_id where ");
  common::where_geometry(q, "g.", geometria);
  q << " order by f.ordem, f.id, k.ordem, k.id";
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  GeometryValues out;
  for (const auto& r : rows) {
    out.camada = r[0].value_or("");
    if (r[1]) out.values.emplace_back(*r[1], common::stored_value(*r[2], r[3]));
  }
  return out;
}

std::vector<Photo> photos(store::Pool& pool, std::int64_t geometria, int limit) {
  store::Sql q("select nome, chave, tipo_midia, camada_id::text, projeto_id::text from projeto.arquivos "
               "where finalidade = 'foto' and tipo_midia in ('image/jpeg', 'image/png') and geometria_id = ");
  q.bind(id_text(geometria), "bigint") << " order by id limit " << std::to_string(limit);
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  std::vector<Photo> out;
  for (const auto& r : rows) {
    Photo p{*r[0], *r[1], *r[2], std::nullopt, std::nullopt};
    if (r[3]) p.camada = std::stoll(*r[3]);
    if (r[4]) p.projeto = std::stoll(*r[4]);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace cadastre::platform::city_reports
