"""Where an action happens, what it does to objects, and how it looks in a speech bubble.

Places are chosen one level at a time (`cognition.locating` walks the agent's known map and
asks at each level). Offline, each option of a level is scored by the words it shares with
the action, helped by a small synonym table (coffee → cafe, sleep → bed, cook → kitchen…),
over its own name and the names of the known places inside it:

    tier  = 2 if an action word is in its name or inside it, 1 if only a synonym is, else 0
    score = 2 × own words + 1 × own synonyms + 1 × words inside + 0.5 × synonyms inside

Options are ranked by tier, then nearness (on the path of where the agent is, else of its
home — the paper's "prefer to stay in the current area if the activity can be done there"),
then score, then how early in the action the matching word comes ("cook breakfast": the stove
before the kitchen table), then the caller's order. Words of the place the choice is inside
count for nothing: they chose it already. Depth earns nothing: a shower two levels down in the
agent's flat does not outbid the cafe that the action names. A place closed for the whole
action (from `at` until `until`) or full is passed over while any other option is usable.
When nothing matches and no option is near, the answer inside a place is "" (the action
stays at that place); among the areas it is the first usable one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from cognition.offline.text import content_words, stem, stems
from cognition.places import PlaceOption

DIRECT_WEIGHT = 2.0
SYNONYM_WEIGHT = 1.0
INSIDE_WEIGHT = 1.0
"""A word of a place inside an option counts half as much as a word of the option's own name."""
PATH_SEPARATOR = ":"
MAX_EMOJI = 2
DEFAULT_EMOJI = "🙂"

SYNONYMS: dict[str, frozenset[str]] = {
    key: frozenset(stems(values))
    for keys, values in (
        ("coffee espresso latte brew barista", "cafe counter coffee machine"),
        ("sleep nap asleep rest", "bed bedroom couch"),
        ("cook fry bake boil", "kitchen stove oven"),
        # a meal is at a table: at home the kitchen's, in a cafe the floor's, not its kitchen
        ("breakfast lunch dinner eat meal supper", "table dining"),
        ("study homework exam lecture class", "library college desk classroom"),
        ("read book", "library bookshelf shelf desk"),
        ("write research paper draft email", "desk library computer"),
        ("paint sketch draw canvas", "studio easel canvas"),
        ("shower bathe", "bathroom shower"),
        ("brush teeth wash", "bathroom sink"),
        ("medicine prescription medication", "pharmacy counter"),
        ("drink beer wine", "bar pub"),
        ("serve customer register", "counter"),
        ("work", "desk office counter"),
        ("walk stroll jog", "park garden street"),
        ("music piano guitar", "piano"),
        ("shop buy groceries", "store shop market supply"),
        ("relax unwind watch", "couch sofa living"),
        ("cafe coffeehouse", "espresso coffee pastry counter"),
        ("pub tavern", "bar beer taps"),
        ("restaurant diner", "dining kitchen table booth"),
        ("pharmacy", "dispensary medicine pill"),
        ("party celebrate celebration guest guests", "dining seating lounge hall stage"),
        # asking people along is done where people are: the public room, not its kitchen
        ("invite invitation chat mingle", "floor dining seating lounge bar hall room table"),
        ("mail letter letters post parcel", "mailbox lobby"),
        ("dress dressed clothes", "bedroom wardrobe closet"),
    )
    for key in stems(keys)
}
"""Action word (stemmed) → place words (stemmed) that usually host it."""

STATE_RULES: tuple[tuple[frozenset[str], frozenset[str], str], ...] = tuple(
    (frozenset(stems(actions)), frozenset(stems(objects)), state)
    for actions, objects, state in (
        ("cook cooking fry bake boil stew", "stove oven pan grill pot", "cooking"),
        ("coffee brew espresso latte", "coffee espresso", "brewing coffee"),
        ("sleep nap asleep rest", "bed couch sofa", "in use"),
        ("shower bathe bath", "shower bathtub bath", "running water"),
        ("brush teeth wash dishes", "sink faucet tap", "running water"),
        ("paint painting sketch", "easel canvas", "being painted on"),
        ("write type research email draft", "computer laptop desk", "in use"),
        ("read study homework", "book bookshelf desk", "in use"),
        ("play practice", "piano guitar", "being played"),
        ("watch", "tv television", "on"),
        ("eat breakfast lunch dinner meal", "table", "set for a meal"),
        ("serve prescription register", "counter register", "in use"),
    )
)
"""(action words, object words, state): the first rule matching both wins."""

