// The geostatistics suite's workspace: the harness's stack with the demo city loaded in
// tenant alfa (its block faces are what /gerarPVGEO values), cadastre-platform with a file
// store, and a project of alfa owned by a tenant administrator with a layer of 49 sample
// points spread over the city's block faces (fields: vm2 — a smooth trend in x and y plus a
// little noise —, usar, area, frente, preco, nome), a layer with the domain polygon, and the
// callers the permission checks need. Structure and data go straight into the tenant's
// database: this suite pins down the geostatistics and mass appraisal routes alone.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

inline std::string files_root() { return "/tmp/geostat-arquivos-" + std::to_string(::getpid()); }

/// Writes `bytes` as `name` to the tests' output directory (CADASTRE_TEST_OUTPUT_DIR, else
/// /tmp/cadastre-test-output)/platform_geostat, for a person to look at the plots.
inline void save_output(const std::string& name, const std::string& bytes) {
  const char* env = std::getenv("CADASTRE_TEST_OUTPUT_DIR");
  std::filesystem::path dir = std::filesystem::path(env && *env ? env : "/tmp/cadastre-test-output") / "platform_geostat";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
}

class GeostatFixture : public PlatformFixture {
 public:
  GeostatFixture() : PlatformFixture([](platform::AppOptions& o) { o.files_dir = files_root(); }) {
    std::filesystem::create_directories(files_root());
    stack->load_demo("alfa", 40);
  }
  ~GeostatFixture() {
    std::error_code ec;
    std::filesystem::remove_all(files_root(), ec);
  }
};

struct Samples {
  PlatformFixture& fx;
  Session owner, reader, editor, stranger, other_tenant;
  std::int64_t project = 0, layer = 0, form = 0, domain_layer = 0, domain = 0, not_polygon = 0;
  std::map<std::string, std::int64_t> field;  ///< chave → id
  std::int64_t count = 49;

  explicit Samples(PlatformFixture& f) : fx(f) {
    owner = f.admin("alfa", "chefe-geo@alfa.gov.br");
    reader = user("leitor-geo@alfa.gov.br");
    editor = user("editor-geo@alfa.gov.br");
    stranger = user("estranho-geo@alfa.gov.br");
    other_tenant = f.admin("beta", "chefe-geo@beta.gov.br");
    project = id("insert into projeto.projetos (nome, criado_por) values ('Avaliação', " + n(owner.user_id) +
                 ") returning id");
    share(reader, "leitura");
    share(editor, "edicao");
    layer = new_layer("amostras", "ponto");
    form = id("insert into projeto.formularios (camada_id, nome) values (" + n(layer) + ", 'Amostra') returning id");
    for (auto [chave, tipo] : {std::pair{"vm2", "decimal"}, {"usar", "booleano"}, {"area", "decimal"},
                               {"frente", "decimal"}, {"preco", "decimal"}, {"nome", "texto"},
                               {"estimado", "decimal"}})
      add(chave, tipo);
    const std::string extent =
        "e as (select st_xmin(x) x0, st_ymin(x) y0, st_xmax(x) x1, st_ymax(x) y1 from (select "
        "st_extent(geom)::geometry x from cadastro.face_quadra) q)";
    db("with " + extent + ", ins as (insert into projeto.geometrias (camada_id, geom, criado_por) select " + n(layer) +
       ", st_setsrid(st_makepoint(x0 + (k % 7 + 0.5 + 0.2 * sin(k)) * (x1 - x0) / 7, y0 + (k / 7 + 0.5 + 0.2 * "
       "cos(k)) * (y1 - y0) / 7), 4674), " + n(owner.user_id) +
       " from generate_series(0, 48) k, e order by k returning id) select count(*) from ins");
    db("with " + extent + ", g as (select g.id, (row_number() over (order by g.id) - 1) k, st_x(g.geom) x, "
       "st_y(g.geom) y from projeto.geometrias g where g.camada_id = " + n(layer) +
       "), ins as (insert into " + table() + " (id, " + column("vm2") + ", " + column("area") + ", " +
       column("frente") + ", " + column("preco") + ", " + column("usar") + ", " + column("nome") + ") "
       "select id, round((200 + 300 * (x - x0) / (x1 - x0) + 100 * (y - y0) / (y1 - y0) + 15 * sin(k * 1.7))::numeric, "
       "2), 200 + (k * 37 % 300), 8 + (k * 13 % 15), round((50000 + 800 * (200 + (k * 37 % 300)) + 3000 * "
       "(8 + (k * 13 % 15)) + 5000 * sin(k * 2.3))::numeric, 2), k % 10 <> 9, 'amostra ' || k from g, e "
       "returning 1) select count(*) from ins");
    domain_layer = new_layer("dominio", "poligono");
    domain = id("insert into projeto.geometrias (camada_id, geom, criado_por) select " + n(domain_layer) +
                ", st_setsrid(st_expand(x, 0.05 * (st_xmax(x) - st_xmin(x))), 4674), " + n(owner.user_id) +
                " from (select st_extent(geom)::geometry x from cadastro.face_quadra) q returning id");
    not_polygon = first_sample();
  }

  static std::string n(std::int64_t v) { return std::to_string(v); }
  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(fx.stack->tenant_dsn(slug), sql);
  }
  std::int64_t id(const std::string& sql) const { return std::stoll(db(sql)); }
  /// The samples layer's table of values, and field `chave`'s column in it.
  std::string table() const { return "camadas.l" + n(layer); }
  std::string column(const std::string& chave) const { return "c_" + n(field.at(chave)); }
  std::int64_t first_sample() const {
    return id("select min(id) from projeto.geometrias where camada_id = " + n(layer));
  }

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
  void add(const std::string& chave, const std::string& tipo) {
    field[chave] = id("insert into projeto.campos (formulario_id, nome, chave, tipo, ordem) values (" + n(form) +
                      ", '" + chave + "', '" + chave + "', '" + tipo + "', " + n(std::int64_t(field.size())) +
                      ") returning id");
  }
  /// A decimal field `chave` in a new form of `camada`.
  std::int64_t decimal_field(std::int64_t camada, const std::string& chave) const {
    std::int64_t f = id("insert into projeto.formularios (camada_id, nome) values (" + n(camada) +
                        ", 'Ficha') returning id");
    return id("insert into projeto.campos (formulario_id, nome, chave, tipo) values (" + n(f) + ", '" + chave +
              "', '" + chave + "', 'decimal') returning id");
  }

  /// The /rlm body: preco ~ area + frente over the samples.
  std::string fit_body(const std::string& extra = "") const {
    return R"({"idCamada":)" + n(layer) + R"(,"dependente":{"idCampo":)" + n(field.at("preco")) +
           R"(},"independentes":[{"idCampo":)" + n(field.at("area")) + R"(},{"idCampo":)" + n(field.at("frente")) +
           "}]" + extra + "}";
  }
};

}  // namespace cadastre::test
