"""The bounded map of recently used values that the long-running caches share
(``application/recent.py``)."""

from __future__ import annotations

from cascadia.application.recent import Recent


def test_the_least_recently_used_key_goes_first() -> None:
    recent: Recent[str, int] = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # now "b" is the least recently used
    recent.put("c", 3)
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == (1, None, 3)


def test_without_an_order_the_last_value_written_is_kept() -> None:
    recent: Recent[str, int] = Recent(4)
    recent.put("a", 5)
    recent.put("a", 2)
    assert recent.get("a") == 2


def test_with_an_order_an_older_value_does_not_replace_a_later_one() -> None:
    recent: Recent[str, tuple[int, str]] = Recent(4, order=lambda value: value[0])
    recent.put("a", (3, "three"))
    recent.put("a", (2, "two"))
    assert recent.get("a") == (3, "three")
    recent.put("a", (3, "three again"))  # as late: kept
    assert recent.get("a") == (3, "three again")
    recent.put("a", (4, "four"))
    assert recent.get("a") == (4, "four")


def test_a_value_not_kept_still_counts_as_a_use() -> None:
    recent: Recent[str, int] = Recent(2, order=lambda value: value)
    recent.put("a", 9)
    recent.put("b", 1)
    recent.put("a", 1)  # older: not kept, but "a" is now the most recently used
    recent.put("c", 1)
    assert (recent.get("a"), recent.get("b")) == (9, None)
