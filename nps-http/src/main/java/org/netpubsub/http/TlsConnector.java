package org.netpubsub.http;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;

/** The server's one connector: plain HTTP/1.1, or HTTP/1.1 inside TLS ({@link ServerTls}). */
final class TlsConnector {
  /**
   * The HTTP parser's input buffer under TLS: larger than a TLS record's plaintext (16 KiB), so
   * that Jetty decrypts straight into it instead of into a buffer of its own and copying.
   */
  private static final int TLS_INPUT_BUFFER = 16 * 1024 + 1024;

  private TlsConnector() {}

  /**
   * Selector threads for a server on {@code cpus} CPUs whose pool has {@code maxThreads}: one per
   * CPU, at most 4 and at most a quarter of the pool, so that routes that block keep most of it.
   * Jetty's own default, half the CPUs, is one selector on 2 CPUs: that one thread then did every
   * connection's TLS records and inline answers, and at 10 600 HTTPS requests/s it needed 0.62 of a
   * CPU, near its fair share beside the load generator's threads on the same CPUs, where its
   * requests queued behind its preemptions (docs/results/rest-tls-equal-load.md, stop 38).
   */
  static int selectors(int cpus, int maxThreads) {
    return Math.max(1, Math.min(Math.min(cpus, 4), maxThreads / 4));
  }

  /**
   * The connector with Jetty's default acceptor count and {@code selectors} selector threads: each
   * selector reads, decrypts, answers inline routes and encrypts for its share of the connections.
   */
  static ServerConnector of(Server server, HttpConfiguration http, ServerTls tls, int selectors) {
    if (tls == null) {
      return new ServerConnector(server, -1, selectors, new HttpConnectionFactory(http));
    }
    // clients reach servers by IP address as often as by name: no SNI to require or check
    SecureRequestCustomizer secure = new SecureRequestCustomizer(false);
    secure.setSniHostCheck(false);
    http.addCustomizer(secure);
    HttpConnectionFactory h1 = new HttpConnectionFactory(http);
    h1.setInputBufferSize(TLS_INPUT_BUFFER);
    SslConnectionFactory records = new SslConnectionFactory(tls.jetty(), h1.getProtocol());
    // records in native memory, as plain HTTP's buffers are: with heap buffers every record is
    // copied once more between the JDK's socket I/O and BoringSSL (docs/results/rest-tls.md)
    records.setDirectBuffersForEncryption(true);
    records.setDirectBuffersForDecryption(true);
    return new ServerConnector(server, -1, selectors, records, h1);
  }
}
