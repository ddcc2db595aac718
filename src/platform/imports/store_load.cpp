// Loading an import's layers: the layer, its form and fields with INSERTs, then the
// geometries and the values with binary COPY (the geometries' ids
// reserved from their sequence first, since a connection in COPY runs nothing else): the
// values one row per geometry into the layer's table (camadas.l<id>, made with the layer and its fields), whose column indexes
// a job of their own builds after the import has committed. See store.hpp.
#include <libpq-fe.h>
#include <soci/soci.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "cadastre/json.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/imports/store.hpp"
#include "store/copy_binary.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::imports {
namespace {

namespace copy_binary = store::copy_binary;
using store::Sql;

std::string text(std::int64_t v) { return std::to_string(v); }

constexpr std::size_t kChunk = std::size_t{1} << 20;

// One COPY ... FROM STDIN on the session's connection, fed in 1 MiB chunks. Destroyed
// unfinished, it aborts the COPY (the transaction then rolls back).
class CopyIn {
 public:
  CopyIn(soci::session& s, const std::string& statement) : conn_(store::native_connection(s)) {
    PGresult* r = PQexec(conn_, statement.c_str());
    bool ok = PQresultStatus(r) == PGRES_COPY_IN;
    PQclear(r);
    if (!ok) throw failure();
    active_ = true;
    buf_.reserve(kChunk + 4096);
  }
  CopyIn(const CopyIn&) = delete;
  CopyIn& operator=(const CopyIn&) = delete;
  ~CopyIn() {
    if (!active_) return;
    PQputCopyEnd(conn_, "importação interrompida");
    while (PGresult* r = PQgetResult(conn_)) PQclear(r);
  }
  void finish() {
    flush();
    active_ = false;
    if (PQputCopyEnd(conn_, nullptr) != 1) throw failure();
    bool ok = true;
    std::string state;
    while (PGresult* r = PQgetResult(conn_)) {
      if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        ok = false;
        if (const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE)) state = s;
      }
      PQclear(r);
    }
    if (!ok) throw Error(errc::invalid_argument, "o banco recusou as feições importadas (SQLSTATE " + state + ")", "file");
  }

 protected:
  void row_done() {
    if (buf_.size() >= kChunk) flush();
  }
  std::string buf_;

 private:
  void flush() {
    if (buf_.empty()) return;
    if (PQputCopyData(conn_, buf_.data(), static_cast<int>(buf_.size())) != 1) throw failure();
    buf_.clear();
  }
  Error failure() const { return Error(errc::unavailable, "falha ao gravar as feições no banco (COPY)"); }

  PGconn* conn_;
  bool active_ = false;
};

// COPY's binary format (store/copy_binary.hpp): the header at the start, the trailer at
// the end.
class BinaryCopy : public CopyIn {
 public:
  BinaryCopy(soci::session& s, const std::string& target)
      : CopyIn(s, fmt::format("copy {} from stdin (format binary)", target)) {
    copy_binary::header(buf_);
  }
  void finish() {
    copy_binary::trailer(buf_);
    CopyIn::finish();
  }
};

// The geometries (id, camada_id, geom, criado_por, atualizado_por): bigints as 8 bytes and
// the geometry as its EWKB, which PostgreSQL reads as it is (no hex written here and
// parsed there, half the bytes sent).
class GeometryCopy : public BinaryCopy {
 public:
  GeometryCopy(soci::session& s, const std::string& target)
      : BinaryCopy(s, target + " (id, camada_id, geom, criado_por, atualizado_por)") {}
  void row(std::int64_t id, std::int64_t camada, std::string_view ewkb, std::int64_t user) {
    copy_binary::row(buf_, 5);
    copy_binary::bigint(buf_, id);
    copy_binary::bigint(buf_, camada);
    copy_binary::bytes(buf_, ewkb);
    copy_binary::bigint(buf_, user);
    copy_binary::bigint(buf_, user);
    row_done();
  }
};

