package io.sluice.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * A stand-in {@code sluice-cli} build whose jar holds only {@link FakeBrokerMain}, for testing the process harness
 * without a real broker.
 *
 * <p>Thread-safe; stateless.
 */
public final class FakeBrokerDistribution {

    private FakeBrokerDistribution() {}

    /** Writes the jar and an empty lib directory under {@code cliDir}. */
    public static SluiceCliDistribution packageInto(Path cliDir) throws IOException, URISyntaxException {
        Files.createDirectories(cliDir.resolve(SluiceCliDistribution.LIB_DIR));
        String classFile = FakeBrokerMain.class.getName().replace('.', '/') + ".class";
        Path compiled = Path.of(FakeBrokerMain.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .resolve(classFile);
        try (OutputStream file = Files.newOutputStream(cliDir.resolve(SluiceCliDistribution.CLI_JAR));
                JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry(classFile));
            jar.write(Files.readAllBytes(compiled));
            jar.closeEntry();
        }
        return new SluiceCliDistribution(cliDir, FakeBrokerMain.class.getName());
    }
}
