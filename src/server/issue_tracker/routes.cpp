// POST /aplicativo/criar-issue-externo: creates an issue in the external issue tracker of
// the caller's municipality (main bearer; the tenant is the user's own).
//
// Nothing is lost: the issue is stored in atendimento.issue_externo first (committed),
// then posted (server/issue_tracker/delivery.hpp). Each call first retries the pending
// issues of the tenant, oldest first, so once the tracker is back the backlog drains on
// the next call; row locks make sure two calls never post the same issue.
//
// Body: titulo (required), descricao, lote_id, camada + registro_id (a record the issue is
// about; the caller must be allowed to read the layer), anexos (ids of midia.arquivo).
// Answers: 201 {"id", "id_externo", "link", "situacao": "enviado", "reenviados"}; 502 (504
// on a time-out) in the error shape plus "id" and "situacao" ("pendente": kept and
// retried by the next call; "falhou": the tracker refused it); 400 for a bad body, even
// when no tracker is configured; then 503 when none is; 403/404 for references the
// caller may not read or that do not exist.
#include <simdjson.h>
#include <soci/soci.h>

#include <set>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/app.hpp"
#include "server/issue_tracker/delivery.hpp"
#include "server/layer_access.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using tracker::Delivery;

constexpr std::size_t kMaxTitulo = 200, kMaxDescricao = 20000, kMaxAnexos = 50;
constexpr int kMaxRetriesPerCall = 20;

struct IssueInput {
  std::string titulo;
  std::optional<std::string> descricao;
  std::optional<std::int64_t> lote_id;
  std::optional<std::string> camada, registro_id;
  std::vector<std::int64_t> anexos;
};

std::int64_t positive_id(simdjson::dom::element e, const std::string& field) {
  std::int64_t v = 0;
  if (e.get(v) != simdjson::SUCCESS || v <= 0)
    throw Error(errc::invalid_argument, field + " deve ser um inteiro positivo", field);
  return v;
}

IssueInput parse_issue(const std::string& body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  static const std::set<std::string_view> known = {"titulo", "descricao",   "lote_id",
                                                   "camada", "registro_id", "anexos"};
  for (auto [key, _] : root)
    if (!known.count(key))
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  IssueInput in;
  in.titulo = jsonin::string(root, "titulo");
  if (in.titulo.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::missing_field, "titulo não pode ser vazio", "titulo");
  if (in.titulo.size() > kMaxTitulo)
    throw Error(errc::invalid_argument, "titulo com mais de 200 caracteres", "titulo");
  in.descricao = jsonin::opt_string(root, "descricao");
  if (in.descricao && in.descricao->size() > kMaxDescricao)
    throw Error(errc::invalid_argument, "descricao com mais de 20000 caracteres", "descricao");
  if (auto e = jsonin::find(root, "lote_id")) in.lote_id = positive_id(*e, "lote_id");
  in.camada = jsonin::opt_string(root, "camada");
  if (auto e = jsonin::find(root, "registro_id"))
    in.registro_id = e->is_string() ? std::string(std::string_view(*e))
                                    : std::to_string(positive_id(*e, "registro_id"));
  if (in.camada.has_value() != in.registro_id.has_value())
    throw Error(errc::missing_field, "camada e registro_id vão juntos",
                in.camada ? "registro_id" : "camada");
  if (in.camada) query::check_identifier(*in.camada, "camada");
  if (auto e = jsonin::find(root, "anexos")) {
    auto list = jsonin::as_array(*e, "anexos");
    for (auto item : list) in.anexos.push_back(positive_id(item, "anexos"));
    if (in.anexos.size() > kMaxAnexos)
      throw Error(errc::invalid_argument, "no máximo 50 anexos", "anexos");
    std::set<std::int64_t> unique(in.anexos.begin(), in.anexos.end());
    if (unique.size() != in.anexos.size())
      throw Error(errc::invalid_argument, "anexo repetido", "anexos");
  }
  return in;
}

