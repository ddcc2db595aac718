#include "demo/explorer.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

// The descriptions are in the canonical form the server stores (see
// src/server/explorer/input.hpp and store.hpp); the server checks them again when a report runs.
constexpr const char* kReports = R"(
delete from explorer.relatorio where criado_por = 'demo';
insert into explorer.relatorio (nome, titulo, consulta, criado_por)
values
  ('Lotes acima de 500 m²', 'Lotes com área de terreno acima de 500 m²',
   '{"tabela": "lote", "colunas": ["id", "inscricao", "numero", "area_terreno", "testada", "topografia", "situacao"],
     "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 500}],
     "ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "limite": 5000}', 'demo'),
  ('Unidades por uso', 'Unidades imobiliárias por uso',
   '{"tabela": "imobiliario", "colunas": ["uso", "numero_cadastro", "inscricao_cartografica", "complemento",
     "fracao_ideal", "area_privativa"],
     "ordem": [{"coluna": "uso", "direcao": "asc"}, {"coluna": "numero_cadastro", "direcao": "asc"}], "limite": 10000}',
   'demo')
on conflict (nome) do update set titulo = excluded.titulo, consulta = excluded.consulta, criado_por = 'demo',
  atualizado_em = now();
insert into explorer.relatorio (nome, titulo, consulta, criado_por)
select 'Lotes de esquina do bairro ' || b.nome, 'Lotes de esquina — bairro ' || b.nome || ' (retângulo envolvente)',
       jsonb_build_object(
         'tabela', 'lote',
         'colunas', jsonb_build_array('id', 'inscricao', 'numero', 'area_terreno', 'testada', 'situacao'),
         'filtros', jsonb_build_array(
           jsonb_build_object('coluna', 'situacao', 'operador', '=', 'valor', 'esquina'),
           jsonb_build_object('coluna', 'geom', 'operador', 'bbox', 'valor',
             jsonb_build_array(round(ST_XMin(b.caixa)::numeric, 7), round(ST_YMin(b.caixa)::numeric, 7),
                               round(ST_XMax(b.caixa)::numeric, 7), round(ST_YMax(b.caixa)::numeric, 7)))),
         'ordem', jsonb_build_array(jsonb_build_object('coluna', 'inscricao', 'direcao', 'asc')),
         'limite', 1000),
       'demo'
from (select nome, ST_Extent(geom) as caixa from cadastro.bairro
      group by id, nome order by id limit 1) b
on conflict (nome) do update set titulo = excluded.titulo, consulta = excluded.consulta, criado_por = 'demo',
  atualizado_em = now();
select count(*) from explorer.relatorio where criado_por = 'demo';
)";

}  // namespace

std::int64_t load_demo_explorer(PGconn* conn) {
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn, kReports), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
    throw Error(errc::internal, std::string("falha ao carregar os relatórios de demonstração: ") + PQerrorMessage(conn));
  return std::stoll(PQgetvalue(res.get(), 0, 0));
}

}  // namespace cadastre::store
