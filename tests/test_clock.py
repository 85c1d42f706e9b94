"""The one clock: a time stamp written without datetime reads as the datetime it stands for."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from artibot_memory.core import clock


@pytest.mark.parametrize("timespec", ["seconds", "milliseconds", "microseconds"])
@pytest.mark.parametrize(
    "moment",
    ["2026-12-01T14:44:10.954321Z", "2027-01-01T00:00:00Z", "2028-02-29T23:59:59.999999Z"],
)
def test_a_stamp_is_what_isoformat_writes_for_the_same_moment(moment: str, timespec: str) -> None:
    with freeze_time(moment):
        assert clock.stamp(timespec) == clock.now().isoformat(timespec=timespec)


def test_a_stamp_reads_back_as_the_frozen_moment() -> None:
    with freeze_time("2026-12-01T14:44:10.954Z"):
        assert clock.parse_time(clock.stamp()) == datetime(
            2026, 12, 1, 14, 44, 10, 954_000, tzinfo=timezone.utc
        )
        assert clock.micros_now() == int(clock.now().timestamp() * 1_000_000)


def test_the_clock_moves_with_freezegun() -> None:
    with freeze_time("2026-12-01T10:00:00Z") as frozen:
        first = clock.stamp("seconds")
        frozen.tick(61)
        assert (first, clock.stamp("seconds")) == (
            "2026-12-01T10:00:00+00:00",
            "2026-12-01T10:01:01+00:00",
        )
