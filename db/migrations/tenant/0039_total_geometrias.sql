-- Each layer's number of geometries, kept on its row of projeto.camadas (decision 0027).
-- Pages, categories, a numeric field's classes and a layer's summary answered it with a
-- count(*) of the layer's partition at every request: 8-11 ms at 100,000 lots, most of a
-- page's time. The statement-level triggers that already see every insert and delete
-- through projeto.geometrias (0036) now add and subtract their rows per layer, in the
-- writing transaction, so a reader sees the count its snapshot's rows give.
--
-- - An import or a copy that fills a bare partition (no trigger of projeto.geometrias
--   fires for it) gets its count when the partition is attached (projeto.camada_anexar).
-- - A geometry never changes layer (0036's registry of id ranges holds its layer for good),
--   so no update moves a count.
-- - Every write of a geometry already updates its layer's row (the tiles' generation), so
--   the count adds no lock that writers of a layer did not take.

alter table projeto.camadas add column total_geometrias bigint not null default 0
  check (total_geometrias >= 0);

do $$
declare
  l record;
  n bigint;
begin
  for l in select id from projeto.camadas order by id loop
    if to_regclass(format('camadas.%I', 'g' || l.id)) is not null then
      execute format('select count(*) from camadas.%I', 'g' || l.id) into n;
      update projeto.camadas set total_geometrias = n where id = l.id;
    end if;
  end loop;
end $$;

-- Adds deltas[i] geometries to layer camadas[i].
create function projeto.camadas_contar(camadas bigint[], deltas bigint[]) returns void language sql as $$
  update projeto.camadas c set total_geometrias = c.total_geometrias + m.n
    from unnest(camadas, deltas) m(camada, n) where c.id = m.camada $$;

create or replace function projeto.geometrias_novas() returns trigger language plpgsql as $$
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
  perform projeto.camadas_contar(array_agg(camada_id), array_agg(n))
     from (select camada_id, count(*) as n from novas group by 1) x;
  return null;
end $$;

create or replace function projeto.geometrias_removidas() returns trigger language plpgsql as $$
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
  -- A layer being deleted (its geometries go by its foreign key's cascade) has no row left
  -- to count on: the update passes over it.
  perform projeto.camadas_contar(array_agg(camada_id), array_agg(-n))
     from (select camada_id, count(*) as n from velhas group by 1) x;
  return null;
end $$;

create or replace function projeto.camada_anexar(camada bigint) returns void language plpgsql as $$
declare
  n bigint;
begin
  perform projeto.faixas_de(format('camadas.%I', 'g' || camada)::regclass);
  execute format('select count(*) from camadas.%I', 'g' || camada) into n;
  execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                 'g' || camada, camada);
  update projeto.camadas set total_geometrias = total_geometrias + n where id = camada;
end $$;

-- How many geometries layer `camada` has (kept) and their extent (from its partition).
create or replace function projeto.camada_resumo(camada bigint, out n bigint, out e box2d) language plpgsql stable
as $$
begin
  select c.total_geometrias into n from projeto.camadas c where c.id = camada;
  n := coalesce(n, 0);
  if n > 0 and to_regclass(format('camadas.%I', 'g' || camada)) is not null then
    execute format('select st_extent(geom) from camadas.%I', 'g' || camada) into e;
  end if;
end $$;

-- The planner's price of a random page read, for this database: 1.1 instead of 4. The
-- default prices a spinning disk; a municipality's layers are read from memory or SSD.
-- At 4, PostgreSQL read a layer's whole values table (a sequential scan, every column of
-- every row) to group one field, rather than that field's (column, id) index alone: 2.3×
-- slower at 100,000 lots (decision 0027). It applies to the sessions opened after it. An
-- operator whose cluster reads from disks resets it (ALTER DATABASE … RESET
-- random_page_cost); a services' user that does not own the database leaves the cluster's
-- value.
do $$
begin
  execute format('alter database %I set random_page_cost = 1.1', current_database());
exception when insufficient_privilege then
  raise notice 'random_page_cost: % não é dona da base %; fica o valor do servidor', current_user,
    current_database();
end $$;
