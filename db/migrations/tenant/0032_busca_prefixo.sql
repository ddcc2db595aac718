-- The search box (src/platform/search/store.cpp) for terms too short for trigrams: a
-- term with fewer than three letters or digits in a row ("ab", "x'", "--") gives pg_trgm
-- nothing to look up, and `like '%x''%'` then read every text value of the tenant (4–6 s
-- on the demo; the probe's V8). Such terms match at the start of a value, through this
-- B-tree (text_pattern_ops: LIKE 'prefix%' as an index range).
create index valores_busca_prefixo_idx on projeto.valores (campo_id, projeto.chave_busca(texto) text_pattern_ops)
  where texto is not null;
