#include "platform/licenses/store.hpp"

#include <filesystem>
#include <map>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "store/crypto.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::licenses {
namespace {

// The status a license reads: the stored one, 'expirada' once an active or trial one ended.
const std::string kStatus =
    "case when l.status in ('ativa', 'teste') and l.fim < current_date then 'expirada' else l.status end";
const std::string kLicenseJson =
    "json_build_object('id', l.id, 'idTenant', l.tenant_id, 'plano', l.plano, 'status', l.status, "
    "'statusEfetivo', " + kStatus + ", 'inicio', l.inicio, 'fim', l.fim, 'maxUsuarios', l.max_usuarios, "
    "'maxArmazenamentoMb', l.max_armazenamento_mb, 'observacao', l.observacao, 'criadaEm', l.criada_em, "
    "'atualizadaEm', l.atualizada_em)";

std::string license_json(soci::session& s, std::int64_t id) {
  std::string out;
  long long lid = id;
  s << "select " + kLicenseJson + "::text from plataforma.licencas l where l.id = :id", soci::use(lid),
      soci::into(out);
  if (!s.got_data()) throw Error(errc::not_found, "licença não encontrada", "id");
  return out;
}

void bind_optional(store::Sql& q, const std::optional<std::string>& v, std::string_view cast = {}) {
  if (v) q.bind(*v, cast);
  else q << "null";
}
void bind_integer(store::Sql& q, std::int64_t v) { q.bind(std::to_string(v), "bigint"); }

// The license's dates must keep fim >= inicio (the table's check); a request that sends
// only one of them is checked against the other as stored, in the statement itself.
[[noreturn]] void fim_before_inicio() {
  throw Error(errc::invalid_argument, "fim deve ser igual ou posterior a inicio", "fim");
}

bool exists(soci::session& s, const char* table, std::int64_t id) {
  int n = 0;
  long long key = id;
  s << std::string("select count(*) from plataforma.") + table + " where id = :id", soci::use(key),
      soci::into(n);
  return n > 0;
}

}  // namespace

std::string current_status(soci::session& s, std::int64_t tenant_id) {
  std::string status;
  long long tid = tenant_id;
  s << "select " + kStatus + " from plataforma.licencas l where l.tenant_id = :t order by l.id desc limit 1",
      soci::use(tid), soci::into(status);
  return s.got_data() ? status : "sem_licenca";
}

std::string create(store::Pool& pool, std::int64_t tenant_id, const LicenseFields& f) {
  return pool.with([&](soci::session& s) {
    store::Sql q(
        "insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, "
        "max_armazenamento_mb, observacao) select t.id, ");
    q.bind(*f.plano) << ", ";
    q.bind(f.status.value_or("ativa")) << ", coalesce(";
    bind_optional(q, f.inicio, "date");
    q << ", current_date), ";
    q.bind(*f.fim, "date") << ", ";
    bind_integer(q, *f.max_usuarios);
    q << ", ";
    bind_integer(q, *f.max_armazenamento_mb);
    q << ", ";
    bind_optional(q, f.observacao);
    q << " from plataforma.tenants t where t.id = ";
    bind_integer(q, tenant_id);
    q << " and ";
    q.bind(*f.fim, "date") << " >= coalesce(";
    bind_optional(q, f.inicio, "date");
    q << ", current_date) returning id";
    auto rows = store::fetch(s, q);
    if (rows.empty()) {
      if (exists(s, "tenants", tenant_id)) fim_before_inicio();
      throw Error(errc::not_found, "município não encontrado", "idTenant");
    }
    return license_json(s, std::stoll(rows.front().front().value_or("0")));
  });
}

std::string update(store::Pool& pool, std::int64_t id, const LicenseFields& f) {
  return pool.with([&](soci::session& s) {
    store::Sql q("update plataforma.licencas set atualizada_em = now()");
    auto set = [&](const char* column, const std::optional<std::string>& v,
                   std::string_view cast = {}) {
      if (v) q << ", " << column << " = ", q.bind(*v, cast);
    };
    // The new value of a date, or the stored one.
    auto date = [&](const char* column, const std::optional<std::string>& v) {
      if (v)
        q.bind(*v, "date");
      else
        q << column;
    };
    set("plano", f.plano);
    set("status", f.status);
    set("inicio", f.inicio, "date");
    set("fim", f.fim, "date");
    set("observacao", f.observacao);
    if (f.max_usuarios) q << ", max_usuarios = ", bind_integer(q, *f.max_usuarios);
    if (f.max_armazenamento_mb)
      q << ", max_armazenamento_mb = ", bind_integer(q, *f.max_armazenamento_mb);
    q << " where id = ";
    bind_integer(q, id);
    q << " and ";
    date("fim", f.fim);
    q << " >= ";
    date("inicio", f.inicio);
    if (store::execute(s, q) == 0) {
      if (exists(s, "licencas", id)) fim_before_inicio();
      throw Error(errc::not_found, "licença não encontrada", "id");
    }
    return license_json(s, id);
  });
}

