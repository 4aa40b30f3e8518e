package io.sluice.record.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

class KafkaErrorCodesTest {

    @Test
    void shouldMatchKafkasErrorsEnum() {
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), KafkaErrorCodes.UNKNOWN_SERVER_ERROR);
        assertEquals(Errors.NONE.code(), KafkaErrorCodes.NONE);
        assertEquals(Errors.CORRUPT_MESSAGE.code(), KafkaErrorCodes.CORRUPT_MESSAGE);
        assertEquals(Errors.MESSAGE_TOO_LARGE.code(), KafkaErrorCodes.MESSAGE_TOO_LARGE);
        assertEquals(Errors.INVALID_TIMESTAMP.code(), KafkaErrorCodes.INVALID_TIMESTAMP);
        assertEquals(Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT.code(), KafkaErrorCodes.UNSUPPORTED_FOR_MESSAGE_FORMAT);
        assertEquals(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code(), KafkaErrorCodes.OUT_OF_ORDER_SEQUENCE_NUMBER);
        assertEquals(Errors.DUPLICATE_SEQUENCE_NUMBER.code(), KafkaErrorCodes.DUPLICATE_SEQUENCE_NUMBER);
        assertEquals(Errors.INVALID_PRODUCER_EPOCH.code(), KafkaErrorCodes.INVALID_PRODUCER_EPOCH);
        assertEquals(Errors.UNSUPPORTED_COMPRESSION_TYPE.code(), KafkaErrorCodes.UNSUPPORTED_COMPRESSION_TYPE);
        assertEquals(Errors.INVALID_RECORD.code(), KafkaErrorCodes.INVALID_RECORD);
    }
}
