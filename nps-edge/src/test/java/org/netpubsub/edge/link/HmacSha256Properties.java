package org.netpubsub.edge.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link HmacSha256} against its naive twin, the JDK's {@code Mac} "HmacSHA256": the same tag for
 * every key length (shorter than, equal to and longer than SHA-256's 64-byte block) and every
 * message, however the messages before it went (the kept pad states are never disturbed).
 */
class HmacSha256Properties {
  @Property(tries = 300)
  void everyTagIsTheJdkMacsTag(
      @ForAll @Size(min = 1, max = 200) byte[] key,
      @ForAll @Size(max = 6) List<@Size(max = 1500) byte[]> messages,
      @ForAll @IntRange(min = 0, max = 40) int off)
      throws Exception {
    Mac twin = Mac.getInstance("HmacSHA256");
    twin.init(new SecretKeySpec(key, "HmacSHA256"));
    HmacSha256 mac = new HmacSha256(key.clone());
    for (byte[] m : messages) {
      byte[] buf = new byte[off + m.length + HmacSha256.LENGTH];
      System.arraycopy(m, 0, buf, off, m.length);
      mac.mac(buf, off, m.length, buf, off + m.length); // written right after the message
      assertThat(Arrays.copyOfRange(buf, off + m.length, buf.length)).isEqualTo(twin.doFinal(m));
      assertThat(Arrays.copyOfRange(buf, off, off + m.length)).isEqualTo(m); // message untouched
    }
  }

  @Test
  void keysAtTheBlockEdgeMatchAndTheCallersKeyIsNotChanged() throws Exception {
    byte[] m = "a datagram".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int length = 63; length <= 66; length++) { // 65 and 66: hashed first (RFC 2104)
      byte[] key = new byte[length];
      Arrays.fill(key, (byte) length);
      Mac twin = Mac.getInstance("HmacSHA256");
      twin.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] out = new byte[HmacSha256.LENGTH];
      new HmacSha256(key).mac(m, 0, m.length, out, 0);
      assertThat(out).as("key of %d bytes", length).isEqualTo(twin.doFinal(m));
      assertThat(key).containsOnly((byte) length);
    }
  }
}
