-- API clients: machine credentials of integrations, each bound to one tenant and one
-- scope. Two forms share the table:
--   * bearer clients (usuario null): `segredo_hash` is the SHA-256 (hex) of a random
--     256-bit token shown once when issued, as for user session tokens;
--   * HTTP Basic clients (usuario set): `segredo_hash` is the argon2id string (libsodium)
--     of the password.
-- The valuation routes (/equacao) accept bearer clients of scope 'avaliacao'; the digital
-- proofs routes (/cad/provas-digitais) accept Basic clients of scope 'provas_digitais'.
create table plataforma.clientes_api (
  id            bigserial primary key,
  tenant_id     bigint not null references plataforma.tenants(id) on delete cascade,
  nome          text not null check (nome <> ''),
  escopo        text not null check (escopo in ('avaliacao', 'provas_digitais', 'integracao')),
  usuario       text check (usuario ~ '^[A-Za-z0-9._@-]{1,64}$'),
  segredo_hash  text not null,
  ativo         boolean not null default true,
  criado_em     timestamptz not null default now(),
  ultimo_uso    timestamptz,
  unique (escopo, usuario),
  check ((usuario is null) = (segredo_hash !~ '^\$argon2id\$'))
);
create unique index clientes_api_token_idx on plataforma.clientes_api(segredo_hash) where usuario is null;
-- Issuing a bearer client again under the same name replaces its token.
create unique index clientes_api_bearer_nome_idx on plataforma.clientes_api(tenant_id, escopo, nome) where usuario is null;
create index clientes_api_tenant_idx on plataforma.clientes_api(tenant_id);
