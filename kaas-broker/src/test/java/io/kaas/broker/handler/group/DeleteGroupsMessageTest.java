package io.kaas.broker.handler.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.wire.protocol.Errors;
import org.junit.jupiter.api.Test;

/** DeleteGroups v3's per-group error message: null for the group's own state, a cause naming it otherwise. */
class DeleteGroupsMessageTest {

    @Test
    void theGroupsOwnStateHasNoMessage() {
        for (short code : new short[] {Errors.NONE, Errors.NON_EMPTY_GROUP, Errors.GROUP_ID_NOT_FOUND,
                Errors.GROUP_AUTHORIZATION_FAILED, Errors.INVALID_GROUP_ID}) {
            assertThat(DeleteGroupsHandler.message("g", code)).as("code %d", code).isNull();
        }
    }

    @Test
    void aFailedDeletionSaysWhyAndNamesTheGroup() {
        assertThat(DeleteGroupsHandler.message("orders", Errors.NOT_COORDINATOR))
                .isEqualTo("This broker is not the coordinator of group orders.");
        assertThat(DeleteGroupsHandler.message("orders", Errors.COORDINATOR_NOT_AVAILABLE)).contains("orders");
        assertThat(DeleteGroupsHandler.message("orders", Errors.COORDINATOR_LOAD_IN_PROGRESS)).contains("orders");
        assertThat(DeleteGroupsHandler.message("orders", Errors.KAFKA_STORAGE_ERROR))
                .startsWith("Deleting group orders failed");
    }
}
