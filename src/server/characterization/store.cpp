#include "server/characterization/store.hpp"

#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "store/distance.hpp"
#include "store/features.hpp"

namespace cadastre::server::characterization {
namespace {

using query::quote_identifier;

constexpr const char* kMediaColumns =
    "'id', a.id, 'chave', a.chave, 'nome', a.nome, 'extensao', a.extensao, 'content_type', "
    "a.content_type, "
    "'tamanho', a.tamanho, 'sha256', a.sha256, 'descricao', a.descricao, 'lote_id', a.lote_id, "
    "'imobiliario_id', a.imobiliario_id, 'criado_em', a.criado_em";

// Explicit columns: atendimento.vistoria also holds token_hash, which must never leave.
constexpr const char* kVisitColumns =
    "json_build_object('id', r.id, 'inicio', r.inicio, 'fim', r.fim, 'status', r.status, "
    "'vistoriador', "
    "r.vistoriador, 'lote_id', r.lote_id, 'imobiliario_id', r.imobiliario_id, 'protocolo', "
    "r.protocolo, "
    "'solicitante_nome', r.solicitante_nome, 'observacao', r.observacao, 'criado_em', r.criado_em, "
    "'vistoria', "
    "case when v.agendamento_id is null then null else json_build_object('status', v.status, "
    "'checklist', "
    "v.checklist, 'constatacoes', v.constatacoes, 'fotos', v.fotos, 'criado_em', v.criado_em) end)";

}  // namespace

// ---------------------------------------------------------------- nearest-features

std::optional<std::string> nearest_features(soci::session& s, const store::Layer& reference,
                                            const std::string& id, const store::Layer& interest,
                                            std::int64_t limit) {
  const store::Column& pk = *reference.column(reference.primary_key);
  const int srid = interest.column(interest.geometry_column)->srid;
  const bool same_layer = reference.schema == interest.schema && reference.name == interest.name;
  store::Sql sql("with f as materialized (select ST_Transform(r.");
  sql << quote_identifier(reference.geometry_column) << ", "
      << std::to_string(srid > 0 ? srid : 4674) << ") as g, r." << quote_identifier(pk.name)
      << " as rid from " << reference.qualified() << " r where r." << quote_identifier(pk.name)
      << " = ";
  sql.bind(id, pk.type) << ") select (select count(*) from f)::text, (select coalesce(json_agg("
                        << store::feature_expression(interest, "n")
                        << " order by n.ordem), '[]') from "
                        << store::nearest_rows(interest, "(select g from f)", limit,
                                               same_layer
                                                   ? "t." + quote_identifier(interest.primary_key) +
                                                         " <> (select rid from f)"
                                                   : std::string())
                        << " n)::text";
  auto row = store::fetch(s, sql).at(0);
  if (row[0].value_or("0") == "0") return std::nullopt;
  return row[1].value_or("[]");
}

// ---------------------------------------------------------------- lot package

std::optional<std::string> fetch_lot_package(soci::session& s, const LotPackageQuery& q) {
  const store::Layer& lote = *q.lote;
  const store::Column& pk = *lote.column(lote.primary_key);
  store::Sql sql("with l as materialized (select * from ");
  sql << lote.qualified() << " t where t." << quote_identifier(pk.name) << " = ";
  sql.bind(q.id, pk.type) << "), u as materialized (select * from cadastro.imobiliario where "
                             "lote_id = (select id from l)) "
                          << "select json_build_object('lote', (select "
                          << store::feature_expression(lote, "l") << " from l)";
  if (q.edificacao) {
    const store::Layer& e = *q.edificacao;
    sql << ", 'edificacoes', (select coalesce(json_agg(" << store::feature_expression(e, "e")
        << " order by e.id), '[]') from " << e.qualified()
        << " e where e.lote_id = (select id from l))";
  }
  if (q.imobiliario) {
    std::string unit = q.units_as_features
                           ? "(" + store::feature_expression(*q.imobiliario, "u") + ")::jsonb"
                           : std::string("to_jsonb(u)");
    if (q.people) unit += " || jsonb_build_object('pessoas', " + store::unit_people("u.id") + ")";
    sql << ", 'unidades', (select coalesce(json_agg(" << unit << " order by u.id), '[]') from u)";
  }
  if (q.media) {
    // The link is the route that serves the file.
    sql << ", 'midia', (select coalesce(json_agg(json_build_object(" << kMediaColumns
        << (q.media_links ? ", 'link', '/midia/get?file_url=' || a.chave" : "")
        << ") order by a.id), '[]') from midia.arquivo a "
        << "where a.lote_id = (select id from l) or a.imobiliario_id in (select id from u))";
  }
  if (q.visits) {
    sql << ", 'vistorias', (select coalesce(json_agg(" << kVisitColumns
        << " order by r.inicio, r.id), '[]') from "
        << "agendamento.reserva r left join atendimento.vistoria v on v.agendamento_id = r.id "
        << "where r.lote_id = (select id from l) or r.imobiliario_id in (select id from u))";
  }
  JsonWriter names;
  names.begin_array();
  for (const auto& d : q.denied) names.value(d);
  names.end_array();
  sql << ", 'sem_permissao', ";
  sql.bind(names.str(), "json");
  // The read time: the base version the field app sends back with its offline edits.
  if (q.generated_at) sql << ", 'gerado_em', now()";
  sql << ")::text from l";
  return store::fetch_value(s, sql);
}

// ---------------------------------------------------------------- lookups/batch

namespace {

void append_lookup(store::Sql& sql, const Lookup& q) {
  const std::string v = "t." + quote_identifier(q.valor->name),
                    r = "t." + quote_identifier(q.rotulo->name);
  sql << "(select coalesce(json_agg(json_build_object('valor', x.v, 'rotulo', x.r) order by x.r, "
         "x.v), '[]') from "
      << "(select " << v << " as v, " << r << " as r from " << q.table->qualified() << " t";
  const char* glue = " where ";
  for (const LookupFilter& f : q.filters) {
    sql << glue << "t." << quote_identifier(f.column->name);
    if (f.value) {
      sql << " = ";
      sql.bind(f.value, f.column->type);
    } else {
      sql << " is null";
    }
    glue = " and ";
  }
  sql << " order by " << r << ", " << v << " limit " << std::to_string(q.limit) << ") x)";
}

}  // namespace

std::string run_lookups(soci::session& s, const std::vector<Lookup>& lookups) {
  store::Sql sql("select json_build_object('resultados', json_build_array(");
  for (std::size_t k = 0; k < lookups.size(); ++k) {
    if (k) sql << ", ";
    append_lookup(sql, lookups[k]);
  }
  sql << "))::text";
  return store::fetch_value(s, sql).value_or("{\"resultados\":[]}");
}

}  // namespace cadastre::server::characterization