EMOJI_TABLE: tuple[tuple[frozenset[str], str], ...] = tuple(
    (frozenset(stems(words)), symbol)
    for words, symbol in (
        ("sleep sleeping nap asleep bed", "😴"),
        ("party celebrate celebration festival", "🎉"),
        ("cook cooking stove fry bake", "🍳"),
        ("coffee brew espresso latte cafe tea", "☕"),
        ("eat eating lunch dinner meal supper breakfast", "🍽️"),
        ("read study book homework lecture class research paper exam notes", "📚"),
        ("paint painting sketch canvas easel draw", "🎨"),
        ("pharmacy prescription medicine medication", "💊"),
        ("talk chat chatting greet invite conversation tell ask discuss", "💬"),
        ("walk walking stroll jog", "🚶"),
        ("shower bath", "🚿"),
        ("brush teeth", "🪥"),
        ("music piano guitar sing", "🎵"),
        ("bar beer drinks pour", "🍺"),
        ("shop buy groceries store", "🛒"),
        ("write draft journal", "✍️"),
        ("clean tidy wipe dishes laundry", "🧹"),
        ("work job office shift serve customer register", "💼"),
        ("wake stretch morning", "☀️"),
    )
)
"""Checked in order; the first MAX_EMOJI distinct matches are shown."""


def choose_location(
    action: str,
    options: Sequence[PlaceOption],
    *,
    at: datetime,
    until: datetime | None = None,
    within: str = "",
    current: str = "",
    home: str = "",
) -> str:
    """The name of the option that best hosts the action (see the module docstring)."""
    usable = [
        o for o in options if o.norms.is_open_during(at, until) and not o.norms.is_full(o.occupancy)
    ]
    candidates = usable or list(options)
    if not candidates:
        return ""
    wanted = _Wanted.of(action, spent=stems(within.replace(PATH_SEPARATOR, " ")))
    near = _near_names(within, current) or _near_names(within, home)
    ranked = sorted(
        (wanted.rank(option, near=near, spent=wanted.spent), index, option)
        for index, option in enumerate(candidates)
    )
    (tier, nearness, *_), _, best = ranked[0]
    if within and tier == 0 and nearness == 0:
        return ""
    return best.name


class _Wanted:
    """The action's words, and the place words its words suggest, each with its position."""

    def __init__(self, words: dict[str, int], synonyms: dict[str, int], spent: set[str]) -> None:
        self.words, self.synonyms, self.spent = words, synonyms, spent

    @classmethod
    def of(cls, action: str, *, spent: set[str]) -> _Wanted:
        """Words of the place the choice is inside are spent: they named it already."""
        ordered = [stem(w) for w in content_words(action)]
        words = {w: i for i, w in reversed(list(enumerate(ordered))) if w not in spent}
        synonyms: dict[str, int] = {}
        for word, position in sorted(words.items(), key=lambda wp: -wp[1]):
            synonyms |= dict.fromkeys(SYNONYMS.get(word, ()), position)
        return cls(words, {w: p for w, p in synonyms.items() if w not in words}, spent)

    def rank(
        self, option: PlaceOption, *, near: set[str], spent: set[str]
    ) -> tuple[int, int, float, int]:
        """(−tier, −nearness, −score, first matching word's position): smaller ranks first."""
        own = stems(option.name) - spent
        inside = stems(" ".join(option.contains)) - spent
        own_direct, own_synonym = own & self.words.keys(), own & self.synonyms.keys()
        in_direct, in_synonym = inside & self.words.keys(), inside & self.synonyms.keys()
        tier = 2 if own_direct or in_direct else 1 if own_synonym or in_synonym else 0
        score = (
            DIRECT_WEIGHT * len(own_direct)
            + SYNONYM_WEIGHT * len(own_synonym)
            + INSIDE_WEIGHT * (len(in_direct) + SYNONYM_WEIGHT / DIRECT_WEIGHT * len(in_synonym))
        )
        positions = [self.words[w] for w in own_direct | in_direct]
        positions += [self.synonyms[w] for w in own_synonym | in_synonym]
        first = min(positions, default=len(self.words))
        return -tier, -(option.name.casefold() in near), -score, first


def _near_names(within: str, path: str) -> set[str]:
    """The name, one level below `within`, of the place on `path` (empty if off the path)."""
    if not path:
        return set()
    outer = [p.strip().casefold() for p in within.split(PATH_SEPARATOR) if p.strip()]
    parts = [p.strip().casefold() for p in path.split(PATH_SEPARATOR) if p.strip()]
    if len(parts) <= len(outer) or parts[: len(outer)] != outer:
        return set()
    return {parts[len(outer)]}


def object_state(action: str, obj: str) -> str | None:
    """The state `obj` takes while the action uses it, or None if the action leaves it alone.

    A rule fires when the action and the object both share a word with it; failing that, an
    object the action names outright ("wipe the counter") is "in use".
    """
    action_words, object_words = stems(action), stems(obj.split(PATH_SEPARATOR)[-1])
    for actions, objects, state in STATE_RULES:
        if action_words & actions and object_words & objects:
            return state
    if object_words and object_words <= action_words:
        return "in use"
    return None


def emoji(action: str) -> str:
    """One or two emoji for a speech bubble, by keyword table; 🙂 when nothing matches."""
    words = stems(action)
    found = [symbol for keys, symbol in EMOJI_TABLE if keys & words]
    return "".join(found[:MAX_EMOJI]) or DEFAULT_EMOJI
