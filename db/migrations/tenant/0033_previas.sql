-- An image's preview is made by a job of its own lane (src/platform/jobs/jobs.hpp,
-- Lane::previews; src/platform/files/thumbnail.hpp), never in a request: tipo 'previa',
-- keyed (codigo) by the stored file's key.
alter table projeto.importacoes drop constraint importacoes_tipo_check;
alter table projeto.importacoes add constraint importacoes_tipo_check
  check (tipo in ('shp', 'kml', 'dxf', 'pvg', 'icad_lotes', 'icad_lotes_rurais', 'icad_edificacoes',
                  'icad_logradouros', 'ouv', 'tiff', 'previa'));
