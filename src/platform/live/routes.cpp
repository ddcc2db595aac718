// GET /socket: the live WebSocket of a session. It carries the events of the session's
// tenant (the bus of service/events.hpp: import progress, geometry and value changes...,
// published by any instance, store/events.hpp) and is closed with 1008 (policy) the moment
// its session is revoked (logout, inactivation, password change). When this instance lost
// the events for a while (its connection to the platform database was cut), every socket
// gets {"tipo":"ressincronizar"}: reload what is shown, something may have been missed. A text "ping", or {"tipo":"ping"}, is answered with
// {"tipo":"pong"}. Browsers cannot set headers on a WebSocket: besides the session
// headers, the socket takes them as the query fields x_auth_token and x_tn_token.
#include "http/websocket.hpp"
#include "platform/app.hpp"
#include "store/events.hpp"

namespace cadastre::platform {
namespace {

bool is_ping(std::string_view text) {
  return text == "ping" || text == R"({"tipo":"ping"})" || text == R"({"tipo": "ping"})";
}

http::Response open_socket(service::EventBus& bus, const service::Scope& s, http::Request& req) {
  std::int64_t tenant = s.tenant.id, session = s.user.session_id;
  return http::Response::websocket(req, [&bus, tenant, session](std::shared_ptr<http::WebSocket> ws) {
    std::weak_ptr<http::WebSocket> weak = ws;
    auto events = std::make_shared<service::EventBus::Subscription>(bus.subscribe(
        tenant, [weak](const service::Event& e) { if (auto w = weak.lock()) w->send(e.json); }, session));
    auto revoked = std::make_shared<service::EventBus::Subscription>(bus.subscribe(
        store::kControlTenant,
        [weak](const service::Event& e) {
          auto w = weak.lock();
          if (!w) return;
          if (e.type == "ressincronizar") w->send(e.json);
          if (e.type == "sessao_revogada") {
            w->send(e.json);
            w->close(http::close_code::policy, "sessão encerrada");
          }
        },
        session));
    ws->on_message([weak](std::string_view text) {
      if (auto w = weak.lock(); w && is_ping(text)) w->send(R"({"tipo":"pong"})");
    });
    ws->on_close([events, revoked](std::uint16_t) {
      events->cancel();
      revoked->cancel();
    });
    ws->send(R"({"tipo":"conectado"})");
  });
}

}  // namespace

void add_live_routes(App& app) {
  service::EventBus* bus = &app.events();
  app.server().add({.method = "GET", .pattern = "/socket", .auth = "sessao_socket", .access = http::members("os eventos das camadas que o usuário vê e os das suas próprias tarefas"), .tag = "Sistema",
                    .summary = "WebSocket de eventos do município (fechado com 1008 quando a sessão é encerrada)",
                    .params = {{.name = "x_auth_token", .description = "o authToken, para navegadores"},
                               {.name = "x_tn_token", .description = "o tnToken, para navegadores"}},
                    .answers = "", .answer_status = 101,
                    .handler = service::scoped([bus](const service::Scope& s, http::Request& r) {
                      return open_socket(*bus, s, r);
                    })});
}

}  // namespace cadastre::platform
