-- The platform's geographic projects (docs/platform-projects.md): projects and their shares,
-- additional (external) layers, layers and per-user layer rights, forms, fields, geometries
-- and values. Users live in the platform database (plataforma.usuarios), so user ids here
-- carry no foreign key; the routes check them against the caller's tenant.
--
-- Values are typed EAV rows, one per (geometry, field), with one column per type family
-- (decision 0011): every workload of a 100,000-geometry layer reads one field of many
-- geometries (categorise, order a page, search, a tile attribute), and each of those is an
-- index scan on (campo_id, <typed column>).
create schema if not exists projeto;
create extension if not exists btree_gin;

-- The accent- and case-insensitive search key of a text (immutable, so it can be indexed).
create function projeto.chave_busca(t text) returns text
  language sql immutable parallel safe strict
  as $$ select lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;

create table projeto.projetos (
  id             bigserial primary key,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao      text check (length(descricao) <= 4000),
  tipo           text not null default 'geral' check (tipo in ('geral', 'cadastro_imobiliario')),
  ativo          boolean not null default true,
  publicado      boolean not null default false,
  -- Rich-text notes, stored already sanitised (allowed tags only, no attributes but href).
  notas          text not null default '' check (length(notas) <= 200000),
  -- A property-cadastre project line: version n supersedes n-1, which stays readable.
  versao         integer not null default 1 check (versao >= 1),
  versao_anterior bigint references projeto.projetos (id) on delete set null,
  somente_leitura boolean not null default false,
  criado_por     bigint not null,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now()
);
create index projetos_ativo_idx on projeto.projetos (ativo, id);

-- Shares: a user's role on a project (the creator and the tenant's administrators need none).
create table projeto.projeto_usuarios (
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  usuario_id     bigint not null,
  papel          text not null check (papel in ('leitura', 'edicao', 'admin')),
  concedido_por  bigint not null,
  concedido_em   timestamptz not null default now(),
  primary key (projeto_id, usuario_id)
);
create index projeto_usuarios_usuario_idx on projeto.projeto_usuarios (usuario_id);

-- External layers shown with a project (a WMS service, an XYZ tile template, a vector URL).
create table projeto.camadas_adicionais (
  id             bigserial primary key,
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  tipo           text not null check (tipo in ('wms', 'xyz', 'vetor')),
  url            text not null check (url ~ '^https?://' and length(url) <= 2000),
  camadas        text check (length(camadas) <= 2000),  -- WMS LAYERS
  opcoes         jsonb not null default '{}' check (jsonb_typeof(opcoes) = 'object'),
  ordem          integer not null default 0,
  criado_em      timestamptz not null default now()
);
create index camadas_adicionais_projeto_idx on projeto.camadas_adicionais (projeto_id, ordem, id);

-- Layers: vector layers hold geometries; tiff, dxf and wms layers point at a file or a
-- service, with the extent stored when they were created.
create table projeto.camadas (
  id             bigserial primary key,
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao      text check (length(descricao) <= 4000),
  tipo           text not null default 'vetor' check (tipo in ('vetor', 'tiff', 'dxf', 'wms')),
  geometria      text not null default 'qualquer'
                 check (geometria in ('ponto', 'linha', 'poligono', 'qualquer')),
  ativo          boolean not null default true,
  privada        boolean not null default false,
  modulo_id      integer,
  propriedades   jsonb not null default '{}' check (jsonb_typeof(propriedades) = 'object'),
  estilo         jsonb not null default '{}' check (jsonb_typeof(estilo) = 'object'),
  rotulo         jsonb,      -- labelling: fields, separator, rotation field
  categorias     jsonb,      -- categorisation: field, method, classes with colours
  ordem          integer not null default 0,
  arquivo        text,       -- tiff/dxf: the stored file, relative to the file store
  url            text,       -- wms: the service
  camadas_wms    text,
  extensao       geometry(Polygon, 4674),  -- tiff/dxf/wms: the extent recorded at creation
  geracao        bigint not null default 1,  -- bumped by every write: tiles' ETag
  criado_por     bigint not null,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now()
);
create index camadas_projeto_idx on projeto.camadas (projeto_id, ordem, id);

-- Per-user rights on one layer: they replace what the project share gives on that layer
-- (and let a user see a private layer).
create table projeto.camada_usuarios (
  id             bigserial primary key,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  usuario_id     bigint not null,
  direito        text not null check (direito in ('leitura', 'edicao')),
  concedido_por  bigint not null,
  concedido_em   timestamptz not null default now(),
  unique (camada_id, usuario_id)
);
create index camada_usuarios_usuario_idx on projeto.camada_usuarios (usuario_id);

create table projeto.formularios (
  id             bigserial primary key,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao      text check (length(descricao) <= 4000),
  ativo          boolean not null default true,
  ordem          integer not null default 0,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now()
);
create index formularios_camada_idx on projeto.formularios (camada_id, ordem, id);

