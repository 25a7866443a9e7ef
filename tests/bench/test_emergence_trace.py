"""The emergence evaluation's checks, on rows written by hand: knowledge travels only from
someone who had it, a yes counts only when what it cites reached the agent that way, edges
need both sides, and attendance is where the game put the invited during the party."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from hearth_client.demo.drive import Snapshot
from sqlalchemy.orm import Session, sessionmaker

from bench.emergence_data import Line, RunRows, model_lines, wait_for_talk
from bench.emergence_interviews import Judged, Question, Reply
from bench.emergence_measures import attendance, diffusion, network, relationship_edges
from bench.emergence_scenario import heard_in
from bench.emergence_topics import ELECTION, PARTY, PARTY_GATHERING
from bench.emergence_trace import MemoryRow, grounded, names_person, trace, transmissions
from cognition.offline import OFFLINE_MODEL
from db.models import Conversation, LlmCall
from tests.factories import make_agent, make_world

START = datetime(2023, 2, 13, 7, 0)
NAMES = {"Junie Halvorsen", "Tomas Ferreira", "Priya Raman", "Hiro Tanaka"}


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


def said(memory_id: int, agent: str, speaker: str, text: str, hours: float) -> MemoryRow:
    listener = agent if agent != speaker else "someone"
    line = f'{speaker} said to {listener}: "{text}"'
    return MemoryRow(memory_id, agent, "utterance", line, speaker, at(hours))


SEED = "Junie is planning a Valentine's Day party"
SIGHT = "Junie Halvorsen is hosting the party"
MEMORIES = [
    MemoryRow(1, "Junie Halvorsen", "seed", SEED, None, START),
    said(2, "Tomas Ferreira", "Junie Halvorsen", "I'm hosting a Valentine's Day party!", 1),
    said(3, "Priya Raman", "Tomas Ferreira", "Have you heard? Junie's party is on Tuesday.", 3),
    # Hiro heard of it from Priya before Priya knew: a rumour with no source
    said(4, "Hiro Tanaka", "Priya Raman", "There is a party, I think.", 2),
    MemoryRow(5, "Hiro Tanaka", "seed", "Hiro likes parties at the Valentine's Day", None, START),
    MemoryRow(6, "Priya Raman", "reflection", "Priya is looking forward to it", None, at(4)),
    MemoryRow(7, "Tomas Ferreira", "observation", SIGHT, "Junie Halvorsen", at(0.5)),
    said(8, "Tomas Ferreira", "Tomas Ferreira", "Hello, Priya!", 3),  # his own line
]
ROWS = RunRows(
    memories={m.id: m for m in MEMORIES},
    evidence={6: [3]},
    heard=[],
    pairs=[],
    calls_by_model={},
)


def test_news_travels_only_from_someone_who_had_it() -> None:
    found = transmissions(MEMORIES, PARTY, NAMES)
    assert [(t.agent, t.source, t.how) for t in found] == [
        ("Tomas Ferreira", "Junie Halvorsen", "saw"),
        ("Tomas Ferreira", "Junie Halvorsen", "heard"),
        ("Hiro Tanaka", "Priya Raman", "heard"),
        ("Priya Raman", "Tomas Ferreira", "heard"),
    ]
    known = trace(found, PARTY, start=START, names=NAMES)
    assert known.since == {
        "Junie Halvorsen": START,
        "Tomas Ferreira": at(0.5),
        "Priya Raman": at(3),
    }
    assert known.first["Priya Raman"].source == "Tomas Ferreira"
    assert "Hiro Tanaka" not in known.since  # Priya had not heard yet when she told him
    assert known.count_at(at(1)) == 2


def test_without_its_originator_in_town_nobody_knows() -> None:
    found = transmissions(MEMORIES, PARTY, NAMES)
    assert trace(found, PARTY, start=START, names=NAMES - {"Junie Halvorsen"}).since == {}


def test_a_yes_counts_when_what_it_cites_reached_the_agent_through_the_chain() -> None:
    known = trace(transmissions(MEMORIES, PARTY, NAMES), PARTY, start=START, names=NAMES)
    memories, evidence = ROWS.memories, ROWS.evidence

    def check(agent: str, cited: list[int]) -> bool:
        return grounded(cited, agent=agent, knowledge=known, memories=memories, evidence=evidence)

    assert check("Junie Halvorsen", [1])  # the originator's own seed
    assert check("Priya Raman", [3])
    assert check("Priya Raman", [6])  # a reflection resting on the line she heard
    assert not check("Hiro Tanaka", [4])  # a rumour: hallucinated
    assert not check("Hiro Tanaka", [5])  # a seed he was born with
    assert not check("Priya Raman", [2])  # not her memory


def test_knowing_of_a_person_is_a_memory_naming_them() -> None:
    assert names_person("Tomas Ferreira is brewing coffee", "Tomas Ferreira", unique_first=True)
    assert names_person("I'm Tomas.", "Tomas Ferreira", unique_first=True)
    assert not names_person("I'm Tomas.", "Tomas Ferreira", unique_first=False)
    assert not names_person("Tomasz is here", "Tomas Ferreira", unique_first=True)


def _judged(agent: str, question: Question, answer: str, cited: tuple[int, ...]) -> Judged:
    reply = Reply(question, answer, cited, ())
    return Judged(reply, {"offline": answer.startswith("Yes")})


def test_diffusion_counts_yes_and_names_the_hallucinated() -> None:
    known = trace(transmissions(MEMORIES, PARTY, NAMES), PARTY, start=START, names=NAMES)

    def ask(agent: str) -> Question:
        return Question("id", agent, PARTY.question, PARTY.subject, PARTY.cues)

    answers = [
        _judged("Priya Raman", ask("Priya Raman"), "Yes. Junie is hosting a party.", (3,)),
        _judged("Hiro Tanaka", ask("Hiro Tanaka"), "Yes, there is a party.", (4,)),
        _judged("Tomas Ferreira", ask("Tomas Ferreira"), "No.", ()),
    ]
    result = diffusion(answers, judge="offline", knowledge=known, rows=ROWS)
    assert result.knew == ("Priya Raman", "Hiro Tanaka")
    assert result.hallucinated == ("Hiro Tanaka",)
    assert result.share == 2 / 3


def test_an_edge_needs_both_sides_and_density_is_over_all_pairs() -> None:
    people = ["Junie Halvorsen", "Tomas Ferreira", "Priya Raman"]
    rows = RunRows(
        memories={
            1: MemoryRow(1, "Junie Halvorsen", "seed", "Junie knows Tomas Ferreira", None, START)
        },
        evidence={},
        heard=[],
        pairs=[("Junie Halvorsen", "Tomas Ferreira", START)],
        calls_by_model={},
    )

    def ask(a: str, b: str, yes: bool, cited: tuple[int, ...] = ()) -> Judged:
        question = Question("id", a, f"Do you know of {b}?", b, (b,), about=b)
        return _judged(a, question, "Yes, I know." if yes else "No.", cited)

    answers = [
        ask("Junie Halvorsen", "Tomas Ferreira", True, (1,)),
        ask("Tomas Ferreira", "Junie Halvorsen", True),  # cites nothing naming her
        ask("Junie Halvorsen", "Priya Raman", True, (1,)),  # cites a memory about Tomas
        ask("Priya Raman", "Junie Halvorsen", False),
    ]
    net = network(answers, judge="offline", agents=people, rows=rows)
    assert net.edges == {frozenset({"Junie Halvorsen", "Tomas Ferreira"})}
    assert net.density == 2 * 1 / (3 * 2)
    assert (net.answers, net.yes, net.hallucinated) == (4, 3, 2)
    assert relationship_edges(rows, at=START - timedelta(minutes=1)) == frozenset()
    assert relationship_edges(rows) == net.edges


def test_attendance_is_the_invited_the_game_put_at_the_party() -> None:
    names = {"j": "Junie Halvorsen", "t": "Tomas Ferreira", "p": "Priya Raman", "h": "Hiro Tanaka"}
    party = PARTY_GATHERING.start
    heard = [
        Line("Tomas Ferreira", "Junie Halvorsen", "Come to my party!", at(2)),
        Line("Priya Raman", "Tomas Ferreira", "Junie's Valentine's Day party is tonight", at(3)),
        Line("Junie Halvorsen", "Tomas Ferreira", "I'd love to come to the party!", at(2)),
        Line("Hiro Tanaka", "Priya Raman", "Nice weather.", at(3)),
        Line("Hiro Tanaka", "Priya Raman", "The party was lovely.", PARTY_GATHERING.end),
    ]
    snapshots = [
        Snapshot(
            (party - timedelta(minutes=15)).isoformat(),
            {"j": "The Copper Kettle", "t": "The Copper Kettle: counter", "p": "Home", "h": "Home"},
            {},
            frozenset(),
        ),
        Snapshot(
            (party + timedelta(minutes=30)).isoformat(),
            {
                "j": "The Copper Kettle",
                "t": "Home",
                "p": "The Copper Kettle: dining area",
                "h": "The Copper Kettle",
            },
            {},
            frozenset(),
        ),
    ]
    came = attendance(heard, snapshots, names=names, topic=PARTY, gathering=PARTY_GATHERING)
    assert came.invited == ("Tomas Ferreira", "Priya Raman")  # not the host, not after it
    assert came.present == ("Junie Halvorsen", "Priya Raman", "Hiro Tanaka")
    assert came.attended == ("Priya Raman",)
    assert came.no_shows == ("Tomas Ferreira",)


def test_the_candidacy_is_recognised_in_what_agents_say_and_see() -> None:
    assert ELECTION.mentioned_in("Walter Brigg is campaigning around Town Square")
    assert ELECTION.mentioned_in("Did you know that Walter Brigg is running for the town council?")
    assert not ELECTION.mentioned_in("Walter Brigg is pouring a beer")


def test_a_hearing_is_credited_to_the_model_only_for_a_line_it_wrote() -> None:
    known = trace(transmissions(MEMORIES, PARTY, NAMES), PARTY, start=START, names=NAMES)
    memories = {m.id: m for m in MEMORIES}
    model_line = "Have you heard? Junie's party is on Tuesday."
    # Priya first heard it from Tomas in the model's line; Tomas first saw Junie hosting
    assert heard_in(known, memories, frozenset({model_line})) == {"Priya Raman"}
    # a line the model wrote that only ends like another is not that line
    assert heard_in(known, memories, frozenset({"on Tuesday."})) == frozenset()
    assert heard_in(known, memories, frozenset()) == frozenset()


def test_the_lines_a_model_wrote_are_read_from_the_audit_as_the_parser_reads_them(
    sessions: sessionmaker[Session], database_url: str
) -> None:
    def call(response: str, *, model: str = "qwen", degraded: bool = False) -> LlmCall:
        return LlmCall(
            world_id=world.id,
            agent_id=klaus.id,
            operation="next_utterance",
            model=model,
            response=response,
            degraded=degraded,
        )

    with sessions.begin() as session:
        world, other = make_world(session), make_world(session, name="Elsewhere")
        klaus = make_agent(session, world, name="Klaus Mueller")
        session.add_all(
            [
                call('{"text": "Klaus Mueller: \\"Are you coming tonight?\\"", "ends": false}'),
                call('{"text": ""}'),  # re-asked: not a line
                call("not json at all"),
                call('{"text": "Hi.", "ends": false}', model=OFFLINE_MODEL, degraded=True),
                LlmCall(world_id=world.id, operation="react", model="qwen", response="{}"),
                LlmCall(
                    world_id=other.id,
                    operation="next_utterance",
                    model="qwen",
                    response='{"text": "Not here.", "ends": true}',
                ),
            ]
        )
    assert model_lines(database_url, str(world.id)) == {"Are you coming tonight?"}


def test_the_clock_is_held_while_a_model_writes_a_line_and_not_after(
    sessions: sessionmaker[Session], database_url: str
) -> None:
    with sessions.begin() as session:
        world = make_world(session)
        ada, mira = make_agent(session, world, name="Ada"), make_agent(session, world, name="Mira")
        talk = Conversation(
            world_id=world.id, initiator_id=ada.id, partner_agent_id=mira.id, started_at=START
        )
        session.add(talk)
    world_id = str(world.id)
    # an open conversation whose next line is not due yet waits for the clock, not the clock
    # for it
    assert wait_for_talk(database_url, world_id, quiet_s=0.2, timeout_s=30.0) < 30.0
    with sessions.begin() as session:
        session.add(LlmCall(world_id=world.id, operation="next_utterance", model="qwen"))
    assert wait_for_talk(database_url, world_id, quiet_s=0.2, timeout_s=1.0) >= 1.0  # held
    with sessions.begin() as session:
        session.execute(sa.update(LlmCall).values(finished_at=sa.func.now()))
        session.add(LlmCall(world_id=world.id, operation="react", model="qwen"))  # not talk
    assert wait_for_talk(database_url, world_id, quiet_s=0.2, timeout_s=30.0) < 30.0
    with sessions.begin() as session:  # a call whose process died long ago holds nothing
        old = sa.func.now() - sa.text("interval '1 hour'")
        session.add(
            LlmCall(world_id=world.id, operation="next_utterance", model="qwen", created_at=old)
        )
    assert wait_for_talk(database_url, world_id, quiet_s=0.2, timeout_s=30.0) < 30.0
