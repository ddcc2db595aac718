// Detail with relations, field search, address search and units of a lot.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture, "a lot's detail includes its units with owners and its buildings") {
  auto lot = db("select lote_id from cadastro.imobiliario group by lote_id having count(*) > 1 order by lote_id limit 1");
  if (lot.empty()) lot = "1";
  auto a = get("/alfa/lote/" + lot + "/");
  REQUIRE(a->status == 200);
  CHECK(a->content_type == "application/geo+json");
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["id"])) == lot);
  auto p = j["properties"];
  CHECK(std::to_string(p["imobiliarios"].get_array().size()) == db("select count(*) from cadastro.imobiliario where lote_id = " + lot));
  CHECK(std::to_string(p["edificacoes"].get_array().size()) == db("select count(*) from cadastro.edificacao where lote_id = " + lot));
  auto unit = p["imobiliarios"].at(0);
  CHECK(unit["proprietarios"].get_array().size() >= 1);
  CHECK(!std::string_view(unit["proprietarios"].at(0)["cpf_cnpj"]).empty());
}

TEST_CASE_FIXTURE(Fixture,
                  "a unit's detail includes its lot, buildings and owners, also under /geo") {
  auto a = get("/geo/alfa/imobiliario/1/");
  REQUIRE(a->status == 200);
  auto p = a->json()["properties"];
  CHECK(std::to_string(int64_t(p["lote"]["id"])) == db("select lote_id from cadastro.imobiliario where id = 1"));
  CHECK(std::string_view(p["lote"]["geometry"]["type"]) == "MultiPolygon");
  CHECK(p["proprietarios"].get_array().size() >= 1);
}

TEST_CASE_FIXTURE(Fixture, "detail of a missing or malformed id is 404 or 400 in the error shape") {
  auto a = get("/alfa/lote/99999/");
  CHECK(a->status == 404);
  CHECK(a->codigo() == "nao_encontrado");
  for (const char* id : {"abc", "1%20or%201=1", "-1", "1;drop"}) {
    auto b = get(std::string("/alfa/lote/") + id + "/");
    CHECK_MESSAGE(b->status == 400, id);
  }
}

