-- Rasters and WMS (issues #17 and #18; docs/platform-rasters-wms.md).

-- The tenant's external WMS services (/fonteswms): the URL given, and what its capabilities
-- said when they were last read (the layers offered, the GetMap formats), so that a map
-- request (/fonteswms/:id/imagem) is checked against them without calling the service.
create table projeto.fontes_wms (
  id             bigserial primary key,
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 200),
  descricao      text check (length(descricao) <= 4000),
  url            text not null check (length(url) <= 2000),
  versao         text not null check (versao in ('1.1.1', '1.3.0')),
  titulo         text,                    -- the service's title in its capabilities
  url_mapa       text not null,           -- where GetMap goes (the capabilities' OnlineResource)
  camadas        jsonb not null default '[]' check (jsonb_typeof(camadas) = 'array'),
  formatos       jsonb not null default '[]' check (jsonb_typeof(formatos) = 'array'),
  lido_em        timestamptz not null default now(),
  criado_por     bigint not null,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now(),
  unique (url)
);

-- The signed upload links of GeoTIFFs (GET /importar/tiff/credentials). The link's HMAC
-- proves it was issued here and not altered; this row makes it good for one upload: the
-- upload marks it used in the statement that reads it. What the upload creates (the
-- project, the layer's name, on whose behalf) is fixed when the link is issued.
create table projeto.tiff_credenciais (
  chave          text primary key check (chave ~ '^[0-9a-f]{32,128}$'),
  projeto_id     bigint not null references projeto.projetos (id) on delete cascade,
  nome_camada    text not null check (btrim(nome_camada) <> '' and length(nome_camada) <= 200),
  usuario_id     bigint not null,
  usuario_admin  boolean not null default false,  -- the issuer was a tenant administrator
  expira_em      timestamptz not null,
  usada_em       timestamptz,
  criado_em      timestamptz not null default now()
);
create index tiff_credenciais_expira_idx on projeto.tiff_credenciais (expira_em);
