"""related: memories sharing a key, an entity or a conflict are linked (docs/METADATA.md §1)."""

from __future__ import annotations

from artibot_memory.api import memories
from artibot_memory.api.relate import MAX_RELATED, MAX_SHARED, links_of, relate
from artibot_memory.core import clock
from artibot_memory.store.jsonfile import Store
from artibot_memory.store.table import spec_for


def test_memories_sharing_a_tool_or_a_person_are_linked_both_ways() -> None:
    pref = memories.save("preference", "Use pnpm, not npm")
    command = memories.save("command", "pnpm install --frozen-lockfile")
    other = memories.save("preference", "Indent with tabs")
    person = memories.save("context", "지민 reviews the database changes", tags=["person:지민"])
    fact = memories.save("context", "Ask 지민 before a migration", tags=["person:지민"])
    assert relate() == 4
    assert memories.get(pref.id).related == [command.id]
    assert memories.get(command.id).related == [pref.id]
    assert memories.get(other.id).related == []
    assert memories.get(person.id).related == [fact.id]


def test_a_supersede_link_is_kept_and_a_conflict_links_its_sides() -> None:
    old = memories.save("preference", "Use yarn", key="package-manager")
    new = memories.save("preference", "Use bun", key="package-manager")
    lone = memories.save(
        "preference",
        "Always squash merges",
        details={"conflicts": [{"id": "cf-1", "with": old.id, "status": "open"}]},
    )
    relate()
    assert memories.get(new.id).related == [old.id]
    assert memories.get(lone.id).related == [old.id]


def test_a_store_is_written_only_when_a_link_changed() -> None:
    memories.save("preference", "Use pnpm")
    memories.save("command", "pnpm test")
    relate()
    path = Store(spec_for("preference")).path
    before = path.stat().st_mtime_ns, path.read_bytes()
    assert relate() == 0
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before


def test_at_most_ten_links_and_a_too_common_entity_links_nothing() -> None:
    few = [
        memories.build(memories.Draft("command", f"terraform plan -target=m{i}"), clock.now())
        for i in range(MAX_RELATED + 5)
    ]
    links = links_of(few)
    assert all(len(ids) == MAX_RELATED for ids in links.values())
    many = [
        memories.build(memories.Draft("command", f"git log -n {i}"), clock.now())
        for i in range(MAX_SHARED + 1)
    ]
    assert all(ids == [] for ids in links_of(many).values())


def test_the_rarest_shared_entity_links_first() -> None:
    now = clock.now()
    build = memories.build
    subject = build(memories.Draft("preference", "Run docker with jq", tags=["person:ana"]), now)
    common = [build(memories.Draft("command", f"docker ps -a {i}"), now) for i in range(12)]
    rare = build(memories.Draft("context", "ana owns the release", tags=["person:ana"]), now)
    links = links_of([subject, *common, rare])
    assert links[subject.id][0] == rare.id
    assert len(links[subject.id]) == MAX_RELATED
