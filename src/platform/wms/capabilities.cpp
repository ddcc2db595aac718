#include "platform/wms/capabilities.hpp"

#include <cpl_error.h>
#include <cpl_minixml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"

namespace cadastre::platform::wms {
namespace {

constexpr std::size_t kMaxLayers = 5000;
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxCrs = 500;

[[noreturn]] void bad(const std::string& why) {
  throw Error(errc::upstream_failed, "documento de capacidades WMS inválido: " + why);
}

struct Tree {
  CPLXMLNode* root = nullptr;
  ~Tree() {
    if (root) CPLDestroyXMLNode(root);
  }
};

// The text of child `name` of `node` (trimmed), or "".
std::string text_of(const CPLXMLNode* node, const char* name) {
  std::string v = CPLGetXMLValue(const_cast<CPLXMLNode*>(node), name, "");
  auto b = v.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return v.substr(b, v.find_last_not_of(" \t\r\n") - b + 1);
}

bool named(const CPLXMLNode* n, const char* name) {
  return n->eType == CXT_Element && std::string_view(n->pszValue) == name;
}

std::optional<double> number(const CPLXMLNode* node, const char* path) {
  const char* v = CPLGetXMLValue(const_cast<CPLXMLNode*>(node), path, nullptr);
  if (!v) return std::nullopt;
  char* end = nullptr;
  double d = std::strtod(v, &end);
  if (end == v || !std::isfinite(d)) return std::nullopt;
  return d;
}

// The layer's own lon/lat extent: EX_GeographicBoundingBox (1.3.0) or LatLonBoundingBox (1.1.1).
std::optional<std::array<double, 4>> own_bbox(const CPLXMLNode* layer) {
  if (const CPLXMLNode* g = CPLGetXMLNode(const_cast<CPLXMLNode*>(layer), "EX_GeographicBoundingBox")) {
    auto w = number(g, "westBoundLongitude"), s = number(g, "southBoundLatitude");
    auto e = number(g, "eastBoundLongitude"), n = number(g, "northBoundLatitude");
    if (w && s && e && n) return std::array<double, 4>{*w, *s, *e, *n};
  }
  if (const CPLXMLNode* g = CPLGetXMLNode(const_cast<CPLXMLNode*>(layer), "LatLonBoundingBox")) {
    auto w = number(g, "minx"), s = number(g, "miny"), e = number(g, "maxx"), n = number(g, "maxy");
    if (w && s && e && n) return std::array<double, 4>{*w, *s, *e, *n};
  }
  return std::nullopt;
}

struct Walk {
  const char* crs_element;  // "CRS" (1.3.0) or "SRS" (1.1.1)
  std::vector<Layer>* out;

