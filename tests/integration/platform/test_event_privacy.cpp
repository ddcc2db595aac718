// Who hears the data events on GET /socket: a geometry or value edit of a layer
// ("geometria_alterada", "valor_alterado") reaches only the sessions whose user may see the
// layer (the guard's rule), and an import job's changes ({"tipo":"importacao",...}) only
// its creator's sessions; another tenant hears neither.
//
// As in test_layer_events.cpp, a socket that must hear nothing is checked by its next
// message: a later event it must hear (its marker) comes first, so no test waits on silence.

#include "integration/platform/socket_client.hpp"
#include "integration/platform_layers/layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::Session;

namespace {

// An import job runs on the runner's thread: a socket here waits up to a minute.
struct PatientSocket : test::Socket {
  PatientSocket(int port, const Session& who) : test::Socket(port, who, std::chrono::seconds(60)) {}
};

// The start of a geometry or value event of layer `camada` (the rest: version,
// generation, tiles).
std::string geometry_event(const std::string& operacao, std::int64_t camada, std::int64_t geometria) {
  return R"({"tipo":"geometria_alterada","operacao":")" + operacao + R"(","idCamada":)" + std::to_string(camada) +
         R"(,"idGeometria":)" + std::to_string(geometria) + ",";
}
std::string value_event(std::int64_t camada, std::int64_t geometria) {
  return R"({"tipo":"valor_alterado","idCamada":)" + std::to_string(camada) + R"(,"idGeometria":)" + std::to_string(geometria) + ",";
}
bool starts(const std::string& text, const std::string& head) { return text.rfind(head, 0) == 0; }

const char* kSquare = "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))";

// The layer event of a layer's creation, as the layer's creator hears it first.
std::string created(std::int64_t camada, std::int64_t projeto) {
  return R"({"tipo":"camada","operacao":"criar","idCamada":)" + std::to_string(camada) + R"(,"idProjeto":)" + std::to_string(projeto) + ",";
}

// The stranger (no share on the project) and beta's user heard nothing before: the first
// message each socket gets is the creation of a layer of their own (their marker).
void outsiders_heard_nothing(LayersFixture& fx, const Cast& c, PatientSocket& stranger, std::int64_t deles, PatientSocket& beta,
                             std::int64_t beta_p) {
  std::int64_t propria = fx.layer(c.stranger, deles, "Própria");
  std::string heard = stranger.read();
  CHECK_MESSAGE(starts(heard, created(propria, deles)), heard);
  auto b = fx.post("/camadas", R"({"idProjeto":)" + std::to_string(beta_p) + R"(,"nome":"Beta","geometria":"ponto"})", c.beta);
  REQUIRE_MESSAGE(b->status == 201, b->body);
  heard = beta.read();
  CHECK_MESSAGE(starts(heard, created(int64_t(b->json()["id"]), beta_p)), heard);
}

}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a private layer's geometry and value edits reach its owner and a user with a right on it, not a project share nor another tenant") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t aberta = layer(c.owner, p, "Aberta");
  std::int64_t sigilosa = layer(c.owner, p, "Sigilosa", "poligono", R"(,"privada":true)");
  // The editor has a right on the private layer; the reader has only the project's share.
  db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + std::to_string(sigilosa) +
     ", " + std::to_string(c.editor.user_id) + ", 'edicao', " + std::to_string(c.owner.user_id) + ")");
  std::int64_t campo = field(form(sigilosa), "inscricao", "texto");
  std::int64_t deles = id_of("insert into projeto.projetos (nome, criado_por) values ('Deles', " +
                             std::to_string(c.stranger.user_id) + ") returning id");
  std::int64_t beta_p = std::stoll(db("insert into projeto.projetos (nome, criado_por) values ('Beta', " +
                                      std::to_string(c.beta.user_id) + ") returning id", "beta"));
  // The layers' creation events, published above, are delivered before the sockets open:
  // a socket hears what is published after it.
  settle_events();
  PatientSocket owner(app->server().port(), c.owner), editor(app->server().port(), c.editor),
      reader(app->server().port(), c.reader), stranger(app->server().port(), c.stranger),
      beta(app->server().port(), c.beta);

  // A geometry of the private layer, by its owner: the owner and the editor hear it.
  auto made = post("/geometrias", R"({"idCamada":)" + std::to_string(sigilosa) + R"(,"wkt":")" + kSquare + "\"}", c.owner);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  std::int64_t g = int64_t(made->json()["id"]);
  std::string heard = owner.read();
  CHECK_MESSAGE(starts(heard, geometry_event("criar", sigilosa, g)), heard);
  CHECK(heard.find(R"("tiles":[")") != std::string::npos);
  CHECK(editor.read() == heard);

  // Its value, by the editor: both hear it.
  auto valued = post("/valores", R"({"idGeometria":)" + std::to_string(g) + R"(,"idCampo":)" + std::to_string(campo) + R"(,"valor":"0001"})",
                     c.editor);
  REQUIRE_MESSAGE(valued->status == 201, valued->body);
  heard = editor.read();
  CHECK_MESSAGE(starts(heard, value_event(sigilosa, g)), heard);
  CHECK(owner.read() == heard);

  // A geometry created with its values (the geometries area's path): both events, both users.
  auto both = post("/geometrias",
                   R"({"idCamada":)" + std::to_string(sigilosa) + R"(,"wkt":")" + kSquare + R"(","valores":[{"idCampo":)" +
                       std::to_string(campo) + R"(,"valor":"0002"}]})",
                   c.owner);
  REQUIRE_MESSAGE(both->status == 201, both->body);
  std::int64_t g2 = int64_t(both->json()["id"]);
  for (PatientSocket* who : {&owner, &editor}) {
    std::string first = who->read(), second = who->read();
    CHECK_MESSAGE(starts(first, geometry_event("criar", sigilosa, g2)), first);
    CHECK_MESSAGE(starts(second, value_event(sigilosa, g2)), second);
  }

  // The open layer's geometry: the reader's first message is this one, none of the above.
  auto marca = post("/geometrias", R"({"idCamada":)" + std::to_string(aberta) + R"(,"wkt":")" + kSquare + "\"}", c.owner);
  REQUIRE_MESSAGE(marca->status == 201, marca->body);
  heard = reader.read();
  CHECK_MESSAGE(starts(heard, geometry_event("criar", aberta, int64_t(marca->json()["id"]))), heard);
  CHECK(owner.read() == heard);
  CHECK(editor.read() == heard);

  // The stranger (no share on the project) and beta's user heard none of it: their first
  // message is their own layer's creation.
  outsiders_heard_nothing(*this, c, stranger, deles, beta, beta_p);
}

