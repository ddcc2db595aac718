// Saved reports of the explorer (table explorer.relatorio, migration 0007): managed as the
// pseudo-layer "relatorios" of /explorer/{municipio}/{camada}, and exported as .xlsx or PDF.
//
// A report is {nome, titulo?, consulta}: `consulta` is a query description, checked against
// the catalog (and the caller's read permission on its table) on every write and stored in
// canonical form; it is checked again when the report runs, since the catalog may have
// changed (a report that no longer fits it → 422). Access goes through the pseudo-layer
// "explorer" of the permission rules (a rule for "explorer", else the user's "*" default):
// read to list and export, write to create, change and delete. Every write records an
// audit row (tabela "explorer.relatorio").
#include <simdjson.h>
#include <soci/soci.h>

#include <cctype>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/explorer/export.hpp"
#include "server/explorer/routes.hpp"
#include "store/audit.hpp"
#include "store/sql.hpp"

namespace cadastre::server::explorer {
namespace {

using http::Request;
using http::Response;

constexpr const char* kPermissionLayer = "explorer";
constexpr const char* kAuditTable = "explorer.relatorio";
constexpr std::chrono::milliseconds kExportTimeout{30000};
constexpr std::size_t kMaxName = 200, kMaxTitle = 300;

void require_access(App& app, const Request& req, bool write) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kPermissionLayer, write, ctx.user.admin)) {
    throw Error(errc::forbidden, std::string("sem permissão de ") + (write ? "escrita" : "leitura") +
                                     " nos relatórios do explorador (camada 'explorer')");
  }
}

std::int64_t report_id(const Request& req) { return query::parse_integer(req.param("id"), "id", 1, INT64_MAX); }

[[noreturn]] void not_found(std::int64_t id) {
  throw Error(errc::not_found, "relatório " + std::to_string(id) + " não encontrado", "id");
}

// ------------------------------------------------------------------ input

struct ReportInput {
  std::optional<std::string> nome;
  bool has_titulo = false;  ///< the body names titulo (null clears it)
  store::Value titulo;
  std::optional<std::string> consulta;  ///< canonical JSON of the checked description
};

std::string text_member(jsonin::element e, std::string_view field, std::size_t max) {
  std::string s = jsonin::to_string(e, field);
  auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw Error(errc::invalid_argument, "'" + std::string(field) + "' está vazio", std::string(field));
  s = s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
  if (s.size() > max || s.find('\0') != std::string::npos)
    throw Error(errc::invalid_argument, "'" + std::string(field) + "' tem mais de " + std::to_string(max) + " bytes ou um NUL",
                std::string(field));
  return s;
}

// `path_id`: the report a PUT changes (a body "id" must match it); nullopt when creating.
ReportInput parse_input(App& app, const Request& req, std::optional<std::int64_t> path_id) {
  bool creating = !path_id;
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  ReportInput in;
  for (auto [key, value] : o) {
    if (key == "nome") {
      in.nome = text_member(value, "nome", kMaxName);
    } else if (key == "titulo") {
      in.has_titulo = true;
      if (!value.is_null()) in.titulo = text_member(value, "titulo", kMaxTitle);
    } else if (key == "consulta") {
      Query q = parse_query(value, "consulta");
      LayerRef layer = query_layer(app, req, q, "consulta");
      build(q, *layer, q.limit.value_or(kMaxLimit), Output::text, "consulta");  // every name and value checked
      in.consulta = to_json(q);
    } else if (key == "id" && !creating) {
      std::int64_t body_id = 0;
      if (value.get(body_id) || body_id != *path_id)
        throw Error(errc::invalid_argument, "o id do corpo difere do id do caminho (" + std::to_string(*path_id) + ")", "id");
    } else {
      throw Error(errc::unknown_field, "membro desconhecido '" + std::string(key) + "' (use nome, titulo, consulta)",
                  std::string(key));
    }
  }
  if (creating && !in.nome) throw Error(errc::missing_field, "o relatório precisa de 'nome'", "nome");
  if (creating && !in.consulta) throw Error(errc::missing_field, "o relatório precisa de 'consulta'", "consulta");
  return in;
}

// ------------------------------------------------------------------ records

