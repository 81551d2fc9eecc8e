package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.http.AtomicFiles.replace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.controller.nbi.RemoteAppKeys;
import org.netpubsub.http.FileWatcher;

/** The remote northbound's clients file, reloaded through the shared {@link FileWatcher}. */
class NbiRemoteKeysWatchTest {
  @TempDir Path dir;

  @Test
  void aChangedClientsFileIsAppliedAndABadOneKeepsTheClientsInForce() throws Exception {
    RemoteAppKeys.KeyPair a = RemoteAppKeys.KeyPair.generate();
    RemoteAppKeys.KeyPair b = RemoteAppKeys.KeyPair.generate();
    Path f = Files.writeString(dir.resolve("clients"), "alpha " + a.publicZ85() + "\n");
    AtomicReference<Map<String, RemoteAppKeys.Client>> applied = new AtomicReference<>();
    try (FileWatcher w = NbiRemoteKeys.watch(f, applied::set, Duration.ofMillis(20))) {
      replace(f, "alpha " + a.publicZ85() + "\nbeta " + b.publicZ85() + "\n");
      poll(() -> applied.get() != null);
      assertThat(applied.get()).containsOnlyKeys(a.publicZ85(), b.publicZ85());
      assertThat(applied.get().get(b.publicZ85()).name()).isEqualTo("beta");
      replace(f, "beta short\n");
      poll(() -> w.failedReloads() >= 1);
      assertThat(applied.get()).containsOnlyKeys(a.publicZ85(), b.publicZ85());
      replace(f, new byte[] {'x', ' ', (byte) 0xff, '\n'}); // not UTF-8: refused too
      long failed = w.failedReloads();
      poll(() -> w.failedReloads() > failed);
      assertThat(w.reloads()).isEqualTo(1);
    }
  }

  private static void poll(BooleanSupplier cond) {
    Poll.until("the clients file's reload", Duration.ofSeconds(10), cond);
  }
}
