#include "platform/schemas.hpp"

#include "platform/accounts/input.hpp"
#include "platform/additional_layers/input.hpp"
#include "platform/city_reports/input.hpp"
#include "platform/companies/input.hpp"
#include "platform/contracting/input.hpp"
#include "platform/custom_maps/input.hpp"
#include "platform/fields/input.hpp"
#include "platform/files/input.hpp"
#include "platform/forms/input.hpp"
#include "platform/geostatistics/input.hpp"
#include "platform/geometries/input.hpp"
#include "platform/layer_reports/input.hpp"
#include "platform/layer_styles/input.hpp"
#include "platform/layer_users/input.hpp"
#include "platform/layers/input.hpp"
#include "platform/licenses/input.hpp"
#include "platform/mass_appraisal/input.hpp"
#include "platform/ombudsman/input.hpp"
#include "platform/profile/input.hpp"
#include "platform/projects/input.hpp"
#include "platform/providers/input.hpp"
#include "platform/rasters/input.hpp"
#include "platform/search/input.hpp"
#include "platform/sessions/input.hpp"
#include "platform/tenants/input.hpp"
#include "platform/users/input.hpp"
#include "platform/values/input.hpp"
#include "platform/wikimap/input.hpp"
#include "platform/wms/input.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::schemas {
namespace {

using namespace json_schema;

std::vector<std::pair<std::string, std::string>> build() {
  const std::string status = enumeration({"teste", "ativa", "expirada", "suspensa", "cancelada", "sem_licenca"});
  const std::string stored = enumeration({"teste", "ativa", "suspensa", "cancelada"});
  const std::string tenant = object({{"id", kInt}, {"slug", kText}, {"nome", kText}});
  return {
      {"RespostaLogin", object({{"statusLicenca", status}, {"authToken", kText}, {"tnToken", kText},
                                {"usuarioPublico", kBool}, {"idEmpresa", kNullableInt}, {"idUsuario", kInt},
                                {"adm", kBool}},
                               {"statusLicenca", "authToken", "tnToken", "usuarioPublico", "idEmpresa", "idUsuario",
                                "adm"},
                               true)},
      {"FormasDeEntrada", object({{"email", kText}, {"metodos", R"({"type":"array","items":)" +
                                                                    enumeration({"senha", "ldap", "oauth"}) + "}"},
                                  {"doUsuario", kBool}})},
      {"Mensagem", object({{"mensagem", kText}}, {"mensagem"})},
      {"Saude", object({{"status", kText}, {"servico", kText}, {"versao", kText}})},
      {"Versao", object({{"servico", kText}, {"versao", kText}, {"build", kText}, {"migracao", kText}})},
      {"ResultadoEnvio", object({{"enviados", kInt}, {"destinatarios", kInt},
                                 {"falhas", R"({"type":"array","items":)" +
                                                object({{"idUsuario", kInt}, {"mensagem", kText}}) + "}"}})},
      {"Perfil", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"telefone", kNullableText},
                         {"cargo", kNullableText}, {"foto", kNullableText}, {"adm", kBool}, {"admPlataforma", kBool},
                         {"idEmpresa", kNullableInt}, {"idProvedor", kNullableInt}, {"usuarioPublico", kBool},
                         {"criadoEm", kTime}, {"tenant", tenant}, {"emailPendente", kNullableText}})},
      {"Usuario", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"telefone", kNullableText},
                          {"cargo", kNullableText}, {"adm", kBool}, {"ativo", kBool}, {"usuarioPublico", kBool},
                          {"emailConfirmado", kBool}, {"idEmpresa", kNullableInt}, {"idTenant", kNullableInt},
                          {"criadoEm", kTime},
                          {"permissoes", R"({"type":"array","items":)" +
                                             object({{"camada", kText}, {"leitura", kBool}, {"escrita", kBool}}) + "}"}})},
      {"UsuarioCriado", object({{"usuario", ref("Usuario")}, {"linkDeSenhaEnviado", kBool}})},
      {"Empresa", object({{"id", kInt}, {"nome", kText}, {"cnpj", kNullableText}, {"email", kNullableText},
                          {"telefone", kNullableText}, {"endereco", kNullableText}, {"site", kNullableText},
                          {"idTenant", kNullableInt}, {"criadoEm", kTime}})},
      {"Licenca", object({{"id", kInt}, {"idTenant", kInt}, {"plano", kText}, {"status", stored},
                          {"statusEfetivo", status}, {"inicio", kDate}, {"fim", kDate}, {"maxUsuarios", kInt},
                          {"maxArmazenamentoMb", kInt}, {"observacao", kNullableText}, {"criadaEm", kTime},
                          {"atualizadaEm", kTime}, {"tenant", kText}, {"nomeTenant", kText}})},
      {"MeuPlano", object({{"licenca", R"({"allOf":[)" + ref("Licenca") + R"(],"nullable":true})"}, {"status", status},
                           {"usuarios", object({{"limite", kNullableInt}, {"emUso", kInt}})},
                           {"armazenamento", object({{"limiteMb", kNullableInt}, {"emUsoBytes", kInt}})}})},
      {"TokenApi", object({{"id", kInt}, {"nome", kText}, {"escopo", enumeration({"avaliacao", "integracao", "provas_digitais"})},
                           {"ativo", kBool}, {"criadoEm", kTime}, {"ultimoUso", R"({"type":"string","format":"date-time","nullable":true})"}})},
      {"TokenApiEmitido", object({{"id", kInt}, {"nome", kText}, {"escopo", kText}, {"token", kText}},
                                 {"id", "nome", "escopo", "token"})},
      {"ConfiguracaoMunicipio",
       object({{"tenant", object({{"id", kInt}, {"slug", kText}, {"nome", kText}, {"uf", kNullableText},
                                  {"codigoIbge", kNullableText}, {"fusoHorario", kText}})},
               {"config", ref("Configuracao")}})},
      {"PreProvedor", object({{"id", kInt}, {"nome", kText}, {"cnpj", kText}, {"email", kText},
                              {"responsavel", kText}, {"telefone", kNullableText}, {"mensagem", kNullableText},
                              {"estado", enumeration({"pendente", "aprovado", "recusado"})},
                              {"idProvedor", kNullableInt}, {"criadoEm", kTime}})},
      {"Provedor", object({{"id", kInt}, {"nome", kText}, {"cnpj", kText}, {"email", kText},
                           {"telefone", kNullableText}, {"ativo", kBool}, {"criadoEm", kTime},
                           {"acesso", R"({"nullable":true,"type":"object","properties":{"leitura":{"type":"boolean"},"escrita":{"type":"boolean"},"concedidoEm":{"type":"string","format":"date-time"}}})"}})},
      {"ProvedorCriado", object({{"provedor", ref("Provedor")}, {"idUsuario", kInt}, {"linkDeSenhaEnviado", kBool}})},
      {"UsuarioDoProvedor", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"ativo", kBool}, {"criadoEm", kTime}})},
      // Layers, their labels and classes, and per-user rights (src/platform/layers, layer_styles, layer_users).
      {"Camada", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText}, {"descricao", kNullableText},
                         {"tipo", enumeration({"vetor", "tiff", "dxf", "wms"})},
                         {"geometria", enumeration({"ponto", "linha", "poligono", "qualquer"})}, {"ativo", kBool},
                         {"privada", kBool}, {"moduloId", kNullableInt}, {"propriedades", R"({"type":"object"})"},
                         {"estilo", R"({"type":"object"})"}, {"rotulo", R"({"type":"object","nullable":true})"},
                         {"categorias", R"({"type":"object","nullable":true})"}, {"ordem", kInt}, {"geracao", kInt},
                         {"papel", enumeration({"leitura", "edicao", "admin"})}})},
      {"CamadaComProjeto", R"({"allOf":[{"$ref":"#/components/schemas/Camada"},{"type":"object","properties":{"nomeProjeto":{"type":"string"}}}]})"},
      {"CamadaV2", R"({"allOf":[{"$ref":"#/components/schemas/Camada"},{"type":"object","properties":{"formularios":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"idCamada":{"type":"integer"},"nome":{"type":"string"},"descricao":{"type":"string","nullable":true},"ativo":{"type":"boolean"},"ordem":{"type":"integer"},"campos":{"type":"array","items":{"type":"object","description":"id, idFormulario, nome, chave, tipo, obrigatorio, unico, minimo, maximo, padrao, opcoes, dominio, formula, avaliacao, ajuda, ordem, ativo"}}}}}}}]})"},
      {"CamadaPrevia", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText}, {"geometria", kText}, {"tipo", kText},
                               {"geometrias", kInt},
                               {"bbox", R"({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"nullable":true})"}})},
      {"ExtensaoCamada", object({{"idCamada", kInt}, {"tipo", kText},
                                 {"bbox", R"({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"nullable":true,"description":"minx, miny, maxx, maxy em longitude/latitude"})"},
                                 {"srid", kInt}})},
      {"VerificacaoCamada", [] {
         const std::string problem = R"({"type":"object","properties":{"total":{"type":"integer"},"exemplos":{"type":"array","items":{"type":"object"}}}})";
         return object({{"idCamada", kInt}, {"geometria", kText}, {"total", kInt}, {"validas", kInt}, {"invalidas", problem},
                        {"vazias", problem}, {"verticesRepetidos", problem}, {"sridErrado", problem}, {"tipoErrado", problem}});
       }()},
      {"ArquivosCamada", object({{"idCamada", kInt},
                                 {"arquivos", R"({"type":"array","items":)" +
                                                  object({{"nome", kText}, {"caminho", kText}, {"tamanho", kInt},
                                                          {"sha256", kText}, {"tipo", kText}, {"principal", kBool}}) + "}"}})},
      {"RotuloGeometria", object({{"idGeometria", kInt}, {"idCamada", kInt}, {"texto", kNullableText},
                                  {"posicao", R"({"type":"array","items":{"type":"number"},"nullable":true})"},
                                  {"rotacao", R"({"type":"number","nullable":true})"}, {"idCampoRotacao", kNullableInt}})},
      {"CategoriasFront", object({{"idCamada", kInt}, {"idCampo", kInt}, {"propriedade", kText},
                                  {"tipo", enumeration({"valores", "intervalos"})},
                                  {"expressao", R"({"description":"expressão MapLibre (case/match/step) que dá a cor de cada feição"})"},
                                  {"pintura", R"({"type":"object","description":"fill-color, line-color e/ou circle-color"})"},
                                  {"legenda", R"({"type":"array","items":)" +
                                                  object({{"rotulo", kText}, {"cor", kText}, {"total", kInt}}) + "}"},
                                  {"geradoEm", kTime}})},
      {"CamadaUsuario", object({{"id", kInt}, {"idCamada", kInt}, {"idUsuario", kInt},
                                {"direito", enumeration({"leitura", "edicao"})}, {"concedidoPor", kInt},
                                {"concedidoEm", kTime},
                                {"usuario", R"({"type":"object","nullable":true,"properties":{"nome":{"type":"string"},"email":{"type":"string"}}})"}})},
      // Projects (src/platform/projects) and additional layers (src/platform/additional_layers).
      {"Projeto", object({{"id", kInt}, {"nome", kText}, {"descricao", kNullableText},
                          {"tipo", enumeration({"geral", "cadastro_imobiliario"})}, {"ativo", kBool}, {"publicado", kBool},
                          {"versao", kInt}, {"versaoAnterior", kNullableInt}, {"somenteLeitura", kBool},
                          {"criadoPor", kInt}, {"criadoEm", kTime}, {"atualizadoEm", kTime},
                          {"papel", enumeration({"leitura", "edicao", "admin"})}})},
      {"ProjetoCamada", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText}, {"descricao", kNullableText},
                                {"tipo", kText}, {"geometria", kText}, {"ativo", kBool}, {"privada", kBool},
                                {"moduloId", kNullableInt}, {"propriedades", R"({"type":"object"})"},
                                {"estilo", R"({"type":"object"})"}, {"rotulo", R"({"type":"object","nullable":true})"},
                                {"categorias", R"({"type":"object","nullable":true})"}, {"ordem", kInt},
                                {"geracao", kInt}, {"papel", kText},
                                {"formularios", R"({"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"idCamada":{"type":"integer"},"nome":{"type":"string"},"ativo":{"type":"boolean"},"campos":{"type":"array","items":{"type":"object"}}}}})"}})},
      {"ProjetoDetalhe", R"({"allOf":[{"$ref":"#/components/schemas/Projeto"},{"type":"object","properties":{"camadas":{"type":"array","items":{"$ref":"#/components/schemas/ProjetoCamada"}}}}]})"},
      {"ProjetoComCamadas", R"({"allOf":[{"$ref":"#/components/schemas/Projeto"},{"type":"object","properties":{"camadas":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"nome":{"type":"string"},"tipo":{"type":"string"},"geometria":{"type":"string"},"ativo":{"type":"boolean"},"privada":{"type":"boolean"},"papel":{"type":"string"}}}}}}]})"},
      {"Extensao", object({{"xmin", R"({"type":"number"})"}, {"ymin", R"({"type":"number"})"},
                           {"xmax", R"({"type":"number"})"}, {"ymax", R"({"type":"number"})"},
                           {"srid", R"({"type":"integer","enum":[4674]})"}})},
      {"NotasProjeto", object({{"id", kInt}, {"notas", R"({"type":"string","maxLength":200000})"}}, {"id", "notas"})},
      {"ProjetoInfo", object({{"id", kInt}, {"nome", kText}, {"camadas", kInt}, {"formularios", kInt}, {"campos", kInt},
                              {"geometrias", kInt}, {"valores", kInt}, {"usuariosCompartilhados", kInt},
                              {"ultimaAlteracao", kTime}})},
      {"Transferencia", object({{"transferencia", kText},
                                {"origem", object({{"idTenant", kInt}, {"tenant", kText}, {"idProjeto", kInt}})},
                                {"destino", object({{"idTenant", kInt}, {"tenant", kText}, {"idProjeto", kInt},
                                                    {"idUsuario", kInt}})}})},
      {"UsuarioDoDominio", object({{"id", kInt}, {"nome", kText}, {"email", kText},
                                   {"projetos", R"({"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"nome":{"type":"string"},"papel":{"type":"string","nullable":true}}}})"}})},
      {"Compartilhamento", object({{"idUsuario", kInt}, {"nome", kNullableText}, {"email", kNullableText},
                                   {"papel", enumeration({"leitura", "edicao", "admin"})}, {"concedidoPor", kInt},
                                   {"concedidoEm", kTime}})},
      {"CamadaAdicional", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText},
                                  {"tipo", enumeration({"wms", "xyz", "vetor"})}, {"url", kText},
                                  {"camadas", kNullableText}, {"opcoes", R"({"type":"object"})"}, {"ordem", kInt},
                                  {"criadoEm", kTime}})},
      {"CamadasAdicionaisDoProjeto", object({{"idProjeto", kInt}, {"nome", kText},
                                             {"camadas", list_of("CamadaAdicional")}})},
      {"TesteGeometria", object({{"wkt", kText}, {"geos", object({{"valida", kBool}, {"area_m2", R"({"type":"number"})"}})},
                                 {"postgis", object({{"wkt", kText}, {"valida", kBool}, {"area_m2", R"({"type":"number"})"},
                                                     {"versao", kText}})},
                                 {"concordam", kBool}})},
      // /permissoes: a role and what it allows (the guard's decision per action).
      {"PermissaoProjeto", object({{"idProjeto", kInt}, {"nome", kText}, {"ativo", kBool}, {"publicado", kBool},
                                   {"somenteLeitura", kBool}, {"papel", enumeration({"leitura", "edicao", "admin"})},
                                   {"pode", R"({"type":"object","additionalProperties":{"type":"boolean"}})"}})},
      {"PermissaoCamada", object({{"idCamada", kInt}, {"idProjeto", kInt}, {"nome", kText}, {"privada", kBool},
                                  {"ativa", kBool}, {"papel", enumeration({"leitura", "edicao", "admin"})},
                                  {"pode", R"({"type":"object","additionalProperties":{"type":"boolean"}})"}})},
      {"PermissaoProjetoDetalhe", R"({"allOf":[{"$ref":"#/components/schemas/PermissaoProjeto"},{"type":"object","properties":{"camadas":{"type":"array","items":{"$ref":"#/components/schemas/PermissaoCamada"}}}}]})"},
      {"PermissoesDoProjeto", object({{"idProjeto", kInt},
                                      {"usuarios", R"({"type":"array","items":{"type":"object","properties":{"idUsuario":{"type":"integer"},"nome":{"type":"string"},"email":{"type":"string"},"papel":{"type":"string"},"origem":{"type":"string"},"camadas":{"type":"array","items":{"type":"object"}}}}})"}})},
      {"MunicipioDaSessao", object({{"id", kInt}, {"slug", kText}, {"nome", kText}, {"tnToken", kText},
                                    {"idUsuario", kInt}})},
      {"Confirmacao", object({{"mensagem", kText}, {"email", kText}, {"tnToken", kText}})},
      // Forms and fields (src/platform/forms, src/platform/fields).
      {"Formulario", object({{"id", kInt}, {"idCamada", kInt}, {"nome", kText}, {"descricao", kNullableText},
                             {"ativo", kBool}, {"ordem", kInt}})},
      {"FormularioComCampos", R"({"allOf":[{"$ref":"#/components/schemas/Formulario"},)" +
                                  object({{"campos", list_of("Campo")}}) + "]}"},
      {"PodeExcluir", object({{"podeExcluir", kBool},
                              {"motivos", R"({"type":"array","items":)" +
                                              object({{"codigo", enumeration({"valores", "avaliacao", "rotulo", "categorias", "formula"})},
                                                      {"mensagem", kText}, {"quantidade", kInt}}) +
                                              "}"}})},
      {"Campo", object({{"id", kInt}, {"idFormulario", kInt}, {"nome", kText}, {"chave", kText}, {"tipo", kFieldType},
                        {"obrigatorio", kBool}, {"unico", kBool}, {"minimo", kNullableNumber}, {"maximo", kNullableNumber},
                        {"padrao", kNullableText}, {"opcoes", kNullableTexts}, {"dominio", kNullableText},
                        {"formula", kNullableText}, {"avaliacao", kNullableText}, {"ajuda", kNullableText},
                        {"ordem", kInt}, {"ativo", kBool}})},
      {"CampoV2", R"({"allOf":[{"$ref":"#/components/schemas/Campo"},)" +
                      object({{"idCamada", kInt}, {"idProjeto", kInt}, {"quantidadeValores", kInt}}) + "]}"},
      {"ResumoCampos", object({{"idCamada", kInt}, {"geometrias", kInt},
                               {"campos", R"({"type":"array","items":)" +
                                              object({{"idCampo", kInt}, {"idFormulario", kInt}, {"chave", kText},
                                                      {"nome", kText}, {"tipo", kFieldType}, {"quantidade", kInt},
                                                      {"preenchidos", kInt}, {"distintos", kInt},
                                                      {"minimo", R"({"description":"número, ou data aaaa-mm-dd","nullable":true})"},
                                                      {"maximo", R"({"description":"número, ou data aaaa-mm-dd","nullable":true})"},
                                                      {"media", kNullableNumber}}) +
                                              "}"}})},
      {"CampoFormly", object({{"key", kText}, {"type", enumeration({"input", "textarea", "select", "checkbox", "datepicker", "file"})},
                              {"props", object({{"label", kText}, {"required", kBool}, {"description", kText},
                                                {"type", kText}, {"step", R"({"type":"number"})"},
                                                {"min", R"({"type":"number"})"}, {"max", R"({"type":"number"})"},
                                                {"minLength", R"({"type":"number"})"}, {"maxLength", R"({"type":"number"})"},
                                                {"pattern", kText}, {"multiple", kBool}, {"readonly", kBool}, {"accept", kText},
                                                {"options", R"({"type":"array","items":)" +
                                                                object({{"label", kText}, {"value", kText}}) + "}"}})}},
                             {"key", "type", "props"})},
      {"Conversao", object({{"total", kInt}, {"convertidos", kInt}, {"totalFalhas", kInt},
                            {"falhas", R"({"type":"array","maxItems":1000,"items":)" +
                                           object({{"idValor", kInt}, {"idGeometria", kInt},
                                                   {"valor", R"({"description":"o valor gravado, tipado pelo campo"})"},
                                                   {"motivo", kText}}) +
                                           "}"},
                            {"aplicado", kBool}, {"divisao", kBool},
                            {"campos", R"({"type":"array","description":"o campo convertido ou os campos novos da divisão","items":{"type":"object"}})"}})},
      {"VariavelAvaliacao", object({{"variavel", kText}, {"idCampo", kInt}, {"chave", kText}, {"nome", kText},
                                    {"tipo", kFieldType}, {"idFormulario", kInt}, {"idCamada", kInt}, {"camada", kText}})},
      // Values (src/platform/values): `valor` is typed by its field.
      {"Valor", object({{"id", kInt}, {"idGeometria", kInt}, {"idCampo", kInt}, {"valor", kAnyValue},
                        {"atualizadoPor", kNullableInt}, {"atualizadoEm", kTime}})},
      {"ValorDeCampo", R"({"allOf":[{"$ref":"#/components/schemas/Valor"},)" +
                           object({{"chave", kText}, {"nome", kText}, {"tipo", kText}}) + "]}"},
      {"ValoresGravados", object({{"gravados", kInt}, {"idGeometria", kInt}, {"valores", list_of("ValorDeCampo")}})},
      {"CampoRecusado", object({{"idCampo", kInt}, {"chave", kText}, {"motivo", kText}})},
      {"ValoresCopiados", object({{"copiados", kInt}, {"idGeometriaOrigem", kInt}, {"idGeometriaDestino", kInt},
                                  {"ignorados", list_of("CampoRecusado")}, {"valores", list_of("ValorDeCampo")}})},
      {"ValoresDaCamada", object({{"valores", list_of("Valor")}, {"limite", kInt}, {"truncado", kBool}})},
      {"LinhaDeValores", object({{"idGeometria", kInt},
                                 {"valores", R"({"type":"object","additionalProperties":)" + std::string(kAnyValue) + "}"}})},
      {"ValoresNoPonto", object({{"idCamada", kInt}, {"nome", kText},
                                 {"geometrias", R"({"type":"array","items":)" +
                                                    object({{"idGeometria", kInt}, {"valores", list_of("ValorDeCampo")}}) +
                                                    "}"}})},
      {"Edificacao", object({{"idGeometria", kInt}, {"idCamada", kInt}, {"idVinculo", kNullableInt},
                             {"valores", list_of("ValorDeCampo")}})},
      // Geometries (src/platform/geometries/).
      {"Geometria", object({{"id", kInt}, {"idCamada", kInt}, {"versao", kInt}, {"vinculoId", kNullableInt},
                            {"geometria", R"({"type":"object","description":"GeoJSON em SIRGAS 2000, lon/lat"})"},
                            {"indiceTematico", kNullableInt}, {"criadoPor", kNullableInt}, {"criadoEm", kTime},
                            {"atualizadoPor", kNullableInt}, {"atualizadoEm", kTime}})},
      {"GeometriaCriada", R"({"allOf":[{"$ref":"#/components/schemas/Geometria"},)" +
                              object({{"valores", list_of("ValorDeCampo")}}) + "]}"},
      {"GeometriasLote", R"({"type":"object","properties":{"geometrias":{"type":"array","items":{"$ref":"#/components/schemas/Geometria"}},"valoresCopiados":{"type":"integer"}}})"},
      {"GeometriaOfflineRelatorio", object({{"itens", R"({"type":"array","items":)" +
                                                       object({{"idCliente", kText}, {"operacao", kText},
                                                               {"situacao", enumeration({"aplicado", "conflito", "erro",
                                                                                         "recusado", "nao_aplicado"})},
                                                               {"id", kInt}, {"versao", kNullableInt},
                                                               {"versaoBase", kInt}, {"versaoAtual", kNullableInt},
                                                               {"motivo", kText}, {"valores", list_of("ValorDeCampo")},
                                                               {"campos", list_of("CampoRecusado")}}) +
                                                       "}"}})},
      // Search and thematic maps (src/platform/search/).
      {"AchadoDeBusca", object({{"idGeometria", kInt}, {"idCamada", kInt}, {"camada", kText}, {"idCampo", kInt},
                                {"campo", kText}, {"chave", kText}, {"valor", kText},
                                {"achado", enumeration({"exato", "prefixo", "contem"})},
                                {"similaridade", R"({"type":"number"})"}})},
      {"MapaTematico", object({{"idCamada", kInt}, {"idCampo", kInt}, {"chave", kText}, {"metodo", kText},
                               {"paleta", kText}, {"total", kInt},
                               {"semValor", object({{"quantidade", kInt}, {"cor", kText}})},
                               {"quebras", R"({"type":"array","items":{"type":"number"}})"},
                               {"classes", R"({"type":"array","items":)" +
                                               object({{"classe", kInt}, {"minimo", R"({"type":"number"})"},
                                                       {"maximo", R"({"type":"number"})"}, {"quantidade", kInt},
                                                       {"cor", kText}, {"rotulo", kText}}) +
                                               "}"}})},
      {"FeicaoComValores", object({{"idGeometria", kInt}, {"geometria", R"({"type":"object"})"},
                                   {"valores", R"({"type":"object","additionalProperties":)" + std::string(kAnyValue) + "}"}})},
      {"MapaBase", object({{"id", kInt}, {"nome", kText}, {"tipo", enumeration({"xyz", "wms"})}, {"url", kText},
                           {"atribuicao", kText}, {"zoomMaximo", kInt}, {"padrao", kBool}, {"ordem", kInt}})},
      // Geography and analyses (src/platform/geography/).
      {"ReferenciaGeografica", object({{"id", kInt}, {"tipo", enumeration({"bairro", "distrito", "zona", "ponto"})},
                                       {"codigo", kNullableText}, {"nome", kText},
                                       {"centro", object({{"x", R"({"type":"number"})"}, {"y", R"({"type":"number"})"}})},
                                       {"bbox", R"({"type":"array","items":{"type":"number"}})"}})},
      {"Municipio", object({{"codigo", kText}, {"nome", kText}, {"uf", kText}, {"areaKm2", kNullableNumber}})},
      {"SetorCensitario", object({{"codigo", kText}, {"codigoMunicipio", kText}, {"municipio", kText}, {"uf", kText},
                                  {"situacao", kNullableText}, {"tipo", kNullableText}, {"areaKm2", kNullableNumber}})},
      {"Cep", object({{"cep", kText}, {"logradouro", kText}, {"codigoLogradouro", kNullableText},
                      {"bairro", kNullableText}, {"cidade", kText}, {"uf", kText},
                      {"origem", enumeration({"cadastro", "correios"})}})},
      {"Intersecao", object({{"idGeometria", kInt}, {"areaM2", R"({"type":"number"})"},
                             {"itens", R"({"type":"array","items":)" +
                                           object({{"idGeometria", kInt}, {"id", kInt}, {"codigo", kText}, {"nome", kText},
                                                   {"areaIntersecaoM2", R"({"type":"number"})"},
                                                   {"proporcao", kNullableNumber}, {"proporcaoDaFeicao", kNullableNumber}}) +
                                           "}"}})},
      {"Zona", object({{"id", kInt}, {"codigo", kText}, {"nome", kText}, {"observacao", kNullableText},
                       {"areaM2", R"({"type":"number"})"}, {"geometria", R"({"type":"object"})"}})},
      {"Observacao", object({{"id", kInt}, {"inscricao", kText}, {"texto", kText}, {"autor", kNullableText},
                             {"criadoEm", kTime}})},
      {"ConsultaImovel", object({{"inscricao", kText}, {"areaTerreno", R"({"type":"number"})"},
                                 {"testada", R"({"type":"number"})"}, {"logradouro", kNullableText},
                                 {"numero", kNullableInt}, {"cep", kNullableText}, {"quadra", kText},
                                 {"bairro", kNullableText},
                                 {"zonas", R"({"type":"array","items":{"type":"object"}})"},
                                 {"observacoes", list_of("Observacao")}})},
      // Custom maps and layer reports (src/platform/custom_maps/, layer_reports/).
      {"CamadaDoMapa", object({{"idCamada", kInt}, {"ordem", R"({"type":"integer","minimum":0,"maximum":100000})"}, {"visivel", kBool},
                               {"opacidade", R"({"type":"number","minimum":0,"maximum":1})"},
                               {"estilo", R"({"type":"object","nullable":true})"}},
                              {"idCamada"}, true)},
      {"MapaPersonalizado", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText}, {"descricao", kText},
                                    {"camadas", list_of("CamadaDoMapa")},
                                    {"extensao", R"({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"nullable":true})"},
                                    {"idMapaBase", kNullableInt}, {"criadoPor", kInt}, {"criadoEm", kTime},
                                    {"atualizadoEm", kTime}})},
      {"FiltrosRelatorio", object({{"condicoes", R"({"type":"array","maxItems":20,"items":{"type":"object","properties":{"idCampo":{"type":"integer"},"operador":{"type":"string","enum":["=","<>","<","<=",">",">=","contem","entre","vazio"]},"valor":{}}}})"},
                                   {"todas", kBool}})},
      {"RelatorioCamada", object({{"id", kInt}, {"idCamada", kInt}, {"idProjeto", kInt}, {"nome", kText},
                                  {"descricao", kText}, {"campos", R"({"type":"array","items":{"type":"integer"}})"},
                                  {"filtros", ref("FiltrosRelatorio")}, {"agrupamento", kNullableInt},
                                  {"criadoPor", kInt}, {"criadoEm", kTime}, {"atualizadoEm", kTime}})},
      // Geostatistics and mass appraisal (src/platform/geostatistics/, mass_appraisal/).
      {"Variograma", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText},
                             {"tipo", enumeration({"esferico", "exponencial", "gaussiano"})},
                             {"pepita", R"({"type":"number"})"}, {"contribuicao", R"({"type":"number"})"},
                             {"alcance", R"({"type":"number"})"}, {"log", kBool}, {"idCamada", kInt},
                             {"idCampo", kInt}, {"idCampoChk", kNullableInt}, {"epsg", kInt}, {"criadoPor", kInt},
                             {"criadoEm", kTime}, {"atualizadoEm", kTime}})},
      {"AjusteVariograma", object({{"idCamada", kInt}, {"idCampo", kInt}, {"idCampoChk", kNullableInt},
                                   {"log", kBool}, {"amostras", kInt}, {"epsg", kInt},
                                   {"bins", R"({"type":"array","items":{"type":"object"}})"},
                                   {"modelos", R"({"type":"array","items":{"type":"object"}})"},
                                   {"melhor", kNullableText}})},
      {"Krigagem", object({{"idVariograma", kInt}, {"idDominioGeografico", kInt}, {"log", kBool}, {"epsg", kInt},
                           {"amostras", kInt}, {"grade", R"({"type":"object"})"}, {"celulasNoDominio", kInt},
                           {"celulasEstimadas", kInt}, {"minimo", R"({"type":"number"})"},
                           {"maximo", R"({"type":"number"})"}, {"media", R"({"type":"number"})"},
                           {"varianciaMedia", R"({"type":"number"})"}, {"idCamada", kNullableInt}})},
      {"Regressao", object({{"idCamada", kInt}, {"n", kInt}, {"k", kInt}, {"excluidas", kInt},
                            {"dependente", R"({"type":"object"})"},
                            {"coeficientes", R"({"type":"array","items":{"type":"object"}})"},
                            {"r2", R"({"type":"number"})"}, {"r2Ajustado", R"({"type":"number"})"},
                            {"f", R"({"type":"number"})"}, {"pF", R"({"type":"number"})"},
                            {"residuos", R"({"type":"array","items":{"type":"object"}})"},
                            {"fundamentacao", R"({"type":"object"})"}, {"precisao", R"({"type":"object"})"},
                            {"estudoRazao", R"({"type":"object"})"}})},
      {"ModeloAvaliacao", object({{"id", kInt}, {"idProjeto", kInt}, {"idCamada", kInt}, {"nome", kText},
                                  {"especificacao", R"({"type":"object"})"},
                                  {"coeficientes", R"({"type":"array","items":{"type":"object"}})"},
                                  {"resultado", R"({"type":"object"})"}, {"criadoPor", kInt}, {"criadoEm", kTime}})},
      {"EstimativasModelo", object({{"idModelo", kInt}, {"idCamada", kInt}, {"idCampoDestino", kNullableInt},
                                    {"estimados", kInt}, {"valores", R"({"type":"array","items":{"type":"object"}})"},
                                    {"semDados", R"({"type":"array","items":{"type":"integer"}})"},
                                    {"recusados", R"({"type":"array","items":{"type":"string"}})"}})},
      {"GeracaoPVG", object({{"versao", R"({"type":"object"})"}, {"faces", kInt}, {"facesComValor", kInt},
                             {"facesSemValor", kInt}})},
      {"ResiduosModelo", object({{"idModelo", kInt}, {"tipo", enumeration({"linha", "poligono", "ponto"})},
                                 {"idCamada", kInt}, {"idCampo", kInt},
                                 {"feicoes", R"({"type":"array","items":{"type":"object"}})"}})},
      // Files and photos (src/platform/files/).
      {"Arquivo", object({{"id", kInt}, {"finalidade", kText}, {"idProjeto", kNullableInt}, {"idCamada", kNullableInt},
                          {"idGeometria", kNullableInt}, {"idEmpresa", kNullableInt}, {"idUsuario", kNullableInt},
                          {"nome", kText}, {"descricao", kNullableText}, {"chave", kText}, {"url", kText},
                          {"tipoMidia", kText}, {"tamanho", kInt}, {"sha256", kText}, {"criadoPor", kInt},
                          {"criadoEm", kTime}, {"atualizadoEm", kTime}})},
      {"Template", object({{"id", kInt}, {"nome", kText}, {"tipo", kText}, {"descricao", kText},
                           {"geometria", kNullableText}, {"campos", R"({"type":"array","items":{"type":"object"}})"}})},
      // Ombudsman and wiki map (src/platform/ombudsman/, src/platform/wikimap/): no personal data of citizens.
      {"CidadeOuvidoria", object({{"cidade", kText}, {"nome", kText}, {"uf", kNullableText}})},
      {"CategoriaOuvidoria", object({{"chave", kText}, {"nome", kText}, {"cor", kText}, {"ordem", kInt}})},
      {"PedidoOuvidoria", object({{"id", kInt}, {"protocolo", kText}, {"categoria", kText}, {"nomeCategoria", kText},
                                  {"cor", kText}, {"status", enumeration({"aberto", "em_analise", "em_atendimento", "concluido", "recusado"})},
                                  {"descricao", kText}, {"longitude", R"({"type":"number"})"},
                                  {"latitude", R"({"type":"number"})"}, {"temFoto", kBool}, {"criadoEm", kTime},
                                  {"atualizadoEm", kTime}})},
      {"ProtocoloOuvidoria", object({{"id", kInt}, {"protocolo", kText}, {"token", kText}, {"status", kText},
                                     {"cidade", kText}, {"mensagem", kText}})},
      {"AcompanhamentoOuvidoria", object({{"id", kInt}, {"protocolo", kText}, {"categoria", kText},
                                          {"nomeCategoria", kText}, {"status", kText}, {"criadoEm", kTime},
                                          {"atualizadoEm", kTime},
                                          {"historico", R"({"type":"array","items":{"type":"object","properties":{"tipo":{"type":"string"},"status":{"type":"string","nullable":true},"em":{"type":"string","format":"date-time"}}}})"}})},
      {"MapaWiki", object({{"id", kInt}, {"idProjeto", kInt}, {"cidade", kText}, {"municipio", kText}, {"titulo", kText},
                           {"descricao", kNullableText}, {"temaGeral", kNullableText}, {"temaEspecifico", kNullableText},
                           {"organizacao", kText}, {"media", R"({"type":"number"})"}, {"totalAvaliacoes", kInt},
                           {"naMinhaLista", kBool}, {"minhaNota", kNullableInt}, {"criadoEm", kTime},
                           {"atualizadoEm", kTime}, {"comentarios", list_of("ComentarioWiki")}})},
      {"ConfiguracaoWiki", object({{"temas", R"({"type":"array","items":{"type":"object","properties":{"temaGeral":{"type":"string"},"temasEspecificos":{"type":"array","items":{"type":"string"}}}}})"},
                                   {"organizacoes", R"({"type":"array","items":{"type":"string"}})"},
                                   {"notas", R"({"type":"object"})"}, {"ordenacao", R"({"type":"array","items":{"type":"string"}})"},
                                   {"tamanhoMaximoPagina", kInt}})},
      {"AvaliacaoWiki", object({{"idMapa", kInt}, {"nota", kInt}, {"media", R"({"type":"number"})"},
                                {"totalAvaliacoes", kInt}})},
      {"ComentarioWiki", object({{"id", kInt}, {"idMapa", kInt}, {"texto", kText},
                                 {"autor", object({{"id", kInt}, {"nome", kText}})}, {"criadoEm", kTime}})},
      {"AvaliacoesDoMapaWiki", object({{"idMapa", kInt}, {"media", R"({"type":"number"})"}, {"totalAvaliacoes", kInt},
                                       {"distribuicao", R"({"type":"object","additionalProperties":{"type":"integer"}})"},
                                       {"minhaNota", kNullableInt}})},
      {"MinhaAvaliacaoWiki", object({{"idMapa", kInt}, {"titulo", kText}, {"cidade", kText}, {"nota", kInt}, {"em", kTime}})},
      {"PedidosOuvidoriaGeoJson",
       object({{"type", enumeration({"FeatureCollection"})},
               {"features", R"({"type":"array","items":{"type":"object","properties":{"type":{"type":"string"},"id":{"type":"integer"},"geometry":{"type":"object"},"properties":)" +
                                ref("PedidoOuvidoria") + "}}}"}})},
      // Contracting (src/platform/contracting/) and the geometry audit (src/platform/audit/).
      {"CatalogoPlanos",
       object({{"planos", R"({"type":"array","items":)" +
                              object({{"id", kInt}, {"codigo", kText}, {"nome", kText}, {"descricao", kNullableText},
                                      {"periodo", enumeration({"mensal", "anual"})}, {"precoCentavos", kInt},
                                      {"maxUsuarios", kInt}, {"maxArmazenamentoMb", kInt}}) + "}"},
               {"precos", object({{"armazenamentoGbMesCentavos", kInt}, {"usuarioMesCentavos", kInt}})},
               {"adicionais", R"({"type":"array","items":)" +
                                  object({{"codigo", kText}, {"nome", kText}, {"precoMesCentavos", kInt}}) + "}"},
               {"impostos", R"({"type":"array","items":)" +
                                object({{"codigo", kText}, {"nome", kText}, {"aliquotaBp", kInt}}) + "}"}})},
      {"Orcamento",
       object({{"id", kInt}, {"hash", kText}, {"criadoEm", kTime}, {"expiraEm", kTime},
               {"tipo", enumeration({"plano", "armazenamento", "usuario", "adicionais"})}, {"data", kDate},
               {"linhas", R"({"type":"array","items":)" +
                              object({{"descricao", kText}, {"quantidade", R"({"type":"number"})"}, {"unidade", kText},
                                      {"precoUnitarioCentavos", kInt}, {"inicio", kDate}, {"fim", kDate},
                                      {"meses", R"({"type":"array","items":)" +
                                                    object({{"mes", kText}, {"dias", kInt}, {"diasDoMes", kInt}}) + "}"},
                                      {"totalCentavos", kInt}}) + "}"},
               {"subtotalCentavos", kInt},
               {"impostos", R"({"type":"array","items":)" +
                                object({{"codigo", kText}, {"nome", kText}, {"aliquotaBp", kInt},
                                        {"valorCentavos", kInt}}) + "}"},
               {"totalCentavos", kInt},
               {"alteracao", object({{"novaLicenca", kBool}, {"plano", kText}, {"inicio", kDate}, {"fim", kDate},
                                     {"maxUsuarios", kInt}, {"maxArmazenamentoMb", kInt},
                                     {"adicionais", R"({"type":"object","additionalProperties":{"type":"integer"}})"}})},
               {"licencaBase", R"({"type":"object","nullable":true,"properties":{"id":{"type":"integer"},"atualizadaEm":{"type":"string"}}})"}},
              {"tipo", "linhas", "subtotalCentavos", "impostos", "totalCentavos", "alteracao"})},
      {"Contrato", object({{"id", kInt}, {"idOrcamento", kInt}, {"tipo", kText}, {"totalCentavos", kInt},
                           {"pagamento", enumeration({"pendente", "confirmado"})},
                           {"confirmadoEm", R"({"type":"string","format":"date-time","nullable":true})"},
                           {"criadoEm", kTime},
                           {"licenca", object({{"id", kInt}, {"plano", kText}, {"status", kText}, {"inicio", kDate},
                                               {"fim", kDate}, {"maxUsuarios", kInt}, {"maxArmazenamentoMb", kInt},
                                               {"adicionais", R"({"type":"object"})"}})}})},
      {"AuditoriaGeometria",
       object({{"id", kInt}, {"idGeometria", kInt}, {"idCamada", kInt}, {"idProjeto", kNullableInt},
               {"operacao", kText}, {"versao", kNullableInt},
               {"antes", R"({"type":"object","nullable":true,"description":"id, idCamada, versao, vinculoId, geometria em GeoJSON e valores por chave de campo"})"},
               {"depois", R"({"type":"object","nullable":true,"description":"o estado depois da edição; null numa exclusão"})"},
               {"idUsuario", kInt}, {"nomeUsuario", kNullableText}, {"em", kTime}, {"emLong", kInt}})},
      // Rasters and WMS (src/platform/rasters/, src/platform/wms/).
      {"CamadaWms", object({{"nome", kText}, {"titulo", kText}, {"crs", R"({"type":"array","items":{"type":"string"}})"},
                            {"bbox", R"({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"nullable":true})"}})},
      {"CapacidadesWms", object({{"versao", kText}, {"titulo", kText}, {"urlMapa", kText},
                                 {"formatos", R"({"type":"array","items":{"type":"string"}})"},
                                 {"camadas", list_of("CamadaWms")}})},
      {"FonteWms", object({{"id", kInt}, {"nome", kText}, {"descricao", kNullableText}, {"url", kText},
                           {"versao", kText}, {"titulo", kNullableText}, {"urlMapa", kText},
                           {"camadas", list_of("CamadaWms")}, {"formatos", R"({"type":"array","items":{"type":"string"}})"},
                           {"lidoEm", kTime}, {"criadoPor", kInt}, {"criadoEm", kTime}, {"atualizadoEm", kTime}})},
      {"ImportacaoTiff", object({{"idImportacao", kInt}, {"tipo", kText},
                                 {"estado", enumeration({"pendente", "executando", "concluida", "falhou", "cancelada"})},
                                 {"cancelamentoPedido", kBool},
                                 {"progresso", R"({"type":"number"})"}, {"contagens", R"({"type":"object"})"},
                                 {"erros", R"({"type":"array","items":{"type":"object"}})"},
                                 {"camadas", R"({"type":"array","items":{"type":"object"}})"}, {"idCamada", kNullableInt},
                                 {"idProjeto", kNullableInt}, {"codigo", kNullableText}, {"parametros", R"({"type":"object"})"},
                                 {"oculta", kBool}, {"criadoEm", kTime}, {"atualizadoEm", kTime}, {"mensagem", kNullableText}})},
      // Jobs of the vector imports (src/platform/jobs, docs/platform-imports.md).
      {"Importacao",
       object({{"idImportacao", kInt}, {"tipo", enumeration({"shp", "kml", "dxf", "pvg", "icad_lotes", "icad_lotes_rurais",
                                                             "icad_edificacoes", "icad_logradouros", "ouv", "tiff"})},
               {"estado", enumeration({"pendente", "executando", "concluida", "falhou", "cancelada"})},
               {"cancelamentoPedido", kBool},
               {"progresso", R"({"type":"number","minimum":0,"maximum":100})"},
               {"contagens", R"({"type":"object","properties":{"lidas":{"type":"integer"},"importadas":{"type":"integer"},"reparadas":{"type":"integer"},"recusadas":{"type":"integer"}}})"},
               {"erros", R"({"type":"array","maxItems":100,"items":{"type":"object","properties":{"feicao":{"type":"integer"},"mensagem":{"type":"string"}}}})"},
               {"camadas", R"({"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"nome":{"type":"string"},"geometria":{"type":"string"},"feicoes":{"type":"integer"}}}})"},
               {"idCamada", kNullableInt}, {"idProjeto", kNullableInt}, {"codigo", kNullableText},
               {"parametros", R"({"type":"object"})"}, {"oculta", kBool}, {"criadoPor", kInt}, {"criadoEm", kTime},
               {"atualizadoEm", kTime}, {"mensagem", kNullableText}},
              {"idImportacao", "tipo", "estado"})},
      {"ImportacaoAceita", object({{"idImportacao", kInt},
                                   {"estado", enumeration({"pendente", "executando", "concluida", "falhou", "cancelada"})},
                                   {"novo", kBool}}, {"idImportacao", "estado", "novo"})},
      // {"cancelar": true} goes alone (with nomeCamada or oculta: 400 naming cancelar).
      {"CredencialTiff", object({{"url", kText}, {"caminho", kText}, {"metodo", kText}, {"tipoConteudo", kText},
                                 {"tamanhoMaximo", kInt}, {"tamanhoMaximoEmPartes", kInt}, {"expira", kInt},
                                 {"idProjeto", kInt}, {"nomeCamada", kText}})},
      {"ValorPixel", object({{"idCamada", kInt}, {"x", R"({"type":"number"})"}, {"y", R"({"type":"number"})"}, {"crs", kText},
                             {"xRaster", R"({"type":"number"})"}, {"yRaster", R"({"type":"number"})"}, {"coluna", kInt},
                             {"linha", kInt},
                             {"valores", R"({"type":"array","items":{"type":"object","properties":{"banda":{"type":"integer"},"valor":{"type":"number","nullable":true}}}})"}})},
  };
}

