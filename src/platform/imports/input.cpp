// The import routes' parameters: see input.hpp.
#include "platform/imports/input.hpp"

#include <algorithm>
#include <array>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/jobs/parameters.hpp"

namespace cadastre::platform::imports {
namespace {

// The encodings GDAL recodes from (iconv names) that Brazilian files are found in.
constexpr std::array<std::string_view, 7> kEncodings = {"UTF-8", "CP1252", "ISO-8859-1", "ISO-8859-15",
                                                        "CP850", "CP437", "LATIN1"};

std::string text_param(const http::Request& req, std::string_view name, bool required) {
  auto v = req.query_value(name);
  if (!v) {
    if (required) throw Error(errc::missing_field, "informe o parâmetro '" + std::string(name) + "'", std::string(name));
    return {};
  }
  std::string t = *v;
  t.erase(0, t.find_first_not_of(" \t"));
  t.erase(t.find_last_not_of(" \t") + 1);
  if (t.empty() || t.size() > 200)
    throw Error(errc::invalid_argument, "'" + std::string(name) + "' deve ter de 1 a 200 caracteres", std::string(name));
  if (std::any_of(t.begin(), t.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
    throw Error(errc::invalid_argument, "'" + std::string(name) + "' não aceita caracteres de controle",
                std::string(name));
  return t;
}

bool bool_param(const http::Request& req, std::string_view name) {
  auto v = req.query_value(name);
  if (!v) return false;
  if (*v == "true" || *v == "1") return true;
  if (*v == "false" || *v == "0") return false;
  throw Error(errc::invalid_argument, "'" + std::string(name) + "' deve ser true ou false", std::string(name));
}

}  // namespace

std::int64_t parse_id(std::string_view text, std::string_view field) {
  return query::parse_integer(text, field, 1, INT64_MAX);
}

Params parse_params(const http::Request& req, bool with_layer_name) {
  Params p;
  p.codigo = text_param(req, "codigo", true);
  if (with_layer_name) p.nome_camada = text_param(req, "nomeCamada", true);
  auto projeto = req.query_value("idProjeto");
  if (!projeto) throw Error(errc::missing_field, "informe o parâmetro 'idProjeto'", "idProjeto");
  p.projeto = parse_id(*projeto, "idProjeto");
  if (auto srid = req.query_value("srid"))
    p.srid = static_cast<int>(query::parse_integer(*srid, "srid", 1024, 998999));
  if (auto enc = req.query_value("encoding")) {
    std::string e = *enc;
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (e == "WINDOWS-1252") e = "CP1252";
    if (e == "UTF8") e = "UTF-8";
    if (std::find(kEncodings.begin(), kEncodings.end(), e) == kEncodings.end())
      throw Error(errc::invalid_argument, "encoding deve ser um de UTF-8, CP1252, ISO-8859-1, ISO-8859-15, CP850, CP437",
                  "encoding");
    p.encoding = e;
  }
  p.xdzs = bool_param(req, "xdzs");
  if (auto inv = req.query_value("invalidas")) {
    if (*inv != "reparar" && *inv != "recusar")
      throw Error(errc::invalid_argument, "invalidas deve ser reparar ou recusar", "invalidas");
    p.recusar_invalidas = *inv == "recusar";
  }
  return p;
}

std::string Params::json(const std::optional<Learnt>& learnt) const {
  JsonWriter w;
  w.begin_object().key("codigo").value(codigo);
  if (!nome_camada.empty()) w.key("nomeCamada").value(nome_camada);
  w.key("idProjeto").value(projeto);
  if (srid) w.key("srid").value(*srid);
  if (encoding) w.key("encoding").value(*encoding);
  w.key("xdzs").value(xdzs).key("invalidas").value(recusar_invalidas ? "recusar" : "reparar");
  if (learnt)
    w.key("arquivo").value(learnt->arquivo).key("crs").value(learnt->crs).key("encodingOrigem").value(learnt->encoding_origem);
  return std::move(w.end_object()).str();
}

Params params_of(const jobs::Parameters& job) {
  Params p;
  p.codigo = job.required_text("codigo");
  p.nome_camada = job.text("nomeCamada").value_or("");
  p.projeto = job.required_integer("idProjeto");
  if (auto srid = job.integer("srid")) p.srid = static_cast<int>(*srid);
  p.encoding = job.text("encoding");
  p.xdzs = job.boolean("xdzs").value_or(false);
  p.recusar_invalidas = job.text("invalidas").value_or("reparar") == "recusar";
  return p;
}

Upload take_upload(http::Request& req) {
  http::FilePart* file = nullptr;
  for (auto& part : req.files) {
    if (part.name != "file" || file)
      throw Error(errc::unknown_field, "parte desconhecida ou repetida: '" + part.name + "' (envie só 'file')", part.name);
    file = &part;
  }
  if (!file || file->filename.empty())
    throw Error(errc::missing_field, "envie multipart/form-data com a parte 'file' (com nome de arquivo)", "file");
  if (file->content.empty()) throw Error(errc::invalid_argument, "o arquivo enviado está vazio", "file");
  Upload up;
  std::string name = file->filename;
  if (auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
  name.erase(std::remove_if(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }),
             name.end());
  up.nome = name.substr(0, 200);
  up.bytes = std::move(file->content);
  return up;
}

std::string parse_target_type(const http::Request& req) {
  auto t = req.query_value("targetType");
  if (!t) throw Error(errc::missing_field, "informe targetType (shp, kml, gpkg, dxf, csv ou pvg)", "targetType");
  static const std::array<std::string_view, 6> kTypes = {"shp", "kml", "gpkg", "dxf", "csv", "pvg"};
  if (std::find(kTypes.begin(), kTypes.end(), *t) == kTypes.end())
    throw Error(errc::invalid_argument, "targetType deve ser shp, kml, gpkg, dxf, csv ou pvg", "targetType");
  return *t;
}

}  // namespace cadastre::platform::imports
