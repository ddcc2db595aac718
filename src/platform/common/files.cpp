#include "platform/common/files.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"

namespace cadastre::platform::common {
namespace fs = std::filesystem;
namespace {

std::string media_type(const fs::path& p) {
  static const std::map<std::string, std::string> kTypes = {
      {".tif", "image/tiff"}, {".tiff", "image/tiff"}, {".dxf", "image/vnd.dxf"},
      {".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
      {".pdf", "application/pdf"}, {".zip", "application/zip"}, {".json", "application/json"},
      {".geojson", "application/geo+json"}, {".kml", "application/vnd.google-earth.kml+xml"},
      {".csv", "text/csv"}, {".txt", "text/plain"}, {".xml", "application/xml"}};
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto it = kTypes.find(ext);
  return it == kTypes.end() ? "application/octet-stream" : it->second;
}

std::string sha256_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(errc::unavailable, "não foi possível ler um arquivo da camada: " + p.filename().string());
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(in.gcount()));
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += digits[md[i] >> 4];
    out += digits[md[i] & 15];
  }
  return out;
}

// True when `p` is `dir` or below it (both lexically normal).
bool inside(const fs::path& p, const fs::path& dir) {
  fs::path rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

std::string random_hex() {
  std::random_device rd;
  std::uniform_int_distribution<unsigned long long> d;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", d(rd));
  return buf;
}

}  // namespace

fs::path FileStore::tenant_dir(const std::string& slug) const {
  if (!enabled()) throw Error(errc::unavailable, "o armazenamento de arquivos da plataforma não está configurado");
  // Slugs are checked when tenants are created; a path separator here would be a broken record.
  if (slug.empty() || slug.find('/') != std::string::npos || slug == "." || slug == "..")
    throw std::logic_error("tenant slug unfit for a path");
  return fs::path(store_.root()) / slug;
}

fs::path FileStore::layer_dir(const std::string& slug, std::int64_t layer_id) const {
  return tenant_dir(slug) / "camadas" / std::to_string(layer_id);
}

fs::path FileStore::resolve(const std::string& slug, const std::string& relative) const {
  fs::path rel = fs::path(relative).lexically_normal();
  bool escapes = rel.empty() || rel.is_absolute() || rel.has_root_name() ||
                 std::any_of(rel.begin(), rel.end(), [](const fs::path& part) { return part == ".."; });
  if (escapes) throw Error(errc::conflict, "o arquivo registrado na camada tem um caminho inválido", "arquivo");
  return (tenant_dir(slug) / rel).lexically_normal();
}

std::vector<FileEntry> layer_files(const FileStore& store, const std::string& slug, std::int64_t layer_id,
                                   const std::optional<std::string>& arquivo, std::size_t limit) {
  fs::path tenant = store.tenant_dir(slug).lexically_normal();
  fs::path dir = store.layer_dir(slug, layer_id).lexically_normal();
  std::optional<fs::path> main;
  if (arquivo) main = store.resolve(slug, *arquivo);
  std::vector<fs::path> found;
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(dir, ec))) {
    // The iterator does not follow symbolic links: a link planted in the directory cannot
    // make the listing read (or hash) a file outside the tenant's store.
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->symlink_status(ec).type() == fs::file_type::regular) found.push_back(it->path().lexically_normal());
  }
  if (main && !inside(*main, dir) && fs::symlink_status(*main, ec).type() == fs::file_type::regular)
    found.push_back(*main);
  std::sort(found.begin(), found.end());
  if (found.size() > limit) found.resize(limit);
  std::vector<FileEntry> out;
  for (const fs::path& p : found) {
    FileEntry e;
    e.nome = p.filename().string();
    e.caminho = p.lexically_relative(tenant).generic_string();
    e.tamanho = fs::file_size(p, ec);
    e.sha256 = sha256_of(p);
    e.tipo = media_type(p);
    e.principal = main && p == *main;
    out.push_back(std::move(e));
  }
  return out;
}

std::string files_json(std::int64_t layer_id, const std::vector<FileEntry>& files) {
  JsonWriter w;
  w.begin_object().key("idCamada").value(layer_id).key("arquivos").begin_array();
  for (const FileEntry& f : files) {
    w.begin_object().key("nome").value(f.nome).key("caminho").value(f.caminho);
    w.key("tamanho").value(static_cast<std::int64_t>(f.tamanho)).key("sha256").value(f.sha256);
    w.key("tipo").value(f.tipo).key("principal").value(f.principal).end_object();
  }
  w.end_array().end_object();
  return std::move(w).str();
}

SetAside::SetAside(const FileStore& store, const std::string& slug, std::int64_t layer_id,
                   const std::optional<std::string>& arquivo) {
  if (!store.enabled()) {
    // Without a store no layer can have a file here; one that names a file cannot go
    // without it.
    if (arquivo) store.tenant_dir(slug);  // throws 503
    return;
  }
  fs::path dir = store.layer_dir(slug, layer_id).lexically_normal();
  std::vector<fs::path> targets;
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() != fs::file_type::not_found && !ec) targets.push_back(dir);
  if (arquivo) {
    fs::path main = store.resolve(slug, *arquivo);
    if (!inside(main, dir) && fs::symlink_status(main, ec).type() != fs::file_type::not_found && !ec)
      targets.push_back(main);
  }
  move(store, slug, targets, "camada-" + std::to_string(layer_id));
}

SetAside::SetAside(const FileStore& store, const std::string& slug, const fs::path& relative,
                   const std::string& label) {
  if (!store.enabled()) return;
  fs::path dir = (store.tenant_dir(slug) / relative).lexically_normal();
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() == fs::file_type::not_found || ec) return;
  move(store, slug, {dir}, label);
}

void SetAside::move(const FileStore& store, const std::string& slug, const std::vector<fs::path>& targets,
                    const std::string& label) {
  if (targets.empty()) return;
  try {
    bin_ = store.tenant_dir(slug) / ".lixeira" / (label + "-" + random_hex());
    fs::create_directories(bin_);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      fs::path to = bin_ / (std::to_string(i) + "-" + targets[i].filename().string());
      fs::rename(targets[i], to);
      moved_.emplace_back(targets[i], to);
    }
  } catch (const fs::filesystem_error&) {
    restore();
    throw Error(errc::unavailable, "não foi possível separar os arquivos para a exclusão");
  }
}

SetAside::~SetAside() {
  if (!committed_) restore();
}

void SetAside::commit() noexcept {
  committed_ = true;
  std::error_code ec;
  // A failure leaves the files in .lixeira, out of every layer: space, not inconsistency.
  if (!bin_.empty()) fs::remove_all(bin_, ec);
}

void SetAside::restore() noexcept {
  std::error_code ec;
  for (auto it = moved_.rbegin(); it != moved_.rend(); ++it) fs::rename(it->second, it->first, ec);
  moved_.clear();
  if (!bin_.empty()) fs::remove(bin_, ec);  // only when empty
}

}  // namespace cadastre::platform::common
