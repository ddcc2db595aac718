// The tenant's geographic references, the national IBGE tables (platform database), CEPs
// from the tenant's streets and the loaded CEP table, and the routes of a municipality
// named in the path (/zonas/<cidade>, /observacoes/<cidade>, /consulta/<cidade>).
#include "http/http.hpp"
#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::World;

namespace {

void seed_references(const World& w) {
  w.db("insert into geografia.referencias (tipo, codigo, nome, geom) values "
       "('bairro', 'B01', 'Cambuí', st_geomfromtext('POLYGON((-47.06 -22.90,-47.05 -22.90,-47.05 -22.89,-47.06 -22.89,-47.06 -22.90))', 4674)), "
       "('bairro', 'B02', 'Jardim Cambuí Novo', st_geomfromtext('POLYGON((-47.04 -22.90,-47.03 -22.90,-47.03 -22.89,-47.04 -22.89,-47.04 -22.90))', 4674)), "
       "('distrito', 'D01', 'Barão Geraldo', st_geomfromtext('POLYGON((-47.10 -22.82,-47.05 -22.82,-47.05 -22.78,-47.10 -22.78,-47.10 -22.82))', 4674)), "
       "('ponto', null, 'Estação Cultura', st_geomfromtext('POINT(-47.0636 -22.9056)', 4674)) returning 1");
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "GET /referencias-geograficas lists and finds the tenant's references without accents") {
  World w(*this);
  seed_references(w);
  auto all = get("/referencias-geograficas", w.reader);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(int64_t(all->json()["totalElements"]) == 4);
  CHECK(std::string_view(all->json()["content"].at(0)["nome"]) == "Barão Geraldo");  // by name
  auto bairros = get("/referencias-geograficas?tipo=bairro&orderBy=id", w.reader);
  CHECK(int64_t(bairros->json()["totalElements"]) == 2);
  auto point = get("/referencias-geograficas?tipo=ponto", w.reader);
  CHECK(double(point->json()["content"].at(0)["centro"]["x"]) == doctest::Approx(-47.0636));

  auto found = get("/referencias-geograficas/consulta?q=" + http::percent_encode("CAMBUI"), w.reader);
  REQUIRE_MESSAGE(found->status == 200, found->body);
  CHECK(test::strings_of(*found, "nome") == std::vector<std::string>{"Cambuí", "Jardim Cambuí Novo"});
  auto barao = get("/referencias-geograficas/consulta?q=" + http::percent_encode("barao"), w.reader);
  CHECK(test::strings_of(*barao, "tipo") == std::vector<std::string>{"distrito"});
  // Beta's references are its own.
  CHECK(get("/referencias-geograficas/consulta?q=cambui", w.other_tenant)->body == "[]");

  refused(*get("/referencias-geograficas/consulta?q=c", w.reader), 400, "parametro_invalido", "q");
  CHECK(get("/referencias-geograficas?tipo=rua", w.reader)->status == 400);
  CHECK(get("/referencias-geograficas?pageSize=0", w.reader)->status == 400);
  CHECK(request("GET", "/referencias-geograficas", {})->status == 401);
  CHECK(request("GET", "/referencias-geograficas/consulta?q=cambui", {})->status == 401);
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /municipios/consulta and /municipios/setores/consulta read the national tables") {
  World w(*this);
  platform_db("insert into geografia.municipios (codigo, nome, uf) values ('3509502', 'Campinas', 'SP'), "
              "('3556206', 'Valinhos', 'SP'), ('3550308', 'São Paulo', 'SP'), ('4205407', 'Florianópolis', 'SC') "
              "on conflict do nothing returning 1");
  platform_db("insert into geografia.setores (codigo, municipio_codigo, situacao, area_km2) values "
              "('350950205000001', '3509502', 'Urbana', 0.12), ('350950205000002', '3509502', 'Urbana', 0.3), "
              "('355620605000001', '3556206', 'Rural', 4.5) on conflict do nothing returning 1");
  auto sp = get("/municipios/consulta?q=" + http::percent_encode("sao paulo"), w.reader);
  REQUIRE_MESSAGE(sp->status == 200, sp->body);
  CHECK(test::strings_of(*sp, "codigo") == std::vector<std::string>{"3550308"});
  auto floripa = get("/municipios/consulta?q=" + http::percent_encode("FLORIANOPOLIS"), w.other_tenant);
  CHECK(test::strings_of(*floripa, "nome") == std::vector<std::string>{"Florianópolis"});
  auto by_code = get("/municipios/consulta?q=35", w.reader);
  CHECK(test::strings_of(*by_code, "codigo").size() == 3);
  auto valinhos = get("/municipios/consulta?q=3556206", w.reader);
  CHECK(test::strings_of(*valinhos, "nome") == std::vector<std::string>{"Valinhos"});

  auto of_city = get("/municipios/setores/consulta?q=3509502", w.reader);
  REQUIRE_MESSAGE(of_city->status == 200, of_city->body);
  CHECK(test::strings_of(*of_city, "codigo") == std::vector<std::string>{"350950205000001", "350950205000002"});
  auto by_name = get("/municipios/setores/consulta?q=valinhos", w.reader);
  CHECK(test::strings_of(*by_name, "situacao") == std::vector<std::string>{"Rural"});
  auto by_prefix = get("/municipios/setores/consulta?q=35095020500000", w.reader);
  CHECK(test::strings_of(*by_prefix, "municipio") == std::vector<std::string>{"Campinas", "Campinas"});

  refused(*get("/municipios/consulta?q=x", w.reader), 400, "parametro_invalido", "q");
  refused(*get("/municipios/setores/consulta", w.reader), 400, "campo_obrigatorio", "q");
  CHECK(get("/municipios/consulta?q=" + http::percent_encode("'; drop table geografia.municipios; --"), w.reader)->body == "[]");
  CHECK(platform_db("select count(*) from geografia.municipios") != "0");
  CHECK(request("GET", "/municipios/consulta?q=campinas", {})->status == 401);
  CHECK(request("GET", "/municipios/setores/consulta?q=campinas", {})->status == 401);
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /cep finds CEPs in the tenant's streets and in the loaded CEP table") {
  World w(*this);
  w.db("insert into dominio.tipo_logradouro (id, codigo, descricao) values ('R', 'R', 'Rua') on conflict do nothing "
       "returning 1");
  w.db("insert into cadastro.logradouro (codigo, tipo, nome, cep, geom) values ('L9001', 'R', 'Barão de Jaguara', "
       "'13015-001', st_geomfromtext('MULTILINESTRING((-47.06 -22.90,-47.05 -22.90))', 4674)) returning id");
  w.db("insert into geografia.ceps (cep, logradouro, bairro, cidade, uf) values "
       "('13015002', 'Rua Conceição', 'Centro', 'Campinas', 'SP'), "
       "('13270000', 'Avenida dos Esportes', 'Centro', 'Valinhos', 'SP') returning 1");
  auto by_code = get("/cep?q=13015", w.reader);
  REQUIRE_MESSAGE(by_code->status == 200, by_code->body);
  CHECK(test::strings_of(*by_code, "cep") == std::vector<std::string>{"13015001", "13015002"});
  CHECK(test::strings_of(*by_code, "origem") == std::vector<std::string>{"cadastro", "correios"});
  CHECK(test::strings_of(*by_code, "logradouro") == std::vector<std::string>{"Rua Barão de Jaguara", "Rua Conceição"});
  auto by_name = get("/cep?q=" + http::percent_encode("barao de jaguara"), w.reader);
  CHECK(test::strings_of(*by_name, "cep") == std::vector<std::string>{"13015001"});
  auto hyphen = get("/cep?q=13270-000", w.reader);
  CHECK(test::strings_of(*hyphen, "cidade") == std::vector<std::string>{"Valinhos"});
  auto city = get("/cep?q=centro&cidade=valinhos", w.reader);
  CHECK(city->body == "[]");  // "centro" names no street
  auto esportes = get("/cep?q=esportes&cidade=" + http::percent_encode("VALINHOS"), w.reader);
  CHECK(test::strings_of(*esportes, "cep") == std::vector<std::string>{"13270000"});
  CHECK(get("/cep?q=esportes&cidade=campinas", w.reader)->body == "[]");
  CHECK(get("/cep?q=13015", w.other_tenant)->body == "[]");

  refused(*get("/cep?q=123", w.reader), 400, "parametro_invalido", "q");
  refused(*get("/cep?q=1234567890", w.reader), 400, "parametro_invalido", "q");
  refused(*get("/cep", w.reader), 400, "campo_obrigatorio", "q");
  CHECK(request("GET", "/cep?q=13015", {})->status == 401);
}

TEST_CASE("the city routes answer the configured cities, to their own tenant's users") {
  PlatformFixture fx([](platform::AppOptions& o) { o.city_routes = {"alfa"}; });
  fx.stack->load_demo("alfa", 20);
  World w(fx);
  std::string inscricao = w.db("select min(inscricao) from cadastro.lote");
  w.db("insert into geografia.zonas (codigo, nome, observacao, geom) select 'ZR1', 'Zona Residencial 1', "
       "'gabarito de 2 pavimentos', st_multi(st_buffer(st_envelope(st_collect(geom)), 0.001)) from cadastro.lote "
       "returning id");
  w.db("insert into geografia.observacoes (inscricao, texto, autor) values (" + World::q(inscricao) +
       ", 'muro sobre o passeio', 'fiscal') returning id");
  w.db("insert into geografia.observacoes (inscricao, texto) values ('outra', 'nada') returning id");

  auto zonas = fx.get("/zonas/alfa", w.reader);
  REQUIRE_MESSAGE(zonas->status == 200, zonas->body);
  CHECK(test::strings_of(*zonas, "codigo") == std::vector<std::string>{"ZR1"});
  CHECK(double(zonas->json().at(0)["areaM2"]) > 0);
  auto notes = fx.get("/observacoes/alfa?inscricao=" + http::percent_encode(inscricao), w.reader);
  REQUIRE_MESSAGE(notes->status == 200, notes->body);
  CHECK(int64_t(notes->json()["totalElements"]) == 1);
  CHECK(int64_t(fx.get("/observacoes/alfa", w.reader)->json()["totalElements"]) == 2);
  auto lot = fx.get("/consulta/alfa?inscricao=" + http::percent_encode(inscricao), w.reader);
  REQUIRE_MESSAGE(lot->status == 200, lot->body);
  CHECK(std::string_view(lot->json()["inscricao"]) == inscricao);
  CHECK(std::string_view(lot->json()["zonas"].at(0)["codigo"]) == "ZR1");
  CHECK(double(lot->json()["zonas"].at(0)["proporcao"]) == doctest::Approx(1.0));
  CHECK(std::string_view(lot->json()["observacoes"].at(0)["texto"]) == "muro sobre o passeio");

  refused(*fx.get("/consulta/alfa?inscricao=nao-existe", w.reader), 404, "nao_encontrado", "inscri");
  refused(*fx.get("/consulta/alfa", w.reader), 400, "campo_obrigatorio", "inscricao");
  // Another city: not configured, or not the caller's tenant.
  refused(*fx.get("/zonas/beta", w.reader), 404, "nao_encontrado");
  refused(*fx.get("/zonas/beta", w.other_tenant), 404, "nao_encontrado");
  refused(*fx.get("/zonas/alfa", w.other_tenant), 404, "nao_encontrado");
  refused(*fx.get("/observacoes/alfa", w.other_tenant), 404, "nao_encontrado");
  refused(*fx.get("/consulta/alfa?inscricao=" + http::percent_encode(inscricao), w.other_tenant), 404, "nao_encontrado");
  refused(*fx.get("/zonas/" + http::percent_encode("alfa;drop"), w.reader), 400, "parametro_invalido", "cidade");
  CHECK(fx.request("GET", "/zonas/alfa", {})->status == 401);
  CHECK(fx.request("GET", "/observacoes/alfa", {})->status == 401);
  CHECK(fx.request("GET", "/consulta/alfa?inscricao=1", {})->status == 401);
}
