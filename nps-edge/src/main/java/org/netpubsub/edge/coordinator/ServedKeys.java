package org.netpubsub.edge.coordinator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * The datagram keys the coordinator hands to its agents ({@code GET /v1/edges/{name}/keys},
 * docs/security.md): the key file's keys, the first signing. The file is read again at each request
 * (it is at most 64 KiB), so an operator rotates by editing it as for agents holding the file. A
 * file that stops parsing, or cannot be read for a moment (replaced by a rename), keeps the keys
 * held; that is logged once per change of reason and counted. Keys are never logged: the file's
 * errors name its line, never its text.
 */
final class ServedKeys {
  private static final Logger LOG = Logger.getLogger(ServedKeys.class.getName());

  private final LastGoodFile<List<byte[]>> file;

  private ServedKeys(Path file, List<byte[]> keys) {
    this.file =
        new LastGoodFile<>(
            LOG,
            file,
            keys,
            DatagramAuth::readKeyFile,
            "datagram keys",
            List::size,
            DatagramAuth::sameKeys,
            (held, now) ->
                "datagram key file "
                    + file
                    + " changed: "
                    + now.size()
                    + " keys"
                    + (Arrays.equals(now.get(0), held.get(0)) ? "" : ", a new signing key"));
  }

  /**
   * Reads {@code file}; refused with the reason (naming the file) if it holds no usable keys. Warns
   * once unless the keys will travel over TLS ({@code overTls}).
   */
  static ServedKeys load(Path file, boolean overTls) {
    List<byte[]> keys;
    try {
      keys = DatagramAuth.readKeyFile(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("--datagram-key " + file + ": cannot read (" + e + ")");
    }
    if (!overTls) {
      LOG.warning(
          "datagram keys are handed out over plain HTTP: anyone on the path reads them;"
              + " serve HTTPS (--tls-cert, --tls-key) beyond loopback");
    }
    return new ServedKeys(file, keys);
  }

  /** The keys now, the signing one first: the file's, or the last good ones if it is bad now. */
  List<byte[]> keys() {
    return file.get();
  }

  /** Reads of the file that failed and kept the keys held. */
  long invalidReads() {
    return file.invalidReads();
  }
}
