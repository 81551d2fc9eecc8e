"""Pure test of response_split.py's stage split (pleroma_ovs.py's goal runs): percentiles of the
requests between two readings of the controller's cumulative stage histograms, against a naive
twin over the samples themselves."""

import bisect
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "experiments"))

import response_split  # noqa: E402

BOUNDS = [0.0001 * 1.5 ** i for i in range(30)] + [math.inf]


def cumulative(samples: list[float]) -> list[tuple[float, float]]:
    return [(le, float(sum(1 for s in samples if s <= le))) for le in BOUNDS]


def test_only_the_requests_between_the_readings_count_each_quantile_in_its_own_bucket():
    rng = random.Random(7)
    for _ in range(50):
        earlier = [rng.expovariate(200) for _ in range(rng.randrange(0, 300))]
        window = [rng.expovariate(rng.choice([50, 500])) for _ in range(rng.randrange(1, 400))]
        split = response_split.stage_split({"apply": cumulative(earlier)},
                                        {"apply": cumulative(earlier + window)})["apply"]
        assert split["count"] == len(window)
        ordered = sorted(window)
        for q in (50, 90, 99):
            v = ordered[max(0, math.ceil(len(ordered) * q / 100) - 1)]  # the twin's quantile
            le = BOUNDS[bisect.bisect_left(BOUNDS, v)]
            assert split[f"p{q}"] == (round(le * 1000, 2) if le != math.inf else None), (q, v)


def test_the_histogram_lines_are_read_whatever_the_label_order():
    text = ('nps_pubsub_request_stage_seconds_bucket{stage="apply",le="0.001",} 5.0\n'
            'nps_pubsub_request_stage_seconds_bucket{le="+Inf",stage="apply"} 10.0\n'
            'nps_pubsub_request_stage_seconds_count{stage="apply",} 10.0\n')
    assert response_split.STAGE_BUCKET.findall(text) == [("apply", "0.001", "5.0"),
                                                      ("apply", "+Inf", "10.0")]


def test_no_reading_gives_no_split():
    assert response_split.stage_split(None, {"apply": [(math.inf, 1.0)]}) is None