// The bodies each area's parsers read, kept beside them.
std::vector<common::RequestSchema> gather_requests() {
  std::vector<common::RequestSchema> all;
  for (auto area : {&accounts::request_schemas,
                     &additional_layers::request_schemas,
                     &city_reports::request_schemas,
                     &companies::request_schemas,
                     &contracting::request_schemas,
                     &custom_maps::request_schemas,
                     &fields::request_schemas,
                     &files::request_schemas,
                     &forms::request_schemas,
                     &geostatistics::request_schemas,
                     &geometries::request_schemas,
                     &layer_reports::request_schemas,
                     &layer_styles::request_schemas,
                     &layer_users::request_schemas,
                     &layers::request_schemas,
                     &licenses::request_schemas,
                     &mass_appraisal::request_schemas,
                     &ombudsman::request_schemas,
                     &profile::request_schemas,
                     &projects::request_schemas,
                     &providers::request_schemas,
                     &rasters::request_schemas,
                     &search::request_schemas,
                     &sessions::request_schemas,
                     &tenants::request_schemas,
                     &users::request_schemas,
                     &values::request_schemas,
                     &wikimap::request_schemas,
                     &wms::request_schemas}) {
    auto some = area();
    all.insert(all.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
  }
  return all;
}

}  // namespace

const std::vector<common::RequestSchema>& requests() {
  static const auto all = gather_requests();
  return all;
}

const std::vector<std::pair<std::string, std::string>>& components() {
  static const auto all = [] {
    auto named = build();
    for (const auto& r : requests()) named.emplace_back(r.name, r.schema);
    return named;
  }();
  return all;
}

std::string ref(const std::string& name) { return json_schema::ref(name); }

std::string list_of(const std::string& name) { return json_schema::list_of(name); }

std::string page_of(const std::string& name) {
  return R"({"type":"object","required":["content","pageNumber","pageSize","totalElements","totalPages"],"properties":{"content":)" +
         list_of(name) +
         R"(,"pageNumber":{"type":"integer"},"pageSize":{"type":"integer"},"totalElements":{"type":"integer"},"totalPages":{"type":"integer"}}})";
}

}  // namespace cadastre::platform::schemas
