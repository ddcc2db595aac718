-- Jobs can be cancelled (PUT /importacoes-tiff/:id {"cancelar": true}; Runner::cancel in
-- src/platform/jobs/jobs.hpp). A pending job becomes cancelada at once and never runs; a
-- running one is asked to stop: the request is recorded in `cancelamento_pedido`, which
-- the process running the job reads at the job's next progress (and before it commits),
-- so a request that reaches another process than the job's holder still stops it. The job
-- then rolls back and ends cancelada.
alter table projeto.importacoes drop constraint importacoes_estado_check;
alter table projeto.importacoes add constraint importacoes_estado_check
  check (estado in ('pendente', 'executando', 'concluida', 'falhou', 'cancelada'));
alter table projeto.importacoes add column cancelamento_pedido boolean not null default false;