TEST_CASE_FIXTURE(LayersFixture, "an import job's events reach its creator's sessions only: not another user of the project, not another tenant") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t aberta = layer(c.owner, p, "Aberta");
  std::int64_t deles = id_of("insert into projeto.projetos (nome, criado_por) values ('Deles', " +
                             std::to_string(c.stranger.user_id) + ") returning id");
  std::int64_t beta_p = std::stoll(db("insert into projeto.projetos (nome, criado_por) values ('Beta', " +
                                      std::to_string(c.beta.user_id) + ") returning id", "beta"));
  Session phone = login("dono@alfa.gov.br", "senha-alfa");  // the creator's second session
  settle_events();  // the layer's creation is delivered before the sockets open
  PatientSocket owner(app->server().port(), c.owner), owner_phone(app->server().port(), phone),
      editor(app->server().port(), c.editor), reader(app->server().port(), c.reader),
      stranger(app->server().port(), c.stranger), beta(app->server().port(), c.beta);

  // A real job: the cadastre's streets into the project (the tenant's cadastre is empty, so
  // it runs and fails at once; its events are the same).
  auto a = post("/importar/icad/logradouros?codigo=privacidade&idProjeto=" + std::to_string(p), "", c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  const std::int64_t job = int64_t(a->json()["idImportacao"]);
  // Both of the creator's sessions hear it start and end.
  for (PatientSocket* who : {&owner, &owner_phone}) {
    std::vector<std::string> states;
    for (int i = 0; i < 20 && (states.empty() || (states.back() != "concluida" && states.back() != "falhou")); ++i) {
      std::string m = who->read();
      REQUIRE_MESSAGE(starts(m, R"({"tipo":"importacao","importacao":{)"), m);
      simdjson::dom::parser parser;
      simdjson::dom::element shown = parser.parse(m)["importacao"];
      REQUIRE_MESSAGE(int64_t(shown["idImportacao"]) == job, m);
      states.emplace_back(std::string_view(shown["estado"]));
    }
    REQUIRE(!states.empty());
    CHECK(states.front() == "executando");
    CHECK(states.back() == "falhou");
  }

  // The project's other users, who see its layers, heard none of it: their first message
  // is a new geometry in an open layer of the project.
  auto marca = post("/geometrias", R"({"idCamada":)" + std::to_string(aberta) + R"(,"wkt":")" + kSquare + "\"}", c.owner);
  REQUIRE_MESSAGE(marca->status == 201, marca->body);
  std::string heard = reader.read();
  CHECK_MESSAGE(starts(heard, geometry_event("criar", aberta, int64_t(marca->json()["id"]))), heard);
  CHECK(editor.read() == heard);
  CHECK(owner.read() == heard);
  CHECK(owner_phone.read() == heard);

  // Nor did the stranger or beta's user.
  outsiders_heard_nothing(*this, c, stranger, deles, beta, beta_p);
}
