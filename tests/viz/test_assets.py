"""The served vis-network asset is pyvis's file, byte for byte, but for its sourceMappingURL line."""

from leishen.viz.assets import VIS_FILE, vis_bytes


def test_the_served_vis_network_keeps_every_character_of_the_file():
    text = VIS_FILE.read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.split("\n") if not line.startswith("//# sourceMappingURL="))
    assert vis_bytes().decode("utf-8") == kept
    assert "\u2028" not in text or "\u2028" in vis_bytes().decode("utf-8")  # a separator inside a literal stays
