#include "platform/rasters/store.hpp"

#include <soci/soci.h>

#include <cstdio>

#include "cadastre/error.hpp"
#include "platform/guard/accounts.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::rasters {
namespace {

std::string number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

std::string id_text(std::int64_t id) { return std::to_string(id); }

}  // namespace

std::int64_t insert_layer(soci::session& s, std::int64_t projeto, const std::string& nome, std::int64_t user,
                          const std::optional<std::array<double, 4>>& bbox) {
  store::Sql q("insert into projeto.camadas (projeto_id, nome, tipo, extensao, ordem, criado_por) values (" +
               id_text(projeto) + ", ");
  q.bind(nome) << ", 'tiff', ";
  if (bbox && (*bbox)[0] < (*bbox)[2] && (*bbox)[1] < (*bbox)[3])
    q << "st_makeenvelope(" << number((*bbox)[0]) << ", " << number((*bbox)[1]) << ", " << number((*bbox)[2]) << ", "
      << number((*bbox)[3]) << ", 4674)";
  else
    q << "null";
  q << ", (select coalesce(max(ordem) + 1, 0) from projeto.camadas where projeto_id = " << id_text(projeto) << "), "
    << id_text(user) << ") returning id";
  return std::stoll(*store::fetch_value(s, q));
}

void set_file(soci::session& s, std::int64_t layer, const std::string& arquivo) {
  store::Sql q("update projeto.camadas set arquivo = ");
  q.bind(arquivo) << " where id = " << id_text(layer);
  store::execute(s, q);
}

void rename_layer(const service::Caller& scope, std::int64_t layer, const std::string& nome) {
  store::Sql q("update projeto.camadas set nome = ");
  q.bind(nome) << ", atualizado_em = now(), geracao = geracao + 1 where id = " << id_text(layer);
  scope.db->run([&](soci::session& s) {
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "camada " + id_text(layer) + " não encontrada", "id");
  });
}

void issue(const service::Caller& scope, const std::string& chave, std::int64_t projeto, const std::string& nome,
           std::int64_t expira) {
  store::Sql q("insert into projeto.tiff_credenciais (chave, projeto_id, nome_camada, usuario_id, usuario_admin, "
               "expira_em) values (");
  q.bind(chave) << ", " << id_text(projeto) << ", ";
  q.bind(nome) << ", " << id_text(scope.user.user_id) << ", "
               << (guard::reach(scope) >= guard::Reach::tenant ? "true" : "false") << ", to_timestamp("
               << id_text(expira) << "))";
  // Spent and expired links are of no use to anyone: each new one sweeps the old ones.
  store::Sql sweep("delete from projeto.tiff_credenciais where expira_em < now() - interval '1 day'");
  scope.db->run([&](soci::session& s) {
    soci::transaction tx(s);
    store::execute(s, sweep);
    store::execute(s, q);
    tx.commit();
  });
}

std::optional<Credential> consume(store::Pool& db, const std::string& chave) {
  store::Sql q("update projeto.tiff_credenciais set usada_em = now() where chave = ");
  q.bind(chave) << " and usada_em is null and expira_em > now() "
                   "returning projeto_id::text, usuario_id::text, nome_camada, usuario_admin::text";
  auto rows = db.with([&](soci::session& s) { return store::fetch(s, q); });
  if (rows.empty()) return std::nullopt;
  return Credential{std::stoll(*rows[0][0]), std::stoll(*rows[0][1]), *rows[0][2], *rows[0][3] == "true"};
}

Received receive_part(store::Pool& db, const std::string& chave, std::int64_t parte, std::int64_t size,
                      std::int64_t max_total, const std::function<void(std::int64_t offset)>& write) {
  store::Sql lock("select partes::text, recebidos::text, antes_da_ultima::text from projeto.tiff_credenciais where chave = ");
  lock.bind(chave) << " and usada_em is null and expira_em > now() for update";
  return db.with([&](soci::session& s) {
    soci::transaction tx(s);
    auto rows = store::fetch(s, lock);
    if (rows.empty()) throw Error(errc::forbidden, "link assinado já usado ou expirado");
    const std::int64_t partes = std::stoll(*rows[0][0]), recebidos = std::stoll(*rows[0][1]),
                       antes = std::stoll(*rows[0][2]);
    std::int64_t offset = 0;
    if (parte == partes + 1) offset = recebidos;
    else if (parte == partes) offset = antes;  // the last part again: it replaces what came
    else
      throw Error(errc::invalid_transition,
                  "parte fora de ordem: chegaram " + id_text(partes) + " partes; a próxima é a " + id_text(partes + 1),
                  "parte");
    if (offset + size > max_total)
      throw Error(errc::payload_too_large, "o GeoTIFF passaria de " + id_text(max_total) + " bytes", "parte");
    write(offset);
    store::Sql q("update projeto.tiff_credenciais set partes = ");
    q << id_text(parte) << ", antes_da_ultima = " << id_text(offset) << ", recebidos = " << id_text(offset + size)
      << " where chave = ";
    q.bind(chave);
    store::execute(s, q);
    tx.commit();
    return Received{parte, offset + size};
  });
}

}  // namespace cadastre::platform::rasters