constexpr const char* kColumns = "id, nome, titulo, consulta, criado_em, criado_por, atualizado_em";

store::Value report_json(soci::session& s, std::int64_t id, bool lock) {
  store::Sql sql("select to_json(r)::text from (select ");
  sql << kColumns << " from explorer.relatorio where id = ";
  sql.bind(std::to_string(id), "bigint") << (lock ? " for update" : "") << ") r";
  return store::fetch_value(s, sql);
}

// A duplicate name is the one conflict a report write meets.
template <class F>
void writing(const Context& ctx, const std::optional<std::string>& nome, F&& fn) {
  try {
    ctx.db->run([&](soci::session& s) { store::in_transaction(s, [&] { fn(s); }); });
  } catch (const Error& e) {
    if (e.code() != errc::conflict) throw;
    throw Error(errc::conflict, "já existe um relatório chamado '" + nome.value_or("") + "'", "nome");
  }
}

// ------------------------------------------------------------------ file names

// ASCII file name from the report name: accents dropped (via Windows-1252), other
// characters replaced by '_', so the header needs no quoting rules beyond the quotes.
std::string ascii_file_name(const std::string& name, std::int64_t id) {
  // Windows-1252 0xC0..0xFF without their accents ('_' where no letter fits).
  static constexpr std::string_view kBase = "AAAAAAACEEEEIIIIDNOOOOO_OUUUUY_saaaaaaaceeeeiiiidnooooo_ouuuuy_y";
  std::string out;
  for (char ch : to_cp1252(name)) {
    auto b = static_cast<unsigned char>(ch);
    char c = b >= 0xC0 ? kBase[b - 0xC0] : (std::isalnum(b) || ch == '-' || ch == '.') ? ch : '_';
    if (c == '_' && (out.empty() || out.back() == '_')) continue;
    out += c;
    if (out.size() >= 100) break;
  }
  while (!out.empty() && (out.back() == '_' || out.back() == '.')) out.pop_back();
  return out.empty() ? "relatorio-" + std::to_string(id) : out;
}

std::string percent_encoded(const std::string& s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto b = static_cast<unsigned char>(ch);
    if (std::isalnum(b) || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
      out += ch;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    }
  }
  return out;
}

std::string content_disposition(const std::string& name, std::int64_t id, const char* extension) {
  return "attachment; filename=\"" + ascii_file_name(name, id) + extension + "\"; filename*=UTF-8''" +
         percent_encoded(name) + extension;
}

}  // namespace

// ------------------------------------------------------------------ routes

