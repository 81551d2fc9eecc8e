package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

/**
 * {@link TlsTurn} on embedded channels. While the controller keeps up no connection is held. Then a
 * controller always slow (threshold 0), one TLS handshake at a time: a connection's bytes reach its
 * {@link SslHandler} only in its turn (not-TLS bytes then fail its handshake, which is how the test
 * sees them arrive); a connection closed while waiting leaves the queue and is never given a turn
 * (with reads paused, such closes went unnoticed and dead connections took turns ahead of live
 * ones); a turn ends when its time is up; a peer sending more than a ClientHello is closed; one
 * beyond the waiting bound begins at once (counted).
 */
class TlsTurnTest {
  /** A TLS record header announcing 100 bytes that never come: its handshake stays pending. */
  private static final byte[] PARTIAL_RECORD = {0x16, 0x03, 0x01, 0x00, 0x64};

  private static final byte[] NOT_TLS = "GET / HTTP/1.1\r\n\r\n".getBytes();

  /** One at a time while slow; two may wait (all embedded channels share one remote address). */
  private final HandshakeTurns<TlsTurn> turns = new HandshakeTurns<>(1, 2, 4096);

  /** Always slow: every server flight takes at least 0 ns. */
  private HandshakeLag lag = new HandshakeLag(Duration.ZERO);

  private final SouthboundMetrics metrics = new SouthboundMetrics();

  private EmbeddedChannel connection(Duration lease) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, null, null);
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(false);
    EmbeddedChannel ch =
        new EmbeddedChannel(new TlsTurn(turns, lease, metrics, lag), new SslHandler(engine));
    ch.pipeline().fireChannelActive();
    return ch;
  }

  private static boolean handshakeFailed(EmbeddedChannel ch) {
    ch.runPendingTasks();
    var f = ch.pipeline().get(SslHandler.class);
    return f == null || (f.handshakeFuture().isDone() && !f.handshakeFuture().isSuccess());
  }

  private static void send(EmbeddedChannel ch, byte[] bytes) {
    try {
      ch.writeInbound(Unpooled.wrappedBuffer(bytes));
    } catch (RuntimeException e) {
      // the SslHandler's decode failure, rethrown by the embedded channel: the bytes arrived
    }
  }

  @Test
  void whileTheControllerKeepsUpNoConnectionIsHeld() throws Exception {
    lag = new HandshakeLag(Duration.ofHours(1)); // no flight is slow
    EmbeddedChannel a = connection(Duration.ofMinutes(1));
    EmbeddedChannel b = connection(Duration.ofMinutes(1));
    send(a, PARTIAL_RECORD); // a handshake in progress, begun just now
    send(b, NOT_TLS);
    assertThat(handshakeFailed(b)).as("b's bytes reached TLS at once").isTrue();
    assertThat(turns.waiting()).isZero();
    assertThat(turns.running()).as("a runs; b's failed handshake ended its turn").isEqualTo(1);
    a.close();
    assertThat(turns.sources()).as("the source is forgotten").isZero();
  }

  @Test
  void bytesReachTlsOnlyInTheirTurnAndAClosedWaiterNeverGetsOne() throws Exception {
    Duration lease = Duration.ofMinutes(1);
    EmbeddedChannel a = connection(lease);
    EmbeddedChannel b = connection(lease);
    EmbeddedChannel c = connection(lease);
    EmbeddedChannel quiet = connection(lease);

    send(a, PARTIAL_RECORD); // a's turn: its handshake waits for the rest of the record
    send(b, NOT_TLS);
    send(c, NOT_TLS);
    assertThat(turns.running()).isEqualTo(1);
    assertThat(turns.waiting())
        .as("b and c wait; quiet sent nothing and asks for nothing")
        .isEqualTo(2);
    assertThat(handshakeFailed(b)).as("b's bytes are held").isFalse();

    b.close(); // gives up while waiting
    assertThat(turns.waiting()).isEqualTo(1);

    a.close(); // a's turn ends: c's begins, its bytes reach TLS and fail its handshake
    assertThat(handshakeFailed(c)).as("c had its turn").isTrue();
    assertThat(turns.running()).as("c's failed handshake ended its turn").isZero();
    assertThat(turns.waiting()).isZero();
    assertThat(quiet.isActive()).isTrue();
  }

  @Test
  void aTurnEndsWhenItsTimeIsUp() throws Exception {
    EmbeddedChannel slow = connection(Duration.ofMillis(50));
    EmbeddedChannel next = connection(Duration.ofMillis(50));
    send(slow, PARTIAL_RECORD); // a peer that stalls mid-handshake
    send(next, NOT_TLS);
    assertThat(turns.waiting()).isEqualTo(1);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (turns.waiting() > 0 && System.nanoTime() < deadline) {
      slow.runScheduledPendingTasks(); // the lease, on slow's loop
      Thread.onSpinWait();
    }
    assertThat(handshakeFailed(next)).as("next got the stalled peer's turn").isTrue();
    assertThat(slow.isActive()).as("the stalled peer itself stays connected").isTrue();
  }

  @Test
  void morePendingBytesThanAClientHelloCloseTheConnection() throws Exception {
    EmbeddedChannel first = connection(Duration.ofMinutes(1));
    EmbeddedChannel flood = connection(Duration.ofMinutes(1));
    send(first, PARTIAL_RECORD);
    send(flood, NOT_TLS);
    send(flood, new byte[TlsTurn.MAX_HELD]);
    flood.runPendingTasks();
    assertThat(flood.isActive()).isFalse();
    assertThat(turns.waiting()).isZero();
  }

  @Test
  void aConnectionBeyondTheWaitingBoundBeginsAtOnceAndIsCounted() throws Exception {
    EmbeddedChannel first = connection(Duration.ofMinutes(1));
    EmbeddedChannel second = connection(Duration.ofMinutes(1));
    EmbeddedChannel third = connection(Duration.ofMinutes(1));
    EmbeddedChannel beyond = connection(Duration.ofMinutes(1));
    send(first, PARTIAL_RECORD);
    send(second, NOT_TLS);
    send(third, NOT_TLS);
    send(beyond, NOT_TLS);
    assertThat(handshakeFailed(beyond))
        .as("a third waiting from one source: handled at once, as without turns")
        .isTrue();
    assertThat(metrics.tlsTurnsOverflow()).isEqualTo(1);
    assertThat(turns.waiting()).isEqualTo(2);
    assertThat(handshakeFailed(second)).as("the waiting still wait").isFalse();
  }
}
