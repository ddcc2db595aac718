// The layers suite's fixture: the platform fixture with a file store in a temporary
// directory, and a cast of callers around one project of tenant alfa:
//   owner    created the project (admin on it, not a tenant administrator),
//   editor   shares it with role edicao, reader with role leitura,
//   stranger is a user of alfa the project is not shared with,
//   beta     is a user of tenant beta (alfa's ids are unknown in beta's database).
// Projects, shares, forms, fields, geometries and values are written straight into the
// tenant's database (their routes have suites of their own); layers go through POST /camadas.
#pragma once

#include <unistd.h>

#include <cstdio>

#include <filesystem>
#include <functional>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

/// A JSON array of numbers as "a,b,c" (%g), however PostgreSQL wrote them.
inline std::string numbers(simdjson::dom::element array) {
  std::string out;
  for (auto e : array.get_array()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", e.is_double() ? double(e) : static_cast<double>(int64_t(e)));
    out += (out.empty() ? "" : ",") + std::string(buf);
  }
  return out;
}

inline std::string files_root() { return "/tmp/cadastre-layers-files-" + std::to_string(::getpid()); }

struct Cast {
  Session owner, editor, reader, stranger, beta;
};

class LayersFixture : public PlatformFixture {
 public:
  LayersFixture() : PlatformFixture([](platform::AppOptions& o) { o.files_dir = files_root(); }) {
    std::filesystem::create_directories(files_root());
  }
  ~LayersFixture() {
    std::error_code ec;
    std::filesystem::remove_all(files_root(), ec);
  }

  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  std::int64_t id_of(const std::string& sql) const { return std::stoll(db(sql)); }

  Session signed_in(const std::string& email) const {
    return login(stack->add_user("alfa", email, {"*:rw"}).email, "senha-alfa");
  }

  /// The cast, with a project of the owner shared with the editor and the reader.
  Cast cast() {
    Cast c;
    c.owner = signed_in("dono@alfa.gov.br");
    c.editor = signed_in("editor@alfa.gov.br");
    c.reader = signed_in("leitor@alfa.gov.br");
    c.stranger = signed_in("estranho@alfa.gov.br");
    c.beta = user("beta");
    return c;
  }
  std::int64_t project(const Cast& c, const std::string& nome = "Cadastro") {
    std::int64_t p = id_of("insert into projeto.projetos (nome, criado_por) values ('" + nome + "', " +
                           std::to_string(c.owner.user_id) + ") returning id");
    share(p, c.editor, "edicao", c);
    share(p, c.reader, "leitura", c);
    return p;
  }
  void share(std::int64_t projeto, const Session& who, const std::string& papel, const Cast& c) {
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" +
       std::to_string(projeto) + ", " + std::to_string(who.user_id) + ", '" + papel + "', " +
       std::to_string(c.owner.user_id) + ")");
  }
  /// A layer through POST /camadas; `extra` adds fields to the body (",\"privada\":true").
  std::int64_t layer(const Session& who, std::int64_t projeto, const std::string& nome,
                     const std::string& geometria = "poligono", const std::string& extra = "") {
    auto a = post("/camadas", R"({"idProjeto":)" + std::to_string(projeto) + R"(,"nome":")" + nome +
                                  R"(","geometria":")" + geometria + "\"" + extra + "}",
                  who);
    REQUIRE_MESSAGE(a->status == 201, a->body);
    return int64_t(a->json()["id"]);
  }
  /// A tiff, dxf or wms layer as an import leaves it (a row; its file written by the test).
  std::int64_t kind_layer(std::int64_t projeto, const std::string& tipo, const std::string& arquivo_sql,
                          const std::string& extensao_sql = "null") {
    return id_of("insert into projeto.camadas (projeto_id, nome, tipo, arquivo, extensao, criado_por) values (" +
                 std::to_string(projeto) + ", 'camada " + tipo + "', '" + tipo + "', " + arquivo_sql + ", " +
                 extensao_sql + ", 1) returning id");
  }
  std::int64_t form(std::int64_t camada, const std::string& nome = "Ficha") {
    return id_of("insert into projeto.formularios (camada_id, nome) values (" + std::to_string(camada) + ", '" + nome +
                 "') returning id");
  }
  std::int64_t field(std::int64_t formulario, const std::string& chave, const std::string& tipo) {
    return id_of("insert into projeto.campos (formulario_id, nome, chave, tipo) values (" +
                 std::to_string(formulario) + ", '" + chave + "', '" + chave + "', '" + tipo + "') returning id");
  }
  std::int64_t geometry(std::int64_t camada, const std::string& wkt) {
    return id_of("insert into projeto.geometrias (camada_id, geom) values (" + std::to_string(camada) +
                 ", st_geomfromtext('" + wkt + "', 4674)) returning id");
  }
  /// A value: field `campo`'s column (c_<campo>) of its layer's table set to SQL `literal`
  /// in the geometry's row.
  void value(std::int64_t geometria, std::int64_t campo, const std::string& literal) {
    const std::string column = "c_" + std::to_string(campo);
    db("insert into camadas.l" + db("select projeto.camada_do_campo(" + std::to_string(campo) + ")") + " (id, " +
       column + ") values (" + std::to_string(geometria) + ", " + literal + ") on conflict (id) do update set " +
       column + " = excluded." + column);
  }
  std::string layer_column(std::int64_t camada, const std::string& expr) {
    return db("select " + expr + " from projeto.camadas where id = " + std::to_string(camada));
  }

  /// The refusals every route on a record shows: no session 401, another tenant's user and
  /// a user without a share 404; when the route writes (`writes`), a reader 403.
  void guarded(const Cast& c, const std::string& method, const std::string& path, const std::string& body,
               bool writes) {
    CAPTURE(method);
    CAPTURE(path);
    refused(*request(method, path, {}, body), 401, "nao_autenticado");
    refused(*request(method, path, headers(c.beta), body), 404, "nao_encontrado");
    refused(*request(method, path, headers(c.stranger), body), 404, "nao_encontrado");
    if (writes) refused(*request(method, path, headers(c.reader), body), 403, "acesso_negado");
  }
};

}  // namespace cadastre::test
