package org.netpubsub.network.openflow;

import java.util.Optional;

/**
 * The OpenFlow 1.3 errors (ofp_error_msg type and code) a switch answers to the flow-mods and
 * group-mods of this model. Constant names are the ones Open vSwitch prints ({@code
 * OFPBAC_BAD_OUT_GROUP}); numbers are OpenFlow 1.3's.
 */
public enum OpenFlowError {
  OFPBRC_EPERM(Type.BAD_REQUEST, 5),
  OFPBRC_BUFFER_UNKNOWN(Type.BAD_REQUEST, 8),
  OFPBRC_BAD_TABLE_ID(Type.BAD_REQUEST, 9),

  OFPBAC_BAD_OUT_PORT(Type.BAD_ACTION, 4),
  OFPBAC_BAD_ARGUMENT(Type.BAD_ACTION, 5),
  OFPBAC_BAD_OUT_GROUP(Type.BAD_ACTION, 9),
  OFPBAC_MATCH_INCONSISTENT(Type.BAD_ACTION, 10),

  OFPBIC_BAD_TABLE_ID(Type.BAD_INSTRUCTION, 2),

  OFPBMC_BAD_VALUE(Type.BAD_MATCH, 7),
  OFPBMC_BAD_PREREQ(Type.BAD_MATCH, 9),

  OFPFMFC_TABLE_FULL(Type.FLOW_MOD_FAILED, 1),
  OFPFMFC_BAD_TABLE_ID(Type.FLOW_MOD_FAILED, 2),
  OFPFMFC_OVERLAP(Type.FLOW_MOD_FAILED, 3),
  OFPFMFC_BAD_COMMAND(Type.FLOW_MOD_FAILED, 6),

  OFPGMFC_GROUP_EXISTS(Type.GROUP_MOD_FAILED, 0),
  OFPGMFC_INVALID_GROUP(Type.GROUP_MOD_FAILED, 1),
  OFPGMFC_OUT_OF_GROUPS(Type.GROUP_MOD_FAILED, 3),
  OFPGMFC_WATCH_UNSUPPORTED(Type.GROUP_MOD_FAILED, 6),
  OFPGMFC_UNKNOWN_GROUP(Type.GROUP_MOD_FAILED, 8),
  OFPGMFC_BAD_TYPE(Type.GROUP_MOD_FAILED, 10),
  OFPGMFC_BAD_COMMAND(Type.GROUP_MOD_FAILED, 11);

  /** ofp_error_type: the number and the spec's name. */
  public enum Type {
    BAD_REQUEST(1),
    BAD_ACTION(2),
    BAD_INSTRUCTION(3),
    BAD_MATCH(4),
    FLOW_MOD_FAILED(5),
    GROUP_MOD_FAILED(6);

    private final int number;

    Type(int number) {
      this.number = number;
    }

    public int number() {
      return number;
    }

    /** {@code OFPET_BAD_ACTION}. */
    public String specName() {
      return "OFPET_" + name();
    }
  }

  private final Type type;
  private final int code;

  OpenFlowError(Type type, int code) {
    this.type = type;
    this.code = code;
  }

  public Type type() {
    return type;
  }

  /** The ofp_error_msg type number. */
  public int typeNumber() {
    return type.number();
  }

  /** The ofp_error_msg code number within the type. */
  public int code() {
    return code;
  }

  /** The error with this OpenFlow 1.3 type and code, if it is one of ours. */
  public static Optional<OpenFlowError> of(int type, int code) {
    for (OpenFlowError e : values()) {
      if (e.type.number == type && e.code == code) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  /** {@code OFPET_BAD_ACTION/OFPBAC_BAD_OUT_GROUP (2,9)}. */
  @Override
  public String toString() {
    return type.specName() + "/" + name() + " (" + type.number + "," + code + ")";
  }
}
