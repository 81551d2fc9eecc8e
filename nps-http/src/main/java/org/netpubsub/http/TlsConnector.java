package org.netpubsub.http;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** The server's one connector: plain HTTP/1.1, or HTTP/1.1 inside TLS ({@link ServerTls}). */
final class TlsConnector {
  private TlsConnector() {}

  static ServerConnector of(Server server, HttpConfiguration http, ServerTls tls) {
    if (tls == null) {
      return new ServerConnector(server, new HttpConnectionFactory(http));
    }
    // clients reach servers by IP address as often as by name: no SNI to require or check
    SecureRequestCustomizer secure = new SecureRequestCustomizer(false);
    secure.setSniHostCheck(false);
    http.addCustomizer(secure);
    return new ServerConnector(server, tls.jetty(), new HttpConnectionFactory(http));
  }
}
