// Reading features: see features.hpp.
#include "platform/imports/features.hpp"

#include <cpl_conv.h>
#include <cpl_string.h>
#include <gdal_priv.h>
#include <ogr_geometry.h>
#include <ogr_spatialref.h>
#include <ogrsf_frmts.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

namespace cadastre::platform::imports {
namespace {

constexpr int kSrid = 4674;

std::string family_of(const OGRGeometry& g) {
  switch (wkbFlatten(g.getGeometryType())) {
    case wkbPoint:
    case wkbMultiPoint: return "ponto";
    case wkbLineString:
    case wkbMultiLineString: return "linha";
    case wkbPolygon:
    case wkbMultiPolygon: return "poligono";
    default: return "qualquer";
  }
}

// What MakeValid made of a geometry of `family`: only the parts of that family (a polygon
// with a collapsed spike becomes a polygon and a line: the line is dropped); null when
// nothing of the family is left.
std::unique_ptr<OGRGeometry> keep_family(std::unique_ptr<OGRGeometry> g, const std::string& family) {
  if (family == "qualquer" || family_of(*g) == family) return g;
  auto* coll = dynamic_cast<OGRGeometryCollection*>(g.get());
  if (!coll) return nullptr;
  std::unique_ptr<OGRGeometryCollection> out;
  if (family == "ponto") out = std::make_unique<OGRMultiPoint>();
  else if (family == "linha") out = std::make_unique<OGRMultiLineString>();
  else out = std::make_unique<OGRMultiPolygon>();
  for (auto* part : *coll) {
    if (family_of(*part) != family) continue;
    if (auto* sub = dynamic_cast<OGRGeometryCollection*>(part)) {
      for (auto* p : *sub) out->addGeometry(p);
    } else {
      out->addGeometry(part);
    }
  }
  if (out->IsEmpty()) return nullptr;
  return out;
}

// The vertices of a geometry (rings and parts summed), read without copying it.
std::size_t vertices(const OGRGeometry& g) {
  switch (wkbFlatten(g.getGeometryType())) {
    case wkbPoint: return 1;
    case wkbLineString:
    case wkbLinearRing: return static_cast<std::size_t>(g.toLineString()->getNumPoints());
    case wkbPolygon: {
      std::size_t n = 0;
      for (const auto* ring : *g.toPolygon()) n += static_cast<std::size_t>(ring->getNumPoints());
      return n;
    }
    default: break;
  }
  if (const auto* coll = dynamic_cast<const OGRGeometryCollection*>(&g)) {
    std::size_t n = 0;
    for (const auto* part : *coll) n += vertices(*part);
    return n;
  }
  return 1;  // other types (curves are made linear before they are counted)
}

// EWKB (little-endian, SRID 4674): COPY's binary form of a PostGIS geometry.
std::string to_ewkb(const OGRGeometry& g) {
  const std::size_t size = static_cast<std::size_t>(g.WkbSize());
  std::string out(size + 4, '\0');
  auto* p = reinterpret_cast<unsigned char*>(out.data());
  // WKB's byte order and type, then the SRID, then the rest of the WKB.
  g.exportToWkb(wkbNDR, p + 4, wkbVariantOldOgc);
  p[0] = p[4];
  std::uint32_t type;
  std::memcpy(&type, p + 5, 4);
  type |= 0x20000000u;  // EWKB: an SRID follows the type
  const std::uint32_t srid = kSrid;
  std::memcpy(p + 1, &type, 4);  // little-endian hosts (x86, ARM)
  std::memcpy(p + 5, &srid, 4);
  return out;
}

std::string type_of(const OGRFieldDefn& f) {
  switch (f.GetType()) {
    case OFTInteger:
    case OFTInteger64: return "inteiro";
    case OFTReal: return "decimal";
    case OFTDate: return "data";
    default: return "texto";
  }
}

// The text of field `i` of `f` for a field of `tipo`; none when unset, null or unusable.
std::optional<std::string> value_of(OGRFeature& f, int i, const std::string& tipo, std::int64_t n,
                                    const std::string& nome) {
  if (!f.IsFieldSetAndNotNull(i)) return std::nullopt;
  if (tipo == "inteiro") return std::to_string(f.GetFieldAsInteger64(i));
  if (tipo == "decimal") {
    double d = f.GetFieldAsDouble(i);
    if (!std::isfinite(d)) return std::nullopt;
    return fmt::format("{}", d);
  }
  if (tipo == "data") {
    int y, m, d, h, mi, tz;
    float s;
    if (!f.GetFieldAsDateTime(i, &y, &m, &d, &h, &mi, &s, &tz) || y <= 0) return std::nullopt;
    return fmt::format("{:04}-{:02}-{:02}", y, m, d);
  }
  std::string t = f.GetFieldAsString(i);
  if (!CPLIsUTF8(t.c_str(), static_cast<int>(t.size())))
    throw Error(errc::invalid_argument, fmt::format("feição {}, campo {}: o texto não é UTF-8 válido (corrija o "
                                                    ".cpg do arquivo ou informe encoding)", n, nome), "encoding");
  if (t.empty()) return std::nullopt;
  if (t.size() > 100000) throw Error(errc::invalid_argument, fmt::format("feição {}, campo {}: texto longo demais", n, nome), "file");
  return t;
}

// Transliterates the Latin-1 letters of Portuguese (UTF-8, two bytes: C3 xx) to ASCII.
char fold(unsigned char second) {
  static const std::map<unsigned char, char> m = {
      {0x80, 'a'}, {0x81, 'a'}, {0x82, 'a'}, {0x83, 'a'}, {0x84, 'a'}, {0x87, 'c'}, {0x88, 'e'}, {0x89, 'e'},
      {0x8A, 'e'}, {0x8B, 'e'}, {0x8C, 'i'}, {0x8D, 'i'}, {0x8E, 'i'}, {0x8F, 'i'}, {0x91, 'n'}, {0x92, 'o'},
      {0x93, 'o'}, {0x94, 'o'}, {0x95, 'o'}, {0x96, 'o'}, {0x99, 'u'}, {0x9A, 'u'}, {0x9B, 'u'}, {0x9C, 'u'},
      {0xA0, 'a'}, {0xA1, 'a'}, {0xA2, 'a'}, {0xA3, 'a'}, {0xA4, 'a'}, {0xA7, 'c'}, {0xA8, 'e'}, {0xA9, 'e'},
      {0xAA, 'e'}, {0xAB, 'e'}, {0xAC, 'i'}, {0xAD, 'i'}, {0xAE, 'i'}, {0xAF, 'i'}, {0xB1, 'n'}, {0xB2, 'o'},
      {0xB3, 'o'}, {0xB4, 'o'}, {0xB5, 'o'}, {0xB6, 'o'}, {0xB9, 'u'}, {0xBA, 'u'}, {0xBB, 'u'}, {0xBC, 'u'}};
  auto it = m.find(second);
  return it == m.end() ? '_' : it->second;
}

// DXF_CLOSED_LINE_AS_POLYGON for this thread, for a scope (even one left by an exception).
class DxfPolygons {
 public:
  explicit DxfPolygons(bool on) : on_(on) {
    if (on_) CPLSetThreadLocalConfigOption("DXF_CLOSED_LINE_AS_POLYGON", "TRUE");
  }
  ~DxfPolygons() {
    if (on_) CPLSetThreadLocalConfigOption("DXF_CLOSED_LINE_AS_POLYGON", nullptr);
  }
  DxfPolygons(const DxfPolygons&) = delete;
  DxfPolygons& operator=(const DxfPolygons&) = delete;

