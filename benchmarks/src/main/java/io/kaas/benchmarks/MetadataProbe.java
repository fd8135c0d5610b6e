package io.kaas.benchmarks;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * Start-up time as a client sees it: a Metadata v12 request every 10 ms over a plain socket until
 * one is answered with at least one broker. Lighter than an Admin client, so it measures the broker.
 */
final class MetadataProbe {
    private MetadataProbe() {
    }

    /** Blocks until the first successful Metadata round trip; returns System.nanoTime() at that moment. */
    static long awaitFirstMetadata(int port, long deadlineNanos, Process process) throws IOException, InterruptedException {
        short v = 12;
        RequestHeader header = new RequestHeader(ApiKeys.METADATA, v, "kaas-bench-probe", 1);
        ByteBuffer bytes = RequestUtils.serialize(header.data(), header.headerVersion(),
                new MetadataRequestData().setTopics(new ArrayList<>()), v);
        while (System.nanoTime() < deadlineNanos) {
            if (!process.isAlive()) {
                throw new IOException("broker exited with " + process.exitValue() + " before answering Metadata");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                s.setSoTimeout(2000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(bytes.remaining());
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] response = new byte[in.readInt()];
                in.readFully(response);
                MetadataResponse parsed = (MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
                if (!parsed.brokers().isEmpty()) {
                    return System.nanoTime();
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(10);
        }
        throw new IOException("no Metadata answer on port " + port + " in time");
    }
}
