// GET /campos/parse-formly/:camada: the layer's active forms as Formly field configs
// (FormlyFieldConfig[]), checked against a Formly-shaped JSON schema: every field has a key,
// a known type and props of the right types, and options appear on selects only.
#include <string>

#include "cast.hpp"
#include "support/json_schema.hpp"

using namespace cadastre;
using test::anonymous;
using test::PlatformFixture;
using test::refused;
using test::str;
using test::World;

namespace {

// FormlyFieldConfig as the platform emits it (a subset of Formly's own type).
constexpr const char* kFormlySchema = R"({
  "type": "array", "minItems": 1,
  "items": {
    "type": "object", "required": ["key", "type", "props"], "additionalProperties": false,
    "properties": {
      "key": {"type": "string", "minLength": 1},
      "type": {"enum": ["input", "textarea", "select", "checkbox", "datepicker", "file"]},
      "props": {
        "type": "object", "required": ["label", "required"], "additionalProperties": false,
        "properties": {
          "label": {"type": "string", "minLength": 1},
          "required": {"type": "boolean"},
          "description": {"type": "string"},
          "type": {"enum": ["text", "number"]},
          "step": {"type": "number"},
          "min": {"type": "number"}, "max": {"type": "number"},
          "minLength": {"type": "number"}, "maxLength": {"type": "number"},
          "pattern": {"type": "string"},
          "multiple": {"type": "boolean"},
          "readonly": {"type": "boolean"},
          "accept": {"type": "string"},
          "options": {"type": "array", "items": {
            "type": "object", "required": ["label", "value"], "additionalProperties": false,
            "properties": {"label": {"type": "string"}, "value": {"type": "string"}}}}
        }
      }
    },
    "oneOf": [
      {"properties": {"type": {"const": "select"}, "props": {"required": ["options"]}}},
      {"properties": {"type": {"enum": ["input", "textarea", "checkbox", "datepicker", "file"]},
                      "props": {"not": {"required": ["options"]}}}}
    ]
  }
})";

std::vector<std::string> problems_of(const std::string& json) {
  simdjson::dom::parser schema_parser, doc_parser;
  test::SchemaCheck c;
  c.check(schema_parser.parse(std::string(kFormlySchema)).value(), doc_parser.parse(json).value(), "");
  return c.problems;
}

std::string member(simdjson::dom::element e, const char* key) { return simdjson::minify(e[key]); }

}  // namespace

TEST_CASE("the Formly schema of the test refuses what Formly would not render") {
  // The checker is itself under test: a select without options, options on an input, a
  // field without a key, a number where a label goes.
  CHECK(problems_of(R"([{"key":"a","type":"input","props":{"label":"A","required":false}}])").empty());
  CHECK_FALSE(problems_of(R"([{"key":"a","type":"select","props":{"label":"A","required":false}}])").empty());
  CHECK_FALSE(problems_of(R"([{"key":"a","type":"input","props":{"label":"A","required":false,"options":[]}}])").empty());
  CHECK_FALSE(problems_of(R"([{"type":"input","props":{"label":"A","required":false}}])").empty());
  CHECK_FALSE(problems_of(R"([{"key":"a","type":"input","props":{"label":1,"required":false}}])").empty());
  CHECK_FALSE(problems_of(R"([{"key":"a","type":"slider","props":{"label":"A","required":false}}])").empty());
  CHECK_FALSE(problems_of(R"([])").empty());
}

