-- A generation number per layer, bumped by every write through the API. Vector tiles and
-- other cacheable reads derive their ETag from it, so clients revalidate with 304.
create table auditoria.geracao_camada (
  camada   text primary key,
  geracao  bigint not null default 1,
  alterada timestamptz not null default now()
);
