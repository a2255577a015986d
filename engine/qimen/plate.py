"""The turning plate (轉盤) of the hour Qimen from (遁, 局, hour pillar).

Only 18 局 × 60 hour pillars = 1,080 plates exist for one choice of centre hosting and
deity names; :func:`build_plate` is a pure function and is cached, so a chart costs a
dictionary look-up once its 局 is known.

The steps, each a small function named after the classical step:

1. :func:`earth_plate` — 六儀三奇 (戊己庚辛壬癸丁丙乙) laid from the palace of the 局,
   forward 1→9 in 陽遁, backward in 陰遁 (陽遁順儀奇逆布, 陰遁逆儀奇順行).
2. :func:`xun_of_hour` — the hour's 旬 and its 旬首 儀 (甲子戊 甲戌己 甲申庚 甲午辛 甲辰壬 甲寅癸).
3. 值符 — the star whose home palace holds the 旬首 儀 on the earth plate (九宮逢甲為值符);
   it is carried to the palace of the hour stem on the earth plate (值符常遣加時干), and the
   whole ring of stars turns with it, each star carrying its earth stem as heaven stem.
4. 值使 — the gate of that home palace (符上之門為值使); it walks one palace per hour from the
   旬首 palace in numeric order, forward in 陽遁 and backward in 陰遁 (值使逆順遁宮去,
   十時一位), and the ring of gates turns with it.
5. 八神 — 值符 on the palace of the 值符 star, then clockwise in 陽遁, counter-clockwise in 陰遁.

The centre (中五) has no gate and no place on the turning ring: its star 天禽 and its earth
stem ride with the star of the host palace (寄宮, 2 = 寄坤 by default; see
:class:`CentreHost`), and a 旬首 or hour stem found in the centre acts from the host palace.
The 值使 walk still counts the centre as a palace and only lands on the host at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from leishen.engine.options import choice_enum
from leishen.errors import ChartError

from .symbols import (
    BRANCHES, DEITIES_MODERN, DEITIES_YANG_CLASSICAL, GATE_HOME, HORSE, PALACES, RING, RING_POS,
    STAR_HOME, STEMS, XUN_YI, YI_QI_ORDER,
)

__all__ = ["CentreHost", "DeityNames", "Plate", "build_plate", "earth_plate", "xun_of_hour", "void_of_hour",
           "horse_of_branch", "walk_palace", "host_palace", "parse_option"]


#: Where the centre palace (中五: 天禽 and its stem) is hosted on the turning plate (engine/options.csv).
CentreHost = choice_enum("qimen_centre_host", "CentreHost", __name__)
#: Names of the fifth and sixth of the 八神 (engine/options.csv).
DeityNames = choice_enum("qimen_deities", "DeityNames", __name__)

_SEASON_CORNER = {0: 8, 1: 4, 2: 2, 3: 6}  # 立春 立夏 立秋 立冬 quarters → 艮 巽 坤 乾


def host_palace(host: CentreHost | str, dun: str, term_position: int = 0) -> int:
    """The palace hosting 中五 for a hosting rule, a 遁 and a term (position in SOLAR_TERMS, 0 = 立春)."""
    host = parse_option(CentreHost, host, "centre_host")
    if host is CentreHost.KUN2:
        return 2
    if host is CentreHost.GEN8_KUN2:
        return 8 if dun == "陽" else 2
    return _SEASON_CORNER[term_position % 24 // 6]


def parse_option(kind, value, field: str):
    """*value* as a member of the option enum *kind*, or ChartError naming *field* and the choices."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise ChartError(f"{field}: {value!r} is not one of {choices}") from None


def _step(palace: int, dun: str, steps: int = 1) -> int:
    """Move through the nine palaces in numeric order (5 included): forward in 陽, backward in 陰."""
    delta = steps if dun == "陽" else -steps
    return (palace - 1 + delta) % 9 + 1


def earth_plate(dun: str, ju: int) -> dict[int, str]:
    """The earth plate (地盤) of a 局: 戊 on the palace of the 局, then 己庚辛壬癸丁丙乙 in turn.

    陽遁 lays them forward (1→2→…→9), 陰遁 backward (9→8→…→1); the centre takes its turn.
    """
    if dun not in ("陽", "陰"):
        raise ChartError(f"dun: {dun!r} is not 陽 or 陰")
    if not (isinstance(ju, int) and 1 <= ju <= 9):
        raise ChartError(f"ju: {ju!r} is not a 局 number 1-9")
    return {_step(ju, dun, i): stem for i, stem in enumerate(YI_QI_ORDER)}


def xun_of_hour(hour: int) -> tuple[str, str]:
    """(旬首 name such as '甲子', its 儀) for an hour pillar index 0–59."""
    xun = hour // 10
    return "甲" + BRANCHES[xun * 10 % 12], XUN_YI[xun]


