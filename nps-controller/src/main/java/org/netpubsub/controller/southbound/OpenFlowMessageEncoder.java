package org.netpubsub.controller.southbound;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import org.projectfloodlight.openflow.protocol.OFMessage;

/** Writes openflowj messages to the wire ({@code writeTo(ByteBuf)}); stateless and shared. */
@Sharable
public final class OpenFlowMessageEncoder extends MessageToByteEncoder<OFMessage> {
  public static final OpenFlowMessageEncoder INSTANCE = new OpenFlowMessageEncoder();

  private OpenFlowMessageEncoder() {
    super(OFMessage.class);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, OFMessage msg, ByteBuf out) {
    msg.writeTo(out);
  }
}
