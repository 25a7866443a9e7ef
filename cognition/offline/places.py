"""Where an action happens, what it does to objects, and how it looks in a speech bubble.

Places are the game's tree paths ("Hobbs Cafe: counter: coffee machine"). Offline, an action
is matched to a path by shared words, helped by a small synonym table (coffee → cafe, sleep →
bed, cook → kitchen/stove, study → library/college…):

    part score = 2 × words shared with the action + 1 × words shared with its synonyms
    path score = Σ part score × (1 + 0.5 × depth)      (depth 0 = area; deeper = more specific)

The highest path score wins; ties go to the deeper path, then to the earlier path in the
caller's list (callers list the agent's current area first). Only a known path is ever
returned — never an invented one — and "" when none is known.
"""

from __future__ import annotations

from collections.abc import Sequence

from cognition.offline.text import stems

DIRECT_WEIGHT = 2.0
SYNONYM_WEIGHT = 1.0
DEPTH_BONUS = 0.5
"""Each level deeper multiplies a match by 1.5: the coffee machine beats the cafe."""
PATH_SEPARATOR = ":"
MAX_EMOJI = 2
DEFAULT_EMOJI = "🙂"

SYNONYMS: dict[str, frozenset[str]] = {
    key: frozenset(stems(values))
    for keys, values in (
        ("coffee espresso latte brew barista", "cafe counter coffee machine"),
        ("sleep nap asleep rest", "bed bedroom couch"),
        ("cook fry bake boil", "kitchen stove oven"),
        ("breakfast lunch dinner eat meal supper", "kitchen table dining"),
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


def choose_location(action: str, known_places: Sequence[str]) -> str:
    """The known place path that best hosts the action (see the module docstring)."""
    if not known_places:
        return ""
    direct = stems(action)
    synonyms = {place for word in direct for place in SYNONYMS.get(word, ())} - direct
    ranked = sorted(
        enumerate(known_places),
        key=lambda ip: (-_path_score(ip[1], direct, synonyms), -_depth(ip[1]), ip[0]),
    )
    return ranked[0][1]


def _path_score(path: str, direct: set[str], synonyms: set[str]) -> float:
    """Word overlap of each path part with the action, weighted towards deeper parts."""
    score = 0.0
    for depth, part in enumerate(path.split(PATH_SEPARATOR)):
        words = stems(part)
        shared = DIRECT_WEIGHT * len(words & direct) + SYNONYM_WEIGHT * len(words & synonyms)
        score += shared * (1 + DEPTH_BONUS * depth)
    return score


def _depth(path: str) -> int:
    return len([p for p in path.split(PATH_SEPARATOR) if p.strip()])


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
