-- Georeferenced images (orthophotos, scanned plans, facade photos placed on the map): the
-- file lives in the media store, the row holds its link and its footprint.
create table cadastro.geo_image (
  id           serial primary key,
  nome         text not null,
  url          text not null,
  capturado_em date,
  resolucao_m  numeric(8, 3) check (resolucao_m > 0),
  metadados    jsonb not null default '{}'::jsonb,
  criado_em    timestamptz not null default now(),
  atualizado_em timestamptz not null default now(),
  geom         geometry(Polygon, 4674) not null
);
create index geo_image_geom_idx on cadastro.geo_image using gist (geom);

-- LIDAR elevation profiles: samples along a profile line (e.g. a street axis), in order.
create table cadastro.perfil_lidar (
  id          bigserial primary key,
  perfil      integer not null,
  sequencia   integer not null check (sequencia >= 0),
  distancia_m numeric(10, 2) not null check (distancia_m >= 0),
  cota_m      numeric(8, 2) not null,
  classe      smallint not null default 2,  -- ASPRS class: 2 ground, 6 building, 5 high vegetation
  geom        geometry(Point, 4674) not null,
  unique (perfil, sequencia)
);
create index perfil_lidar_geom_idx on cadastro.perfil_lidar using gist (geom);
