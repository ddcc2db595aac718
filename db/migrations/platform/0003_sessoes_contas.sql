-- Sessions, accounts and licenses of the platform (cadastre-platform, docs/platform.md).

-- A user may hold several sessions (phone and desktop). The token is a random 256-bit
-- value shown once; only its SHA-256 (hex) is stored. A session is valid while it is not
-- revoked, before `expira_em` (absolute) and, when `ociosa_max` is set, while
-- `usada_em + ociosa_max` is in the future (idle expiry). `tenant_id` is the tenant the
-- session acts in: the user's own, or for a provider's user the tenant chosen at login.
create table plataforma.sessoes (
  id           bigserial primary key,
  usuario_id   bigint not null references plataforma.usuarios(id) on delete cascade,
  tenant_id    bigint not null references plataforma.tenants(id) on delete cascade,
  token_hash   text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  origem       text not null check (origem in ('senha', 'ldap', 'oauth', 'provedor', 'emitido')),
  criada_em    timestamptz not null default now(),
  usada_em     timestamptz not null default now(),
  ociosa_max   interval,
  expira_em    timestamptz not null,
  revogada_em  timestamptz,
  endereco     text,
  agente       text
);
create index sessoes_usuario_idx on plataforma.sessoes(usuario_id) where revogada_em is null;

-- The single token per user of 0001 becomes a session of its own ('emitido': issued by
-- cadastre-admin, no idle expiry), so tokens in use keep working.
insert into plataforma.sessoes (usuario_id, tenant_id, token_hash, origem, criada_em, expira_em)
  select id, tenant_id, auth_token_hash, 'emitido', coalesce(token_emitido_em, now()), now() + interval '365 days'
    from plataforma.usuarios where auth_token_hash is not null;
alter table plataforma.usuarios drop column auth_token_hash, drop column token_emitido_em;

-- Service providers (surveying firms, consultancies) working for municipalities. A
-- pre-registration (preprovedores) is reviewed by a platform administrator and becomes a
-- provider; a provider's users sign in through /login-provider into one of the tenants
-- that granted it access (provedor_tenants), with the rights that grant gives.
create table plataforma.provedores (
  id         bigserial primary key,
  nome       text not null check (nome <> ''),
  cnpj       text not null unique check (cnpj ~ '^[0-9]{14}$'),
  email      text not null,
  telefone   text,
  ativo      boolean not null default true,
  criado_em  timestamptz not null default now()
);
create table plataforma.provedor_tenants (
  provedor_id  bigint not null references plataforma.provedores(id) on delete cascade,
  tenant_id    bigint not null references plataforma.tenants(id) on delete cascade,
  leitura      boolean not null default true,
  escrita      boolean not null default false,
  concedido_em timestamptz not null default now(),
  primary key (provedor_id, tenant_id)
);
create table plataforma.preprovedores (
  id           bigserial primary key,
  nome         text not null check (nome <> ''),
  cnpj         text not null check (cnpj ~ '^[0-9]{14}$'),
  email        text not null,
  responsavel  text not null,
  telefone     text,
  mensagem     text,
  estado       text not null default 'pendente' check (estado in ('pendente', 'aprovado', 'recusado')),
  provedor_id  bigint references plataforma.provedores(id) on delete set null,
  criado_em    timestamptz not null default now()
);
create unique index preprovedores_pendente_cnpj_idx on plataforma.preprovedores(cnpj) where estado = 'pendente';

alter table plataforma.usuarios
  add column telefone          text,
  add column cargo             text,
  add column foto              text,
  add column email_confirmado  boolean not null default true,
  add column publico           boolean not null default false,
  add column adm_plataforma    boolean not null default false,
  add column provedor_id       bigint references plataforma.provedores(id) on delete cascade,
  add column atualizado_em     timestamptz not null default now(),
  alter column tenant_id drop not null,
  -- A provider's user belongs to no tenant: it signs in to the tenants its provider serves.
  add constraint usuarios_tenant_ou_provedor check ((tenant_id is null) = (provedor_id is not null));

alter table plataforma.empresas
  add column tenant_id  bigint references plataforma.tenants(id) on delete cascade,
  add column email      text,
  add column telefone   text,
  add column endereco   text,
  add column site       text;
create unique index empresas_tenant_idx on plataforma.empresas(tenant_id) where tenant_id is not null;

-- Licenses: the tenant's current plan is its latest license. `status` as stored is what
-- an administrator set; the status a login reports also turns 'ativa' or 'teste' into
-- 'expirada' once `fim` has passed (docs/platform.md, "License status").
create table plataforma.licencas (
  id                    bigserial primary key,
  tenant_id             bigint not null references plataforma.tenants(id) on delete cascade,
  plano                 text not null check (plano <> ''),
  status                text not null check (status in ('teste', 'ativa', 'suspensa', 'cancelada')),
  inicio                date not null default current_date,
  fim                   date not null,
  max_usuarios          integer not null check (max_usuarios > 0),
  max_armazenamento_mb  integer not null check (max_armazenamento_mb > 0),
  observacao            text,
  criada_em             timestamptz not null default now(),
  atualizada_em         timestamptz not null default now(),
  check (fim >= inicio)
);
create index licencas_tenant_idx on plataforma.licencas(tenant_id, id desc);

-- One-time tokens sent by e-mail (account confirmation, password reset, e-mail change):
-- random, stored as SHA-256, expiring, single use (`usado_em`).
create table plataforma.tokens_uso_unico (
  token_hash  text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  finalidade  text not null check (finalidade in ('confirmar_conta', 'recuperar_senha', 'confirmar_email')),
  usuario_id  bigint not null references plataforma.usuarios(id) on delete cascade,
  dado        text,
  criado_em   timestamptz not null default now(),
  expira_em   timestamptz not null,
  usado_em    timestamptz
);
create index tokens_uso_unico_usuario_idx on plataforma.tokens_uso_unico(usuario_id, finalidade);
