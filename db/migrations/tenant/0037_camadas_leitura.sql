-- What other readers of the layers' tables need to name them (issue #30 item 4): the
-- read-only login of store/layer_readers.hpp sees the schema camadas only, and these views
-- (run with their owner's rights) say which tables are which layer and which column which
-- field. Layer <id>'s geometries are camadas.g<id> (0036), its values camadas.l<id> (0035).
create view camadas.camadas as
  select c.id, c.projeto_id, p.nome as projeto, c.nome, c.geometria,
         'camadas.g' || c.id as tabela_geometrias, 'camadas.l' || c.id as tabela_valores
    from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id where c.tipo = 'vetor';

create view camadas.campos as
  select f.camada_id, k.id, 'c_' || k.id as coluna, k.chave, k.nome, k.tipo
    from projeto.campos k join projeto.formularios f on f.id = k.formulario_id;
