-- Storage set aside for writes under way (src/platform/licenses/store.hpp, reserve_storage):
-- a write of N bytes reserves them, under a lock of its tenant, against the license's quota
-- minus what is stored and what other writes reserved; the row goes when the write has
-- committed (its bytes then count as stored) or failed. `expira` bounds a reservation whose
-- process died before releasing it.
create table plataforma.reservas_armazenamento (
  id        bigserial primary key,
  tenant_id bigint not null references plataforma.tenants (id) on delete cascade,
  bytes     bigint not null check (bytes >= 0),
  expira    timestamptz not null default now() + interval '1 hour'
);
create index reservas_armazenamento_tenant_idx on plataforma.reservas_armazenamento (tenant_id, expira);
