"""The engine's play functions with the strategy given as a spec (a preset name,
"role=preset,...", a dict, a mixture file), resolved here for the table as `simulate` and
run folders resolve theirs at their edge: the engine itself plays resolved strategies only
(simcore.engine.play.Strategy)."""

from simcore.engine import continuation
from simcore.engine import play as engine
from simcore.engine.state import S_N
from simcore.engine.theme import load_theme
from strategies.presets import DEFAULT_PRESET, resolve_strategy


def resolved(strategy, players, theme):
    """`strategy` resolved for `players` at `theme` (an id, a path or a loaded theme)."""
    return resolve_strategy(strategy, players, load_theme(theme).plays_as, mixed=True)


def play_games(theme, players, games, seed, *, strategy=DEFAULT_PRESET, **kw):
    played = resolved(strategy, players, theme)
    return engine.play_games(theme, players, games, seed, strategy=played, **kw)


def paused_games(theme, players, seed, games, stops, *, strategy=DEFAULT_PRESET, **kw):
    played = resolved(strategy, players, theme)
    return continuation.paused_games(theme, players, seed, games, stops, strategy=played, **kw)


def sample_worlds(theme, state, seat, seed, worlds, strategy=DEFAULT_PRESET):
    played = resolved(strategy, int(state.s[S_N]), theme)
    return continuation.sample_worlds(theme, state, seat, seed, worlds, played)


def continue_worlds(theme, state, seat, worlds, seed, *, strategy=DEFAULT_PRESET, **kw):
    played = resolved(strategy, int(state.s[S_N]), theme)
    return continuation.continue_worlds(theme, state, seat, worlds, seed, strategy=played, **kw)


def best_response(settings, *args, field=None, **kw):
    """simcore.studies.tune.best_response with settings.theme loaded and settings.field
    resolved here (`field`: another, such as a Mixture)."""
    from simcore.studies import tune

    theme = load_theme(settings.theme)
    field = field if field is not None else resolved(settings.field, settings.players, theme)
    return tune.best_response(settings, *args, theme=theme, field=field, **kw)


def iterate(theme, players, start, *args, **kw):
    """simcore.studies.tune.iterate with `theme` loaded and `start` resolved here (one row
    per role, as `bangsim tune` resolves its --field)."""
    from simcore.studies import tune

    loaded = load_theme(theme)
    field = resolve_strategy(start, players, loaded.plays_as)
    return tune.iterate(theme, players, field, *args, theme=loaded, **kw)


def psro(theme, players, start, *args, **kw):
    """simcore.studies.tune.psro, `theme` and `start` as iterate's here."""
    from simcore.studies import tune

    loaded = load_theme(theme)
    field = resolve_strategy(start, players, loaded.plays_as)
    return tune.psro(theme, players, field, *args, theme=loaded, **kw)


def exploitability(strategy, theme, players, *args, **kw):
    """simcore.studies.tune.exploitability with `theme` loaded and `strategy` resolved here."""
    from simcore.studies import tune

    loaded = load_theme(theme)
    field = resolved(strategy, players, loaded)
    return tune.exploitability(strategy, theme, players, *args, theme=loaded, field=field, **kw)


def band(theme, players, side, *args, **kw):
    """simcore.studies.band.band with `theme` loaded here."""
    from simcore.studies import band as bands

    return bands.band(theme, players, side, *args, theme=load_theme(theme), **kw)
