#include "server/media/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/audit.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server::media {
namespace {

constexpr const char* kTable = "midia.arquivo";
// The record as the API answers it: every column plus the download link.
constexpr const char* kRecordJson =
    "(to_jsonb(a) || jsonb_build_object('link', '/midia/get?file_url=' || a.chave))::text";

[[noreturn]] void not_found(const std::string& id) {
  throw Error(errc::not_found, "arquivo " + id + " não encontrado", "id");
}

void check_references(soci::session& s, const std::vector<Column>& columns) {
  for (const auto& c : columns)
    if (c.value) store::check_cadastre_reference(s, c.name, *c.value);
}

}  // namespace

std::string create_record(store::Pool& db, const store::Principal& user, const StoredFile& f,
                          const std::vector<Column>& columns) {
  store::Sql sql(
      "insert into midia.arquivo as a (chave, nome, extensao, content_type, tamanho, sha256, "
      "criado_por");
  for (const auto& c : columns) sql << ", " << c.name;
  sql << ") values (";
  for (const std::string& v : {f.key, f.nome, f.extensao, f.content_type}) sql.bind(v) << ", ";
  sql.bind(std::to_string(f.tamanho), "bigint") << ", ";
  sql.bind(f.sha256) << ", ";
  sql.bind(user.email);
  for (const auto& c : columns) (sql << ", ").bind(c.value, c.cast);
  sql << ") returning a.id::text, " << kRecordJson;
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      check_references(s, columns);
      auto row = store::fetch(s, sql).at(0);
      answer = row.at(1).value();
      store::record_audit(s, kTable, row.at(0).value(), store::Operation::insert, user,
                          std::nullopt, answer);
    });
  });
  return answer;
}

std::string read_record(store::Pool& db, const std::string& id) {
  store::Sql sql("select ");
  sql << kRecordJson << " from midia.arquivo a where a.id = ";
  sql.bind(id, "bigint");
  auto row = db.with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!row) not_found(id);
  return std::move(*row);
}

std::string update_record(store::Pool& db, const store::Principal& user, const std::string& id,
                          const std::vector<Column>& changes) {
  store::Sql lock("select ");
  lock << kRecordJson << " from midia.arquivo a where a.id = ";
  lock.bind(id, "bigint") << " for update";
  store::Sql sql("update midia.arquivo a set ");
  for (std::size_t i = 0; i < changes.size(); ++i) {
    sql << (i ? ", " : "") << changes[i].name << " = ";
    sql.bind(changes[i].value, changes[i].cast);
  }
  sql << " where a.id = ";
  sql.bind(id, "bigint") << " returning " << kRecordJson;
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto before = store::fetch_value(s, lock);
      if (!before) not_found(id);
      check_references(s, changes);
      answer = store::fetch_value(s, sql).value();
      store::record_audit(s, kTable, id, store::Operation::update, user, before, answer);
    });
  });
  return answer;
}

Removed delete_record(store::Pool& db, const store::Principal& user, const std::string& id) {
  store::Sql users(
      "select string_agg(agendamento_id::text, ', ' order by agendamento_id) from "
      "atendimento.vistoria where ");
  users.bind(id, "bigint") << " = any(fotos)";
  store::Sql sql("delete from midia.arquivo a where a.id = ");
  sql.bind(id, "bigint") << " returning a.chave, " << kRecordJson;
  Removed out;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto rows = store::fetch(s, sql);
      if (rows.empty()) not_found(id);
      if (auto inspections = store::fetch_value(s, users))
        throw Error(errc::conflict,
                    "o arquivo " + id + " é foto das vistorias " + *inspections +
                        "; retire-o delas antes de excluir",
                    "id");
      out = {rows[0].at(0).value(), rows[0].at(1).value()};
      store::record_audit(s, kTable, id, store::Operation::remove, user, out.record, std::nullopt);
    });
  });
  return out;
}

std::optional<Served> served_file(store::Pool& db, const std::string& key) {
  store::Sql sql("select nome, extensao, content_type from midia.arquivo where chave = ");
  sql.bind(key);
  auto rows = db.with([&](soci::session& s) { return store::fetch(s, sql); });
  if (rows.empty()) return std::nullopt;
  Served out{rows[0].at(0).value(), rows[0].at(2).value()};
  const std::string& ext = rows[0].at(1).value();
  if (out.nome.size() < ext.size() ||
      out.nome.compare(out.nome.size() - ext.size(), ext.size(), ext) != 0)
    out.nome += ext;
  return out;
}

}  // namespace cadastre::server::media
