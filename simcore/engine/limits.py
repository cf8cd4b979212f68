"""Static limits of the engine and the rules version, in one place.

Bump RULES_VERSION whenever a change to the rules kernel alters what a game with a given seed
produces (strategies.params.POLICY_VERSION for a change of the bots'), with a line in
docs/changelog.md saying why; it is stamped into every run manifest.
"""

RULES_VERSION = 5

MIN_PLAYERS = 4
MAX_PLAYERS = 7
MAX_CARDS = 160  # physical cards in one deck
MAX_CHARACTERS = 64  # characters in one theme
MAX_CARD_NAMES = 48  # distinct card names in one theme (one event counter each; at most 63:
# kernel.legal_actions keeps the names seen in one int64 bitmask)
MAX_TABLE = 16  # cards in play in front of one player
MAX_ACTIONS = 1024  # legal (card, target, option) triples enumerated at once
TURN_CAP = 1000  # turns before a game is ended as `capped`
ACTIONS_PER_TURN_CAP = 2000  # plays in one turn: more is a loop, and the game ends capped
BLOCK = 32  # games one parallel work item plays in sequence