// The values (id, then a column per field): each value's text encoded as its column's
// type reads it (numeric, date, text...), so PostgreSQL stores it without parsing it. A
// text the type would refuse fails the import, as PostgreSQL's refusal did in the text
// format (the values' texts are written by features.cpp in the forms their types read).
class ValuesCopy : public BinaryCopy {
 public:
  ValuesCopy(soci::session& s, const std::string& target, const std::vector<FieldDef>& fields)
      : BinaryCopy(s, target) {
    for (const FieldDef& f : fields) {
      std::string type = common::column_type(f.tipo);
      const Encoding e = type == "numeric" ? Encoding::numeric
                         : type == "date"  ? Encoding::date
                         : type == "boolean" ? Encoding::boolean
                         : type == "jsonb"   ? Encoding::jsonb
                                             : Encoding::bytes;
      columns_.push_back({e, std::move(type), f.nome});
    }
  }
  void row(std::int64_t id, const std::vector<std::optional<std::string>>& values, std::int64_t feature) {
    copy_binary::row(buf_, static_cast<std::uint16_t>(columns_.size() + 1));
    copy_binary::bigint(buf_, id);
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      if (!values[k]) {
        copy_binary::null(buf_);
        continue;
      }
      const Column& c = columns_[k];
      if (!encode(c.encoding, *values[k]))
        throw Error(errc::invalid_argument,
                    fmt::format("feição {}, campo {}: o valor não é do tipo do campo ({})", feature, c.name, c.type),
                    "file");
    }
    row_done();
  }

 private:
  // How a column's values are written, chosen once from its type (common::column_type).
  enum class Encoding { numeric, date, boolean, jsonb, bytes };
  struct Column {
    Encoding encoding;
    std::string type, name;  // for the message of a value the type does not read
  };
  // `text` as `e` writes it; false when the column's type does not read it.
  bool encode(Encoding e, const std::string& text) {
    switch (e) {
      case Encoding::numeric: return copy_binary::numeric(buf_, text);
      case Encoding::date: return copy_binary::date(buf_, text);
      case Encoding::boolean: return copy_binary::boolean(buf_, text);
      case Encoding::jsonb: copy_binary::jsonb(buf_, text); return true;
      case Encoding::bytes: copy_binary::bytes(buf_, text); return true;
    }
    return false;
  }
  std::vector<Column> columns_;  // per field
};

std::int64_t insert_returning(soci::session& s, const Sql& q) {
  return std::stoll(store::fetch_value(s, q).value_or("0"));
}

// `n` new ids of projeto.geometrias (from its sequence: safe with concurrent writers).
std::vector<std::int64_t> reserve_ids(soci::session& s, std::size_t n) {
  Sql q("select string_agg(nextval('projeto.geometrias_id_seq')::text, ',') from generate_series(1, ");
  q.bind(std::to_string(n), "integer"), q << ")";
  std::string all = store::fetch_value(s, q).value_or("");
  std::vector<std::int64_t> ids;
  ids.reserve(n);
  const char* p = all.c_str();
  while (*p) {
    char* end;
    ids.push_back(std::strtoll(p, &end, 10));
    p = *end ? end + 1 : end;
  }
  return ids;
}

}  // namespace

void begin_load(soci::session& s) {
  // One import may copy a million values: the pool's statement limit is for requests. The
  // new layers' tables are filled before their indexes are built: faster.
  store::fetch(s, Sql("select set_config('statement_timeout', '15min', true), "
                      "set_config('cadastre.indices_depois', 'on', true)"));
}

namespace {

// A new layer (its tables made by its trigger) and its one form, named as the layer.
struct NewLayer {
  std::int64_t camada = 0, formulario = 0;
};
NewLayer insert_layer(soci::session& s, const LoadInfo& info, const std::string& nome, const std::string& geometria) {
  const std::string user = text(info.user);
  Sql layer("insert into projeto.camadas (projeto_id, nome, geometria, propriedades, ordem, criado_por) values (");
  layer.bind(text(info.projeto), "bigint"), layer << ", ", layer.bind(nome.substr(0, 200)), layer << ", ";
  layer.bind(geometria), layer << ", ", layer.bind(info.propriedades, "jsonb");
  layer << ", (select coalesce(max(ordem) + 1, 0) from projeto.camadas where projeto_id = ";
  layer.bind(text(info.projeto), "bigint"), layer << "), ", layer.bind(user, "bigint"), layer << ") returning id";
  NewLayer out;
  out.camada = insert_returning(s, layer);
  Sql form("insert into projeto.formularios (camada_id, nome) values (");
  form.bind(text(out.camada), "bigint"), form << ", ", form.bind(nome.substr(0, 200)), form << ") returning id";
  out.formulario = insert_returning(s, form);
  return out;
}

// The form's fields, in order (each adds its column to the layer's table): their ids.
std::vector<std::int64_t> insert_fields(soci::session& s, std::int64_t formulario, const std::vector<FieldDef>& fields) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    Sql f("insert into projeto.campos (formulario_id, nome, chave, tipo, ordem) values (");
    f.bind(text(formulario), "bigint"), f << ", ", f.bind(fields[i].nome), f << ", ", f.bind(fields[i].chave);
    f << ", ", f.bind(fields[i].tipo), f << ", ", f.bind(std::to_string(i), "integer"), f << ") returning id";
    out.push_back(insert_returning(s, f));
  }
  return out;
}

