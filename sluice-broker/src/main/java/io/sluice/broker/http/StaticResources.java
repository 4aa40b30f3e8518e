package io.sluice.broker.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The status page's files, read once from the jar ({@code io/sluice/broker/http/status/}) and served by exact path
 * only: nothing from the request ever names a file, so no path can reach anything else.
 *
 * <p>Immutable after construction; thread-safe.
 */
final class StaticResources {
    private static final String RESOURCE_DIR = "status/";

    /** A file as served: its bytes and content type. */
    record Resource(byte[] bytes, String contentType) {}

    private final Map<String, Resource> byPath;

    StaticResources() {
        Resource page = load("index.html", "text/html; charset=utf-8");
        this.byPath = Map.of(
                "/",
                page,
                "/index.html",
                page,
                "/static/status.css",
                load("status.css", "text/css; charset=utf-8"),
                "/static/status.js",
                load("status.js", "text/javascript; charset=utf-8"));
    }

    /** The file served at {@code path}, or null. */
    Resource find(String path) {
        return byPath.get(path);
    }

    private static Resource load(String name, String contentType) {
        try (InputStream in = StaticResources.class.getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("status page file " + RESOURCE_DIR + name + " is missing from the jar");
            }
            return new Resource(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read status page file " + name, e);
        }
    }
}