 private:
  bool on_;
};

// The layers being filled while reading, and where each feature's attributes go.
class Builder {
 public:
  Builder(Source& src, const Params& params, jobs::Context& ctx, const limits::TableLimits& limits,
          const GeometrySink& sink)
      : src_(src), params_(params), ctx_(ctx), limits_(limits), sink_(sink),
        text_(limits.max_attribute_bytes, "o texto dos atributos do arquivo"),
        vertices_(limits::max_total_vertices(src.decoded_bytes(), limits), "os vértices do arquivo", false) {
    OGRSpatialReference sirgas;
    sirgas.importFromEPSG(kSrid);
    sirgas.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    ct_.reset(OGRCreateCoordinateTransformation(&src.crs(), &sirgas));
    if (!ct_) throw Error(errc::invalid_argument, "não há transformação de " + src.crs_name() + " para SIRGAS 2000", "srid");
    if (sink_ && src.format() == Format::dxf) throw std::logic_error("um DXF não é lido em fluxo");
  }

  std::vector<Target> run() {
    GDALDataset& ds = src_.dataset();
    std::int64_t total = 0;
    for (auto* layer : ds.GetLayers()) total += std::max<GIntBig>(0, layer->GetFeatureCount(FALSE));
    // Closed polylines are polygons (the driver reads the option while iterating).
    DxfPolygons polygons(src_.format() == Format::dxf);
    for (auto* layer : ds.GetLayers()) {
      std::vector<int> map = field_map(*layer->GetLayerDefn());
      layer->ResetReading();
      for (auto& feature : *layer) {
        auto& c = ctx_.counts();
        if (++c.lidas > limits_.max_features)
          throw Error(errc::payload_too_large, "o arquivo tem mais de " + std::to_string(limits_.max_features) + " feições", "file");
        if (c.lidas % 2000 == 0) ctx_.progress(c.lidas, total);
        take(*feature, map, c.lidas);
      }
    }
    return finish();
  }

