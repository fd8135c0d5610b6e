package io.kaas.api.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InvalidRecordExceptionTest {
    @Test
    void forRecordsCountsTheRecordsAndQuotesTheFirstThreeAsKafkaDoes() {
        List<InvalidRecordException.RecordError> errors = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            errors.add(new InvalidRecordException.RecordError(i * 2, "bad " + i));
        }
        InvalidRecordException e = InvalidRecordException.forRecords(errors);
        assertThat(e).hasMessage("One or more records have been rejected due to 5 record errors in total, and only "
                + "showing the first three errors at most: [RecordError(batchIndex=0, message='bad 0'), "
                + "RecordError(batchIndex=2, message='bad 1'), RecordError(batchIndex=4, message='bad 2')]");
        errors.clear();
        assertThat(e.recordErrors()).as("a copy").extracting(InvalidRecordException.RecordError::batchIndex)
                .containsExactly(0, 2, 4, 6, 8);
        assertThat(new InvalidRecordException.RecordError(3, null)).hasToString("RecordError(batchIndex=3, message=null)");
    }

    @Test
    void aWholeBatchRefusalNamesNoRecord() {
        assertThat(new InvalidRecordException("no").recordErrors()).isEmpty();
        assertThat(new InvalidRecordException("no", new RuntimeException()).recordErrors()).isEmpty();
    }

    @Test
    void badRecordErrorsAreRefused() {
        assertThatThrownBy(() -> InvalidRecordException.forRecords(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InvalidRecordException.RecordError(-1, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new InvalidRecordException("x", (List<InvalidRecordException.RecordError>) null))
                .isInstanceOf(NullPointerException.class);
    }
}
