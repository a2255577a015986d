"""leishen (類神): a cited correspondence graph of the Three Arts, chart engines and readings."""

__version__ = "0.1.0"
