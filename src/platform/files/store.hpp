// SQL of the files and photos: the records of the tenant's projeto.arquivos (migration
// 0022), the templates (projeto.templates, same migration) and the platform's links to
// company logos and user photos (empresas.logo, platform migration 0004; usuarios.foto).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "platform/files/storage.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::files {

/// A stored file's record, as the routes need it to check access and find the bytes.
struct Record {
  std::int64_t id = 0;
  std::string finalidade;  ///< arquivo, foto, logo, foto_usuario
  std::optional<std::int64_t> projeto, camada, geometria, empresa, usuario;
  std::string nome, chave, tipo_midia;
  Folder folder() const { return {camada, projeto}; }
};

/// A new record: what it is attached to, and the stored file.
struct NewRecord {
  std::string finalidade;
  std::optional<std::int64_t> projeto, camada, geometria, empresa, usuario;
  std::string nome;
  std::optional<std::string> descricao;
  Stored file;
  std::int64_t criado_por = 0;
};

std::optional<Record> find(store::Pool& pool, std::int64_t id);
std::optional<Record> find_by_key(store::Pool& pool, const std::string& key);
/// Inserts the record; answers its JSON.
std::string create(store::Pool& pool, const NewRecord& r);
/// The record's JSON {"id","finalidade","idProjeto","idCamada","idGeometria","idEmpresa",
/// "idUsuario","nome","descricao","chave","url","tipoMidia","tamanho","sha256","criadoPor",
/// "criadoEm","atualizadoEm"}.
std::string json(store::Pool& pool, std::int64_t id);
/// Applies the changes (nome, descricao); answers the record's JSON.
std::string update(store::Pool& pool, std::int64_t id, const std::optional<std::string>& nome,
                   const std::optional<std::optional<std::string>>& descricao);
/// Deletes the record (true when it was there).
bool remove(store::Pool& pool, std::int64_t id);
/// Deletes the record of `key` (used when a newer logo or photo replaces it).
void remove_by_key(store::Pool& pool, const std::string& key);
/// The files of a geometry, oldest first: a JSON array of records.
std::string of_geometry(store::Pool& pool, std::int64_t geometria);
/// The active templates: a JSON array of {"id","nome","tipo","descricao","geometria","campos"}.
std::string templates(store::Pool& pool);

// The platform database.
/// The tenant a company belongs to: nullopt when there is no such company; an empty inner
/// value when it has none.
std::optional<std::optional<std::int64_t>> company_tenant(store::Pool& platform, std::int64_t empresa);
/// Sets the company's logo (empresas.logo) / the user's photo (usuarios.foto) to `link`
/// ("/arquivos/fotos?url=<key>"); answers the value it replaced.
std::optional<std::string> set_logo(store::Pool& platform, std::int64_t empresa, const std::string& link);
std::optional<std::string> set_user_photo(store::Pool& platform, std::int64_t usuario, const std::string& link);
/// Clears the logo / photo that still holds `link` (its record was deleted).
void clear_platform_link(store::Pool& platform, const std::string& link);

}  // namespace cadastre::platform::files
