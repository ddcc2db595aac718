-- Personal data masked in the ombudsman's public answers (0027): the text is normalised
-- (NFKC) before the patterns look at it, so a phone written in full-width digits
-- ("１９ ９８７６５-４３２１") is a phone, and an e-mail's local part may hold accented
-- letters ("joão.silva@...", which the ASCII class cut to "joã[e-mail omitido]").
create or replace function ouvidoria.mascarar(t text) returns text
  language sql immutable parallel safe strict
  as $$ select regexp_replace(
                 regexp_replace(normalize(t, NFKC),
                                '[A-Za-z0-9\u00C0-\u024F._%+-]+@[A-Za-z0-9\u00C0-\u024F-]+(\.[A-Za-z0-9\u00C0-\u024F-]+)*',
                                '[e-mail omitido]', 'g'),
                 '\+?[0-9][0-9 ().-]{6,}[0-9]', '[telefone omitido]', 'g') $$;
