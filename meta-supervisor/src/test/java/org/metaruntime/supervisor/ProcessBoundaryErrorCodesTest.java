package org.metaruntime.supervisor;

import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ErrorCodeTable;

class ProcessBoundaryErrorCodesTest {

    @Test
    void everyRecordHasItsOwnCode() {
        ErrorCodeTable.assertWhole(ProcessBoundaryError.class, ProcessBoundaryErrorCodes.BY_RECORD);
    }
}
