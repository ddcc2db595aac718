// The ombudsman's public routes: a citizen without an account files a request in a
// municipality that enabled the ombudsman, gets a protocol and a token shown once, and
// follows the request with them; bad input names its field; filings are throttled per
// address.
#include "ouv_fixture.hpp"

using namespace cadastre;
using test::n;
using test::refused;

TEST_CASE_FIXTURE(test::OuvFixture, "a citizen files a request without an account and follows it with the token shown once") {
  enable("alfa");
  // Only municipalities that enabled the ombudsman are listed and answer.
  auto cities = anon("GET", "/ouv/cidades");
  REQUIRE_MESSAGE(cities->status == 200, cities->body);
  CHECK(cities->body.find("\"cidade\":\"alfa\"") != std::string::npos);
  CHECK(cities->body.find("\"cidade\":\"beta\"") == std::string::npos);
  auto legend = anon("GET", "/ouv/legenda?cidade=alfa");
  REQUIRE_MESSAGE(legend->status == 200, legend->body);
  CHECK(legend->body.find("\"chave\": \"buraco\"") != std::string::npos);
  refused(*anon("GET", "/ouv/legenda?cidade=beta"), 404, "nao_encontrado", "cidade");
  refused(*anon("GET", "/ouv/legenda"), 400, "campo_obrigatorio", "cidade");
  refused(*anon("GET", "/ouv/legenda?cidade=alfa%27%3Bdrop%20table%20x"), 400, "parametro_invalido", "cidade");

  // Filing, with a photo: protocol and token once; only the token's hash is stored.
  auto a = file("Buraco enorme na calçada da escola", R"(,"foto":")" + test::kPngBase64 + "\"");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string protocolo = a->text("protocolo"), token = a->text("token");
  std::int64_t id = int64_t(a->json()["id"]);
  CHECK(std::regex_match(protocolo, std::regex("OUV-[0-9]{4}-[0-9]{6}")));
  CHECK(token.size() == 64);
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos where token_hash = encode(sha256('" + token +
                  "'::bytea), 'hex') and foto_tipo = 'image/png' and status = 'aberto'") == "1");
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos p where p::text like '%" + token + "%'") == "0");
  CHECK(tenant_db("select string_agg(tipo, ',') from ouvidoria.historico where pedido_id = " + n(id)) == "abertura");

  // Following it up: by protocol or number, with the token; a message is recorded for the
  // staff and shown publicly only as the event.
  auto f = anon("POST", "/ouv/pedir/" + protocolo + "?cidade=alfa",
                R"({"token":")" + token + R"(","mensagem":"Alguma novidade? Moro ao lado"})");
  REQUIRE_MESSAGE(f->status == 200, f->body);
  CHECK(f->text("status") == "aberto");
  CHECK(f->text("protocolo") == protocolo);
  CHECK(f->body.find("pedido_informacao") != std::string::npos);
  CHECK(f->body.find("Moro ao lado") == std::string::npos);
  CHECK(tenant_db("select mensagem from ouvidoria.historico where tipo = 'pedido_informacao'") ==
        "Alguma novidade? Moro ao lado");
  auto by_id = anon("POST", "/ouv/pedir/" + n(id) + "?cidade=alfa", R"({"token":")" + token + R"("})");
  CHECK_MESSAGE(by_id->status == 200, by_id->body);
  refused(*anon("POST", "/ouv/pedir/" + protocolo + "?cidade=alfa", R"({"token":")" + std::string(64, 'a') + R"("})"),
          403, "acesso_negado", "token");
  refused(*anon("POST", "/ouv/pedir/OUV-2000-999999?cidade=alfa", R"({"token":")" + token + R"("})"), 404,
          "nao_encontrado");
  refused(*anon("POST", "/ouv/pedir/1%3Bdrop?cidade=alfa", R"({"token":")" + token + R"("})"), 400,
          "parametro_invalido", "id");
  refused(*anon("POST", "/ouv/pedir/" + protocolo + "?cidade=alfa", R"({"mensagem":"oi"})"), 400, "campo_obrigatorio",
          "token");
  // Another municipality does not know the request (beta has no ombudsman: 404 either way).
  refused(*anon("POST", "/ouv/pedir/" + protocolo + "?cidade=beta", R"({"token":")" + token + R"("})"), 404,
          "nao_encontrado", "cidade");

  // The public list: searched without accents, paged, newest first.
  filed("Lâmpada queimada na praça");
  auto list = anon("GET", "/ouv/?cidade=alfa&q=CALCADA");
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(int64_t(list->json()["totalElements"]) == 1);
  CHECK(list->body.find(protocolo) != std::string::npos);
  auto all = anon("GET", "/ouv/?cidade=alfa&pageSize=1");
  CHECK(int64_t(all->json()["totalElements"]) == 2);
  CHECK(all->body.find("praça") != std::string::npos);  // newest first
  refused(*anon("GET", "/ouv/?cidade=alfa&q=" + std::string(300, 'x')), 400, "parametro_invalido", "q");

  // Once beta has an ombudsman too, alfa's requests stay alfa's.
  enable("beta");
  CHECK(anon("GET", "/ouv/cidades")->body.find("\"cidade\":\"beta\"") != std::string::npos);
  refused(*anon("POST", "/ouv/pedir/" + protocolo + "?cidade=beta", R"({"token":")" + token + R"("})"), 404,
          "nao_encontrado", "pedido");
  CHECK(int64_t(anon("GET", "/ouv/?cidade=beta")->json()["totalElements"]) == 0);
}

