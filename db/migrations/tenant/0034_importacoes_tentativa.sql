-- Jobs leave the process (platform migration 0013, plataforma.tarefas; decision 0021): a
-- job is claimed by any instance under a lease, and taken over when its holder dies.
-- `tentativa` is the claim that runs it now: only that attempt may write the job's final
-- row (a fencing token: an attempt whose lease was taken over cannot commit). The backend
-- that held a job (`pid`) no longer says whether it is alive.
alter table projeto.importacoes add column tentativa integer not null default 0;
-- Jobs open when this runs belonged to processes stopped for the upgrade and have no place
-- in the new queue.
update projeto.importacoes set estado = case when cancelamento_pedido then 'cancelada' else 'falhou' end,
       mensagem = 'interrompida pela atualização do serviço; envie de novo', pid = null, atualizado_em = now()
 where estado in ('pendente', 'executando');
alter table projeto.importacoes drop column pid;
