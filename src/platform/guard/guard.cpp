#include "platform/guard/guard.hpp"

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "platform/body_fields.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/guard/memory.hpp"
#include "platform/guard/store.hpp"

namespace cadastre::platform::guard {

int rank(std::string_view role) noexcept {
  if (role.empty()) return 0;
  if (role == "leitura") return 1;
  if (role == "edicao") return 2;
  if (role == "admin" || role == "gestao") return 3;
  return -1;
}

bool allows(const Standing& st, std::string_view role) noexcept {
  if (st.held.empty() || rank(st.held) < rank(role)) return false;
  if (role == "edicao" || role == "admin")
    return st.project_active && !st.superseded && st.layer_active && st.form_active;
  return true;
}

namespace {

// The grant of `role` on the record `id` found at `at` (nullopt: none), or the request's
// error.
service::Grant grant_of(const std::optional<Located>& at, std::string_view record, std::int64_t id,
                        std::string_view role, std::string_view field) {
  if (rank(role) <= 0) throw std::logic_error("papel mal declarado na permissão: " + std::string(role));
  // Another tenant's ids live in another database: they are simply unknown here. And a
  // record the caller holds nothing on is not shown, as if it did not exist.
  if (!at || at->standing.held.empty())
    throw Error(errc::not_found, "não encontrado: " + (at ? at->noun : std::string(record)) + " " + std::to_string(id),
                std::string(field));
  const Standing& st = at->standing;
  if (!allows(st, role)) {
    std::string what = at->noun + " " + std::to_string(id);
    if (rank(st.held) < rank(role))
      throw Error(errc::forbidden, "o seu papel em " + what + " é " + st.held + "; esta ação pede " +
                                       (role == "gestao" ? std::string("admin") : std::string(role)));
    // The role suffices: a state refuses the edit.
    std::string project = std::to_string(at->project_id);
    if (!st.project_active)
      throw Error(errc::invalid_transition, "o projeto " + project + " está inativo: ative-o antes de editar");
    if (st.superseded)
      throw Error(errc::invalid_transition, "o projeto " + project + " é uma versão anterior, somente leitura");
    if (!st.layer_active)
      throw Error(errc::invalid_transition,
                  "a camada " + std::to_string(at->layer_id) + " está inativa: ative-a antes de editar");
    throw Error(errc::invalid_transition, "o formulário está inativo: ative-o antes de editar");
  }
  service::Grant g;
  g.record = std::string(record);
  g.id = id;
  g.project_id = at->project_id;
  g.layer_id = at->layer_id;
  g.role = st.held;
  return g;
}

// Where the record stands for a route's permission: kept by `memory` for a read, else
// asked of the database (and kept, for a read, when the caller holds a role there: a
// share granted elsewhere is seen at once).
std::optional<Located> located(Memory* memory, const service::Scope& s, const http::Request& req,
                               const http::Access& a, std::int64_t id) {
  const std::string& record = a.record;
  if (!memory || may_write(req, a)) return locate(s, record, id);
  const Memory::Key key{s.tenant.id, record, id, s.user.user_id, s.user.admin || s.user.platform_admin};
  if (auto kept = memory->find(key)) return kept;
  const std::uint64_t ticket = memory->ticket(key.tenant);
  std::optional<Located> at = locate(s, record, id);
  if (at && !at->standing.held.empty()) memory->keep(key, ticket, *at);  // a refusal is never kept
  return at;
}

}  // namespace

service::Grant require(const service::Scope& s, std::string_view record, std::int64_t id, std::string_view role,
                       std::string_view field) {
  return grant_of(locate(s, record, id), record, id, role, field);
}

namespace {

// The id member `name` of the request's JSON body (a route whose record is named by its
// body): 400 for a body that is not a JSON object or a member that is not an id.
std::int64_t body_id(const http::Request& req, const std::string& name) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  return body::required_id(o, name);
}

}  // namespace

service::Grant resolve(store::Pool& platform, Memory* memory, const service::Scope& s, const http::Access& a,
                       const http::Request& req) {
  const std::string& role = !a.raise_flag.empty() && req.query_value(a.raise_flag) == "true" ? a.raised_role : a.role;
  std::string name = a.param;
  std::string text;
  if (name.rfind("corpo.", 0) == 0) {
    name = name.substr(6);
    std::int64_t id = body_id(req, name);
    return is_account_record(a.record) ? require_account(platform, s, a.record, id, role, name)
                                       : grant_of(located(memory, s, req, a, id), a.record, id, role, name);
  }
  if (name.size() > 2 && name.front() == '{') {
    name = name.substr(1, name.size() - 2);
    text = req.param(name);
  } else {
    auto v = req.query_value(name);
    if (!v) throw Error(errc::missing_field, name + " é obrigatório", name);
    text = *v;
  }
  std::int64_t id = query::parse_integer(text, name, 1, INT64_MAX);
  return is_account_record(a.record) ? require_account(platform, s, a.record, id, role, name)
                                     : grant_of(located(memory, s, req, a, id), a.record, id, role, name);
}

}  // namespace cadastre::platform::guard
