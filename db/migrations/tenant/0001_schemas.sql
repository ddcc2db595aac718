-- Per-municipality database: schemas, domain tables and the core cadastral layers.
-- Geometry is SIRGAS 2000 (EPSG:4674) with GiST indexes.
create extension if not exists postgis;
create extension if not exists unaccent;
create extension if not exists pg_trgm;

create schema if not exists cadastro;
create schema if not exists dominio;
create schema if not exists atendimento;
create schema if not exists agendamento;
create schema if not exists midia;
create schema if not exists avaliacao;
create schema if not exists auditoria;

-- Domain (lookup) tables: one per coded field; `id` equals `codigo` by rule.
create table dominio.topografia (
  id text primary key, codigo text not null unique, descricao text not null,
  fator numeric, check (id = codigo));
create table dominio.pedologia (
  id text primary key, codigo text not null unique, descricao text not null,
  fator numeric, check (id = codigo));
create table dominio.situacao (
  id text primary key, codigo text not null unique, descricao text not null,
  fator numeric, check (id = codigo));
create table dominio.padrao_construtivo (
  id text primary key, codigo text not null unique, descricao text not null,
  check (id = codigo));
create table dominio.uso (
  id text primary key, codigo text not null unique, descricao text not null,
  check (id = codigo));
create table dominio.conservacao (
  id text primary key, codigo text not null unique, descricao text not null,
  check (id = codigo));
create table dominio.tipo_logradouro (
  id text primary key, codigo text not null unique, descricao text not null,
  check (id = codigo));

create table cadastro.bairro (
  id        serial primary key,
  codigo    text not null unique,
  nome      text not null,
  geom      geometry(MultiPolygon, 4674) not null
);

create table cadastro.logradouro (
  id        serial primary key,
  codigo    text not null unique,
  tipo      text not null references dominio.tipo_logradouro(codigo),
  nome      text not null,
  cep       text,
  geom      geometry(MultiLineString, 4674) not null
);

create table cadastro.quadra (
  id        serial primary key,
  codigo    text not null unique,
  setor     text not null,
  bairro_id integer references cadastro.bairro(id),
  geom      geometry(MultiPolygon, 4674) not null
);

-- A block face: one side of a block along one street, carrying the unit land value
-- (planta de valores genéricos) and the count of public improvements of the street.
create table cadastro.face_quadra (
  id             serial primary key,
  codigo         text not null unique,
  quadra_id      integer not null references cadastro.quadra(id) on delete cascade,
  logradouro_id  integer not null references cadastro.logradouro(id),
  lado           text not null check (lado in ('par', 'impar')),
  valor_m2       numeric(12, 2) not null check (valor_m2 > 0),
  melhoramentos  smallint not null default 0 check (melhoramentos between 0 and 7),
  geom           geometry(LineString, 4674) not null
);

create table cadastro.lote (
  id              serial primary key,
  inscricao       text not null unique,
  quadra_id       integer not null references cadastro.quadra(id),
  face_quadra_id  integer references cadastro.face_quadra(id),
  logradouro_id   integer references cadastro.logradouro(id),
  numero          integer,
  area_terreno    numeric(12, 2) not null check (area_terreno > 0),
  testada         numeric(10, 2) not null check (testada > 0),
  profundidade    numeric(10, 2),
  topografia      text not null references dominio.topografia(codigo),
  pedologia       text not null references dominio.pedologia(codigo),
  situacao        text not null references dominio.situacao(codigo),
  criado_em       timestamptz not null default now(),
  atualizado_em   timestamptz not null default now(),
  geom            geometry(MultiPolygon, 4674) not null
);

create table cadastro.edificacao (
  id              serial primary key,
  lote_id         integer not null references cadastro.lote(id) on delete cascade,
  area_construida numeric(12, 2) not null check (area_construida > 0),
  pavimentos      smallint not null default 1 check (pavimentos > 0),
  padrao          text not null references dominio.padrao_construtivo(codigo),
  ano_construcao  smallint,
  conservacao     text not null references dominio.conservacao(codigo),
  uso             text not null references dominio.uso(codigo),
  geom            geometry(MultiPolygon, 4674) not null
);

create table cadastro.pessoa (
  id        serial primary key,
  nome      text not null,
  tipo      char(1) not null check (tipo in ('F', 'J')),
  cpf_cnpj  text not null unique,
  email     text,
  telefone  text
);

-- Property unit (unidade imobiliária): what the tax roll bills. 1..k per lot.
create table cadastro.imobiliario (
  id                      serial primary key,
  lote_id                 integer not null references cadastro.lote(id) on delete cascade,
  inscricao_cartografica  text not null unique,
  numero_cadastro         text not null unique,
  complemento             text,
  uso                     text not null references dominio.uso(codigo),
  fracao_ideal            numeric(9, 6) not null default 1 check (fracao_ideal > 0 and fracao_ideal <= 1),
  area_privativa          numeric(12, 2),
  criado_em               timestamptz not null default now(),
  atualizado_em           timestamptz not null default now()
);

-- Owners and possessors of property units.
create table cadastro.imobiliario_pessoa (
  imobiliario_id integer not null references cadastro.imobiliario(id) on delete cascade,
  pessoa_id      integer not null references cadastro.pessoa(id),
  papel          text not null default 'proprietario' check (papel in ('proprietario', 'possuidor', 'compromissario')),
  percentual     numeric(5, 2) not null default 100 check (percentual > 0 and percentual <= 100),
  primary key (imobiliario_id, pessoa_id, papel)
);

-- Street-level 360° panoramas.
create table cadastro.panorama (
  id             serial primary key,
  logradouro_id  integer references cadastro.logradouro(id),
  capturado_em   timestamptz not null,
  heading        numeric(6, 2) not null check (heading >= 0 and heading < 360),
  altura         numeric(6, 2) not null default 2.5,
  imagem_url     text not null,
  geom           geometry(Point, 4674) not null
);

-- Audit trail: every write through the API records one row.
create table auditoria.registro (
  id            bigserial primary key,
  tabela        text not null,
  registro_id   text not null,
  operacao      text not null check (operacao in ('I', 'U', 'D')),
  usuario_id    bigint,
  usuario_email text,
  em            timestamptz not null default now(),
  antes         jsonb,
  depois        jsonb
);
create index registro_tabela_idx on auditoria.registro(tabela, registro_id, em desc);

create index bairro_geom_idx on cadastro.bairro using gist (geom);
create index logradouro_geom_idx on cadastro.logradouro using gist (geom);
create index quadra_geom_idx on cadastro.quadra using gist (geom);
create index face_quadra_geom_idx on cadastro.face_quadra using gist (geom);
create index lote_geom_idx on cadastro.lote using gist (geom);
create index edificacao_geom_idx on cadastro.edificacao using gist (geom);
create index panorama_geom_idx on cadastro.panorama using gist (geom);
create index lote_quadra_idx on cadastro.lote(quadra_id);
create index edificacao_lote_idx on cadastro.edificacao(lote_id);
create index imobiliario_lote_idx on cadastro.imobiliario(lote_id);
create index imobiliario_pessoa_pessoa_idx on cadastro.imobiliario_pessoa(pessoa_id);
create index face_quadra_quadra_idx on cadastro.face_quadra(quadra_id);
create index logradouro_nome_trgm_idx on cadastro.logradouro using gin (nome gin_trgm_ops);