  void layer(const CPLXMLNode* node, const Layer& parent, int depth) {
    if (depth > kMaxDepth) bad("camadas aninhadas demais (mais de 32 níveis)");
    Layer here;
    here.nome = text_of(node, "Name");
    here.titulo = text_of(node, "Title");
    here.crs = parent.crs;
    here.bbox = own_bbox(node);
    if (!here.bbox) here.bbox = parent.bbox;
    for (const CPLXMLNode* c = node->psChild; c; c = c->psNext)
      if (named(c, crs_element)) {
        // 1.1.1 allows several codes in one SRS element, separated by spaces.
        std::string all = CPLGetXMLValue(const_cast<CPLXMLNode*>(c), "", "");
        for (std::size_t i = 0; i < all.size();) {
          std::size_t j = std::min(all.find_first_of(" \t\r\n", i), all.size());
          std::string code = all.substr(i, j - i);
          if (!code.empty() && std::find(here.crs.begin(), here.crs.end(), code) == here.crs.end()) {
            if (here.crs.size() >= kMaxCrs) bad("sistemas de coordenadas demais numa camada");
            here.crs.push_back(code);
          }
          i = j + 1;
        }
      }
    if (!here.nome.empty()) {
      if (out->size() >= kMaxLayers) bad("camadas demais (mais de 5000)");
      out->push_back(here);
    }
    for (const CPLXMLNode* c = node->psChild; c; c = c->psNext)
      if (named(c, "Layer")) layer(c, here, depth + 1);
  }
};

bool contains_declaration(std::string_view xml) {
  std::string upper;
  upper.reserve(xml.size());
  for (char c : xml) upper += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return upper.find("<!DOCTYPE") != std::string::npos || upper.find("<!ENTITY") != std::string::npos;
}

}  // namespace

const Layer* Capabilities::find(std::string_view nome) const {
  for (const Layer& l : camadas)
    if (l.nome == nome) return &l;
  return nullptr;
}

Capabilities parse(std::string_view xml) {
  if (contains_declaration(xml)) bad("declarações DOCTYPE ou ENTITY não são aceitas");
  if (xml.find('\0') != std::string_view::npos) bad("o documento contém bytes nulos");
  Tree tree;
  {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
    tree.root = CPLParseXMLString(std::string(xml).c_str());
    std::string err = CPLGetLastErrorMsg();
    CPLPopErrorHandler();
    if (!tree.root) bad("não é XML (" + err + ")");
  }
  // Prefixed documents (wms:Layer) read the same as unprefixed ones.
  CPLStripXMLNamespace(tree.root, nullptr, TRUE);
  const CPLXMLNode* doc = nullptr;
  for (const CPLXMLNode* n = tree.root; n; n = n->psNext)
    if (named(n, "WMS_Capabilities") || named(n, "WMT_MS_Capabilities")) doc = n;
  if (!doc) bad("o elemento raiz não é WMS_Capabilities nem WMT_MS_Capabilities");

  Capabilities c;
  c.versao = CPLGetXMLValue(const_cast<CPLXMLNode*>(doc), "version", "");
  const bool v13 = named(doc, "WMS_Capabilities");
  if (c.versao.empty()) c.versao = v13 ? "1.3.0" : "1.1.1";
  if (c.versao != "1.3.0" && c.versao != "1.1.1") bad("versão " + c.versao + " (aceitas: 1.1.1 e 1.3.0)");
  c.titulo = text_of(doc, "Service.Title");

  const CPLXMLNode* getmap = CPLGetXMLNode(const_cast<CPLXMLNode*>(doc), "Capability.Request.GetMap");
  if (!getmap) bad("sem Capability/Request/GetMap");
  for (const CPLXMLNode* n = getmap->psChild; n; n = n->psNext)
    if (named(n, "Format")) {
      std::string f = text_of(n, "");
      if (!f.empty() && c.formatos.size() < 100) c.formatos.push_back(f);
    }
  c.url_mapa = CPLGetXMLValue(const_cast<CPLXMLNode*>(getmap), "DCPType.HTTP.Get.OnlineResource.href", "");
  if (c.url_mapa.empty())
    c.url_mapa = CPLGetXMLValue(const_cast<CPLXMLNode*>(getmap), "DCPType.HTTP.Get.OnlineResource.xlink:href", "");

  Walk walk{v13 ? "CRS" : "SRS", &c.camadas};
  const CPLXMLNode* capability = CPLGetXMLNode(const_cast<CPLXMLNode*>(doc), "Capability");
  for (const CPLXMLNode* n = capability->psChild; n; n = n->psNext)
    if (named(n, "Layer")) walk.layer(n, Layer{}, 1);
  return c;
}

std::string strings_json(const std::vector<std::string>& items) {
  JsonWriter w;
  w.begin_array();
  for (const std::string& s : items) w.value(s);
  w.end_array();
  return std::move(w).str();
}

std::string layers_json(const std::vector<Layer>& layers) {
  JsonWriter w;
  w.begin_array();
  for (const Layer& l : layers) {
    w.begin_object().key("nome").value(l.nome).key("titulo").value(l.titulo);
    w.key("crs").raw(strings_json(l.crs)).key("bbox");
    if (l.bbox) {
      w.begin_array();
      for (double d : *l.bbox) w.value(d);
      w.end_array();
    } else {
      w.null();
    }
    w.end_object();
  }
  w.end_array();
  return std::move(w).str();
}

std::string to_json(const Capabilities& c) {
  JsonWriter w;
  w.begin_object().key("versao").value(c.versao).key("titulo").value(c.titulo).key("urlMapa").value(c.url_mapa);
  w.key("formatos").raw(strings_json(c.formatos)).key("camadas").raw(layers_json(c.camadas)).end_object();
  return std::move(w).str();
}

}  // namespace cadastre::platform::wms
