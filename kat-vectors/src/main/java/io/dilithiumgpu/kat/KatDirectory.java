package io.dilithiumgpu.kat;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the known-answer vectors live: the system property {@value #PROPERTY} (the parent POM's
 * surefire configuration sets it), or else {@code ../shared/kat-vectors} next to the repository
 * root that holds the working directory.
 *
 * <p>The vectors are required. A missing directory is an error, never a reason to skip.
 */
public final class KatDirectory {
    /** System property naming the vector directory. */
    public static final String PROPERTY = "kat.dir";
    /** The fallback location, relative to the repository root. */
    public static final String FALLBACK = "../shared/kat-vectors";

    private KatDirectory() {}

    /**
     * The vector directory for this JVM.
     *
     * @throws KatDataException if it does not exist or holds no {@code SHA256SUMS}
     */
    public static Path locate() {
        return locate(System.getProperty(PROPERTY), Path.of(System.getProperty("user.dir")));
    }

    /**
     * The vector directory given the property's value (null or blank when unset) and the working
     * directory.
     *
     * @throws KatDataException if it does not exist or holds no {@code SHA256SUMS}
     */
    static Path locate(String property, Path workingDirectory) {
        Path dir;
        String origin;
        if (property != null && !property.isBlank()) {
            dir = Path.of(property);
            origin = "system property " + PROPERTY;
        } else {
            Path root = repositoryRoot(workingDirectory.toAbsolutePath());
            dir = root.resolve(FALLBACK);
            origin = FALLBACK + " from the repository root " + root;
        }
        dir = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new KatDataException("known-answer vectors not found: " + dir + " (" + origin
                    + ") is not a directory; set -D" + PROPERTY + "=<dir> or provide " + FALLBACK);
        }
        if (!Files.isRegularFile(dir.resolve(KatFiles.SUMS))) {
            throw new KatDataException("known-answer vectors incomplete: " + dir + " (" + origin
                    + ") has no " + KatFiles.SUMS);
        }
        return dir;
    }

    /**
     * The nearest ancestor of {@code start} (itself included) laid out as this repository's root:
     * a {@code pom.xml} beside a {@code kat-vectors/pom.xml}. {@code start} itself when none is.
     */
    static Path repositoryRoot(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml"))
                    && Files.isRegularFile(dir.resolve("kat-vectors").resolve("pom.xml"))) {
                return dir;
            }
        }
        return start;
    }
}
