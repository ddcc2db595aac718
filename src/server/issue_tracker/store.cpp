#include "server/issue_tracker/store.hpp"

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "store/sql.hpp"

namespace cadastre::server::tracker {

void check_references(soci::session& s, const IssueInput& in, const service::LayerRef& layer) {
  if (in.lote_id) {
    store::Sql q("select 1 from cadastro.lote where id = ");
    q.bind(std::to_string(*in.lote_id), "bigint");
    if (!store::fetch_value(s, q))
      throw Error(errc::not_found, "lote " + std::to_string(*in.lote_id) + " não encontrado",
                  "lote_id");
  }
  if (layer.layer) {
    std::string id = service::record_id(*layer, *in.registro_id);
    store::Sql q("select 1 from " + layer->qualified() + " where " +
                 query::quote_identifier(layer->primary_key) + " = ");
    q.bind(id, layer->require_column(layer->primary_key).type);
    if (!store::fetch_value(s, q))
      throw Error(errc::not_found,
                  "registro " + id + " da camada " + *in.camada + " não encontrado", "registro_id");
  }
  if (!in.anexos.empty()) {
    std::string list;
    for (auto a : in.anexos) list += (list.empty() ? "" : ",") + std::to_string(a);
    store::Sql q("select string_agg(x::text, ', ' order by x) from unnest(");
    q.bind("{" + list + "}", "bigint[]")
        << ") x where not exists (select 1 from midia.arquivo a where a.id = x)";
    if (auto missing = store::fetch_value(s, q))
      throw Error(errc::not_found, "anexos não encontrados: " + *missing, "anexos");
  }
}

std::int64_t insert_issue(soci::session& s, const IssueInput& in, const std::string& payload,
                          const std::string& tenant_slug, const std::string& created_by) {
  store::Sql q(
      "insert into atendimento.issue_externo (referencia, titulo, descricao, dados, criado_por) "
      "values (");
  q.bind("cadastre-" + tenant_slug + "-") << " || gen_random_uuid()::text, ";
  q.bind(in.titulo) << ", ";
  q.bind(in.descricao) << ", ";
  q.bind(payload, "jsonb") << ", ";
  q.bind(created_by) << ") returning id::text";
  return std::stoll(store::fetch_value(s, q).value());
}

std::vector<std::int64_t> pending_before(soci::session& s, std::int64_t before, int limit) {
  store::Sql q(
      "select id::text from atendimento.issue_externo where status = 'pendente' and id < ");
  q.bind(std::to_string(before), "bigint") << " order by id limit " << std::to_string(limit);
  std::vector<std::int64_t> out;
  for (const auto& row : store::fetch(s, q)) out.push_back(std::stoll(row.at(0).value()));
  return out;
}

std::optional<StoredIssue> lock_issue(soci::session& s, std::int64_t id, bool wait_for_lock) {
  store::Sql lock(
      "select status, referencia, (dados || jsonb_build_object('referencia', referencia))::text, "
      "coalesce(id_externo, ''), coalesce(link_externo, ''), coalesce(ultimo_erro, '') "
      "from atendimento.issue_externo where id = ");
  lock.bind(std::to_string(id), "bigint") << (wait_for_lock ? " for update" : " for update skip locked");
  auto rows = store::fetch(s, lock);
  if (rows.empty()) return std::nullopt;
  const auto& row = rows.front();
  return StoredIssue{row[0].value_or(""), row[1].value_or(""), row[2].value_or("{}"),
                     row[3].value_or(""), row[4].value_or(""), row[5].value_or("")};
}

void record_attempt(soci::session& s, std::int64_t id, const std::string& status, const std::string& id_externo,
                    const std::string& link, const std::string& erro) {
  store::Sql update("update atendimento.issue_externo set tentativas = tentativas + 1, status = ");
  update.bind(status);
  if (status == "enviado") {
    update << ", id_externo = ";
    update.bind(id_externo) << ", link_externo = ";
    update.bind(link.empty() ? store::Value() : store::Value(link)) << ", enviado_em = now(), ultimo_erro = null";
  } else {
    update << ", ultimo_erro = ";
    update.bind(erro);
  }
  update << " where id = ";
  update.bind(std::to_string(id), "bigint");
  store::execute(s, update);
}

}  // namespace cadastre::server::tracker
