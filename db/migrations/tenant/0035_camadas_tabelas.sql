-- A layer's values in a table of its own, one typed column per field (decision 0023, its
-- first step): camadas.l<camada id> holds one row per geometry that has a value, `id` (the
-- geometry) and c_<campo id> per field of the layer, of the SQL type of the field's type
-- family. The rows of projeto.valores move there, and projeto.valores goes. The geometries
-- stay in projeto.geometrias (the second step moves them into the same tables).
--
-- The tables follow projeto.camadas and projeto.campos by the triggers below, whoever
-- writes those (routes, copies, transfers, imports, the demo): a layer's table is created
-- with the layer and dropped with it; a field's column, with its indexes, is added with
-- the field, dropped with it, and made anew (empty) when the field changes type family
-- (the converter then writes the converted values). Identifiers are built from ids only.

create schema camadas;

-- The SQL type of the column holding values of field type `tipo` (field_values::column_of's
-- families: texts, numbers, dates, booleans, multiple choice as a JSON array).
create function projeto.tipo_coluna(tipo text) returns text language sql immutable parallel safe as $$
  select case when tipo in ('inteiro', 'decimal', 'calculado') then 'numeric'
              when tipo = 'data' then 'date'
              when tipo = 'booleano' then 'boolean'
              when tipo = 'multipla' then 'jsonb'
              else 'text' end $$;

-- The layer of a field.
create function projeto.camada_do_campo(campo bigint) returns bigint language sql stable as $$
  select f.camada_id from projeto.campos k join projeto.formularios f on f.id = k.formulario_id where k.id = campo $$;

-- The indexes of field `campo`'s column in layer `camada`'s table, which the value routes
-- read: (column, id) for pages and categories; for texts, the accent-insensitive trigram
-- (search) and prefix indexes on projeto.chave_busca(column).
create function projeto.coluna_indices(camada bigint, campo bigint, tipo text) returns void
  language plpgsql as $$
declare
  t text := format('camadas.%I', 'l' || camada);
  c text := 'c_' || campo;
begin
  execute format('create index on %s (%I, id)', t, c);
  if projeto.tipo_coluna(tipo) = 'text' then
    execute format('create index on %s using gin (projeto.chave_busca(%I) gin_trgm_ops)', t, c);
    execute format('create index on %s (projeto.chave_busca(%I) text_pattern_ops)', t, c);
  end if;
end $$;

-- Adds field `campo`'s column, and its indexes, to layer `camada`'s table.
create function projeto.coluna_criar(camada bigint, campo bigint, tipo text) returns void
  language plpgsql as $$
begin
  execute format('alter table camadas.%I add column %I %s', 'l' || camada, 'c_' || campo, projeto.tipo_coluna(tipo));
  perform projeto.coluna_indices(camada, campo, tipo);
end $$;

create function projeto.camada_tabela() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    execute format('create table camadas.%I (id bigint primary key references projeto.geometrias (id) '
                   'on delete cascade)', 'l' || new.id);
  else
    execute format('drop table if exists camadas.%I', 'l' || old.id);
  end if;
  return null;
end $$;
create trigger camada_tabela after insert or delete on projeto.camadas
  for each row execute function projeto.camada_tabela();

-- A field's position in its layer: the last part of the ids of its values (below). The next
-- after the layer's highest; the lowest free one once 1023 is taken. The layer's table is
-- locked first, so two fields created at once in one layer take different positions.
alter table projeto.campos add column posicao smallint check (posicao between 0 and 1023);

create function projeto.campo_posicao() returns trigger language plpgsql as $$
declare
  camada bigint := (select camada_id from projeto.formularios where id = new.formulario_id);
begin
  execute format('lock table camadas.%I in share row exclusive mode', 'l' || camada);
  select coalesce(max(k.posicao) + 1, 0) into new.posicao
    from projeto.campos k join projeto.formularios f on f.id = k.formulario_id where f.camada_id = camada;
  if new.posicao > 1023 then
    select min(p) into new.posicao from generate_series(0, 1023) p
     where not exists (select 1 from projeto.campos k join projeto.formularios f on f.id = k.formulario_id
                        where f.camada_id = camada and k.posicao = p);
    if new.posicao is null then
      raise exception 'a camada % já tem 1024 campos', camada using errcode = '54000';
    end if;
  end if;
  return new;
