package org.netpubsub.controller.southbound;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.OptionalLong;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFHelloElem;
import org.projectfloodlight.openflow.protocol.OFHelloElemVersionbitmap;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMessageReader;
import org.projectfloodlight.openflow.types.U32;

/**
 * Splits the byte stream into OpenFlow frames (the header's length field: offset 2, 2 bytes,
 * counting the whole message) and decodes each with openflowj's generic reader. Emits an {@link
 * OFMessage} for an OpenFlow 1.3 frame and a {@link ForeignVersionFrame} for any other version (the
 * peer decides: version negotiation or disconnect). Anything else becomes a {@link
 * ProtocolViolationException} naming the {@link DisconnectReason}. Used by the controller and by
 * the simulated switch.
 */
public final class OpenFlowFrameDecoder extends LengthFieldBasedFrameDecoder {
  /** The largest message OpenFlow can frame (the length field is 16 bits). */
  public static final int MAX_FRAME = 0xffff;

  private static final int HEADER = 8;
  private static final int OF13 = 4;
  private static final OFMessageReader<OFMessage> READER = OFFactories.getGenericReader();

  public OpenFlowFrameDecoder(int maxMessageSize) {
    super(Math.min(maxMessageSize, MAX_FRAME), 2, 2, -4, 0, true);
    if (maxMessageSize < HEADER) {
      throw new IllegalArgumentException("max message size below the OpenFlow header");
    }
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    ByteBuf frame;
    try {
      frame = (ByteBuf) super.decode(ctx, in);
    } catch (TooLongFrameException e) {
      throw new ProtocolViolationException(DisconnectReason.MESSAGE_TOO_LARGE, e.getMessage());
    } catch (CorruptedFrameException e) {
      throw new ProtocolViolationException(DisconnectReason.MALFORMED_FRAME, e.getMessage());
    }
    if (frame == null) {
      return null;
    }
    try {
      return decodeFrame(frame);
    } finally {
      frame.release();
    }
  }

  private static Object decodeFrame(ByteBuf frame) {
    int length = frame.readableBytes();
    if (length < HEADER) {
      throw new ProtocolViolationException(
          DisconnectReason.MALFORMED_FRAME, "frame of " + length + " bytes, below the header");
    }
    int version = frame.getUnsignedByte(frame.readerIndex());
    int type = frame.getUnsignedByte(frame.readerIndex() + 1);
    long xid = frame.getUnsignedInt(frame.readerIndex() + 4);
    if (version != OF13) {
      return new ForeignVersionFrame(version, type, xid, helloBitmap(frame, type));
    }
    try {
      OFMessage m = READER.readFrom(frame);
      if (m == null) {
        throw new ProtocolViolationException(
            DisconnectReason.UNPARSABLE_MESSAGE, "incomplete message of type " + type);
      }
      return m;
    } catch (OFParseError | RuntimeException e) {
      if (e instanceof ProtocolViolationException p) {
        throw p;
      }
      throw new ProtocolViolationException(
          DisconnectReason.UNPARSABLE_MESSAGE,
          "cannot parse OpenFlow 1.3 message type " + type + " xid " + xid + ": " + e);
    }
  }

  /** The version bitmap of a HELLO of another version, if openflowj can read that version. */
  private static OptionalLong helloBitmap(ByteBuf frame, int type) {
    if (type != ForeignVersionFrame.HELLO) {
      return OptionalLong.empty();
    }
    try {
      if (READER.readFrom(frame.duplicate()) instanceof OFHello hello) {
        for (OFHelloElem e : hello.getElements()) {
          if (e instanceof OFHelloElemVersionbitmap b && !b.getBitmaps().isEmpty()) {
            U32 first = b.getBitmaps().get(0);
            return OptionalLong.of(first.getValue());
          }
        }
      }
    } catch (OFParseError | RuntimeException e) {
      // A version openflowj does not know: negotiate on the header's version alone.
    }
    return OptionalLong.empty();
  }
}
