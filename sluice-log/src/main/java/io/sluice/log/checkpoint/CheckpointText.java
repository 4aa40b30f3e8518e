package io.sluice.log.checkpoint;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Kafka's checkpoint text files ({@link OffsetCheckpointFile}, {@code LeaderEpochCache}) share: the whole text
 * written durably ({@link #write}: temporary file, fsync, atomic rename, directory fsync), and read back line by line
 * ({@link #open}): UTF-8, {@code '\n'} line ends, lines of bounded length, a version line, non-negative numbers, every
 * problem a {@link CorruptCheckpointException} naming the file and the line.
 *
 * <p>Not thread-safe; one instance per read of a file. {@link #write} is stateless; callers serialize the writers of
 * one file.
 */
public final class CheckpointText implements Closeable {
    private final Path file;
    private final BufferedReader reader;
    private final int maxLineChars;
    /** Number of the line the last {@link #nextLine()} read (or found missing); 0 before the first. */
    private int lineNumber;

    private CheckpointText(Path file, BufferedReader reader, int maxLineChars) {
        this.file = file;
        this.reader = reader;
        this.maxLineChars = maxLineChars;
    }

    /**
     * Replaces {@code file} with {@code text} in UTF-8 (a string that is not valid UTF-16 is refused before anything is
     * written), so that a reader sees the old or the new file whole, and makes the rename durable.
     */
    public static void write(Path file, CharSequence text) throws IOException {
        AtomicFile.write(file, StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(text)));
        AtomicFile.fsyncDirectory(file.getParent());
    }

    /**
     * Opens {@code file} (which must exist) for reading lines of at most {@code maxLineChars} characters. A last line
     * without its line end is refused as cut off.
     */
    public static CheckpointText open(Path file, int maxLineChars) throws IOException {
        BufferedReader reader = new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()));
        return new CheckpointText(file, reader, maxLineChars);
    }

    /** Reads the first line and checks that it is {@code version}. */
    public void expectVersion(int version) throws IOException {
        String line = nextLine();
        if (line == null || !line.equals(Integer.toString(version))) {
            throw corrupt("version '" + line + "' is not " + version);
        }
    }

    /** The next line without its line end, or null at the end of the file. */
    public String nextLine() throws IOException {
        lineNumber++;
        StringBuilder line = new StringBuilder();
        try {
            int c;
            while ((c = reader.read()) >= 0) {
                if (c == '\n') {
                    return line.toString();
                }
                if (line.length() >= maxLineChars) {
                    throw corrupt("line longer than " + maxLineChars + " characters");
                }
                line.append((char) c);
            }
        } catch (CharacterCodingException e) {
            throw new CorruptCheckpointException(file, 0, "not UTF-8 text");
        }
        if (line.length() == 0) {
            return null;
        }
        // every line is written with its line end, and the file replaced whole: a line without one was cut off
        // (a cut number would otherwise read as a smaller, valid offset)
        throw corrupt("line cut off before its line end: '" + line + "'");
    }

    /** Number of the line the last {@link #nextLine()} read, or found missing. */
    public int lineNumber() {
        return lineNumber;
    }

    /** {@code text}, a {@code field} of the current line, as a non-negative number. */
    public long nonNegative(String text, String field) throws CorruptCheckpointException {
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw corrupt(field + " " + value + " is negative");
            }
            return value;
        } catch (NumberFormatException e) {
            throw corrupt(field + " '" + text + "' is not a number");
        }
    }

    /** A failure of the current line. */
    public CorruptCheckpointException corrupt(String problem) {
        return new CorruptCheckpointException(file, lineNumber, problem);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
