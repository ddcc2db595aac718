// The value reads: by id, by geometry, by layer (capped), filtered lists, a layer's page
// ordered by any field, the accent-insensitive search (through its GIN index), the values
// at a point of a project and a lot's buildings. Each needs a session and leitura on what
// it names; another tenant's ids and unshared projects are unknown (404).
#include <algorithm>
#include <regex>
#include <set>

#include "integration/platform/openapi_check.hpp"
#include "lots.hpp"
#include "platform/values/store.hpp"

using namespace cadastre;
using test::Lots;
using test::PlatformFixture;
using test::refused;

namespace {

// The refusals every read route gives: no session, another tenant, no share.
void check_private(PlatformFixture& f, const Lots& w, const std::string& path) {
  CAPTURE(path);
  refused(*f.request("GET", path, {}), 401, "nao_autenticado");
  refused(*f.get(path, w.other_tenant), 404, "nao_encontrado");
  refused(*f.get(path, w.stranger), 404, "nao_encontrado");
}

// `q` with its bound values written in as literals, to EXPLAIN it (highest index first, so
// :p1 does not eat the start of :p10).
std::string literal_sql(const store::Sql& q) {
  std::string sql = q.text();
  for (std::size_t i = q.params().size(); i >= 1; --i)
    sql = std::regex_replace(sql, std::regex(":p" + std::to_string(i) + "\\b"),
                             "'" + q.params()[i - 1].value_or("") + "'");
  return sql;
}

std::vector<std::int64_t> geometry_ids(simdjson::dom::element content) {
  std::vector<std::int64_t> out;
  for (auto row : content.get_array()) out.push_back(int64_t(row["idGeometria"]));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "values by id, geometry, field and layer, for those who may read them") {
  Lots w(*this);
  std::int64_t g1 = w.geometry(), g2 = w.geometry();
  std::int64_t v = w.value(g1, "area", "12.5");
  w.value(g1, "uso", R"("residencial")");
  w.value(g1, "inscricao", R"("0001")");
  w.value(g2, "area", "7");

  auto a = get("/valores/" + Lots::n(v), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(double(a->json()["valor"]) == 12.5);
  CHECK(int64_t(a->json()["idGeometria"]) == g1);
  CHECK(int64_t(a->json()["atualizadoPor"]) == w.owner.user_id);

  a = get("/valores/geometria/" + Lots::n(g1), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  std::vector<std::string> keys;
  for (auto item : a->json().get_array()) keys.emplace_back(std::string_view(item["chave"]));
  CHECK(keys == std::vector<std::string>{"inscricao", "area", "uso"});  // the form's order
  CHECK(std::string_view(a->json().at(1)["tipo"]) == "decimal");
  CHECK(std::string_view(a->json().at(2)["valor"]) == "residencial");

  a = get("/valores?idGeometria=" + Lots::n(g1), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["totalElements"]) == 3);
  CHECK(int64_t(get("/valores?idCampo=" + Lots::n(w.field["area"]), w.reader)->json()["totalElements"]) == 2);
  a = get("/valores?idCamada=" + Lots::n(w.layer) + "&pageSize=2&pageNumber=2", w.reader);
  CHECK(int64_t(a->json()["totalElements"]) == 4);
  CHECK(a->json()["content"].get_array().size() == 2);
  refused(*get("/valores", w.reader), 400, "campo_obrigatorio", "idGeometria");
  refused(*get("/valores?idGeometria=" + Lots::n(g1) + "&idCampo=1", w.reader), 400, "parametro_invalido");
  refused(*get("/valores?idGeometria=1;drop", w.reader), 400, "parametro_invalido", "idGeometria");
  refused(*get("/valores?idCamada=" + Lots::n(w.layer), w.stranger), 404, "nao_encontrado");

  a = get("/valores/camada/" + Lots::n(w.layer), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["valores"].get_array().size() == 4);
  CHECK(int64_t(a->json()["limite"]) == 10000);
  CHECK(bool(a->json()["truncado"]) == false);
  a = get("/valores/camada/" + Lots::n(w.layer) + "?idCampo=" + Lots::n(w.field["area"]), w.reader);
  CHECK(a->json()["valores"].get_array().size() == 2);
  refused(*get("/valores/camada/" + Lots::n(w.layer) + "?idCampo=" + Lots::n(w.building["area"]), w.reader), 400,
          "parametro_invalido", "idCampo");

  for (const std::string& path : {"/valores/" + Lots::n(v), "/valores/geometria/" + Lots::n(g1),
                                  "/valores/camada/" + Lots::n(w.layer), "/valores?idGeometria=" + Lots::n(g1)})
    check_private(*this, w, path);
  refused(*get("/valores/geometria/1;drop", w.reader), 400, "parametro_invalido");

  // A private layer is out of sight of a project share without a right on it.
  w.db("update projeto.camadas set privada = true where id = " + Lots::n(w.layer) + " returning 1");
  refused(*get("/valores/" + Lots::n(v), w.reader), 404, "nao_encontrado");
  CHECK(get("/valores/" + Lots::n(v), w.owner)->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture, "a layer's page is ordered by any of its fields, geometries without a value last") {
  Lots w(*this);
  std::vector<std::int64_t> g;
  for (int i = 0; i < 12; ++i) g.push_back(w.geometry());
  // Areas of 9 geometries, out of id order; street names of some; dates of a few.
  const std::vector<int> areas = {50, 10, 90, 30, 70, 20, 80, 40, 60};
  for (std::size_t i = 0; i < areas.size(); ++i) w.value(g[i], "area", std::to_string(areas[i]));
  w.value(g[3], "logradouro", R"("Rua B")");
  w.value(g[7], "logradouro", R"("Rua A")");
  w.value(g[10], "construido_em", R"("2001-01-01")");
  w.value(g[2], "construido_em", R"("1999-12-31")");
  const std::string base = "/valores/camada/" + Lots::n(w.layer) + "/pg?pageSize=5";

  auto pages = [&](const std::string& query) {
    std::vector<std::int64_t> ids;
    for (int p = 1; p <= 3; ++p) {
      auto a = get(base + query + "&pageNumber=" + std::to_string(p), w.reader);
      REQUIRE_MESSAGE(a->status == 200, a->body);
      CHECK(int64_t(a->json()["totalElements"]) == 12);
      CHECK(int64_t(a->json()["totalPages"]) == 3);
      auto part = geometry_ids(a->json()["content"]);
      ids.insert(ids.end(), part.begin(), part.end());
    }
    return ids;
  };
  std::vector<std::int64_t> by_area;  // ascending area, then the three without one by id
  for (int target : {10, 20, 30, 40, 50, 60, 70, 80, 90})
    by_area.push_back(g[std::find(areas.begin(), areas.end(), target) - areas.begin()]);
  CHECK(pages("&orderBy=area") == std::vector<std::int64_t>(
                                      {by_area[0], by_area[1], by_area[2], by_area[3], by_area[4], by_area[5],
                                       by_area[6], by_area[7], by_area[8], g[9], g[10], g[11]}));
  std::vector<std::int64_t> desc(by_area.rbegin(), by_area.rend());
  desc.insert(desc.end(), {g[11], g[10], g[9]});
  CHECK(pages("&orderBy=area&direction=desc") == desc);
  CHECK(pages("&orderBy=id") == g);
  auto by_street = pages("&orderBy=logradouro");
  CHECK(by_street[0] == g[7]);
  CHECK(by_street[1] == g[3]);
  CHECK(by_street[2] == g[0]);
  auto by_date = pages("&orderBy=construido_em&direction=desc");
  CHECK(by_date[0] == g[10]);
  CHECK(by_date[1] == g[2]);

  // Each row: the geometry's values by chave (only one field's with idCampo).
  auto a = get(base + "&orderBy=area", w.reader);
  auto row = a->json()["content"].at(0);
  CHECK(double(row["valores"]["area"]) == 10);
  a = get(base + "&orderBy=logradouro&idCampo=" + Lots::n(w.field["logradouro"]), w.reader);
  row = a->json()["content"].at(0);
  CHECK(std::string_view(row["valores"]["logradouro"]) == "Rua A");
  CHECK(row["valores"].get_object().size() == 1);
  CHECK(a->json()["content"].at(2)["valores"].get_object().size() == 0);

  refused(*get(base + "&orderBy=inexistente", w.reader), 400, "parametro_invalido", "orderBy");
  refused(*get(base + "&orderBy=area;drop%20table%20x", w.reader), 400, "parametro_invalido", "orderBy");
  refused(*get(base + "&orderBy=area&idCampo=" + Lots::n(w.building["area"]), w.reader), 400, "parametro_invalido",
          "idCampo");
  refused(*get("/valores/camada/" + Lots::n(w.layer) + "/pg?pageSize=1001", w.reader), 400, "parametro_invalido",
          "pageSize");
  refused(*get(base + "&direction=sideways", w.reader), 400, "parametro_invalido", "direction");
  check_private(*this, w, base + "&orderBy=area");

  // On a layer large enough for the planner to weigh it, the page walks the field's
  // (column, id) index in order: no sort of the layer, no scan of every value.
  const std::string table = "camadas.l" + Lots::n(w.layer), area = "c_" + Lots::n(w.field["area"]);
  w.db("with g as (insert into projeto.geometrias (camada_id, geom) select " + Lots::n(w.layer) +
       ", st_setsrid(st_makepoint(-47 + i * 0.00001, -27), 4674) from generate_series(1, 30000) i returning id) "
       "insert into " + table + " (id, " + area + ") select id, id % 997 from g returning 1");
  w.db("analyze " + table);
  w.db("analyze projeto.geometrias");
  platform::Page page;
  page.paging.offset = 20;
  page.paging.page = 3;
  const std::vector<platform::common::LayerField> fields = {{w.field["area"], 0, "area", "area", "decimal", 0}};
  std::string plan = w.db("explain (format json) " +
                          literal_sql(platform::values::page_statement(
                              w.layer, fields, std::nullopt, platform::values::OrderField{w.field["area"], "numeric"},
                              page)));
  CHECK_MESSAGE(plan.find("l" + Lots::n(w.layer) + "_c" + Lots::n(w.field["area"]) + "_ordem") != std::string::npos, plan);
  CHECK_MESSAGE(plan.find("\"Sort\"") == std::string::npos, plan);
  a = get(base + "&orderBy=area&pageNumber=2", w.reader);
  CHECK(int64_t(a->json()["totalElements"]) == 30012);
  CHECK(double(a->json()["content"].at(0)["valores"]["area"]) == 0);
}

TEST_CASE_FIXTURE(PlatformFixture, "a layer's page follows its fields at once, whoever changed them") {
  // The page is sent with the read of its fields, built from the fields an earlier request
  // read (one round trip); the read checks them. Here the fields change behind the server's
  // back, as another instance would change them, and the next page already follows.
  Lots w(*this);
  const std::int64_t g = w.geometry();
  w.value(g, "area", "12.5");
  w.value(g, "logradouro", R"("Rua A")");
  const std::string base = "/valores/camada/" + Lots::n(w.layer) + "/pg?pageSize=5";
  auto first_row = [&](const std::string& query) {
    auto a = get(base + query, w.reader);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    return std::string(simdjson::minify(a->json()["content"].at(0)["valores"]));
  };
  // Several times: on each pooled connection, the statements are prepared at their first run.
  for (int i = 0; i < 12; ++i) {
    CHECK(first_row("&orderBy=area") == R"({"area":12.5,"logradouro":"Rua A"})");
    CHECK(first_row("") == R"({"area":12.5,"logradouro":"Rua A"})");
  }

  // A field renamed: its new chave orders and names the value; the old one is unknown.
  w.db("update projeto.campos set chave = 'area_m2' where id = " + Lots::n(w.field["area"]) + " returning 1");
  // By id first: the page built from the fields before the change runs too, and is refused by the check.
  for (int i = 0; i < 3; ++i) CHECK(first_row("") == R"({"area_m2":12.5,"logradouro":"Rua A"})");
  for (int i = 0; i < 3; ++i) CHECK(first_row("&orderBy=area_m2") == R"({"area_m2":12.5,"logradouro":"Rua A"})");
  refused(*get(base + "&orderBy=area", w.reader), 400, "parametro_invalido", "orderBy");

  // A field added, with a value: the first page after it shows it and orders by it.
  std::map<std::string, std::int64_t> more;
  w.add(more, w.form, "testada", "decimal");
  w.db("update camadas.l" + Lots::n(w.layer) + " set c_" + Lots::n(more["testada"]) + " = 9 where id = " +
       Lots::n(g) + " returning 1");
  for (int i = 0; i < 3; ++i) CHECK(first_row("") == R"({"area_m2":12.5,"testada":9,"logradouro":"Rua A"})");
  for (int i = 0; i < 3; ++i)
    CHECK(first_row("&orderBy=testada") == R"({"area_m2":12.5,"testada":9,"logradouro":"Rua A"})");

  // A field removed (its column dropped): the page built from the fields before it fails in
  // PostgreSQL, and the page from the fields read now answers.
  w.db("delete from projeto.campos where id = " + Lots::n(w.field["logradouro"]) + " returning 1");
  for (int i = 0; i < 3; ++i) CHECK(first_row("&orderBy=area_m2") == R"({"area_m2":12.5,"testada":9})");
  CHECK(first_row("") == R"({"area_m2":12.5,"testada":9})");
}

TEST_CASE_FIXTURE(PlatformFixture, "the search ignores accents and case and goes through the trigram index") {
  Lots w(*this);
  const std::vector<std::string> streets = {"Rua São José", "Avenida SÃO JOSÉ dos Campos", "Rua Joinville",
                                            "Praça da Sé", "Loja 100% Natural"};
  std::vector<std::int64_t> g;
  for (const std::string& s : streets) {
    g.push_back(w.geometry());
    w.value(g.back(), "logradouro", "\"" + s + "\"");
  }
  const std::string base = "/valores/search?campoId=" + Lots::n(w.field["logradouro"]) + "&termo=";
  auto found = [&](const std::string& termo) {
    auto a = get(base + termo, w.reader);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    std::vector<std::string> out;
    for (auto v : a->json()["content"].get_array()) out.emplace_back(std::string_view(v["valor"]));
    CHECK(int64_t(a->json()["totalElements"]) == static_cast<std::int64_t>(out.size()));
    return out;
  };
  CHECK(found("sao%20jose") == std::vector<std::string>{"Avenida SÃO JOSÉ dos Campos", "Rua São José"});
  CHECK(found("PRACA%20DA%20SE") == std::vector<std::string>{"Praça da Sé"});
  CHECK(found("100%25") == std::vector<std::string>{"Loja 100% Natural"});  // % is a character, not a wildcard
  CHECK(found("10_").empty());
  CHECK(found("%27%20or%201=1--").empty());
  auto a = get(base + "rua&page=2&pageSize=1", w.reader);
  CHECK(int64_t(a->json()["totalElements"]) == 2);
  CHECK(std::string_view(a->json()["content"].at(0)["valor"]) == "Rua São José");
  CHECK(int64_t(a->json()["content"].at(0)["idGeometria"]) == g[0]);

  refused(*get(base + "a", w.reader), 400, "parametro_invalido", "termo");
  refused(*get(base + "%20%20a%20", w.reader), 400, "parametro_invalido", "termo");
  refused(*get(base + std::string(201, 'x'), w.reader), 400, "parametro_invalido", "termo");
  refused(*get("/valores/search?campoId=" + Lots::n(w.field["logradouro"]), w.reader), 400, "campo_obrigatorio",
          "termo");
  refused(*get("/valores/search?termo=abc", w.reader), 400, "campo_obrigatorio", "campoId");
  refused(*get("/valores/search?campoId=" + Lots::n(w.field["area"]) + "&termo=abc", w.reader), 400,
          "parametro_invalido", "campoId");
  check_private(*this, w, base + "rua");

  // On a table large enough for the planner to prefer it, the statement the route runs
  // goes through the trigram index of the field's column (GIN on chave_busca(column)).
  const std::string table = "camadas.l" + Lots::n(w.layer), column = "c_" + Lots::n(w.field["logradouro"]);
  w.db("with g as (insert into projeto.geometrias (camada_id, geom) select " + Lots::n(w.layer) +
       ", st_setsrid(st_makepoint(-47 + i * 0.00001, -27), 4674) from generate_series(1, 30000) i returning id) "
       "insert into " + table + " (id, " + column + ") select id, 'Rua ' || md5(id::text) from g returning 1");
  w.db("analyze " + table);
  platform::Page page;
  const platform::common::LayerField field{w.field["logradouro"], 0, "logradouro", "logradouro", "texto", 0};
  std::string plan =
      w.db("explain (format json) " + literal_sql(platform::values::search_statement(w.layer, field, "sao jose", page)));
  CHECK_MESSAGE(plan.find("Bitmap Index Scan") != std::string::npos, plan);
  CHECK_MESSAGE(plan.find("_trgm") != std::string::npos, plan);
  CHECK(found("sao%20jose").size() == 2);
}

TEST_CASE_FIXTURE(PlatformFixture, "the values at a point: every geometry of the project's readable layers there") {
  Lots w(*this);
  std::int64_t lot = w.square(-48.50, -27.50, 0.01);
  std::int64_t house = w.square(-48.499, -27.499, 0.001, w.buildings);
  std::int64_t far = w.square(-48.40, -27.40, 0.01);
  w.value(lot, "area", "100");
  w.value(far, "area", "5");
  w.db("insert into camadas.l" + Lots::n(w.buildings) + " (id, c_" + Lots::n(w.building["area"]) + ") values (" +
       Lots::n(house) + ", 20) returning 1");
  const std::string path = "/valores/projeto/" + Lots::n(w.project);

  auto a = get(path + "?x=-48.4985&y=-27.4985", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  REQUIRE(a->json().get_array().size() == 2);
  auto lots = a->json().at(0), houses = a->json().at(1);
  CHECK(int64_t(lots["idCamada"]) == w.layer);
  CHECK(std::string_view(lots["nome"]) == "lotes");
  CHECK(int64_t(lots["geometrias"].at(0)["idGeometria"]) == lot);
  CHECK(lots["geometrias"].get_array().size() == 1);
  CHECK(double(lots["geometrias"].at(0)["valores"].at(0)["valor"]) == 100);
  CHECK(std::string_view(lots["geometrias"].at(0)["valores"].at(0)["chave"]) == "area");
  CHECK(int64_t(houses["geometrias"].at(0)["idGeometria"]) == house);
  CHECK(double(houses["geometrias"].at(0)["valores"].at(0)["valor"]) == 20);

  CHECK(get(path + "?x=-48.30&y=-27.30", w.reader)->json().get_array().size() == 0);
  // A private layer shows only to those with a right on it.
  w.db("update projeto.camadas set privada = true where id = " + Lots::n(w.buildings) + " returning 1");
  CHECK(get(path + "?x=-48.4985&y=-27.4985", w.reader)->json().get_array().size() == 1);
  CHECK(get(path + "?x=-48.4985&y=-27.4985", w.owner)->json().get_array().size() == 2);

  refused(*get(path + "?y=-27.4985", w.reader), 400, "campo_obrigatorio", "x");
  refused(*get(path + "?x=-200&y=-27.4985", w.reader), 400, "parametro_invalido", "x");
  refused(*get(path + "?x=-48&y=91", w.reader), 400, "parametro_invalido", "y");
  refused(*get(path + "?x=abc&y=1", w.reader), 400, "parametro_invalido", "x");
  check_private(*this, w, path + "?x=-48.4985&y=-27.4985");
}

TEST_CASE_FIXTURE(PlatformFixture, "a lot's buildings: the linked ones, or the unlinked ones standing inside it") {
  Lots w(*this);
  std::int64_t lot = w.square(-48.50, -27.50, 0.01);
  std::int64_t linked_inside = w.square(-48.499, -27.499, 0.001, w.buildings);
  std::int64_t loose_inside = w.square(-48.495, -27.495, 0.001, w.buildings);
  std::int64_t linked_outside = w.square(-48.45, -27.45, 0.001, w.buildings);
  std::int64_t loose_outside = w.square(-48.45, -27.46, 0.001, w.buildings);
  (void)loose_outside;
  w.db("update projeto.geometrias set vinculo_id = " + Lots::n(lot) + " where id in (" + Lots::n(linked_inside) +
       ", " + Lots::n(linked_outside) + ") returning 1");
  w.db("insert into camadas.l" + Lots::n(w.buildings) + " (id, c_" + Lots::n(w.building["padrao"]) + ") values (" +
       Lots::n(loose_inside) + ", 'alto') returning 1");
  const std::string path = "/valores/edificacao/" + Lots::n(lot);

  auto a = get(path + "?vinculado=true", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(geometry_ids(a->json()) == std::vector<std::int64_t>{linked_inside, linked_outside});
  CHECK(int64_t(a->json().at(0)["idVinculo"]) == lot);
  a = get(path + "?vinculado=false", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(geometry_ids(a->json()) == std::vector<std::int64_t>{loose_inside});
  CHECK(a->json().at(0)["idVinculo"].is_null());
  CHECK(std::string_view(a->json().at(0)["valores"].at(0)["valor"]) == "alto");

  refused(*get(path, w.reader), 400, "campo_obrigatorio", "vinculado");
  refused(*get(path + "?vinculado=talvez", w.reader), 400, "parametro_invalido", "vinculado");
  check_private(*this, w, path + "?vinculado=true");
}

TEST_CASE_FIXTURE(PlatformFixture, "the value routes are in the OpenAPI document with schemas that resolve") {
  auto doc = test::check_documented(
      *this,
      {{"get", "/valores"}, {"post", "/valores"}, {"post", "/v2/valores"}, {"put", "/valores/{id}"},
       {"get", "/valores/{id}"}, {"get", "/valores/geometria/{id}"}, {"get", "/valores/projeto/{id}"},
       {"get", "/valores/camada/{id}"}, {"get", "/valores/camada/{id}/pg"}, {"get", "/valores/search"},
       {"post", "/copiar-valores"}, {"get", "/valores/edificacao/{id}"}},
      true);
  std::vector<std::string> refs;
  test::refs_in(doc->json()["paths"], refs);
  CHECK(std::count(refs.begin(), refs.end(), "#/components/schemas/ValorNovo") > 0);
  CHECK(std::count(refs.begin(), refs.end(), "#/components/schemas/ValorDeCampo") > 0);
}
