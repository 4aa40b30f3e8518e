package io.sluice.cluster.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {

    @Test
    void shouldKeepTheControllerRetryDelayGivenAndRefuseNone() {
        ClusterConfig defaults = ClusterConfig.defaults();
        assertEquals(Duration.ofMillis(500), defaults.controllerRetryDelay());

        ClusterConfig given = defaults.withControllerRetryDelay(Duration.ofMillis(40));
        assertEquals(Duration.ofMillis(40), given.controllerRetryDelay());
        assertEquals(defaults.sessionTimeout(), given.sessionTimeout(), "the other values are kept");

        assertThrows(IllegalArgumentException.class, () -> defaults.withControllerRetryDelay(Duration.ZERO));
    }
}