 private:
  struct Out {
    Target t;
    std::vector<std::optional<double>> cota;
    std::vector<std::string> keys;
    std::map<std::string, std::size_t> by_name;
    std::string family;  // streamed: the family of every geometry so far ("qualquer" when mixed)
  };

  Out& target(const std::string& family) {
    std::string key = src_.format() == Format::dxf ? family : "";
    auto it = outs_.find(key);
    if (it != outs_.end()) return it->second;
    Out& o = outs_[key];
    o.t.nome = params_.nome_camada;
    if (src_.format() == Format::dxf) {
      o.t.nome += family == "ponto" ? " (pontos)" : family == "linha" ? " (linhas)" : " (polígonos)";
      add_field(o, "Camada DXF", "texto");
      if (family == "ponto") add_field(o, "Texto", "texto");
    }
    for (const auto& [name, tipo] : fields_) add_field(o, name, tipo);
    return o;
  }

  static std::size_t add_field(Out& o, const std::string& name, const std::string& tipo) {
    auto it = o.by_name.find(name);
    if (it != o.by_name.end()) return it->second;
    o.t.fields.push_back({name.substr(0, 200), field_key(name, o.keys), tipo});
    return o.by_name[name] = o.t.fields.size() - 1;
  }

  // For each field of the OGR layer: the field's name and type for the import, or skipped.
  std::vector<int> field_map(OGRFeatureDefn& defn) {
    std::vector<int> map(static_cast<std::size_t>(defn.GetFieldCount()), -1);
    for (int i = 0; i < defn.GetFieldCount(); ++i) {
      OGRFieldDefn* f = defn.GetFieldDefn(i);
      std::string name = f->GetNameRef();
      if (name.empty()) continue;
      if (src_.format() == Format::dxf) {  // the entity's layer and text; DXF's bookkeeping dropped
        if (name == "Layer") map[static_cast<std::size_t>(i)] = -2;
        else if (name == "Text") map[static_cast<std::size_t>(i)] = -3;
        continue;
      }
      if (src_.format() == Format::pvg && name != "codigo" && name != "valor_m2") continue;
      std::string tipo = src_.format() == Format::pvg ? (name == "codigo" ? "texto" : "decimal") : type_of(*f);
      auto found = std::find_if(fields_.begin(), fields_.end(), [&](const auto& p) { return p.first == name; });
      if (found == fields_.end()) {
        if (static_cast<std::int64_t>(fields_.size()) >= limits_.max_fields)
          limits::check_table(-1, static_cast<std::int64_t>(fields_.size()) + 1, 0, limits_);
        fields_.emplace_back(name, tipo);
        for (auto& [k, o] : outs_) add_field(o, name, tipo);
        found = fields_.end() - 1;
      }
      map[static_cast<std::size_t>(i)] = static_cast<int>(found - fields_.begin());
    }
    return map;
  }

  void count_vertices(const OGRGeometry& g, std::int64_t n) {
    std::size_t v = vertices(g);
    limits::check_vertices(v, limits_, "feição " + std::to_string(n));
    vertices_.add(v);
  }

  void refuse(std::int64_t n, std::string why) {
    ctx_.counts().recusadas++;
    ctx_.error(n, std::move(why));
  }

  void take(OGRFeature& f, const std::vector<int>& map, std::int64_t n) {
    OGRGeometry* g = f.GetGeometryRef();
    if (!g || g->IsEmpty()) return refuse(n, "feição sem geometria");
    // Repairing and transforming a geometry costs in proportion to its vertices: counted
    // before either (a curve is counted after it is made linear, bounded by GDAL's steps).
    // A DXF block is expanded at each of its insertions: the file's vertices in all are
    // held to what its size could hold (limits::max_total_vertices).
    if (!g->hasCurveGeometry()) count_vertices(*g, n);
    std::unique_ptr<OGRGeometry> geom(g->hasCurveGeometry() ? g->getLinearGeometry() : g->clone());
    if (g->hasCurveGeometry()) count_vertices(*geom, n);
    // A DXF block or a KML MultiGeometry may mix types: in a DXF each part goes to the layer
    // of its type; elsewhere the collection stays one feature.
    if (src_.format() == Format::dxf && wkbFlatten(geom->getGeometryType()) == wkbGeometryCollection) {
      auto* coll = geom->toGeometryCollection();
      bool any = false;
      for (auto* part : *coll) any |= place(std::unique_ptr<OGRGeometry>(part->clone()), f, map, n);
      if (any) ctx_.counts().importadas++;
      return;
    }
    if (place(std::move(geom), f, map, n)) ctx_.counts().importadas++;
  }

