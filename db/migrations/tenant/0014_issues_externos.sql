-- Issues sent to the tenant's external issue tracker (POST /aplicativo/criar-issue-externo).
--
-- Every request is stored here before the tracker is called, so nothing is lost when the
-- tracker is down: the row stays 'pendente' (with the last error) and the next call
-- retries the pending rows first, oldest first. `referencia` is the idempotency key sent
-- with every attempt, so a tracker that saw an attempt whose answer was lost can tell the
-- retry is the same issue. `dados` is the JSON posted to the tracker.
create table atendimento.issue_externo (
  id            bigserial primary key,
  referencia    text not null unique,
  titulo        text not null check (btrim(titulo) <> ''),
  descricao     text,
  dados         jsonb not null check (jsonb_typeof(dados) = 'object'),
  status        text not null default 'pendente' check (status in ('pendente', 'enviado', 'falhou')),
  tentativas    integer not null default 0 check (tentativas >= 0),
  id_externo    text,
  link_externo  text,
  ultimo_erro   text,
  criado_em     timestamptz not null default now(),
  enviado_em    timestamptz,
  criado_por    text,
  check (status <> 'enviado' or (id_externo is not null and enviado_em is not null))
);
create index issue_externo_pendente_idx on atendimento.issue_externo (id) where status = 'pendente';