TEST_CASE_FIXTURE(test::OuvFixture, "a request with bad input is refused naming the field and nothing is stored") {
  enable("alfa");
  auto post_json = [&](const std::string& body) { return anon("POST", "/ouv/contato?cidade=alfa", body); };
  const std::string place = R"("longitude":-47.06,"latitude":-22.9)";
  refused(*post_json(R"({"categoria":"buraco",)" + place + "}"), 400, "campo_obrigatorio", "descricao");
  refused(*post_json(R"({"descricao":"   ","categoria":"buraco",)" + place + "}"), 400, "parametro_invalido", "descricao");
  refused(*post_json(R"({"descricao":"x","categoria":"nada",)" + place + "}"), 400, "parametro_invalido", "categoria");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco","longitude":-47})"), 400, "campo_obrigatorio", "latitude");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco","longitude":200,"latitude":0})"), 400,
          "parametro_invalido", "longitude");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco","longitude":"a","latitude":0})"), 400,
          "parametro_invalido", "longitude");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"email":"não é e-mail"})"), 400,
          "parametro_invalido", "email");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"telefone":"ligue'; drop"})"), 400,
          "parametro_invalido", "telefone");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"senha":"1"})"), 400,
          "campo_desconhecido", "senha");
  refused(*post_json("{nope"), 400, "json_invalido");
  // Outside Brazil, and outside the municipality once it has mapped neighbourhoods.
  refused(*post_json(R"({"descricao":"x","categoria":"buraco","longitude":2.35,"latitude":48.85})"), 400,
          "parametro_invalido", "longitude");
  tenant_db("insert into cadastro.bairro (codigo, nome, geom) values ('1', 'Centro', st_multi(st_geomfromtext("
            "'POLYGON((-47.1 -22.95,-47.0 -22.95,-47.0 -22.85,-47.1 -22.85,-47.1 -22.95))', 4674))) returning id");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco","longitude":-46.5,"latitude":-23.5})"), 400,
          "parametro_invalido", "longitude");
  // Photos: the bytes decide (an executable named nothing is refused), bounded.
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"foto":"TVqQAAMAAAAEAAAA"})"), 415,
          "tipo_de_midia_nao_suportado", "aceito");
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"foto":"@@@"})"), 400,
          "parametro_invalido", "foto");
  std::string big(2900000, 'A');  // base64 of more than 2 MB
  refused(*post_json(R"({"descricao":"x","categoria":"buraco",)" + place + R"(,"foto":")" + big + "\"}"), 413,
          "corpo_muito_grande", "foto");
  // A body over the route's limit is refused before it is read.
  refused(*post_json(R"({"descricao":")" + std::string(4u << 20, 'a') + "\"}"), 413, "corpo_muito_grande");
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos") == "0");

  // Multipart: the same parts, the photo as a file; a path in its name is an attack.
  auto multipart = [&](const std::string& filename) {
    httplib::MultipartFormDataItems items = {
        {"descricao", "Poste caído", "", ""}, {"categoria", "iluminacao", "", ""}, {"longitude", "-47.05", "", ""},
        {"latitude", "-22.9", "", ""}, {"foto", store::base64_decode(test::kPngBase64), filename, "image/jpeg"}};
    return test::answer(client().Post("/ouv/contato?cidade=alfa", items), "multipart");
  };
  refused(*multipart("../../etc/passwd"), 400, "parametro_invalido", "foto");
  auto ok = multipart("poste.jpg");
  REQUIRE_MESSAGE(ok->status == 201, ok->body);
  // The stored type is the bytes' (png), not the client's claim (jpeg).
  CHECK(tenant_db("select foto_tipo || ',' || status from ouvidoria.pedidos") == "image/png,aberto");
}

TEST_CASE_FIXTURE(test::OuvFixture, "filings are throttled per client address") {
  enable("alfa");
  for (int i = 0; i < 10; ++i) {
    auto a = file("Pedido " + std::to_string(i));
    REQUIRE_MESSAGE(a->status == 201, a->body);
  }
  refused(*file("Um a mais"), 429, "muitas_requisicoes");
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos") == "10");
  // Reading is not throttled.
  CHECK(anon("GET", "/ouv/?cidade=alfa")->status == 200);
}
