-- An import commits its layer with the geometries' key and GiST index (what a map, an edit
-- and a lookup by id need); the indexes of the layer's value columns (pages, categories,
-- search) are built after it, by a job of their own, tipo 'indices' (decision 0025). Until
-- they exist those reads scan the layer's table: the same answers, slower.

-- 1. The job that follows another: `apos` names the job that queued it (jobs.hpp,
--    Context::follow). A claim that finds its job ended already queues the followers that
--    job left pendente (its process died between its commit and their queueing).
alter table projeto.importacoes drop constraint importacoes_tipo_check;
alter table projeto.importacoes add constraint importacoes_tipo_check
  check (tipo in ('shp', 'kml', 'dxf', 'pvg', 'icad_lotes', 'icad_lotes_rurais', 'icad_edificacoes',
                  'icad_logradouros', 'ouv', 'tiff', 'previa', 'indices'));
alter table projeto.importacoes add column apos bigint references projeto.importacoes (id) on delete cascade;
create index importacoes_apos_idx on projeto.importacoes (apos) where apos is not null;

-- 2. A column's indexes are named after its layer and field, so that building them again
--    builds only the missing ones (a job retried, a field created meanwhile). Indexes made
--    before this migration keep PostgreSQL's names; no job builds those layers' indexes.
create or replace function projeto.coluna_indices(camada bigint, campo bigint, tipo text) returns void
  language plpgsql as $$
declare
  t text := format('camadas.%I', 'l' || camada);
  c text := 'c_' || campo;
  n text := 'l' || camada || '_c' || campo;
begin
  execute format('create index if not exists %I on %s (%I, id)', n || '_ordem', t, c);
  if projeto.tipo_coluna(tipo) = 'text' then
    execute format('create index if not exists %I on %s using gin (projeto.chave_busca(%I) gin_trgm_ops)',
                   n || '_trgm', t, c);
    execute format('create index if not exists %I on %s (projeto.chave_busca(%I) text_pattern_ops)',
                   n || '_prefixo', t, c);
  end if;
end $$;

-- 3. Attaching an import's partition no longer indexes the values' columns: the job does.
create or replace function projeto.camada_anexar(camada bigint) returns void language plpgsql as $$
begin
  perform projeto.faixas_de(format('camadas.%I', 'g' || camada)::regclass);
  execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                 'g' || camada, camada);
end $$;

-- 4. The indexes of layer `camada`'s value columns that are missing; how many fields it has
--    (0 when the layer is gone). The table is locked first (SHARE, as CREATE INDEX would
--    take it), so that no field is dropped between reading the fields and indexing them.
create function projeto.camada_indices(camada bigint) returns integer language plpgsql as $$
declare
  k record;
  n integer := 0;
begin
  if to_regclass(format('camadas.%I', 'l' || camada)) is null then
    return 0;
  end if;
  execute format('lock table camadas.%I in share mode', 'l' || camada);
  for k in select c.id, c.tipo from projeto.campos c join projeto.formularios f on f.id = c.formulario_id
            where f.camada_id = camada order by c.id loop
    perform projeto.coluna_indices(camada, k.id, k.tipo);
    n := n + 1;
  end loop;
  return n;
end $$;
