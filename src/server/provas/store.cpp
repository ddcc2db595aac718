#include "server/provas/store.hpp"

#include "cadastre/error.hpp"
#include "store/audit.hpp"
#include "store/pool.hpp"

namespace cadastre::server::provas {
namespace {

constexpr const char* kTable = "provas.prova_digital";

// Appends " and t.<col> = <value>" for each field (columns come from the input's fixed
// list, never from the request).
void append_filters(store::Sql& sql, const std::vector<ProvaField>& filters) {
  for (const auto& f : filters) {
    sql << " and t." << f.column << " = ";
    sql.bind(f.value, f.type);
  }
}

// The unit named by a written numero_cadastro must exist in the cadastre.
void check_unit(soci::session& s, const std::vector<ProvaField>& fields) {
  for (const auto& f : fields) {
    if (f.column != "numero_cadastro") continue;
    store::Sql q("select count(*)::text from cadastro.imobiliario where numero_cadastro = ");
    q.bind(f.value);
    if (store::fetch_value(s, q).value_or("0") == "0")
      throw Error(errc::unprocessable,
                  "imóvel não encontrado no cadastro: numero_cadastro " + f.value.value_or(""),
                  "numero_cadastro");
  }
}

}  // namespace

store::PageRows list(soci::session& s, const ListQuery& q) {
  store::Sql sql("select (select count(*) from provas.prova_digital t where true");
  append_filters(sql, q.filters);
  sql << ")::text, (select coalesce(json_agg(to_jsonb(t) order by t.id), '[]') from (select * from "
         "provas.prova_digital t where true";
  append_filters(sql, q.filters);
  sql << " order by t.id";
  store::append_page(sql, q.paging);
  sql << ") t)::text";
  return store::fetch_page(s, sql);
}

store::PageRows by_unit(soci::session& s, const std::string& numero_cadastro) {
  store::Sql sql(
      "select count(*)::text, coalesce(json_agg(to_jsonb(t) order by t.data desc, t.id desc), '[]')::text "
      "from provas.prova_digital t where t.numero_cadastro = ");
  sql.bind(numero_cadastro);
  return store::fetch_page(s, sql);
}

std::string create(soci::session& s, const std::vector<ProvaField>& fields, const store::Principal& auditor) {
  store::Sql sql("insert into provas.prova_digital as t (");
  for (std::size_t i = 0; i < fields.size(); ++i) sql << (i ? ", " : "") << fields[i].column;
  sql << ") values (";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    sql << (i ? ", " : "");
    sql.bind(fields[i].value, fields[i].type);
  }
  sql << ") returning t.id::text, to_jsonb(t)::text";
  std::string answer;
  store::in_transaction(s, [&] {
    check_unit(s, fields);
    auto row = store::fetch(s, sql).at(0);
    store::record_audit(s, kTable, *row[0], store::Operation::insert, auditor, std::nullopt, row[1]);
    answer = *row[1];
  });
  return answer;
}

std::string update(soci::session& s, const std::string& id, const std::vector<ProvaField>& fields,
                   const store::Principal& auditor) {
  store::Sql before("select to_jsonb(t)::text from provas.prova_digital t where t.id = ");
  before.bind(id, "bigint");
  before << " for update";
  store::Sql sql("update provas.prova_digital as t set atualizado_em = now()");
  for (const auto& f : fields) {
    sql << ", " << f.column << " = ";
    sql.bind(f.value, f.type);
  }
  sql << " where t.id = ";
  sql.bind(id, "bigint");
  sql << " returning to_jsonb(t)::text";
  std::string answer;
  store::in_transaction(s, [&] {
    auto old = store::fetch_value(s, before);
    if (!old) throw Error(errc::not_found, "prova digital não encontrada: " + id, "id");
    check_unit(s, fields);
    auto after = store::fetch_value(s, sql);
    store::record_audit(s, kTable, id, store::Operation::update, auditor, old, after);
    answer = *after;
  });
  return answer;
}

std::string remove(soci::session& s, const std::string& id, const store::Principal& auditor) {
  store::Sql sql("delete from provas.prova_digital t where t.id = ");
  sql.bind(id, "bigint");
  sql << " returning to_jsonb(t)::text";
  std::string answer;
  store::in_transaction(s, [&] {
    auto old = store::fetch_value(s, sql);
    if (!old) throw Error(errc::not_found, "prova digital não encontrada: " + id, "id");
    store::record_audit(s, kTable, id, store::Operation::remove, auditor, old, std::nullopt);
    answer = *old;
  });
  return answer;
}

}  // namespace cadastre::server::provas
