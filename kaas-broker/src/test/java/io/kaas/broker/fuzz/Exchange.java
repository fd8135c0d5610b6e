package io.kaas.broker.fuzz;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One fuzz exchange on a connection of its own: bytes sent, then either an ApiVersions "ping" (the connection must
 * answer it, after whatever it answers first, or be closed) or a half-close (the connection must be closed). Every
 * read is bounded: a broker that neither answers nor closes within the timeout fails the exchange as a hang.
 */
final class Exchange {

    /** The correlation id of the ping; fuzzed requests use others. */
    static final int PING = 0x7eadbeef;
    /** The largest response frame accepted from the broker. */
    private static final int MAX_RESPONSE = 64 << 20;

    /** What came back: the correlation ids of the frames read before the ping's answer, and how it ended. */
    record Outcome(List<Integer> answered, boolean pinged, boolean closed) {
    }

    private Exchange() {
    }

    /** Sends {@code bytes} then a ping; returns once the ping is answered or the connection closed. */
    static Outcome withPing(int port, byte[] bytes, int timeoutMs) throws IOException {
        return run(port, bytes, true, timeoutMs);
    }

    /** Sends {@code bytes} then half-closes; returns once the broker closes the connection. */
    static Outcome halfClosed(int port, byte[] bytes, int timeoutMs) throws IOException {
        return run(port, bytes, false, timeoutMs);
    }

    private static Outcome run(int port, byte[] bytes, boolean ping, int timeoutMs) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(timeoutMs);
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            try {
                socket.getOutputStream().write(bytes);
                if (ping) {
                    socket.getOutputStream().write(pingFrame());
                } else {
                    socket.shutdownOutput();
                }
                socket.getOutputStream().flush();
            } catch (SocketException e) {
                return new Outcome(List.of(), false, true); // closed by the broker while we wrote
            }
            List<Integer> answered = new ArrayList<>();
            long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
            while (true) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("hang: neither answered nor closed within " + timeoutMs + " ms, after "
                        + answered.size() + " responses");
                }
                int size;
                try {
                    size = in.readInt();
                } catch (EOFException | SocketException e) {
                    return new Outcome(answered, false, true);
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("hang: neither answered nor closed within " + timeoutMs + " ms, after "
                        + answered.size() + " responses");
                }
                if (size < 4 || size > MAX_RESPONSE) {
                    throw new AssertionError("malformed response frame of size " + size);
                }
                byte[] frame = new byte[size];
                try {
                    in.readFully(frame);
                } catch (EOFException | SocketException e) {
                    if (!ping) {
                        // Closed at the client's EOF while a response was on its way: Kafka drops it as well.
                        return new Outcome(answered, false, true);
                    }
                    throw new AssertionError("response frame cut short by the close: " + e);
                }
                int correlationId = ByteBuffer.wrap(frame).getInt();
                if (correlationId == PING) {
                    return new Outcome(answered, true, false);
                }
                answered.add(correlationId);
            }
        }
    }

    /** ApiVersions v3 (header v2, flexible body: client software name and version). */
    static byte[] pingFrame() {
        RandomRequests.Out b = new RandomRequests.Out();
        b.int16(18);
        b.int16(3);
        b.int32(PING);
        b.string("fuzz-ping", false);
        b.uvarint(0);
        b.string("fuzz", true);
        b.string("1.0", true);
        b.uvarint(0);
        byte[] body = b.toByteArray();
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }
}
