// Auth, the "dominio" permission, tenant isolation and hostile table names on /dominio.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const char* kBody = R"({"id": "acesso", "codigo": "acesso", "descricao": "Acesso"})";

struct Route {
  const char* method;
  std::string path;
};
const std::vector<Route> kRoutes = {{"GET", "/dominio/alfa/uso"},
                                    {"POST", "/dominio/alfa/uso"},
                                    {"PUT", "/dominio/alfa/uso/residencial"},
                                    {"DELETE", "/dominio/alfa/uso/residencial"}};
}  // namespace

TEST_CASE_FIXTURE(Fixture, "domain routes need a token (401) of the same tenant (403)") {
  auto cli = city().client();
  CHECK(cli.Get("/dominio/alfa/uso")->status == 401);
  CHECK(cli.Post("/dominio/alfa/uso", kBody, "application/json")->status == 401);
  CHECK(call("GET", "/dominio/alfa/uso", "", std::string(64, 'a'))->status == 401);
  for (const auto& r : kRoutes) {
    auto a = call(r.method, r.path, R"({"descricao": "Invadido"})", city().user("beta").token);
    CHECK_MESSAGE(a->status == 403, r.method << " " << r.path);
    CHECK(a->codigo() == "municipio_nao_permitido");
  }
  CHECK(db("select descricao from dominio.uso where id = 'residencial'") == "Residencial");
  // beta's own domain tables answer beta's token.
  CHECK(call("GET", "/dominio/beta/uso", "", city().user("beta").token)->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "reading needs read permission on 'dominio' and writing needs write permission") {
  auto reader = city().add_user("alfa", "leitor-dominio@alfa.gov.br", {"dominio:r"});
  CHECK(call("GET", "/dominio/alfa/uso", "", reader.token)->status == 200);
  for (std::size_t i = 1; i < kRoutes.size(); ++i) {
    auto a = call(kRoutes[i].method, kRoutes[i].path, R"({"descricao": "x"})", reader.token);
    CHECK_MESSAGE(a->status == 403, kRoutes[i].method);
    CHECK(a->codigo() == "acesso_negado");
  }
  CHECK(db("select descricao from dominio.uso where id = 'residencial'") == "Residencial");

  // The "*" default counts when there is no rule for "dominio"; a rule for "dominio" wins over it.
  auto star_reader = city().add_user("alfa", "leitor-geral@alfa.gov.br", {"*:r"});
  CHECK(call("GET", "/dominio/alfa/uso", "", star_reader.token)->status == 200);
  CHECK(call("POST", "/dominio/alfa/uso", kBody, star_reader.token)->status == 403);
  auto only_lots = city().add_user("alfa", "so-lotes@alfa.gov.br", {"lote:rw"});
  CHECK(call("GET", "/dominio/alfa/uso", "", only_lots.token)->status == 403);
  auto no_domains = city().add_user("alfa", "sem-dominio@alfa.gov.br", {"*:rw", "dominio:"});
  CHECK(call("GET", "/dominio/alfa/uso", "", no_domains.token)->status == 403);

  auto editor = city().add_user("alfa", "editor-dominio@alfa.gov.br", {"*:r", "dominio:rw"});
  auto created = call("POST", "/dominio/alfa/uso", kBody, editor.token);
  CHECK_MESSAGE(created->status == 201, created->body);
  CHECK(audit_of("uso", "acesso") == "I|editor-dominio@alfa.gov.br");
  CHECK(call("DELETE", "/dominio/alfa/uso/acesso", "", editor.token)->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "hostile table names are refused with 4xx before any SQL, on every method") {
  const char* names[] = {"uso'", "uso%22", "uso%3B--", "uso%00", "pg_catalog.pg_authid", "..%2F..%2Fetc",
                         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "auditoria.registro",
                         "uso%20union%20select%201", "1uso", "uso-x"};
  for (const char* name : names) {
    for (const char* method : {"GET", "POST", "PUT", "DELETE"}) {
      std::string path = std::string("/dominio/alfa/") + name;
      if (std::string(method) == "PUT" || std::string(method) == "DELETE") path += "/residencial";
      auto a = call(method, path, kBody);
      // Names that break the identifier rules are refused as such (400), before the catalog is
      // read; a NUL is refused even before that, by the route table, as in any parameter; an
      // encoded '/' makes a path no route serves (404).
      const bool nul = std::string_view(name).find("%00") != std::string_view::npos;
      const bool slash = std::string_view(name).find("%2F") != std::string_view::npos;
      CHECK_MESSAGE(a->status == (slash ? 404 : 400), method << " " << name << " → " << a->status);
      CHECK_MESSAGE(a->codigo() == (slash ? "rota_nao_encontrada"
                                    : nul ? "parametro_invalido"
                                          : "identificador_invalido"),
                    method << " " << name << " → " << a->body);
    }
  }
  // Names that are valid identifiers but not domain tables of this tenant: 404.
  for (const char* name : {"pg_authid", "spatial_ref_sys", "registro"}) {
    CHECK(call("GET", std::string("/dominio/alfa/") + name)->codigo() == "camada_nao_encontrada");
  }
  CHECK(db("select count(*) from dominio.uso where id = 'acesso'") == "0");
  CHECK(db("select descricao from dominio.uso where id = 'residencial'") == "Residencial");
}

TEST_CASE_FIXTURE(Fixture, "the domain routes are documented with their permission rule") {
  auto cli = city().client();
  auto r = cli.Get("/openapi.json");
  REQUIRE(r);
  simdjson::dom::parser parser;
  auto paths = parser.parse(r->body).value()["paths"];
  // The permission comes from the route table (x-permissao), the entry the dispatcher enforces.
  auto list = paths["/dominio/{municipio}/{campo}"];
  CHECK(std::string_view(list["get"]["x-permissao"]) == "leitura na camada dominio");
  CHECK(std::string_view(list["post"]["x-permissao"]) == "escrita na camada dominio");
  for (const char* method : {"put", "delete"}) {
    std::string_view s = paths["/dominio/{municipio}/{campo}/{id}"][method]["x-permissao"];
    CHECK_MESSAGE(s == "escrita na camada dominio", method);
  }
}
