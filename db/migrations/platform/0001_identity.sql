-- Identity store: tenants (municipalities), companies, users and their layer permissions.
create schema if not exists plataforma;

create table plataforma.empresas (
  id         bigserial primary key,
  nome       text not null,
  cnpj       text,
  criado_em  timestamptz not null default now()
);

-- One row per municipality. `slug` is the {municipio} of every URL; `dsn` names the
-- tenant's own database, so tenants can live on different PostgreSQL servers.
create table plataforma.tenants (
  id           bigserial primary key,
  slug         text not null unique check (slug ~ '^[a-z][a-z0-9_]{1,62}$'),
  nome         text not null,
  uf           char(2),
  codigo_ibge  text,
  dsn          text not null,
  fuso_horario text not null default 'America/Sao_Paulo',
  config       jsonb not null default '{}'::jsonb,
  ativo        boolean not null default true,
  criado_em    timestamptz not null default now()
);

-- Users. `auth_token_hash` is the SHA-256 (hex) of the random 256-bit session token: the
-- token itself is shown once when issued and never stored. Passwords are argon2id
-- strings produced by libsodium.
create table plataforma.usuarios (
  id               bigserial primary key,
  tenant_id        bigint not null references plataforma.tenants(id),
  empresa_id       bigint references plataforma.empresas(id),
  email            text not null unique,
  nome             text not null,
  senha_hash       text,
  auth_token_hash  text unique,
  token_emitido_em timestamptz,
  adm              boolean not null default false,
  ativo            boolean not null default true,
  criado_em        timestamptz not null default now()
);
create index usuarios_tenant_idx on plataforma.usuarios(tenant_id);

-- Per-layer permissions. camada '*' is the user's default for layers without a row of
-- their own. Administrators (usuarios.adm) may read and write every layer.
create table plataforma.permissoes_camada (
  usuario_id bigint not null references plataforma.usuarios(id) on delete cascade,
  camada     text not null check (camada = '*' or camada ~ '^[A-Za-z_][A-Za-z0-9_]{0,62}$'),
  leitura    boolean not null default true,
  escrita    boolean not null default false,
  primary key (usuario_id, camada)
);
