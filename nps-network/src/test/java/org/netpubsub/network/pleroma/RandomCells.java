package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;

/** Random subscription and advertisement cells for the configurator's tests. */
public final class RandomCells {
  private RandomCells() {}

  /** 1–3 cells, each of a random length from 0 to {@code maxLength}. */
  public static DzSet of(Random random, int maxLength) {
    List<Dz> cells = new ArrayList<>();
    for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
      cells.add(dz(random, random.nextInt(maxLength + 1)));
    }
    return DzSet.of(cells);
  }

  /** A dz of {@code length} random bits. */
  public static Dz dz(Random random, int length) {
    Dz d = Dz.EMPTY;
    for (int i = 0; i < length; i++) {
      d = d.append(random.nextInt(2));
    }
    return d;
  }
}
