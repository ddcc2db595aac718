#include "platform/contracting/store.hpp"

#include <simdjson.h>

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::contracting {
namespace {

using store::Sql;

std::string id_text(std::int64_t v) { return std::to_string(v); }
std::int64_t num(const store::Value& v) { return v ? std::stoll(*v) : 0; }

std::map<std::string, std::int64_t> counts(const std::string& json) {
  simdjson::dom::parser parser;
  std::map<std::string, std::int64_t> out;
  for (auto [k, v] : jsonin::as_object(jsonin::parse(parser, json), "adicionais"))
    out[std::string(k)] = std::int64_t(v.get_int64());
  return out;
}

const char* kPlanColumns =
    "select id::text, codigo, nome, periodo, preco_centavos::text, max_usuarios::text, "
    "max_armazenamento_mb::text from plataforma.planos where ativo and ";

std::optional<pricing::Plan> one_plan(store::Pool& pool, Sql q) {
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  if (rows.empty()) return std::nullopt;
  const store::Row& r = rows.front();
  return pricing::Plan{num(r[0]), *r[1], *r[2], *r[3], num(r[4]), num(r[5]), num(r[6])};
}

// The contract and the license it holds now.
std::string contract_json(soci::session& s, const std::string& id) {
  Sql q(
      "select json_build_object('id', c.id, 'idOrcamento', c.orcamento_id, 'tipo', c.tipo, 'totalCentavos', "
      "c.total_centavos, 'pagamento', c.pagamento, 'confirmadoEm', c.confirmado_em, 'criadoEm', c.criado_em, "
      "'licenca', json_build_object('id', l.id, 'plano', l.plano, 'status', l.status, 'inicio', l.inicio, 'fim', "
      "l.fim, 'maxUsuarios', l.max_usuarios, 'maxArmazenamentoMb', l.max_armazenamento_mb, 'adicionais', "
      "l.adicionais))::text from plataforma.contratos c join plataforma.licencas l on l.id = c.licenca_id "
      "where c.id = ");
  q.bind(id, "bigint");
  return store::fetch_value(s, q).value();
}

}  // namespace

pricing::Basis basis(store::Pool& platform, std::int64_t tenant_id) {
  return platform.with([&](soci::session& s) {
    pricing::Basis b;
    b.hoje = store::fetch_value(s, Sql("select current_date::text")).value();
    Sql lic(
        "select l.id::text, to_json(l.atualizada_em) #>> '{}', l.plano, case when l.status in ('ativa', 'teste') "
        "and l.fim < current_date then 'expirada' else l.status end, l.inicio::text, l.fim::text, "
        "l.max_usuarios::text, l.max_armazenamento_mb::text, l.adicionais::text from plataforma.licencas l "
        "where l.tenant_id = ");
    lic.bind(id_text(tenant_id), "bigint") << " order by l.id desc limit 1";
    for (const store::Row& r : store::fetch(s, lic))
      b.licenca =
          pricing::License{num(r[0]), *r[1], *r[2], *r[3], *r[4], *r[5], num(r[6]), num(r[7]), counts(*r[8])};
    for (const store::Row& r : store::fetch(s, Sql("select item, preco_centavos::text from plataforma.precos")))
      (*r[0] == "usuario_mes" ? b.usuario_mes : b.gb_mes) = num(r[1]);
    for (const store::Row& r : store::fetch(
             s, Sql("select codigo, nome, aliquota_bp::text from plataforma.impostos where ativo order by codigo")))
      b.impostos.push_back({*r[0], *r[1], num(r[2])});
    return b;
  });
}

std::optional<pricing::Plan> plan(store::Pool& platform, std::int64_t id) {
  Sql q(kPlanColumns);
  q << "id = ";
  q.bind(id_text(id), "bigint");
  return one_plan(platform, std::move(q));
}

std::optional<pricing::Plan> plan_by_code(store::Pool& platform, const std::string& codigo) {
  Sql q(kPlanColumns);
  q << "codigo = ";
  q.bind(codigo);
  return one_plan(platform, std::move(q));
}

std::map<std::string, pricing::Addon> addons(store::Pool& platform) {
  auto rows = platform.with([](soci::session& s) {
    return store::fetch(s, Sql("select codigo, nome, preco_mes_centavos::text from plataforma.adicionais where ativo"));
  });
  std::map<std::string, pricing::Addon> out;
  for (const store::Row& r : rows) out[*r[0]] = pricing::Addon{*r[0], *r[1], num(r[2])};
  return out;
}

std::string catalog_json(store::Pool& platform) {
  return platform.with([](soci::session& s) {
    return store::fetch_value(
               s, Sql("select json_build_object("
                      "'planos', coalesce((select json_agg(json_build_object('id', id, 'codigo', codigo, 'nome', nome, "
                      "'descricao', descricao, 'periodo', periodo, 'precoCentavos', preco_centavos, 'maxUsuarios', "
                      "max_usuarios, 'maxArmazenamentoMb', max_armazenamento_mb) order by ordem, id) "
                      "from plataforma.planos where ativo), '[]'), "
                      "'precos', (select json_build_object('armazenamentoGbMesCentavos', "
                      "coalesce(max(preco_centavos) filter (where item = 'armazenamento_gb_mes'), 0), "
                      "'usuarioMesCentavos', coalesce(max(preco_centavos) filter (where item = 'usuario_mes'), 0)) "
                      "from plataforma.precos), "
                      "'adicionais', coalesce((select json_agg(json_build_object('codigo', codigo, 'nome', nome, "
                      "'precoMesCentavos', preco_mes_centavos) order by codigo) from plataforma.adicionais "
                      "where ativo), '[]'), "
                      "'impostos', coalesce((select json_agg(json_build_object('codigo', codigo, 'nome', nome, "
                      "'aliquotaBp', aliquota_bp) order by codigo) from plataforma.impostos where ativo), '[]'))::text"))
        .value();
  });
}

std::string save_quote(store::Pool& platform, std::int64_t tenant_id, std::int64_t user_id, const std::string& tipo,
                       const std::string& conteudo, int valid_hours) {
  // The hash is taken over jsonb's own text of the content (keys in jsonb's order), so the
  // database can check it again from the stored row alone.
  Sql q("insert into plataforma.orcamentos (tenant_id, usuario_id, tipo, conteudo, hash, expira_em) select ");
  q.bind(id_text(tenant_id), "bigint") << ", ";
  q.bind(id_text(user_id), "bigint") << ", ";
  q.bind(tipo) << ", c, encode(sha256(convert_to(c::text, 'UTF8')), 'hex'), now() + ";
  q.bind(std::to_string(valid_hours), "integer") << " * interval '1 hour' from (select ";
  q.bind(conteudo, "jsonb")
      << " as c) x returning (conteudo || jsonb_build_object('id', id, 'hash', hash, 'criadoEm', criado_em, "
         "'expiraEm', expira_em))::text";
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q).value(); });
}

