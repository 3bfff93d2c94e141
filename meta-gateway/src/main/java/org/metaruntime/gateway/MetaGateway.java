package org.metaruntime.gateway;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.manifest.PodManifest;

/**
 * One MCP server for every pod of a set of manifests. Build it from manifest folders (and optionally a
 * Claude Desktop config); {@link Builder#validate()} checks them without starting anything.
 * Thread-safe.
 *
 * <pre>{@code
 * ValidationReport report = MetaGateway.builder()
 *         .manifests(Path.of("examples/manifests"))
 *         .validate();
 * report.lines().forEach(System.out::println);      // ... ok: 4 pods, 6 tools
 * }</pre>
 */
public final class MetaGateway {

    private final Catalog catalog;
    private final GatewayOptions options;

    private MetaGateway(Catalog catalog, GatewayOptions options) {
        this.catalog = catalog;
        this.options = options;
    }

    /** A builder without manifests. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options it was built with. */
    public GatewayOptions options() {
        return options;
    }

    /** The names of its pods, in name order. */
    public List<String> pods() {
        return catalog.pods().stream().map(PodManifest::name).toList();
    }

    static ValidationReport report(Catalog catalog) {
        Map<String, String> hashes = new LinkedHashMap<>();
        for (PodManifest pod : catalog.pods()) {
            for (DeclaredTool tool : pod.tools()) {
                hashes.put(Names.outward(pod.name(), catalog.separator(), tool.name()), tool.schemaHash());
            }
        }
        return new ValidationReport(catalog.problems(), catalog.pods().size(), catalog.declaredTools(), hashes);
    }

    /** Builds a {@link MetaGateway}. Not thread-safe. */
    public static final class Builder {
        private final List<Path> folders = new ArrayList<>();
        private Path claudeConfig;
        private GatewayOptions options = GatewayOptions.defaults();

        private Builder() {
        }

        /** Adds manifest folders: every {@code *.yaml} and {@code *.yml} file in each is one pod. */
        public Builder manifests(Path... folders) {
            for (Path folder : folders) {
                this.folders.add(Objects.requireNonNull(folder, "folder"));
            }
            return this;
        }

        /** Adds the servers of a Claude Desktop config file ({@code mcpServers}) as pods. */
        public Builder claudeConfig(Path file) {
            this.claudeConfig = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Sets the options. */
        public Builder options(GatewayOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** Checks every manifest and the config; starts nothing. */
        public ValidationReport validate() {
            return report(catalog());
        }

        /**
         * Reads and checks the manifests; starts nothing.
         *
         * @throws ManifestException with every problem when one is invalid
         */
        public MetaGateway build() {
            Catalog catalog = catalog();
            if (!catalog.problems().isEmpty()) {
                throw new ManifestException(catalog.problems());
            }
            return new MetaGateway(catalog, options);
        }

        private Catalog catalog() {
            if (folders.isEmpty() && claudeConfig == null) {
                throw new IllegalStateException("give manifest folders or a Claude Desktop config");
            }
            return Catalog.load(folders, claudeConfig, options.separator());
        }
    }
}
