// The cast of the project suites: a project owner who is not a tenant administrator (so
// every right comes from the project's rule set), users with read and edit shares, a user
// of the same tenant with no share, and a user of tenant beta. Layers, forms, fields,
// geometries and values go straight into the tenant's database (their routes have suites
// of their own), so these tests pin down only the project routes.
#pragma once

#include <string>

#include "integration/platform/workspace.hpp"

namespace cadastre::test {

struct Team {
  Session owner, reader, editor, stranger, beta;
};

inline Session signed_in(PlatformFixture& f, const std::string& slug, const std::string& email) {
  TestUser u = f.stack->add_user(slug, email, {"*:rw"});
  return f.login(u.email, u.password);
}

inline Team team(PlatformFixture& f) {
  return {signed_in(f, "alfa", "dono@alfa.gov.br"), signed_in(f, "alfa", "leitor@alfa.gov.br"),
          signed_in(f, "alfa", "editor@alfa.gov.br"), signed_in(f, "alfa", "estranho@alfa.gov.br"), f.user("beta")};
}

inline std::string str(std::int64_t v) { return std::to_string(v); }

/// Records put straight into a tenant's database.
struct Rows {
  const Workspace& w;

  std::int64_t id(const std::string& sql) const { return std::stoll(w.db(sql)); }
  void share(std::int64_t project, const Session& who, const std::string& papel) const {
    w.db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + str(project) +
         ", " + str(who.user_id) + ", '" + papel + "', " + str(w.owner.user_id) + ")");
  }
  std::int64_t layer(std::int64_t project, const std::string& nome, const std::string& extra_cols = "",
                     const std::string& extra_vals = "") const {
    return id("insert into projeto.camadas (projeto_id, nome, criado_por" + extra_cols + ") values (" + str(project) +
              ", '" + nome + "', " + str(w.owner.user_id) + extra_vals + ") returning id");
  }
  std::int64_t form(std::int64_t layer, const std::string& nome) const {
    return id("insert into projeto.formularios (camada_id, nome) values (" + str(layer) + ", '" + nome + "') returning id");
  }
  std::int64_t field(std::int64_t form, const std::string& chave, const std::string& tipo = "texto") const {
    return id("insert into projeto.campos (formulario_id, nome, chave, tipo) values (" + str(form) + ", '" + chave +
              "', '" + chave + "', '" + tipo + "') returning id");
  }
  /// A text value: the field's column of the geometry's row in the layer's table; its id
  /// (computed from the geometry and the field's position).
  std::int64_t text_value(std::int64_t geometry, std::int64_t field, const std::string& text) const {
    const std::string c = "c_" + str(field);
    w.db("insert into camadas.l" + w.db("select projeto.camada_do_campo(" + str(field) + ")") + " (id, " + c +
         ") values (" + str(geometry) + ", '" + text + "') on conflict (id) do update set " + c + " = excluded." + c);
    return id("select projeto.valor_id(" + str(geometry) + ", posicao) from projeto.campos where id = " + str(field));
  }
  std::string count(const std::string& table, const std::string& where = "true") const {
    return w.db("select count(*) from projeto." + table + " where " + where);
  }
};

/// Every value (in the layers' tables) as a relation of rows id (the value's), geometria_id,
/// campo_id, valor (jsonb) and texto (its text).
inline const std::string kValues =
    "(select projeto.valor_id(g.id, k.posicao) as id, g.id as geometria_id, v.campo_id, v.valor, v.valor #>> '{}' "
    "as texto from projeto.geometrias g cross join lateral projeto.valores_de(g.id) v join projeto.campos k on "
    "k.id = v.campo_id)";

}  // namespace cadastre::test
