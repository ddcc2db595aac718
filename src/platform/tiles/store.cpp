#include "platform/tiles/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/prepared.hpp"

namespace cadastre::platform::tiles {
namespace {

// The layer's generation (bumped by every write of its geometries, values and style: the
// ETag) and, for /vt2, the active fields its stored style reads ($3). $2 restricts to
// what /svt may show without a session.
const std::string kLayerSql =
    "select c.geracao::text, c.tipo, coalesce(f.ids, '{}'), coalesce(f.chaves, '') "
    "from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id "
    "left join lateral (select array_agg(s.id order by s.id)::text as ids, "
    "string_agg(s.chave, ',' order by s.id) as chaves from ("
    "select k.id, k.chave from projeto.campos k join projeto.formularios fo on fo.id = "
    "k.formulario_id "
    "where $3::boolean and fo.camada_id = c.id and k.ativo and k.id in ("
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

// /vt2 adds one jsonb column, which ST_AsMVT spreads into properties. MVT values cannot
// nest, so a multipla list goes as its JSON text; $6 the field ids (bigint[] text).
constexpr const char* kAttributes =
    ", coalesce((select jsonb_object_agg(k.chave, projeto.valor_json(coalesce(v.texto, "
    "v.lista::text), "
    "v.numero, v.data, v.booleano, null)) from projeto.valores v join projeto.campos k on k.id = "
    "v.campo_id "
    "where v.geometria_id = g.id and v.campo_id = any($6::bigint[])), '{}') || "
    "jsonb_strip_nulls(jsonb_build_object('_rotulo', r.texto, '_rotacao', r.rotacao)) as atributos";
constexpr const char* kLabelJoin =
    " left join projeto.rotulos_geometria r on r.geometria_id = g.id";

const std::string kPlainTile = std::string(kTileHead) + kTileFrom + kTileWhere;
const std::string kAttributeTile =
    std::string(kTileHead) + kAttributes + kTileFrom + kLabelJoin + kTileWhere;

}  // namespace

std::string mvt_layer_name(std::int64_t layer) { return "camada_" + std::to_string(layer); }

TileAnswer render(store::Pool& db, const TileRequest& r,
                  const std::function<bool(const std::string&)>& fresh) {
  const std::string id = std::to_string(r.layer);
  const std::string& sql = r.attributes ? kAttributeTile : kPlainTile;
  return db.with([&](soci::session& s) {
    auto layer = store::run_prepared_binary(
        s, kLayerSql, {id, r.published_only ? "true" : "false", r.attributes ? "true" : "false"});
    if (layer.empty()) throw Error(errc::not_found, "camada " + id + " não encontrada", "camada");
    const store::BinaryRow& l = layer[0];
    if (l.at(1).value_or("") != "vetor")
      throw Error(errc::not_found, "a camada " + id + " não é vetorial: não há tiles para ela",
                  "camada");
    const std::string fields = l.at(2).value_or("{}");
    TileAnswer o;
    // A change of the style's fields (or of their chaves) changes the tiles as surely as
    // a write does; the statement digest covers a new release's SQL.
    o.etag = "\"" + l.at(0).value_or("0") + "-" +
             store::digest(sql + fields + l.at(3).value_or("")).substr(0, 10) + "\"";
    if (fresh(o.etag)) {
      o.not_modified = true;
      return o;
    }
    std::vector<std::string> params{std::to_string(r.tile.z), std::to_string(r.tile.x),
                                    std::to_string(r.tile.y), mvt_layer_name(r.layer), id};
    if (r.attributes) params.push_back(fields);
    auto rows = store::run_prepared_binary(s, sql, params);
    if (!rows.empty() && rows[0][0]) o.mvt = std::move(*rows[0][0]);
    return o;
  });
}

}  // namespace cadastre::platform::tiles
