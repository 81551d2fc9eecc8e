package org.netpubsub.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.io.SelectorManager;

/**
 * At most {@code max} open connections from one source address: a connection over the bound is
 * closed as soon as it is accepted, before a byte of it is read, and counted in {@code
 * nps_http_connections_refused_total}. The state is one count per address with connections open, so
 * it is bounded by the server's connection limit.
 */
final class SourceConnectionLimit implements SelectorManager.AcceptListener {
  private final int max;
  private final Counter refused;
  private final Map<SelectableChannel, InetAddress> open = new HashMap<>();
  private final Map<InetAddress, Integer> perSource = new HashMap<>();

  SourceConnectionLimit(int max, MeterRegistry registry) {
    this.max = max;
    this.refused =
        Counter.builder("nps.http.connections.refused")
            .description("connections closed because their source had too many open")
            .register(registry);
  }

  @Override
  public void onAccepted(SelectableChannel channel) {
    InetAddress source = source(channel);
    if (source == null) {
      return;
    }
    boolean over;
    synchronized (this) {
      open.put(channel, source);
      over = perSource.merge(source, 1, Integer::sum) > max;
      if (over) {
        forget(channel);
      }
    }
    if (over) {
      refused.increment();
      try {
        channel.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  @Override
  public synchronized void onClosed(SelectableChannel channel) {
    forget(channel);
  }

  /** Open connections from {@code source} (for tests). */
  synchronized int open(InetAddress source) {
    return perSource.getOrDefault(source, 0);
  }

  private void forget(SelectableChannel channel) {
    InetAddress source = open.remove(channel);
    if (source != null) {
      perSource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
    }
  }

  private static InetAddress source(SelectableChannel channel) {
    try {
      return channel instanceof SocketChannel s
              && s.getRemoteAddress() instanceof InetSocketAddress a
          ? a.getAddress()
          : null;
    } catch (IOException e) {
      return null;
    }
  }
}
