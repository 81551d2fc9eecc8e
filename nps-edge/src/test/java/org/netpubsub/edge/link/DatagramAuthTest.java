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
