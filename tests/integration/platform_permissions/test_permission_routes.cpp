// /permissoes: the caller's role on each project and layer it may see and what that role
// allows, and (for a project's administrators) who may do what on a project. Records are
// made in the tenant's database; the answers must follow the same rules as the guard.
#include "integration/platform/fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Session;
using test::TestUser;

namespace {

struct Setup {
  Session admin, creator, reader, stranger;
  std::string p_shared, p_hidden, p_published, c_open, c_private, c_granted;
};

Setup setup(PlatformFixture& f) {
  Setup s;
  s.admin = f.admin("alfa", "adm-perm@alfa.gov.br");
  auto mk = [&](const std::string& email) {
    TestUser u = f.stack->add_user("alfa", email, {});
    return f.login(u.email, u.password);
  };
  s.creator = mk("criador-perm@alfa.gov.br");
  s.reader = mk("leitor-perm@alfa.gov.br");
  s.stranger = mk("estranho-perm@alfa.gov.br");
  std::string dsn = f.stack->tenant_dsn("alfa"), C = std::to_string(s.creator.user_id),
              R = std::to_string(s.reader.user_id);
  auto q = [&](const std::string& sql) { return test::query_value(dsn, sql); };
  s.p_shared = q("insert into projeto.projetos (nome, criado_por) values ('Compartilhado', " + C + ") returning id");
  s.p_hidden = q("insert into projeto.projetos (nome, criado_por) values ('Oculto', " + C + ") returning id");
  s.p_published =
      q("insert into projeto.projetos (nome, criado_por, publicado) values ('Publicado', " + C + ", true) returning id");
  q("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + s.p_shared + ", " +
    R + ", 'leitura', " + C + ") returning 1");
  auto layer = [&](const std::string& p, const std::string& nome, bool priv) {
    return q("insert into projeto.camadas (projeto_id, nome, privada, criado_por) values (" + p + ", '" + nome + "', " +
             (priv ? "true" : "false") + ", " + C + ") returning id");
  };
  s.c_open = layer(s.p_shared, "Aberta", false);
  s.c_private = layer(s.p_shared, "Privada", true);
  s.c_granted = layer(s.p_shared, "Privada com direito", true);
  layer(s.p_hidden, "Do oculto", false);
  q("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + s.c_granted + ", " +
    R + ", 'edicao', " + C + ") returning 1");
  return s;
}

std::vector<std::string> names(simdjson::dom::array a, const char* key = "nome") {
  std::vector<std::string> out;
  for (auto e : a) out.emplace_back(std::string_view(e[key]));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "a reader sees the shared and published projects with what each role allows") {
  Setup s = setup(*this);
  auto a = get("/permissoes/projetos", s.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(names(a->json()) == std::vector<std::string>{"Compartilhado", "Publicado"});
  auto shared = a->json().at(0);
  CHECK(std::string_view(shared["papel"]) == "leitura");
  CHECK(bool(shared["pode"]["ver"]));
  CHECK_FALSE(bool(shared["pode"]["editarDados"]));
  CHECK_FALSE(bool(shared["pode"]["compartilhar"]));

  // The creator administers all three; the tenant's administrator too.
  auto c = get("/permissoes/projetos", s.creator);
  CHECK(names(c->json()).size() == 3);
  CHECK(bool(c->json().at(0)["pode"]["excluir"]));
  CHECK(names(get("/permissoes/projetos", s.admin)->json()).size() >= 3);
  // A user with nothing shared sees only the published one.
  CHECK(names(get("/permissoes/projetos", s.stranger)->json()) == std::vector<std::string>{"Publicado"});
}

TEST_CASE_FIXTURE(PlatformFixture, "a project's permissions list only the layers the caller may see, private ones by right") {
  Setup s = setup(*this);
  auto a = get("/permissoes/projetos/" + s.p_shared, s.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto layers = a->json()["camadas"].get_array().value();
  CHECK(names(layers) == std::vector<std::string>{"Aberta", "Privada com direito"});
  CHECK(std::string_view(layers.at(0)["papel"]) == "leitura");
  CHECK(std::string_view(layers.at(1)["papel"]) == "edicao");
  CHECK(bool(layers.at(1)["pode"]["editarDados"]));
  CHECK_FALSE(bool(layers.at(1)["pode"]["editarEstrutura"]));

  // One layer at a time, and all of them.
  auto one = get("/permissoes/camadas/" + s.c_granted, s.reader);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(std::string_view(one->json()["papel"]) == "edicao");
  CHECK(names(get("/permissoes/camadas", s.reader)->json()) == std::vector<std::string>{"Aberta", "Privada com direito"});

  // A private layer without a right, a project not shared, another tenant's id: absent.
  refused(*get("/permissoes/camadas/" + s.c_private, s.reader), 404, "nao_encontrado");
  refused(*get("/permissoes/projetos/" + s.p_hidden, s.reader), 404, "nao_encontrado");
  Session beta = admin("beta", "chefe-perm@beta.gov.br");
  refused(*get("/permissoes/projetos/" + s.p_shared, beta), 404, "nao_encontrado");
  refused(*get("/permissoes/camadas/" + s.c_open, beta), 404, "nao_encontrado");
  // Hostile and malformed ids.
  refused(*get("/permissoes/projetos/1;drop%20table%20projeto.projetos", s.reader), 400, "parametro_invalido");
  refused(*get("/permissoes/camadas/abc", s.reader), 400, "parametro_invalido");
  refused(*request("GET", "/permissoes/projetos", {}), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(PlatformFixture, "who may do what on a project is shown to its administrators only, with each role's origin") {
  Setup s = setup(*this);
  auto a = get("/permissoes/" + s.p_shared, s.creator);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  std::map<std::int64_t, std::string> origin, role;
  for (auto u : a->json()["usuarios"].get_array()) {
    origin[int64_t(u["idUsuario"])] = std::string(std::string_view(u["origem"]));
    role[int64_t(u["idUsuario"])] = std::string(std::string_view(u["papel"]));
  }
  CHECK(origin[s.creator.user_id] == "criador do projeto");
  CHECK(origin[s.admin.user_id] == "administrador do município");
  CHECK(origin[s.reader.user_id] == "compartilhamento");
  CHECK(role[s.reader.user_id] == "leitura");
  CHECK(origin.count(s.stranger.user_id) == 0);
  // The reader's role on each layer: nothing on the private one, its right on the other.
  for (auto u : a->json()["usuarios"].get_array()) {
    if (int64_t(u["idUsuario"]) != s.reader.user_id) continue;
    for (auto c : u["camadas"].get_array()) {
      std::string n{std::string_view(c["nome"])};
      if (n == "Privada") CHECK(c["papel"].is_null());
      if (n == "Privada com direito") CHECK(std::string_view(c["papel"]) == "edicao");
    }
  }
  refused(*get("/permissoes/" + s.p_shared, s.reader), 403, "acesso_negado", "admin");
  refused(*get("/permissoes/" + s.p_hidden, s.stranger), 404, "nao_encontrado");
  refused(*get("/permissoes/" + s.p_shared + "%27%20or%201=1", s.creator), 400, "parametro_invalido");
}
