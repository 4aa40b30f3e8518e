package io.sluice.codec.message;

import java.util.ArrayList;
import java.util.Map;

/**
 * Progress of one message being read at one nesting level. Not thread-safe; owned by one {@link MessageReader}.
 */
final class ReaderFrame {
    /** 0: type id pending, 1: version pending, 2: fields. */
    int headerPhase;

    int typeId;
    int version;
    Message message;
    int state;
    boolean childInProgress;
    /** 0: size pending, 1: elements. */
    int containerPhase;

    int containerSize;
    ArrayList<Object> list;
    Map<Object, Object> map;
    Object key;
    /** 0: key pending, 1: value pending. */
    int entryPhase;

    void reset() {
        headerPhase = 0;
        typeId = 0;
        version = 0;
        message = null;
        state = 0;
        childInProgress = false;
        containerPhase = 0;
        containerSize = 0;
        list = null;
        map = null;
        key = null;
        entryPhase = 0;
    }
}
