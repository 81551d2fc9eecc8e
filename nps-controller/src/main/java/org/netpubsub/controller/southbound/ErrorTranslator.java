package org.netpubsub.controller.southbound;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.errormsg.OFErrorMsgs;
import org.projectfloodlight.openflow.protocol.ver13.OFBadActionCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFBadInstructionCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFBadMatchCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFBadRequestCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFFlowModFailedCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFGroupModFailedCodeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver13.OFHelloFailedCodeSerializerVer13;
import org.projectfloodlight.openflow.types.OFErrorCauseData;

/**
 * OFPT_ERROR messages as {@link SwitchError}s (type and code numbers as on the wire) and back. The
 * numbers are read from the message's own encoding, so every error type openflowj can parse maps,
 * also those the model has no name for.
 */
public final class ErrorTranslator {
  /** ofp_error_msg type numbers used here. */
  public static final int HELLO_FAILED = 0;

  public static final int BAD_REQUEST = 1;
  public static final int BAD_ACTION = 2;
  public static final int BAD_INSTRUCTION = 3;
  public static final int BAD_MATCH = 4;
  public static final int FLOW_MOD_FAILED = 5;
  public static final int GROUP_MOD_FAILED = 6;

  /** OFPHFC_INCOMPATIBLE, OFPBRC_BAD_VERSION, OFPBRC_BAD_TYPE, OFPBRC_BAD_LEN. */
  public static final int HELLO_INCOMPATIBLE = 0;

  public static final int BAD_VERSION = 0;
  public static final int BAD_TYPE = 1;
  public static final int BAD_LEN = 6;

  private ErrorTranslator() {}

  static SwitchError fromOpenFlow(OFErrorMsg m) {
    ByteBuf buf = Unpooled.buffer(64);
    try {
      m.writeTo(buf);
      // ofp_error_msg: 8-byte header, then type (u16) and code (u16).
      return new SwitchError(
          buf.getUnsignedShort(8), buf.getUnsignedShort(10), m.getData().getData());
    } finally {
      buf.release();
    }
  }

  /** An OpenFlow 1.3 OFPT_ERROR of the given type and code numbers. */
  public static OFErrorMsg errorMessage(int type, int code, long xid, byte[] data) {
    return toOpenFlow(OpenFlowTranslator.OF13, type, code, xid, data);
  }

  /** An OFPT_ERROR of the given type and code numbers (the types of flow and group updates). */
  static OFErrorMsg toOpenFlow(OFFactory f, int type, int code, long xid, byte[] data) {
    OFErrorMsgs e = f.errorMsgs();
    OFErrorCauseData cause = OFErrorCauseData.of(data, f.getVersion());
    short c = (short) code;
    return switch (type) {
      case HELLO_FAILED ->
          e.buildHelloFailedErrorMsg()
              .setXid(xid)
              .setCode(OFHelloFailedCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case BAD_REQUEST ->
          e.buildBadRequestErrorMsg()
              .setXid(xid)
              .setCode(OFBadRequestCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case BAD_ACTION ->
          e.buildBadActionErrorMsg()
              .setXid(xid)
              .setCode(OFBadActionCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case BAD_INSTRUCTION ->
          e.buildBadInstructionErrorMsg()
              .setXid(xid)
              .setCode(OFBadInstructionCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case BAD_MATCH ->
          e.buildBadMatchErrorMsg()
              .setXid(xid)
              .setCode(OFBadMatchCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case FLOW_MOD_FAILED ->
          e.buildFlowModFailedErrorMsg()
              .setXid(xid)
              .setCode(OFFlowModFailedCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      case GROUP_MOD_FAILED ->
          e.buildGroupModFailedErrorMsg()
              .setXid(xid)
              .setCode(OFGroupModFailedCodeSerializerVer13.ofWireValue(c))
              .setData(cause)
              .build();
      default -> throw new IllegalArgumentException("error type not supported: " + type);
    };
  }
}
