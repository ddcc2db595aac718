-- The tenant's geography for the platform's search, geography and analysis routes
-- (issue #16): base maps, named geographic references, zoning areas, notes on properties
-- and a loadable CEP table. National tables (IBGE municipalities, census sectors) are the
-- same for every tenant and live in the platform database (platform/0005_geografia.sql).
--
-- Zoning is a table of the tenant (geografia.zonas) rather than a project layer: the
-- municipality's zoning law is one official map, loaded by the city (or the demo), and the
-- analyses and the per-city routes read it without any project's share.
create schema if not exists geografia;

-- Base maps the web client offers under the project's layers (GET /basemap).
create table geografia.mapas_base (
  id          serial primary key,
  nome        text not null unique check (btrim(nome) <> '' and length(nome) <= 200),
  tipo        text not null check (tipo in ('xyz', 'wms')),
  url         text not null check (url ~ '^https?://' and length(url) <= 2000),
  atribuicao  text not null default '' check (length(atribuicao) <= 500),
  zoom_maximo integer not null default 19 check (zoom_maximo between 1 and 24),
  padrao      boolean not null default false,
  ordem       integer not null default 0
);
insert into geografia.mapas_base (nome, tipo, url, atribuicao, zoom_maximo, padrao, ordem) values
  ('OpenStreetMap', 'xyz', 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
   '© colaboradores do OpenStreetMap', 19, true, 1),
  ('Satélite (Esri World Imagery)', 'xyz',
   'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
   'Esri, Maxar, Earthstar Geographics', 19, false, 2);

-- Named places of the municipality: bairros, distritos, zonas, named points.
create table geografia.referencias (
  id      serial primary key,
  tipo    text not null check (tipo in ('bairro', 'distrito', 'zona', 'ponto')),
  codigo  text check (length(codigo) <= 50),
  nome    text not null check (btrim(nome) <> '' and length(nome) <= 200),
  geom    geometry(Geometry, 4674) not null
);
create index referencias_busca_idx on geografia.referencias
  using gin (projeto.chave_busca(nome) gin_trgm_ops);
create index referencias_geom_idx on geografia.referencias using gist (geom);

-- The zoning law's areas (GET /analises/intersect/zonas, /zonas/<cidade>).
create table geografia.zonas (
  id          serial primary key,
  codigo      text not null unique check (btrim(codigo) <> '' and length(codigo) <= 50),
  nome        text not null check (btrim(nome) <> '' and length(nome) <= 200),
  observacao  text check (length(observacao) <= 4000),
  geom        geometry(MultiPolygon, 4674) not null
);
create index zonas_geom_idx on geografia.zonas using gist (geom);

-- Notes the city keeps on properties, by inscrição (GET /observacoes/<cidade>).
create table geografia.observacoes (
  id         serial primary key,
  inscricao  text not null check (btrim(inscricao) <> '' and length(inscricao) <= 50),
  texto      text not null check (btrim(texto) <> '' and length(texto) <= 4000),
  autor      text,
  criado_em  timestamptz not null default now()
);
create index observacoes_inscricao_idx on geografia.observacoes (inscricao, id);

-- CEPs loaded from the postal directory, next to those of cadastro.logradouro (GET /cep).
create table geografia.ceps (
  cep         text not null check (cep ~ '^[0-9]{8}$'),
  logradouro  text not null check (length(logradouro) <= 300),
  bairro      text check (length(bairro) <= 200),
  cidade      text not null check (length(cidade) <= 200),
  uf          text not null check (uf ~ '^[A-Z]{2}$'),
  primary key (cep, logradouro)
);
create index ceps_logradouro_idx on geografia.ceps using gin (projeto.chave_busca(logradouro) gin_trgm_ops);
create index logradouro_cep_idx on cadastro.logradouro (cep);
create index logradouro_busca_idx on cadastro.logradouro using gin (projeto.chave_busca(nome) gin_trgm_ops);
