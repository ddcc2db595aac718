#include "server/viewer360/forms.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <map>
#include <optional>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "service/geojson.hpp"
#include "server/layer_access.hpp"
#include "server/viewer360/tables.hpp"
#include "store/features.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr std::size_t kMaxBatchRows = 1000;

bool integer_type(const store::Column& c) {
  return c.base_type == "int2" || c.base_type == "int4" || c.base_type == "int8";
}

// The record id of a path segment in the form the audit trail writes it (7, not 007).
std::string canonical_id(const store::Layer& layer, const std::string& text) {
  std::string id = record_id(layer, text);
  return integer_type(*layer.column(layer.primary_key)) ? std::to_string(std::stoll(id)) : id;
}

struct Reference {
  std::string schema, table, column;
};

// Single-column foreign keys of the table, by referencing column.
std::map<std::string, Reference> references(soci::session& s, const store::Layer& layer) {
  store::Sql sql(
      "select a.attname::text, rn.nspname::text, rc.relname::text, ra.attname::text from pg_constraint k "
      "join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1] "
      "join pg_class rc on rc.oid = k.confrelid join pg_namespace rn on rn.oid = rc.relnamespace "
      "join pg_attribute ra on ra.attrelid = k.confrelid and ra.attnum = k.confkey[1] "
      "where k.contype = 'f' and cardinality(k.conkey) = 1 and k.conrelid = to_regclass(");
  sql.bind(layer.qualified()) << ")";
  std::map<std::string, Reference> out;
  for (const auto& r : store::fetch(s, sql))
    out[r[0].value_or("")] = {r[1].value_or(""), r[2].value_or(""), r[3].value_or("")};
  return out;
}

// Lookup values ({codigo, descricao} ordered by code) of the referenced domain tables, by
// referencing column, in one statement. Only tables of the dominio catalog with a
// descricao column are read; names reach SQL quoted, after that check.
std::map<std::string, std::string> lookups(soci::session& s, const store::Catalog& dominio,
                                           const std::map<std::string, Reference>& refs) {
  store::Sql sql;
  for (const auto& [column, ref] : refs) {
    const store::Layer* d = ref.schema == "dominio" ? dominio.find(ref.table) : nullptr;
    if (!d || !d->column("descricao") || !d->column(ref.column)) continue;
    const std::string code = "d." + query::quote_identifier(ref.column);
    if (!sql.text().empty()) sql << " union all ";
    sql << "select ";
    sql.bind(column) << "::text, (select coalesce(json_agg(json_build_object('codigo', " << code
                     << ", 'descricao', d.descricao) order by " << code << "), '[]') from " << d->qualified()
                     << " d)::text";
  }
  std::map<std::string, std::string> out;
  if (sql.text().empty()) return out;
  for (const auto& r : store::fetch(s, sql)) out[r[0].value_or("")] = r[1].value_or("[]");
  return out;
}

}  // namespace

Response form_fields(App& app, Request& req) {
  CatalogTable t = catalog_table(app, req, req.param("schema_table"), false);
  const Context& ctx = context(req);
  // Domain values are shown to callers who may read the domain tables.
  const bool show_domains =
      store::layer_allowed(app.identity().permissions(ctx.user.user_id), "dominio", false, ctx.user.admin);
  auto dominio = app.catalogs().get(ctx.tenant, *ctx.db, "dominio");
  std::map<std::string, Reference> refs;
  std::map<std::string, std::string> values;
  ctx.db->run([&](soci::session& s) {
    refs = references(s, *t);
    if (show_domains) values = lookups(s, *dominio, refs);
  });

  JsonWriter w;
  w.begin_object().key("schema_table").value(t.name).key("esquema").value(t->schema).key("tabela").value(t->name);
  w.key("visao").value(t->is_view);
  w.key("chave_primaria");
  if (t->primary_key.empty()) w.null();
  else w.value(t->primary_key);
  w.key("campos").begin_array();
  for (const store::Column& c : t->columns) {
    w.begin_object().key("nome").value(c.name).key("tipo").value(c.type).key("tipo_base").value(c.base_type);
    w.key("anulavel").value(c.nullable).key("tem_padrao").value(c.has_default);
    w.key("obrigatorio").value(!c.nullable && !c.has_default).key("chave_primaria").value(c.primary_key);
    w.key("geometria").value(c.geometry);
    if (c.geometry) w.key("tipo_geometria").value(c.geometry_type).key("srid").value(c.srid);
    if (auto r = refs.find(c.name); r != refs.end()) {
      const std::string target = r->second.schema + "." + r->second.table;
      w.key("referencia").begin_object().key("tabela").value(target).key("coluna").value(r->second.column);
      if (auto v = values.find(c.name); v != values.end()) w.key("valores").raw(v->second);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

Response record_values(App& app, Request& req) {
  CatalogTable t = catalog_table(app, req, req.param("schema_table"), false);
  std::string id = record_id(*t, req.param("id"));
  const store::Column& pk = *t->column(t->primary_key);
  store::Sql sql("select ");
  sql << store::feature_expression(*t, "t") << "::text from " << t->qualified() << " t where t."
      << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type);
  auto feature = context(req).db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!feature) throw Error(errc::not_found, "registro " + id + " não encontrado em " + t.name, "id");
  return Response::text(std::move(*feature), kGeoJson);
}

Response last_change(App& app, Request& req) {
  CatalogTable t = catalog_table(app, req, req.param("schema_table"), false);
  std::string id = canonical_id(*t, req.param("id"));
  // The audit trail names tables schema.table, as records.cpp and the domain routes write them.
  store::Sql sql(
      "select json_build_object('schema_table', a.tabela, 'registro_id', a.registro_id, 'operacao', case a.operacao "
      "when 'I' then 'insercao' when 'U' then 'alteracao' else 'exclusao' end, 'usuario_id', a.usuario_id, "
      "'usuario_email', a.usuario_email, 'em', a.em)::text from auditoria.registro a where a.tabela = ");
  sql.bind(t.name) << " and a.registro_id = ";
  sql.bind(id) << " order by a.em desc, a.id desc limit 1";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!row) throw Error(errc::not_found, "nenhuma alteração registrada de " + t.name + " " + id, "id");
  return Response::json(std::move(*row));
}