  // One geometry into its layer; false when refused.
  bool place(std::unique_ptr<OGRGeometry> geom, OGRFeature& f, const std::vector<int>& map, std::int64_t n) {
    std::optional<double> cota;
    if (params_.xdzs && geom->Is3D()) {
      OGREnvelope3D e;
      geom->getEnvelope(&e);
      cota = (e.MinZ + e.MaxZ) / 2;  // a contour line's elevation; a point's Z
    }
    geom->flattenTo2D();
    geom->setMeasured(FALSE);
    const std::string family = family_of(*geom);
    if (src_.format() == Format::dxf && family == "qualquer") return refuse(n, "entidade DXF de tipo não suportado"), false;
    // A point is valid whenever its coordinates are finite, which the envelope's check below
    // refuses otherwise: GEOS is not asked for each point of a point file.
    if (wkbFlatten(geom->getGeometryType()) != wkbPoint && !geom->IsValid()) {
      if (params_.recusar_invalidas) return refuse(n, "geometria inválida (invalidas=recusar)"), false;
      std::unique_ptr<OGRGeometry> fixed(geom->MakeValid());
      if (fixed) fixed = keep_family(std::move(fixed), family);
      if (!fixed || fixed->IsEmpty()) return refuse(n, "geometria inválida e irreparável"), false;
      geom = std::move(fixed);
      ctx_.counts().reparadas++;
    }
    if (geom->transform(ct_.get()) != OGRERR_NONE)
      return refuse(n, "coordenadas fora do sistema " + src_.crs_name()), false;
    OGREnvelope e;
    geom->getEnvelope(&e);
    if (!(e.MinX >= -180 && e.MaxX <= 180 && e.MinY >= -90 && e.MaxY <= 90))
      return refuse(n, "coordenadas fora de longitude/latitude depois da transformação (srid errado?)"), false;
    Out& o = target(family);
    Row row;
    row.ewkb = to_ewkb(*geom);
    if (sink_) {  // repairing and transforming kept the family
      o.family = o.family.empty() || o.family == family ? family : "qualquer";
      o.t.streamed_bytes += row.ewkb.size();
      sink_(std::move(row.ewkb));
      row.ewkb.clear();
    }
    row.values.resize(o.t.fields.size());
    std::size_t offset = src_.format() == Format::dxf ? (family == "ponto" ? 2 : 1) : 0;
    for (std::size_t i = 0; i < map.size(); ++i) {
      int to = map[i];
      int idx = static_cast<int>(i);
      if (to == -2) row.values[0] = value_of(f, idx, "texto", n, "Layer");
      else if (to == -3 && family == "ponto") row.values[1] = value_of(f, idx, "texto", n, "Text");
      else if (to >= 0) {
        const auto& [name, tipo] = fields_[static_cast<std::size_t>(to)];
        row.values[offset + static_cast<std::size_t>(to)] = value_of(f, idx, tipo, n, name);
      }
    }
    // What the job keeps and writes grows with the text read: held under the ceiling.
    for (const auto& v : row.values)
      if (v) text_.add(v->size());
    o.t.rows.push_back(std::move(row));
    o.cota.push_back(cota);
    return true;
  }

  std::vector<Target> finish() {
    std::vector<Target> out;
    for (auto& [key, o] : outs_) {
      if (o.t.rows.empty()) continue;
      // Rows read before a later OGR layer added fields are shorter: pad them.
      for (auto& r : o.t.rows) r.values.resize(o.t.fields.size());
      if (std::any_of(o.cota.begin(), o.cota.end(), [](const auto& c) { return c.has_value(); })) {
        add_field(o, "Cota", "decimal");  // chave "cota"
        for (std::size_t i = 0; i < o.t.rows.size(); ++i)
          o.t.rows[i].values.push_back(o.cota[i] ? std::optional(fmt::format("{}", *o.cota[i])) : std::nullopt);
      }
      if (src_.format() == Format::kml) drop_empty_fields(o.t);
      o.t.geometria = !key.empty() ? key : sink_ ? o.family : geometry_of(o.t);
      out.push_back(std::move(o.t));
    }
    if (out.empty()) throw Error(errc::invalid_argument, "nenhuma feição do arquivo pôde ser importada (veja os erros)", "file");
    return out;
  }

