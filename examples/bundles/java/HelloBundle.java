import org.metaruntime.module.ModuleServer;
import org.metaruntime.module.Tool;
import org.metaruntime.module.ToolException;

/**
 * hello: a tools bundle in Java, on the meta-module SDK. Compile it against meta-module and Jackson
 * ({@code javac -cp <meta-module.jar>:<jackson jars> -d out HelloBundle.java}) and run it with the same class path.
 *
 * <pre>
 * hello {name}   "Hello, &lt;name&gt;! (from Java)"
 * </pre>
 */
public final class HelloBundle {

    private HelloBundle() {
    }

    public static void main(String[] args) {
        ModuleServer.builder("hello-java")
                .tool(Tool.of("hello", "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}")
                        .withDescription("Greets someone by name (Java)."), arguments -> {
                            if (!arguments.path("name").isTextual()) {
                                throw new ToolException("'name' must be a string");
                            }
                            return "Hello, " + arguments.path("name").asText() + "! (from Java)";
                        })
                .build()
                .serve();
    }
}
