package org.metaruntime.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.metaruntime.langchain4j.internal.SchemaMapping;

class SchemaMappingTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonObjectSchema map(String schema) throws Exception {
        return SchemaMapping.parameters(json(schema));
    }

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    @Test
    void everyTypeKeepsItsDescriptionAndObjectsKeepRequiredAndAdditionalProperties() throws Exception {
        JsonObjectSchema mapped = map("{'type':'object','description':'the query','properties':{"
                + "'text':{'type':'string','description':'what to find','title':'Text'},"
                + "'limit':{'type':'integer','description':'at most','default':10},"
                + "'score':{'type':'number'},"
                + "'exact':{'type':'boolean','description':'exact match'},"
                + "'tags':{'type':'array','description':'labels','items':{'type':'string'}},"
                + "'near':{'type':'object','properties':{'lat':{'type':'number'}},'required':['lat'],"
                + "'additionalProperties':true}},"
                + "'required':['text'],'additionalProperties':false}");
        JsonObjectSchema expected = JsonObjectSchema.builder().description("the query")
                .addProperty("text", JsonStringSchema.builder().description("what to find").build())
                .addProperty("limit", JsonIntegerSchema.builder().description("at most").build())
                .addProperty("score", new JsonNumberSchema())
                .addProperty("exact", JsonBooleanSchema.builder().description("exact match").build())
                .addProperty("tags", JsonArraySchema.builder().description("labels").items(new JsonStringSchema()).build())
                .addProperty("near", JsonObjectSchema.builder().addProperty("lat", new JsonNumberSchema())
                        .required("lat").additionalProperties(true).build())
                .required("text").additionalProperties(false).build();
        assertThat(mapped).isEqualTo(expected);
    }

    @Test
    void enumValuesBecomeStrings() throws Exception {
        JsonObjectSchema mapped = map("{'type':'object','properties':{"
                + "'unit':{'type':'string','enum':['C','F'],'description':'scale'},"
                + "'level':{'enum':[1,2,true]}}}");
        assertThat(mapped.properties().get("unit"))
                .isEqualTo(JsonEnumSchema.builder().enumValues("C", "F").description("scale").build());
        assertThat(mapped.properties().get("level")).isEqualTo(JsonEnumSchema.builder().enumValues("1", "2", "true").build());
    }

    @Test
    void anyOfAndTypeListsBecomeAnyOf() throws Exception {
        JsonObjectSchema mapped = map("{'type':'object','properties':{"
                + "'when':{'description':'a date or nothing','anyOf':[{'type':'string'},{'type':'null'}]},"
                + "'id':{'type':['integer','null']}}}");
        assertThat(mapped.properties().get("when")).isEqualTo(JsonAnyOfSchema.builder().description("a date or nothing")
                .anyOf(new JsonStringSchema(), new JsonNullSchema()).build());
        assertThat(mapped.properties().get("id")).isEqualTo(JsonAnyOfSchema.builder()
                .anyOf(new JsonIntegerSchema(), new JsonNullSchema()).build());
    }

    @Test
    void referencesIntoDefsKeepTheDefinitions() throws Exception {
        JsonObjectSchema mapped = map("{'type':'object','properties':{'from':{'$ref':'#/$defs/Point'},"
                + "'path':{'type':'array','items':{'$ref':'#/$defs/Point'}}},"
                + "'$defs':{'Point':{'type':'object','properties':{'x':{'type':'number'},"
                + "'next':{'anyOf':[{'$ref':'#/$defs/Point'},{'type':'null'}]}}}}}");
        JsonReferenceSchema point = JsonReferenceSchema.builder().reference("Point").build();
        assertThat(mapped.properties().get("from")).isEqualTo(point);
        assertThat(mapped.properties().get("path")).isEqualTo(JsonArraySchema.builder().items(point).build());
        assertThat(mapped.definitions()).containsOnlyKeys("Point");
        assertThat(((JsonObjectSchema) mapped.definitions().get("Point")).properties().get("next"))
                .isEqualTo(JsonAnyOfSchema.builder().anyOf(point, new JsonNullSchema()).build());
    }

    @Test
    void anEmptyOrAbsentSchemaIsAnObjectWithoutParameters() throws Exception {
        assertThat(map("{'type':'object'}")).isEqualTo(JsonObjectSchema.builder().build());
        assertThat(SchemaMapping.parameters((Map<String, Object>) null)).isEqualTo(JsonObjectSchema.builder().build());
        assertThat(SchemaMapping.parameters(Map.of("type", "object", "properties",
                Map.of("q", Map.of("type", "string"))))).isEqualTo(JsonObjectSchema.builder()
                .addProperty("q", new JsonStringSchema()).build());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{'type':'object','properties':{'n':{'type':'integer','minimum':0}}}                 | inputSchema.properties.n.minimum",
        "{'type':'object','properties':{'s':{'type':'string','pattern':'^a'}}}               | inputSchema.properties.s.pattern",
        "{'type':'object','properties':{'s':{'type':'string','format':'date'}}}              | inputSchema.properties.s.format",
        "{'type':'object','properties':{'x':{'oneOf':[{'type':'string'},{'type':'integer'}]}}} | inputSchema.properties.x",
        "{'type':'object','properties':{'x':{}}}                                             | inputSchema.properties.x",
        "{'type':'object','properties':{'r':{'$ref':'https://example.com/schema'}}}          | inputSchema.properties.r.$ref",
        "{'type':'object','properties':{'r':{'$ref':'#/$defs/Missing'}}}                     | inputSchema.properties.r.$ref",
        "{'type':'object','additionalProperties':{'type':'string'}}                           | inputSchema.additionalProperties",
        "{'type':'object','properties':{'a':{'type':'array'}}}                               | inputSchema.properties.a",
        "{'type':'array','items':{'type':'string'}}                                          | inputSchema.type",
        "{'type':'object','patternProperties':{'^x':{'type':'string'}}}                       | inputSchema.patternProperties",
        "{'type':'object','properties':{'o':{'type':'object','$defs':{}}}}                    | inputSchema.properties.o.$defs",
    })
    void aSchemaWithAPartLangchain4jCannotExpressIsRefusedNamingThePart(String schema, String part) {
        assertThatThrownBy(() -> map(schema)).isInstanceOf(SchemaMapping.NotExpressible.class)
                .hasMessageStartingWith(part + ":");
    }
}
