#include "platform/companies/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::companies {
namespace {
constexpr const char* kCompanyJson =
    "json_build_object('id', e.id, 'nome', e.nome, 'cnpj', e.cnpj, 'email', e.email, 'telefone', e.telefone, "
    "'endereco', e.endereco, 'site', e.site, 'idTenant', e.tenant_id, 'criadoEm', e.criado_em)";
}  // namespace

std::string list(store::Pool& pool, std::optional<std::int64_t> tenant_id) {
  store::Sql q(std::string("select coalesce(json_agg(") + kCompanyJson + " order by e.id), '[]')::text "
               "from plataforma.empresas e");
  if (tenant_id) q << " where e.tenant_id = ", q.bind(std::to_string(*tenant_id), "bigint");
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string update(store::Pool& pool, std::optional<std::int64_t> tenant_id, std::int64_t id, const Fields& f) {
  return pool.with([&](soci::session& s) {
    store::Sql q("update plataforma.empresas e set ");
    bool any = false;
    auto set = [&](const char* column, const std::optional<std::string>& v) {
      if (!v) return;
      q << (any ? ", " : "") << column << " = nullif(", q.bind(*v), q << ", '')";
      any = true;
    };
    set("nome", f.nome);
    set("cnpj", f.cnpj);
    set("email", f.email);
    set("telefone", f.telefone);
    set("endereco", f.endereco);
    set("site", f.site);
    // A column may be assigned once per statement; with nothing to change, the row as it is.
    if (!any) q << "nome = e.nome";
    q << " where e.id = ", q.bind(std::to_string(id), "bigint");
    if (tenant_id) q << " and e.tenant_id = ", q.bind(std::to_string(*tenant_id), "bigint");
    q << " returning " << kCompanyJson << "::text";
    auto out = store::fetch_value(s, q);
    if (!out) throw Error(errc::not_found, "empresa não encontrada", "id");
    return *out;
  });
}

}  // namespace cadastre::platform::companies
