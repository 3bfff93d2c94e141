package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.manifest.CanonicalJson;

/** RFC 8785 serialisation, checked against the RFC's own examples. */
class CanonicalJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String canonical(String json) throws Exception {
        return CanonicalJson.write(JSON.readTree(json));
    }

    @Test
    void numbersAreWrittenTheEcmaScriptWay() throws Exception {
        // RFC 8785 appendix B and section 3.2.2.3.
        assertThat(canonical("[0, -0, 1, -1, 1.0, 100, 1e21, 1e20, 1e-7, 1e-6, 0.000001, 1E23, 4.50, 2e-3, 9007199254740992]"))
                .isEqualTo("[0,0,1,-1,1,100,1e+21,100000000000000000000,1e-7,0.000001,0.000001,1e+23,4.5,0.002,9007199254740992]");
        assertThat(canonical("[333333333.33333329, 5e-324, 1.7976931348623157e308, 295147905179352830000, -1.0E-15]"))
                .isEqualTo("[333333333.3333333,5e-324,1.7976931348623157e+308,295147905179352830000,-1e-15]");
    }

    @Test
    void keysAreSortedAndStringsEscapedMinimally() throws Exception {
        assertThat(canonical("{\"b\": [1, {\"z\": true, \"a\": null}], \"a\": \"日本語 🎉\\n\\u0001\\\"\"}"))
                .isEqualTo("{\"a\":\"日本語 🎉\\n\\u0001\\\"\",\"b\":[1,{\"a\":null,\"z\":true}]}");
    }

    @Test
    void theRfcsSortingExample() throws Exception {
        String input = "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\", \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\","
                + " \"1\": \"One\", \"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\","
                + " \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}";
        assertThat(canonical(input)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    }

    @Test
    void theSchemaHashIsTheSha256OfTheCanonicalForm() throws Exception {
        // printf '%s' '{"type":"object"}' | sha256sum
        assertThat(CanonicalJson.schemaHash(JSON.readTree("{ \"type\" : \"object\" }")))
                .isEqualTo("sha256:a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0");
    }
}
