-- The events every instance of every service delivers (src/store/events.hpp): a layer's
-- changes and a job's progress for the platform's sockets, session revocations for every
-- service's caches and sockets. A publisher inserts a row and notifies the channel
-- cadastre_eventos with its id, in its own transaction; each instance LISTENs and reads the
-- rows after the last it delivered, so a notification too late, or missed while its
-- connection was down, costs nothing while the row is kept (an hour).
create table plataforma.eventos (
  id        bigserial primary key,
  tenant_id bigint not null,                            -- 0: the control channel (revocations)
  tipo      text not null,
  json      text not null check (length(json) <= 65536),
  sessoes   bigint[],                                   -- the sessions it goes to; null: all of the tenant's
  em        timestamptz not null default now()
);
create index eventos_em_idx on plataforma.eventos (em);

-- Publishes one event. Publishers take turns until their commit (a transaction-level
-- advisory lock), so ids become visible in increasing order: a follower that has read
-- every id up to N never sees a smaller one commit later.
create function plataforma.publicar_evento(tenant bigint, tipo text, json text, sessoes bigint[])
  returns bigint language plpgsql as $$
declare
  novo bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('plataforma.eventos', 0));
  insert into plataforma.eventos (tenant_id, tipo, json, sessoes) values (tenant, tipo, json, sessoes)
  returning id into novo;
  perform pg_notify('cadastre_eventos', novo::text);
  return novo;
end $$;
