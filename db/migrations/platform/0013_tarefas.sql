-- The durable job queue (src/platform/jobs/jobs.hpp, decision 0021): one row per open job of
-- any tenant, claimed by any instance's workers (FOR UPDATE SKIP LOCKED) under a lease
-- renewed while the job runs. The job itself (its state, progress, counts, answer) stays in
-- the tenant's projeto.importacoes; this row is only its place in the queue, and goes when
-- the job ends.
--   fila        the runner's lane ('importacoes', 'previas'): each lane has its workers
--   tipo        the handler that rebuilds the job's work from its row (registered by name
--               by every instance: Runner::handle)
--   entrada     the job's input in the file store (an upload waiting for its job), removed
--               when the job ends
--   titular     the instance holding the lease, until `prazo`; a lease that expired is
--               taken over by any instance and the job runs again from the start
--   tentativas  claims so far: past the runner's limit the job ends falhou
create table plataforma.tarefas (
  id            bigserial primary key,
  tenant_id     bigint not null references plataforma.tenants (id) on delete cascade,
  importacao_id bigint not null,
  fila          text not null,
  tipo          text not null,
  entrada       text,
  estado        text not null default 'pendente' check (estado in ('pendente', 'executando')),
  titular       text,
  prazo         timestamptz,
  tentativas    integer not null default 0,
  motivo        text,
  criada_em     timestamptz not null default now(),
  unique (tenant_id, importacao_id)
);
create index tarefas_fila_idx on plataforma.tarefas (fila, id);
create index tarefas_tenant_idx on plataforma.tarefas (tenant_id, fila) where estado = 'executando';

-- Turns: the job claimed next is the oldest of the tenant served longest ago (a tenant never
-- served first), so a municipality with a long queue does not make the others wait behind
-- it even with one worker. One row per tenant and lane, its turn a number of the sequence.
create sequence plataforma.tarefas_turno_seq;
create table plataforma.tarefas_turnos (
  tenant_id bigint not null references plataforma.tenants (id) on delete cascade,
  fila      text not null,
  turno     bigint not null,
  primary key (tenant_id, fila)
);