std::int64_t storage_in_use(const TenantStorage& tenant) {
  std::vector<std::string> layer_files;
  long long bytes = 0;
  tenant.db.run([&](soci::session& s) {
    // The layers' data (the geometries and every layer's table of values) counts with its
    // indexes, as PostgreSQL stores it; a table never written (an empty heap) counts
    // nothing, not the empty pages of its indexes.
    s << "select (select coalesce(sum(tamanho), 0) from midia.arquivo) + "
         "(select coalesce(sum(tamanho), 0) from projeto.arquivos) + "
         "(select coalesce(sum(case when pg_relation_size(t) = 0 then 0 else pg_total_relation_size(t) end), 0) "
         " from (select 'projeto.geometrias'::regclass as t union all select c.oid::regclass from pg_class c "
         " where c.relnamespace = 'camadas'::regnamespace and c.relkind = 'r') r)",
        soci::into(bytes);
    for (const store::Row& r : store::fetch(s, store::Sql("select arquivo from projeto.camadas where arquivo is not null")))
      layer_files.push_back(*r[0]);
  });
  if (!tenant.files.enabled()) return bytes;
  for (const std::string& relative : layer_files) {
    // A record whose path is broken (resolve's 409) or whose file is gone takes no space;
    // the layer's own routes report it.
    try {
      std::error_code ec;
      const auto size = std::filesystem::file_size(tenant.files.resolve(tenant.slug, relative), ec);
      if (!ec) bytes += static_cast<long long>(size);
    } catch (const Error&) {
    }
  }
  return bytes;
}

StorageReservation::~StorageReservation() {
  if (id_ == 0) return;
  try {
    platform_->run([&](soci::session& s) {
      long long id = id_;
      s << "delete from plataforma.reservas_armazenamento where id = :id", soci::use(id);
    });
  } catch (const std::exception&) {  // unreachable database: the row expires on its own
  }
}

namespace {

// Under the tenant's turn (until the caller's transaction ends: what is stored plus what is
// reserved is read, and a new reservation written, by one writer at a time), whether
// `bytes` more fit the tenant's license: throws 403 when they do not; false when the tenant
// has no license (nothing to hold to).
bool fits(soci::session& s, const TenantStorage& tenant, std::int64_t tenant_id, std::int64_t bytes) {
  long long tid = tenant_id;
  s << "select pg_advisory_xact_lock(hashtextextended('plataforma.reservas_armazenamento', :t))", soci::use(tid);
  std::string status, fim;
  long long limit_mb = 0, held = 0;
  s << "select " + kStatus + ", l.fim::text, l.max_armazenamento_mb from plataforma.licencas l "
       "where l.tenant_id = :t order by l.id desc limit 1",
      soci::use(tid), soci::into(status), soci::into(fim), soci::into(limit_mb);
  if (!s.got_data()) return false;
  if (status == "expirada")
    throw Error(errc::license_inactive, "a licença do município terminou em " + fim + ": envio de arquivos recusado",
                "licenca");
  if (status == "suspensa" || status == "cancelada")
    throw Error(errc::license_inactive, "a licença do município está " + status + ": envio de arquivos recusado",
                "licenca");
  s << "select coalesce(sum(bytes), 0) from plataforma.reservas_armazenamento where tenant_id = :t and expira > now()",
      soci::use(tid), soci::into(held);
  // Measured under the turn on purpose: a write that commits meanwhile moves its bytes from
  // reserved to stored, and both must be seen in one step.
  if (storage_in_use(tenant) + held + bytes > limit_mb * 1024 * 1024)
    throw Error(errc::quota_exceeded,
                "cota de armazenamento da licença atingida (" + std::to_string(limit_mb) +
                    " MB): contrate mais armazenamento",
                "licenca");
  return true;
}

}  // namespace

StorageReservation reserve_storage(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id,
                                   std::int64_t bytes) {
  std::int64_t reserved = 0;
  platform.run([&](soci::session& s) {
    soci::transaction tx(s);
    if (!fits(s, tenant, tenant_id, bytes)) return;
    long long tid = tenant_id, amount = bytes, id = 0;
    s << "insert into plataforma.reservas_armazenamento (tenant_id, bytes) values (:t, :b) returning id", soci::use(tid),
        soci::use(amount), soci::into(id);
    tx.commit();
    reserved = id;
  });
  if (reserved == 0) return {};
  return StorageReservation(platform, reserved);
}

void require_storage(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id, std::int64_t bytes) {
  platform.run([&](soci::session& s) {
    soci::transaction tx(s);  // the turn ends with it; nothing is written
    fits(s, tenant, tenant_id, bytes);
  });
}

