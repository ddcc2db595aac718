-- Every change of a municipality's configuration through PUT /tenants/config: who, when,
-- and the document before and after, without the credentials of other systems
-- (src/service/tenant_config.hpp, public_view).
create table plataforma.configuracoes_auditoria (
  id          bigserial primary key,
  tenant_id   bigint not null references plataforma.tenants (id) on delete cascade,
  usuario_id  bigint references plataforma.usuarios (id) on delete set null,
  antes       jsonb not null,
  depois      jsonb not null,
  em          timestamptz not null default now()
);
create index configuracoes_auditoria_tenant_idx on plataforma.configuracoes_auditoria (tenant_id, id desc);