// The rows' values into the layer's table: one row per geometry with a value, a column per
// field (`campos`, the ids of `fields`), in COPY's binary format.
void copy_values(soci::session& s, std::int64_t camada, const std::vector<std::int64_t>& campos,
                 const std::vector<FieldDef>& fields, const std::vector<Row>& rows, const std::vector<std::int64_t>& ids,
                 jobs::Context& ctx, std::int64_t done, std::int64_t total) {
  if (campos.empty()) return;
  std::string target = common::layer_table(camada) + " (id";
  for (auto c : campos) target += ", " + common::field_column(c);
  ValuesCopy values(s, target + ")", fields);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i].values;
    if (std::any_of(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(campos.size()),
                    [](const auto& v) { return v.has_value(); }))
      values.row(ids[i], row, static_cast<std::int64_t>(i) + 1);
    if (i % 10000 == 9999) ctx.progress(done, total);
  }
  values.finish();
}

// An import's geometries, copied into the layer's bare partition as they come (while the
// file is read, or from rows read before). Ids are taken from their sequence `block` at a
// time: a connection in COPY runs nothing else, so each block ends the COPY, takes the
// next ids and starts another (the last block's unused ids are a gap in the sequence).
class GeometryStream {
 public:
  static constexpr std::size_t kBlock = 50000;  // a streamed read's block: its count unknown
  GeometryStream(soci::session& s, std::int64_t camada, std::int64_t user, std::size_t block)
      : s_(s), target_(common::geometry_partition(camada)), layer_(camada), user_(user),
        block_(std::max<std::size_t>(block, 1)) {}

  void add(std::string_view ewkb) {
    if (used_ == ids_.size()) next_block();
    copy_->row(ids_[used_++], layer_, ewkb, user_);
  }
  // The ids given, in order.
  std::vector<std::int64_t> finish() {
    if (copy_) copy_->finish();
    copy_.reset();
    ids_.resize(used_);
    return std::move(ids_);
  }

 private:
  void next_block() {
    if (copy_) copy_->finish();
    copy_.reset();
    std::vector<std::int64_t> more = reserve_ids(s_, block_);
    if (more.size() != block_) throw Error(errc::internal, "ids de geometrias não reservados");
    ids_.insert(ids_.end(), more.begin(), more.end());
    copy_.emplace(s_, target_);
  }

  soci::session& s_;
  const std::string target_;
  const std::int64_t layer_, user_;
  const std::size_t block_;
  std::vector<std::int64_t> ids_;
  std::size_t used_ = 0;
  std::optional<GeometryCopy> copy_;
};

}  // namespace

Created create_layer(soci::session& s, const LoadInfo& info, const std::string& nome, const std::string& geometria,
                     const std::vector<FieldDef>& fields) {
  NewLayer l = insert_layer(s, info, nome, geometria);
  return {l.camada, insert_fields(s, l.formulario, fields)};
}

void attach_layer(soci::session& s, std::int64_t camada) {
  Sql q("select projeto.camada_anexar(");
  q.bind(text(camada), "bigint"), q << ")::text";
  store::fetch_value(s, q);
}

void index_columns(store::Pool& db, std::int64_t camada, jobs::Context& ctx) {
  db.run([&](soci::session& s) {
    soci::transaction tx(s);
    // The build may take minutes on a large layer; it waits for a writer of the layer's
    // table for 10 s at most (the job is then retried), rather than queue every other
    // writer of the layer behind it.
    store::fetch(s, Sql("select set_config('statement_timeout', '15min', true), "
                        "set_config('lock_timeout', '10s', true)"));
    Sql q("select projeto.camada_indices(");
    q.bind(text(camada), "bigint"), q << ")::text";
    store::fetch_value(s, q);
    ctx.complete(s);
    tx.commit();
  });
}

void bump_generation(soci::session& s, std::int64_t camada) {
  // Tiles are cached by the layer's generation: a new layer's first one is bumped like
  // every write, so a cache keyed by (layer, generation) never serves an older state.
  Sql bump("update projeto.camadas set geracao = geracao + 1 where id = ");
  bump.bind(text(camada), "bigint");
  store::execute(s, bump);
}

