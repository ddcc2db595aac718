#include "platform/tiles/store.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "platform/common/layer_table.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::tiles {
namespace {

// /vt2's first statement: the layer's generation (bumped by every write of its geometries,
// values and style: the ETag) and the active fields its stored style reads, with their
// chaves and types. $2 restricts to what /svt may show without a session.
const std::string kLayerSql =
    "select c.geracao::text, c.tipo, coalesce(f.ids, '{}'), coalesce(f.chaves, ''), coalesce(f.tipos, '') "
    "from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id "
    "left join lateral (select array_agg(s.id order by s.id)::text as ids, "
    "string_agg(s.chave, ',' order by s.id) as chaves, string_agg(s.tipo, ',' order by s.id) as tipos from ("
    "select k.id, k.chave, k.tipo from projeto.campos k join projeto.formularios fo on fo.id = "
    "k.formulario_id "
    "where fo.camada_id = c.id and k.ativo and k.id in ("
    "select (c.categorias ->> 'idCampo')::bigint "
    "union all select (e ->> 'id')::bigint from jsonb_array_elements(case when "
    "jsonb_typeof(c.rotulo -> 'campos') = 'array' then c.rotulo -> 'campos' else '[]' end) e "
    "union all select (c.rotulo -> 'rotacao' ->> 'id')::bigint) "
    "order by k.id limit " +
    std::to_string(kMaxAttributes) +
    ") s) f on true "
    "where c.id = $1::bigint and (not $2::boolean or "
    "(p.publicado and p.ativo and c.ativo and not c.privada))";

// The tile: the && filter compares the stored geometry with the tile envelope in SIRGAS
// 2000, so the GiST index on projeto.geometrias.geom is used; only the rows in the tile
// are projected. The margin (64 of 4096) keeps polygon edges from showing at tile seams.
// $1 z, $2 x, $3 y, $4 MVT layer name, $5 layer id.
constexpr const char* kTileHead =
    "select ST_AsMVT(q, $4::text, 4096, 'geom', 'id') from (select g.id, "
    "ST_AsMVTGeom(ST_Transform(g.geom, 3857), e.env, 4096, 64, true) as geom";
constexpr const char* kTileFrom =
    " from (select ST_TileEnvelope($1::integer, $2::integer, $3::integer) as env) e "
    "join projeto.geometrias g on g.geom && ST_Transform(e.env, 4674)";
constexpr const char* kTileWhere = " where g.camada_id = $5::bigint) q";

constexpr const char* kLabelJoin =
    " left join projeto.rotulos_geometria r on r.geometria_id = g.id";

// A field the layer's style reads.
struct StyleField {
  std::int64_t id = 0;
  std::string chave, tipo;
};

// The comma-separated items of `list`.
std::vector<std::string> split_list(std::string_view list) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i <= list.size();) {
    std::size_t j = std::min(list.find(',', i), list.size());
    out.emplace_back(list.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// The fields of kLayerSql's row: ids (a bigint[]'s text), chaves and types (comma-separated:
// machine names hold no comma).
std::vector<StyleField> style_fields(const std::string& ids, const std::string& chaves, const std::string& tipos) {
  std::vector<StyleField> out;
  std::vector<std::int64_t> id = store::parse_id_array(ids);
  if (id.empty()) return out;
  std::vector<std::string> chave = split_list(chaves), tipo = split_list(tipos);
  for (std::size_t i = 0; i < id.size() && i < chave.size() && i < tipo.size(); ++i)
    out.push_back({id[i], chave[i], tipo[i]});
  return out;
}

// /vt2's tile of layer `layer`: one more jsonb column, which ST_AsMVT spreads into
// properties: the values of the style's `fields` in the geometry's row of the layer's
// table (one primary key probe per feature), keyed by chave, without NULLs (no value), and
// the geometry's own label override. MVT values cannot nest, so a multipla list goes as
// its JSON text. The statement names the layer's table and the fields' columns: each layer
// and style has its own, prepared once per connection like the others.
std::string attribute_tile_sql(std::int64_t layer, const std::vector<StyleField>& fields) {
  std::string values = "'{}'::jsonb", join;
  if (!fields.empty()) {
    // A chave is a machine name (^[a-z][a-z0-9_]{0,62}$, checked by the table): a literal.
    values = "jsonb_strip_nulls(jsonb_build_object(";
    for (std::size_t i = 0; i < fields.size(); ++i)
      values += (i ? ", '" : "'") + fields[i].chave + "', a." + common::field_column(fields[i].id) +
                (field_values::column_of(fields[i].tipo) == "lista" ? "::text" : "");
    values += "))";
    join = " left join " + common::layer_table(layer) + " a on a.id = g.id";
  }
  return std::string(kTileHead) + ", " + values +
         " || jsonb_strip_nulls(jsonb_build_object('_rotulo', r.texto, '_rotacao', r.rotacao)) as atributos" +
         kTileFrom + kLabelJoin + join + kTileWhere;
}

// /vt and /svt in one round trip: the layer's generation and type, and its tile unless the
// client or the cache holds that generation already ($6, bigint[]: the generations its
// If-None-Match names with this statement's digest, and the cached tile's) or the layer is
// not a vector one. $7 is kLayerSql's $2 (published only).
const std::string kPlainTile =
    "select l.geracao::text, l.tipo, case when l.tipo = 'vetor' and not l.geracao = any($6::bigint[]) then (" +
    std::string(kTileHead) + kTileFrom + kTileWhere +
    ") end from (select c.geracao, c.tipo from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id "
    "where c.id = $5::bigint and (not $7::boolean or (p.publicado and p.ativo and c.ativo and not c.privada))) l";

// The ETag: the generation, then a digest of the statement and of what the style adds to
// a tile (a change of the style's fields, or of their chaves, changes the tiles as surely
// as a write does; a new release's SQL changes the digest).
std::string digest_of(const std::string& sql, const std::string& fields, const std::string& keys) {
  return store::digest(sql + fields + keys).substr(0, 10);
}
std::string etag(const std::string& generation, const std::string& digest) {
  return "\"" + generation + "-" + digest + "\"";
}
bool listed_in(const std::vector<std::string_view>& listed, const std::string& tag) {
  for (std::string_view t : listed)
    if (t == "*" || t == tag) return true;
  return false;
}

// The generations the client's tags name with `digest` ("<generation>-<digest>"), as a
// bigint[] literal, at most kMaxGenerations of them (a client holds one or two versions
// of a tile; past that a tag only costs the statement a comparison, so the rest are not
// read and the tile is rendered); tags of another statement or style name none.
constexpr std::size_t kMaxGenerations = 8;
std::string generations_named(const std::vector<std::string_view>& listed, const std::string& digest,
                              std::optional<std::int64_t> cached) {
  std::string out = "{";
  std::size_t named = 0;
  if (cached) out += std::to_string(*cached), ++named;
  for (std::string_view t : listed) {
    if (named == kMaxGenerations + (cached ? 1 : 0)) break;
    if (t.size() < digest.size() + 4 || t.front() != '"' || t.back() != '"') continue;
    std::string_view inner = t.substr(1, t.size() - 2);
    auto dash = inner.rfind('-');
    if (dash == std::string_view::npos || inner.substr(dash + 1) != digest) continue;
    std::string_view generation = inner.substr(0, dash);
    if (generation.empty() || generation.size() > 18 ||
        generation.find_first_not_of("0123456789") != std::string_view::npos)
      continue;
    if (named++) out += ',';
    out += generation;
  }
  return out + "}";
}

TileAnswer answer_plain(soci::session& s, TileCache& cache, const TileRequest& r,
                        const std::vector<std::string_view>& listed) {
  static const std::string digest = digest_of(kPlainTile, "{}", "");
  const std::string id = std::to_string(r.layer);
  const TileKey key{r.tenant, r.layer, r.tile.z, r.tile.x, r.tile.y};
  std::optional<TileCache::Entry> cached = cache.find(key);
  auto rows = store::run_prepared_binary(
      s, kPlainTile,
      {std::to_string(r.tile.z), std::to_string(r.tile.x), std::to_string(r.tile.y), mvt_layer_name(r.layer), id,
       generations_named(listed, digest, cached ? std::optional(cached->generation) : std::nullopt),
       r.published_only ? "true" : "false"});
  if (rows.empty()) throw Error(errc::not_found, "camada " + id + " não encontrada", "camada");
  const store::BinaryRow& row = rows[0];
  if (row.at(1).value_or("") != "vetor")
    throw Error(errc::not_found, "a camada " + id + " não é vetorial: não há tiles para ela", "camada");
  TileAnswer o;
  const std::string generation = row.at(0).value_or("0");
  o.etag = etag(generation, digest);
  o.not_modified = listed_in(listed, o.etag);
  if (o.not_modified) return o;
  if (row.at(2)) {  // rendered: the cache had none, or an older generation
    o.mvt = std::move(*row.at(2));
    cache.put(key, std::stoll(generation), o.mvt);
  } else if (cached && std::to_string(cached->generation) == generation) {
    o.mvt = std::move(cached->mvt);
  }
  return o;
}

}  // namespace

std::string mvt_layer_name(std::int64_t layer) { return "camada_" + std::to_string(layer); }

TileAnswer render(store::Pool& db, TileCache& cache, const TileRequest& r,
                  const std::vector<std::string_view>& listed) {
  if (!r.attributes) return db.with([&](soci::session& s) { return answer_plain(s, cache, r, listed); });
  const std::string id = std::to_string(r.layer);
  return db.with([&](soci::session& s) {
    auto layer = store::run_prepared_binary(s, kLayerSql, {id, r.published_only ? "true" : "false"});
    if (layer.empty()) throw Error(errc::not_found, "camada " + id + " não encontrada", "camada");
    const store::BinaryRow& l = layer[0];
    if (l.at(1).value_or("") != "vetor")
      throw Error(errc::not_found, "a camada " + id + " não é vetorial: não há tiles para ela",
                  "camada");
    const std::string fields = l.at(2).value_or("{}");
    const std::string sql =
        attribute_tile_sql(r.layer, style_fields(fields, l.at(3).value_or(""), l.at(4).value_or("")));
    TileAnswer o;
    o.etag = etag(l.at(0).value_or("0"), digest_of(sql, fields, l.at(3).value_or("")));
    if (listed_in(listed, o.etag)) {
      o.not_modified = true;
      return o;
    }
    std::vector<std::string> params{std::to_string(r.tile.z), std::to_string(r.tile.x),
                                    std::to_string(r.tile.y), mvt_layer_name(r.layer), id};
    auto rows = store::run_prepared_binary(s, sql, params);
    if (!rows.empty() && rows[0][0]) o.mvt = std::move(*rows[0][0]);
    return o;
  });
}

}  // namespace cadastre::platform::tiles
