// The permission matrix of the platform's project routes, generated rather than listed: for
// every route of the table whose permission names a record (http::on), and every standing a
// caller can have (tenant administrator, creator, a share of each role, a published
// project, a private layer, a right on the layer, inactive project or layer), a fresh set
// of records is made and the route is called. What the route must answer comes from a
// model of the rules written here, independently of the SQL that implements them
// (projeto.papel_projeto / papel_camada): nothing visible → 404, too weak a role → 403, an
// edit in an inactive state → 409, otherwise the guard lets the call through (whatever the
// handler then says about the empty body; the guard's refusals are known by their words).
#include <map>
#include <regex>
#include <set>

#include "integration/platform/fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::Session;
using test::TestUser;
using test::query_value;

namespace {

struct Standing {
  std::string caller = "X";  // A: the tenant's administrator, C: the project's creator, X: another user
  std::string share;         // X's share on the project
  bool published = false, private_layer = false;
  std::string layer_right;   // X's right on the layer
  bool project_active = true, layer_active = true;

  std::string describe() const {
    return "chamador " + caller + ", compartilhamento '" + share + "', publicado " + (published ? "sim" : "não") +
           ", camada privada " + (private_layer ? "sim" : "não") + ", direito na camada '" + layer_right +
           "', projeto " + (project_active ? "ativo" : "inativo") + ", camada " + (layer_active ? "ativa" : "inativa");
  }
};

// Every standing: A and C in each state; X with each share × privacy × layer right, and
// with only a published project.
std::vector<Standing> standings() {
  std::vector<Standing> out;
  for (std::string caller : {"A", "C"})
    for (int state = 0; state < 3; ++state) {
      Standing s;
      s.caller = caller;
      s.project_active = state != 1;
      s.layer_active = state != 2;
      out.push_back(s);
    }
  for (std::string share : {"", "leitura", "edicao", "admin"})
    for (bool priv : {false, true})
      for (std::string right : {"", "leitura", "edicao"}) {
        Standing s;
        s.share = share;
        s.private_layer = priv;
        s.layer_right = right;
        out.push_back(s);
      }
  for (bool priv : {false, true}) {
    Standing s;
    s.published = true;
    s.private_layer = priv;
    out.push_back(s);
  }
  return out;
}

int rank(const std::string& role) {
  static const std::map<std::string, int> r{{"", 0}, {"leitura", 1}, {"edicao", 2}, {"admin", 3}, {"gestao", 3}};
  return r.at(role);
}

// The rules, as docs/platform-projects.md states them.
std::string project_role(const Standing& s) {
  if (s.caller != "X") return "admin";
  if (!s.share.empty()) return s.share;
  if (s.published || !s.layer_right.empty()) return "leitura";
  return "";
}
std::string layer_role(const Standing& s) {
  std::string p = project_role(s);
  if (p == "admin") return p;
  if (!s.layer_right.empty()) return s.layer_right;
  return s.private_layer ? "" : p;
}

// Records whose role is the project's (the others are a layer's).
bool project_level(const std::string& record) {
  return record == "projeto" || record == "camada_adicional" || record == "mapa_personalizado" ||
         record == "variograma" || record == "modelo_avaliacao";
}

// Records of the platform database (users, comments): their rules are not a project's
// standing, and tests/integration/platform/test_users.cpp and the wikimap tests pin them.
bool account_record(const std::string& record) { return record == "usuario" || record == "comentario"; }

// What the guard must do: 404, 403, 409, or 0 for "lets it through".
int expected(const Standing& s, const http::Access& a) {
  std::string held = project_level(a.record) ? project_role(s) : layer_role(s);
  if (held.empty()) return 404;
  if (rank(held) < rank(a.role)) return 403;
  bool edit = a.role == "edicao" || a.role == "admin";
  if (edit && (!s.project_active || (!project_level(a.record) && !s.layer_active))) return 409;
  return 0;
}

// Other ids a route takes (a layer in the query, a path id): one no tenant has, so a handler
// that checks it refuses in words that name it, never the route's record.
const std::string kFiller = "9000000000000000000";

struct World {
  std::map<std::string, std::string> ids;  // record kind → id
};

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "every record route's guard follows the role rules for every standing") {
  TestUser admin_user = stack->add_user("alfa", "adm-matriz@alfa.gov.br", {}, true);
  TestUser creator_user = stack->add_user("alfa", "criador-matriz@alfa.gov.br", {});
  TestUser other_user = stack->add_user("alfa", "outro-matriz@alfa.gov.br", {});
  std::map<std::string, Session> callers{{"A", login(admin_user.email, admin_user.password)},
                                         {"C", login(creator_user.email, creator_user.password)},
                                         {"X", login(other_user.email, other_user.password)}};
  const std::string C = std::to_string(callers["C"].user_id), X = std::to_string(callers["X"].user_id);
  const std::string dsn = stack->tenant_dsn("alfa");

  auto make_world = [&](const Standing& s) {
    auto lit = [](const std::string& v) { return v.empty() ? std::string("null") : "'" + v + "'"; };
    auto flag = [](bool b) { return b ? std::string("true") : std::string("false"); };
    // The project, its layer and its form first, then the field: the layer's table comes with
    // the layer, and the field's column with the field (triggers that run at the end of their
    // statement); the value last, in the field's column.
    std::string pcf = query_value(
        dsn,
        "with p as (insert into projeto.projetos (nome, criado_por, publicado, ativo) values ('matriz', " + C + ", " +
            flag(s.published) + ", " + flag(s.project_active) +
            ") returning id), "
            "c as (insert into projeto.camadas (projeto_id, nome, criado_por, privada, ativo) select id, 'c', " + C +
            ", " + flag(s.private_layer) + ", " + flag(s.layer_active) +
            " from p returning id), "
            "f as (insert into projeto.formularios (camada_id, nome) select id, 'f' from c returning id) "
            "select concat_ws(',', p.id, c.id, f.id) from p, c, f");
    const std::size_t c1 = pcf.find(','), c2 = pcf.find(',', c1 + 1);
    const std::string P = pcf.substr(0, c1), L = pcf.substr(c1 + 1, c2 - c1 - 1), F = pcf.substr(c2 + 1);
    std::string row = query_value(
        dsn,
        "with p as (select " + P + "::bigint as id), c as (select " + L + "::bigint as id), f as (select " + F +
            "::bigint as id), "
            "k as (insert into projeto.campos (formulario_id, nome, chave, tipo) select id, 'k', 'k', 'texto' from f "
            "returning id, posicao), "
            "g as (insert into projeto.geometrias (camada_id, geom) select id, "
            "st_geomfromtext('POINT(-47.06 -22.9)', 4674) from c returning id), "
            // The value's id, computed: 2^52 + geometry × 1024 + the field's position.
            "v as (select projeto.valor_id(g.id, k.posicao) as id from g, k), "
            "a as (insert into projeto.camadas_adicionais (projeto_id, nome, tipo, url) select id, 'a', 'xyz', "
            "'https://tiles.example/{z}/{x}/{y}.png' from p returning id), "
            "sh as (insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) select id, " + X +
            ", " + lit(s.share) + ", " + C + " from p where " + lit(s.share) +
            "::text is not null returning 1), "
            // The layer right of X, or (to have a row for the routes that manage rights) the creator's.
            "cu as (insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) select id, " +
            (s.layer_right.empty() ? C : X) + ", " + lit(s.layer_right.empty() ? "leitura" : s.layer_right) + ", " +
            C + " from c returning id), "
            "mp as (insert into projeto.mapas_personalizados (projeto_id, nome, camadas, criado_por) select id, 'm', "
            "'[]', " + C + " from p returning id), "
            "vg as (insert into projeto.variogramas (projeto_id, nome, tipo, pepita, contribuicao, alcance, camada_id, "
            "campo_id, epsg, criado_por) select p.id, 'v', 'esferico', 0, 1, 100, c.id, k.id, 31983, " + C +
            " from p, c, k returning id), "
            "rc as (insert into projeto.relatorios_camada (camada_id, nome, campos, criado_por) select c.id, 'r', "
            "array[k.id], " + C + " from c, k returning id), "
            "ma as (insert into projeto.modelos_avaliacao (projeto_id, camada_id, nome, especificacao, coeficientes, "
            "resultado, criado_por) select p.id, c.id, 'm', '{}', '[]', '{}', " + C + " from p, c returning id), "
            "ar as (insert into projeto.arquivos (finalidade, projeto_id, camada_id, geometria_id, nome, chave, "
            "tipo_midia, tamanho, sha256, criado_por) select 'foto', p.id, c.id, g.id, 'f.jpg', 'alfa.' || h || "
            "'.jpg', 'image/jpeg', 1, h, " + C + " from p, c, g, (select encode(sha256(random()::text::bytea), 'hex') "
            "h) r returning id) "
            "select concat_ws(',', p.id, c.id, f.id, k.id, g.id, v.id, a.id, cu.id, mp.id, vg.id, rc.id, ma.id, ar.id, "
            "(select count(*) from sh)) from p, c, f, k, g, v, a, cu, mp, vg, rc, ma, ar");
    static const char* kinds[] = {"projeto", "camada", "formulario", "campo", "geometria", "valor",
                                  "camada_adicional", "camada_usuario", "mapa_personalizado", "variograma",
                                  "relatorio_camada", "modelo_avaliacao", "arquivo"};
    World w;
    std::size_t at = 0;
    for (const char* kind : kinds) {
      std::size_t next = row.find(',', at);
      w.ids[kind] = row.substr(at, next - at);
      at = next + 1;
    }
    // The value v names: the geometry's, in the field's column of the layer's table.
    query_value(dsn, "insert into camadas.l" + L + " (id, c_" + w.ids["campo"] + ") values (" + w.ids["geometria"] +
                         ", 'x') returning 1");
    return w;
  };

  std::size_t routes = 0, calls = 0;
  std::set<std::string> records_seen;
  for (const http::Route& r : app->server().router().routes()) {
    if (r.access.kind != http::Access::Kind::record || account_record(r.access.record)) continue;
    ++routes;
    records_seen.insert(r.access.record);
    for (const Standing& s : standings()) {
      World w = make_world(s);
      const std::string& id = w.ids.at(r.access.record);
      // The path: the record's parameter gets its id; the others plausible values.
      std::string path = r.pattern, query;
      for (std::size_t open; (open = path.find('{')) != std::string::npos;) {
        std::size_t close = path.find('}', open);
        std::string name = path.substr(open, close - open + 1);
        std::string value = name == r.access.param ? id
                            : name == "{idTenant}" ? std::to_string(tenant_id("alfa"))
                            : name == "{idUsuario}" ? X
                                                    : kFiller;
        path.replace(open, close - open + 1, value);
      }
      // Required query parameters: a value the parameter checks (which run before the
      // guard) accept.
      for (const http::Param& p : r.params) {
        if (p.in != "query" || !p.required) continue;
        std::string value = p.name == r.access.param ? id
                            : !p.values.empty()    ? p.values.front()
                            : p.type == "boolean"  ? "true"
                                                   : kFiller;
        query += (query.empty() ? "?" : "&") + p.name + "=" + value;
      }
      // A record named by the body: the body names it (and nothing else).
      std::string body = r.method == "POST" || r.method == "PUT" ? "{}" : "";
      if (r.access.param.rfind("corpo.", 0) == 0) body = "{\"" + r.access.param.substr(6) + "\":" + id + "}";
      auto a = request(r.method, path + query, headers(callers[s.caller]), body);
      ++calls;
      int want = expected(s, r.access);
      CAPTURE(s.describe());
      INFO(r.method << " " << r.pattern << " pede " << r.access.role << " em " << r.access.record << " → " << a->status
                    << " " << a->body);
      if (want == 0) {
        // None of the guard's refusals of the route's record (a handler may still refuse
        // the empty body, a state move that is not due, or another record it was given,
        // such as the filler ids, in its own words).
        CHECK(a->status != 401);
        for (const char* state_words : {"antes de editar", "é uma versão anterior"})
          CHECK(a->body.find(state_words) == std::string::npos);
        static const std::regex refusal("(não encontrado: |o seu papel em )[^0-9\"]*([0-9]+)");
        std::smatch m;
        if (std::regex_search(a->body, m, refusal)) CHECK_MESSAGE(m[2] != id, "o guarda recusou o registro da rota");
      } else {
        CHECK(a->status == want);
      }
    }
  }
  MESSAGE(routes << " rotas com permissão de registro, " << calls << " chamadas");
  CHECK(routes >= 60);
  for (const char* kind : {"projeto", "camada", "formulario", "campo", "valor", "camada_adicional", "camada_usuario",
                           "mapa_personalizado", "variograma", "relatorio_camada", "modelo_avaliacao", "arquivo"})
    CHECK_MESSAGE(records_seen.count(kind), "nenhuma rota protege " << kind);
}
