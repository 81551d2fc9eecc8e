package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * The reload behind {@code --sender-keys} and {@code --revoked-edges}: a changed file is applied
 * within seconds, a file that stops parsing keeps what is in force, and the next good text is
 * applied again.
 */
class WatchedFileTest {
  @TempDir Path dir;

  /** Replaces the file at once, as an operator's editor or `mv` does: never read half-written. */
  private void write(Path file, String text) throws java.io.IOException {
    Path tmp = dir.resolve(file.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void aChangedFileIsAppliedAndABadOneKeepsWhatIsInForce() throws Exception {
    String k1 = "11".repeat(32);
    String k2 = "22".repeat(32);
    Path file = dir.resolve("senders");
    write(file, "oslo " + k1 + "\nrome " + k2 + "\n");
    List<Map<String, DatagramAuth>> applied = new CopyOnWriteArrayList<>();
    ScheduledExecutorService w = SenderKeys.watch(file, applied::add);
    try {
      assertThat(applied).hasSize(1);
      assertThat(applied.get(0).keySet()).isEqualTo(Set.of("oslo", "rome"));
      write(file, "oslo " + k1 + "\n"); // rome removed: applied
      Poll.until("the reload", Duration.ofSeconds(10), () -> applied.size() >= 2);
      assertThat(applied).hasSize(2);
      assertThat(applied.get(1).keySet()).isEqualTo(Set.of("oslo"));
    } finally {
      w.shutdownNow();
    }
  }

  @Test
  void aFileThatStopsParsingIsNotAppliedAndTheNextGoodOneIs() throws Exception {
    Path file = dir.resolve("revoked");
    write(file, "mallory\n");
    List<Set<String>> applied = new CopyOnWriteArrayList<>();
    ScheduledExecutorService w = RevokedEdges.watch(file, applied::add);
    Logger log = Logger.getLogger(WatchedFile.class.getName());
    List<String> warned = new CopyOnWriteArrayList<>();
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            warned.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(h);
    try {
      write(file, "mallory\nnot a name\n");
      Poll.until(
          "the bad text refused",
          Duration.ofSeconds(10),
          () -> warned.stream().anyMatch(m -> m.contains("not reloaded")));
      assertThat(applied).containsExactly(Set.of("mallory"));
      assertThat(warned).anyMatch(m -> m.contains("line 2"));
      write(file, "mallory\neve\n");
      Poll.until("the good reload", Duration.ofSeconds(10), () -> applied.size() >= 2);
      assertThat(applied).containsExactly(Set.of("mallory"), Set.of("mallory", "eve"));
    } finally {
      log.removeHandler(h);
      w.shutdownNow();
    }
  }
}