Contracted contract(store::Pool& platform, std::int64_t tenant_id, std::int64_t user_id, std::int64_t quote_id,
                    const std::string& hash, const std::string& tipo) {
  return platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    // One contract at a time per tenant: the quote and the license are read after the lock,
    // so a request that waited sees what the one before it committed.
    Sql lock("select 1 from plataforma.tenants where id = ");
    lock.bind(id_text(tenant_id), "bigint") << " for update";
    store::fetch(s, lock);

    Sql read(
        "select o.tipo, o.hash, o.contrato_id::text, (o.expira_em > now())::text, o.expira_em::text, "
        "(encode(sha256(convert_to(o.conteudo::text, 'UTF8')), 'hex') = o.hash)::text, "
        "(case when o.conteudo -> 'licencaBase' = 'null'::jsonb "
        "  then not exists (select 1 from plataforma.licencas l where l.tenant_id = o.tenant_id) "
        "  else coalesce((select l.id = (o.conteudo #>> '{licencaBase,id}')::bigint and l.atualizada_em = "
        "    (o.conteudo #>> '{licencaBase,atualizadaEm}')::timestamptz from plataforma.licencas l "
        "    where l.tenant_id = o.tenant_id order by l.id desc limit 1), false) end)::text "
        "from plataforma.orcamentos o where o.id = ");
    read.bind(id_text(quote_id), "bigint") << " and o.tenant_id = ";
    read.bind(id_text(tenant_id), "bigint") << " for update";
    auto rows = store::fetch(s, read);
    if (rows.empty()) throw Error(errc::not_found, "orçamento não encontrado", "idOrcamento");
    const store::Row& o = rows.front();
    if (o[2]) return Contracted{contract_json(s, *o[2]), false};  // already contracted: the same contract
    if (*o[0] != tipo)
      throw Error(errc::invalid_argument, "o orçamento é de " + *o[0] + ": contrate-o em /contratar/" + *o[0],
                  "idOrcamento");
    if (*o[1] != hash || *o[5] != "true")
      throw Error(errc::conflict, "o orçamento não confere com o hash enviado: prepare outro", "hash");
    if (*o[3] != "true") throw Error(errc::conflict, "orçamento expirado em " + *o[4] + ": prepare outro", "idOrcamento");
    if (*o[6] != "true")
      throw Error(errc::conflict, "a licença mudou desde o orçamento: prepare outro", "idOrcamento");

    // The license as the quote says it will be: a new one, or the current one changed.
    const std::string q = id_text(quote_id);
    Sql apply(
        "with o as (select conteudo -> 'alteracao' a, conteudo #>> '{licencaBase,id}' base "
        "from plataforma.orcamentos where id = ");
    apply.bind(q, "bigint") << "), novo as (insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, "
                               "max_usuarios, max_armazenamento_mb, adicionais, observacao) select ";
    apply.bind(id_text(tenant_id), "bigint")
        << ", a ->> 'plano', 'ativa', (a ->> 'inicio')::date, (a ->> 'fim')::date, (a ->> 'maxUsuarios')::integer, "
           "(a ->> 'maxArmazenamentoMb')::integer, a -> 'adicionais', 'contratada pelo orçamento ' || ";
    apply.bind(q, "text")
        << " from o where (a ->> 'novaLicenca')::boolean returning id), "
           "alterada as (update plataforma.licencas l set plano = a ->> 'plano', inicio = (a ->> 'inicio')::date, "
           "fim = (a ->> 'fim')::date, max_usuarios = (a ->> 'maxUsuarios')::integer, max_armazenamento_mb = "
           "(a ->> 'maxArmazenamentoMb')::integer, adicionais = a -> 'adicionais', atualizada_em = now() from o "
           "where not (a ->> 'novaLicenca')::boolean and l.id = o.base::bigint returning l.id) "
           "select id::text from novo union all select id::text from alterada";
    std::string license = store::fetch_value(s, apply).value();

    Sql insert(
        "insert into plataforma.contratos (tenant_id, orcamento_id, usuario_id, tipo, total_centavos, licenca_id) "
        "select tenant_id, id, ");
    insert.bind(id_text(user_id), "bigint") << ", tipo, (conteudo ->> 'totalCentavos')::bigint, ";
    insert.bind(license, "bigint") << " from plataforma.orcamentos where id = ";
    insert.bind(q, "bigint") << " returning id::text";
    std::string contract = store::fetch_value(s, insert).value();
    Sql mark("update plataforma.orcamentos set contrato_id = ");
    mark.bind(contract, "bigint") << " where id = ";
    mark.bind(q, "bigint");
    store::execute(s, mark);
    std::string out = contract_json(s, contract);
    tx.commit();
    return Contracted{std::move(out), true};
  });
}

}  // namespace cadastre::platform::contracting
