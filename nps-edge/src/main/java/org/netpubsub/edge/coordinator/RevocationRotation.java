package org.netpubsub.edge.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.overlay.ZnodePaths;

/**
 * Rotates the deployment keys when an edge is revoked ({@code nps edge-coordinator
 * --rotate-on-revoke GRACE}, docs/security-datagrams.md, "Rotation on revocation"). A revoked edge
 * that held the deployment keys (or senders' keys derived from them) can sign as any other edge
 * until they change; the coordinator owns its key file, so it changes them itself: when the revoked
 * list names an edge it has not rotated for, it writes a fresh random key first in the file (every
 * agent polling it signs with it from its next refresh), keeps the held keys after it (still
 * accepted, so agents that have not polled yet lose nothing they sign), and drops exactly those old
 * keys {@code GRACE} later. Only agents fed by this coordinator follow: a host holding its own copy
 * of the file does not, which is why this is an option.
 *
 * <p>What it has done survives a restart in a state file beside the key file ({@code
 * FILE.rotation}, JSON, snake_case): the edges rotated for, and the SHA-256 fingerprints (never the
 * keys) of the old keys to drop with the wall-clock time to drop them. So a restart neither rotates
 * again for the same revocation nor forgets a pending drop. Keys are in no log line.
 */
final class RevocationRotation {
  private static final Logger LOG = Logger.getLogger(RevocationRotation.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  /** The state file is the key file's name with this after it. */
  static final String SUFFIX = ".rotation";

  /**
   * Keys a rotation keeps accepted after the new one: rotations within one grace pile up, and the
   * file stays bounded whatever an operator revokes meanwhile.
   */
  static final int MAX_OLD = 7;

  private final Path keyFile;
  private final Path stateFile;
  private final long graceMillis;
  private final LongSupplier wallMillis;
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong rotations = new AtomicLong();
  private Set<String> rotatedFor; // guarded by this
  private List<String> toDrop; // fingerprints of the old keys still accepted (guarded by this)
  private long dropAt; // wall-clock millis; meaningless while toDrop is empty

  private RevocationRotation(Path keyFile, Duration grace, LongSupplier wallMillis) {
    this.keyFile = keyFile;
    this.stateFile = keyFile.resolveSibling(keyFile.getFileName() + SUFFIX);
    this.graceMillis = grace.toMillis();
    this.wallMillis = wallMillis;
  }

  /**
   * Reads the state file if there is one; a state file that does not parse is refused with the
   * field it lacks ({@link IllegalArgumentException}: one line at start).
   */
  static RevocationRotation load(Path keyFile, Duration grace, LongSupplier wallMillis) {
    RevocationRotation r = new RevocationRotation(keyFile, grace, wallMillis);
    r.rotatedFor = Set.of();
    r.toDrop = List.of();
    if (Files.exists(r.stateFile)) {
      try {
        JsonNode s = JSON.readTree(Files.readString(r.stateFile));
        Set<String> edges = new TreeSet<>();
        for (JsonNode n : array(s, "rotated_for")) {
          try {
            edges.add(ZnodePaths.checkName(n.asText()));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field rotated_for: not an edge name");
          }
        }
        List<String> drop = new ArrayList<>();
        for (JsonNode n : array(s, "drop")) {
          if (!n.asText().matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("field drop: not a fingerprint");
          }
          drop.add(n.asText());
        }
        if (!s.path("drop_at_ms").canConvertToLong()) {
          throw new IllegalArgumentException("field drop_at_ms: not a time");
        }
        r.rotatedFor = Set.copyOf(edges);
        r.toDrop = List.copyOf(drop);
        r.dropAt = s.path("drop_at_ms").asLong();
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            "--rotate-on-revoke: state file " + r.stateFile + " unusable: " + e.getMessage());
      }
    }
    return r;
  }

  private static JsonNode array(JsonNode s, String field) {
    JsonNode a = s.path(field);
    if (!a.isArray() || a.size() > RevokedList.MAX_EDGES) {
      throw new IllegalArgumentException("field " + field + ": not a list");
    }
    return a;
  }

  /**
   * Called with the revoked list at each read: rotates if it names an edge not rotated for yet,
   * forgets edges no longer revoked (revoked again later, they rotate again), and drops the old
   * keys once their grace is over. An I/O error is thrown: the next read tries again.
   */
  synchronized void revoked(Set<String> revoked) throws IOException {
    long now = wallMillis.getAsLong();
    if (!rotatedFor.containsAll(revoked)) {
      rotate(revoked, now);
    } else if (!rotatedFor.equals(revoked)) {
      rotatedFor = Set.copyOf(revoked);
      save();
    }
    if (!toDrop.isEmpty() && now >= dropAt) {
      List<byte[]> kept = new ArrayList<>();
      for (byte[] k : DatagramAuth.readKeyFile(keyFile)) {
        if (!toDrop.contains(fingerprint(k))) {
          kept.add(k);
        }
      }
      if (!kept.isEmpty()) { // never an empty file: an operator's edit kept only old keys
        writeKeys(kept);
      }
      LOG.info(
          "deployment keys: the grace after the rotation for revoked edges ended; "
              + (kept.isEmpty()
                  ? "no key would be left, the file is kept"
                  : kept.size() + " kept"));
      toDrop = List.of();
      save();
    }
  }

  private void rotate(Set<String> revoked, long now) throws IOException {
    List<byte[]> held = DatagramAuth.readKeyFile(keyFile);
    byte[] fresh = new byte[32];
    random.nextBytes(fresh);
    List<byte[]> next = new ArrayList<>();
    next.add(fresh);
    List<String> drop = new ArrayList<>();
    for (byte[] k : held.subList(0, Math.min(held.size(), MAX_OLD))) {
      next.add(k);
      drop.add(fingerprint(k));
    }
    writeKeys(next);
    Set<String> added = new TreeSet<>(revoked);
    added.removeAll(rotatedFor);
    rotatedFor = Set.copyOf(revoked);
    toDrop = List.copyOf(drop);
    dropAt = now + graceMillis;
    save();
    rotations.incrementAndGet();
    LOG.info(
        "deployment keys rotated: edges "
            + added
            + " revoked; a new signing key, "
            + drop.size()
            + " old keys accepted for "
            + Duration.ofMillis(graceMillis));
  }

  /** Rotations done for revocations (a metric). */
  long rotations() {
    return rotations.get();
  }

  /** The file replaced whole (written beside it, then renamed), readable by its owner only. */
  private void writeKeys(List<byte[]> keys) throws IOException {
    StringBuilder b =
        new StringBuilder(
            "# written by nps edge-coordinator --rotate-on-revoke; first key signs\n");
    keys.forEach(k -> b.append(HEX.formatHex(k)).append('\n'));
    replace(keyFile, b.toString());
  }

  private void save() throws IOException {
    ObjectNode o = JSON.createObjectNode();
    new TreeSet<>(rotatedFor).forEach(o.putArray("rotated_for")::add);
    toDrop.forEach(o.putArray("drop")::add);
    o.put("drop_at_ms", toDrop.isEmpty() ? 0 : dropAt);
    replace(stateFile, o.toString() + "\n");
  }

  private static void replace(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(
          tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      Files.createFile(tmp); // not a POSIX file system
    }
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** SHA-256 of a key: names it in the state file without writing it there. */
  static String fingerprint(byte[] key) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(key));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
