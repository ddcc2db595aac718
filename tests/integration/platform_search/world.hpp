// The search suite's workspace: a project of tenant alfa with a layer of lots (one form of
// typed fields), a second layer and a private layer, owned by a user who is not a tenant
// administrator, plus the callers the permission checks need. Structure and values go
// straight into the tenant's database: this suite pins down the search, thematic,
// geography and analysis routes alone.
#pragma once

#include <map>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

struct World {
  PlatformFixture& fx;
  Session owner, reader, stranger, other_tenant;
  std::int64_t project = 0, layer = 0, form = 0, other_layer = 0, other_form = 0, hidden = 0, hidden_form = 0;
  std::map<std::string, std::int64_t> field;  ///< chave → id, lots

  explicit World(PlatformFixture& f) : fx(f) {
    owner = user("dono@alfa.gov.br");
    reader = user("leitor@alfa.gov.br");
    stranger = user("estranho@alfa.gov.br");
    other_tenant = f.admin("beta", "chefe@beta.gov.br");
    project = id("insert into projeto.projetos (nome, criado_por) values ('Cadastro', " + n(owner.user_id) +
                 ") returning id");
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(project) +
       ", " + n(reader.user_id) + ", 'leitura', " + n(owner.user_id) + ") returning 1");
    layer = new_layer("lotes");
    form = new_form(layer);
    add(form, "inscricao", "texto");
    add(form, "logradouro", "texto");
    add(form, "bairro", "texto");
    add(form, "area", "decimal");
    add(form, "uso", "lista", ", opcoes", R"(, '["residencial", "comercial"]')");
    add(form, "murado", "booleano");
    add(form, "vistoria", "data");
    add(form, "servicos", "multipla", ", opcoes", R"(, '["agua", "esgoto", "luz"]')");
    other_layer = new_layer("quadras");
    other_form = new_form(other_layer);
    add(other_form, "nome_quadra", "texto");
    hidden = new_layer("sigilosa", true);
    hidden_form = new_form(hidden);
    add(hidden_form, "nota", "texto");
  }

  static std::string n(std::int64_t v) { return std::to_string(v); }
  static std::string q(const std::string& s) { return "'" + s + "'"; }
  std::string db(const std::string& sql) const { return query_value(fx.stack->tenant_dsn("alfa"), sql); }
  std::int64_t id(const std::string& sql) const { return std::stoll(db(sql)); }

  Session user(const std::string& email) const {
    TestUser u = fx.stack->add_user("alfa", email, {"*:rw"});
    return fx.login(u.email, u.password);
  }
  std::int64_t new_layer(const std::string& nome, bool privada = false) const {
    return id("insert into projeto.camadas (projeto_id, nome, geometria, privada, criado_por) values (" + n(project) +
              ", " + q(nome) + ", 'poligono', " + (privada ? "true" : "false") + ", " + n(owner.user_id) +
              ") returning id");
  }
  std::int64_t new_form(std::int64_t camada) const {
    return id("insert into projeto.formularios (camada_id, nome) values (" + n(camada) + ", 'Ficha') returning id");
  }
  void add(std::int64_t formulario, const std::string& chave, const std::string& tipo, const std::string& columns = "",
           const std::string& values = "") {
    field[chave] = id("insert into projeto.campos (formulario_id, nome, chave, tipo" + columns + ") values (" +
                      n(formulario) + ", " + q(chave) + ", " + q(chave) + ", " + q(tipo) + values + ") returning id");
  }
  /// A geometry of `camada` from WKT (SRID `srid`, transformed to SIRGAS 2000).
  std::int64_t geometry(const std::string& wkt, std::int64_t camada = 0, int srid = 4674) const {
    return id("insert into projeto.geometrias (camada_id, geom, criado_por) values (" + n(camada ? camada : layer) +
              ", st_transform(st_geomfromtext(" + q(wkt) + ", " + std::to_string(srid) + "), 4674), " +
              n(owner.user_id) + ") returning id");
  }
  /// A small square lot somewhere in the layer (the i-th).
  std::int64_t lot(int i, std::int64_t camada = 0) const {
    double x = -47.06 + 0.001 * i, y = -22.9;
    auto c = [](double v) { return std::to_string(v); };
    return geometry("POLYGON((" + c(x) + " " + c(y) + "," + c(x + 0.0005) + " " + c(y) + "," + c(x + 0.0005) + " " +
                        c(y + 0.0005) + "," + c(x) + " " + c(y + 0.0005) + "," + c(x) + " " + c(y) + "))",
                    camada);
  }
  /// A value of (geometry, field): `literal` (SQL) in the field's column of its layer's table.
  void value(std::int64_t g, const std::string& chave, const std::string& literal) const {
    const std::string campo = n(field.at(chave)), column = "c_" + campo;
    db("insert into camadas.l" + db("select projeto.camada_do_campo(" + campo + ")") + " (id, " + column +
       ") values (" + n(g) + ", " + literal + ") on conflict (id) do update set " + column + " = excluded." + column +
       " returning id");
  }
  /// How many values the tenant's geometries hold.
  std::string value_count() const {
    return db("select count(*) from projeto.geometrias g cross join lateral projeto.valores_de(g.id)");
  }
  void text(std::int64_t g, const std::string& chave, const std::string& t) const { value(g, chave, q(t)); }
  void number(std::int64_t g, const std::string& chave, double v) const { value(g, chave, std::to_string(v)); }
};

/// The strings under `key` of each item of a JSON array answer, in order.
inline std::vector<std::string> strings_of(Answer& a, const char* key) {
  std::vector<std::string> out;
  simdjson::dom::array items;
  if (a.json().get(items)) {
    FAIL_CHECK("not an array: " << a.body);
    return out;
  }
  for (auto item : items) out.emplace_back(std::string_view(item[key]));
  return out;
}

}  // namespace cadastre::test
