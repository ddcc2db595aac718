#include "platform/schemas.hpp"

namespace cadastre::platform::schemas {
namespace {

// Property schemas, written once.
constexpr const char* kText = R"({"type":"string"})";
constexpr const char* kInt = R"({"type":"integer","format":"int64"})";
constexpr const char* kBool = R"({"type":"boolean"})";
constexpr const char* kNullableInt = R"({"type":"integer","format":"int64","nullable":true})";
constexpr const char* kNullableText = R"({"type":"string","nullable":true})";
constexpr const char* kTime = R"({"type":"string","format":"date-time"})";
constexpr const char* kDate = R"({"type":"string","format":"date"})";
constexpr const char* kEmail = R"({"type":"string","format":"email","maxLength":254})";
// A field's value: text, number, ISO date, boolean, a list of texts, or null (empty).
constexpr const char* kAnyValue =
    R"({"nullable":true,"description":"no tipo do campo: texto, número, data (aaaa-mm-dd), booleano, lista de textos"})";
// Fields of forms: their types (src/platform/fields/types.hpp) and nullable rules.
constexpr const char* kFieldType =
    R"({"type":"string","enum":["texto","texto_longo","inteiro","decimal","data","booleano","lista","lista_dominio","multipla","foto","calculado"]})";
constexpr const char* kNullableNumber = R"({"type":"number","nullable":true})";
constexpr const char* kNullableTexts = R"({"type":"array","items":{"type":"string"},"nullable":true})";

using Props = std::vector<std::pair<std::string, std::string>>;

std::string object(const Props& props, const std::vector<std::string>& required = {}, bool closed = false) {
  std::string out = R"({"type":"object","properties":{)";
  for (std::size_t i = 0; i < props.size(); ++i)
    out += (i ? "," : "") + std::string("\"") + props[i].first + "\":" + props[i].second;
  out += "}";
  if (!required.empty()) {
    out += R"(,"required":[)";
    for (std::size_t i = 0; i < required.size(); ++i) out += (i ? ",\"" : "\"") + required[i] + "\"";
    out += "]";
  }
  if (closed) out += R"(,"additionalProperties":false)";
  return out + "}";
}

std::string enumeration(const std::vector<std::string>& values) {
  std::string out = R"({"type":"string","enum":[)";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ",\"" : "\"") + values[i] + "\"";
  return out + "]}";
}

std::vector<std::pair<std::string, std::string>> build() {
  const std::string status = enumeration({"teste", "ativa", "expirada", "suspensa", "cancelada", "sem_licenca"});
  const std::string stored = enumeration({"teste", "ativa", "suspensa", "cancelada"});
  const std::string tenant = object({{"id", kInt}, {"slug", kText}, {"nome", kText}});
  const std::string license_fields_props = R"({"plano":{"type":"string","maxLength":100},"status":)" + stored +
                                           R"(,"inicio":{"type":"string","format":"date"},"fim":{"type":"string","format":"date"},)"
                                           R"("maxUsuarios":{"type":"integer","minimum":1},"maxArmazenamentoMb":{"type":"integer","minimum":1},)"
                                           R"("observacao":{"type":"string"}})";
  return {
      {"RespostaLogin", object({{"statusLicenca", status}, {"authToken", kText}, {"tnToken", kText},
                                {"usuarioPublico", kBool}, {"idEmpresa", kNullableInt}, {"idUsuario", kInt},
                                {"adm", kBool}},
                               {"statusLicenca", "authToken", "tnToken", "usuarioPublico", "idEmpresa", "idUsuario",
                                "adm"},
                               true)},
      {"LoginSenha", object({{"email", kEmail}, {"senha", R"({"type":"string","maxLength":1024})"}}, {"email", "senha"},
                            true)},
      {"LoginPrestador", object({{"email", kEmail}, {"senha", kText}, {"idTenant", kInt}}, {"email", "senha"}, true)},
      {"LoginDiretorio", object({{"username", kText}, {"password", kText}, {"municipio", kText}},
                                {"username", "password"}, true)},
      {"LoginOidc", object({{"email", kEmail}, {"uid", kText}, {"id_token", kText}}, {"email", "uid", "id_token"}, true)},
      {"FormasDeEntrada", object({{"email", kText}, {"metodos", R"({"type":"array","items":)" +
                                                                    enumeration({"senha", "ldap", "oauth"}) + "}"},
                                  {"doUsuario", kBool}})},
      {"Mensagem", object({{"mensagem", kText}}, {"mensagem"})},
      {"Saude", object({{"status", kText}, {"servico", kText}, {"versao", kText}})},
      {"Versao", object({{"servico", kText}, {"versao", kText}, {"build", kText}, {"migracao", kText}})},
      {"NovaConta", object({{"nome", kText}, {"email", kEmail}, {"senha", R"({"type":"string","minLength":8})"},
                            {"empresa", kText}, {"cnpj", kText}, {"telefone", kText}, {"municipio", kText},
                            {"uf", R"({"type":"string","pattern":"^[A-Z]{2}$"})"}},
                           {"nome", "email", "senha", "empresa"}, true)},
      {"RecuperarSenha", object({{"email", kEmail}, {"token", kText}, {"senha", kText}}, {}, true)},
      {"EmailPersonalizado", object({{"assunto", kText}, {"mensagem", kText},
                                     {"destinatarios", R"({"type":"array","items":{"type":"integer"},"maxItems":1000})"}},
                                    {"assunto", "mensagem"}, true)},
      {"ResultadoEnvio", object({{"enviados", kInt}, {"destinatarios", kInt},
                                 {"falhas", R"({"type":"array","items":)" +
                                                object({{"idUsuario", kInt}, {"mensagem", kText}}) + "}"}})},
      {"Perfil", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"telefone", kNullableText},
                         {"cargo", kNullableText}, {"foto", kNullableText}, {"adm", kBool}, {"admPlataforma", kBool},
                         {"idEmpresa", kNullableInt}, {"idProvedor", kNullableInt}, {"usuarioPublico", kBool},
                         {"criadoEm", kTime}, {"tenant", tenant}, {"emailPendente", kNullableText}})},
      {"PerfilAlteracao", object({{"nome", kText}, {"telefone", kText}, {"cargo", kText}, {"email", kEmail},
                                  {"senhaAtual", kText}, {"novaSenha", R"({"type":"string","minLength":8})"}},
                                 {}, true)},
      {"Usuario", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"telefone", kNullableText},
                          {"cargo", kNullableText}, {"adm", kBool}, {"ativo", kBool}, {"usuarioPublico", kBool},
                          {"emailConfirmado", kBool}, {"idEmpresa", kNullableInt}, {"idTenant", kNullableInt},
                          {"criadoEm", kTime},
                          {"permissoes", R"({"type":"array","items":)" +
                                             object({{"camada", kText}, {"leitura", kBool}, {"escrita", kBool}}) + "}"}})},
      {"UsuarioCampos", object({{"nome", kText}, {"email", kEmail}, {"telefone", kText}, {"cargo", kText},
                                {"adm", kBool}, {"usuarioPublico", kBool},
                                {"permissoes", R"({"type":"array","items":{"type":"string","pattern":"^(\\*|[A-Za-z_][A-Za-z0-9_]*):r?w?$"}})"}},
                               {}, true)},
      {"UsuarioCriado", object({{"usuario", ref("Usuario")}, {"linkDeSenhaEnviado", kBool}})},
      {"Empresa", object({{"id", kInt}, {"nome", kText}, {"cnpj", kNullableText}, {"email", kNullableText},
                          {"telefone", kNullableText}, {"endereco", kNullableText}, {"site", kNullableText},
                          {"idTenant", kNullableInt}, {"criadoEm", kTime}})},
      {"EmpresaAlteracao", object({{"nome", kText}, {"cnpj", kText}, {"email", kText}, {"telefone", kText},
                                   {"endereco", kText}, {"site", kText}},
                                  {}, true)},
      {"Licenca", object({{"id", kInt}, {"idTenant", kInt}, {"plano", kText}, {"status", stored},
                          {"statusEfetivo", status}, {"inicio", kDate}, {"fim", kDate}, {"maxUsuarios", kInt},
                          {"maxArmazenamentoMb", kInt}, {"observacao", kNullableText}, {"criadaEm", kTime},
                          {"atualizadaEm", kTime}, {"tenant", kText}, {"nomeTenant", kText}})},
      {"LicencaNova", R"({"type":"object","additionalProperties":false,"required":["idTenant","plano","fim","maxUsuarios","maxArmazenamentoMb"],"properties":)" +
                          license_fields_props.substr(0, license_fields_props.size() - 1) + R"(,"idTenant":{"type":"integer"}}})"},
      {"LicencaAlteracao", R"({"type":"object","additionalProperties":false,"properties":)" + license_fields_props + "}"},
      {"MeuPlano", object({{"licenca", R"({"allOf":[)" + ref("Licenca") + R"(],"nullable":true})"}, {"status", status},
                           {"usuarios", object({{"limite", kNullableInt}, {"emUso", kInt}})},
                           {"armazenamento", object({{"limiteMb", kNullableInt}, {"emUsoBytes", kInt}})}})},
      {"TokenApi", object({{"id", kInt}, {"nome", kText}, {"escopo", enumeration({"avaliacao", "integracao", "provas_digitais"})},
                           {"ativo", kBool}, {"criadoEm", kTime}, {"ultimoUso", R"({"type":"string","format":"date-time","nullable":true})"}})},
      {"TokenApiPedido", object({{"id", kInt}, {"nome", kText}, {"escopo", enumeration({"avaliacao", "integracao"})}}, {}, true)},
      {"TokenApiEmitido", object({{"id", kInt}, {"nome", kText}, {"escopo", kText}, {"token", kText}},
                                 {"id", "nome", "escopo", "token"})},
      {"ConfiguracaoMunicipio",
       object({{"tenant", object({{"id", kInt}, {"slug", kText}, {"nome", kText}, {"uf", kNullableText},
                                  {"codigoIbge", kNullableText}, {"fusoHorario", kText}})},
               {"config", ref("Configuracao")}})},
      {"Configuracao",
       object({{"mapa", object({{"centro", R"({"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2})"},
                                {"zoom", R"({"type":"integer","minimum":0,"maximum":22})"},
                                {"mapaBase", kText}},
                               {}, true)},
               {"tema", object({{"corPrimaria", R"({"type":"string","pattern":"^#[0-9A-Fa-f]{6}$"})"},
                                {"corSecundaria", R"({"type":"string","pattern":"^#[0-9A-Fa-f]{6}$"})"},
                                {"logo", kText}},
                               {}, true)},
               {"contato", object({{"email", kEmail}, {"telefone", kText}, {"site", kText}}, {}, true)},
               {"modulos", R"({"type":"array","items":{"type":"string","maxLength":50},"maxItems":50})"}},
              {}, true)},
      {"PreCadastro", object({{"nome", kText}, {"cnpj", kText}, {"email", kEmail}, {"responsavel", kText},
                              {"telefone", kText}, {"mensagem", kText}},
                             {"nome", "cnpj", "email", "responsavel"}, true)},
      {"PreProvedor", object({{"id", kInt}, {"nome", kText}, {"cnpj", kText}, {"email", kText},
                              {"responsavel", kText}, {"telefone", kNullableText}, {"mensagem", kNullableText},
                              {"estado", enumeration({"pendente", "aprovado", "recusado"})},
                              {"idProvedor", kNullableInt}, {"criadoEm", kTime}})},
      {"Provedor", object({{"id", kInt}, {"nome", kText}, {"cnpj", kText}, {"email", kText},
                           {"telefone", kNullableText}, {"ativo", kBool}, {"criadoEm", kTime},
                           {"acesso", R"({"nullable":true,"type":"object","properties":{"leitura":{"type":"boolean"},"escrita":{"type":"boolean"},"concedidoEm":{"type":"string","format":"date-time"}}})"}})},
      {"ProvedorNovo", R"({"oneOf":[{"type":"object","required":["idPreProvedor"],"additionalProperties":false,"properties":{"idPreProvedor":{"type":"integer"}}},)" +
                           ref("PreCadastro") + "]}"},
      {"ProvedorCriado", object({{"provedor", ref("Provedor")}, {"idUsuario", kInt}, {"linkDeSenhaEnviado", kBool}})},
      {"UsuarioDoProvedor", object({{"id", kInt}, {"nome", kText}, {"email", kText}, {"ativo", kBool}, {"criadoEm", kTime}})},
      {"Concessao", object({{"idProvedor", kInt}, {"escrita", kBool}}, {"idProvedor"}, true)},
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
      {"CamadaNova", object({{"idProjeto", kInt}, {"nome", R"({"type":"string","maxLength":200})"},
                             {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
                             {"tipo", enumeration({"vetor"})}, {"geometria", enumeration({"ponto", "linha", "poligono", "qualquer"})},
                             {"privada", kBool}, {"moduloId", kNullableInt}, {"propriedades", R"({"type":"object"})"},
                             {"estilo", R"({"type":"object"})"}, {"ordem", R"({"type":"integer"})"}},
                            {"idProjeto", "nome"}, true)},
      {"CamadaAlteracao", object({{"nome", R"({"type":"string","maxLength":200})"},
                                  {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
                                  {"geometria", enumeration({"ponto", "linha", "poligono", "qualquer"})}, {"privada", kBool},
                                  {"moduloId", kNullableInt}, {"propriedades", R"({"type":"object"})"},
                                  {"estilo", R"({"type":"object"})"}, {"ordem", R"({"type":"integer"})"},
                                  {"rotulo", R"({"nullable":true,"enum":[null]})"}, {"categorias", R"({"nullable":true,"enum":[null]})"}},
                                 {}, true)},
      {"Privacidade", object({{"privada", kBool}}, {"privada"}, true)},
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
      {"RotuloGeometriaCampos", object({{"texto", R"({"type":"string","maxLength":500,"nullable":true})"},
                                        {"posicao", R"({"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2,"nullable":true})"},
                                        {"rotacao", R"({"type":"number","minimum":-360,"maximum":360,"nullable":true})"}},
                                       {}, true)},
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
      {"CamadaUsuarioNovo", object({{"idCamada", kInt}, {"idUsuario", kInt}, {"direito", enumeration({"leitura", "edicao"})}},
                                   {"idCamada", "idUsuario", "direito"}, true)},
      {"CamadaUsuarioAlteracao", object({{"direito", enumeration({"leitura", "edicao"})}}, {"direito"}, true)},
      // Projects (src/platform/projects) and additional layers (src/platform/additional_layers).
      {"Projeto", object({{"id", kInt}, {"nome", kText}, {"descricao", kNullableText},
                          {"tipo", enumeration({"geral", "cadastro_imobiliario"})}, {"ativo", kBool}, {"publicado", kBool},
                          {"versao", kInt}, {"versaoAnterior", kNullableInt}, {"somenteLeitura", kBool},
                          {"criadoPor", kInt}, {"criadoEm", kTime}, {"atualizadoEm", kTime},
                          {"papel", enumeration({"leitura", "edicao", "admin"})}})},
      {"ProjetoNovo", object({{"nome", R"({"type":"string","maxLength":200})"},
                              {"descricao", R"({"type":"string","maxLength":4000})"},
                              {"tipo", enumeration({"geral", "cadastro_imobiliario"})}},
                             {"nome"}, true)},
      {"ProjetoAlteracao", object({{"nome", R"({"type":"string","maxLength":200})"},
                                   {"descricao", R"({"type":"string","maxLength":4000})"}}, {}, true)},
      {"ReferenciaProjeto", object({{"idProjeto", kInt}}, {"idProjeto"}, true)},
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
      {"NotasProjeto", object({{"id", kInt}, {"notas", R"({"type":"string","maxLength":200000})"}}, {"notas"})},
      {"CopiaProjeto", object({{"idProjeto", kInt}, {"nome", R"({"type":"string","maxLength":200})"},
                               {"geometrias", kBool}, {"valores", kBool}},
                              {"idProjeto", "nome"}, true)},
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
      {"CompartilhamentoNovo", object({{"idProjeto", kInt}, {"idUsuario", kInt},
                                       {"papel", enumeration({"leitura", "edicao", "admin"})}},
                                      {"idProjeto", "idUsuario", "papel"}, true)},
      {"CamadaAdicional", object({{"id", kInt}, {"idProjeto", kInt}, {"nome", kText},
                                  {"tipo", enumeration({"wms", "xyz", "vetor"})}, {"url", kText},
                                  {"camadas", kNullableText}, {"opcoes", R"({"type":"object"})"}, {"ordem", kInt},
                                  {"criadoEm", kTime}})},
      {"CamadaAdicionalNova", object({{"idProjeto", kInt}, {"nome", R"({"type":"string","maxLength":200})"},
                                      {"tipo", enumeration({"wms", "xyz", "vetor"})},
                                      {"url", R"({"type":"string","maxLength":2000,"pattern":"^https?://"})"},
                                      {"camadas", R"({"type":"string","maxLength":2000})"},
                                      {"opcoes", R"({"type":"object"})"}, {"ordem", R"({"type":"integer"})"}},
                                     {"idProjeto", "nome", "tipo", "url"}, true)},
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
      {"FormularioNovo", object({{"idCamada", kInt}, {"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
                                 {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
                                 {"ordem", R"({"type":"integer","minimum":0})"}},
                                {"idCamada", "nome"}, true)},
      {"FormularioAlteracao", object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
                                      {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
                                      {"ordem", R"({"type":"integer","minimum":0})"}},
                                     {}, true)},
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
      {"CampoNovo", R"({"allOf":[{"$ref":"#/components/schemas/CampoAlteracao"},{"type":"object","required":["idFormulario","nome","chave","tipo"],"properties":{"idFormulario":{"type":"integer"}}}]})"},
      {"CampoAlteracao", object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
                                 {"chave", R"({"type":"string","pattern":"^[a-z][a-z0-9_]{0,62}$"})"}, {"tipo", kFieldType},
                                 {"obrigatorio", kBool}, {"unico", kBool}, {"minimo", kNullableNumber},
                                 {"maximo", kNullableNumber}, {"padrao", kNullableText}, {"opcoes", kNullableTexts},
                                 {"dominio", kNullableText}, {"formula", kNullableText}, {"avaliacao", kNullableText},
                                 {"ajuda", kNullableText}, {"ordem", R"({"type":"integer","minimum":0})"}, {"ativo", kBool}})},
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
      {"ValorNovo", object({{"idGeometria", kInt}, {"idCampo", kInt}, {"valor", kAnyValue}},
                           {"idGeometria", "idCampo", "valor"}, true)},
      {"ValorAlteracao", object({{"valor", kAnyValue}}, {"valor"}, true)},
      {"ValoresLote", object({{"idGeometria", kInt},
                              {"valores", R"({"type":"array","minItems":1,"maxItems":500,"items":)" +
                                              object({{"idCampo", kInt}, {"valor", kAnyValue}}, {"idCampo", "valor"}, true) +
                                              "}"}},
                             {"idGeometria", "valores"}, true)},
      {"ValoresGravados", object({{"gravados", kInt}, {"idGeometria", kInt}, {"valores", list_of("ValorDeCampo")}})},
      {"CampoRecusado", object({{"idCampo", kInt}, {"chave", kText}, {"motivo", kText}})},
      {"CopiaDeValores", object({{"idGeometriaOrigem", kInt}, {"idGeometriaDestino", kInt},
                                 {"idCampos", R"({"type":"array","items":{"type":"integer"},"maxItems":1000})"}},
                                {"idGeometriaOrigem", "idGeometriaDestino"}, true)},
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
      {"GeometriaNova", object({{"idCamada", kInt}, {"wkt", kText}, {"geojson", R"({"type":"object"})"},
                                {"srid", kInt}, {"vinculoId", kInt}}, {"idCamada"}, true)},
      {"GeometriaAlteracao", object({{"wkt", kText}, {"geojson", R"({"type":"object"})"}, {"srid", kInt},
                                     {"versao", kInt}}, {}, true)},
      {"GeometriasIds", object({{"ids", R"({"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":1000})"},
                                {"manter", kInt}, {"versoes", R"({"type":"object","additionalProperties":{"type":"integer"}})"}},
                               {"ids"}, true)},
      {"GeometriaDivisao", object({{"linha", kText}, {"srid", kInt}, {"versao", kInt}}, {"linha", "versao"}, true)},
      {"GeometriasLote", R"({"type":"object","properties":{"geometrias":{"type":"array","items":{"$ref":"#/components/schemas/Geometria"}},"valoresCopiados":{"type":"integer"}}})"},
      {"GeometriaOfflineItem", object({{"idCliente", kText}, {"operacao", enumeration({"criar", "alterar", "excluir"})},
                                       {"idCamada", kInt}, {"id", kInt}, {"versaoBase", kInt}, {"wkt", kText},
                                       {"geojson", R"({"type":"object"})"}, {"srid", kInt}},
                                      {"idCliente", "operacao"}, true)},
      {"GeometriaOfflineRelatorio", object({{"itens", R"({"type":"array","items":)" +
                                                       object({{"idCliente", kText}, {"operacao", kText},
                                                               {"situacao", enumeration({"aplicado", "conflito", "erro",
                                                                                         "nao_aplicado"})},
                                                               {"id", kInt}, {"versao", kNullableInt},
                                                               {"versaoBase", kInt}, {"versaoAtual", kNullableInt},
                                                               {"motivo", kText}}) +
                                                       "}"}})},
      // Search and thematic maps (src/platform/search/).
      {"AchadoDeBusca", object({{"idGeometria", kInt}, {"idCamada", kInt}, {"camada", kText}, {"idCampo", kInt},
                                {"campo", kText}, {"chave", kText}, {"valor", kText},
                                {"achado", enumeration({"exato", "prefixo", "contem"})},
                                {"similaridade", R"({"type":"number"})"}})},
      {"PedidoMapaTematico", object({{"idCamada", kInt}, {"idCampo", kInt},
                                     {"metodo", enumeration({"intervalos_iguais", "quantis", "jenks"})},
                                     {"classes", R"({"type":"integer","minimum":2,"maximum":12})"},
                                     {"paleta", kText}},
                                    {"idCamada", "idCampo", "metodo"}, true)},
      {"MapaTematico", object({{"idCamada", kInt}, {"idCampo", kInt}, {"chave", kText}, {"metodo", kText},
                               {"paleta", kText}, {"total", kInt},
                               {"semValor", object({{"quantidade", kInt}, {"cor", kText}})},
                               {"quebras", R"({"type":"array","items":{"type":"number"}})"},
                               {"classes", R"({"type":"array","items":)" +
                                               object({{"classe", kInt}, {"minimo", R"({"type":"number"})"},
                                                       {"maximo", R"({"type":"number"})"}, {"quantidade", kInt},
                                                       {"cor", kText}, {"rotulo", kText}}) +
                                               "}"}})},
      {"PesquisaCaracteristicas",
       object({{"idCamada", kInt}, {"todas", kBool},
               {"condicoes", R"({"type":"array","minItems":1,"maxItems":20,"items":)" +
                                 object({{"idCampo", kInt},
                                         {"operador", enumeration({"=", "<>", "<", "<=", ">", ">=", "contem", "entre", "vazio"})},
                                         {"valor", kAnyValue}},
                                        {"idCampo", "operador"}, true) +
                                 "}"}},
              {"idCamada", "condicoes"}, true)},
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
      // Files and photos (src/platform/files/).
      {"Arquivo", object({{"id", kInt}, {"finalidade", kText}, {"idProjeto", kNullableInt}, {"idCamada", kNullableInt},
                          {"idGeometria", kNullableInt}, {"idEmpresa", kNullableInt}, {"idUsuario", kNullableInt},
                          {"nome", kText}, {"descricao", kNullableText}, {"chave", kText}, {"url", kText},
                          {"tipoMidia", kText}, {"tamanho", kInt}, {"sha256", kText}, {"criadoPor", kInt},
                          {"criadoEm", kTime}, {"atualizadoEm", kTime}})},
      {"Template", object({{"id", kInt}, {"nome", kText}, {"tipo", kText}, {"descricao", kText},
                           {"geometria", kNullableText}, {"campos", R"({"type":"array","items":{"type":"object"}})"}})},
  };
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& components() {
  static const auto all = build();
  return all;
}

std::string ref(const std::string& name) { return R"({"$ref":"#/components/schemas/)" + name + "\"}"; }

std::string list_of(const std::string& name) { return R"({"type":"array","items":)" + ref(name) + "}"; }

std::string page_of(const std::string& name) {
  return R"({"type":"object","required":["content","pageNumber","pageSize","totalElements","totalPages"],"properties":{"content":)" +
         list_of(name) +
         R"(,"pageNumber":{"type":"integer"},"pageSize":{"type":"integer"},"totalElements":{"type":"integer"},"totalPages":{"type":"integer"}}})";
}

}  // namespace cadastre::platform::schemas
