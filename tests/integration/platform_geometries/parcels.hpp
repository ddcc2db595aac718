// The geometries suite's workspace: a project of tenant alfa with a polygon layer of lots
// (a form with inscricao and area), a polygon layer of blocks (a form with the same chaves,
// for the copies) and a point layer, owned by a user who is not a tenant administrator,
// plus the callers the permission checks need. The structure goes straight into the
// tenant's database (its routes have their own suites); the geometries go through the
// routes under test.
//
// Lots are built in UTM 23S (EPSG:31983, metres) around E 610000, N 7795000 and sent with
// "srid": 31983, so their sides and areas are known in metres.
#pragma once

#include <latch>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

struct Parcels {
  PlatformFixture& fx;
  Session owner, editor, reader, stranger, other_tenant;
  std::int64_t project = 0, lots = 0, blocks = 0, points = 0, lot_form = 0, block_form = 0;
  std::map<std::string, std::int64_t> field, block_field;  ///< chave → id

  explicit Parcels(PlatformFixture& f) : fx(f) {
    owner = user("dono@alfa.gov.br");
    editor = user("editor@alfa.gov.br");
    reader = user("leitor@alfa.gov.br");
    stranger = user("estranho@alfa.gov.br");
    other_tenant = f.admin("beta", "chefe@beta.gov.br");
    project = id("insert into projeto.projetos (nome, criado_por) values ('Cadastro', " + n(owner.user_id) +
                 ") returning id");
    share(editor, "edicao");
    share(reader, "leitura");
    lots = new_layer("lotes", "poligono");
    blocks = new_layer("quadras", "poligono");
    points = new_layer("postes", "ponto");
    lot_form = id("insert into projeto.formularios (camada_id, nome) values (" + n(lots) + ", 'Lote') returning id");
    block_form = id("insert into projeto.formularios (camada_id, nome) values (" + n(blocks) + ", 'Quadra') returning id");
    for (auto [chave, tipo] : {std::pair{"inscricao", "texto"}, {"area", "decimal"}}) {
      field[chave] = add_field(lot_form, chave, tipo);
      block_field[chave] = add_field(block_form, chave, tipo);
    }
  }

  static std::string n(std::int64_t v) { return std::to_string(v); }
  std::string db(const std::string& sql) const { return query_value(fx.stack->tenant_dsn("alfa"), sql); }
  std::int64_t id(const std::string& sql) const { return std::stoll(db(sql)); }
  Session user(const std::string& email) const {
    TestUser u = fx.stack->add_user("alfa", email, {"*:rw"});
    return fx.login(u.email, u.password);
  }
  void share(const Session& who, const std::string& papel) const {
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(project) +
       ", " + n(who.user_id) + ", '" + papel + "', " + n(owner.user_id) + ") returning 1");
  }
  std::int64_t new_layer(const std::string& nome, const std::string& geometria) const {
    return id("insert into projeto.camadas (projeto_id, nome, geometria, criado_por) values (" + n(project) + ", '" +
              nome + "', '" + geometria + "', " + n(owner.user_id) + ") returning id");
  }
  std::int64_t add_field(std::int64_t form, const std::string& chave, const std::string& tipo) const {
    return id("insert into projeto.campos (formulario_id, nome, chave, tipo) values (" + n(form) + ", '" + chave +
              "', '" + chave + "', '" + tipo + "') returning id");
  }
  /// The table of field `campo`'s layer (its values: column c_<campo>).
  std::string table_of(std::int64_t campo) const {
    return "camadas.l" + db("select projeto.camada_do_campo(" + n(campo) + ")");
  }
  /// A value put straight into the database (the value routes have their own suite): the
  /// field's column of the geometry's row in the layer's table.
  void value(std::int64_t geometria, std::int64_t campo, const std::string& sql_value) const {
    const std::string c = "c_" + n(campo);
    db("insert into " + table_of(campo) + " (id, " + c + ") values (" + n(geometria) + ", " + sql_value +
       ") on conflict (id) do update set " + c + " = excluded." + c + " returning 1");
  }
  /// The value of field `campo` of geometry `geometria` as its column holds it ("" for none).
  std::string stored(std::int64_t geometria, std::int64_t campo) const {
    return db("select (select c_" + n(campo) + " from " + table_of(campo) + " where id = " + n(geometria) + ")");
  }

  /// A rectangle in UTM 23S: corner (e, nn) plus width × height metres, as WKT.
  static std::string utm_rect(double e, double nn, double width, double height) {
    auto c = [](double v) { return std::to_string(v); };
    return "POLYGON((" + c(e) + " " + c(nn) + "," + c(e + width) + " " + c(nn) + "," + c(e + width) + " " +
           c(nn + height) + "," + c(e) + " " + c(nn + height) + "," + c(e) + " " + c(nn) + "))";
  }
  /// POST /geometrias of a UTM 23S rectangle as `who`; the answer.
  std::unique_ptr<Answer> post_rect(std::int64_t camada, double e, double nn, double width, double height,
                                    const Session& who) const {
    return fx.post("/geometrias", R"({"idCamada":)" + n(camada) + R"(,"srid":31983,"wkt":")" +
                                      utm_rect(e, nn, width, height) + R"("})",
                   who);
  }
  /// A lot created by the owner (must succeed); its id.
  std::int64_t rect(double e, double nn, double width, double height, std::int64_t camada = 0) const {
    auto a = post_rect(camada ? camada : lots, e, nn, width, height, owner);
    REQUIRE_MESSAGE(a->status == 201, a->body);
    return int64_t(a->json()["id"]);
  }
  /// A lon/lat point of UTM 23S coordinates.
  std::pair<double, double> lonlat(double e, double nn) const {
    std::string xy = db("select st_x(p) || ' ' || st_y(p) from (select st_transform(st_setsrid(st_makepoint(" +
                        std::to_string(e) + ", " + std::to_string(nn) + "), 31983), 4674) p) q");
    auto space = xy.find(' ');
    return {std::stod(xy.substr(0, space)), std::stod(xy.substr(space + 1))};
  }
  /// The geometry's area on the ellipsoid, m².
  double area(std::int64_t g) const {
    return std::stod(db("select st_area(geom::geography) from projeto.geometrias where id = " + n(g)));
  }
  std::string count(const std::string& table, const std::string& where = "true") const {
    return db("select count(*) from projeto." + table + " where " + where);
  }
  /// Every value (in the layers' tables) as a relation of rows geometria_id, campo_id,
  /// valor (jsonb) and texto (its text).
  static constexpr const char* kValues =
      "(select g.id as geometria_id, v.campo_id, v.valor, v.valor #>> '{}' as texto from projeto.geometrias g "
      "cross join lateral projeto.valores_de(g.id) v)";
  /// How many values meet `where` (over kValues' columns).
  std::string count_values(const std::string& where = "true") const {
    return db("select count(*) from " + std::string(kValues) + " v where " + where);
  }
  std::string generation(std::int64_t camada) const {
    return db("select geracao from projeto.camadas where id = " + n(camada));
  }
  std::string version(std::int64_t g) const { return db("select versao from projeto.geometrias where id = " + n(g)); }
};

