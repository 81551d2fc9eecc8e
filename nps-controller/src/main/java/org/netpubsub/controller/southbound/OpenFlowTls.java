package org.netpubsub.controller.southbound;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The OpenFlow listener's TLS settings: the controller's key and certificate (PEM, PKCS#8 key as
 * {@code ovs-pki} writes it), the CA whose certificates switches must present (mutual TLS), and
 * which dpids each switch certificate may claim ({@link SwitchIdentities}).
 */
public record OpenFlowTls(Path key, Path certificate, Path ca, SwitchIdentities identities) {

  public OpenFlowTls {
    readable(key, "OpenFlow TLS key");
    readable(certificate, "OpenFlow TLS certificate");
    readable(ca, "OpenFlow TLS CA");
    if (identities == null) {
      throw new IllegalArgumentException("switch identities are required");
    }
  }

  /** A server context that requires a client certificate signed by {@link #ca}. */
  SslContext serverContext() {
    try {
      return SslContextBuilder.forServer(certificate.toFile(), key.toFile())
          .trustManager(ca.toFile())
          .clientAuth(ClientAuth.REQUIRE)
          .protocols("TLSv1.3", "TLSv1.2")
          .build();
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "OpenFlow TLS: cannot use key "
              + key
              + ", certificate "
              + certificate
              + ", CA "
              + ca
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** The subject common name of the peer's verified certificate, if the handshake is done. */
  static Optional<String> peerCommonName(SslHandler tls) {
    try {
      Certificate[] chain = tls.engine().getSession().getPeerCertificates();
      if (chain.length > 0 && chain[0] instanceof X509Certificate x) {
        return Optional.of(
            SwitchIdentities.commonName(x.getSubjectX500Principal().getName("RFC2253")));
      }
    } catch (SSLPeerUnverifiedException e) {
      // no verified certificate
    }
    return Optional.empty();
  }

  private static void readable(Path p, String what) {
    if (p == null) {
      throw new IllegalArgumentException(what + " is required");
    }
    File f = p.toFile();
    if (!Files.isReadable(p) || f.isDirectory()) {
      throw new IllegalArgumentException(what + ": cannot read " + p);
    }
  }
}
