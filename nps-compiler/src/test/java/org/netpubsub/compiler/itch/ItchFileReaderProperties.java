package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ItchFileReaderProperties {
  static byte[] file(List<byte[]> messages) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] m : messages) {
      out.write(m.length >>> 8);
      out.write(m.length);
      out.writeBytes(m);
    }
    return out.toByteArray();
  }

  static List<byte[]> read(ItchFileReader r, byte[] file, List<Integer> cuts) {
    List<byte[]> got = new ArrayList<>();
    int pos = 0;
    for (int cut : cuts) {
      int n = Math.min(cut, file.length - pos);
      r.feed(file, pos, n, (b, off, len) -> got.add(Arrays.copyOfRange(b, off, off + len)));
      pos += n;
    }
    r.feed(
        file,
        pos,
        file.length - pos,
        (b, off, len) -> got.add(Arrays.copyOfRange(b, off, off + len)));
    return got;
  }

  @Property(tries = 300)
  void anyChunkingFramesTheSameMessages(
      @ForAll("messageLists") List<byte[]> messages, @ForAll("cuts") List<Integer> cuts) {
    ItchFileReader r = new ItchFileReader();
    List<byte[]> got = read(r, file(messages), cuts);
    assertThat(got).usingElementComparator(Arrays::compare).containsExactlyElementsOf(messages);
    assertThat(r.finish()).isNull();
    assertThat(r.messages()).isEqualTo(messages.size());
  }

  @Property(tries = 200)
  void aFileCutShortLosesOnlyItsLastMessage(
      @ForAll("messageLists") List<byte[]> messages,
      @ForAll @IntRange(min = 1, max = 80) int cut,
      @ForAll("cuts") List<Integer> cuts) {
    byte[] whole = file(messages);
    if (whole.length == 0) {
      return;
    }
    byte[] file = Arrays.copyOf(whole, Math.max(0, whole.length - cut));
    ItchFileReader r = new ItchFileReader();
    List<byte[]> got = read(r, file, cuts);
    assertThat(got).usingElementComparator(Arrays::compare).isSubsetOf(messages);
    Malformation end = r.finish();
    int framed = file(got).length;
    assertThat(end == null).isEqualTo(framed == file.length);
    if (end != null) {
      assertThat(end)
          .isEqualTo(
              file.length - framed == 1
                  ? Malformation.TRUNCATED_BLOCK
                  : Malformation.BLOCK_BEYOND_PACKET);
    }
  }

  @Test
  void aMessageSplitAcrossThreeChunks() {
    byte[] f = file(List.of(new byte[300], new byte[] {'S'}));
    ItchFileReader r = new ItchFileReader();
    List<byte[]> got = read(r, f, List.of(1, 100, 150));
    assertThat(got).hasSize(2);
    assertThat(got.get(0)).hasSize(300);
    assertThat(r.bytes()).isEqualTo(f.length);
  }

  @Provide
  Arbitrary<List<byte[]>> messageLists() {
    return Arbitraries.oneOf(
        ItchArbitraries.messageLists(30),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(700).list().ofMaxSize(5));
  }

  @Provide
  Arbitrary<List<Integer>> cuts() {
    return Arbitraries.integers().between(0, 90).list().ofMaxSize(20);
  }
}