/// The id of `who`'s session (the platform stores the SHA-256 of its token).
inline std::int64_t session_of(const PlatformFixture& fx, const Session& who) {
  return std::stoll(fx.platform_db("select id from plataforma.sessoes where token_hash = "
                                   "encode(sha256(convert_to('" + who.token + "', 'UTF8')), 'hex')"));
}

/// The "geometria_alterada" events of tenant alfa that `who`'s session hears while alive:
/// an event goes once to each session that may see its layer, so listening as one session
/// (one who sees the layers, as the owner does) hears each event once.
struct Heard {
  PlatformFixture& fx;
  std::mutex m;
  std::vector<std::string> events;
  // The events of the writes before it are delivered first, so that none of them is heard
  // (under load the listener may still be behind them when the subscription starts).
  bool settled;
  service::EventBus::Subscription sub;
  Heard(PlatformFixture& f, const Session& who)
      : fx(f), settled((f.settle_events(), true)), sub(f.app->events().subscribe(f.tenant_id("alfa"), [this](const service::Event& e) {
          std::lock_guard lock(m);
          if (e.type == "geometria_alterada") events.push_back(e.json);
        }, session_of(f, who))) {}
  // Each read first waits for every event published so far (settle_events).
  std::size_t size() {
    fx.settle_events();
    std::lock_guard lock(m);
    return events.size();
  }
  std::string last() {
    fx.settle_events();
    std::lock_guard lock(m);
    return events.empty() ? std::string() : events.back();
  }
  /// How many events name `operacao`.
  std::size_t count(const std::string& operacao) {
    fx.settle_events();
    std::lock_guard lock(m);
    std::size_t k = 0;
    for (const auto& e : events) k += e.find("\"operacao\":\"" + operacao + "\"") != std::string::npos;
    return k;
  }
};

/// Percent-encodes a query value.
inline std::string encode(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_') out += static_cast<char>(c);
    else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

/// The same POST sent by two clients at once (released together by a latch): each one's
/// status and body, for the tests of idempotent batches racing.
struct Raced {
  int status[2] = {0, 0};
  std::string body[2];
};
inline Raced post_twice_at_once(PlatformFixture& fx, const std::string& path, const std::string& body,
                                const Session& who) {
  Raced out;
  std::latch start(2);
  auto client = [&](int i) {
    start.arrive_and_wait();
    auto r = fx.post(path, body, who);
    out.status[i] = r->status;
    out.body[i] = r->body;
  };
  std::thread t1(client, 0), t2(client, 1);
  t1.join();
  t2.join();
  return out;
}

}  // namespace cadastre::test
