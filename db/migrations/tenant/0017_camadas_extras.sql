-- Layers (issue 15): what the layer routes store beyond migration 0015.
--
-- The label of one geometry, set by hand over the layer's labelling (camadas.rotulo):
-- POST /camadas/rotulargeometria writes the text and position, POST
-- /camadas/rotulargeometria/rotacao the numeric field its rotation is read from. A row holds
-- only what overrides the layer's rule; NULL columns fall back to it. The tiles join it by
-- geometry id (its key).
create table projeto.rotulos_geometria (
  geometria_id     bigint primary key references projeto.geometrias (id) on delete cascade,
  texto            text check (length(texto) <= 500),
  -- Where the label sits (lon/lat, SIRGAS 2000); NULL: the renderer's placement.
  posicao          geometry(Point, 4674),
  -- A fixed angle in degrees, clockwise from the horizontal.
  rotacao          double precision check (rotacao >= -360 and rotacao <= 360),
  -- The numeric field whose value (of this geometry) gives the angle; a field of the layer.
  campo_rotacao_id bigint references projeto.campos (id) on delete set null,
  atualizado_por   bigint not null,
  atualizado_em    timestamptz not null default now(),
  check (rotacao is null or campo_rotacao_id is null)
);
create index rotulos_geometria_campo_idx on projeto.rotulos_geometria (campo_rotacao_id)
  where campo_rotacao_id is not null;
