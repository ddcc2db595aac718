-- Map library (/mapoteca): metadata of the municipality's maps, plans and orthophotos,
-- searched by footprint (bbox) and by keywords.
--
-- Keyword search is PostgreSQL full text with an accent-insensitive Portuguese
-- configuration (mapoteca.pt_unaccent: unaccent, then the Portuguese stemmer), so
-- "zoneamento" finds "Zoneamento", "geologico" finds "Geológico" and "mapas" finds "Mapa".
-- The document `busca` is maintained by a trigger (to_tsvector over a text[] is not
-- immutable, so it cannot be a generated column) with weights A for the title, B for the
-- keywords and C for the description, which ts_rank turns into "title matches first".

create extension if not exists unaccent;
create schema if not exists mapoteca;

create text search configuration mapoteca.pt_unaccent (copy = pg_catalog.portuguese);
alter text search configuration mapoteca.pt_unaccent
  alter mapping for hword, hword_part, word with unaccent, portuguese_stem;

create table mapoteca.item (
  id              serial primary key,
  titulo          text not null check (btrim(titulo) <> ''),
  descricao       text,
  palavras_chave  text[] not null default '{}',
  data            date,
  escala          integer check (escala > 0),  -- denominator: 2000 for 1:2.000
  arquivo_url     text,
  footprint       geometry(MultiPolygon, 4674) not null,
  criado_em       timestamptz not null default now(),
  atualizado_em   timestamptz not null default now(),
  criado_por      text,
  busca           tsvector not null default ''::tsvector
);
create index item_footprint_idx on mapoteca.item using gist (footprint);
create index item_busca_idx on mapoteca.item using gin (busca);

create function mapoteca.item_busca() returns trigger language plpgsql as $$
begin
  new.busca := setweight(to_tsvector('mapoteca.pt_unaccent', new.titulo), 'A')
            || setweight(to_tsvector('mapoteca.pt_unaccent', array_to_string(new.palavras_chave, ' ')), 'B')
            || setweight(to_tsvector('mapoteca.pt_unaccent', coalesce(new.descricao, '')), 'C');
  return new;
end $$;

create trigger item_busca before insert or update on mapoteca.item
  for each row execute function mapoteca.item_busca();
