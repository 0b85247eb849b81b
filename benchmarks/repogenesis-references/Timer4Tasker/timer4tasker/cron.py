"""Minimal five-field cron expression parser (minute hour day-of-month month day-of-week).

Supported syntax per field: ``*``, ``n``, ``a-b``, ``*/s``, ``a-b/s``, ``n/s`` and comma-separated lists of
those. Month (JAN-DEC) and weekday (SUN-SAT) names are accepted. Day of week is 0-6 with 0 = Sunday.
Macros: @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly.
As in classic cron, when both day-of-month and day-of-week are restricted a day matches if either matches.
"""
from datetime import datetime, timedelta

FIELDS = (
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day of month", 1, 31),
    ("month", 1, 12),
    ("day of week", 0, 6),
)
MONTH_NAMES = {n: i + 1 for i, n in enumerate(
    ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"])}
DOW_NAMES = {n: i for i, n in enumerate(["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"])}
MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


class CronError(ValueError):
    pass


def _value(token, index, lo, hi, name):
    names = MONTH_NAMES if index == 3 else DOW_NAMES if index == 4 else {}
    up = token.upper()
    if up in names:
        return names[up]
    if not token.isdigit():
        raise CronError(f"invalid value '{token}' in {name} field")
    v = int(token)
    if v < lo or v > hi:
        raise CronError(f"value {v} out of range {lo}-{hi} in {name} field")
    return v


def _parse_field(text, index):
    name, lo, hi = FIELDS[index]
    values = set()
    for part in text.split(","):
        if part == "":
            raise CronError(f"empty list item in {name} field")
        step = 1
        if "/" in part:
            base, _, step_text = part.partition("/")
            if not step_text.isdigit() or int(step_text) == 0:
                raise CronError(f"invalid step '{step_text}' in {name} field")
            step = int(step_text)
        else:
            base = part
        if base == "*":
            start, end = lo, hi
        elif "-" in base:
            a, _, b = base.partition("-")
            start, end = _value(a, index, lo, hi, name), _value(b, index, lo, hi, name)
            if start > end:
                raise CronError(f"invalid range '{base}' in {name} field")
        else:
            start = _value(base, index, lo, hi, name)
            end = hi if "/" in part else start
        values.update(range(start, end + 1, step))
    return frozenset(values)


class CronSchedule:
    def __init__(self, expression):
        if not isinstance(expression, str):
            raise CronError("schedule must be a string")
        expr = expression.strip()
        expr = MACROS.get(expr.lower(), expr)
        parts = expr.split()
        if len(parts) != 5:
            raise CronError("cron expression must have exactly 5 fields: minute hour day month weekday")
        self.expression = expression
        self.minutes, self.hours, self.days, self.months, self.weekdays = (
            _parse_field(p, i) for i, p in enumerate(parts))
        self.dom_restricted = not parts[2].startswith("*")
        self.dow_restricted = not parts[4].startswith("*")
        if not any(self._day_possible(m, d) for m in self.months for d in self.days) and not self.dow_restricted:
            raise CronError("day of month never occurs in the given month(s)")

    @staticmethod
    def _day_possible(month, day):
        return day <= (29 if month == 2 else 30 if month in (4, 6, 9, 11) else 31)

    def _day_matches(self, dt):
        if dt.month not in self.months:
            return False
        dom = dt.day in self.days
        dow = (dt.isoweekday() % 7) in self.weekdays
        if self.dom_restricted and self.dow_restricted:
            return dom or dow
        if self.dom_restricted:
            return dom
        if self.dow_restricted:
            return dow
        return True

    def matches(self, dt):
        return dt.minute in self.minutes and dt.hour in self.hours and self._day_matches(dt)

    def next_after(self, dt):
        """First matching minute strictly after ``dt`` (naive or aware, timezone kept), or None."""
        start = dt.replace(second=0, microsecond=0) + timedelta(minutes=1)
        day = start.replace(hour=0, minute=0)
        for _ in range(366 * 8):
            if self._day_matches(day):
                for h in sorted(self.hours):
                    for m in sorted(self.minutes):
                        cand = day.replace(hour=h, minute=m)
                        if cand >= start:
                            return cand
            day = day + timedelta(days=1)
        return None


def validate(expression):
    """Return None if the expression is valid, else an error message."""
    try:
        CronSchedule(expression)
    except CronError as e:
        return str(e)
    return None
