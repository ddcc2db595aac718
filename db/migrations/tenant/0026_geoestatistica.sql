-- Geostatistics and mass appraisal (issue 17, src/platform/geostatistics and
-- src/platform/mass_appraisal): variogram models of a project, the regression models chosen
-- for it, the residual features recorded from a model, and the versions of the
-- municipality's generic value map (Planta Genérica de Valores) that POST /gerarPVGEO writes.

-- A variogram model of a project, with the samples it was fitted on (a layer's numeric
-- field, optionally filtered by a boolean field) so that GET /krigar can reload them.
-- Distances (alcance) are metres in the SIRGAS 2000 / UTM zone `epsg`.
create table projeto.variogramas (
  id             bigserial primary key,
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  tipo           text not null check (tipo in ('esferico', 'exponencial', 'gaussiano')),
  pepita         double precision not null check (pepita >= 0),
  contribuicao   double precision not null check (contribuicao >= 0),
  alcance        double precision not null check (alcance > 0),
  log            boolean not null default false,  -- fitted on ln(valor): kriging back-transforms
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  campo_id       bigint not null references projeto.campos (id) on delete cascade,
  campo_chk_id   bigint references projeto.campos (id) on delete set null,
  epsg           integer not null check (epsg between 31978 and 31985 or epsg = 5396),
  criado_por     bigint not null,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now()
);
create index variogramas_projeto_idx on projeto.variogramas (projeto_id, id);

-- A regression model chosen with POST /rlm/final: the request it was fitted from
-- (especificacao: layer, fields and transforms), its coefficients in the order of the fit,
-- the statistics answered by /rlm (resultado), and per sample geometry its observed value,
-- fitted value and residual on the transformed scale (amostras), which the residual
-- features of /update/pvg/residuos are checked against.
create table projeto.modelos_avaliacao (
  id             bigserial primary key,
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  especificacao  jsonb not null check (jsonb_typeof(especificacao) = 'object'),
  coeficientes   jsonb not null check (jsonb_typeof(coeficientes) = 'array'),
  resultado      jsonb not null check (jsonb_typeof(resultado) = 'object'),
  criado_por     bigint not null,
  criado_em      timestamptz not null default now()
);
create index modelos_avaliacao_projeto_idx on projeto.modelos_avaliacao (projeto_id, id);

create table projeto.modelo_amostras (
  modelo_id      bigint not null references projeto.modelos_avaliacao (id) on delete cascade,
  geometria_id   bigint not null,  -- the sample; no foreign key: the model outlives an edit
  observado      double precision not null,
  ajustado       double precision not null,
  residuo        double precision not null,
  primary key (modelo_id, geometria_id)
);

-- The residual features of a model (POST /update/pvg/residuos/{line,polygon,point}): the
-- geometry written into a layer of the project for each sample. An update replaces the
-- previous features of the same model and kind.
create table projeto.modelo_residuos (
  modelo_id      bigint not null references projeto.modelos_avaliacao (id) on delete cascade,
  tipo           text not null check (tipo in ('linha', 'poligono', 'ponto')),
  amostra_id     bigint not null,
  geometria_id   bigint not null references projeto.geometrias (id) on delete cascade,
  primary key (modelo_id, tipo, amostra_id)
);

-- Versions of the generic value map. Each version holds the whole map (every block face's
-- unit value), so any version can be read back or restored; cadastro.face_quadra.valor_m2
-- holds the newest one, which the cadastre's valuation (/portal/{m}/avaliacao/*) reads.
-- Version 1 ('inicial') is the map as it was before the first generation.
create table avaliacao.pvg_versoes (
  id             bigserial primary key,
  numero         integer not null unique check (numero >= 1),
  origem         text not null check (origem in ('inicial', 'krigagem', 'modelo')),
  projeto_id     bigint,   -- where the source lives (no foreign key: the map outlives projects)
  camada_id      bigint,   -- origem krigagem: the raster layer
  modelo_id      bigint,   -- origem modelo: projeto.modelos_avaliacao
  descricao      text check (length(descricao) <= 2000),
  faces_alteradas integer not null default 0,
  criado_por     bigint,
  criado_em      timestamptz not null default now()
);

create table avaliacao.pvg_valores (
  versao_id      bigint not null references avaliacao.pvg_versoes (id) on delete cascade,
  face_quadra_id integer not null references cadastro.face_quadra (id) on delete cascade,
  valor_m2       numeric(12, 2) not null check (valor_m2 > 0),
  primary key (versao_id, face_quadra_id)
);