TEST_CASE_FIXTURE(Fixture, "search by one field with each type") {
  auto code = db("select codigo from cadastro.bairro order by id limit 1");
  auto a = get("/alfa/bairro/search/exact/codigo/" + code + "/");
  REQUIRE(a->status == 200);
  CHECK(int64_t(a->json()["numberReturned"]) == 1);
  auto fragment = db("select lower(substr(nome, 1, 3)) from cadastro.bairro order by id limit 1");
  auto b = get("/geo/alfa/bairro/search/icontains/nome/" + fragment + "/?limit=100");
  CHECK(std::to_string(int64_t(b->json()["numberReturned"])) ==
        db("select count(*) from cadastro.bairro where nome ilike '%" + fragment + "%'"));
  CHECK(get("/alfa/bairro/search/fuzzy/nome/x/")->status == 400);
  CHECK(get("/alfa/bairro/search/exact/nada/x/")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "search2 combines several fields") {
  auto row = db("select topografia || ',' || situacao from cadastro.lote order by id limit 1");
  auto topo = row.substr(0, row.find(',')), sit = row.substr(row.find(',') + 1);
  auto a = get("/alfa/lote/search2/params/?limit=1000&topografia=" + topo + "&situacao=" + sit);
  REQUIRE(a->status == 200);
  CHECK(std::to_string(int64_t(a->json()["numberReturned"])) ==
        db("select count(*) from cadastro.lote where topografia = '" + topo + "' and situacao = '" + sit + "'"));
}

TEST_CASE_FIXTURE(Fixture, "address search ignores accents and case and filters by number") {
  auto name = db("select nome from cadastro.logradouro l where exists (select 1 from cadastro.lote where logradouro_id = l.id) "
                 "order by (nome ~ '[áéíóúãõçÁÉÍÓÚÂÊÔ]') desc, id limit 1");
  auto plain = db("select upper(unaccent('" + name + "'))");
  httplib::Params params{{"logradouro", plain}, {"limit", "1000"}};
  auto cli = city().client();
  auto r = cli.Get("/alfa/logradouro/buscar_endereco/", params, Stack::bearer(city().user("alfa").token));
  REQUIRE(r);
  REQUIRE(r->status == 200);
  simdjson::dom::parser p;
  auto j = p.parse(r->body);
  auto expected = db("select count(*) from cadastro.lote lo join cadastro.logradouro l on l.id = lo.logradouro_id where l.nome = '" + name + "'");
  REQUIRE(std::stoll(expected) >= 1);  // the street was chosen among those with lots
  CHECK(int64_t(j["numberReturned"]) >= std::stoll(expected));  // numbers, not their digits
  auto first = j["features"].at(0)["properties"];
  CHECK(std::string(std::string_view(first["endereco"])).find(name) != std::string::npos);

  auto numero = std::to_string(int64_t(first["numero"]));
  httplib::Params with_number{{"logradouro", plain}, {"numero", numero}};
  auto n = cli.Get("/alfa/logradouro/buscar_endereco/", with_number, Stack::bearer(city().user("alfa").token));
  REQUIRE(n);
  REQUIRE(n->status == 200);
  simdjson::dom::parser p2;
  auto numbered = p2.parse(n->body)["features"].get_array();
  CHECK(numbered.size() >= 1);  // the address found above has this number
  for (auto f : numbered) CHECK(std::to_string(int64_t(f["properties"]["numero"])) == numero);
  CHECK(get("/alfa/logradouro/buscar_endereco/")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "busca_imoveis lists the units of a lot with the lot's geometry") {
  auto lot = db("select lote_id from cadastro.imobiliario order by lote_id limit 1");
  auto a = get("/alfa/lote/busca_imoveis/" + lot + "/");
  REQUIRE(a->status == 200);
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["numberReturned"])) == db("select count(*) from cadastro.imobiliario where lote_id = " + lot));
  CHECK(std::string_view(j["features"].at(0)["geometry"]["type"]) == "MultiPolygon");
  CHECK(get("/alfa/lote/busca_imoveis/x/")->status == 400);
  CHECK(get("/alfa/bairro/busca_imoveis/1/")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "busca_imoveis checks its parameters as the layer list does") {
  auto lot = db("select lote_id from cadastro.imobiliario order by lote_id limit 1");
  const std::string base = "/alfa/lote/busca_imoveis/" + lot + "/";
  auto attack = get(base + "?minLongitude=abc&sort=(select%201)&type=zzz");
  CHECK(attack->status == 400);
  CHECK(attack->codigo() == "parametro_invalido");
  CHECK(get("/alfa/lote/?minLongitude=abc&sort=(select%201)&type=zzz")->status == 400);
  for (const char* q : {"minLongitude=abc", "sort=(select%201)", "type=zzz", "limit=x", "nao_existe=1"})
    CHECK_MESSAGE(get(base + "?" + q)->status == 400, q);
}

TEST_CASE_FIXTURE(Fixture,
                  "busca_imoveis filters, sorts and boxes the lot's units like a layer list") {
  auto lot = db("select lote_id from cadastro.imobiliario group by lote_id having count(*) > 1 order by lote_id limit 1");
  REQUIRE(!lot.empty());
  const std::string base = "/alfa/imobiliario/busca_imoveis/" + lot + "/";
  auto desc = get(base + "?sort=-id");
  REQUIRE(desc->status == 200);
  CHECK(ids(desc->json()["features"]) ==
        db("select string_agg(id::text, ',' order by id desc) from cadastro.imobiliario where lote_id = " + lot));
  auto one = db("select inscricao_cartografica from cadastro.imobiliario where lote_id = " + lot + " order by id limit 1");
  auto filtered = get(base + "?inscricao_cartografica=" + one);
  REQUIRE_MESSAGE(filtered->status == 200, filtered->body);
  CHECK(int64_t(filtered->json()["numberReturned"]) == 1);
  auto far = get(base + "?minLongitude=10&minLatitude=10&maxLongitude=11&maxLatitude=11");
  REQUIRE(far->status == 200);
  CHECK(int64_t(far->json()["numberReturned"]) == 0);
  auto box = db("select format('minLongitude=%s&minLatitude=%s&maxLongitude=%s&maxLatitude=%s', ST_XMin(e), "
                "ST_YMin(e), ST_XMax(e), ST_YMax(e)) from (select ST_Envelope(ST_Transform(geom, 4674)) e "
                "from cadastro.lote where id = " + lot + ") t");
  auto inside = get(base + "?" + box);
  REQUIRE(inside->status == 200);
  CHECK(std::to_string(int64_t(inside->json()["numberReturned"])) ==
        db("select count(*) from cadastro.imobiliario where lote_id = " + lot));
  CHECK(get(base + "?geom=1")->status == 400);  // the lot's geometry is not a filter
}
