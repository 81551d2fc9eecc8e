package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * The coordinator's rotation on revocation with a fake wall clock, by hand (no server, no wait): a
 * new revocation puts a fresh key first and keeps the old ones for the grace, then drops exactly
 * them; a restart neither rotates again nor forgets the drop; a lifted and repeated revocation
 * rotates again; the state file never holds a key.
 */
class RevocationRotationTest {
  private static final String K1 = "11".repeat(32);
  private static final String K2 = "22".repeat(32);
  private static final Duration GRACE = Duration.ofMinutes(2);

  @TempDir Path dir;
  private final AtomicLong wall = new AtomicLong(1_000_000);

  private List<String> keys(Path file) throws Exception {
    return DatagramAuth.readKeyFile(file).stream().map(HexFormat.of()::formatHex).toList();
  }

  @Test
  void aNewRevocationRotatesOnceAndTheOldKeysLeaveAfterTheGraceEvenAcrossARestart()
      throws Exception {
    Path file = dir.resolve("datagram.key");
    Files.writeString(file, K1 + "\n" + K2 + "\n");
    RevocationRotation r = RevocationRotation.load(file, GRACE, wall::get);
    r.revoked(Set.of());
    assertThat(keys(file)).containsExactly(K1, K2); // nothing revoked: nothing written
    assertThat(r.rotations()).isZero();

    r.revoked(Set.of("rome"));
    List<String> rotated = keys(file);
    assertThat(rotated).hasSize(3).endsWith(K1, K2);
    String fresh = rotated.get(0);
    assertThat(fresh).isNotIn(K1, K2);
    assertThat(r.rotations()).isOne();
    String state = Files.readString(dir.resolve("datagram.key" + RevocationRotation.SUFFIX));
    assertThat(state).contains("\"rotated_for\":[\"rome\"]").doesNotContain(K1, K2, fresh);
    assertThat(Files.getPosixFilePermissions(file).toString())
        .isEqualTo("[OWNER_READ, OWNER_WRITE]");

    wall.addAndGet(GRACE.toMillis() - 1);
    r.revoked(Set.of("rome"));
    assertThat(keys(file)).containsExactly(fresh, K1, K2); // still in their grace

    // a restart: the same revocation does not rotate again, the pending drop is kept
    RevocationRotation again = RevocationRotation.load(file, GRACE, wall::get);
    again.revoked(Set.of("rome"));
    assertThat(again.rotations()).isZero();
    assertThat(keys(file)).containsExactly(fresh, K1, K2);
    wall.addAndGet(1);
    again.revoked(Set.of("rome"));
    assertThat(keys(file)).containsExactly(fresh);

    // lifted, then revoked again: a new rotation (rome may have learnt the fresh key meanwhile)
    again.revoked(Set.of());
    assertThat(keys(file)).containsExactly(fresh);
    again.revoked(Set.of("rome"));
    assertThat(keys(file)).hasSize(2).endsWith(fresh).doesNotContain(K1);
    assertThat(again.rotations()).isOne();
  }

  @Test
  void aKeyAddedDuringTheGraceIsKeptAndABadStateFileIsRefusedNamingTheField() throws Exception {
    Path file = dir.resolve("datagram.key");
    Files.writeString(file, K1 + "\n");
    RevocationRotation r = RevocationRotation.load(file, GRACE, wall::get);
    r.revoked(Set.of("rome", "milan"));
    String fresh = keys(file).get(0);
    Files.writeString(file, fresh + "\n" + K1 + "\n" + K2 + "\n"); // an operator adds K2
    wall.addAndGet(GRACE.toMillis());
    r.revoked(Set.of("rome", "milan"));
    assertThat(keys(file)).containsExactly(fresh, K2); // only what the rotation replaced leaves

    Files.writeString(dir.resolve("datagram.key.rotation"), "{\"rotated_for\":[\"a/b\"]}");
    assertThatThrownBy(() -> RevocationRotation.load(file, GRACE, wall::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field rotated_for");
  }
}
