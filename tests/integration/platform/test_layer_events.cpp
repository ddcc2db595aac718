// Layer events on GET /socket: every committed write that changes how a layer is drawn or
// listed (create, update, state, privacy, labels and classes, delete) reaches, in order,
// the sockets of the sessions that may see the layer as
// {"tipo":"camada","operacao":"criar|alterar|estilo|excluir","idCamada","idProjeto","geracao"?,"idGeometria"?};
// a refused write announces nothing; another tenant, a user the project is not shared
// with and a user without a right on a private layer hear nothing of it.
//
// A socket that must hear nothing is checked by its next message: a later event it must
// hear (its own marker) comes first, so no test waits on silence.
#include "integration/platform/socket_client.hpp"
#include "integration/platform_layers/layers_fixture.hpp"

using namespace cadastre;
using test::Answer;
using test::Cast;
using test::LayersFixture;
using test::refused;
using test::Session;

namespace {

using test::Socket;

// The event text, exactly as the platform writes it.
std::string event(const std::string& operacao, std::int64_t camada, std::int64_t projeto,
                  std::optional<std::string> geracao, std::optional<std::int64_t> geometria = {}) {
  std::string out = R"({"tipo":"camada","operacao":")" + operacao + R"(","idCamada":)" + std::to_string(camada) +
                    R"(,"idProjeto":)" + std::to_string(projeto);
  if (geracao) out += R"(,"geracao":)" + *geracao;
  if (geometria) out += R"(,"idGeometria":)" + std::to_string(*geometria);
  return out + "}";
}

// The generation in a layer answer.
std::string generation(Answer& a) { return std::to_string(int64_t(a.json()["geracao"])); }

}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a layer's writes reach its viewers' sockets in order with the new generation; refused writes announce nothing") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t lotes = layer(c.owner, p, "Lotes");
  std::int64_t ficha = form(lotes);
  std::int64_t campo = field(ficha, "inscricao", "texto"), angulo = field(ficha, "angulo", "decimal");
  std::int64_t g = geometry(lotes, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  settle_events();  // what was published above is delivered before the sockets open
  Socket reader(app->server().port(), c.reader);  // a read-only share hears everything it sees
  Socket owner(app->server().port(), c.owner);

  // Create.
  auto made = post("/camadas", R"({"idProjeto":)" + std::to_string(p) + R"(,"nome":"Quadras","geometria":"poligono"})", c.owner);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  std::int64_t quadras = int64_t(made->json()["id"]);
  CHECK(reader.read() == event("criar", quadras, p, generation(*made)));

  // Rename.
  auto renamed = put("/camadas/" + std::to_string(lotes), R"({"nome":"Lotes urbanos"})", c.owner);
  REQUIRE_MESSAGE(renamed->status == 200, renamed->body);
  CHECK(reader.read() == event("alterar", lotes, p, generation(*renamed)));

  // Refused writes: a bad body (400), a geometry type the layer's geometries do not have
  // (409, refused inside the transaction), a state it already is in (409), a label on a
  // field of another layer (400). None is announced: the next message is the next success.
  refused(*put("/camadas/" + std::to_string(lotes), R"({"geometria":"circulo"})", c.owner), 400, "parametro_invalido", "geometria");
  refused(*put("/camadas/" + std::to_string(lotes), R"({"geometria":"ponto"})", c.owner), 409, "conflito", "geometrias");
  refused(*post("/camadas/ativar/" + std::to_string(lotes), "", c.owner), 409, "transicao_invalida");
  std::int64_t alheio = field(form(quadras), "outro", "texto");
  refused(*post("/camadas/rotular?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(alheio), "", c.owner), 400,
          "parametro_invalido", "idCampo");
  refused(*put("/camadas/" + std::to_string(lotes), R"({"nome":"x"})", c.reader), 403, "acesso_negado");

  // Style: the layer's labels, its classes, one geometry's own label.
  auto labelled = post("/camadas/rotular?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(campo), "", c.owner);
  REQUIRE_MESSAGE(labelled->status == 200, labelled->body);
  CHECK(reader.read() == event("estilo", lotes, p, generation(*labelled)));
  auto classed = post("/camadas/categorizar?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(campo), "", c.owner);
  REQUIRE_MESSAGE(classed->status == 200, classed->body);
  CHECK(reader.read() == event("estilo", lotes, p, generation(*classed)));
  auto own = post("/camadas/rotulargeometria?idGeometria=" + std::to_string(g), R"({"texto":"Lote 7"})", c.owner);
  REQUIRE_MESSAGE(own->status == 200, own->body);
  CHECK(reader.read() == event("estilo", lotes, p, layer_column(lotes, "geracao"), g));
  auto turned = post("/camadas/rotular/rotacao?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(angulo), "", c.owner);
  REQUIRE_MESSAGE(turned->status == 200, turned->body);
  CHECK(reader.read() == event("estilo", lotes, p, generation(*turned)));
  auto own_turn = post("/camadas/rotulargeometria/rotacao?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(angulo) +
                           "&idGeometria=" + std::to_string(g), "", c.owner);
  REQUIRE_MESSAGE(own_turn->status == 200, own_turn->body);
  CHECK(reader.read() == event("estilo", lotes, p, layer_column(lotes, "geracao"), g));
  // /categorizarFront stores (and announces) classes only when it computes them: the field
  // categorised above serves as stored, announcing nothing; atualizar=true recomputes.
  REQUIRE(post("/camadas/categorizarFront?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(campo), "", c.owner)->status == 200);
  REQUIRE(post("/camadas/categorizarFront?idCamada=" + std::to_string(lotes) + "&idCampo=" + std::to_string(campo) + "&atualizar=true", "",
               c.owner)->status == 200);
  CHECK(reader.read() == event("estilo", lotes, p, layer_column(lotes, "geracao")));

  // State: inactive, active again; order through PUT.
  auto off = post("/camadas/inativar/" + std::to_string(lotes), "", c.owner);
  REQUIRE_MESSAGE(off->status == 200, off->body);
  CHECK(reader.read() == event("alterar", lotes, p, generation(*off)));
  refused(*post("/camadas/inativar/" + std::to_string(lotes), "", c.owner), 409, "transicao_invalida");
  auto on = post("/camadas/ativar/" + std::to_string(lotes), "", c.owner);
  REQUIRE_MESSAGE(on->status == 200, on->body);
  CHECK(reader.read() == event("alterar", lotes, p, generation(*on)));
  auto moved = put("/camadas/" + std::to_string(lotes), R"({"ordem":5})", c.owner);
  REQUIRE_MESSAGE(moved->status == 200, moved->body);
  CHECK(reader.read() == event("alterar", lotes, p, generation(*moved)));

  // Delete: no generation (the layer is gone). A second delete is a 404 and says nothing.
  REQUIRE(del("/camadas/" + std::to_string(lotes), c.owner)->status == 204);
  CHECK(reader.read() == event("excluir", lotes, p, std::nullopt));
  refused(*del("/camadas/" + std::to_string(lotes), c.owner), 404, "nao_encontrado");
  REQUIRE(del("/camadas/" + std::to_string(quadras), c.owner)->status == 204);
  CHECK(reader.read() == event("excluir", quadras, p, std::nullopt));

  // The writer's own socket heard the same sequence.
  for (const char* operacao : {"criar", "alterar", "estilo", "estilo", "estilo", "estilo", "estilo", "estilo",
                               "alterar", "alterar", "alterar", "excluir", "excluir"})
    CHECK(owner.read().find(std::string(R"("operacao":")") + operacao + "\"") != std::string::npos);
}

TEST_CASE_FIXTURE(LayersFixture, "a layer's events reach only the sessions that may see it: not another tenant, not an unshared user, not a private layer's outsiders") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t aberta = layer(c.owner, p, "Aberta");
  std::int64_t sigilosa = layer(c.owner, p, "Sigilosa", "poligono", R"(,"privada":true)");
  // The editor has a right on the private layer; the reader has only the project's share.
  db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + std::to_string(sigilosa) +
     ", " + std::to_string(c.editor.user_id) + ", 'leitura', " + std::to_string(c.owner.user_id) + ")");
  // The stranger and beta's user each own a project of their own, for their markers.
  std::int64_t deles = id_of("insert into projeto.projetos (nome, criado_por) values ('Deles', " +
                             std::to_string(c.stranger.user_id) + ") returning id");
  std::int64_t beta_p = std::stoll(db("insert into projeto.projetos (nome, criado_por) values ('Beta', " +
                                      std::to_string(c.beta.user_id) + ") returning id", "beta"));
  settle_events();  // the layers' creation is delivered before the sockets open
  Socket owner(app->server().port(), c.owner), editor(app->server().port(), c.editor),
      reader(app->server().port(), c.reader), stranger(app->server().port(), c.stranger),
      beta(app->server().port(), c.beta);

  // The private layer's rename: its owner and the editor (a right on it) hear it.
  auto hidden = put("/camadas/" + std::to_string(sigilosa), R"({"nome":"Sigilosa 2"})", c.owner);
  REQUIRE_MESSAGE(hidden->status == 200, hidden->body);
  std::string secret = event("alterar", sigilosa, p, generation(*hidden));
  CHECK(owner.read() == secret);
  CHECK(editor.read() == secret);

  // The open layer's rename: the reader's first message is this one, not the private one.
  auto open = put("/camadas/" + std::to_string(aberta), R"({"nome":"Aberta 2"})", c.owner);
  REQUIRE_MESSAGE(open->status == 200, open->body);
  std::string opened = event("alterar", aberta, p, generation(*open));
  CHECK(reader.read() == opened);
  CHECK(owner.read() == opened);
  CHECK(editor.read() == opened);

  // Made private: announced once more to the reader, who saw it before and loses it now;
  // then nothing more of it reaches the reader (whose next message is a new open layer).
  auto closed = put("/camadas/privada/" + std::to_string(aberta), R"({"privada":true})", c.owner);
  REQUIRE_MESSAGE(closed->status == 200, closed->body);
  std::string closing = event("alterar", aberta, p, generation(*closed));
  CHECK(reader.read() == closing);
  CHECK(owner.read() == closing);
  CHECK(editor.read() == closing);
  auto after = put("/camadas/" + std::to_string(aberta), R"({"descricao":"fechada"})", c.owner);
  REQUIRE_MESSAGE(after->status == 200, after->body);
  CHECK(owner.read() == event("alterar", aberta, p, generation(*after)));
  REQUIRE(del("/camadas/" + std::to_string(sigilosa), c.owner)->status == 204);
  CHECK(owner.read() == event("excluir", sigilosa, p, std::nullopt));
  CHECK(editor.read() == event("excluir", sigilosa, p, std::nullopt));
  std::int64_t nova = layer(c.owner, p, "Nova");
  std::string created = event("criar", nova, p, layer_column(nova, "geracao"));
  CHECK(reader.read() == created);
  CHECK(owner.read() == created);
  CHECK(editor.read() == created);

  // The stranger (no share on the project) and beta's user heard none of it: their first
  // message is their own layer's creation.
  std::int64_t propria = layer(c.stranger, deles, "Própria");
  CHECK(stranger.read() == event("criar", propria, deles, layer_column(propria, "geracao")));
  auto b = post("/camadas", R"({"idProjeto":)" + std::to_string(beta_p) + R"(,"nome":"Beta","geometria":"ponto"})", c.beta);
  REQUIRE_MESSAGE(b->status == 201, b->body);
  CHECK(beta.read() == event("criar", int64_t(b->json()["id"]), beta_p, generation(*b)));
  // ...and alfa's sockets hear nothing of beta's layer: the owner's next message is alfa's.
  REQUIRE(put("/camadas/" + std::to_string(nova), R"({"ordem":9})", c.owner)->status == 200);
  CHECK(owner.read().find(R"("idCamada":)" + std::to_string(nova) + ",") != std::string::npos);
}

TEST_CASE_FIXTURE(LayersFixture, "a write through one instance reaches the sockets on another, in order and with the same privacy") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t aberta = layer(c.owner, p, "Aberta");
  std::int64_t sigilosa = layer(c.owner, p, "Sigilosa", "poligono", R"(,"privada":true)");
  auto b = another_instance();  // a second machine: same databases, its own sockets
  Socket owner(b->server().port(), c.owner), reader(b->server().port(), c.reader);

  // Through A (the fixture's app): the private layer's rename reaches the owner on B only;
  // the reader on B (the project's share, no right on the private layer) hears the open
  // layer's rename first.
  auto hidden = put("/camadas/" + std::to_string(sigilosa), R"({"nome":"Sigilosa 2"})", c.owner);
  REQUIRE_MESSAGE(hidden->status == 200, hidden->body);
  auto open = put("/camadas/" + std::to_string(aberta), R"({"nome":"Aberta 2"})", c.owner);
  REQUIRE_MESSAGE(open->status == 200, open->body);
  CHECK(owner.read() == event("alterar", sigilosa, p, generation(*hidden)));
  CHECK(owner.read() == event("alterar", aberta, p, generation(*open)));
  CHECK(reader.read() == event("alterar", aberta, p, generation(*open)));

  // Five quick writes through A and B by turns arrive on B in the order they committed.
  std::vector<std::string> sent;
  for (int i = 0; i < 5; ++i) {
    const std::string path = "/camadas/" + std::to_string(aberta), body = R"({"descricao":"v)" + std::to_string(i) + R"("})";
    auto a = i % 2 ? put_on(*b, path, body, c.owner) : put(path, body, c.owner);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    sent.push_back(event("alterar", aberta, p, generation(*a)));
  }
  for (const auto& e : sent) CHECK(reader.read() == e);

  // A logout through A closes the session's socket on B.
  REQUIRE(post("/logout", "", c.reader)->status == 204);
  CHECK(reader.read().find("sessao_revogada") != std::string::npos);
  CHECK(reader.closed_with() == 1008);
}
