-- What the value routes add to migration 0015's typed value rows (decision 0011).

-- The typed JSON of a value row: only the column of the field's type family holds a value
-- (the others are null), so the first non-null one is it; 'null' for an empty value. An
-- inlinable SQL function: the value lists, pages and searches call it per row at no cost.
-- Matches fields::to_json (src/platform/fields/types.hpp): a text, a number, an ISO date,
-- a boolean, the multipla array.
create function projeto.valor_json(texto text, numero numeric, data date, booleano boolean, lista jsonb)
  returns jsonb language sql immutable parallel safe
  as $$ select coalesce(to_jsonb(texto), to_jsonb(numero), to_jsonb(data), to_jsonb(booleano), lista, 'null'::jsonb) $$;

-- A page of a layer ordered by a boolean field walks this index like the numeric, text and
-- date ones of 0015 (GET /valores/camada/:id/pg).
create index valores_campo_booleano_idx on projeto.valores (campo_id, booleano, id);
