package io.kaas.cluster.files.internal;

import io.kaas.api.cluster.ClusterStateException;
import java.nio.file.Path;

/**
 * A second broker process for {@link DirectoryLockProcessTest}: opens the files store in {@code args[0]} as broker
 * {@code args[1]}. With {@code hold}, prints "holding" once open and keeps the store open until its standard input
 * ends; with {@code try}, prints "opened" and closes. A refused open prints the exception's message on standard error
 * and exits with 2.
 */
public final class LockingBrokerMain {
    private LockingBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        boolean hold = args[2].equals("hold");
        FileClusterStore store;
        try {
            store = FileClusterStore.open(dir, nodeId);
        } catch (ClusterStateException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        try (store) {
            System.out.println(hold ? "holding" : "opened");
            System.out.flush();
            if (hold) {
                while (System.in.read() >= 0) {
                    // hold until the parent closes our input
                }
            }
        }
    }
}
