-- Files and photos of the platform (src/platform/files/): one row per stored file. The
-- bytes live in the platform's file store (AppOptions::files_dir) under the tenant's
-- directory, named by `chave` ("<slug>.<64 random hex>.<ext>", never a client's name):
--   a layer's or a geometry's files: camadas/<camada_id>/arquivos/<chave> (so deleting a
--     layer, which sets its directory aside, takes them along);
--   a project's: projetos/<projeto_id>/arquivos/<chave>;
--   a company logo or a user's photo: plataforma/<chave>.
-- `finalidade` says what the file is for; the ids say what it is attached to.
create table projeto.arquivos (
  id            bigserial primary key,
  finalidade    text not null check (finalidade in ('arquivo', 'foto', 'logo', 'foto_usuario')),
  projeto_id    bigint references projeto.projetos (id) on delete cascade,
  camada_id     bigint references projeto.camadas (id) on delete cascade,
  geometria_id  bigint references projeto.geometrias (id) on delete cascade,
  -- platform records (plataforma.empresas / plataforma.usuarios live in another database)
  empresa_id    bigint,
  usuario_id    bigint,
  nome          text not null check (btrim(nome) <> '' and length(nome) <= 255),
  descricao     text check (length(descricao) <= 4000),
  chave         text not null unique check (chave ~ '^[a-z][a-z0-9_]{1,62}\.[0-9a-f]{64}\.[a-z0-9]{1,10}$'),
  tipo_midia    text not null,
  tamanho       bigint not null check (tamanho > 0),
  sha256        text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  criado_por    bigint not null,
  criado_em     timestamptz not null default now(),
  atualizado_em timestamptz not null default now(),
  -- What each purpose is attached to.
  check (finalidade not in ('arquivo', 'foto') or projeto_id is not null),
  check (finalidade <> 'foto' or geometria_id is not null),
  check (finalidade <> 'logo' or empresa_id is not null),
  check (finalidade <> 'foto_usuario' or usuario_id is not null)
);
create index arquivos_geometria_idx on projeto.arquivos (geometria_id, id) where geometria_id is not null;
create index arquivos_camada_idx on projeto.arquivos (camada_id, id) where camada_id is not null;
create index arquivos_projeto_idx on projeto.arquivos (projeto_id, id) where projeto_id is not null;

-- The form and report templates offered to new projects (GET /templates).
create table projeto.templates (
  id        bigserial primary key,
  nome      text not null unique check (btrim(nome) <> ''),
  tipo      text not null check (tipo in ('formulario', 'relatorio')),
  descricao text not null default '',
  geometria text check (geometria in ('ponto', 'linha', 'poligono')),
  -- The fields, in the shape of POST /campos bodies (nome, chave, tipo, obrigatorio, opcoes).
  campos    jsonb not null check (jsonb_typeof(campos) = 'array'),
  ativo     boolean not null default true
);

insert into projeto.templates (nome, tipo, descricao, geometria, campos) values
('Ficha de lote urbano', 'formulario', 'Cadastro do lote: inscrição, área, testada, uso e situação.', 'poligono',
 '[{"nome":"Inscrição imobiliária","chave":"inscricao","tipo":"texto","obrigatorio":true},
   {"nome":"Área do terreno (m²)","chave":"area_terreno","tipo":"decimal","obrigatorio":true},
   {"nome":"Testada (m)","chave":"testada","tipo":"decimal"},
   {"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["residencial","comercial","industrial","misto","sem uso"]},
   {"nome":"Situação","chave":"situacao","tipo":"lista","opcoes":["meio de quadra","esquina","encravado","gleba"]},
   {"nome":"Murado","chave":"murado","tipo":"booleano"}]'),
('Vistoria de edificação', 'formulario', 'Vistoria em campo: padrão, conservação, pavimentos e fotos.', 'poligono',
 '[{"nome":"Data da vistoria","chave":"data_vistoria","tipo":"data","obrigatorio":true},
   {"nome":"Área construída (m²)","chave":"area_construida","tipo":"decimal"},
   {"nome":"Pavimentos","chave":"pavimentos","tipo":"inteiro"},
   {"nome":"Padrão construtivo","chave":"padrao","tipo":"lista","opcoes":["baixo","normal","alto","luxo"]},
   {"nome":"Conservação","chave":"conservacao","tipo":"lista","opcoes":["ruim","regular","bom","ótimo"]},
   {"nome":"Fachada","chave":"foto_fachada","tipo":"foto"},
   {"nome":"Observações","chave":"observacoes","tipo":"texto_longo"}]'),
('Cadastro de logradouro', 'formulario', 'Trecho de via: nome, pavimentação e infraestrutura.', 'linha',
 '[{"nome":"Nome do logradouro","chave":"nome_logradouro","tipo":"texto","obrigatorio":true},
   {"nome":"Pavimentação","chave":"pavimentacao","tipo":"lista","opcoes":["asfalto","paralelepípedo","bloquete","terra"]},
   {"nome":"Serviços","chave":"servicos","tipo":"multipla","opcoes":["água","esgoto","iluminação","coleta de lixo","drenagem"]}]'),
('Relatório de vistoria', 'relatorio', 'Relatório por imóvel com os dados da vistoria e suas fotos.', null,
 '[{"nome":"Inscrição imobiliária","chave":"inscricao","tipo":"texto"},
   {"nome":"Data da vistoria","chave":"data_vistoria","tipo":"data"},
   {"nome":"Conservação","chave":"conservacao","tipo":"texto"},
   {"nome":"Fotos","chave":"fotos","tipo":"foto"}]');
