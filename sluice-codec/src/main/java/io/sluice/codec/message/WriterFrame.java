package io.sluice.codec.message;

import java.util.Iterator;
import java.util.Map;

/**
 * Progress of one message being written at one nesting level. Not thread-safe; owned by one {@link MessageWriter}.
 */
final class WriterFrame {
    /** 0: type id pending, 1: version pending, 2: fields. */
    int headerPhase;
    /** Index of the next field of the message. */
    int state;
    /** A nested message written from this frame returned unfinished; its frame above holds its progress. */
    boolean childInProgress;
    /** 0: size of the current list/map pending, 1: elements. */
    int containerPhase;

    int containerIndex;
    Iterator<? extends Map.Entry<?, ?>> entries;
    Map.Entry<?, ?> entry;
    /** 0: key of {@link #entry} pending, 1: value pending. */
    int entryPhase;

    void reset() {
        headerPhase = 0;
        state = 0;
        childInProgress = false;
        containerPhase = 0;
        containerIndex = 0;
        entries = null;
        entry = null;
        entryPhase = 0;
    }
}
