package org.netpubsub.http;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import javax.net.ssl.SSLContext;
import org.conscrypt.Conscrypt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which JSSE provider encrypts a REST server's TLS records. {@link #BORINGSSL}, the default, is
 * Conscrypt (BoringSSL through JNI) where its native library loads, which the jar carries for
 * linux-x86_64 only; elsewhere it falls back to the JDK's provider with one log line. With the
 * JDK's provider HTTPS cost several times plain HTTP's server CPU per request at 200 connections,
 * with BoringSSL much less (docs/security.md, docs/results/rest-tls.md).
 */
public enum TlsProvider {
  /** Conscrypt (BoringSSL) if its native library loads here, else the JDK's provider. */
  BORINGSSL,
  /** The JDK's own provider (SunJSSE), always. */
  JDK;

  private static final Logger LOG = LoggerFactory.getLogger(TlsProvider.class);
  private static Provider conscrypt;
  private static boolean probed;

  /** A new TLS context of this provider (not yet initialised). */
  SSLContext context() throws NoSuchAlgorithmException {
    Provider p = this == BORINGSSL ? conscrypt() : null;
    return p == null ? SSLContext.getInstance("TLS") : SSLContext.getInstance("TLS", p);
  }

  /** The provider's name as the JDK reports it, for the start-up line. */
  String actual() {
    return this == BORINGSSL && conscrypt() != null ? "Conscrypt (BoringSSL)" : "JDK (SunJSSE)";
  }

  /**
   * Conscrypt's provider, made once; null where its native library does not load. Not registered
   * with {@link java.security.Security}: other TLS users in the process keep the JDK's.
   */
  private static synchronized Provider conscrypt() {
    if (!probed) {
      probed = true;
      try {
        Conscrypt.checkAvailability(); // its native library: loaded here, or why not
        conscrypt = Conscrypt.newProvider();
      } catch (LinkageError e) {
        LOG.info(
            "TLS: Conscrypt (BoringSSL) is not available here ({}); using the JDK provider",
            e.toString());
      }
    }
    return conscrypt;
  }
}