end $$;

create function projeto.campo_coluna() returns trigger language plpgsql as $$
declare
  camada bigint;
  t regclass;
begin
  if tg_op = 'INSERT' then
    -- An import fills a new layer's table first and indexes it after (projeto.coluna_indices):
    -- it says so with `set local cadastre.indices_depois = on`.
    camada := projeto.camada_do_campo(new.id);
    if current_setting('cadastre.indices_depois', true) = 'on' then
      execute format('alter table camadas.%I add column %I %s', 'l' || camada, 'c_' || new.id,
                     projeto.tipo_coluna(new.tipo));
    else
      perform projeto.coluna_criar(camada, new.id, new.tipo);
    end if;
  elsif tg_op = 'DELETE' then
    -- The table holding the column (its form may be gone already, deleted with it; the
    -- table too, when the whole layer was).
    for t in select c.oid::regclass from pg_class c join pg_attribute a on a.attrelid = c.oid
              where c.relnamespace = 'camadas'::regnamespace and c.relkind = 'r'
                and a.attname = 'c_' || old.id and not a.attisdropped loop
      execute format('alter table %s drop column %I', t, 'c_' || old.id);
    end loop;
  elsif projeto.tipo_coluna(new.tipo) <> projeto.tipo_coluna(old.tipo) then
    camada := projeto.camada_do_campo(new.id);
    execute format('alter table camadas.%I drop column %I', 'l' || camada, 'c_' || new.id);
    perform projeto.coluna_criar(camada, new.id, new.tipo);
  end if;
  return null;
end $$;

-- Ids issued for the rows of projeto.valores, and who wrote each last: GET /valores/:id
-- keeps answering for them. Never written again.
create table projeto.valores_legado (
  id             bigint primary key,
  geometria_id   bigint not null,
  campo_id       bigint not null,
  atualizado_por bigint,
  atualizado_em  timestamptz not null
);
create index valores_legado_valor_idx on projeto.valores_legado (geometria_id, campo_id);
insert into projeto.valores_legado select id, geometria_id, campo_id, atualizado_por, atualizado_em from projeto.valores;

-- The tables of the layers there are: columns first, then one pivoting insert per layer
-- (a value row's typed column is the one of its field's family), then the indexes.
do $$
declare
  l record;
  fld record;
  cols text;
  sels text;
begin
  for l in select id from projeto.camadas order by id loop
    execute format('create table camadas.%I (id bigint primary key references projeto.geometrias (id) '
                   'on delete cascade)', 'l' || l.id);
    cols := '';
    sels := '';
    for fld in select k.id, k.tipo, (row_number() over (order by k.id) - 1)::smallint as pos,
                    case projeto.tipo_coluna(k.tipo) when 'numeric' then 'numero' when 'date' then 'data'
                      when 'boolean' then 'booleano' when 'jsonb' then 'lista' else 'texto' end as familia
               from projeto.campos k join projeto.formularios f on f.id = k.formulario_id
              where f.camada_id = l.id order by k.id loop
      update projeto.campos set posicao = fld.pos where id = fld.id;
      execute format('alter table camadas.%I add column %I %s', 'l' || l.id, 'c_' || fld.id,
                     projeto.tipo_coluna(fld.tipo));
      cols := cols || format(', %I', 'c_' || fld.id);
      sels := sels || format(', (array_agg(v.%I) filter (where v.campo_id = %s and v.%I is not null))[1]',
                             fld.familia, fld.id, fld.familia);
    end loop;
    if cols <> '' then
      execute format('insert into camadas.%I (id%s) select v.geometria_id%s from projeto.valores v '
                     'join projeto.geometrias g on g.id = v.geometria_id where g.camada_id = %s '
                     'group by v.geometria_id', 'l' || l.id, cols, sels, l.id);
      for fld in select k.id, k.tipo from projeto.campos k join projeto.formularios f on f.id = k.formulario_id
                where f.camada_id = l.id loop
        perform projeto.coluna_indices(l.id, fld.id, fld.tipo);
      end loop;
    end if;
  end loop;
