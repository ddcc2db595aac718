-- The wiki map (/wikimap, docs/platform-ombudsman-wikimap.md): a catalog of the published
-- projects of every tenant, kept here because it is read across tenants. An entry is
-- created (and its published flag refreshed) from the tenant's projeto.projetos when a user
-- of that tenant lists or searches the catalog; its owner (an admin of the project) edits
-- title, description, themes and organisation.

-- The themes an entry may take (GET /wikimap/cfgs): general themes and their specific ones.
create table plataforma.wikimap_temas (
  tema_geral     text not null check (btrim(tema_geral) <> ''),
  tema_especifico text not null check (btrim(tema_especifico) <> ''),
  ordem          integer not null default 0,
  primary key (tema_geral, tema_especifico)
);
insert into plataforma.wikimap_temas (tema_geral, tema_especifico, ordem) values
  ('Cadastro territorial', 'Lotes e edificações', 1),
  ('Cadastro territorial', 'Logradouros', 2),
  ('Cadastro territorial', 'Planta genérica de valores', 3),
  ('Meio ambiente', 'Áreas verdes', 1),
  ('Meio ambiente', 'Recursos hídricos', 2),
  ('Meio ambiente', 'Áreas de risco', 3),
  ('Infraestrutura', 'Iluminação pública', 1),
  ('Infraestrutura', 'Saneamento', 2),
  ('Infraestrutura', 'Mobilidade', 3),
  ('Serviços públicos', 'Saúde', 1),
  ('Serviços públicos', 'Educação', 2),
  ('Serviços públicos', 'Ouvidoria', 3),
  ('Planejamento urbano', 'Zoneamento', 1),
  ('Planejamento urbano', 'Uso do solo', 2),
  ('Outros', 'Outros', 99);

create table plataforma.wikimap_mapas (
  id             bigserial primary key,
  tenant_id      bigint not null references plataforma.tenants (id) on delete cascade,
  projeto_id     bigint not null,
  titulo         text not null check (btrim(titulo) <> '' and length(titulo) <= 200),
  descricao      text check (length(descricao) <= 4000),
  tema_geral     text,
  tema_especifico text,
  organizacao    text not null check (btrim(organizacao) <> '' and length(organizacao) <= 200),
  -- false once the project is no longer published (or gone): hidden, ratings kept.
  publicado      boolean not null default true,
  -- true once the owner edited the entry: refreshes no longer copy the project's name.
  editado        boolean not null default false,
  media          numeric(4, 2) not null default 0,
  total_avaliacoes integer not null default 0 check (total_avaliacoes >= 0),
  criado_em      timestamptz not null default now(),
  atualizado_em  timestamptz not null default now(),
  unique (tenant_id, projeto_id),
  foreign key (tema_geral, tema_especifico) references plataforma.wikimap_temas (tema_geral, tema_especifico),
  check ((tema_geral is null) = (tema_especifico is null))
);
create index wikimap_mapas_busca_idx on plataforma.wikimap_mapas
  using gin (geografia.chave_busca(titulo || ' ' || coalesce(descricao, '')) gin_trgm_ops);

-- One rating per user per map (an upsert); the map's media and total are recomputed in the
-- same transaction under the map row's lock.
create table plataforma.wikimap_avaliacoes (
  mapa_id        bigint not null references plataforma.wikimap_mapas (id) on delete cascade,
  usuario_id     bigint not null references plataforma.usuarios (id) on delete cascade,
  nota           integer not null check (nota between 1 and 5),
  em             timestamptz not null default now(),
  primary key (mapa_id, usuario_id)
);
create index wikimap_avaliacoes_usuario_idx on plataforma.wikimap_avaliacoes (usuario_id);

create table plataforma.wikimap_minha_lista (
  usuario_id     bigint not null references plataforma.usuarios (id) on delete cascade,
  mapa_id        bigint not null references plataforma.wikimap_mapas (id) on delete cascade,
  em             timestamptz not null default now(),
  primary key (usuario_id, mapa_id)
);

create table plataforma.wikimap_comentarios (
  id             bigserial primary key,
  mapa_id        bigint not null references plataforma.wikimap_mapas (id) on delete cascade,
  usuario_id     bigint not null references plataforma.usuarios (id) on delete cascade,
  texto          text not null check (btrim(texto) <> '' and length(texto) <= 2000),
  criado_em      timestamptz not null default now()
);
create index wikimap_comentarios_mapa_idx on plataforma.wikimap_comentarios (mapa_id, id);
