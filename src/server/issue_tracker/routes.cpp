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
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/issue_tracker/delivery.hpp"
#include "server/issue_tracker/input.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using tracker::Delivery;

// 502 (504 on a time-out) in the error shape plus "id" and "situacao": "pendente" (kept
// and retried by the next call) or "falhou" (the tracker refused it).
Response failed(std::int64_t id, const Delivery& d) {
  bool kept = d.state == Delivery::State::pending;
  errc code = d.timed_out ? errc::upstream_timeout : errc::upstream_failed;
  std::string message = kept ? "o rastreador de issues externo falhou (" + d.erro +
                                   "); a issue foi guardada e será reenviada na próxima chamada"
                             : "o rastreador de issues externo recusou a issue (" + d.erro + "); ela ficou registrada";
  return Response::json(http::error_body(code, message,
                                         [&](JsonWriter& w) {
                                           w.key("id").value(id).key("situacao").value(kept ? "pendente" : "falhou");
                                         }),
                        http_status(code));
}

Response create_issue(const service::Scope& s, Request& req) {
  // The body first: bad input is a 400 whatever the state of the tracker.
  tracker::IssueInput in = tracker::parse_issue(req.body);
  tracker::Config cfg = tracker::config_of(s.tenant);
  service::LayerRef layer = in.camada ? s.layer(*in.camada, false) : service::LayerRef{};
  tracker::Submission r = tracker::submit(s, cfg, in, layer);
  if (r.delivery.state != Delivery::State::sent) return failed(r.id, r.delivery);
  JsonWriter w;
  w.begin_object().key("id").value(r.id).key("id_externo").value(r.delivery.id_externo).key("link");
  r.delivery.link.empty() ? w.null() : w.value(r.delivery.link);
  w.key("situacao").value("enviado").key("reenviados").value(r.resent).end_object();
  return Response::json(std::move(w).str(), 201);
}

}  // namespace

void add_issue_tracker_routes(App& app) {
  app.server().add(
      {.method = "POST",
       .pattern = "/aplicativo/criar-issue-externo",
       .auth = "bearer",
       .access = http::members("um chamado próprio, enviado ao rastreador do município"),
       .tag = "Aplicativo de campo",
       .summary =
           "Cria uma issue no rastreador externo do município do usuário (guardada antes do envio; "
           "as pendentes são reenviadas na chamada seguinte)",
       .body =
           {.description =
                R"({"titulo": "obrigatório", "descricao": "...", "lote_id": 1, "camada": "lote", )"
                R"("registro_id": 1, "anexos": [ids de mídia]})"},
       .handler = service::scoped(create_issue)});
}

}  // namespace cadastre::server
