-- Custom maps and layer reports of the platform (src/platform/custom_maps/,
-- src/platform/layer_reports/, docs/platform-reports.md).
--
-- A custom map is a saved view of a project: its layers in drawing order with visibility,
-- opacity and an optional style, the extent and the base map. It belongs to the project
-- (everyone who sees the project sees its maps); the routes check each layer against the
-- caller's rights when the map is saved.
create table projeto.mapas_personalizados (
  id            bigserial primary key,
  projeto_id    bigint not null references projeto.projetos (id) on delete cascade,
  nome          text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao     text not null default '' check (length(descricao) <= 4000),
  -- [{"idCamada","ordem","visivel","opacidade","estilo"?}...] in drawing order
  camadas       jsonb not null check (jsonb_typeof(camadas) = 'array'),
  -- [minx, miny, maxx, maxy] in SIRGAS 2000 degrees; null: the layers' extent
  extensao      double precision[] check (extensao is null or (cardinality(extensao) = 4
                  and extensao[1] < extensao[3] and extensao[2] < extensao[4])),
  mapa_base_id  integer references geografia.mapas_base (id) on delete set null,
  criado_por    bigint not null,
  criado_em     timestamptz not null default now(),
  atualizado_em timestamptz not null default now()
);
create index mapas_personalizados_projeto_idx on projeto.mapas_personalizados (projeto_id, id);

-- A layer report: which fields of the layer's geometries, which filters (the conditions of
-- POST /pesquisa-caracteristicas) and an optional grouping field; rendered on request as
-- JSON, PDF or .xlsx from the current values.
create table projeto.relatorios_camada (
  id            bigserial primary key,
  camada_id     bigint not null references projeto.camadas (id) on delete cascade,
  nome          text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao     text not null default '' check (length(descricao) <= 4000),
  campos        bigint[] not null check (cardinality(campos) between 1 and 50),
  -- {"condicoes":[{"idCampo","operador","valor"?}...],"todas":true|false}
  filtros       jsonb not null default '{"condicoes":[],"todas":true}' check (jsonb_typeof(filtros) = 'object'),
  agrupamento   bigint references projeto.campos (id) on delete set null,
  criado_por    bigint not null,
  criado_em     timestamptz not null default now(),
  atualizado_em timestamptz not null default now()
);
create index relatorios_camada_camada_idx on projeto.relatorios_camada (camada_id, id);
