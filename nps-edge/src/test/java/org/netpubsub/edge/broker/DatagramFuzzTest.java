package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Example;
import org.netpubsub.content.fuzz.Fuzz;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.overlay.NackCodec;
import org.netpubsub.edge.overlay.ReceiveWindows;

/**
 * Fuzz target: every datagram codec of the edge agents and the overlay, on the same bytes: the
 * message datagram {@code NE} ({@link DatagramCodec}, versions 1 and 2), the agents' control
 * datagram {@code NR} ({@link RepairCodec}), the overlay's NACK {@code NK} ({@link NackCodec}) and
 * the tag check in front of them ({@link DatagramAuth#open}). Each decodes or refuses with {@link
 * DatagramException}; what decodes encodes back to a datagram that decodes equal. The tag check
 * never accepts bytes that were not sealed under its key.
 */
public class DatagramFuzzTest {
  private static final DatagramAuth AUTH = DatagramAuth.of(List.of(new byte[32]));

  public static void fuzzerTestOneInput(byte[] data) throws DatagramException {
    accept(data);
  }

  static boolean accept(byte[] data) throws DatagramException {
    int decoded = 0;
    try {
      DatagramCodec.Datagram d = DatagramCodec.decodeDatagram(data, 0, data.length);
      byte[] again = DatagramCodec.encode(d.message(), d.session(), d.replay());
      assertThat(DatagramCodec.decodeDatagram(again, 0, again.length)).isEqualTo(d);
      decoded++;
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
    try {
      RepairCodec.Repair r = RepairCodec.decode(data, 0, data.length);
      byte[] again = RepairCodec.encode(r);
      assertThat(RepairCodec.decode(again, 0, again.length)).isEqualTo(r);
      decoded++;
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
    try {
      ReceiveWindows.Nack n = NackCodec.decode(data, 0, data.length, "edge");
      byte[] again = NackCodec.encode(n);
      assertThat(NackCodec.decode(again, 0, again.length, "edge")).isEqualTo(n);
      decoded++;
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
    // Only a seed sealed under the key opens; a mutation of its bytes or tag does not.
    int opened = AUTH.open(data.clone(), 0, data.length);
    if (opened >= 0) {
      byte[] resealed = Arrays.copyOf(data, opened + AUTH.overhead());
      assertThat(AUTH.seal(resealed, 0, opened)).isEqualTo(data.length);
      assertThat(resealed).isEqualTo(data);
      decoded++;
    }
    return decoded > 0;
  }

  static List<byte[]> seeds() throws DatagramException {
    List<byte[]> out = new ArrayList<>();
    byte[] payload = "{\"price\": 12}".getBytes(StandardCharsets.UTF_8);
    EdgeMessage m = new EdgeMessage("paris", 7, "quotes/ACME", payload, 1, true);
    out.add(DatagramCodec.encode(m));
    out.add(DatagramCodec.encode(m, 99, true));
    out.add(DatagramCodec.encode(new EdgeMessage("e.1", 1, "a", new byte[0], 0, false)));
    for (RepairCodec.Kind k : RepairCodec.Kind.values()) {
      boolean replay = k == RepairCodec.Kind.REPLAY || k == RepairCodec.Kind.REPLAY_END;
      long from = k == RepairCodec.Kind.REPLAY ? 0 : 3;
      long to = k == RepairCodec.Kind.NACK || k == RepairCodec.Kind.SKIP ? 9 : from;
      out.add(
          RepairCodec.encode(new RepairCodec.Repair(k, "lyon", 5, replay ? "" : "t/x", from, to)));
    }
    out.add(NackCodec.encode(new ReceiveWindows.Nack("edge", "quotes/ACME", 1, 4095)));
    byte[] sealed = Arrays.copyOf(out.get(0), out.get(0).length + AUTH.overhead());
    AUTH.seal(sealed, 0, out.get(0).length);
    out.add(sealed);
    return out;
  }

  @Example
  void everyDatagramDecodesOrIsRefusedTyped() throws DatagramException {
    Fuzz.run("datagram", DatagramFuzzTest::accept, seeds(), 2000);
  }
}
