// The JSON shapes of the project routes, written by PostgreSQL (jsonb_build_object over a
// row alias), so a list, a record and a nested view always say the same thing.
// `role` is SQL text of the caller's role (guard::project_role_sql / layer_role_sql).
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform::projects::shapes {

/// A project `p`: {"id","nome","descricao","tipo","ativo","publicado","versao",
/// "versaoAnterior","somenteLeitura","criadoPor","criadoEm","atualizadoEm","papel"}.
inline std::string project(std::string_view role) {
  return "jsonb_build_object('id', p.id, 'nome', p.nome, 'descricao', p.descricao, 'tipo', p.tipo, "
         "'ativo', p.ativo, 'publicado', p.publicado, 'versao', p.versao, 'versaoAnterior', p.versao_anterior, "
         "'somenteLeitura', p.somente_leitura, 'criadoPor', p.criado_por, 'criadoEm', p.criado_em, "
         "'atualizadoEm', p.atualizado_em, 'papel', " +
         std::string(role) + ")";
}

/// A layer `c`: {"id","idProjeto","nome","descricao","tipo","geometria","ativo","privada",
/// "moduloId","propriedades","estilo","rotulo","categorias","ordem","geracao","papel"}.
inline std::string layer(std::string_view role) {
  return "jsonb_build_object('id', c.id, 'idProjeto', c.projeto_id, 'nome', c.nome, 'descricao', c.descricao, "
         "'tipo', c.tipo, 'geometria', c.geometria, 'ativo', c.ativo, 'privada', c.privada, "
         "'moduloId', c.modulo_id, 'propriedades', c.propriedades, 'estilo', c.estilo, 'rotulo', c.rotulo, "
         "'categorias', c.categorias, 'ordem', c.ordem, 'geracao', c.geracao, 'papel', " +
         std::string(role) + ")";
}

/// A layer `c` in a summary: {"id","nome","tipo","geometria","ativo","privada","papel"}.
inline std::string layer_summary(std::string_view role) {
  return "jsonb_build_object('id', c.id, 'nome', c.nome, 'tipo', c.tipo, 'geometria', c.geometria, "
         "'ativo', c.ativo, 'privada', c.privada, 'papel', " +
         std::string(role) + ")";
}

/// A form `f`: {"id","idCamada","nome","descricao","ativo","ordem"}.
inline constexpr std::string_view kForm =
    "jsonb_build_object('id', f.id, 'idCamada', f.camada_id, 'nome', f.nome, 'descricao', f.descricao, "
    "'ativo', f.ativo, 'ordem', f.ordem)";

/// A field `k`: {"id","idFormulario","nome","chave","tipo","obrigatorio","unico","minimo",
/// "maximo","padrao","opcoes","dominio","formula","avaliacao","ajuda","ordem","ativo"}.
inline constexpr std::string_view kField =
    "jsonb_build_object('id', k.id, 'idFormulario', k.formulario_id, 'nome', k.nome, 'chave', k.chave, "
    "'tipo', k.tipo, 'obrigatorio', k.obrigatorio, 'unico', k.unico, 'minimo', k.minimo, 'maximo', k.maximo, "
    "'padrao', k.padrao, 'opcoes', k.opcoes, 'dominio', k.dominio, 'formula', k.formula, "
    "'avaliacao', k.avaliacao, 'ajuda', k.ajuda, 'ordem', k.ordem, 'ativo', k.ativo)";

/// An additional layer `a`: {"id","idProjeto","nome","tipo","url","camadas","opcoes",
/// "ordem","criadoEm"}.
inline constexpr std::string_view kAdditionalLayer =
    "jsonb_build_object('id', a.id, 'idProjeto', a.projeto_id, 'nome', a.nome, 'tipo', a.tipo, 'url', a.url, "
    "'camadas', a.camadas, 'opcoes', a.opcoes, 'ordem', a.ordem, 'criadoEm', a.criado_em)";

}  // namespace cadastre::platform::projects::shapes