jobs::Layer load_target(soci::session& s, const LoadInfo& info, const Target& t, jobs::Context& ctx,
                        std::int64_t& done, std::int64_t total) {
  Created created = create_layer(s, info, t.nome, t.geometria, t.fields);
  GeometryStream geometries(s, created.camada, info.user, t.rows.size());  // the ids in one block
  for (const Row& r : t.rows) {
    geometries.add(r.ewkb);
    if (++done % 10000 == 0) ctx.progress(done, total);
  }
  copy_values(s, created.camada, created.campos, t.fields, t.rows, geometries.finish(), ctx, done, total);
  attach_layer(s, created.camada);
  bump_generation(s, created.camada);
  return {created.camada, t.nome.substr(0, 200), t.geometria, static_cast<std::int64_t>(t.rows.size())};
}

void record_import(soci::session& s, const LoadInfo& info, const std::string& tipo,
                   const std::vector<jobs::Layer>& layers) {
  JsonWriter w;
  w.begin_object().key("idImportacao").value(info.job).key("tipo").value(tipo).key("camadas").begin_array();
  for (const auto& l : layers) w.begin_object().key("id").value(l.id).key("feicoes").value(l.feicoes).end_object();
  w.end_array().end_object();
  Sql q("insert into projeto.eventos (projeto_id, operacao, detalhes, usuario_id) values (");
  q.bind(text(info.projeto), "bigint"), q << ", 'importacao', ", q.bind(std::move(w).str(), "jsonb"), q << ", ";
  q.bind(text(info.user), "bigint"), q << ")";
  store::execute(s, q);
}

void finish_load(soci::session& s, const LoadInfo& info, const std::string& tipo,
                 const std::vector<jobs::Layer>& layers, jobs::Context& ctx) {
  record_import(s, info, tipo, layers);
  for (const auto& l : layers) {
    ctx.layer(l);
    // The job that builds the layer's column indexes once this one has committed.
    JsonWriter w;
    w.begin_object().key("camada").value(l.id).key("importacao").value(info.job).end_object();
    ctx.follow(s, jobs::Job{.tipo = "indices", .handler = {}, .parametros = std::move(w).str(),
                            .codigo = std::nullopt, .projeto = info.projeto, .entrada = std::nullopt});
  }
  ctx.complete(s);
}

void load_file(store::Pool& db, const LoadInfo& info, const std::string& tipo, const std::vector<Target>& targets,
               jobs::Context& ctx) {
  std::int64_t total = 0;
  for (const auto& t : targets) total += static_cast<std::int64_t>(t.rows.size());
  db.run([&](soci::session& s) {
    soci::transaction tx(s);
    begin_load(s);
    std::int64_t done = 0;
    std::vector<jobs::Layer> layers;
    for (const auto& t : targets) layers.push_back(load_target(s, info, t, ctx, done, total));
    finish_load(s, info, tipo, layers, ctx);
    tx.commit();
  });
}

void stream_file(store::Pool& db, const LoadInfo& info, const std::string& tipo, const std::string& nome,
                 const std::function<std::vector<Target>(const GeometrySink&)>& read,
                 const std::function<void(std::int64_t)>& reserve, jobs::Context& ctx) {
  db.run([&](soci::session& s) {
    soci::transaction tx(s);
    begin_load(s);
    // The layer first, so that its partition takes the geometries while the file is read;
    // its type and fields once the whole file is known (a KML's empty fields are dropped,
    // a Z makes the field cota).
    const NewLayer l = insert_layer(s, info, nome, "qualquer");
    GeometryStream geometries(s, l.camada, info.user, GeometryStream::kBlock);
    std::vector<Target> targets = read([&](std::string ewkb) { geometries.add(std::move(ewkb)); });
    const std::vector<std::int64_t> ids = geometries.finish();
    if (targets.size() != 1 || ids.size() != targets[0].rows.size())
      throw Error(errc::internal, "a leitura em fluxo não deu uma camada com uma geometria por linha");
    const Target& t = targets[0];
    reserve(stored_bytes(targets));
    Sql type("update projeto.camadas set geometria = ");
    type.bind(t.geometria) << " where id = ";
    type.bind(text(l.camada), "bigint");
    store::execute(s, type);
    const std::int64_t n = static_cast<std::int64_t>(t.rows.size());
    copy_values(s, l.camada, insert_fields(s, l.formulario, t.fields), t.fields, t.rows, ids, ctx, n, n);
    attach_layer(s, l.camada);
    bump_generation(s, l.camada);
    finish_load(s, info, tipo, {{l.camada, nome.substr(0, 200), t.geometria, n}}, ctx);
    tx.commit();
  });
}

}  // namespace cadastre::platform::imports
