package org.netpubsub.edge.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatagramAuthTest {
  private static final DatagramAuth OTHER =
      DatagramAuth.of(List.of(HexFormat.of().parseHex("22".repeat(32))));

  @Property
  void aSealedDatagramOpensAndAnyChangedBitOrAnotherKeyFails(
      @ForAll @Size(max = 2000) byte[] d, @ForAll @IntRange(min = 0, max = 1 << 20) int flip) {
    byte[] sealed = TestKeys.seal(d);
    assertThat(sealed).hasSize(d.length + DatagramAuth.TAG);
    assertThat(TestKeys.AUTH.open(sealed, 0, sealed.length)).isEqualTo(d.length);
    assertThat(OTHER.open(sealed, 0, sealed.length)).isEqualTo(-1);
    int bit = flip % (sealed.length * 8);
    byte[] changed = sealed.clone();
    changed[bit / 8] ^= (byte) (1 << (bit % 8));
    assertThat(TestKeys.AUTH.open(changed, 0, changed.length)).isEqualTo(-1);
    assertThat(TestKeys.AUTH.open(sealed, 0, sealed.length - 1)).isEqualTo(-1);
  }

  @Test
  void theFirstKeySignsAndEveryKeyVerifies() {
    byte[] k1 = HexFormat.of().parseHex("33".repeat(32));
    byte[] k2 = HexFormat.of().parseHex("44".repeat(40));
    DatagramAuth old = DatagramAuth.of(List.of(k1));
    DatagramAuth rotating = DatagramAuth.of(List.of(k2, k1));
    byte[] d = Arrays.copyOf("hello".getBytes(), 5 + DatagramAuth.TAG);
    old.seal(d, 0, 5);
    assertThat(rotating.open(d, 0, d.length)).isEqualTo(5); // old senders still accepted
    byte[] e = Arrays.copyOf("hello".getBytes(), 5 + DatagramAuth.TAG);
    rotating.seal(e, 0, 5);
    assertThat(old.open(e, 0, e.length)).isEqualTo(-1); // signed with the new key
    assertThat(DatagramAuth.insecure().open(e, 0, 3)).isEqualTo(3);
    assertThat(DatagramAuth.insecure().overhead()).isZero();
  }

  @Test
  void replacedKeysApplyAtTheNextDatagramOfEveryThreadAndOtherKeysAreCounted() throws Exception {
    byte[] k1 = HexFormat.of().parseHex("55".repeat(32));
    byte[] k2 = HexFormat.of().parseHex("66".repeat(32));
    DatagramAuth auth = DatagramAuth.of(List.of(k1));
    byte[] d = "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] under1 = sealed(DatagramAuth.of(List.of(k1)), d);
    byte[] under2 = sealed(DatagramAuth.of(List.of(k2)), d);
    assertThat(auth.open(under1, 0, under1.length)).isEqualTo(d.length); // this thread's MACs made
    assertThat(auth.open(under2, 0, under2.length)).isEqualTo(-1);

    auth.update(List.of(k2, k1)); // the new key signs, the old one still verifies
    assertThat(auth.keyCount()).isEqualTo(2);
    assertThat(sealed(auth, d)).isEqualTo(under2);
    assertThat(auth.open(under2, 0, under2.length)).isEqualTo(d.length);
    assertThat(auth.openedUnderOtherKey()).isZero();
    assertThat(auth.open(under1, 0, under1.length)).isEqualTo(d.length);
    assertThat(auth.openedUnderOtherKey()).isEqualTo(1);

    auth.update(List.of(k2)); // grace over: the old key is refused, on another thread too
    assertThat(auth.open(under1, 0, under1.length)).isEqualTo(-1);
    int[] other = new int[1];
    Thread t = Thread.ofPlatform().start(() -> other[0] = auth.open(under1, 0, under1.length));
    t.join();
    assertThat(other[0]).isEqualTo(-1);
    assertThat(auth.openedUnderOtherKey()).isEqualTo(1);

    assertThatThrownBy(() -> auth.update(List.of(new byte[8]))).hasMessageContaining("32 needed");
    assertThatThrownBy(() -> DatagramAuth.insecure().update(List.of(k1)))
        .isInstanceOf(IllegalStateException.class);
  }

  private static byte[] sealed(DatagramAuth auth, byte[] d) {
    byte[] out = Arrays.copyOf(d, d.length + DatagramAuth.TAG);
    auth.seal(out, 0, d.length);
    return out;
  }

  @Test
  void keyFilesAreParsedAndBadOnesRefusedWithTheReason(@TempDir Path dir) throws Exception {
    Path ok = dir.resolve("k");
    Files.writeString(ok, "# rotation: new first\n" + "ab".repeat(32) + "\n\n" + "cd".repeat(32));
    DatagramAuth a = DatagramAuth.fromFile(ok);
    assertThat(a.secure()).isTrue();
    Path shortKey = dir.resolve("short");
    Files.writeString(shortKey, "abcd\n");
    assertThatThrownBy(() -> DatagramAuth.fromFile(shortKey))
        .hasMessageContaining("2 bytes, at least 32 needed");
    Path notHex = dir.resolve("nothex");
    Files.writeString(notHex, "zz".repeat(32));
    assertThatThrownBy(() -> DatagramAuth.fromFile(notHex)).hasMessageContaining("line 1");
    Path empty = dir.resolve("empty");
    Files.writeString(empty, "# nothing\n");
    assertThatThrownBy(() -> DatagramAuth.fromFile(empty)).hasMessageContaining("none given");
    // read by bytes: a device with no end is refused, not read whole
    assertThatThrownBy(() -> DatagramAuth.fromFile(Path.of("/dev/zero")))
        .hasMessageContaining("over 65536 B");
  }
}
