package io.sluice.broker.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * JSON documents of the status endpoints, written and copied with Jackson's streaming generator and parser (no
 * object mapping: every document is written field by field by its owner).
 *
 * <p>Thread-safe: the factory is shared; each call makes its own generator or parser.
 */
final class JsonBody {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /** Writes one JSON document. */
    @FunctionalInterface
    interface Writer {
        void write(JsonGenerator json) throws IOException;
    }

    private JsonBody() {}

    static byte[] of(Writer writer) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            writer.write(json);
        }
        return out.toByteArray();
    }

    /**
     * Writes field {@code field} with the single JSON value in {@code document} as its value, checked first.
     *
     * @throws IOException when {@code document} is not exactly one well-formed JSON value (nothing is written then)
     */
    static void copyField(String field, byte[] document, JsonGenerator json) throws IOException {
        try (JsonParser check = FACTORY.createParser(document)) {
            if (check.nextToken() == null) {
                throw new IOException("empty document");
            }
            check.skipChildren();
            if (check.nextToken() != null) {
                throw new IOException("trailing data after the JSON value");
            }
        }
        json.writeFieldName(field);
        try (JsonParser parser = FACTORY.createParser(document)) {
            parser.nextToken();
            json.copyCurrentStructure(parser);
        }
    }
}