namespace {

struct BatchRow {
  bool update = false;
  std::size_t index = 0;  // position in its list
  store::RecordInput input;
};

const char* list_name(bool update) { return update ? "atualizar" : "inserir"; }

struct BatchError {
  Error error;
  bool update;
  std::size_t index;
};

}  // namespace

Response batch_attributes(App& app, Request& req) {
  simdjson::dom::parser parser;
  auto body = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  for (auto [key, value] : body) {
    if (key != "schema_table" && key != "inserir" && key != "atualizar")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  CatalogTable t = catalog_table(app, req, jsonin::string(body, "schema_table"), true);
  if (t->schema != "cadastro")
    throw Error(errc::invalid_argument, "tabelas de domínio são alteradas por /dominio, com as regras de código",
                "schema_table");

  // Every row is parsed and checked against the layer before anything is written.
  std::vector<BatchRow> rows;
  for (bool update : {false, true}) {
    auto list = jsonin::find(body, list_name(update));
    if (!list) continue;
    std::size_t i = 0;
    for (auto e : jsonin::as_array(*list, list_name(update))) {
      if (rows.size() == kMaxBatchRows)
        throw Error(errc::payload_too_large, "no máximo " + std::to_string(kMaxBatchRows) + " registros por lote",
                    list_name(update));
      const std::string where = std::string(list_name(update)) + "[" + std::to_string(i) + "]";
      try {
        BatchRow row{update, i, store::parse_record_element(*t, &e, where)};
        if (update) {
          if (!row.input.id)
            throw Error(errc::missing_field, "a atualização precisa do campo '" + t->primary_key + "'", where);
          record_id(*t, *row.input.id);
        }
        rows.push_back(std::move(row));
      } catch (const Error& err) {
        return list_error(err, list_name(update), i, " (nada foi gravado)");
      }
      ++i;
    }
  }
  if (rows.empty()) throw Error(errc::missing_field, "informe registros em 'inserir' e/ou 'atualizar'", "inserir");

  const Context& ctx = context(req);
  std::vector<std::string> ids(rows.size());
  std::optional<BatchError> failed;
  ctx.db->run([&](soci::session& s) {
    failed.reset();  // run() may repeat this on a reopened connection
    soci::transaction tx(s);
    for (std::size_t k = 0; k < rows.size() && !failed; ++k) {
      const BatchRow& row = rows[k];
      try {
        auto written = row.update ? store::update_record(s, *t, row.input, ctx.user)
                                  : store::insert_record(s, *t, row.input, ctx.user);
        ids[k] = written.id;
      } catch (const Error& e) {
        failed = BatchError{e, row.update, row.index};
      } catch (const soci::soci_error& e) {
        auto error = store::database_error(e);
        if (!error) throw;  // an internal failure is not the row's: the whole batch fails (500)
        failed = BatchError{*error, row.update, row.index};
      }
    }
    if (failed) tx.rollback();
    else tx.commit();
  });
  if (failed) return list_error(failed->error, list_name(failed->update), failed->index, " (nada foi gravado)");

  JsonWriter w;
  w.begin_object().key("schema_table").value(t.name);
  for (bool update : {false, true}) {
    w.key(update ? "atualizados" : "inseridos").begin_array();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (rows[k].update != update) continue;
      w.begin_object().key("linha").value(static_cast<std::int64_t>(rows[k].index + 1)).key("id").value(ids[k]);
      w.end_object();
    }
    w.end_array();
  }
  w.key("total").value(static_cast<std::int64_t>(rows.size())).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace cadastre::server
