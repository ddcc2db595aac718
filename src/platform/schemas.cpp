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
      {"TesteGeometria", object({{"wkt", kText}, {"geos", object({{"valida", kBool}, {"area_m2", R"({"type":"number"})"}})},
                                 {"postgis", object({{"wkt", kText}, {"valida", kBool}, {"area_m2", R"({"type":"number"})"},
                                                     {"versao", kText}})},
                                 {"concordam", kBool}})},
      {"MunicipioDaSessao", object({{"id", kInt}, {"slug", kText}, {"nome", kText}, {"tnToken", kText},
                                    {"idUsuario", kInt}})},
      {"Confirmacao", object({{"mensagem", kText}, {"email", kText}, {"tnToken", kText}})},
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
