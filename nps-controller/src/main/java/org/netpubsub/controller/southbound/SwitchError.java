package org.netpubsub.controller.southbound;

import java.util.Arrays;
import java.util.Optional;
import org.netpubsub.network.openflow.OpenFlowError;

/**
 * An OFPT_ERROR a switch sent: the ofp_error_msg type and code numbers, the model's name for them
 * when the model knows them ({@link OpenFlowError}), and the data (the start of the offending
 * request, or the text of a HELLO_FAILED).
 */
public record SwitchError(int type, int code, byte[] data) {
  public SwitchError {
    data = data == null ? new byte[0] : data.clone();
  }

  /** The model's error with this type and code, if it is one of the model's. */
  public Optional<OpenFlowError> known() {
    return OpenFlowError.of(type, code);
  }

  /** True if this is {@code e}. */
  public boolean is(OpenFlowError e) {
    return e.typeNumber() == type && e.code() == code;
  }

  @Override
  public byte[] data() {
    return data.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SwitchError e
        && e.type == type
        && e.code == code
        && Arrays.equals(e.data, data);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * type + code) + Arrays.hashCode(data);
  }

  /** {@code OFPET_BAD_ACTION/OFPBAC_BAD_OUT_GROUP (2,9)}, or {@code error (type,code)}. */
  @Override
  public String toString() {
    return known().map(OpenFlowError::toString).orElse("error (" + type + "," + code + ")");
  }
}