def void_of_hour(hour: int) -> tuple[str, str]:
    """旬空 (空亡): the two branches the hour's 旬 leaves without a stem (甲子旬空戌亥 …)."""
    start = hour // 10 * 10 % 12
    return BRANCHES[(start + 10) % 12], BRANCHES[(start + 11) % 12]


def horse_of_branch(branch: str) -> str:
    """驛馬: the branch that clashes the first of the 三合 group (申子辰馬在寅 …)."""
    return HORSE[branch]


def walk_palace(origin: int, dun: str, steps: int, host: int) -> int:
    """Walk *steps* palaces from *origin* (centre counted), landing on the host if it ends in 5."""
    landed = _step(origin, dun, steps)
    return host if landed == 5 else landed


def _turned(palace: int, origin: int, target: int) -> int:
    """Where an outer *palace* goes when the ring turns rigidly so that *origin* comes to *target*."""
    return RING[(RING_POS[palace] + RING_POS[target] - RING_POS[origin]) % 8]


def _turn(value_at_home: dict[int, str], origin: int, target: int) -> dict[int, str]:
    """Turn the values of the eight outer palaces with the ring (see :func:`_turned`)."""
    return {_turned(home, origin, target): value for home, value in value_at_home.items()}


@dataclass(frozen=True, slots=True)
class Plate:
    """One of the 1,080 plates; per-palace values are dicts keyed 1–9 (None where a palace has none)."""

    dun: str
    ju: int
    hour: int                 # hour pillar index 0 = 甲子 … 59 = 癸亥
    host: int                 # palace hosting 中五
    earth: dict[int, str]
    heaven: dict[int, str | None]
    star: dict[int, str | None]
    gate: dict[int, str | None]
    deity: dict[int, str | None]
    centre_rides_to: int      # palace where 天禽 and the 中五 stem ride on the heaven plate
    xun_head: str             # e.g. 甲子戊
    duty_star: str
    duty_star_palace: int
    duty_gate: str
    duty_gate_palace: int
    void: tuple[str, str]
    horse: str

    @property
    def hour_pillar(self) -> str:
        return STEMS[self.hour % 10] + BRANCHES[self.hour % 12]


@lru_cache(maxsize=None)
def build_plate(dun: str, ju: int, hour: int, host: int = 2, deities: DeityNames | str = DeityNames.MODERN) -> Plate:
    """Build the turning plate for (遁, 局, hour pillar index), hosting 中五 in palace *host*."""
    deities = parse_option(DeityNames, deities, "deities")
    if not (isinstance(hour, int) and 0 <= hour < 60):
        raise ChartError(f"hour: {hour!r} is not an hour pillar index 0-59")
    if host not in (2, 4, 6, 8):
        raise ChartError(f"centre_host: palace {host!r} is not a corner palace 2, 4, 6 or 8")
    earth = earth_plate(dun, ju)
    palace_of = {stem: palace for palace, stem in earth.items()}
    xun_name, xun_yi = xun_of_hour(hour)
    origin = palace_of[xun_yi]                         # 旬首 儀 on the earth plate
    hour_stem = STEMS[hour % 10]
    target = palace_of[xun_yi if hour_stem == "甲" else hour_stem]
    target = host if target == 5 else target           # 值符加時干 (a centre stem acts from the host)
    ring_origin = host if origin == 5 else origin

    stars = _turn({p: STAR_HOME[p] for p in RING}, ring_origin, target)
    heaven = _turn({p: earth[p] for p in RING}, ring_origin, target)
    centre_rides_to = _turned(host, ring_origin, target)

    gate_target = walk_palace(origin, dun, hour % 10, host)
    gates = _turn({p: GATE_HOME[p] for p in RING}, ring_origin, gate_target)

    names = DEITIES_YANG_CLASSICAL if (deities is DeityNames.BY_DUN and dun == "陽") else DEITIES_MODERN
    direction = 1 if dun == "陽" else -1
    deity = {RING[(RING_POS[target] + direction * i) % 8]: name for i, name in enumerate(names)}

    def with_centre(values: dict[int, str]) -> dict[int, str | None]:
        return {p: values.get(p) for p in PALACES}

    return Plate(
        dun=dun, ju=ju, hour=hour, host=host, earth=earth,
        heaven=with_centre(heaven), star=with_centre(stars), gate=with_centre(gates), deity=with_centre(deity),
        centre_rides_to=centre_rides_to,
        xun_head=xun_name + xun_yi,
        duty_star=STAR_HOME[origin], duty_star_palace=target,
        duty_gate=GATE_HOME[ring_origin], duty_gate_palace=gate_target,
        void=void_of_hour(hour), horse=horse_of_branch(BRANCHES[hour % 12]),
    )
