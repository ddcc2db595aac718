// /projetos: create, list (listar, v2), read (with layers, forms and fields), change,
// delete, info and extent, each bounded by what the caller may see; the state moves
// (inativar/ativar, publicar/despublicar) and the edits an inactive project refuses.
#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Rows;
using test::Session;
using test::str;
using test::Workspace;

namespace {

std::int64_t create(PlatformFixture& f, const Session& s, const std::string& nome) {
  auto a = f.post("/projetos", R"({"nome":")" + nome + R"("})", s);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return int64_t(a->json()["id"]);
}

// The refusals every project route gives to callers who may not see the project.
void unseen(PlatformFixture& f, const test::Team& t, const std::string& method, const std::string& path,
            const std::string& body = "") {
  CAPTURE(method);
  CAPTURE(path);
  refused(*f.request(method, path, {}, body), 401, "nao_autenticado");
  refused(*f.request(method, path, PlatformFixture::headers(t.beta), body), 404, "nao_encontrado");
  refused(*f.request(method, path, PlatformFixture::headers(t.stranger), body), 404, "nao_encontrado");
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "a project's creator administers it; bad bodies and public users are refused") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  auto a = post("/projetos", R"({"nome":"Lotes urbanos","descricao":"quadras e lotes"})", t.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t p = int64_t(a->json()["id"]);
  CHECK(std::string_view(a->json()["papel"]) == "admin");
  CHECK(std::string_view(a->json()["tipo"]) == "geral");
  CHECK(bool(a->json()["ativo"]));
  CHECK(!bool(a->json()["publicado"]));
  CHECK(int64_t(a->json()["versao"]) == 1);
  CHECK(w.db("select criado_por || ' ' || descricao from projeto.projetos where id = " + str(p)) ==
        str(t.owner.user_id) + " quadras e lotes");
  CHECK(w.db("select operacao from projeto.eventos where projeto_id = " + str(p)) == "criar");

  refused(*post("/projetos", R"({"descricao":"x"})", t.owner), 400, "campo_obrigatorio", "nome");
  refused(*post("/projetos", R"({"nome":"   "})", t.owner), 400, "parametro_invalido", "nome");
  refused(*post("/projetos", R"({"nome":")" + std::string(201, 'x') + R"("})", t.owner), 400, "parametro_invalido",
          "nome");
  refused(*post("/projetos", R"({"nome":"x","tipo":"outro"})", t.owner), 400, "parametro_invalido", "tipo");
  refused(*post("/projetos", R"({"nome":"x","ativo":false})", t.owner), 400, "campo_desconhecido", "ativo");
  refused(*post("/projetos", R"({"nome":1})", t.owner), 400, "parametro_invalido", "nome");
  refused(*post("/projetos", "[]", t.owner), 400, "parametro_invalido");
  refused(*post("/projetos", "{", t.owner), 400, "json_invalido");
  refused(*request("POST", "/projetos", {}, R"({"nome":"x"})"), 401, "nao_autenticado");
  Session visitor = test::signed_in(*this, "alfa", "visitante@alfa.gov.br");
  platform_db("update plataforma.usuarios set publico = true where id = " + str(visitor.user_id) + " returning id");
  refused(*post("/projetos", R"({"nome":"x"})", visitor), 403, "acesso_negado", "públicos");
  CHECK(w.db("select count(*) from projeto.projetos") == "1");

  auto typed = post("/projetos", R"({"nome":"Cadastro","tipo":"cadastro_imobiliario"})", t.owner);
  REQUIRE(typed->status == 201);
  CHECK(std::string_view(typed->json()["tipo"]) == "cadastro_imobiliario");
}

TEST_CASE_FIXTURE(PlatformFixture, "lists, reads and info show only the projects and layers the caller may see") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  std::int64_t p = create(*this, t.owner, "Lotes"), q = create(*this, t.owner, "Rural");
  std::int64_t z = create(*this, t.owner, "Zoneamento");
  r.share(p, t.reader, "leitura");
  std::int64_t c1 = r.layer(p, "lotes"), c2 = r.layer(p, "sigilosa", ", privada", ", true");
  std::int64_t f1 = r.form(c1, "Ficha"), k1 = r.field(f1, "area", "decimal");
  std::int64_t g1 = w.geometry(c1, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  r.text_value(g1, r.field(f1, "dono"), "Maria");
  w.db("update projeto.projetos set ativo = false where id = " + str(q));

  {  // listar: active ones by default, inactive ones with ativo=false, each with the caller's role
    CHECK(test::ids(get("/projetos/listar", t.owner)->json()) == str(p) + "," + str(z));
    CHECK(test::ids(get("/projetos/listar?ativo=false", t.owner)->json()) == str(q));
    auto mine = get("/projetos/listar", t.reader);
    CHECK(test::ids(mine->json()) == str(p));
    CHECK(test::ids(mine->json(), "papel") == "leitura");
    CHECK(get("/projetos/listar", t.stranger)->body == "[]");
    CHECK(get("/projetos/listar", t.beta)->body == "[]");
    refused(*get("/projetos/listar?ativo=talvez", t.owner), 400, "parametro_invalido", "ativo");
    refused(*request("GET", "/projetos/listar", {}), 401, "nao_autenticado");
  }
  {  // v2: paged, ordered, with each project's visible layers
    auto page = get("/projetos/v2?pageSize=1&orderBy=nome", t.owner);
    REQUIRE_MESSAGE(page->status == 200, page->body);
    CHECK(int64_t(page->json()["totalElements"]) == 2);
    CHECK(test::ids(page->json()["content"]) == str(p));
    CHECK(test::ids(page->json()["content"].at(0)["camadas"]) == str(c1) + "," + str(c2));
    CHECK(test::ids(get("/projetos/v2?pageSize=1&pageNumber=2&orderBy=nome", t.owner)->json()["content"]) == str(z));
    CHECK(test::ids(get("/projetos/v2?orderBy=nome&direction=desc", t.owner)->json()["content"]) ==
          str(z) + "," + str(p));
    CHECK(test::ids(get("/projetos/v2?ativo=false", t.owner)->json()["content"]) == str(q));
    auto theirs = get("/projetos/v2", t.reader);
    CHECK(test::ids(theirs->json()["content"].at(0)["camadas"]) == str(c1));
    refused(*get("/projetos/v2?orderBy=senha", t.owner), 400, "parametro_invalido", "orderBy");
    refused(*get("/projetos/v2?pageSize=1001", t.owner), 400, "parametro_invalido", "pageSize");
    refused(*request("GET", "/projetos/v2", {}), 401, "nao_autenticado");
    CHECK(int64_t(get("/projetos/v2", t.beta)->json()["totalElements"]) == 0);
  }
  {  // GET /projetos/:id nests the visible layers and their forms; v2 adds the fields
    auto d = get("/projetos/" + str(p), t.owner);
    REQUIRE_MESSAGE(d->status == 200, d->body);
    CHECK(test::ids(d->json()["camadas"]) == str(c1) + "," + str(c2));
    CHECK(test::ids(d->json()["camadas"].at(0)["formularios"]) == str(f1));
    CHECK(std::string_view(d->json()["camadas"].at(0)["papel"]) == "admin");
    auto seen = get("/projetos/" + str(p), t.reader);
    CHECK(test::ids(seen->json()["camadas"]) == str(c1));  // the private layer stays hidden
    CHECK(std::string_view(seen->json()["papel"]) == "leitura");
    auto bare = get("/projetos/" + str(p) + "?noForms=true", t.owner);
    CHECK(bare->json()["camadas"].at(0)["formularios"].error() == simdjson::NO_SUCH_FIELD);
    auto v2 = get("/projetos/v2/" + str(p), t.owner);
    CHECK(test::ids(v2->json()["camadas"].at(0)["formularios"].at(0)["campos"]) == str(k1) + "," + str(k1 + 1));
    CHECK(test::ids(v2->json()["camadas"].at(0)["formularios"].at(0)["campos"], "chave") == "area,dono");
    refused(*get("/projetos/" + str(p) + "?noForms=talvez", t.owner), 400, "parametro_invalido", "noForms");
  }
  {  // info counts what is under the visible layers
    auto i = get("/projetos/info/" + str(p), t.owner);
    REQUIRE_MESSAGE(i->status == 200, i->body);
    CHECK(int64_t(i->json()["camadas"]) == 2);
    CHECK(int64_t(i->json()["formularios"]) == 1);
    CHECK(int64_t(i->json()["campos"]) == 2);
    CHECK(int64_t(i->json()["geometrias"]) == 1);
    CHECK(int64_t(i->json()["valores"]) == 1);
    CHECK(int64_t(i->json()["usuariosCompartilhados"]) == 1);
    CHECK(!i->json()["ultimaAlteracao"].is_null());
    CHECK(int64_t(get("/projetos/info/" + str(p), t.reader)->json()["camadas"]) == 1);
  }
  {  // the unseen get 404, malformed ids 400
    for (std::string path : {"/projetos/" + str(p), "/projetos/v2/" + str(p), "/projetos/info/" + str(p),
                             "/projetos/" + str(p) + "/extent", "/projetos/" + str(p) + "/notas"})
      unseen(*this, t, "GET", path);
    refused(*get("/projetos/999999", t.owner), 404, "nao_encontrado");
    for (const char* path : {"/projetos/1;drop", "/projetos/v2/1;drop", "/projetos/info/1%3Bdrop%20table",
                             "/projetos/1;drop/extent", "/projetos/-1"})
      refused(*get(path, t.owner), 400, "parametro_invalido");
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "PUT and DELETE /projetos/:id: admins change, managers delete with everything under") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  std::int64_t p = create(*this, t.owner, "Lotes");
  r.share(p, t.reader, "leitura");
  r.share(p, t.editor, "edicao");
  std::int64_t c = r.layer(p, "lotes"), f = r.form(c, "Ficha"), k = r.field(f, "dono");
  r.text_value(w.geometry(c, "POINT(-48 -27)"), k, "Maria");
  w.db("insert into projeto.camadas_adicionais (projeto_id, nome, tipo, url) values (" + str(p) +
       ", 'base', 'xyz', 'https://t.br/{z}/{x}/{y}.png')");

  auto u = put("/projetos/" + str(p), R"({"nome":"Lotes 2024","descricao":""})", t.owner);
  REQUIRE_MESSAGE(u->status == 200, u->body);
  CHECK(std::string_view(u->json()["nome"]) == "Lotes 2024");
  CHECK(u->json()["descricao"].is_null());
  CHECK(w.db("select nome from projeto.projetos where id = " + str(p)) == "Lotes 2024");
  refused(*put("/projetos/" + str(p), R"({"nome":"x"})", t.reader), 403, "acesso_negado", "leitura");
  refused(*put("/projetos/" + str(p), R"({"nome":"x"})", t.editor), 403, "acesso_negado", "edicao");
  refused(*put("/projetos/" + str(p), R"({"tipo":"geral"})", t.owner), 400, "campo_desconhecido", "tipo");
  refused(*put("/projetos/" + str(p), R"({"nome":""})", t.owner), 400, "parametro_invalido", "nome");
  refused(*put("/projetos/" + str(p), R"({"descricao":")" + std::string(4001, 'd') + R"("})", t.owner), 400,
          "parametro_invalido", "descricao");
  refused(*put("/projetos/1;drop", R"({"nome":"x"})", t.owner), 400, "parametro_invalido");
  unseen(*this, t, "PUT", "/projetos/" + str(p), R"({"nome":"x"})");
  CHECK(w.db("select nome from projeto.projetos where id = " + str(p)) == "Lotes 2024");

  refused(*del("/projetos/" + str(p), t.editor), 403, "acesso_negado");
  unseen(*this, t, "DELETE", "/projetos/" + str(p));
  refused(*del("/projetos/1;drop", t.owner), 400, "parametro_invalido");
  auto gone = del("/projetos/" + str(p), t.owner);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(gone->body.empty());
  for (const char* table : {"projetos", "camadas", "formularios", "campos", "geometrias", "camadas_adicionais",
                            "projeto_usuarios"})
    CHECK_MESSAGE(w.db(std::string("select count(*) from projeto.") + table) == "0", table);
  // The values went with their layers' tables.
  CHECK(w.db("select count(*) from pg_tables where schemaname = 'camadas'") == "0");
  CHECK(w.db("select detalhes->>'nome' from projeto.eventos where operacao = 'excluir' and projeto_id = " + str(p)) ==
        "Lotes 2024");
  refused(*get("/projetos/" + str(p), t.owner), 404, "nao_encontrado");
  refused(*del("/projetos/" + str(p), t.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "state moves: inactive projects refuse edits and publication; repeats are 409") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  std::int64_t p = create(*this, t.owner, "Lotes");
  r.share(p, t.reader, "leitura");
  r.share(p, t.editor, "edicao");
  const std::string id = str(p);
  auto state = [&] { return w.db("select ativo || ',' || publicado from projeto.projetos where id = " + id); };

  for (std::string path : {"/projetos/inativar/" + id, "/projetos/ativar/" + id, "/projetos/" + id + "/publicar",
                           "/projetos/" + id + "/despublicar"}) {
    unseen(*this, t, "POST", path);
    refused(*post(path, "", t.reader), 403, "acesso_negado");
    refused(*post(path, "", t.editor), 403, "acesso_negado");
  }
  for (const char* path : {"/projetos/inativar/1;drop", "/projetos/ativar/x", "/projetos/1;drop/publicar",
                           "/projetos/0/despublicar"})
    refused(*post(path, "", t.owner), 400, "parametro_invalido");
  CHECK(state() == "true,false");

  auto off = post("/projetos/inativar/" + id, "", t.owner);
  REQUIRE_MESSAGE(off->status == 200, off->body);
  CHECK(!bool(off->json()["ativo"]));
  CHECK(state() == "false,false");
  refused(*post("/projetos/inativar/" + id, "", t.owner), 409, "transicao_invalida", "já está inativo");
  refused(*put("/projetos/" + id, R"({"nome":"x"})", t.owner), 409, "transicao_invalida", "inativo");
  refused(*put("/projetos/" + id + "/notas", R"({"notas":"<p>x</p>"})", t.owner), 409, "transicao_invalida");
  refused(*post("/projetos/" + id + "/publicar", "", t.owner), 409, "transicao_invalida", "inativo");
  CHECK(get("/projetos/listar", t.reader)->body == "[]");
  CHECK(get("/projetos/" + id, t.reader)->status == 200);  // hidden from lists, still readable

  auto on = post("/projetos/ativar/" + id, "", t.owner);
  REQUIRE_MESSAGE(on->status == 200, on->body);
  CHECK(bool(on->json()["ativo"]));
  refused(*post("/projetos/ativar/" + id, "", t.owner), 409, "transicao_invalida", "já está ativo");
  refused(*post("/projetos/" + id + "/despublicar", "", t.owner), 409, "transicao_invalida", "já está despublicado");

  CHECK(get("/projetos/listar", t.stranger)->body == "[]");
  auto pub = post("/projetos/" + id + "/publicar", "", t.owner);
  REQUIRE_MESSAGE(pub->status == 200, pub->body);
  CHECK(bool(pub->json()["publicado"]));
  CHECK(state() == "true,true");
  // Published: every user of the tenant reads it.
  CHECK(test::ids(get("/projetos/listar", t.stranger)->json()) == id);
  refused(*post("/projetos/" + id + "/publicar", "", t.owner), 409, "transicao_invalida", "já está publicado");
  auto unpub = post("/projetos/" + id + "/despublicar", "", t.owner);
  CHECK(unpub->status == 200);
  CHECK(state() == "true,false");
  CHECK(w.db("select string_agg(operacao, ',' order by id) from projeto.eventos where projeto_id = " + id) ==
        "criar,inativar,ativar,publicar,despublicar");
}

TEST_CASE_FIXTURE(PlatformFixture, "extent: the union of the visible layers' geometries and recorded extents") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  std::int64_t p = create(*this, t.owner, "Lotes");
  r.share(p, t.reader, "leitura");
  const std::string path = "/projetos/" + str(p) + "/extent";
  r.layer(p, "vazia");  // a layer without geometries adds nothing
  auto none = get(path, t.owner);
  CHECK(none->status == 204);
  CHECK(none->body.empty());

  std::int64_t vec = r.layer(p, "lotes");
  w.geometry(vec, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  r.layer(p, "ortofoto", ", tipo, extensao",
          ", 'tiff', st_geomfromtext('POLYGON((-49 -28,-48.5 -28,-48.5 -27.5,-49 -27.5,-49 -28))', 4674)");
  std::int64_t hidden = r.layer(p, "sigilosa", ", privada", ", true");
  w.geometry(hidden, "POINT(-40 -20)");

  auto e = get(path, t.owner);
  REQUIRE_MESSAGE(e->status == 200, e->body);
  CHECK(double(e->json()["xmin"]) == doctest::Approx(-49));
  CHECK(double(e->json()["ymin"]) == doctest::Approx(-28));
  CHECK(double(e->json()["xmax"]) == doctest::Approx(-40));
  CHECK(double(e->json()["ymax"]) == doctest::Approx(-20));
  CHECK(int64_t(e->json()["srid"]) == 4674);
  auto seen = get(path, t.reader);  // without the private layer
  CHECK(double(seen->json()["xmax"]) == doctest::Approx(-47.99));
  CHECK(double(seen->json()["ymax"]) == doctest::Approx(-26.99));
}
