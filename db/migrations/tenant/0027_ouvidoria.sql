-- The ombudsman (/ouv, docs/platform-ombudsman-wikimap.md): requests citizens file on the
-- map without an account, their public history, and their copies in project layers
-- (POST /importar/add/ouv). The citizen's contact (nome, email, telefone) and photo are
-- personal data (LGPD): only the staff import reads those columns; every public route
-- selects the public columns by name.
create schema if not exists ouvidoria;

-- The legend: the categories a citizen picks from (GET /ouv/legenda).
create table ouvidoria.categorias (
  id             bigserial primary key,
  chave          text not null unique check (chave ~ '^[a-z][a-z0-9_]{0,40}$'),
  nome           text not null check (btrim(nome) <> '' and length(nome) <= 100),
  cor            text not null check (cor ~ '^#[0-9a-f]{6}$'),
  ordem          integer not null default 0,
  ativa          boolean not null default true
);
insert into ouvidoria.categorias (chave, nome, cor, ordem) values
  ('iluminacao', 'Iluminação pública', '#f1c40f', 1),
  ('buraco', 'Buraco na via', '#8e44ad', 2),
  ('lixo', 'Lixo e entulho', '#27ae60', 3),
  ('arvore', 'Árvore e poda', '#16a085', 4),
  ('calcada', 'Calçada', '#7f8c8d', 5),
  ('sinalizacao', 'Sinalização de trânsito', '#e67e22', 6),
  ('outros', 'Outros', '#34495e', 99);

-- Protocol numbers: OUV-<year>-<six digits of this sequence>.
create sequence ouvidoria.protocolo_seq;

create table ouvidoria.pedidos (
  id             bigserial primary key,
  protocolo      text not null unique,
  categoria_id   bigint not null references ouvidoria.categorias (id),
  descricao      text not null check (btrim(descricao) <> '' and length(descricao) <= 4000),
  geom           geometry(Point, 4674) not null,
  status         text not null default 'aberto'
                 check (status in ('aberto', 'em_analise', 'em_atendimento', 'concluido', 'recusado')),
  -- Personal data: never selected by a public route.
  nome           text check (length(nome) <= 200),
  email          text check (length(email) <= 254),
  telefone       text check (length(telefone) <= 40),
  foto           bytea check (octet_length(foto) <= 2097152),
  foto_tipo      text,
  -- SHA-256 (hex) of the follow-up token, which is shown once and never stored.
  token_hash     text not null unique,
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now()
);
create index pedidos_geom_idx on ouvidoria.pedidos using gist (geom);
create index pedidos_busca_idx on ouvidoria.pedidos
  using gin (projeto.chave_busca(descricao) gin_trgm_ops);

-- A citizen's text as the public routes show it: e-mail addresses and phone-like runs of
-- digits (8 or more characters of digits and separators) replaced, so a contact typed into
-- the description does not leave through a public list or search.
create function ouvidoria.mascarar(t text) returns text
  language sql immutable parallel safe strict
  as $$ select regexp_replace(
                 regexp_replace(t, '[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*', '[e-mail omitido]', 'g'),
                 '\+?[0-9][0-9 ().-]{6,}[0-9]', '[telefone omitido]', 'g') $$;

-- The public history of a request: its opening, status moves and the citizen's requests for
-- information (whose text is kept for staff but shown publicly only as the event).
create table ouvidoria.historico (
  id             bigserial primary key,
  pedido_id      bigint not null references ouvidoria.pedidos (id) on delete cascade,
  tipo           text not null check (tipo in ('abertura', 'status', 'pedido_informacao')),
  status         text,
  mensagem       text check (length(mensagem) <= 2000),
  usuario_id     bigint,  -- the staff member who moved the status (null: the citizen)
  em             timestamptz not null default clock_timestamp()
);
create index historico_pedido_idx on ouvidoria.historico (pedido_id, id);

-- Imports into layers: one row per (layer, codigo); the same codigo again answers the
-- first import's counts without copying again.
create table ouvidoria.importacoes (
  id             bigserial primary key,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  codigo         text not null check (codigo ~ '^[A-Za-z0-9_.-]{1,64}$'),
  status_filtro  text[] not null,
  criados        integer not null default 0,
  atualizados    integer not null default 0,
  status_da_camada integer not null default 0,
  usuario_id     bigint not null,
  em             timestamptz not null default now(),
  unique (camada_id, codigo)
);

-- A request's copy in a layer: the geometry it became, and when the two last agreed
-- (a status value changed by staff after that moves the request; see the import).
create table ouvidoria.pedidos_camada (
  pedido_id      bigint not null references ouvidoria.pedidos (id) on delete cascade,
  camada_id      bigint not null references projeto.camadas (id) on delete cascade,
  geometria_id   bigint not null references projeto.geometrias (id) on delete cascade,
  sincronizado_em timestamptz not null default clock_timestamp(),
  primary key (pedido_id, camada_id)
);
create index pedidos_camada_camada_idx on ouvidoria.pedidos_camada (camada_id);