  // The layer's type when every row is of one family ("qualquer" otherwise). The rows are
  // EWKB: byte 1 is the type's low byte (little-endian).
  static std::string geometry_of(const Target& t) {
    std::string common;
    for (const auto& r : t.rows) {
      int type = static_cast<unsigned char>(r.ewkb.at(1));
      std::string f = type == 1 || type == 4 ? "ponto" : type == 2 || type == 5 ? "linha" : type == 3 || type == 6 ? "poligono" : "qualquer";
      if (common.empty()) common = f;
      if (f != common) return "qualquer";
    }
    return common.empty() ? "qualquer" : common;
  }

  // KML's drivers declare fields most files never fill (timestamps, altitude modes): a
  // field no feature has a value for is not created.
  static void drop_empty_fields(Target& t) {
    std::vector<bool> used(t.fields.size(), false);
    for (const auto& r : t.rows)
      for (std::size_t i = 0; i < r.values.size(); ++i) used[i] = used[i] || r.values[i].has_value();
    std::vector<FieldDef> fields;
    for (std::size_t i = 0; i < t.fields.size(); ++i)
      if (used[i]) fields.push_back(t.fields[i]);
    for (auto& r : t.rows) {
      std::vector<std::optional<std::string>> v;
      for (std::size_t i = 0; i < r.values.size(); ++i)
        if (used[i]) v.push_back(std::move(r.values[i]));
      r.values = std::move(v);
    }
    t.fields = std::move(fields);
  }

  Source& src_;
  const Params& params_;
  jobs::Context& ctx_;
  const limits::TableLimits& limits_;
  const GeometrySink& sink_;
  limits::Budget text_;      // the attributes' text kept for the load
  limits::Budget vertices_;  // the geometries' vertices read
  std::unique_ptr<OGRCoordinateTransformation> ct_;
  std::vector<std::pair<std::string, std::string>> fields_;  // the file's fields: name, tipo
  std::map<std::string, Out> outs_;                           // by family (DXF) or "" (one layer)
};

}  // namespace

std::string field_key(const std::string& name, std::vector<std::string>& taken) {
  std::string k;
  for (std::size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == 0xC3 && i + 1 < name.size()) {
      k.push_back(fold(static_cast<unsigned char>(name[++i])));
    } else if (std::isalnum(c) && c < 0x80) {
      k.push_back(static_cast<char>(std::tolower(c)));
    } else if (c < 0x80 || (c & 0xC0) == 0xC0) {  // one separator per character, not per byte
      k.push_back('_');
    }
  }
  std::string collapsed;
  for (char c : k)
    if (!(c == '_' && (collapsed.empty() || collapsed.back() == '_'))) collapsed.push_back(c);
  while (!collapsed.empty() && collapsed.back() == '_') collapsed.pop_back();
  if (collapsed.empty() || !std::isalpha(static_cast<unsigned char>(collapsed[0]))) collapsed = "c_" + collapsed;
  while (!collapsed.empty() && collapsed.back() == '_') collapsed.pop_back();
  collapsed = collapsed.substr(0, 56);
  std::string key = collapsed;
  for (int n = 2; std::find(taken.begin(), taken.end(), key) != taken.end(); ++n) key = collapsed + "_" + std::to_string(n);
  taken.push_back(key);
  return key;
}

std::int64_t stored_bytes(const std::vector<Target>& targets) {
  double bytes = 0;
  for (const Target& t : targets) {
    bytes += 2.0 * static_cast<double>(t.streamed_bytes);
    for (const Row& r : t.rows) {
      bytes += 200 + 2.0 * static_cast<double>(r.ewkb.size());
      for (const auto& v : r.values)
        if (v) bytes += 300 + 3.5 * static_cast<double>(v->size());
    }
  }
  return static_cast<std::int64_t>(bytes);
}

std::vector<Target> read_features(Source& src, const Params& params, jobs::Context& ctx,
                                  const limits::TableLimits& limits, const GeometrySink& sink) {
  QuietGdal quiet;
  return Builder(src, params, ctx, limits, sink).run();
}

}  // namespace cadastre::platform::imports
