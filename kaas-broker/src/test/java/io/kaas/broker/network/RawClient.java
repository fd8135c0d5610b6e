package io.kaas.broker.network;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.RequestHeaderData;
import io.kaas.wire.protocol.ApiMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/** A blocking Kafka-protocol client over a plain socket, for bad-input tests. Every read has a timeout. */
public final class RawClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;

    public RawClient(int port) throws IOException {
        this(port, null);
    }

    /** A client connecting from {@code localAddress} (e.g. 127.0.0.2, another loopback address), or any when null. */
    public RawClient(int port, String localAddress) throws IOException {
        this(port, localAddress, -1);
    }

    /**
     * A client connecting from {@code localAddress} (or any when null) with SO_RCVBUF {@code receiveBufferBytes}
     * (the OS default when negative), set before connecting so the kernel's window stays that small.
     */
    public RawClient(int port, String localAddress, int receiveBufferBytes) throws IOException {
        socket = new Socket();
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        if (localAddress != null) {
            socket.bind(new java.net.InetSocketAddress(localAddress, 0));
        }
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
    }

    public void sendBytes(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Sends a well-formed request frame. */
    public void send(ApiMessageType api, short version, int correlationId, ApiMessage body) throws IOException {
        sendBytes(frame(api, version, correlationId, body));
    }

    public static byte[] frame(ApiMessageType api, short version, int correlationId, ApiMessage body) {
        short headerVersion = api.requestHeaderVersion(version);
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.apiKey())
            .setRequestApiVersion(version).setCorrelationId(correlationId).setClientId("raw-client");
        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeInt(header.size(headerVersion) + body.size(version));
            header.write(buf, headerVersion);
            body.write(buf, version);
            byte[] out = new byte[buf.readableBytes()];
            buf.readBytes(out);
            return out;
        } finally {
            buf.release();
        }
    }

    /** Reads one response frame (without its size prefix). */
    public ByteBuffer readFrame() throws IOException {
        int size = in.readInt();
        byte[] body = new byte[size];
        in.readFully(body);
        return ByteBuffer.wrap(body);
    }

    /** Reads an ApiVersions response (header v0); returns the correlation id and body. */
    public Response<ApiVersionsResponseData> readApiVersions(short version) throws IOException {
        ByteBuffer frame = readFrame();
        int correlationId = frame.getInt();
        ByteBuf rest = Unpooled.wrappedBuffer(frame);
        return new Response<>(correlationId, new ApiVersionsResponseData(rest, version));
    }

    /** Reads a response with a flexible (v1) or non-flexible (v0) header. */
    public <T extends ApiMessage> Response<T> read(ApiMessageType api, short version) throws IOException {
        ByteBuffer frame = readFrame();
        int correlationId = frame.getInt();
        if (api.responseHeaderVersion(version) >= 1) {
            int taggedFields = frame.get();
            if (taggedFields != 0) {
                throw new IOException("unexpected tagged fields in response header");
            }
        }
        @SuppressWarnings("unchecked")
        T body = (T) api.newResponse();
        body.read(Unpooled.wrappedBuffer(frame), version);
        return new Response<>(correlationId, body);
    }

    /** ApiVersions round trip at {@code version}. */
    public ApiVersionsResponseData apiVersions(short version, int correlationId) throws IOException {
        send(ApiMessageType.API_VERSIONS, version, correlationId,
            new ApiVersionsRequestData().setClientSoftwareName("raw-client").setClientSoftwareVersion("1.0"));
        Response<ApiVersionsResponseData> r = readApiVersions(version);
        if (r.correlationId() != correlationId) {
            throw new IOException("correlation id " + r.correlationId() + " != " + correlationId);
        }
        return r.body();
    }

    /** True when the server closes the connection within the read timeout, discarding anything sent before. */
    public boolean closedByServer() throws IOException {
        try {
            byte[] buf = new byte[4096];
            for (int i = 0; i < 10_000; i++) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
            return false;
        } catch (EOFException | SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    /** Sets the timeout of every later read (5 s by default). */
    public RawClient readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
        return this;
    }

    /**
     * True when nothing at all arrives (and the connection is not closed) within {@code millis}; false otherwise, when
     * a byte it read is lost (use it only where any answer fails the test).
     */
    public boolean silentFor(int millis) throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            in.read();
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(before);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    public record Response<T>(int correlationId, T body) {
    }
}
