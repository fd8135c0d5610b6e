package io.kaas.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The requests of one connection in arrival order, each a slot completed (possibly out of order) with
 * its outcome and written strictly in order. Confined to the connection's event loop. Each slot owns
 * its request frame until the response is written (records in the request are slices of it), then
 * releases it.
 */
final class ResponseQueue {

    /** What to do when a slot reaches the head of the queue. */
    sealed interface Outcome permits Send, SendThenClose, Silent, Close {
    }

    /** Write these parts (a {@code ByteBuf} incl. the size prefix, then optional more buffers or file regions). */
    record Send(List<Object> parts) implements Outcome {
    }

    /** Write these parts, then close the connection (the answer to a failed authentication). */
    record SendThenClose(List<Object> parts) implements Outcome {
    }

    /** Send nothing (Produce with acks=0) but keep the slot's place in the order. */
    record Silent() implements Outcome {
    }

    /** Close the connection once every earlier response is written. */
    record Close() implements Outcome {
    }

    static final class Slot {
        private final ByteBuf frame;
        private final int frameBytes;
        private Outcome outcome;
        private boolean written;

        private Slot(ByteBuf frame) {
            this.frame = frame;
            this.frameBytes = frame.capacity();
        }

        /** Frees a slot whose event loop is gone, so it can never be completed through the queue. */
        void releaseAbandoned(AtomicInteger serverInFlight) {
            ReferenceCountUtil.safeRelease(frame);
            serverInFlight.decrementAndGet();
        }

        /** The size of the request frame this slot holds. */
        int frameBytes() {
            return frameBytes;
        }
    }

    private final ChannelHandlerContext ctx;
    private final AtomicInteger serverInFlight;
    private final int maxInFlight;
    private final IntConsumer heldBytesChanged;
    private final ArrayDeque<Slot> slots = new ArrayDeque<>();
    private boolean closed;
    private boolean paused;
    private boolean draining;
    private boolean held;
    private long heldBytes;

    /**
     * @param heldBytesChanged given (on the event loop) the size of each request frame a slot takes (positive) and,
     *                         once the slot is done with, releases (negative)
     */
    ResponseQueue(ChannelHandlerContext ctx, AtomicInteger serverInFlight, int maxInFlight, IntConsumer heldBytesChanged) {
        this.ctx = ctx;
        this.serverInFlight = serverInFlight;
        this.maxInFlight = maxInFlight;
        this.heldBytesChanged = heldBytesChanged;
    }

    /** A new slot at the tail, owning {@code frame}. */
    Slot open(ByteBuf frame) {
        Slot slot = new Slot(frame);
        heldBytes += slot.frameBytes;
        heldBytesChanged.accept(slot.frameBytes);
        slots.add(slot);
        serverInFlight.incrementAndGet();
        updateAutoRead();
        return slot;
    }

    /** Completes {@code slot}; writes every completed slot at the head. Event loop only. */
    void complete(Slot slot, Outcome outcome) {
        if (slot.outcome != null) {
            discard(outcome);
            return;
        }
        slot.outcome = outcome;
        if (closed) {
            slots.remove(slot);
            finish(slot);
            return;
        }
        boolean wrote = false;
        while (!slots.isEmpty() && slots.peek().outcome != null) {
            Slot head = slots.poll();
            if (closed) {
                finish(head);
                continue;
            }
            if (head.outcome instanceof Send send) {
                write(head, send);
                wrote = true;
            } else if (head.outcome instanceof SendThenClose last) {
                write(head, new Send(last.parts()));
                closed = true;
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            } else if (head.outcome instanceof Close) {
                finish(head);
                closed = true;
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            } else {
                finish(head);
            }
        }
        if (wrote) {
            ctx.flush();
        }
        updateAutoRead();
    }

    /** The connection closed: completed slots are released now, the others when they complete. */
    void closed() {
        closed = true;
        slots.removeIf(s -> {
            if (s.outcome != null) {
                finish(s);
                return true;
            }
            return false;
        });
    }

    /** Stop reading for a graceful shutdown; requests already read still complete and are written. */
    void drain() {
        draining = true;
        updateAutoRead();
    }

    /** Stops (or resumes) reading while the dispatcher keeps frames aside, waiting for room. */
    void holdReads(boolean hold) {
        held = hold;
        updateAutoRead();
    }

    int size() {
        return slots.size();
    }

    /** Bytes of the request frames this connection holds: read and not yet answered (or whose answer is being sent). */
    long heldBytes() {
        return heldBytes;
    }

    /**
     * Re-evaluates whether the connection is read: not while too many requests are pending, writes back up, or the
     * dispatcher holds reads (frames waiting for room, see {@link #holdReads}).
     */
    void updateAutoRead() {
        if (closed) {
            return;
        }
        int limit = paused ? Math.max(1, maxInFlight / 2) : maxInFlight;
        boolean read = !draining && !held && slots.size() < limit && ctx.channel().isWritable();
        if (read == ctx.channel().config().isAutoRead()) {
            return;
        }
        paused = !read;
        ctx.channel().config().setAutoRead(read);
        if (read) {
            ctx.read();
        }
    }

    private void write(Slot slot, Send send) {
        List<Object> parts = send.parts();
        slot.written = true;
        for (int i = 0; i < parts.size(); i++) {
            boolean last = i == parts.size() - 1;
            ChannelPromise promise = ctx.newPromise();
            if (last) {
                promise.addListener(f -> finish(slot));
            }
            ctx.write(parts.get(i), promise);
        }
        if (parts.isEmpty()) {
            finish(slot);
        }
    }

    private void finish(Slot slot) {
        if (slot.outcome != null && !slot.written) {
            discard(slot.outcome);
        }
        heldBytes -= slot.frameBytes;
        ReferenceCountUtil.safeRelease(slot.frame);
        serverInFlight.decrementAndGet();
        heldBytesChanged.accept(-slot.frameBytes);
    }

    private static void discard(Outcome outcome) {
        if (outcome instanceof Send send) {
            send.parts().forEach(ReferenceCountUtil::safeRelease);
        } else if (outcome instanceof SendThenClose last) {
            last.parts().forEach(ReferenceCountUtil::safeRelease);
        }
    }
}
