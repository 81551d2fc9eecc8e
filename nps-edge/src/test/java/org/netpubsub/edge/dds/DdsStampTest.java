package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The source timestamp a DDS sample carries across the overlay. */
class DdsStampTest {
  @Property
  void aStampedPayloadGivesBackItsTimestampAndCdr(@ForAll long ts, @ForAll byte[] body) {
    byte[] cdr = ByteBuffer.allocate(body.length + 1).put((byte) 0).put(body).array();
    byte[] p = DdsStamp.stamp(ts, cdr);
    assertThat(DdsStamp.timestamp(p)).isEqualTo(ts);
    assertThat(DdsStamp.cdr(p)).isEqualTo(cdr);
    // naive twin: the header is 0x01 and the timestamp's big-endian bytes
    assertThat(p).startsWith(ByteBuffer.allocate(9).put((byte) 1).putLong(ts).array());
  }

  @Property
  void bareCdrIsLeftAsItIs(@ForAll byte[] body) {
    byte[] cdr = ByteBuffer.allocate(body.length + 1).put((byte) 0).put(body).array();
    assertThat(DdsStamp.timestamp(cdr)).isNull();
    assertThat(DdsStamp.cdr(cdr)).isSameAs(cdr);
  }

  @Test
  void aTooShortPayloadIsNotStamped() {
    byte[] p = {1, 0, 0};
    assertThat(DdsStamp.timestamp(p)).isNull();
    assertThat(DdsStamp.cdr(p)).isSameAs(p);
  }
}
