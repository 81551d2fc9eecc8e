package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's files are read again only when their modification time, size or identity
 * changed, and always while the last good read may have missed an edit in the same timestamp
 * granule; a bad file is read (and counted) at each use, as before.
 */
class LastGoodFileTest {
  @TempDir Path dir;
  private final AtomicInteger reads = new AtomicInteger();

  private LastGoodFile<String> file(Path p) throws Exception {
    return new LastGoodFile<>(
        Logger.getLogger(LastGoodFileTest.class.getName()),
        p,
        Files.readString(p),
        f -> {
          reads.incrementAndGet();
          String s = Files.readString(f);
          if (s.startsWith("bad")) {
            throw new IllegalArgumentException("bad line 1");
          }
          return s;
        },
        "test file",
        String::length,
        String::equals,
        (held, now) -> "changed");
  }

  private final FileTime old = FileTime.from(Instant.now().minusSeconds(60));

  /** Sets the modification time to one fixed minute ago (equal times for different contents). */
  private void age(Path p) throws Exception {
    Files.setLastModifiedTime(p, old);
  }

  @Test
  void anUnchangedFileIsNotReadAgainButEveryChangeIs() throws Exception {
    Path p = Files.writeString(dir.resolve("f"), "aaaa");
    LastGoodFile<String> f = file(p);
    assertThat(f.get()).isEqualTo("aaaa");
    assertThat(f.get()).isEqualTo("aaaa"); // just written: racy, read again
    assertThat(reads).hasValue(2);

    age(p);
    f.get(); // read once more: the stamp is old enough to be trusted from now on
    int before = reads.get();
    for (int i = 0; i < 100; i++) {
      assertThat(f.get()).isEqualTo("aaaa");
    }
    assertThat(reads).hasValue(before);

    Files.writeString(p, "bbbb"); // same size, a new modification time
    assertThat(f.get()).isEqualTo("bbbb");
    age(p);
    f.get();
    Files.move(
        Files.writeString(dir.resolve("g"), "cccc"),
        p,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    age(p); // the same age as the old one: the new file's identity tells them apart
    assertThat(f.get()).isEqualTo("cccc");

    Files.writeString(p, "bad!");
    Files.setLastModifiedTime(p, FileTime.from(old.toInstant().minusSeconds(1))); // edited
    before = reads.get();
    assertThat(f.get()).isEqualTo("cccc"); // the last good contents, counted
    assertThat(f.get()).isEqualTo("cccc");
    assertThat(reads.get() - before).isEqualTo(2);
    assertThat(f.invalidReads()).isEqualTo(2);
  }
}
