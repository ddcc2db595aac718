#include "platform/wms/store.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <cstdio>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::wms {
namespace {

constexpr const char* kSource =
    "jsonb_build_object('id', f.id, 'nome', f.nome, 'descricao', f.descricao, 'url', f.url, 'versao', f.versao, "
    "'titulo', f.titulo, 'urlMapa', f.url_mapa, 'camadas', f.camadas, 'formatos', f.formatos, 'lidoEm', f.lido_em, "
    "'criadoPor', f.criado_por, 'criadoEm', f.criado_em, 'atualizadoEm', f.atualizado_em)";

std::string id_text(std::int64_t id) { return std::to_string(id); }

std::string text(const service::Caller& s, const store::Sql& q) {
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).value_or(""); });
}

[[noreturn]] void unknown(std::int64_t id) {
  throw Error(errc::not_found, "fonte WMS " + id_text(id) + " não encontrada", "id");
}

void bind_read(store::Sql& q, const Read& r) {
  q.bind(r.caps.versao) << ", ";
  q.bind(r.caps.titulo) << ", ";
  q.bind(r.url_mapa) << ", ";
  q.bind(layers_json(r.caps.camadas), "jsonb") << ", ";
  q.bind(strings_json(r.caps.formatos), "jsonb");
}

std::string exact_number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

}  // namespace

std::string list(const service::Caller& s) {
  store::Sql q(std::string("select coalesce(jsonb_agg(") + kSource +
               " order by f.nome, f.id), '[]')::text from projeto.fontes_wms f");
  return text(s, q);
}

std::string one(const service::Caller& s, std::int64_t id) {
  store::Sql q(std::string("select ") + kSource + "::text from projeto.fontes_wms f where f.id = " + id_text(id));
  std::string out = text(s, q);
  if (out.empty()) unknown(id);
  return out;
}

std::string url_of(const service::Caller& s, std::int64_t id) {
  store::Sql q("select url from projeto.fontes_wms where id = " + id_text(id));
  std::string out = text(s, q);
  if (out.empty()) unknown(id);
  return out;
}

std::int64_t create(const service::Caller& s, const SourceFields& f, const Read& r) {
  store::Sql q("insert into projeto.fontes_wms (nome, descricao, url, versao, titulo, url_mapa, camadas, formatos, "
               "criado_por) values (");
  q.bind(*f.nome) << ", ";
  q.bind(f.descricao ? *f.descricao : std::nullopt) << ", ";
  q.bind(r.url) << ", ";
  bind_read(q, r);
  q << ", " << id_text(s.user.user_id) << ") returning id";
  return std::stoll(text(s, q));
}

void update(const service::Caller& s, std::int64_t id, const SourceFields& f, const std::optional<Read>& r) {
  store::Sql q("update projeto.fontes_wms set atualizado_em = now()");
  if (f.nome) q << ", nome = ", q.bind(*f.nome);
  if (f.descricao) q << ", descricao = ", q.bind(*f.descricao);
  if (r) {
    q << ", url = ", q.bind(r->url);
    q << ", lido_em = now(), (versao, titulo, url_mapa, camadas, formatos) = (";
    bind_read(q, *r);
    q << ")";
  }
  q << " where id = " << id_text(id);
  s.db->run([&](soci::session& db) {
    if (store::execute(db, q) == 0) unknown(id);
  });
}

void remove(const service::Caller& s, std::int64_t id) {
  store::Sql q("delete from projeto.fontes_wms where id = " + id_text(id));
  s.db->run([&](soci::session& db) {
    if (store::execute(db, q) == 0) unknown(id);
  });
}

Source source(const service::Caller& s, std::int64_t id) {
  store::Sql q("select versao, url_mapa, camadas::text, formatos::text from projeto.fontes_wms where id = " +
               id_text(id));
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) unknown(id);
  Source out{*rows[0][0], *rows[0][1], {}, {}};
  // Written by layers_json() / strings_json(): read back the names, CRSs and formats.
  simdjson::dom::parser parser;
  for (auto e : parser.parse(*rows[0][2]).get_array()) {
    Layer l;
    l.nome = std::string(std::string_view(e["nome"]));
    for (auto c : e["crs"].get_array()) l.crs.emplace_back(std::string_view(c));
    out.camadas.push_back(std::move(l));
  }
  simdjson::dom::parser formats;
  for (auto e : formats.parse(*rows[0][3]).get_array()) out.formatos.emplace_back(std::string_view(e));
  return out;
}

std::int64_t create_layer(const service::Caller& s, std::int64_t projeto, const std::string& nome,
                          const std::string& url, const std::string& camada,
                          const std::optional<std::array<double, 4>>& bbox, const std::string& propriedades) {
  store::Sql q("insert into projeto.camadas (projeto_id, nome, tipo, url, camadas_wms, extensao, propriedades, ordem, "
               "criado_por) values (" + id_text(projeto) + ", ");
  q.bind(nome) << ", 'wms', ";
  q.bind(url) << ", ";
  q.bind(camada) << ", ";
  if (bbox && (*bbox)[0] < (*bbox)[2] && (*bbox)[1] < (*bbox)[3])
    q << "st_makeenvelope(" << exact_number((*bbox)[0]) << ", " << exact_number((*bbox)[1]) << ", " << exact_number((*bbox)[2]) << ", "
      << exact_number((*bbox)[3]) << ", 4674)";
  else
    q << "null";
  q << ", ";
  q.bind(propriedades, "jsonb");
  q << ", (select coalesce(max(ordem) + 1, 0) from projeto.camadas where projeto_id = " << id_text(projeto) << "), "
    << id_text(s.user.user_id) << ") returning id";
  return std::stoll(text(s, q));
}

}  // namespace cadastre::platform::wms
