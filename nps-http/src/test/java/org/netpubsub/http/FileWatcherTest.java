package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.http.AtomicFiles.replace;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sun.misc.Signal;

class FileWatcherTest {
  @TempDir Path dir;
  private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> inForce = new AtomicReference<>("one");
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Logger jul = Logger.getLogger(FileWatcher.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          logged.add(new java.util.logging.SimpleFormatter().formatMessage(r));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @AfterEach
  void close() throws Exception {
    jul.removeHandler(capture);
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** A watcher of {@code f} whose loader refuses contents starting with "bad". */
  private FileWatcher watch(Path f, Duration poll) throws Exception {
    jul.addHandler(capture);
    FileWatcher w =
        new FileWatcher(
            "test " + f,
            "settings",
            Files.readAllBytes(f),
            () -> Files.readAllBytes(f),
            b -> {
              String s = new String(b, StandardCharsets.UTF_8);
              if (s.startsWith("bad")) {
                throw new IllegalArgumentException("line 1: bad value");
              }
              inForce.set(s);
              return "'" + s + "'";
            },
            poll,
            "test-watch");
    open.add(w);
    return w;
  }

  @Test
  void aChangeIsFoundByThePoll() throws Exception {
    Path f = Files.writeString(dir.resolve("f"), "one");
    FileWatcher w = watch(f, Duration.ofMillis(20));
    replace(f, "two");
    poll(() -> w.reloads() == 1);
    assertThat(inForce.get()).isEqualTo("two");
    assertThat(w.failedReloads()).isZero();
    poll(() -> logged.contains("test " + f + ": reloaded, 'two'"));
  }

  @Test
  void unchangedContentsAreNotReloaded() throws Exception {
    Path f = Files.writeString(dir.resolve("f"), "one");
    FileWatcher w = watch(f, Duration.ZERO);
    replace(f, "one"); // a new modification time, the same bytes
    assertThat(w.reload()).isTrue();
    assertThat(w.reloads()).isZero();
  }

  @Test
  void aChangeIsFoundOnSighup() throws Exception {
    Path f = Files.writeString(dir.resolve("f"), "one");
    FileWatcher w = watch(f, Duration.ZERO).onSighup(); // never polled: only the signal reloads
    AtomicReference<String> other = new AtomicReference<>();
    open.add(Sighup.register(() -> other.set("called")));
    replace(f, "two");
    hangUp();
    poll(() -> w.reloads() == 1);
    assertThat(inForce.get()).isEqualTo("two");
    poll(() -> "called".equals(other.get())); // both registered handlers ran
    w.close(); // unregistered: a later SIGHUP no longer reloads it
    replace(f, "three");
    other.set(null);
    hangUp();
    poll(() -> "called".equals(other.get()));
    assertThat(inForce.get()).isEqualTo("two");
  }

  @Test
  void aFailingReloadKeepsWhatIsInForceAndIsCountedAndLogged() throws Exception {
    Path f = Files.writeString(dir.resolve("f"), "one");
    FileWatcher w = watch(f, Duration.ofMillis(20));
    replace(f, "bad one");
    poll(() -> w.failedReloads() >= 1);
    assertThat(inForce.get()).isEqualTo("one");
    assertThat(w.reloads()).isZero();
    poll(
        () ->
            logged.contains(
                "test " + f + ": not reloaded, the settings in force stay: line 1: bad value"));
    Files.delete(f); // unreadable: counted too, still in force
    long failed = w.failedReloads();
    poll(() -> w.failedReloads() > failed);
    assertThat(inForce.get()).isEqualTo("one");
    replace(f, "two"); // a good file after bad ones is applied
    poll(() -> w.reloads() == 1); // counted after the loader ran: poll the count, not inForce
    assertThat(inForce.get()).isEqualTo("two");
  }

  @Test
  void aFailingSighupHandlerDoesNotStopTheOthers() throws Exception {
    AtomicReference<String> after = new AtomicReference<>();
    open.add(
        Sighup.register(
            () -> {
              throw new IllegalStateException("boom");
            }));
    open.add(Sighup.register(() -> after.set("ran")));
    Sighup.dispatch();
    assertThat(after.get()).isEqualTo("ran");
  }

  /**
   * The real signal, through the one dispatcher; where this process ignores SIGHUP (a build started
   * under nohup: the JVM then installs no handler) the dispatcher is called as the signal would.
   */
  private static void hangUp() {
    if (Sighup.delivered()) {
      Signal.raise(new Signal("HUP"));
    } else {
      Sighup.dispatch();
    }
  }

  private static void poll(BooleanSupplier done) throws InterruptedException {
    AuthenticationTest.poll(done);
  }
}
