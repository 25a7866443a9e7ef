"""Reading Hearth's `/metrics` as an operator's Prometheus would: samples by name and labels,
counter differences between two scrapes, and histogram quantiles interpolated within buckets
(Prometheus's `histogram_quantile`)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

Labels = frozenset[tuple[str, str]]


@dataclass
class Scrape:
    """Every sample of one scrape: name → {labels → value}."""

    samples: dict[str, dict[Labels, float]] = field(default_factory=dict)

    def total(self, name: str, **labels: str) -> float:
        """The sum of the samples of `name` whose labels include `labels`."""
        wanted = set(labels.items())
        return sum(v for k, v in self.samples.get(name, {}).items() if wanted <= k)

    def by(self, name: str, label: str, **labels: str) -> dict[str, float]:
        """Sums of `name` grouped by one label."""
        wanted = set(labels.items())
        found: dict[str, float] = defaultdict(float)
        for key, value in self.samples.get(name, {}).items():
            if wanted <= key:
                found[dict(key).get(label, "")] += value
        return dict(found)

    def minus(self, earlier: Scrape) -> Scrape:
        """Counter increases since `earlier` (gauges subtract too; use them from one scrape)."""
        diff = Scrape()
        for name, values in self.samples.items():
            before = earlier.samples.get(name, {})
            diff.samples[name] = {k: v - before.get(k, 0.0) for k, v in values.items()}
        return diff

    def quantile(self, q: float, histogram: str, **labels: str) -> float | None:
        """The q-quantile of a histogram's observations (linear within the bucket), or None."""
        buckets = sorted(
            (float(le), count)
            for le, count in self.by(f"{histogram}_bucket", "le", **labels).items()
        )
        if not buckets or buckets[-1][1] <= 0:
            return None
        rank, lower, below = q * buckets[-1][1], 0.0, 0.0
        for upper, count in buckets:
            if count >= rank:
                if math.isinf(upper):
                    return lower
                inside = count - below
                return lower + (upper - lower) * ((rank - below) / inside if inside else 0.0)
            lower, below = upper, count
        return None


def scrape(client: httpx.Client) -> Scrape:
    """GET /metrics with the client's base URL and credentials."""
    response = client.get("/metrics")
    response.raise_for_status()
    found = Scrape()
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            key: Labels = frozenset(sample.labels.items())
            found.samples.setdefault(sample.name, {})[key] = float(sample.value)
    return found