end $$;

drop table projeto.valores;
alter table projeto.campos alter column posicao set not null;

create trigger campo_posicao before insert on projeto.campos
  for each row execute function projeto.campo_posicao();
create trigger campo_coluna after insert or delete or update of tipo on projeto.campos
  for each row execute function projeto.campo_coluna();

-- A value's id, computed rather than stored: 2^52 + geometry × 1024 + the field's position
-- in its layer (a JSON number while geometry ids stay below 2^42). Ids of projeto.valores
-- (below 2^52) are in projeto.valores_legado.
create function projeto.valor_id(geometria bigint, posicao smallint) returns bigint
  language sql immutable parallel safe as $$ select 4503599627370496 + geometria * 1024 + posicao $$;

-- The geometry and field value `valor_id` names (no row for an id that names none: an
-- unknown geometry, a position no field of its layer holds, a legacy id never issued).
create function projeto.valor_chave(valor_id bigint, out geometria_id bigint, out campo_id bigint)
  returns setof record language sql stable as $$
  select l.geometria_id, l.campo_id from projeto.valores_legado l where valor_id < 4503599627370496 and l.id = valor_id
  union all
  select g.id, k.id from projeto.geometrias g
    join projeto.formularios f on f.camada_id = g.camada_id join projeto.campos k on k.formulario_id = f.id
   where valor_id >= 4503599627370496
     and g.id = (valor_id - 4503599627370496) / 1024 and k.posicao = (valor_id - 4503599627370496) % 1024 $$;

-- The values geometry `gid` holds, one row per field with a value (none for an unknown
-- geometry): one probe of its layer's table.
create function projeto.valores_de(gid bigint) returns table (campo_id bigint, valor jsonb)
  language plpgsql stable as $$
declare
  camada bigint := (select g.camada_id from projeto.geometrias g where g.id = gid);
  doc jsonb;
begin
  if camada is null then return; end if;
  execute format('select to_jsonb(l) - ''id'' from camadas.%I l where l.id = $1', 'l' || camada) into doc using gid;
  return query select substr(e.key, 3)::bigint, e.value from jsonb_each(doc) e where e.value <> 'null'::jsonb;
end $$;

-- Who changed a value last and when: its newest audit row; for a value not written since
-- the move, its row's stamps; for one never written by a value route (an import, a
-- geometry created with values), the geometry's.
create index valores_auditoria_campo_idx on projeto.valores_auditoria (geometria_id, campo_id, id);
create function projeto.valor_atualizacao(gid bigint, campo bigint, out por bigint, out em timestamptz)
  language sql stable as $$
  select * from (
    (select a.usuario_id, a.em from projeto.valores_auditoria a
      where a.geometria_id = gid and a.campo_id = campo order by a.id desc limit 1)
    union all
    (select l.atualizado_por, l.atualizado_em from projeto.valores_legado l
      where l.geometria_id = gid and l.campo_id = campo limit 1)
    union all
    (select g.atualizado_por, g.atualizado_em from projeto.geometrias g where g.id = gid)) u limit 1 $$;

create or replace function projeto.geometria_estado(gid bigint) returns jsonb
  language sql stable as $$
  select jsonb_build_object('id', g.id, 'idCamada', g.camada_id, 'versao', g.versao, 'vinculoId', g.vinculo_id,
           'geometria', st_asgeojson(g.geom, 9, 0)::jsonb,
           'valores', coalesce((select jsonb_object_agg(k.chave, v.valor)
                                from projeto.valores_de(g.id) v join projeto.campos k on k.id = v.campo_id), '{}'::jsonb))
  from projeto.geometrias g where g.id = gid $$;