TEST_CASE_FIXTURE(PlatformFixture, "parse-formly gives the layer's active forms as Formly configs a client renders") {
  World x(*this);
  std::int64_t ficha = x.form(x.layer, "Ficha");
  std::int64_t velho = x.form(x.layer, "Antigo");
  std::int64_t obra = x.form(x.layer, "Obra");
  x.field(ficha, R"({"nome":"Inscrição","chave":"inscricao","tipo":"texto","obrigatorio":true,"padrao":"\\d{3}\\.\\d{4}","maximo":8,"ajuda":"como no carnê"})");
  x.field(ficha, R"({"nome":"Observações","chave":"obs","tipo":"texto_longo"})");
  x.field(ficha, R"({"nome":"Pavimentos","chave":"pavimentos","tipo":"inteiro","minimo":1,"maximo":40})");
  x.field(ficha, R"({"nome":"Área","chave":"area","tipo":"decimal","minimo":0})");
  x.field(ficha, R"({"nome":"Vistoria","chave":"vistoria","tipo":"data"})");
  x.field(ficha, R"({"nome":"Murado","chave":"murado","tipo":"booleano"})");
  x.field(ficha, R"({"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["casa","loja"]})");
  x.field(ficha, R"({"nome":"Topografia","chave":"topografia","tipo":"lista_dominio","dominio":"topografia"})");
  x.field(ficha, R"({"nome":"Serviços","chave":"servicos","tipo":"multipla","opcoes":["água","luz"]})");
  x.field(ficha, R"({"nome":"Fachada","chave":"fachada","tipo":"foto"})");
  x.field(ficha, R"({"nome":"Dobro","chave":"dobro","tipo":"calculado","formula":"area * 2"})");
  x.field(ficha, R"({"nome":"Desativado","chave":"desativado","tipo":"texto","ativo":false})");
  x.field(velho, R"({"nome":"Velho","chave":"velho","tipo":"texto"})");
  x.field(obra, R"({"nome":"Alvará","chave":"alvara","tipo":"texto"})");
  REQUIRE(post("/formularios/inativar/" + str(velho), "", x.who.owner)->status == 200);
  const std::string path = "/campos/parse-formly/" + str(x.layer);

  auto a = get(path, x.who.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto problems = problems_of(a->body);
  for (const auto& p : problems) FAIL_CHECK(p);
  CHECK(problems.empty());

  simdjson::dom::element fields = a->json();
  // Active fields of active forms, form by form, in order.
  CHECK(test::ids(fields, "key") ==
        "inscricao,obs,pavimentos,area,vistoria,murado,uso,topografia,servicos,fachada,dobro,alvara");
  CHECK(test::ids(fields, "type") ==
        "input,textarea,input,input,datepicker,checkbox,select,select,select,file,input,input");
  simdjson::dom::element inscricao = fields.at(0)["props"];
  CHECK(member(inscricao, "label") == R"("Inscrição")");
  CHECK(member(inscricao, "required") == "true");
  CHECK(member(inscricao, "pattern") == R"("\\d{3}\\.\\d{4}")");
  CHECK(member(inscricao, "maxLength") == "8");
  CHECK(member(inscricao, "description") == R"("como no carnê")");
  CHECK(member(inscricao, "type") == R"("text")");
  simdjson::dom::element pavimentos = fields.at(2)["props"];
  CHECK(member(pavimentos, "type") == R"("number")");
  CHECK(member(pavimentos, "step") == "1");
  CHECK(member(pavimentos, "min") == "1");
  CHECK(member(pavimentos, "max") == "40");
  CHECK(member(fields.at(6)["props"], "options") == R"([{"label":"casa","value":"casa"},{"label":"loja","value":"loja"}])");
  // A domain list's options are its table's codes, labelled by their descriptions.
  simdjson::dom::element topografia = fields.at(7)["props"]["options"];
  CHECK(topografia.get_array().size() == std::stoul(x.db("select count(*) from dominio.topografia")));
  CHECK(member(topografia.at(0), "label") == "\"" + x.db("select descricao from dominio.topografia order by 1 limit 1") + "\"");
  CHECK(member(topografia.at(0), "value") == "\"" + x.db("select codigo from dominio.topografia order by descricao limit 1") + "\"");
  CHECK(member(fields.at(8)["props"], "multiple") == "true");
  CHECK(member(fields.at(9)["props"], "accept") == R"("image/*")");
  CHECK(member(fields.at(10)["props"], "readonly") == "true");
  CHECK(member(fields.at(10)["props"], "description") == R"("calculado: area * 2")");

  // Who may see the layer may see its form.
  CHECK(get(path, x.who.owner)->body == a->body);
  refused(*get(path, x.who.stranger), 404, "nao_encontrado");
  refused(*get(path, x.who.beta), 404, "nao_encontrado");
  refused(*get("/campos/parse-formly/1;drop", x.who.owner), 400, "parametro_invalido", "camada");
  refused(*anonymous(*this, "GET", path), 401, "nao_autenticado");
  x.db("update projeto.camadas set privada = true where id = " + str(x.layer) + " returning 1");
  refused(*get(path, x.who.reader), 404, "nao_encontrado");
  // A layer without active forms is an empty definition.
  CHECK(get("/campos/parse-formly/" + str(x.new_layer("vazia")), x.who.owner)->body == "[]");
}
