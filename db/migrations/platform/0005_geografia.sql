-- National tables, the same for every tenant (issue #16): the IBGE municipalities and
-- census sectors, loaded from the official files by `cadastre-admin geografia load`
-- (formats in docs/platform-geography.md) and by the demo for its two cities.
create extension if not exists unaccent;
create extension if not exists pg_trgm;
create schema if not exists geografia;

-- The accent- and case-insensitive search key (as projeto.chave_busca in the tenants).
create function geografia.chave_busca(t text) returns text
  language sql immutable parallel safe strict
  as $$ select lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;

create table geografia.municipios (
  codigo     text primary key check (codigo ~ '^[0-9]{7}$'),  -- IBGE code with check digit
  nome       text not null check (btrim(nome) <> '' and length(nome) <= 200),
  uf         text not null check (uf ~ '^[A-Z]{2}$'),
  area_km2   numeric
);
create index municipios_busca_idx on geografia.municipios using gin (geografia.chave_busca(nome) gin_trgm_ops);

create table geografia.setores (
  codigo            text primary key check (codigo ~ '^[0-9]{15}$'),
  municipio_codigo  text not null references geografia.municipios (codigo) on delete cascade,
  situacao          text check (length(situacao) <= 50),  -- Urbana / Rural
  tipo              text check (length(tipo) <= 50),
  area_km2          numeric
);
create index setores_municipio_idx on geografia.setores (municipio_codigo, codigo);
