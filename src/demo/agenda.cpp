#include "demo/agenda.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

constexpr const char* kAgenda = R"({"fuso_horario": "America/Sao_Paulo", "duracao_slot_minutos": 60,
 "capacidade_por_slot": 1, "vistoriadores": ["ana.souza", "bruno.lima"], "feriados": [],
 "semana": {"segunda": [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
            "terca":   [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
            "quarta":  [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
            "quinta":  [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}],
            "sexta":   [{"inicio": "08:00", "fim": "12:00"}, {"inicio": "13:00", "fim": "17:00"}]}})";

// Reservations relative to the Monday of the current local week: (day offset, local start
// hour, inspector, status, requester, protocol). Slots last 60 minutes.
constexpr const char* kReservations = R"(
with semana as (select date_trunc('week', now() at time zone 'America/Sao_Paulo')::date as seg),
imovel as (select (select min(id) from cadastro.imobiliario) as imobiliario_id, (select min(id) from cadastro.lote) as lote_id),
dados(dia, hora, vistoriador, status, nome, contato, protocolo) as (values
  (-7, 9,  'ana.souza',  'concluido',    'Maria Aparecida Silva', 'maria.silva@example.com', 'DEMO-0001'),
  (-6, 10, 'bruno.lima', 'concluido',    'José Carlos Pereira',   '(19) 99999-0002',         'DEMO-0002'),
  (-3, 14, 'ana.souza',  'em_progresso', 'Ana Paula Oliveira',    '(19) 99999-0003',         'DEMO-0003'),
  (7,  8,  'ana.souza',  'agendado',     'Antônio Santos',        'antonio@example.com',     'DEMO-0004'),
  (7,  8,  'bruno.lima', 'agendado',     'Francisca Lima',        '(19) 99999-0005',         'DEMO-0005'),
  (8,  13, 'ana.souza',  'agendado',     'Paulo Roberto Costa',   '(19) 99999-0006',         'DEMO-0006'),
  (9,  15, 'bruno.lima', 'agendado',     'Juliana Ferreira',      'juliana@example.com',     'DEMO-0007'))
insert into agendamento.reserva (vistoriador, inicio, fim, imobiliario_id, lote_id, protocolo, solicitante_nome,
                                 solicitante_contato, status, criado_por)
select d.vistoriador,
       ((s.seg + d.dia) + make_time(d.hora, 0, 0)) at time zone 'America/Sao_Paulo',
       ((s.seg + d.dia) + make_time(d.hora + 1, 0, 0)) at time zone 'America/Sao_Paulo',
       i.imobiliario_id, i.lote_id, d.protocolo, d.nome, d.contato, d.status, 'demo'
from dados d cross join semana s cross join imovel i;
insert into agendamento.vaga (reserva_id, slot_inicio, indice, vistoriador, indice_vistoriador)
select r.id, r.inicio,
       (select count(*) from agendamento.vaga v where v.slot_inicio = r.inicio)
         + row_number() over (partition by r.inicio order by r.id), r.vistoriador, 1
from agendamento.reserva r where r.criado_por = 'demo';
select count(*) from agendamento.reserva where criado_por = 'demo';
)";

}  // namespace

std::int64_t load_demo_agenda(PGconn* conn) {
  std::string sql = "insert into agendamento.agenda (id, configuracao, atualizado_por) values (1, '";
  sql += kAgenda;
  sql += "'::jsonb, 'demo') on conflict (id) do update set configuracao = excluded.configuracao, "
         "atualizado_em = now(), atualizado_por = 'demo';\n"
         "delete from agendamento.reserva where criado_por = 'demo';\n";
  sql += kReservations;
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn, sql.c_str()), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
    throw Error(errc::internal, std::string("falha ao carregar a agenda de demonstração: ") + PQerrorMessage(conn));
  return std::stoll(PQgetvalue(res.get(), 0, 0));
}

}  // namespace cadastre::store