-- Fields. `chave` is the machine name (unique in the layer: formulas and Formly use it).
create table projeto.campos (
  id             bigserial primary key,
  formulario_id  bigint not null references projeto.formularios (id) on delete cascade,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  chave          text not null check (chave ~ '^[a-z][a-z0-9_]{0,62}$'),
  tipo           text not null check (tipo in ('texto', 'texto_longo', 'inteiro', 'decimal', 'data',
                   'booleano', 'lista', 'lista_dominio', 'multipla', 'foto', 'calculado')),
  obrigatorio    boolean not null default false,
  unico          boolean not null default false,
  minimo         numeric,    -- numbers: the value; texts: the length
  maximo         numeric,
  padrao         text check (length(padrao) <= 500),  -- a regular expression texts must match
  opcoes         jsonb check (jsonb_typeof(opcoes) = 'array'),  -- lista, multipla
  dominio        text,       -- lista_dominio: a domain table of the tenant
  formula        text check (length(formula) <= 2000),  -- calculado
  avaliacao      text check (avaliacao ~ '^[a-z][a-z0-9_]{0,62}$'),  -- valuation variable
  ajuda          text check (length(ajuda) <= 2000),
  ordem          integer not null default 0,
  ativo          boolean not null default true,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now(),
  check (minimo is null or maximo is null or minimo <= maximo)
);
create index campos_formulario_idx on projeto.campos (formulario_id, ordem, id);

create table projeto.geometrias (
  id             bigserial primary key,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  geom           geometry(Geometry, 4674) not null,
  versao         integer not null default 1 check (versao >= 1),
  -- The geometry this one belongs to (a building's lot), when linked.
  vinculo_id     bigint references projeto.geometrias (id) on delete set null,
  criado_por     bigint,
  criado_em      timestamptz not null default now(),
  atualizado_por bigint,
  atualizado_em  timestamptz not null default now()
);
create index geometrias_camada_idx on projeto.geometrias (camada_id, id);
create index geometrias_geom_idx on projeto.geometrias using gist (geom);
create index geometrias_vinculo_idx on projeto.geometrias (vinculo_id) where vinculo_id is not null;

-- Values: one row per (geometry, field); the column of the field's type family holds it
-- (texto: texto, texto_longo, lista, lista_dominio, foto; numero: inteiro, decimal,
-- calculado; data; booleano; lista: multipla as a JSON array of texts).
create table projeto.valores (
  id             bigserial primary key,
  geometria_id   bigint not null references projeto.geometrias (id) on delete cascade,
  campo_id       bigint not null references projeto.campos (id) on delete cascade,
  texto          text check (length(texto) <= 100000),
  numero         numeric,
  data           date,
  booleano       boolean,
  lista          jsonb check (jsonb_typeof(lista) = 'array'),
  atualizado_por bigint,
  atualizado_em  timestamptz not null default now(),
  unique (geometria_id, campo_id)
);
create index valores_campo_numero_idx on projeto.valores (campo_id, numero, id);
create index valores_campo_texto_idx on projeto.valores (campo_id, texto, id);
create index valores_campo_data_idx on projeto.valores (campo_id, data, id);
create index valores_busca_idx on projeto.valores
  using gin (campo_id, projeto.chave_busca(texto) gin_trgm_ops);

-- Every write of a value: who, when, before and after (the value's typed JSON).
create table projeto.valores_auditoria (
  id             bigserial primary key,
  valor_id       bigint,
  geometria_id   bigint not null,
  campo_id       bigint not null,
  operacao       text not null check (operacao in ('criar', 'alterar', 'excluir', 'converter', 'copiar')),
  antes          jsonb,
  depois         jsonb,
  usuario_id     bigint not null,
  em             timestamptz not null default now()
);
create index valores_auditoria_valor_idx on projeto.valores_auditoria (valor_id, id);
create index valores_auditoria_geometria_idx on projeto.valores_auditoria (geometria_id, id);

-- Structural events of projects (transfer, copy, new version, publication, shares).
create table projeto.eventos (
  id             bigserial primary key,
  projeto_id     bigint,
  operacao       text not null check (btrim(operacao) <> ''),
  detalhes       jsonb not null default '{}',
  usuario_id     bigint not null,
  em             timestamptz not null default now()
);
create index eventos_projeto_idx on projeto.eventos (projeto_id, id);

-- The one rule set of who may do what (the platform's guard, its lists and /permissoes all
-- ask these two functions). Roles, weakest first: leitura, edicao, admin; null: nothing.
--   project: the tenant's administrators and the project's creator are admins; otherwise
--   the user's share; otherwise 'leitura' when the project is published or the user holds
--   a right on one of its layers.
create function projeto.papel_projeto(p_id bigint, u_id bigint, adm boolean) returns text
  language sql stable as $$
  select case
           when adm or p.criado_por = u_id then 'admin'
           else coalesce(
             (select pu.papel from projeto.projeto_usuarios pu
               where pu.projeto_id = p.id and pu.usuario_id = u_id),
             case when p.publicado or exists (
                    select 1 from projeto.camada_usuarios cu join projeto.camadas c on c.id = cu.camada_id
                     where c.projeto_id = p.id and cu.usuario_id = u_id)
                  then 'leitura' end)
         end
    from projeto.projetos p where p.id = p_id
$$;

--   layer: a project admin is admin on every layer; otherwise the user's right on the
--   layer replaces what the project gives; otherwise a private layer gives nothing and a
--   public one what the project gives.
create function projeto.papel_camada(c_id bigint, u_id bigint, adm boolean) returns text
  language sql stable as $$
  select case
           when x.pp = 'admin' then 'admin'
           else coalesce(cu.direito, case when c.privada then null else x.pp end)
         end
    from projeto.camadas c
   cross join lateral (select projeto.papel_projeto(c.projeto_id, u_id, adm) as pp) x
    left join projeto.camada_usuarios cu on cu.camada_id = c.id and cu.usuario_id = u_id
   where c.id = c_id
$$;
