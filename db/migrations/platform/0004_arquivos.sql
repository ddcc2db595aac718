-- A company's logo (POST /arquivos/empresas/:id/logo, src/platform/files/): the link the
-- platform serves it at, "/arquivos/fotos?url=<key>", like usuarios.foto (0003) holds a
-- user's photo (POST /usuarios/foto). The file itself and its record (size, SHA-256, media
-- type) are in the uploading tenant's projeto.arquivos (tenant migration 0022); the key's
-- first part names that tenant.
alter table plataforma.empresas add column logo text check (length(logo) <= 400);
