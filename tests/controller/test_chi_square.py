"""The hand-written chi-square survival function against scipy (a test dependency only: too
heavy for the Pi), and Pearson's statistic on hand-worked counts."""

from __future__ import annotations

import math
import re

import pytest
from scipy.stats import chi2

from controller.table.chi_square import chi_square_sf, goodness_of_fit

XS = (1e-6, 0.01, 0.3, 1.0, 2.5, 5.0, 9.24, 11.07, 15.09, 20.515, 25.0, 40.0, 80.0, 200.0, 700.0)


@pytest.mark.parametrize("dof", range(1, 13))
def test_the_survival_function_equals_scipy(dof: int) -> None:
    for x in XS:
        ours, theirs = chi_square_sf(x, dof), chi2.sf(x, dof)
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-300), (x, dof)


def test_five_degrees_of_freedom_at_the_alarm_line() -> None:
    """p = 0.001 for a die (5 degrees of freedom) is a statistic of 20.515 (tables: 20.52)."""
    assert chi_square_sf(20.515, 5) == pytest.approx(0.001, rel=1e-4)
    assert chi_square_sf(0.0, 5) == 1.0 and chi_square_sf(math.inf, 5) == 0.0
    assert chi_square_sf(2000.0, 5) == 0.0


@pytest.mark.parametrize("x, dof, why", [
    (-1.0, 5, "a chi-square statistic is 0 or more, not -1.0"),
    (math.nan, 5, "a chi-square statistic is 0 or more, not nan"),
    (1.0, 0, "degrees of freedom are a whole number from 1, not 0"),
    (1.0, 2.5, "degrees of freedom are a whole number from 1, not 2.5"),
    (1.0, True, "degrees of freedom are a whole number from 1, not True"),
])
def test_bad_arguments_say_what_is_wrong(x: float, dof, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        chi_square_sf(x, dof)


def test_pearson_on_hand_worked_counts() -> None:
    # 60 throws, 10 expected per face; (20-10)^2/10 + 5 * (8-10)^2/10 = 10 + 2 = 12
    statistic, p = goodness_of_fit([8, 8, 8, 8, 8, 20])
    assert statistic == pytest.approx(12.0)
    assert p == pytest.approx(chi2.sf(12.0, 5), rel=1e-12)
    assert goodness_of_fit([10] * 6) == (0.0, 1.0)
    assert goodness_of_fit([0] * 6) == (0.0, 1.0)
    with pytest.raises(ValueError, match="at least two categories"):
        goodness_of_fit([5])