// The records the issue points at must exist; `layer` is the caller's readable layer of
// in.camada (resolved before leasing a connection: the catalog may need one).
void check_references(soci::session& s, const IssueInput& in, const LayerRef& layer) {
  if (in.lote_id) {
    store::Sql q("select 1 from cadastro.lote where id = ");
    q.bind(std::to_string(*in.lote_id), "bigint");
    if (!store::fetch_value(s, q))
      throw Error(errc::not_found, "lote " + std::to_string(*in.lote_id) + " não encontrado",
                  "lote_id");
  }
  if (layer.layer) {
    std::string id = record_id(*layer, *in.registro_id);
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

// The JSON the tracker receives (the delivery adds "referencia").
std::string payload(const IssueInput& in, const Context& ctx) {
  JsonWriter w;
  w.begin_object().key("titulo").value(in.titulo);
  w.key("descricao");
  in.descricao ? w.value(*in.descricao) : w.null();
  w.key("municipio").value(ctx.tenant.slug);
  w.key("lote_id");
  in.lote_id ? w.value(*in.lote_id) : w.null();
  w.key("camada");
  in.camada ? w.value(*in.camada) : w.null();
  w.key("registro_id");
  in.registro_id ? w.value(*in.registro_id) : w.null();
  w.key("anexos").begin_array();
  for (auto a : in.anexos) w.value(a);
  w.end_array();
  w.key("criado_por").value(ctx.user.email).end_object();
  return std::move(w).str();
}

std::int64_t store_issue(soci::session& s, const IssueInput& in, const Context& ctx) {
  store::Sql q(
      "insert into atendimento.issue_externo (referencia, titulo, descricao, dados, criado_por) "
      "values (");
  q.bind("cadastre-" + ctx.tenant.slug + "-") << " || gen_random_uuid()::text, ";
  q.bind(in.titulo) << ", ";
  q.bind(in.descricao) << ", ";
  q.bind(payload(in, ctx), "jsonb") << ", ";
  q.bind(ctx.user.email) << ") returning id::text";
  return std::stoll(store::fetch_value(s, q).value());
}

// Pending issues stored before `before`, oldest first.
std::vector<std::int64_t> pending_before(soci::session& s, std::int64_t before) {
  store::Sql q(
      "select id::text from atendimento.issue_externo where status = 'pendente' and id < ");
  q.bind(std::to_string(before), "bigint")
      << " order by id limit " << std::to_string(kMaxRetriesPerCall);
  std::vector<std::int64_t> out;
  for (const auto& row : store::fetch(s, q)) out.push_back(std::stoll(row.at(0).value()));
  return out;
}

Response failed(std::int64_t id, const Delivery& d) {
  bool kept = d.state == Delivery::State::pending;
  errc code = d.timed_out ? errc::upstream_timeout : errc::upstream_failed;
  std::string msg = (kept ? "o rastreador de issues externo falhou (" + d.erro +
                                "); a issue foi guardada e será reenviada na próxima chamada"
                          : "o rastreador de issues externo recusou a issue (" + d.erro +
                                "); ela ficou registrada");
  JsonWriter w;
  w.begin_object()
      .key("mensagem")
      .value(msg)
      .key("tipo")
      .value("erro")
      .key("codigo")
      .value(code_string(code));
  w.key("id").value(id).key("situacao").value(kept ? "pendente" : "falhou").end_object();
  return Response::json(std::move(w).str(), http_status(code));
}

Response create_issue(App& app, Request& req) {
  // The body first: bad input is a 400 whatever the state of the tracker.
  IssueInput in = parse_issue(req.body);
  const Context& ctx = context(req);
  tracker::Config cfg = tracker::config_of(ctx.tenant);
  LayerRef layer = in.camada ? layer_for(app, req, *in.camada, false) : LayerRef{};
  std::int64_t id = ctx.db->with([&](soci::session& s) {
    check_references(s, in, layer);
    return store_issue(s, in, ctx);
  });

  // The backlog first: once one of them fails the tracker is still down, and the new issue
  // is only kept (the caller is told so) instead of waiting for a second time-out.
  int resent = 0;
  std::optional<Delivery> backlog_failure;
  for (std::int64_t old : ctx.db->with([&](soci::session& s) { return pending_before(s, id); })) {
    Delivery d =
        ctx.db->with([&](soci::session& s) { return tracker::deliver(s, cfg, old, false); });
    if (d.state == Delivery::State::sent) ++resent;
    if (d.state == Delivery::State::pending) {
      backlog_failure = d;
      break;
    }
  }
  if (backlog_failure) return failed(id, *backlog_failure);

  Delivery d = ctx.db->with([&](soci::session& s) { return tracker::deliver(s, cfg, id, true); });
  if (d.state != Delivery::State::sent) return failed(id, d);
  JsonWriter w;
  w.begin_object().key("id").value(id).key("id_externo").value(d.id_externo).key("link");
  d.link.empty() ? w.null() : w.value(d.link);
  w.key("situacao").value("enviado").key("reenviados").value(resent).end_object();
  return Response::json(std::move(w).str(), 201);
}

}  // namespace

void add_issue_tracker_routes(App& app) {
  app.server().add(
      {.method = "POST",
       .pattern = "/aplicativo/criar-issue-externo",
       .auth = "bearer",
       .tag = "Aplicativo de campo",
       .summary =
           "Cria uma issue no rastreador externo do município do usuário (guardada antes do envio; "
           "as pendentes são reenviadas na chamada seguinte)",
       .body =
           {.description =
                R"({"titulo": "obrigatório", "descricao": "...", "lote_id": 1, "camada": "lote", )"
                R"("registro_id": 1, "anexos": [ids de mídia]})"},
       .handler = [&app](Request& req) { return create_issue(app, req); }});
}

}  // namespace cadastre::server