void confirm_payment(store::Pool& pool, std::int64_t license_id, std::int64_t contract_id, std::int64_t admin_id) {
  pool.run([&](soci::session& s) {
    store::Sql q("update plataforma.contratos set pagamento = 'confirmado', confirmado_em = now(), confirmado_por = ");
    bind_integer(q, admin_id);
    q << " where pagamento = 'pendente' and id = ";
    bind_integer(q, contract_id);
    q << " and licenca_id = ";
    bind_integer(q, license_id);
    if (store::execute(s, q) > 0) return;
    store::Sql known("select 1 from plataforma.contratos where id = ");
    bind_integer(known, contract_id);
    known << " and licenca_id = ";
    bind_integer(known, license_id);
    if (store::fetch(s, known).empty())
      throw Error(errc::not_found, "contrato não encontrado nesta licença", "pagamentoConfirmado");
    throw Error(errc::conflict, "o pagamento deste contrato já foi confirmado", "pagamentoConfirmado");
  });
}

std::string one(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return license_json(s, id); });
}

std::string my_plan(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id) {
  long long used_bytes = storage_in_use(tenant);
  return platform.with([&](soci::session& s) {
    std::string out;
    long long tid = tenant_id;
    s << "with p as (select :t::bigint as tenant, :b::bigint as bytes), "
         "l as (select l.* from plataforma.licencas l, p where l.tenant_id = p.tenant order by l.id desc limit 1) "
         "select json_build_object('licenca', (select " + kLicenseJson + " from l), "
         "'status', coalesce((select " + kStatus + " from l), 'sem_licenca'), "
         "'usuarios', json_build_object('limite', (select max_usuarios from l), "
         "  'emUso', (select count(*) from plataforma.usuarios u, p where u.tenant_id = p.tenant and u.ativo)), "
         "'armazenamento', json_build_object('limiteMb', (select max_armazenamento_mb from l), "
         "  'emUsoBytes', (select bytes from p)))::text",
        soci::use(tid), soci::use(used_bytes), soci::into(out);
    return out;
  });
}

store::PageRows list(store::Pool& pool, const Page& page) {
  static const std::map<std::string, std::string> columns = {
      {"id", "l.id"}, {"tenant", "t.slug"}, {"plano", "l.plano"}, {"status", "l.status"}, {"fim", "l.fim"}};
  store::Sql outer("select (select count(*) from plataforma.licencas)::text, coalesce(json_agg(r), '[]')::text "
                   "from (select ");
  outer << kLicenseJson << "::jsonb || jsonb_build_object('tenant', t.slug, 'nomeTenant', t.nome) as r "
        << "from plataforma.licencas l join plataforma.tenants t on t.id = l.tenant_id order by "
        << columns.at(page.order_by) << (page.descending ? " desc" : " asc") << ", l.id";
  store::append_page(outer, page.paging);
  outer << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, outer); });
}

std::string of_tenant(store::Pool& pool, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    long long tid = tenant_id;
    int exists = 0;
    s << "select count(*) from plataforma.tenants where id = :t", soci::use(tid), soci::into(exists);
    if (!exists) throw Error(errc::not_found, "município não encontrado", "id");
    std::string out;
    s << "select coalesce(json_agg(" + kLicenseJson +
             " order by l.id desc), '[]')::text from plataforma.licencas l where l.tenant_id = :t",
        soci::use(tid), soci::into(out);
    return out;
  });
}

std::string api_tokens(store::Pool& pool, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    long long tid = tenant_id;
    std::string out;
    s << "select coalesce(json_agg(json_build_object('id', id, 'nome', nome, 'escopo', escopo, 'ativo', ativo, "
         "'criadoEm', criado_em, 'ultimoUso', ultimo_uso) order by id), '[]')::text "
         "from plataforma.clientes_api where tenant_id = :t and usuario is null",
        soci::use(tid), soci::into(out);
    return out;
  });
}

std::string rotate_api_token(store::Pool& pool, std::int64_t tenant_id, std::optional<std::int64_t> id,
                             const std::string& nome, const std::string& escopo) {
  std::string token = store::random_token(), hash = store::sha256_hex(token);
  return pool.with([&](soci::session& s) {
    long long tid = tenant_id, cid = id.value_or(0);
    std::string name, scope;
    if (id) {
      s << "update plataforma.clientes_api set segredo_hash = :h, ativo = true where id = :id and tenant_id = :t "
           "and usuario is null returning id, nome, escopo",
          soci::use(hash), soci::use(cid), soci::use(tid), soci::into(cid), soci::into(name), soci::into(scope);
      if (!s.got_data()) throw Error(errc::not_found, "token não encontrado", "id");
    } else {
      s << "insert into plataforma.clientes_api (tenant_id, nome, escopo, segredo_hash) values (:t, :n, :e, :h) "
           "on conflict (tenant_id, escopo, nome) where usuario is null "
           "do update set segredo_hash = excluded.segredo_hash, ativo = true returning id, nome, escopo",
          soci::use(tid), soci::use(nome), soci::use(escopo), soci::use(hash), soci::into(cid), soci::into(name),
          soci::into(scope);
    }
    JsonWriter w;
    w.begin_object().key("id").value(static_cast<std::int64_t>(cid)).key("nome").value(name);
    w.key("escopo").value(scope).key("token").value(token).end_object();
    return std::move(w).str();
  });
}

}  // namespace cadastre::platform::licenses
