// The demo's geography is derived from the demo city already loaded (its bairros, lots
// and streets), so it lands where the lots are whatever the city's centre.
#include "demo/geografia.hpp"

#include <fmt/format.h>

#include "cadastre/error.hpp"
#include "demo/copy.hpp"

namespace cadastre::store {
namespace {

std::string literal(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::int64_t load_demo_geography(PGconn* c, const std::string& nome, const std::string& uf) {
  demo::exec(c, "begin");
  try {
    demo::exec(c, "delete from geografia.referencias; delete from geografia.zonas; delete from geografia.observacoes; "
                  "delete from geografia.ceps");
    // The bairros; a district over the north of the city; the centre and two landmarks.
    demo::exec(c, "insert into geografia.referencias (tipo, codigo, nome, geom) "
                  "select 'bairro', codigo, nome, geom from cadastro.bairro");
    demo::exec(c,
               "with e as (select st_extent(geom)::geometry as g from cadastro.lote) "
               "insert into geografia.referencias (tipo, codigo, nome, geom) "
               "select 'distrito', 'D01', 'Distrito de Barão Geraldo', st_setsrid(st_makeenvelope(st_xmin(g), "
               "(st_ymin(g) + st_ymax(g)) / 2, st_xmax(g), st_ymax(g)), 4674) from e union all "
               "select 'ponto', null, 'Paço Municipal', st_setsrid(st_centroid(g), 4674) from e union all "
               "select 'ponto', null, 'Estação Cultura', st_setsrid(st_makepoint(st_xmin(g) + (st_xmax(g) - st_xmin(g)) "
               "/ 4, st_ymin(g) + (st_ymax(g) - st_ymin(g)) / 4), 4674) from e union all "
               "select 'zona', 'ZN', 'Zona Norte', st_setsrid(st_makeenvelope(st_xmin(g), (st_ymin(g) + st_ymax(g)) / 2, "
               "st_xmax(g), st_ymax(g)), 4674) from e");
    // Zoning: three vertical bands over the lots' extent (a lot on a border is split).
    demo::exec(c,
               "with e as (select st_expand(st_extent(geom)::geometry, 0.001) as g from cadastro.lote), "
               "b as (select st_xmin(g) as x0, (st_xmax(g) - st_xmin(g)) / 3 as w, st_ymin(g) as y0, st_ymax(g) as y1 "
               "from e) "
               "insert into geografia.zonas (codigo, nome, observacao, geom) "
               "select z.codigo, z.nome, z.obs, st_multi(st_setsrid(st_makeenvelope(b.x0 + z.i * b.w, b.y0, "
               "b.x0 + (z.i + 1) * b.w, b.y1), 4674)) from b, (values "
               "(0, 'ZR1', 'Zona Residencial 1', 'uso residencial unifamiliar; gabarito de 2 pavimentos'), "
               "(1, 'ZM2', 'Zona Mista 2', 'comércio e serviços de bairro; coeficiente de aproveitamento 2'), "
               "(2, 'ZC3', 'Zona Central 3', 'centralidade; coeficiente de aproveitamento 4')) as z(i, codigo, nome, obs)");
    demo::exec(c,
               "insert into geografia.observacoes (inscricao, texto, autor) "
               "select inscricao, (array['muro sobre o passeio público', 'edícula não averbada', "
               "'piscina identificada na ortofoto', 'alvará de reforma em análise'])[1 + (id % 4)], 'fiscalização' "
               "from cadastro.lote order by id limit 12");
    // The postal table: the city's streets of a neighbouring CEP range, as a loaded file would bring.
    demo::exec(c, fmt::format("insert into geografia.ceps (cep, logradouro, bairro, cidade, uf) "
                              "select lpad((13100000 + l.id * 10)::text, 8, '0'), coalesce(t.descricao || ' ', '') || "
                              "l.nome, null, {}, {} from cadastro.logradouro l "
                              "left join dominio.tipo_logradouro t on t.codigo = l.tipo order by l.id limit 30 "
                              "on conflict do nothing",
                              literal(nome), literal(uf)));
    std::string n = demo::scalar(c, "select (select count(*) from geografia.referencias) + (select count(*) from "
                                    "geografia.zonas) + (select count(*) from geografia.observacoes) + "
                                    "(select count(*) from geografia.ceps)");
    demo::exec(c, "commit");
    return std::stoll(n);
  } catch (...) {
    demo::exec(c, "rollback");
    throw;
  }
}

std::int64_t load_demo_municipalities(PGconn* c) {
  demo::exec(c, "begin");
  try {
    demo::exec(c,
               "insert into geografia.municipios (codigo, nome, uf, area_km2) values "
               "('3509502', 'Campinas', 'SP', 794.571), ('3556206', 'Valinhos', 'SP', 148.538), "
               "('3556701', 'Vinhedo', 'SP', 81.604), ('3536505', 'Paulínia', 'SP', 138.777), "
               "('3552403', 'Sumaré', 'SP', 153.465), ('3519071', 'Hortolândia', 'SP', 62.416), "
               "('3520509', 'Indaiatuba', 'SP', 311.545), ('3525904', 'Jundiaí', 'SP', 431.204), "
               "('3550308', 'São Paulo', 'SP', 1521.202) "
               "on conflict (codigo) do update set nome = excluded.nome, uf = excluded.uf, area_km2 = excluded.area_km2");
    // Sectors: UF+município (7) + distrito (2) + subdistrito (2) + setor (4).
    demo::exec(c,
               "insert into geografia.setores (codigo, municipio_codigo, situacao, tipo, area_km2) "
               "select m.codigo || '0500' || lpad(s::text, 4, '0'), m.codigo, "
               "case when s % 10 = 0 then 'Rural' else 'Urbana' end, '0', round((0.05 + (s % 7) * 0.03)::numeric, 3) "
               "from (values ('3509502', 40), ('3556206', 15)) as m(codigo, n), generate_series(1, m.n) s "
               "on conflict (codigo) do nothing");
    std::string n = demo::scalar(c, "select (select count(*) from geografia.municipios) + (select count(*) from "
                                    "geografia.setores)");
    demo::exec(c, "commit");
    return std::stoll(n);
  } catch (...) {
    demo::exec(c, "rollback");
    throw;
  }
}

}  // namespace cadastre::store
