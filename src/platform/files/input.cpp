#include "platform/files/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/files/storage.hpp"

namespace cadastre::platform::files {
namespace {

std::optional<std::int64_t> positive(std::string_view t) {
  if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string_view::npos || t[0] == '0')
    return std::nullopt;
  return std::stoll(std::string(t));
}

// The display name of an upload: its last path component, without control characters.
std::string clean_name(std::string_view nome, const std::string& field) {
  auto slash = nome.find_last_of("/\\");
  if (slash != std::string_view::npos) nome = nome.substr(slash + 1);
  std::string out;
  for (char c : nome)
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) out += c;
  auto first = out.find_first_not_of(' ');
  out = first == std::string::npos ? "" : out.substr(first, out.find_last_not_of(' ') - first + 1);
  if (out.empty() || out == "." || out == "..") throw Error(errc::invalid_argument, "informe o nome do arquivo", field);
  if (out.size() > 255) throw Error(errc::invalid_argument, "nome do arquivo longo demais (máximo 255 bytes)", field);
  if (!simdjson::validate_utf8(out.data(), out.size()))
    throw Error(errc::invalid_argument, "o nome do arquivo não é UTF-8 válido", field);
  return out;
}

std::string description(std::string_view d, const std::string& field) {
  if (d.size() > 4000) throw Error(errc::invalid_argument, "descrição longa demais (máximo 4000 bytes)", field);
  if (!simdjson::validate_utf8(d.data(), d.size()))
    throw Error(errc::invalid_argument, "a descrição não é UTF-8 válido", field);
  return std::string(d);
}

}  // namespace


Upload parse_upload(const http::Request& req, std::string_view id_field) {
  Upload up;
  const http::FilePart* file = nullptr;
  bool has_id = false;
  for (const auto& part : req.files) {
    if (part.name == "file" && !file) {
      file = &part;
    } else if (part.name == "descricao" && part.filename.empty() && !up.descricao) {
      up.descricao = description(part.content, "descricao");
    } else if (!id_field.empty() && part.name == id_field && part.filename.empty() && !has_id) {
      auto id = positive(part.content);
      if (!id) throw Error(errc::invalid_argument, "'" + part.name + "' deve ser um id inteiro positivo", part.name);
      up.id = *id;
      has_id = true;
    } else {
      std::string known = "file, descricao" + (id_field.empty() ? std::string() : ", " + std::string(id_field));
      throw Error(errc::unknown_field, "parte desconhecida ou repetida: '" + part.name + "' (use " + known + ")",
                  part.name);
    }
  }
  if (!file || file->filename.empty())
    throw Error(errc::missing_field, "envie multipart/form-data com a parte 'file' (com nome de arquivo)", "file");
  if (!id_field.empty() && !has_id)
    throw Error(errc::missing_field, "informe a parte '" + std::string(id_field) + "'", std::string(id_field));
  up.nome = clean_name(file->filename, "file");
  up.bytes = &file->content;
  return up;
}

std::string parse_target(const http::Request& req) {
  auto t = req.query_value("tipo");
  if (!t) throw Error(errc::missing_field, "informe ?tipo=camada ou ?tipo=geometria", "tipo");
  if (*t != "camada" && *t != "geometria")
    throw Error(errc::invalid_argument, "tipo deve ser camada ou geometria", "tipo");
  return *t;
}

std::optional<std::string> parse_image_format(const http::Request& req) {
  auto t = req.query_value("tipo");
  if (!t) return std::nullopt;
  if (*t == "jpg") return "jpeg";
  if (*t != "png" && *t != "jpeg" && *t != "gif" && *t != "webp")
    throw Error(errc::invalid_argument, "tipo deve ser png, jpeg, gif ou webp", "tipo");
  return *t;
}

Changes parse_changes(std::string_view body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  Changes c;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "nome") {
      if (!v.is_string()) throw Error(errc::invalid_argument, "o campo 'nome' deve ser texto", k);
      c.nome = clean_name(std::string_view(v.get_string().value()), k);
    } else if (k == "descricao") {
      if (v.is_null()) {
        c.descricao.emplace(std::nullopt);
      } else {
        if (!v.is_string()) throw Error(errc::invalid_argument, "o campo 'descricao' deve ser texto", k);
        c.descricao.emplace(description(std::string_view(v.get_string().value()), k));
      }
    } else {
      throw Error(errc::unknown_field, "campo não editável: '" + k + "' (use nome, descricao)", k);
    }
  }
  if (!c.nome && !c.descricao) throw Error(errc::missing_field, "nada a alterar: informe nome ou descricao");
  return c;
}

std::string parse_key_query(const http::Request& req, std::string_view field) {
  auto v = req.query_value(field);
  if (!v || v->empty())
    throw Error(errc::missing_field, "informe ?" + std::string(field) + "=<chave do arquivo>", std::string(field));
  std::string key = *v;
  // The link answered by an upload ("/arquivos/fotos?url=<key>") is accepted as well.
  if (auto at = key.rfind("url="); at != std::string::npos) key = key.substr(at + 4);
  if (!valid_key(key))
    throw Error(errc::invalid_argument, std::string(field) + " não é uma chave de arquivo emitida por este serviço",
                std::string(field));
  return key;
}

std::string parse_key_param(const http::Request& req, std::string_view name) {
  const std::string& key = req.param(name);
  if (!valid_key(key))
    throw Error(errc::invalid_argument,
                std::string(name) + " inválido: use a chave gravada do arquivo (sem caminhos nem '..')",
                std::string(name));
  return key;
}

std::optional<Signature> parse_signature(const http::Request& req) {
  auto e = req.query_value("expira");
  auto a = req.query_value("assinatura");
  if (!e && !a) return std::nullopt;
  if (!e || !a) throw Error(errc::missing_field, "um link assinado traz expira e assinatura", e ? "assinatura" : "expira");
  auto expira = positive(*e);
  if (!expira) throw Error(errc::invalid_argument, "expira deve ser um instante Unix em segundos", "expira");
  return Signature{*expira, *a};
}

int parse_thumbnail_side(const http::Request& req) {
  auto m = req.query_value("miniatura");
  auto t = req.query_value("tamanho");
  if (t) {
    auto n = positive(*t);
    if (!n || *n < 16 || *n > 1024)
      throw Error(errc::invalid_argument, "tamanho deve ser um inteiro de 16 a 1024 (pixels)", "tamanho");
    return static_cast<int>(*n);
  }
  if (!m || *m == "false") return 0;
  if (*m != "true") throw Error(errc::invalid_argument, "miniatura deve ser true ou false", "miniatura");
  return 256;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"ArquivoAlteracao",
       object({{"nome", R"({"type":"string","minLength":1})"}, {"descricao", kNullableText}}, {}, true),
       R"({"nome":"fachada-norte.jpg","descricao":"Foto da fachada, vistoria de março"})",
       [](std::string_view body) { parse_changes(body); }},
  };
}

}  // namespace cadastre::platform::files
