package org.netpubsub.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context of a client that trusts the CA certificates of one PEM file (a private CA, or a
 * server's self-signed certificate) instead of the JDK's: for https URLs of the controller and the
 * edge coordinator (docs/security.md). Host names and IP addresses are still checked against the
 * server certificate's subject alternative names.
 */
public final class TrustedCa {
  private static final int MAX_FILE = 1 << 20;

  private TrustedCa() {}

  /** A context trusting every certificate in {@code pemFile}; the error names the file. */
  public static SSLContext context(Path pemFile) {
    byte[] pem;
    try (InputStream in = Files.newInputStream(pemFile)) {
      pem = in.readNBytes(MAX_FILE + 1);
    } catch (IOException e) {
      throw new IllegalArgumentException("CA file " + pemFile + ": cannot read it (" + e + ")");
    }
    if (pem.length > MAX_FILE) {
      throw new IllegalArgumentException("CA file " + pemFile + ": larger than 1 MiB");
    }
    try (InputStream in = new ByteArrayInputStream(pem)) {
      Collection<? extends Certificate> cas =
          java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (cas.isEmpty()) {
        throw new IllegalArgumentException("CA file " + pemFile + ": no PEM certificate in it");
      }
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (Certificate c : cas) {
        ks.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "CA file " + pemFile + ": not a PEM certificate (" + e.getMessage() + ")");
    }
  }
}
