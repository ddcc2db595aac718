// The values suite's workspace: a project of tenant alfa with a layer of lots (one form of
// typed fields, one of them calculated) and a layer of buildings, owned by a user who is not
// a tenant administrator, plus the callers the permission checks need. The structure goes
// straight into the tenant's database (the projects/layers/forms/fields routes have their
// own suites): this suite pins down the value routes alone.
#pragma once

#include <map>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

struct Lots {
  PlatformFixture& fx;
  Session owner, editor, reader, stranger, other_tenant;
  std::int64_t project = 0, layer = 0, form = 0, buildings = 0, building_form = 0;
  std::map<std::string, std::int64_t> field;     ///< chave → id, lots
  std::map<std::string, std::int64_t> building;  ///< chave → id, buildings

  explicit Lots(PlatformFixture& f) : fx(f) {
    owner = user("dono@alfa.gov.br");
    editor = user("editor@alfa.gov.br");
    reader = user("leitor@alfa.gov.br");
    stranger = user("estranho@alfa.gov.br");
    other_tenant = f.admin("beta", "chefe@beta.gov.br");
    project = id("insert into projeto.projetos (nome, criado_por) values ('Cadastro', " + n(owner.user_id) +
                 ") returning id");
    share(editor, "edicao");
    share(reader, "leitura");
    layer = new_layer("lotes");
    form = id("insert into projeto.formularios (camada_id, nome) values (" + n(layer) + ", 'Ficha do lote') returning id");
    add(field, form, "inscricao", "texto", ", obrigatorio, unico, padrao", ", true, true, '^[0-9]{4}$'");
    add(field, form, "area", "decimal", ", minimo, maximo", ", 0, 100000");
    add(field, form, "pavimentos", "inteiro", ", minimo, maximo", ", 1, 50");
    add(field, form, "uso", "lista", ", opcoes", R"(, '["residencial", "comercial"]')");
    add(field, form, "topografia", "lista_dominio", ", dominio", ", 'topografia'");
    add(field, form, "construido_em", "data");
    add(field, form, "murado", "booleano");
    add(field, form, "servicos", "multipla", ", opcoes", R"(, '["agua", "esgoto", "luz"]')");
    add(field, form, "logradouro", "texto");
    add(field, form, "valor_m2", "decimal");
    add(field, form, "valor_total", "calculado", ", formula", ", 'area * valor_m2'");
    buildings = new_layer("edificacoes");
    building_form = id("insert into projeto.formularios (camada_id, nome) values (" + n(buildings) +
                       ", 'Ficha da edificação') returning id");
    add(building, building_form, "area", "decimal");
    add(building, building_form, "uso", "lista", ", opcoes", R"(, '["residencial", "comercial", "industrial"]')");
    add(building, building_form, "padrao", "texto");
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
  std::int64_t new_layer(const std::string& nome, bool privada = false) const {
    return id("insert into projeto.camadas (projeto_id, nome, geometria, privada, criado_por) values (" + n(project) +
              ", '" + nome + "', 'poligono', " + (privada ? "true" : "false") + ", " + n(owner.user_id) +
              ") returning id");
  }
  void add(std::map<std::string, std::int64_t>& into, std::int64_t formulario, const std::string& chave,
           const std::string& tipo, const std::string& columns = "", const std::string& values = "") const {
    into[chave] = id("insert into projeto.campos (formulario_id, nome, chave, tipo, ordem" + columns + ") values (" +
                     n(formulario) + ", '" + chave + "', '" + chave + "', '" + tipo + "', " +
                     n(static_cast<std::int64_t>(into.size())) + values + ") returning id");
  }
  /// A square lot of side `side` degrees at (x, y), in `camada` (default: the lots).
  std::int64_t square(double x, double y, double side = 0.001, std::int64_t camada = 0) const {
    auto c = [](double v) { return std::to_string(v); };
    std::string wkt = "POLYGON((" + c(x) + " " + c(y) + "," + c(x + side) + " " + c(y) + "," + c(x + side) + " " +
                      c(y + side) + "," + c(x) + " " + c(y + side) + "," + c(x) + " " + c(y) + "))";
    return id("insert into projeto.geometrias (camada_id, geom, criado_por) values (" + n(camada ? camada : layer) +
              ", st_geomfromtext('" + wkt + "', 4674), " + n(owner.user_id) + ") returning id");
  }
  std::int64_t geometry() const {
    static int next = 0;
    ++next;
    return square(-48.6 + 0.002 * next, -27.6);
  }

  /// POST /valores as `who`; the answer.
  std::unique_ptr<Answer> put_value(std::int64_t geometria, const std::string& chave, const std::string& valor,
                                    const Session& who) const {
    return fx.post("/valores", R"({"idGeometria":)" + n(geometria) + R"(,"idCampo":)" + n(field.at(chave)) +
                                   R"(,"valor":)" + valor + "}",
                   who);
  }
  /// A value created by the owner (must succeed); its id.
  std::int64_t value(std::int64_t geometria, const std::string& chave, const std::string& valor) const {
    auto a = put_value(geometria, chave, valor, owner);
    REQUIRE_MESSAGE(a->status == 201, chave << " = " << valor << " → " << a->body);
    return int64_t(a->json()["id"]);
  }
  /// The stored typed JSON of (geometry, field), as the audit writes it ("" when none).
  std::string stored(std::int64_t geometria, std::int64_t campo) const {
    return db("select valor::text from projeto.valores_de(" + n(geometria) + ") where campo_id = " + n(campo));
  }
  /// The text of field `campo`'s column in geometry `geometria`'s row of layer `camada`'s
  /// table (default: the lots) ("" when none).
  std::string column(std::int64_t geometria, std::int64_t campo, std::int64_t camada = 0) const {
    return db("select c_" + n(campo) + "::text from camadas.l" + n(camada ? camada : layer) + " where id = " +
              n(geometria));
  }
  /// The SQL type of field `campo`'s column in layer `camada`'s table (default: the lots).
  std::string column_type(std::int64_t campo, std::int64_t camada = 0) const {
    return db("select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'camadas.l" +
              n(camada ? camada : layer) + "'::regclass and attname = 'c_" + n(campo) + "'");
  }
  /// A digest of every row of layer `camada`'s table (default: the lots): equal when
  /// nothing was written.
  std::string layer_rows(std::int64_t camada = 0) const {
    return db("select coalesce(md5(string_agg(to_jsonb(l)::text, ',' order by l.id)), '') from camadas.l" +
              n(camada ? camada : layer) + " l");
  }
  /// How many values geometry `geometria` holds.
  std::string value_count(std::int64_t geometria) const {
    return db("select count(*) from projeto.valores_de(" + n(geometria) + ")");
  }
  std::string count(const std::string& table, const std::string& where = "true") const {
    return db("select count(*) from projeto." + table + " where " + where);
  }
  std::string generation(std::int64_t camada) const {
    return db("select geracao from projeto.camadas where id = " + n(camada));
  }
};

}  // namespace cadastre::test
