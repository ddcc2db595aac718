-- A GeoTIFF sent through a signed link may come in parts (PUT /importar/tiff/envio with
-- parte=1, 2, ... and ultima=true on the last), so a file larger than one request's limit
-- can be sent. The credential's row counts what has arrived; the bytes wait in
-- <tenant>/importacoes/tiff/envio-<chave>.parte. `antes_da_ultima` is the size before the
-- last part received, so that part can be sent again (a retry after a lost answer).
alter table projeto.tiff_credenciais
  add column partes          integer not null default 0 check (partes >= 0),
  add column recebidos       bigint  not null default 0 check (recebidos >= 0),
  add column antes_da_ultima bigint  not null default 0 check (antes_da_ultima >= 0 and antes_da_ultima <= recebidos);
