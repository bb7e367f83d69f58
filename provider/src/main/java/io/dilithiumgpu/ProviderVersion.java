package io.dilithiumgpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The provider's version as the build wrote it ({@code io/dilithiumgpu/version.properties}, filtered
 * from the POM's version), so that {@link DilithiumGpuProvider#getVersionStr()} and the artifact
 * never disagree.
 */
final class ProviderVersion {
    static final String RESOURCE = "version.properties";

    private ProviderVersion() {}

    /**
     * The version string, such as {@code 0.2.0} or {@code 0.3.0-SNAPSHOT}.
     *
     * @throws IllegalStateException when the resource is missing or unfiltered: the classes were
     *                               not built by Maven
     */
    static String read() {
        try (InputStream in = ProviderVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("io/dilithiumgpu/" + RESOURCE + " is missing: build with Maven");
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            if (v.isEmpty() || v.contains("${")) {
                throw new IllegalStateException("io/dilithiumgpu/" + RESOURCE + " was not filtered: " + v);
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
