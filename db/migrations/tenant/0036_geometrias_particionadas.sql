-- Each layer's geometries in a table of their own (decision 0024, the second step of 0023):
-- projeto.geometrias becomes a table partitioned by layer, camadas.g<camada id> holding the
-- layer's rows. Statements keep naming projeto.geometrias: one that says its layer
-- (camada_id = a constant or a bound value) is planned and run on that layer's table alone.
-- The values stay in camadas.l<camada id> (0035): a partition has its parent's columns only.
--
-- - A new layer's partition is created and attached with the layer; an import creates it
--   bare, fills it by COPY and attaches it after (projeto.camada_anexar), which builds its
--   indexes once.
-- - The key is (id, camada_id): a partitioned table's unique key holds its partition key.
--   Ids still come from one sequence, projeto.geometrias_id_seq.
-- - A geometry's layer, knowing only its id, comes from projeto.faixas_geometria: ranges of
--   consecutive ids of one layer, written by the statement that inserts them (below).
--   Statements that know only an id say `camada_id = projeto.camada_da_geometria(<id>)`, so
--   that they too are planned on one partition (see that function for why it is IMMUTABLE).
-- - So no foreign key can reference a geometry: the references (labels, files, valuation
--   residuals, ombudsman requests, links between geometries, the layer's values) are kept
--   by a statement-level trigger on projeto.geometrias: deleting geometries through it
--   deletes or unlinks what referred to them, once per statement. Code deletes through
--   projeto.geometrias, never through a partition.

-- 1. The references, as a trigger.
do $$
declare
  c record;
begin
  for c in select conrelid::regclass as t, conname from pg_constraint
            where confrelid = 'projeto.geometrias'::regclass and contype = 'f' loop
    execute format('alter table %s drop constraint %I', c.t, c.conname);
  end loop;
end $$;

create function projeto.geometrias_removidas() returns trigger language plpgsql as $$
declare
  camada bigint;
begin
  delete from projeto.rotulos_geometria r using velhas v where r.geometria_id = v.id;
  delete from projeto.arquivos a using velhas v where a.geometria_id = v.id;
  delete from projeto.modelo_residuos m using velhas v where m.geometria_id = v.id;
  delete from ouvidoria.pedidos_camada p using velhas v where p.geometria_id = v.id;
  update projeto.geometrias g set vinculo_id = null from velhas v where g.vinculo_id = v.id;
  for camada in select distinct v.camada_id from velhas v loop
    -- A deleted layer's values table may be gone already.
    if to_regclass(format('camadas.%I', 'l' || camada)) is not null then
      execute format('delete from camadas.%I l using velhas v where l.id = v.id', 'l' || camada);
    end if;
  end loop;
  return null;
end $$;

-- 2. The registry of id ranges. Rows are added, never changed; a deleted geometry leaves a
-- hole in its range (ids are never reused), and a layer's ranges go with the layer. Ranges
-- never overlap: an id in a range already is refused like a duplicate key.
create table projeto.faixas_geometria (
  inicio    bigint primary key,
  fim       bigint not null check (fim >= inicio),
  camada_id bigint not null
);
create index faixas_geometria_camada_idx on projeto.faixas_geometria (camada_id);

-- Registers ranges (inicios[i] .. fins[i], of layer camadas[i]); refuses an id some range holds.
create function projeto.faixas_registrar(inicios bigint[], fins bigint[], camadas bigint[]) returns void
  language plpgsql as $$
begin
  insert into projeto.faixas_geometria (inicio, fim, camada_id) select * from unnest(inicios, fins, camadas);
  if exists (select 1 from unnest(inicios, fins) r(i, f),
                    lateral (select x.fim from projeto.faixas_geometria x where x.inicio < r.i
                              order by x.inicio desc limit 1) antes where antes.fim >= r.i)
     or exists (select 1 from unnest(inicios, fins) r(i, f),
                       lateral (select x.inicio from projeto.faixas_geometria x where x.inicio > r.i
                                 order by x.inicio limit 1) depois where depois.inicio <= r.f) then
    raise exception 'id de geometria repetido' using errcode = '23505';
  end if;
end $$;

-- The ranges of consecutive ids of one layer among rows (id, camada_id) of relation `origem`
-- (a layer's partition), registered.
create function projeto.faixas_de(origem regclass) returns void language plpgsql as $$
declare
  i bigint[];
  f bigint[];
  c bigint[];
begin
  execute format('select array_agg(inicio), array_agg(fim), array_agg(camada_id) from (select min(id) as inicio, '
                 'max(id) as fim, camada_id from (select id, camada_id, id - row_number() over (partition by '
                 'camada_id order by id) as grupo from %s) x group by camada_id, grupo) r', origem) into i, f, c;
  perform projeto.faixas_registrar(i, f, c);
end $$;

-- The same for the rows a statement inserted through projeto.geometrias (a transition table
-- is seen by its trigger's function only).
create function projeto.geometrias_novas() returns trigger language plpgsql as $$
declare
  i bigint[];
  f bigint[];
  c bigint[];
begin
  select array_agg(inicio), array_agg(fim), array_agg(camada_id) into i, f, c
    from (select min(id) as inicio, max(id) as fim, camada_id
            from (select id, camada_id, id - row_number() over (partition by camada_id order by id) as grupo
                    from novas) x group by camada_id, grupo) r;
  perform projeto.faixas_registrar(i, f, c);
  return null;
end $$;

-- The layer of geometry `gid`; 0 for an id no layer holds (no layer is 0, so the statement
-- is planned on no partition: `camada_id = null` would plan them all). IMMUTABLE although it reads
-- a table, so that the planner computes it from a constant or bound id and plans the
-- statement on that layer's partition alone (a STABLE function would leave every partition
-- in the plan, and planning them is what costs: tens of milliseconds at a thousand layers).
-- It is as good as immutable: an id gets its layer once, from its inserting statement, and
-- never another; only the layer's deletion takes it back, and dropping the partition
-- invalidates every plan that named it.
create function projeto.camada_da_geometria(gid bigint) returns bigint language sql immutable parallel safe as $$
  select coalesce((select r.camada_id from (select x.camada_id, x.fim from projeto.faixas_geometria x
                                             where x.inicio <= gid order by x.inicio desc limit 1) r
                     where r.fim >= gid), 0) $$;
-- The layers of geometries `gids`, for `camada_id = any(...)` (same reasons).
create function projeto.camadas_das_geometrias(gids bigint[]) returns bigint[] language sql immutable
  parallel safe as $$
  select coalesce(array_agg(distinct projeto.camada_da_geometria(g)), '{}') from unnest(gids) g $$;

-- The layer of the geometry value `valor_id` names (projeto.valor_chave), for the same use.
create function projeto.camada_do_valor(valor_id bigint) returns bigint language sql immutable parallel safe as $$
  select projeto.camada_da_geometria(case when valor_id >= 4503599627370496
                                          then (valor_id - 4503599627370496) / 1024
                                          else (select l.geometria_id from projeto.valores_legado l
                                                 where l.id = valor_id) end) $$;

-- 3. The partitioned table, in place of the plain one.
alter table projeto.geometrias rename to geometrias_antigas;
alter table projeto.geometrias_antigas drop constraint geometrias_pkey;
drop index projeto.geometrias_geom_idx, projeto.geometrias_vinculo_idx;
alter sequence projeto.geometrias_id_seq owned by none;

create table projeto.geometrias (
  id                bigint not null default nextval('projeto.geometrias_id_seq'),
  camada_id         bigint not null references projeto.camadas (id) on delete cascade,
  geom              geometry(Geometry, 4674) not null,
  versao            integer not null default 1 check (versao >= 1),
  vinculo_id        bigint,
  criado_por        bigint,
  criado_em         timestamptz not null default now(),
  atualizado_por    bigint,
  atualizado_em     timestamptz not null default now(),
  campo_tematico_id bigint references projeto.campos (id) on delete set null,
  indice_tematico   integer,
  primary key (id, camada_id)
) partition by list (camada_id);
create index geometrias_geom_idx on projeto.geometrias using gist (geom);
create index geometrias_vinculo_idx on projeto.geometrias (vinculo_id) where vinculo_id is not null;
alter sequence projeto.geometrias_id_seq owned by projeto.geometrias.id;

create trigger geometrias_removidas after delete on projeto.geometrias
  referencing old table as velhas for each statement execute function projeto.geometrias_removidas();
create trigger geometrias_novas after insert on projeto.geometrias
  referencing new table as novas for each statement execute function projeto.geometrias_novas();

-- Layer `camada`'s partition, bare: no index, not attached (so no foreign key checked per row).
create function projeto.particao_criar(camada bigint) returns void language plpgsql as $$
begin
  execute format('create table camadas.%I (like projeto.geometrias including defaults including constraints, '
                 'check (camada_id = %s))', 'g' || camada, camada);
  execute format('alter table camadas.%I alter column camada_id set default %s', 'g' || camada, camada);
end $$;

-- Attaches layer `camada`'s partition, which builds its indexes and checks its foreign keys
-- once (the CHECK above spares the scan for the partition's bound), registers its ids and
-- builds the indexes of the layer's values table (projeto.coluna_indices). An import calls
-- it after its COPY, which fired no trigger of projeto.geometrias.
create function projeto.camada_anexar(camada bigint) returns void language plpgsql as $$
declare
  k record;
begin
  perform projeto.faixas_de(format('camadas.%I', 'g' || camada)::regclass);
  execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                 'g' || camada, camada);
  if current_setting('cadastre.indices_depois', true) = 'on' then
    for k in select c.id, c.tipo from projeto.campos c join projeto.formularios f on f.id = c.formulario_id
              where f.camada_id = camada loop
      perform projeto.coluna_indices(camada, k.id, k.tipo);
    end loop;
  end if;
end $$;

-- 4. Every layer's rows into its partition, and their ids into the registry.
do $$
declare
  l record;
begin
  for l in select id from projeto.camadas order by id loop
    perform projeto.particao_criar(l.id);
    execute format('insert into camadas.%I (id, camada_id, geom, versao, vinculo_id, criado_por, criado_em, '
                   'atualizado_por, atualizado_em, campo_tematico_id, indice_tematico) '
                   'select id, camada_id, geom, versao, vinculo_id, criado_por, criado_em, atualizado_por, '
                   'atualizado_em, campo_tematico_id, indice_tematico from projeto.geometrias_antigas '
                   'where camada_id = %s order by id', 'g' || l.id, l.id);
    execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                   'g' || l.id, l.id);
    perform projeto.faixas_de(format('camadas.%I', 'g' || l.id)::regclass);
  end loop;
end $$;
drop table projeto.geometrias_antigas;

-- 5. A layer's tables, with the layer: its values table (0035, now without a foreign key)
-- and its partition. The partition is attached at once, unless an import fills it first
-- (`cadastre.indices_depois`; it then calls projeto.camada_anexar). Dropping a partition
-- locks projeto.geometrias for the rest of the deleting transaction: layers are deleted
-- rarely, and the geometries go first (the layer's foreign key cascades).
create or replace function projeto.camada_tabela() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    execute format('create table camadas.%I (id bigint primary key)', 'l' || new.id);
    perform projeto.particao_criar(new.id);
    if current_setting('cadastre.indices_depois', true) is distinct from 'on' then
      execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                     'g' || new.id, new.id);
    end if;
  else
    execute format('drop table if exists camadas.%I', 'g' || old.id);
    execute format('drop table if exists camadas.%I', 'l' || old.id);
    delete from projeto.faixas_geometria where camada_id = old.id;
  end if;
  return null;
end $$;

-- 6. The functions of 0035 that find a geometry by id, on its layer's partition alone.
create or replace function projeto.valor_chave(valor_id bigint, out geometria_id bigint, out campo_id bigint)
  returns setof record language sql stable as $$
  select l.geometria_id, l.campo_id from projeto.valores_legado l where valor_id < 4503599627370496 and l.id = valor_id
  union all
  select g.id, k.id from projeto.geometrias g
    join projeto.formularios f on f.camada_id = g.camada_id join projeto.campos k on k.formulario_id = f.id
   where valor_id >= 4503599627370496 and g.camada_id = projeto.camada_do_valor(valor_id)
     and g.id = (valor_id - 4503599627370496) / 1024 and k.posicao = (valor_id - 4503599627370496) % 1024 $$;

create or replace function projeto.valores_de(gid bigint) returns table (campo_id bigint, valor jsonb)
  language plpgsql stable as $$
declare
  camada bigint := nullif(projeto.camada_da_geometria(gid), 0);
  doc jsonb;
begin
  if camada is null then return; end if;
  execute format('select to_jsonb(l) - ''id'' from camadas.%I l where l.id = $1', 'l' || camada) into doc using gid;
  return query select substr(e.key, 3)::bigint, e.value from jsonb_each(doc) e where e.value <> 'null'::jsonb;
end $$;

-- These two read the geometry's partition by name: a SQL function's statements are planned
-- once per calling statement, with the id unknown, over every partition.
create or replace function projeto.valor_atualizacao(gid bigint, campo bigint, out por bigint, out em timestamptz)
  language plpgsql stable as $$
declare
  camada bigint;
begin
  select a.usuario_id, a.em into por, em from projeto.valores_auditoria a
   where a.geometria_id = gid and a.campo_id = campo order by a.id desc limit 1;
  if found then return; end if;
  select l.atualizado_por, l.atualizado_em into por, em from projeto.valores_legado l
   where l.geometria_id = gid and l.campo_id = campo limit 1;
  if found then return; end if;
  camada := nullif(projeto.camada_da_geometria(gid), 0);
  if camada is not null then
    execute format('select atualizado_por, atualizado_em from camadas.%I where id = $1', 'g' || camada)
      into por, em using gid;
  end if;
end $$;

create or replace function projeto.geometria_estado(gid bigint) returns jsonb
  language plpgsql stable as $$
declare
  camada bigint := nullif(projeto.camada_da_geometria(gid), 0);
  estado jsonb;
begin
  if camada is null then return null; end if;
  execute format('select jsonb_build_object(''id'', g.id, ''idCamada'', g.camada_id, ''versao'', g.versao, '
                 '''vinculoId'', g.vinculo_id, ''geometria'', st_asgeojson(g.geom, 9, 0)::jsonb, '
                 '''valores'', coalesce((select jsonb_object_agg(k.chave, v.valor) from projeto.valores_de(g.id) v '
                 'join projeto.campos k on k.id = v.campo_id), ''{}''::jsonb)) from camadas.%I g where g.id = $1',
                 'g' || camada) into estado using gid;
  return estado;
end $$;

-- How many geometries layer `camada` has and their extent, from its partition by name: for
-- statements over a list of layers (a correlated `camada_id = c.id` would plan every
-- partition).
create function projeto.camada_resumo(camada bigint, out n bigint, out e box2d) language plpgsql stable as $$
begin
  n := 0;
  if to_regclass(format('camadas.%I', 'g' || camada)) is not null then
    execute format('select count(*), st_extent(geom) from camadas.%I', 'g' || camada) into n, e;
  end if;
end $$;

analyze projeto.geometrias;
