-- Scheduling of inspections (/agendamento): the tenant's weekly agenda and the reservations.
--
-- Capacity is enforced by the database, not only by the server's check:
--   A slot of the agenda offers capacidade_total places (capacidade_por_slot × number of
--   vistoriadores, or capacidade_por_slot when none are listed); a reservation always lies
--   inside one slot (cadastre::schedule::check_capacity). Each place is a row of
--   agendamento.vaga keyed by (slot_inicio, indice) with indice in 1..capacidade_total, and
--   every reservation must claim exactly one place in the same transaction that stores it
--   (reserva_id is the primary key of vaga). The server claims the lowest index the agenda
--   allows that is not yet taken; two transactions that see the same free place both try
--   the same key, the unique index makes the second wait for the first and then fail
--   (23505 → 409), so 20 parallel bookings of the last free place yield exactly one row.
--   An assigned inspector also claims (vistoriador, slot_inicio, indice_vistoriador) with
--   indice_vistoriador in 1..capacidade_por_slot, so one inspector is never booked beyond
--   their own capacity either. Deleting a reservation frees its place (on delete cascade);
--   rescheduling deletes the old claim and claims a place of the new slot.

-- One active agenda per tenant (the single row id = 1), in the library's Agenda JSON format
-- (cadastre/schedule.hpp). Without "fuso_horario" the tenant's time zone applies.
create table agendamento.agenda (
  id             smallint primary key default 1 check (id = 1),
  configuracao   jsonb not null check (jsonb_typeof(configuracao) = 'object'),
  atualizado_em  timestamptz not null default now(),
  atualizado_por text
);

create table agendamento.reserva (
  id                  bigserial primary key,
  vistoriador         text,
  inicio              timestamptz not null,
  fim                 timestamptz not null,
  imobiliario_id      integer references cadastro.imobiliario(id) on delete set null,
  lote_id             integer references cadastro.lote(id) on delete set null,
  protocolo           text,
  solicitante_nome    text not null check (btrim(solicitante_nome) <> ''),
  solicitante_contato text,
  observacao          text,
  status              text not null default 'agendado'
                      check (status in ('agendado', 'em_progresso', 'concluido')),
  criado_em           timestamptz not null default now(),
  atualizado_em       timestamptz not null default now(),
  criado_por          text,
  check (fim > inicio),
  -- the reserved property or service protocol (protocol alone is enough)
  check (imobiliario_id is not null or lote_id is not null or protocolo is not null)
);
create index reserva_inicio_idx on agendamento.reserva (inicio);
create index reserva_status_idx on agendamento.reserva (status);
create index reserva_vistoriador_idx on agendamento.reserva (vistoriador, inicio);

-- The place a reservation occupies (see the header comment).
create table agendamento.vaga (
  reserva_id          bigint primary key references agendamento.reserva(id) on delete cascade,
  slot_inicio         timestamptz not null,
  indice              integer not null check (indice >= 1),
  vistoriador         text,
  indice_vistoriador  integer check (indice_vistoriador >= 1),
  check ((vistoriador is null) = (indice_vistoriador is null)),
  unique (slot_inicio, indice),
  unique (vistoriador, slot_inicio, indice_vistoriador)
);
