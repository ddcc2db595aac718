-- Field application (/aplicativo): the offline edit log entries already processed.
--
-- One row per (dispositivo, id_cliente): the entry's outcome and the answer it got, so a
-- replayed entry is answered from here and never applied twice. `auditoria_id` is the
-- audit row an applied entry wrote for its record; the conflict check of the same device's
-- later entries leaves those rows out (the app knows its own edits).
create schema if not exists aplicativo;

create table aplicativo.log_aplicado (
  dispositivo      text not null check (btrim(dispositivo) <> ''),
  id_cliente       text not null check (btrim(id_cliente) <> ''),
  momento_cliente  timestamptz not null,
  camada           text not null,
  operacao         text not null check (operacao in ('inserir', 'atualizar', 'remover')),
  registro_id      text,
  status           text not null check (status in ('aplicado', 'conflito', 'erro')),
  auditoria_id     bigint references auditoria.registro(id) on delete set null,
  resultado        jsonb not null check (jsonb_typeof(resultado) = 'object'),
  usuario_id       bigint,
  processado_em    timestamptz not null default now(),
  primary key (dispositivo, id_cliente)
);
create index log_aplicado_auditoria_idx on aplicativo.log_aplicado (auditoria_id) where auditoria_id is not null;
