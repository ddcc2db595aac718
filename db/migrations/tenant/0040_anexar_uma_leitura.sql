-- A partition attached by projeto.camada_anexar (an import's or a copy's layer, filled bare)
-- was read twice before its attach: once for the ranges of its ids (projeto.faixas_de) and
-- once more for its count. The ranges hold the count, each being a run of consecutive ids
-- (a geometry's id is unique: the registry hands each range out once), so faixas_de now
-- answers it and the second read of every row is gone.

-- Its result changes type (void → bigint): CREATE OR REPLACE cannot do that.
drop function projeto.faixas_de(regclass);

-- Registers the id ranges of the rows of `origem` (a layer's partition, or a table of the
-- same columns) and answers how many rows they hold.
create function projeto.faixas_de(origem regclass) returns bigint language plpgsql as $$
declare
  i bigint[];
  f bigint[];
  c bigint[];
begin
  execute format('select array_agg(inicio), array_agg(fim), array_agg(camada_id) from (select min(id) as inicio, '
                 'max(id) as fim, camada_id from (select id, camada_id, id - row_number() over (partition by '
                 'camada_id order by id) as grupo from %s) x group by camada_id, grupo) r', origem) into i, f, c;
  perform projeto.faixas_registrar(i, f, c);
  return coalesce((select sum(b - a + 1) from unnest(i, f) as r(a, b)), 0);
end $$;

create or replace function projeto.camada_anexar(camada bigint) returns void language plpgsql as $$
declare
  n bigint;
begin
  n := projeto.faixas_de(format('camadas.%I', 'g' || camada)::regclass);
  execute format('alter table projeto.geometrias attach partition camadas.%I for values in (%s)',
                 'g' || camada, camada);
  update projeto.camadas set total_geometrias = total_geometrias + n where id = camada;
end $$;
