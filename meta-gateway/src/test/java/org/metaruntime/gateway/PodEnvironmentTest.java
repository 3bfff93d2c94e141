package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A pod's {@code env} from its manifest, with {@code ${NAME}} taken from the gateway's environment. Real process. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PodEnvironmentTest {

    /** Answers every tools/call with the values of the environment variables named in its arguments' {@code names}. */
    static final String ENV_POD = "[\"python3\", \"-c\", \"import sys, json, os\\nfor line in sys.stdin:\\n"
            + "  m = json.loads(line)\\n  if m.get('method') == 'tools/call': print(json.dumps({'jsonrpc': '2.0', 'id': m['id'],"
            + " 'result': {n: os.environ.get(n) for n in m['params']['arguments']['names']}}), flush=True)\"]";

    @RegisterExtension
    final EmbeddedGateway gateway = new EmbeddedGateway();

    @Test
    void envValuesGetTheGatewaysVariablesAndPlainValuesStayAsWritten() throws Exception {
        Repo.tool("python3");
        gateway.pod("env", """
                command: %s
                protocol: jsonrpc
                env:
                  SEARCH_PATH: "${PATH}:/opt/search"
                  PLAIN: "costs $5, {not} a ${ variable"
                  RETRIES: 3
                tools:
                  - name: show
                    inputSchema: { type: object }
                """.formatted(ENV_POD));
        PipedGateway client = gateway.piped();
        JsonNode shown = client.call("env__show", "{\"names\": [\"SEARCH_PATH\", \"PLAIN\", \"RETRIES\"]}")
                .at("/result/structuredContent");
        assertThat(shown.path("SEARCH_PATH").asText()).as(shown.toString()).isEqualTo(System.getenv("PATH") + ":/opt/search");
        assertThat(shown.path("PLAIN").asText()).isEqualTo("costs $5, {not} a ${ variable");
        assertThat(shown.path("RETRIES").asText()).isEqualTo("3");
    }
}
