#include "demo/mapoteca.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

// One multi-statement text: PQexec runs it as a single transaction. Footprints come from
// the demo city itself, so the items lie over whatever city was generated.
constexpr const char* kItems = R"(
delete from mapoteca.item where criado_por = 'demo';

with e as (select ST_XMin(b) x0, ST_YMin(b) y0, ST_XMax(b) x1, ST_YMax(b) y1,
                  (ST_XMin(b) + ST_XMax(b)) / 2 xm, (ST_YMin(b) + ST_YMax(b)) / 2 ym
           from (select ST_Extent(geom) b from (select geom from cadastro.bairro
                                                union all select geom from cadastro.quadra) g) t
           where b is not null)
insert into mapoteca.item (titulo, descricao, palavras_chave, data, escala, arquivo_url, footprint, criado_por)
select i.titulo, i.descricao, i.palavras, i.data::date, i.escala, i.url, ST_Multi(i.footprint), 'demo'
from e cross join lateral (values
  ('Ortofoto 2023 — área urbana',
   'Mosaico de ortofotos coloridas de 2023, resolução de 10 cm, cobrindo toda a área urbana do município.',
   array['ortofoto', 'aerofotogrametria', 'imagem aérea'], '2023-08-15', 1000,
   'https://mapas.exemplo.gov.br/mapoteca/ortofoto-2023.tif', ST_MakeEnvelope(e.x0, e.y0, e.x1, e.y1, 4674)),
  ('Ortofoto 2010 — levantamento aerofotogramétrico',
   'Ortofotos em preto e branco do levantamento de 2010, usadas na atualização da planta cadastral.',
   array['ortofoto', 'histórico'], '2010-06-01', 2000,
   'https://mapas.exemplo.gov.br/mapoteca/ortofoto-2010.tif', ST_MakeEnvelope(e.x0, e.y0, e.x1, e.y1, 4674)),
  ('Mapa de Zoneamento e Uso do Solo',
   'Zonas residenciais, mistas e industriais conforme a lei complementar de uso e ocupação do solo.',
   array['zoneamento', 'uso do solo', 'plano diretor'], '2021-12-10', 10000,
   'https://mapas.exemplo.gov.br/mapoteca/zoneamento.pdf', ST_MakeEnvelope(e.x0, e.y0, e.x1, e.y1, 4674)),
  ('Planta Genérica de Valores',
   'Valores unitários de terreno por face de quadra, base do cálculo do IPTU.',
   array['valores', 'IPTU', 'tributação'], '2022-11-30', 5000,
   'https://mapas.exemplo.gov.br/mapoteca/pgv-2022.pdf', ST_MakeEnvelope(e.x0, e.y0, e.x1, e.y1, 4674)),
  ('Carta de Declividade — setor nordeste',
   'Classes de declividade do terreno em percentagem, a partir do modelo digital de elevação.',
   array['declividade', 'relevo', 'topografia'], '2019-04-22', 5000,
   'https://mapas.exemplo.gov.br/mapoteca/declividade-ne.pdf', ST_MakeEnvelope(e.xm, e.ym, e.x1, e.y1, 4674)),
  ('Mapa de Risco Geológico — setor sudoeste',
   'Áreas de risco de deslizamento e erosão em encostas, com a classificação da defesa civil.',
   array['risco', 'geologia', 'encostas', 'defesa civil'], '2020-02-14', 5000,
   'https://mapas.exemplo.gov.br/mapoteca/risco-so.pdf', ST_MakeEnvelope(e.x0, e.y0, e.xm, e.ym, 4674))
) i(titulo, descricao, palavras, data, escala, url, footprint);

insert into mapoteca.item (titulo, descricao, palavras_chave, data, escala, arquivo_url, footprint, criado_por)
select 'Planta de Quadra ' || q.codigo,
       'Planta cadastral da quadra ' || q.codigo || ' do setor ' || q.setor || ', com lotes, edificações e numeração predial.',
       array['planta de quadra', 'cadastro', 'lotes'], date '2024-01-15' + q.id % 60, 500,
       'https://mapas.exemplo.gov.br/mapoteca/quadras/' || q.codigo || '.pdf', ST_Multi(ST_Envelope(q.geom)), 'demo'
from (select * from cadastro.quadra order by id limit 6) q;

insert into mapoteca.item (titulo, descricao, palavras_chave, data, escala, arquivo_url, footprint, criado_por)
select 'Mapa do Bairro ' || b.nome,
       'Limites, quadras e logradouros do bairro ' || b.nome || ', com a toponímia oficial.',
       array['bairro', 'logradouros', 'toponímia'], date '2023-05-02', 5000,
       'https://mapas.exemplo.gov.br/mapoteca/bairros/' || b.codigo || '.pdf', ST_Multi(b.geom), 'demo'
from (select * from cadastro.bairro order by id limit 2) b;

select count(*) from mapoteca.item where criado_por = 'demo';
)";

}  // namespace

std::int64_t load_demo_mapoteca(PGconn* conn) {
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn, kItems), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
    throw Error(errc::internal, std::string("falha ao carregar a mapoteca de demonstração: ") + PQerrorMessage(conn));
  return std::stoll(PQgetvalue(res.get(), 0, 0));
}

}  // namespace cadastre::store
