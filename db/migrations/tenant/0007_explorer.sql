-- Explorer (/explorer): saved query descriptions ("relatórios") that the explorer exports
-- as .xlsx and PDF. `consulta` is the query description the explorer accepts in
-- /query/preview ({"tabela", "colunas", "filtros", "ordem", "limite"}), stored in the
-- canonical form the server writes after checking it against the tenant's catalog; it is
-- checked again when a report runs, since the catalog may have changed since.
create schema if not exists explorer;

create table explorer.relatorio (
  id             bigserial primary key,
  nome           text not null unique check (btrim(nome) <> '' and length(nome) <= 200),
  titulo         text check (length(titulo) <= 300),
  consulta       jsonb not null check (jsonb_typeof(consulta) = 'object' and consulta ? 'tabela'),
  criado_em      timestamptz not null default now(),
  criado_por     text,
  atualizado_em  timestamptz not null default now()
);
