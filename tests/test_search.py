from __future__ import annotations

from datetime import timedelta

import pytest
from freezegun import freeze_time

from artibot_memory.api import memories
from artibot_memory.api.ingest import ingest_journal, record_access_counts
from artibot_memory.core import clock
from artibot_memory.recall.search import search
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for


def test_an_empty_home_returns_nothing() -> None:
    assert search("deploy the app") == []


def test_an_unrelated_query_returns_nothing() -> None:
    memories.save("preference", "Use pnpm instead of npm for JavaScript packages")
    memories.save("context", "The billing service talks to Stripe through a queue")
    assert search("kubernetes helm chart") == []


def test_recency_alone_never_makes_a_hit() -> None:
    # The original code let recency (0.25) pass its 0.1 threshold: any young entry matched.
    memories.save("context", "brand new memory about databases")
    assert search("frontend css colours") == []


def test_a_matching_memory_is_found_by_a_word_of_its_text() -> None:
    saved = memories.save("context", "Deploys go through GitHub Actions to Fly.io")
    [hit] = search("how do we deploy")
    assert hit.memory.id == saved.id
    assert 0 < hit.score <= 1


def test_a_memory_is_found_by_its_tags() -> None:
    saved = memories.save("context", "the thing we agreed on", tags=["postgres"])
    assert [h.memory.id for h in search("postgres")] == [saved.id]


def test_at_equal_text_the_newer_memory_ranks_first() -> None:
    with freeze_time("2026-01-01") as clock:
        old = memories.save("context", "redis cache settings", project="a")
        clock.tick(timedelta(days=30))
        new = memories.save("context", "redis cache settings", project="b")
        hits = search("redis cache", record=False)
    assert [h.memory.id for h in hits] == [new.id, old.id]


def test_at_equal_text_the_more_used_memory_ranks_first() -> None:
    with freeze_time("2026-01-01"):
        unused = memories.save("context", "celery worker concurrency", project="a")
        used = memories.save("context", "celery worker concurrency", project="b")
        record_access_counts({used.id: 20}, clock.now())
        hits = search("celery worker", record=False)
    assert [h.memory.id for h in hits] == [used.id, unused.id]


def test_returned_hits_are_counted_as_accessed_by_the_next_ingest_not_by_a_store_write() -> None:
    saved = memories.save("context", "the API gateway is Kong")
    store = Store(spec_for("context"))
    before = store.path.read_bytes()
    with freeze_time("2026-05-05T10:00:00Z"):
        search("api gateway")
        search("kong gateway")
    assert store.path.read_bytes() == before  # a search takes no store lock, writes no store
    with freeze_time("2026-05-05T11:00:00Z"):
        ingest_journal()
    [entry] = store.load()
    assert entry.id == saved.id
    assert entry.access_count == 2
    assert entry.last_accessed is not None
    assert entry.last_accessed.isoformat().startswith("2026-05-05T10:00")


def test_superseded_and_expired_memories_are_not_returned() -> None:
    memories.save("preference", "indent with tabs", key="indent")
    current = memories.save("preference", "indent with four spaces", key="indent")
    assert [h.memory.id for h in search("indent")] == [current.id]
    with freeze_time("2026-01-01") as clock:
        memories.save("command", "terraform apply")
        clock.tick(timedelta(days=8))
        assert search("terraform") == []


def test_the_project_filter_keeps_global_and_own_memories() -> None:
    memories.save("context", "shop uses django", project="/src/shop")
    memories.save("context", "blog uses django", project="/src/blog")
    memories.save("preference", "django templates over jinja")
    texts = {h.memory.text for h in search("django", project="shop")}
    assert texts == {"shop uses django", "django templates over jinja"}


def test_the_type_filter_and_limit_are_honoured() -> None:
    for i in range(5):
        memories.save("command", f"docker build -t img{i} .")
    memories.save("context", "docker images are built in CI")
    assert {h.memory.type.value for h in search("docker", types=["command"])} == {"command"}
    assert len(search("docker", limit=2)) == 2


@pytest.mark.parametrize(
    ("stored", "query"),
    [
        pytest.param("배포는 금요일에 하지 않는다", "배포를 언제", id="korean-particle"),
        pytest.param("메모리를 정리하는 방법", "메모리", id="korean-object-marker"),
        pytest.param("The payment_service retries three times", "payment service", id="snake-case"),
        pytest.param(
            "Fixed the HttpClientTimeout in fetchUsers", "http client timeout", id="camel-case"
        ),
        pytest.param("Errors in the migrations folder", "migration error", id="plural"),
    ],
)
def test_tokenising_lets_inflected_and_compound_words_match(stored: str, query: str) -> None:
    saved = memories.save("context", stored)
    assert [h.memory.id for h in search(query)] == [saved.id]


def test_an_access_count_is_skipped_not_waited_for_when_the_store_is_busy() -> None:
    from artibot_memory.store.lock import locked  # noqa: PLC0415

    saved = memories.save("context", "the API gateway is Kong")
    store = Store(spec_for("context"))
    with locked(store.path, timeout=1.0):
        record_access_counts({saved.id: 3}, clock.now())  # returns: the lock is not ours
    [entry] = store.load()
    assert entry.access_count == 0
    record_access_counts({saved.id: 3}, clock.now())
    [entry] = store.load()
    assert entry.access_count == 3
