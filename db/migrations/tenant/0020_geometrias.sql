-- Geometries (issue 16): what the geometry routes (src/platform/geometries) store beyond
-- migration 0015: the audit of every geometry write, the outcomes of offline batches, the
-- thematic class of a geometry, and the SQL helpers the routes share.

-- Every create, change and delete of a geometry: its state before and after as
-- projeto.geometria_estado gives it (GeoJSON, version and values by chave). No foreign key:
-- the rows outlive the geometry (GET /auditoria/geometrias of issue 18 reads them).
create table projeto.geometrias_auditoria (
  id             bigserial primary key,
  geometria_id   bigint not null,
  camada_id      bigint not null,
  operacao       text not null check (operacao in ('criar', 'alterar', 'excluir', 'unir', 'dividir',
                                                    'remodelar', 'copiar', 'tematico')),
  versao         integer,
  antes          jsonb,
  depois         jsonb,
  usuario_id     bigint not null,
  em             timestamptz not null default clock_timestamp()
);
create index geometrias_auditoria_geometria_idx on projeto.geometrias_auditoria (geometria_id, id);
create index geometrias_auditoria_camada_idx on projeto.geometrias_auditoria (camada_id, em);

-- POST /geometrias/offline: the outcome of each item a user's client sent, by the client's
-- id of the item, so a batch sent again (or twice at once) is applied once and answered
-- with the same report.
create table projeto.geometrias_offline (
  usuario_id     bigint not null,
  id_cliente     text not null check (length(id_cliente) between 1 and 200),
  resultado      jsonb not null,
  em             timestamptz not null default now(),
  primary key (usuario_id, id_cliente)
);

-- PUT /geometrias/:id/indexMapaTematico: the class of the layer's categorisation
-- (camadas.categorias) the geometry's value falls in: the index in its "classes", -1 for
-- "outros", null for no value (semValor).
alter table projeto.geometrias
  add column campo_tematico_id bigint references projeto.campos (id) on delete set null,
  add column indice_tematico integer;

-- A geometry from the text a client sent (WKT, or GeoJSON when wkt is null) in `srid`
-- (default 4674, SIRGAS 2000 lon/lat), checked (readable, not empty, valid as GEOS judges
-- it) and transformed to 4674. Never raises: erro says why it was refused (GEOS's reason and
-- place for an invalid one), for a 400.
create function projeto.geometria_ler(wkt text, geojson text, srid integer, out geom geometry, out erro text)
  language plpgsql stable as $$
declare
  g geometry;
  d valid_detail;
begin
  begin
    if wkt is not null then g := st_geomfromtext(wkt); else g := st_geomfromgeojson(geojson); end if;
    g := st_setsrid(g, coalesce(srid, 4674));
  exception when others then
    erro := 'geometria ilegível: ' || sqlerrm;
    return;
  end;
  if st_isempty(g) then
    erro := 'geometria vazia';
    return;
  end if;
  d := st_isvaliddetail(g);
  if not d.valid then
    erro := 'geometria inválida: ' || coalesce(d.reason, 'motivo desconhecido') ||
            coalesce(' em ' || st_astext(d.location), '');
    return;
  end if;
  if st_srid(g) <> 4674 then
    begin
      g := st_transform(g, 4674);
    exception when others then
      erro := 'srid desconhecido: ' || srid;
      return;
    end;
  end if;
  if st_xmin(g) < -180 or st_xmax(g) > 180 or st_ymin(g) < -90 or st_ymax(g) > 90 then
    erro := 'coordenadas fora de longitude/latitude (informe srid para outras projeções)';
    return;
  end if;
  geom := g;
end $$;

-- Whether `g` is of the layer's geometry type (camadas.geometria).
create function projeto.geometria_do_tipo(g geometry, tipo text) returns boolean
  language sql immutable as $$
  select case tipo when 'ponto' then geometrytype(g) in ('POINT', 'MULTIPOINT')
                   when 'linha' then geometrytype(g) in ('LINESTRING', 'MULTILINESTRING')
                   when 'poligono' then geometrytype(g) in ('POLYGON', 'MULTIPOLYGON')
                   else true end $$;

-- A geometry's state for the audit: GeoJSON, version, link and values by field chave.
create function projeto.geometria_estado(gid bigint) returns jsonb
  language sql stable as $$
  select jsonb_build_object('id', g.id, 'idCamada', g.camada_id, 'versao', g.versao, 'vinculoId', g.vinculo_id,
           'geometria', st_asgeojson(g.geom, 9, 0)::jsonb,
           'valores', coalesce((select jsonb_object_agg(k.chave, projeto.valor_json(v.texto, v.numero, v.data,
                                                                                    v.booleano, v.lista))
                                from projeto.valores v join projeto.campos k on k.id = v.campo_id
                                where v.geometria_id = g.id), '{}'::jsonb))
  from projeto.geometrias g where g.id = gid $$;

-- Records one write of geometry `gid` (already done, in the caller's transaction): the audit
-- row (after: the state now, null when deleted) and the layer's new tile generation.
create function projeto.geometria_registrar(gid bigint, camada bigint, operacao text, antes jsonb, usuario bigint)
  returns void language plpgsql as $$
declare
  depois jsonb := projeto.geometria_estado(gid);
begin
  insert into projeto.geometrias_auditoria (geometria_id, camada_id, operacao, versao, antes, depois, usuario_id)
  values (gid, camada, operacao, coalesce((depois ->> 'versao')::integer, (antes ->> 'versao')::integer),
          antes, depois, usuario);
  update projeto.camadas set geracao = geracao + 1 where id = camada;
end $$;
