#include "demo/provas.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

// Replaces the demo rows in one statement (a data-modifying WITH always runs): two proofs
// per unit for the first five units. The files are notional, so the SHA-256 is that of
// the file's address: stable, and in the stored form (64 lowercase hex).
constexpr const char* kProofs = R"(
with antigas as (delete from provas.prova_digital where starts_with(arquivo_url, $1)),
unidades as (select numero_cadastro, row_number() over (order by id) as n
                  from cadastro.imobiliario order by id limit 5),
tipos(k, tipo, descricao, extensao) as (values
  (1, 'foto_fachada', 'Fotografia da fachada tirada na vistoria de campo', 'jpg'),
  (2, 'relatorio_vistoria', 'Relatório da vistoria com medições da área construída', 'pdf')),
provas as (
  select u.numero_cadastro, t.tipo, t.descricao,
         $1 || u.numero_cadastro || '/' || t.tipo || '.' || t.extensao as arquivo_url,
         date '2026-01-05' + (u.n * 2 + t.k)::int as data
  from unidades u cross join tipos t)
insert into provas.prova_digital (numero_cadastro, tipo, descricao, arquivo_url, sha256, data)
select numero_cadastro, tipo, descricao, arquivo_url, encode(sha256(convert_to(arquivo_url, 'UTF8')), 'hex'), data
from provas order by numero_cadastro, tipo
returning id)";

}  // namespace

std::int64_t load_demo_provas(PGconn* conn) {
  const char* params[] = {kDemoProvasUrl};
  std::unique_ptr<PGresult, decltype(&PQclear)> res(
      PQexecParams(conn, kProofs, 1, nullptr, params, nullptr, nullptr, 0), &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK)
    throw Error(errc::internal, std::string("falha ao carregar as provas digitais de demonstração: ") +
                                    PQerrorMessage(conn));
  return PQntuples(res.get());
}

}  // namespace cadastre::store
