package org.netpubsub.controller.southbound;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The switch answered OFPT_ERROR to messages of an acknowledged batch. The barrier reply came, so
 * every other message of the batch has been processed; the failed ones had no effect.
 */
public final class BatchFailedException extends SouthboundException {
  private static final long serialVersionUID = 1L;

  /** One failed message of the batch and the error the switch answered. */
  public record ModError(SwitchMod mod, SwitchError error) {
    @Override
    public String toString() {
      return mod + " -> " + error;
    }
  }

  private final transient List<ModError> errors;
  private final int batchSize;

  public BatchFailedException(long dpid, int batchSize, List<ModError> errors) {
    super(
        dpid,
        "switch "
            + dpidString(dpid)
            + ": "
            + errors.size()
            + " of "
            + batchSize
            + " messages failed: "
            + errors.stream().map(ModError::toString).collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
    this.batchSize = batchSize;
  }

  /** The failed messages in the order the switch answered them (never empty). */
  public List<ModError> errors() {
    return errors;
  }

  /** The first failed message and its error. */
  public ModError first() {
    return errors.get(0);
  }

  public int batchSize() {
    return batchSize;
  }
}
