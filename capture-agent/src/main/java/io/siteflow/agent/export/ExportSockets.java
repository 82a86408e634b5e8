package io.siteflow.agent.export;

import io.siteflow.agent.capture.CaptureFailure;
import java.io.Closeable;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector's UDP sockets: the NetFlow/IPFIX one ({@code --listen}) and/or the sFlow one ({@code --sflow}), bound,
 * non-blocking and registered with one selector, and what the start-up line says of them (where they listen, the
 * receive buffer the kernel granted). Opened once by {@link ExportSource#open}; closed after the receiving thread
 * ended. Not thread-safe apart from the names, which are fixed at opening.
 */
final class ExportSockets implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ExportSockets.class);

    final DatagramChannel channel;
    final DatagramChannel sflowChannel;
    final Selector selector;
    /** {@code 127.0.0.1:2055}, or null without {@code --listen}. */
    final String listenName;
    /** {@code 127.0.0.1:6343}, or null without {@code --sflow}. */
    final String sflowName;
    /** Both, as {@link ExportSource#name()} gives them. */
    final String name;
    /** SO_RCVBUF as read back, in bytes. */
    final int grantedReceiveBuffer;

    private ExportSockets(DatagramChannel channel, DatagramChannel sflowChannel, Selector selector)
            throws IOException {
        this.channel = channel;
        this.sflowChannel = sflowChannel;
        this.selector = selector;
        this.listenName = channel == null ? null : where((InetSocketAddress) channel.getLocalAddress());
        this.sflowName = sflowChannel == null ? null : where((InetSocketAddress) sflowChannel.getLocalAddress());
        this.name = listenName == null ? sflowName + " (sFlow)"
                : sflowName == null ? listenName : listenName + " and " + sflowName + " (sFlow)";
        DatagramChannel any = channel != null ? channel : sflowChannel;
        this.grantedReceiveBuffer = any.getOption(StandardSocketOptions.SO_RCVBUF);
    }

    /**
     * Binds the sockets {@code settings} asks for, each asking for its receive buffer.
     *
     * @throws CaptureFailure when an address cannot be bound (in use, not local, no permission); nothing stays open
     */
    static ExportSockets open(CollectSettings settings) throws CaptureFailure {
        DatagramChannel channel = null;
        DatagramChannel sflow = null;
        Selector selector = null;
        try {
            selector = Selector.open();
            channel = settings.listen() == null ? null : bind(settings.listen(), settings, selector);
            sflow = settings.sflow() == null ? null : bind(settings.sflow(), settings, selector);
            return new ExportSockets(channel, sflow, selector);
        } catch (Bind e) {
            closeAll(e.getCause(), channel, sflow, selector);
            throw new CaptureFailure("collect: cannot listen on udp " + e.where + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (IOException e) {
            closeAll(e, channel, sflow, selector);
            throw new CaptureFailure("collect: cannot listen on udp: " + e.getMessage(), e);
        }
    }

    /** The port of {@code name} ({@code 127.0.0.1:2055}: 2055); -1 for null. */
    static int port(String name) {
        return name == null ? -1 : Integer.parseInt(name.substring(name.lastIndexOf(':') + 1));
    }

    private static String where(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    private static DatagramChannel bind(InetSocketAddress at, CollectSettings settings, Selector selector)
            throws Bind {
        DatagramChannel channel = null;
        try {
            channel = DatagramChannel.open(at.getAddress() instanceof Inet4Address
                    ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, settings.receiveBufferBytes());
            channel.bind(at);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            return channel;
        } catch (IOException e) {
            closeAll(e, channel);
            throw new Bind(where(at), e);
        }
    }

    /** Closes what is open; a failure to close is added to {@code failure}. */
    static void closeAll(Throwable failure, Closeable... all) {
        for (Closeable c : all) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException suppressed) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    /** Closes the selector and the sockets (after the receiving thread ended); a failure is logged, not thrown. */
    @Override
    public void close() {
        IOException failure = new IOException("collect: closing udp " + name);
        closeAll(failure, selector, channel, sflowChannel);
        if (failure.getSuppressed().length > 0) {
            LOG.debug("collect: closing udp {}", name, failure);
        }
    }

    /** A socket that could not be bound, with its address. */
    private static final class Bind extends IOException {
        private static final long serialVersionUID = 1L;
        final String where;

        Bind(String where, IOException cause) {
            super(cause);
            this.where = where;
        }
    }
}
