// The ombudsman and wiki map suites' fixture: the platform fixture with helpers to enable
// the ombudsman of a municipality, file requests as an anonymous citizen, call the public
// routes without a session and wait for an import job.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "integration/platform/workspace.hpp"

namespace cadastre::test {

// A 1×1 PNG (the photo of a request).
inline const std::string kPngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

inline std::string n(std::int64_t v) { return std::to_string(v); }

/// What staff do through the value routes: set the status of the requests of `layer` that
/// `which` picks (SQL over ouvidoria.pedidos p) — the status column of their rows in the
/// layer's table, and an audit row by the workspace's owner, now.
inline void staff_sets_status(const Workspace& w, std::int64_t layer, const std::string& status,
                              const std::string& which = "true") {
  const std::string field = w.db("select f.id from projeto.campos f join projeto.formularios fo on fo.id = "
                                 "f.formulario_id where f.chave = 'status' and fo.camada_id = " + n(layer));
  w.db("with g as (select pc.geometria_id as id from ouvidoria.pedidos_camada pc join ouvidoria.pedidos p on "
       "p.id = pc.pedido_id where pc.camada_id = " + n(layer) + " and " + which + "), u as (update camadas.l" +
       n(layer) + " l set c_" + field + " = '" + status + "' from g where l.id = g.id returning l.id) "
       "insert into projeto.valores_auditoria (valor_id, geometria_id, campo_id, operacao, depois, usuario_id, em) "
       "select projeto.valor_id(u.id, k.posicao), u.id, k.id, 'alterar', to_jsonb('" + status + "'::text), " +
       n(w.owner.user_id) + ", clock_timestamp() from u join projeto.campos k on k.id = " + field + " returning valor_id");
}

struct OuvFixture : PlatformFixture {
  /// Enables the ombudsman of `slug` through its administrators' route (PUT /tenants/config).
  void enable(const std::string& slug) {
    Session adm = admin(slug, "ouvidor@" + slug + ".gov.br");
    auto a = put("/tenants/config", R"({"modulos":["ouvidoria"]})", adm);
    REQUIRE_MESSAGE(a->status == 200, a->body);
  }
  /// A public call (no session).
  std::unique_ptr<Answer> anon(const std::string& method, const std::string& path, const std::string& body = "") const {
    return request(method, path, {}, body);
  }
  /// Files a request in `slug` as a citizen; `extra` adds members (",\"nome\":\"...\"").
  std::unique_ptr<Answer> file(const std::string& descricao, const std::string& extra = "",
                               const std::string& slug = "alfa", double lon = -47.06, double lat = -22.9) const {
    return anon("POST", "/ouv/contato?cidade=" + slug,
                R"({"descricao":")" + descricao + R"(","categoria":"buraco","longitude":)" + std::to_string(lon) +
                    R"(,"latitude":)" + std::to_string(lat) + extra + "}");
  }
  /// A filed request's protocol and token (the answer must be 201).
  std::pair<std::string, std::string> filed(const std::string& descricao, const std::string& extra = "") const {
    auto a = file(descricao, extra);
    REQUIRE_MESSAGE(a->status == 201, a->body);
    return {a->text("protocolo"), a->text("token")};
  }
  std::string tenant_db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  /// The state an import job ends in (it runs on the runner's worker thread).
  std::string finished_job(std::int64_t id, const std::string& slug = "alfa") const {
    for (int i = 0; i < 600; ++i) {
      std::string estado = tenant_db("select estado from projeto.importacoes where id = " + n(id), slug);
      if (estado == "concluida" || estado == "falhou") return estado;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "sem fim";
  }
  /// Imports the requests into `layer` as `who` and waits: the job's final state.
  std::string imported(std::int64_t layer, const std::string& codigo, const std::string& xdzs, const Session& who) const {
    auto a = post("/importar/add/ouv?codigo=" + codigo + "&idCamada=" + n(layer) + "&xdzs=" + xdzs, "", who);
    REQUIRE_MESSAGE(a->status == 202, a->body);
    std::string estado = finished_job(int64_t(a->json()["idImportacao"]));
    if (estado != "concluida")
      FAIL_CHECK(tenant_db("select mensagem from projeto.importacoes where id = " +
                           n(int64_t(a->json()["idImportacao"]))));
    return estado;
  }
};

}  // namespace cadastre::test
