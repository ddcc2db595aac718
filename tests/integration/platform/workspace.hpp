// A platform project to work in, for the projects/layers/forms/values suites: helpers that
// build one through the front door (POST /projetos, /camadas, /formularios, /campos) and
// put geometries in its layers straight into the tenant's database (the geometry routes
// come with their own suite). Use inside a PlatformFixture:
//
//   TEST_CASE_FIXTURE(PlatformFixture, "...") {
//     Workspace w(*this, admin("alfa", "chefe@alfa.gov.br"));
//     auto p = w.project("Lotes"); auto c = w.layer(p, "lotes", "poligono");
//     auto f = w.form(c, "Ficha"); auto k = w.field(f, R"({"nome":"Área","chave":"area","tipo":"decimal"})");
//     auto g = w.geometry(c, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
//   }
#pragma once

#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

struct Workspace {
  Workspace(PlatformFixture& f, Session s, std::string slug = "alfa") : fx(f), owner(std::move(s)), tenant(std::move(slug)) {}

  PlatformFixture& fx;
  Session owner;
  std::string tenant;

  /// The id of a created record (the answer must be 201 with an "id").
  std::int64_t created(const std::string& path, const std::string& body) const {
    auto a = fx.post(path, body, owner);
    REQUIRE_MESSAGE(a->status == 201, path << " " << body << " → " << a->body);
    return int64_t(a->json()["id"]);
  }
  std::int64_t project(const std::string& nome) const {
    return created("/projetos", R"({"nome":")" + nome + R"("})");
  }
  std::int64_t layer(std::int64_t projeto, const std::string& nome, const std::string& geometria = "poligono") const {
    return created("/camadas", R"({"idProjeto":)" + std::to_string(projeto) + R"(,"nome":")" + nome +
                                   R"(","geometria":")" + geometria + R"("})");
  }
  std::int64_t form(std::int64_t camada, const std::string& nome) const {
    return created("/formularios", R"({"idCamada":)" + std::to_string(camada) + R"(,"nome":")" + nome + R"("})");
  }
  /// A field of `formulario`: `fields` is the rest of the body, e.g. {"nome":"Área","chave":"area","tipo":"decimal"}.
  std::int64_t field(std::int64_t formulario, const std::string& fields) const {
    return created("/campos", R"({"idFormulario":)" + std::to_string(formulario) + "," + fields.substr(1));
  }
  /// A geometry (WKT in SIRGAS 2000 lon/lat) put straight into the tenant's database.
  std::int64_t geometry(std::int64_t camada, const std::string& wkt) const {
    return std::stoll(db("insert into projeto.geometrias (camada_id, geom, criado_por) values (" +
                         std::to_string(camada) + ", st_geomfromtext('" + wkt + "', 4674), " +
                         std::to_string(owner.user_id) + ") returning id"));
  }
  /// One value of the tenant's database (the first column of the first row).
  std::string db(const std::string& sql) const { return query_value(fx.stack->tenant_dsn(tenant), sql); }
};

}  // namespace cadastre::test
