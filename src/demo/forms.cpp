#include "demo/forms.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

// One multi-statement text: PQexec runs it as a single transaction. Field values are
// functions of the feature id (deterministic without a random generator).
constexpr const char* kForms = R"(
delete from formulario.formulario where (camada, nome) in (('lote', 'vistoria_campo'), ('edificacao', 'fachada'));

with f as (insert into formulario.formulario (camada, nome, titulo)
           values ('lote', 'vistoria_campo', 'Vistoria de campo do lote') returning id)
insert into formulario.campo (formulario_id, nome, rotulo, tipo, obrigatorio, ordem, valores_permitidos)
select f.id, c.nome, c.rotulo, c.tipo, c.obrigatorio, c.ordem, c.valores::jsonb
from f, (values
  ('ocupacao', 'Ocupação do lote', 'lista', true, 1, '["edificado", "vago", "em construção", "estacionamento"]'),
  ('muro', 'Possui muro ou cerca', 'booleano', true, 2, null),
  ('data_vistoria', 'Data da vistoria', 'data', true, 3, null),
  ('calcada_metros', 'Largura da calçada (m)', 'decimal', false, 4, null),
  ('observacao', 'Observação do vistoriador', 'texto', false, 5, null)) c(nome, rotulo, tipo, obrigatorio, ordem, valores);

with f as (insert into formulario.formulario (camada, nome, titulo)
           values ('edificacao', 'fachada', 'Levantamento de fachada') returning id)
insert into formulario.campo (formulario_id, nome, rotulo, tipo, obrigatorio, ordem, valores_permitidos)
select f.id, c.nome, c.rotulo, c.tipo, c.obrigatorio, c.ordem, c.valores::jsonb
from f, (values
  ('material', 'Material da fachada', 'lista', true, 1, '["alvenaria", "madeira", "mista", "vidro"]'),
  ('pavimentos_visiveis', 'Pavimentos visíveis', 'inteiro', true, 2, null),
  ('pintura_conservada', 'Pintura conservada', 'booleano', false, 3, null),
  ('fotografada_em', 'Fotografada em', 'data', false, 4, null)) c(nome, rotulo, tipo, obrigatorio, ordem, valores);

insert into formulario.valor (formulario_id, campo_id, geometria_id, valor, atualizado_por)
select c.formulario_id, c.id, l.id, v.valor, 'demo'
from (select id from cadastro.lote where id % 3 <> 0 order by id limit 300) l
cross join lateral (values
  ('ocupacao', to_jsonb((array['edificado', 'vago', 'em construção', 'estacionamento'])[1 + l.id % 4])),
  ('muro', to_jsonb(l.id % 3 = 1)),
  ('data_vistoria', to_jsonb(to_char(date '2024-03-01' + l.id % 90, 'YYYY-MM-DD'))),
  ('calcada_metros', case when l.id % 2 = 0 then to_jsonb(1.5 + (l.id % 7) * 0.25) end),
  ('observacao', case when l.id % 10 = 0 then to_jsonb((array['Portão lateral trancado', 'Cão no quintal; vistoria pela calçada',
                                                               'Morador ausente, fotografado da rua'])[1 + l.id / 10 % 3]) end)
) v(nome, valor)
join formulario.campo c on c.nome = v.nome
join formulario.formulario f on f.id = c.formulario_id and f.camada = 'lote' and f.nome = 'vistoria_campo'
where v.valor is not null;

insert into formulario.valor (formulario_id, campo_id, geometria_id, valor, atualizado_por)
select c.formulario_id, c.id, e.id, v.valor, 'demo'
from (select id, pavimentos from cadastro.edificacao where id % 2 = 0 order by id limit 200) e
cross join lateral (values
  ('material', to_jsonb((array['alvenaria', 'madeira', 'mista', 'vidro'])[1 + e.id % 4])),
  ('pavimentos_visiveis', to_jsonb(e.pavimentos)),
  ('pintura_conservada', case when e.id % 5 <> 0 then to_jsonb(e.id % 3 <> 0) end),
  ('fotografada_em', case when e.id % 4 = 0 then to_jsonb(to_char(date '2023-09-01' + e.id % 120, 'YYYY-MM-DD')) end)
) v(nome, valor)
join formulario.campo c on c.nome = v.nome
join formulario.formulario f on f.id = c.formulario_id and f.camada = 'edificacao' and f.nome = 'fachada'
where v.valor is not null;

select count(*) from (select distinct v.formulario_id, v.geometria_id from formulario.valor v
  join formulario.formulario f on f.id = v.formulario_id
  where (f.camada, f.nome) in (('lote', 'vistoria_campo'), ('edificacao', 'fachada'))) t;
)";

}  // namespace

std::int64_t load_demo_forms(PGconn* conn) {
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn, kForms), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
    throw Error(errc::internal, std::string("falha ao carregar os formulários de demonstração: ") + PQerrorMessage(conn));
  return std::stoll(PQgetvalue(res.get(), 0, 0));
}

}  // namespace cadastre::store
