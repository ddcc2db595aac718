#include "platform/layer_users/store.hpp"

#include <soci/soci.h>

#include <map>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::layer_users {
namespace {

std::string id_text(std::int64_t id) { return std::to_string(id); }

const std::string kRightJson =
    "jsonb_build_object('id', cu.id, 'idCamada', cu.camada_id, 'idUsuario', cu.usuario_id, 'direito', cu.direito, "
    "'concedidoPor', cu.concedido_por, 'concedidoEm', cu.concedido_em)";

// Adds "usuario": {"nome","email"} to each right, from the platform database (one query
// for the whole list, bounded to the caller's tenant).
std::string with_users(const service::Caller& s, store::Pool& platform, const std::vector<store::Row>& rows,
                       bool as_list) {
  std::string ids = "{";
  for (std::size_t i = 0; i < rows.size(); ++i) ids += (i ? "," : "") + *rows[i][1];
  ids += "}";
  std::map<std::string, std::pair<std::string, std::string>> users;
  if (!rows.empty()) {
    store::Sql q("select id::text, nome, email from plataforma.usuarios where tenant_id = ");
    q.bind(id_text(s.tenant.id), "bigint"), q << " and id = any(", q.bind(ids, "bigint[]"), q << ")";
    for (const store::Row& r : platform.with([&](soci::session& db) { return store::fetch(db, q); }))
      users[*r[0]] = {*r[1], *r[2]};
  }
  std::string out = as_list ? "[" : "";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string& right = *rows[i][0];
    auto u = users.find(*rows[i][1]);
    JsonWriter w;
    if (u == users.end()) {
      w.null();
    } else {
      w.begin_object().key("nome").value(u->second.first).key("email").value(u->second.second).end_object();
    }
    // The right's object, closed, with one more key.
    out += (i ? "," : "") + right.substr(0, right.size() - 1) + ", \"usuario\": " + w.str() + "}";
  }
  return as_list ? out + "]" : out;
}

}  // namespace

std::string list(const service::Caller& s, store::Pool& platform, std::optional<std::int64_t> layer) {
  store::Sql q("select " + kRightJson + "::text, cu.usuario_id::text from projeto.camada_usuarios cu "
               "join projeto.camadas c on c.id = cu.camada_id where " +
               guard::layer_role_sql(s, "c.id") + " = 'admin'");
  if (layer) q << " and c.id = ", q.bind(id_text(*layer), "bigint");
  q << " order by c.id, cu.usuario_id";
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  return with_users(s, platform, rows, true);
}

std::string one(const service::Caller& s, store::Pool& platform, std::int64_t id) {
  store::Sql q("select " + kRightJson + "::text, cu.usuario_id::text from projeto.camada_usuarios cu where cu.id = ");
  q.bind(id_text(id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) throw Error(errc::not_found, "direito " + id_text(id) + " não encontrado", "id");
  return with_users(s, platform, rows, false);
}

void require_tenant_user(const service::Caller& s, store::Pool& platform, std::int64_t user_id) {
  store::Sql q("select 1 from plataforma.usuarios where ativo and id = ");
  q.bind(id_text(user_id), "bigint"), q << " and tenant_id = ", q.bind(id_text(s.tenant.id), "bigint");
  if (!platform.with([&](soci::session& db) { return store::fetch_value(db, q); }))
    throw Error(errc::invalid_argument, "idUsuario: " + id_text(user_id) + " não é um usuário ativo do município",
                "idUsuario");
}

std::int64_t create(const service::Caller& s, std::int64_t layer_id, std::int64_t user_id, const std::string& direito) {
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    store::Sql taken("select id::text from projeto.camada_usuarios where camada_id = ");
    taken.bind(id_text(layer_id), "bigint"), taken << " and usuario_id = ", taken.bind(id_text(user_id), "bigint");
    if (auto id = store::fetch_value(db, taken))
      throw Error(errc::conflict,
                  "o usuário " + id_text(user_id) + " já tem direito na camada " + id_text(layer_id) + " (direito " +
                      *id + "): altere-o",
                  "idUsuario");
    store::Sql q("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (");
    q.bind(id_text(layer_id), "bigint"), q << ", ", q.bind(id_text(user_id), "bigint"), q << ", ";
    q.bind(direito), q << ", ", q.bind(id_text(s.user.user_id), "bigint"), q << ") returning id";
    std::int64_t id = std::stoll(*store::fetch_value(db, q));
    tx.commit();
    return id;
  });
}

void update(const service::Caller& s, std::int64_t id, const std::string& direito) {
  store::Sql q("update projeto.camada_usuarios set direito = ");
  q.bind(direito), q << ", concedido_por = ", q.bind(id_text(s.user.user_id), "bigint");
  q << ", concedido_em = now() where id = ", q.bind(id_text(id), "bigint");
  if (s.db->with([&](soci::session& db) { return store::execute(db, q); }) == 0)
    throw Error(errc::not_found, "direito " + id_text(id) + " não encontrado", "id");
}

void remove(const service::Caller& s, std::int64_t id) {
  store::Sql q("delete from projeto.camada_usuarios where id = ");
  q.bind(id_text(id), "bigint");
  if (s.db->with([&](soci::session& db) { return store::execute(db, q); }) == 0)
    throw Error(errc::not_found, "direito " + id_text(id) + " não encontrado", "id");
}

}  // namespace cadastre::platform::layer_users