Response list_reports(App& app, Request& req) {
  require_access(app, req, false);
  auto paging = query::normalize_paging(req.query);
  store::Sql sql("select (select count(*) from explorer.relatorio)::text, (select coalesce(json_agg(r order by r.id), "
                 "'[]') from (select ");
  sql << kColumns << " from explorer.relatorio order by id limit " << std::to_string(paging.size) << " offset "
      << std::to_string(paging.offset) << ") r)::text";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  JsonWriter w;
  w.begin_object().key("camada").value(kReportsLayer);
  w.key("total").value(static_cast<std::int64_t>(std::stoll(row[0].value_or("0"))));
  w.key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key("registros").raw(row[1].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response create_report(App& app, Request& req) {
  require_access(app, req, true);
  ReportInput in = parse_input(app, req, std::nullopt);
  const Context& ctx = context(req);
  store::Sql sql("insert into explorer.relatorio (nome, titulo, consulta, criado_por) values (");
  sql.bind(in.nome) << ", ";
  sql.bind(in.titulo) << ", ";
  sql.bind(in.consulta, "jsonb") << ", ";
  sql.bind(ctx.user.email) << ") returning id::text";
  std::string body, id;
  writing(ctx, in.nome, [&](soci::session& s) {
    id = store::fetch_value(s, sql).value_or("");
    body = report_json(s, std::stoll(id), false).value_or("null");
    store::record_audit(s, kAuditTable, id, store::Operation::insert, ctx.user, std::nullopt, body);
  });
  auto r = Response::json(std::move(body), 201);
  r.headers.set("Location", "/explorer/" + ctx.tenant.slug + "/" + std::string(kReportsLayer) + "/" + id);
  return r;
}

Response update_report(App& app, Request& req) {
  require_access(app, req, true);
  std::int64_t id = report_id(req);
  ReportInput in = parse_input(app, req, id);
  const Context& ctx = context(req);
  store::Sql sql("update explorer.relatorio set atualizado_em = now()");
  if (in.nome) {
    sql << ", nome = ";
    sql.bind(in.nome);
  }
  if (in.has_titulo) {
    sql << ", titulo = ";
    sql.bind(in.titulo);
  }
  if (in.consulta) {
    sql << ", consulta = ";
    sql.bind(in.consulta, "jsonb");
  }
  sql << " where id = ";
  sql.bind(std::to_string(id), "bigint");
  std::string body;
  writing(ctx, in.nome, [&](soci::session& s) {
    auto before = report_json(s, id, true);
    if (!before) not_found(id);
    store::execute(s, sql);
    body = report_json(s, id, false).value_or("null");
    store::record_audit(s, kAuditTable, std::to_string(id), store::Operation::update, ctx.user, before, body);
  });
  return Response::json(std::move(body));
}

Response delete_report(App& app, Request& req) {
  require_access(app, req, true);
  std::int64_t id = report_id(req);
  const Context& ctx = context(req);
  store::Sql sql("delete from explorer.relatorio where id = ");
  sql.bind(std::to_string(id), "bigint");
  std::string before;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto row = report_json(s, id, true);
      if (!row) not_found(id);
      before = *row;
      store::execute(s, sql);
      store::record_audit(s, kAuditTable, std::to_string(id), store::Operation::remove, ctx.user, before, std::nullopt);
    });
  });
  JsonWriter w;
  w.begin_object().key("mensagem").value("relatório " + std::to_string(id) + " excluído");
  w.key("registro").raw(before).end_object();
  return Response::json(std::move(w).str());
}

Response export_report(App& app, Request& req, FileFormat format) {
  require_access(app, req, false);
  std::int64_t id = report_id(req);
  const Context& ctx = context(req);
  store::Sql read("select nome, coalesce(titulo, nome), consulta::text from explorer.relatorio where id = ");
  read.bind(std::to_string(id), "bigint");
  auto found = ctx.db->with([&](soci::session& s) { return store::fetch(s, read); });
  if (found.empty()) not_found(id);
  std::string nome = found[0][0].value_or(""), titulo = found[0][1].value_or("");

  Query q;
  LayerRef layer;
  Built built;
  try {
    simdjson::dom::parser parser;
    q = parse_query(jsonin::parse(parser, found[0][2].value_or("{}")), "consulta");
    layer = query_layer(app, req, q, "consulta");
    built = build(q, *layer, q.limit.value_or(kMaxLimit), Output::text, "consulta");
  } catch (const Error& e) {
    // The stored description was valid when saved; the catalog has changed since.
    if (e.code() == errc::forbidden) throw;
    throw Error(errc::unprocessable, "o relatório " + std::to_string(id) + " não corresponde mais ao catálogo: " + e.what(),
                e.field());
  }

  ExportTable table;
  std::string generated;
  read_only(ctx, kExportTimeout, [&](soci::session& s) {
    table.rows = store::fetch(s, built.sql);
    store::Sql now("select to_char(now() at time zone ");
    now.bind(ctx.tenant.fuso_horario.empty() ? "America/Sao_Paulo" : ctx.tenant.fuso_horario) << ", 'DD/MM/YYYY HH24:MI')";
    generated = store::fetch_value(s, now).value_or("");
  });
  table.title = titulo;
  std::size_t n = table.rows.size();
  table.subtitle = "Tabela " + layer->name + " · " + std::to_string(n) + (n == 1 ? " registro" : " registros") +
                   " · gerado em " + generated;
  for (const store::Column* c : built.columns) {
    table.columns.push_back(c->name);
    table.numeric.push_back(c->numeric());
  }
  bool xlsx = format == FileFormat::xlsx;
  auto r = Response::text(xlsx ? xlsx_document(table) : pdf_document(table),
                          xlsx ? "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" : "application/pdf");
  r.headers.set("Content-Disposition", content_disposition(nome, id, xlsx ? ".xlsx" : ".pdf"));
  return r;
}

}  // namespace cadastre::server::explorer
