// The ombudsman and wiki map routes in /swagger.json, each with components that exist.
#include "integration/platform/openapi_check.hpp"

using namespace cadastre;

TEST_CASE_FIXTURE(test::PlatformFixture, "swagger.json documents the ombudsman and wiki map routes with resolvable schemas") {
  test::check_documented(*this,
                         {{"get", "/ouv/"}, {"get", "/ouv/cidades"}, {"get", "/ouv/legenda"},
                          {"get", "/ouv/camadas/{id}/geometrias"}, {"post", "/ouv/contato"}, {"post", "/ouv/pedir/{id}"},
                          {"post", "/importar/add/ouv"}, {"get", "/wikimap"}, {"get", "/wikimap/{id}"},
                          {"put", "/wikimap/{id}"}, {"get", "/wikimap/consulta"}, {"get", "/wikimap/cfgs"},
                          {"get", "/wikimap/minha-lista"}, {"post", "/wikimap/minha-lista"},
                          {"get", "/wikimap/avaliacoes"}, {"post", "/wikimap/avaliar"},
                          {"post", "/wikimap/{id}/comentario"}},
                         true);
  // 204: no body to describe.
  test::check_documented(*this, {{"delete", "/wikimap/comentario/{id}"}}, false);
}
