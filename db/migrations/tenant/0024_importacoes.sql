-- Background jobs of the platform (src/platform/jobs/jobs.hpp, docs/platform-imports.md):
-- imports of vector files, of the municipality's cadastre layers and of GeoTIFFs. A job is
-- written in the database only through the runner; the layers it creates commit in the
-- same transaction as its final row (estado concluida), so a job that failed created
-- nothing.
create table projeto.importacoes (
  id           bigserial primary key,
  tipo         text not null check (tipo in ('shp', 'kml', 'dxf', 'pvg', 'icad_lotes', 'icad_lotes_rurais',
                                             'icad_edificacoes', 'icad_logradouros', 'ouv', 'tiff')),
  estado       text not null default 'pendente'
               check (estado in ('pendente', 'executando', 'concluida', 'falhou')),
  progresso    numeric(5, 2) not null default 0 check (progresso between 0 and 100),
  -- {"lidas","importadas","reparadas","recusadas"}
  contagens    jsonb not null default '{}' check (jsonb_typeof(contagens) = 'object'),
  -- [{"feicao": n, "mensagem": "..."}], at most 100 (the rest only counted)
  erros        jsonb not null default '[]' check (jsonb_typeof(erros) = 'array'),
  -- The failure's message (estado falhou).
  mensagem     text check (length(mensagem) <= 2000),
  projeto_id   bigint references projeto.projetos (id) on delete set null,
  -- The layer created (the first one when several: a DXF creates one per geometry type,
  -- all listed in `camadas` as [{"id","nome","geometria","feicoes"}]).
  camada_id    bigint references projeto.camadas (id) on delete set null,
  camadas      jsonb not null default '[]' check (jsonb_typeof(camadas) = 'array'),
  oculta       boolean not null default false,
  -- The client's idempotency key: one job per (user, tipo, codigo).
  codigo       text check (length(codigo) between 1 and 200),
  parametros   jsonb not null default '{}' check (jsonb_typeof(parametros) = 'object'),
  -- The backend (pg_backend_pid) of the process holding the job; when it is gone while the
  -- job is pendente or executando, the process died and the job is marked falhou.
  pid          integer,
  criado_por   bigint not null,
  criado_em    timestamptz not null default now(),
  atualizado_em timestamptz not null default now()
);
create unique index importacoes_codigo_idx on projeto.importacoes (criado_por, tipo, codigo) where codigo is not null;
create index importacoes_usuario_idx on projeto.importacoes (criado_por, oculta, id desc);
create index importacoes_abertas_idx on projeto.importacoes (estado) where estado in ('pendente', 'executando');
