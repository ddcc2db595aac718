// The cast of the forms and fields suite: a project owner who is not a tenant administrator
// (every right comes from the project's rule set), users with read and edit shares, a user
// of the same tenant with no share, and a user of tenant beta. Projects, layers and
// geometries go straight into the tenant's database (their routes have suites of their
// own); forms and fields are made through the routes under test.
#pragma once

#include <string>

#include "integration/platform/workspace.hpp"

namespace cadastre::test {

inline std::string str(std::int64_t v) { return std::to_string(v); }

struct Cast {
  Session owner, reader, editor, stranger, beta;
};

inline Session signed_in(PlatformFixture& f, const std::string& slug, const std::string& email) {
  TestUser u = f.stack->add_user(slug, email, {"*:rw"});
  return f.login(u.email, u.password);
}

inline Cast cast(PlatformFixture& f) {
  return {signed_in(f, "alfa", "dono@alfa.gov.br"), signed_in(f, "alfa", "leitor@alfa.gov.br"),
          signed_in(f, "alfa", "editor@alfa.gov.br"), signed_in(f, "alfa", "estranho@alfa.gov.br"), f.user("beta")};
}

/// A project of the owner with one layer, shared with the reader (leitura) and the editor
/// (edicao), and helpers over the tenant's database.
struct World {
  PlatformFixture& fx;
  Cast who;
  Workspace w;
  std::int64_t project = 0, layer = 0;

  explicit World(PlatformFixture& f) : fx(f), who(cast(f)), w(f, who.owner) {
    project = id("insert into projeto.projetos (nome, criado_por) values ('Cadastro', " + str(who.owner.user_id) +
                 ") returning id");
    layer = new_layer("lotes");
    share(who.reader, "leitura");
    share(who.editor, "edicao");
  }

  std::int64_t id(const std::string& sql) const { return std::stoll(w.db(sql)); }
  std::string db(const std::string& sql) const { return w.db(sql); }
  std::int64_t new_layer(const std::string& nome) const {
    return id("insert into projeto.camadas (projeto_id, nome, criado_por) values (" + str(project) + ", '" + nome +
              "', " + str(who.owner.user_id) + ") returning id");
  }
  void share(const Session& s, const std::string& papel) const {
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + str(project) +
       ", " + str(s.user_id) + ", '" + papel + "', " + str(who.owner.user_id) + ") returning 1");
  }
  /// A form made through POST /formularios.
  std::int64_t form(std::int64_t camada, const std::string& nome) const { return w.form(camada, nome); }
  /// A field made through POST /campos (`rest`: the body without idFormulario).
  std::int64_t field(std::int64_t formulario, const std::string& rest) const { return w.field(formulario, rest); }
  std::int64_t geometry() const { return w.geometry(layer, "POINT(-48.5 -27.6)"); }
  /// The table of the world's layer (camadas.l<layer>).
  std::string table() const { return "camadas.l" + str(layer); }
  /// A value put straight into its layer's table: field `campo`'s column (c_<campo>) set to
  /// SQL `literal` in the geometry's row. Returns the value's (computed) id.
  std::int64_t value(std::int64_t geometria, std::int64_t campo, const std::string& literal) const {
    const std::string column = "c_" + str(campo);
    return id("insert into camadas.l" + db("select projeto.camada_do_campo(" + str(campo) + ")") + " (id, " + column +
              ") values (" + str(geometria) + ", " + literal + ") on conflict (id) do update set " + column +
              " = excluded." + column + " returning projeto.valor_id(id, (select posicao from projeto.campos where id = " +
              str(campo) + "))");
  }
  std::string count(const std::string& table, const std::string& where = "true") const {
    return db("select count(*) from projeto." + table + " where " + where);
  }
};

/// The answer of a request without session headers.
inline std::unique_ptr<Answer> anonymous(PlatformFixture& f, const std::string& method, const std::string& path,
                                         const std::string& body = "") {
  return f.request(method, path, {}, body);
}

}  // namespace cadastre::test
