// The demo task's upstream history: a small stock-keeping library, "tinyinventory", written as
// a base release and ten commits that each add or fix one thing together with its tests.
// File contents are String.raw so Python backslashes survive; none may contain a backtick or "${".

export interface DemoCommit {
  message: string;
  author: { name: string; email: string };
  /** ISO date used for both author and committer, so shas are the same on every machine. */
  date: string;
  /** Full file contents by path; null deletes the file. */
  files: Record<string, string | null>;
}

const MARA = { name: 'Mara Lind', email: 'mara@tinyinventory.example' };
const THEO = { name: 'Theo Okafor', email: 'theo@tinyinventory.example' };

const trim = (text: string): string => text.replace(/^\n/, '');

// ---------------------------------------------------------------------------------------------
// Files that change across the history, one constant per version.

const README_0 = trim(String.raw`
# tinyinventory

A small stock-keeping library for shops and hobby projects. Pure Python, standard library only.

    from tinyinventory import Inventory, Item

    inv = Inventory()
    inv.add(Item("APL-1", "Apple", quantity=30, unit_price=50))
    inv.remove("APL-1", 4)
    print(inv.total_value())  # 1300 (prices are in cents)

Run the tests with:

    PYTHONPATH=src:. python -m pytest tests
`);

const README_1 = trim(String.raw`
# tinyinventory

A small stock-keeping library for shops and hobby projects. Pure Python, standard library only.

    from tinyinventory import Inventory, Item, format_price
    from tinyinventory import csvio, reorder

    inv = Inventory()
    inv.add(Item("APL-1", "Apple", quantity=30, unit_price=50, category="fruit"))
    inv.remove("APL-1", 4)
    print(format_price(inv.total_value()))      # $13.00
    print(inv.value_by_category())              # {'fruit': 1300}
    print(reorder.suggest(inv, 40, "dozen"))    # {'APL-1': 24}
    print(csvio.dump(inv))

Features: items with validation, an inventory with search, low-stock reports, a change
history and closing; counting units (each, pair, pack, dozen, case, gross); prices with
thousands separators; CSV import and export; reorder suggestions in whole packs.

Run the tests with:

    PYTHONPATH=src:. python -m pytest tests
`);

const PYPROJECT = (version: string): string =>
  trim(String.raw`
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "tinyinventory"
version = "VERSION"
description = "A small stock-keeping library"
readme = "README.md"
requires-python = ">=3.8"
license = { text = "MIT" }

[tool.setuptools.packages.find]
where = ["src"]
`).replace('VERSION', version);

const CHANGELOG_HEAD = '# Changelog\n\n';
const CHANGELOG_030 = '## 0.3.0\n\n- Items, an in-memory inventory, counting units and price formatting.\n';
const CHANGES = [
  'low_stock() includes items whose quantity equals the threshold.',
  'search() ignores case and matches SKUs as well as names.',
  'New units: pack (6), case (24) and gross (144). convert() refuses partial conversions and unknown units with ValueError.',
  'CSV import and export (tinyinventory.csvio).',
  'Inventories keep a change history and can be closed; a closed inventory refuses changes.',
  'Items refuse negative or fractional quantities and negative prices; remove() refuses to take more than is in stock.',
  'format_price() uses thousands separators and puts the minus sign first; new parse_price().',
  'Reorder suggestions in whole packs (tinyinventory.reorder).',
  'Items have a category; Inventory.value_by_category(); sorting by quantity and value. CSV files carry the category.',
];

function changelog(done: number, released = false): string {
  const lines = CHANGES.slice(0, done)
    .map((c) => `- ${c}`)
    .join('\n');
  if (done === 0) return CHANGELOG_HEAD + CHANGELOG_030;
  return `${CHANGELOG_HEAD}## ${released ? '1.0.0' : 'Unreleased'}\n\n${lines}\n\n${CHANGELOG_030}`;
}

const GITIGNORE = '__pycache__/\n*.py[cod]\n*.egg-info/\n.pytest_cache/\nbuild/\ndist/\n';

const CI_WORKFLOW = trim(String.raw`
name: tests
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install pytest
      - run: python -m pytest tests
        env:
          PYTHONPATH: src:.
`);

const INIT_0 = trim(String.raw`
"""tinyinventory: a small stock-keeping library (standard library only)."""
from .inventory import Inventory
from .item import Item
from .money import format_price
from .units import UNITS, convert

__version__ = "0.3.0"
`);

const INIT_5 = trim(String.raw`
"""tinyinventory: a small stock-keeping library (standard library only)."""
from .inventory import Inventory, InventoryClosedError
from .item import Item
from .money import format_price
from .units import UNITS, convert

__version__ = "0.3.0"
`);

const INIT_7 = trim(String.raw`
"""tinyinventory: a small stock-keeping library (standard library only)."""
from .inventory import Inventory, InventoryClosedError
from .item import Item
from .money import format_price, parse_price
from .units import UNITS, convert

__version__ = "0.3.0"
`);

const INIT_10 = trim(String.raw`
"""tinyinventory: a small stock-keeping library (standard library only)."""
from .inventory import Inventory, InventoryClosedError
from .item import Item
from .money import format_price, parse_price
from .units import UNITS, convert

__version__ = "1.0.0"

__all__ = [
    "Inventory",
    "InventoryClosedError",
    "Item",
    "UNITS",
    "convert",
    "format_price",
    "parse_price",
]
`);

const ITEM_0 = trim(String.raw`
"""A stock-keeping unit and how much of it is on hand."""
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    unit_price: int = 0  # in cents

    def total_value(self):
        return self.quantity * self.unit_price
`);

const ITEM_6 = trim(String.raw`
"""A stock-keeping unit and how much of it is on hand."""
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    unit_price: int = 0  # in cents

    def __post_init__(self):
        if isinstance(self.quantity, bool) or not isinstance(self.quantity, int):
            raise TypeError(f"quantity must be an int, got {type(self.quantity).__name__}")
        if self.quantity < 0:
            raise ValueError(f"quantity must not be negative, got {self.quantity}")
        if self.unit_price < 0:
            raise ValueError(f"unit price must not be negative, got {self.unit_price}")

    def total_value(self):
        return self.quantity * self.unit_price
`);

const ITEM_9 = trim(String.raw`
"""A stock-keeping unit and how much of it is on hand."""
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    unit_price: int = 0  # in cents
    category: str = "general"

    def __post_init__(self):
        if isinstance(self.quantity, bool) or not isinstance(self.quantity, int):
            raise TypeError(f"quantity must be an int, got {type(self.quantity).__name__}")
        if self.quantity < 0:
            raise ValueError(f"quantity must not be negative, got {self.quantity}")
        if self.unit_price < 0:
            raise ValueError(f"unit price must not be negative, got {self.unit_price}")

    def total_value(self):
        return self.quantity * self.unit_price
`);

// Inventory: built from parts so each commit changes only what it is about.
interface InventoryParts {
  header: string;
  sortKeys: string;
  init: string;
  check: string;
  add: string;
  remove: string;
  lowStock: string;
  search: string;
  extra: string;
}

const INV_HEADER_0 = '"""An in-memory inventory of items, keyed by SKU."""\n\n\nclass Inventory:\n';
const INV_HEADER_5 = trim(String.raw`
"""An in-memory inventory of items, keyed by SKU."""


class InventoryClosedError(RuntimeError):
    """Raised when a closed inventory is changed."""


class Inventory:
`);

const INV_SORT_0 = String.raw`    SORT_KEYS = {
        "sku": lambda item: item.sku,
        "name": lambda item: item.name.lower(),
    }
`;
const INV_SORT_9 = String.raw`    SORT_KEYS = {
        "sku": lambda item: item.sku,
        "name": lambda item: item.name.lower(),
        "quantity": lambda item: item.quantity,
        "value": lambda item: item.total_value(),
    }
`;

const INV_INIT_0 = String.raw`
    def __init__(self):
        self._items = {}
`;
const INV_INIT_5 = String.raw`
    def __init__(self):
        self._items = {}
        self.history = []
        self.closed = False
`;
const INV_CHECK_5 = String.raw`
    def _check_open(self):
        if self.closed:
            raise InventoryClosedError("the inventory is closed")
`;

const INV_ADD_0 = String.raw`
    def add(self, item):
        existing = self._items.get(item.sku)
        if existing is None:
            self._items[item.sku] = item
        else:
            existing.quantity += item.quantity
        return self._items[item.sku]
`;
const INV_ADD_5 = String.raw`
    def add(self, item):
        self._check_open()
        existing = self._items.get(item.sku)
        if existing is None:
            self._items[item.sku] = item
        else:
            existing.quantity += item.quantity
        self.history.append(("add", item.sku, item.quantity))
        return self._items[item.sku]
`;

const INV_REMOVE_0 = String.raw`
    def remove(self, sku, quantity):
        item = self._items[sku]
        item.quantity -= quantity
        return item
`;
const INV_REMOVE_5 = String.raw`
    def remove(self, sku, quantity):
        self._check_open()
        item = self._items[sku]
        item.quantity -= quantity
        self.history.append(("remove", sku, quantity))
        return item
`;
const INV_REMOVE_6 = String.raw`
    def remove(self, sku, quantity):
        self._check_open()
        if quantity <= 0:
            raise ValueError(f"quantity to remove must be positive, got {quantity}")
        item = self._items[sku]
        if quantity > item.quantity:
            raise ValueError(f"cannot remove {quantity} of {sku}: only {item.quantity} in stock")
        item.quantity -= quantity
        self.history.append(("remove", sku, quantity))
        return item
`;

const INV_COMMON = String.raw`
    def get(self, sku):
        return self._items[sku]

    def __len__(self):
        return len(self._items)

    def __contains__(self, sku):
        return sku in self._items

    def __iter__(self):
        return iter(self.items())

    def items(self, sort_by="sku"):
        try:
            key = self.SORT_KEYS[sort_by]
        except KeyError:
            raise ValueError(f"unknown sort key {sort_by!r}; choose one of {sorted(self.SORT_KEYS)}") from None
        return sorted(self._items.values(), key=key)

    def total_value(self):
        return sum(item.total_value() for item in self._items.values())
`;

const INV_LOW_0 = String.raw`
    def low_stock(self, threshold):
        """SKUs whose quantity is at or below threshold."""
        return [item.sku for item in self.items() if item.quantity < threshold]
`;
const INV_LOW_1 = String.raw`
    def low_stock(self, threshold):
        """SKUs whose quantity is at or below threshold."""
        return [item.sku for item in self.items() if item.quantity <= threshold]
`;

const INV_SEARCH_0 = String.raw`
    def search(self, text):
        """Items whose name contains text."""
        return [item for item in self.items() if text in item.name]
`;
const INV_SEARCH_2 = String.raw`
    def search(self, text):
        """Items whose name or SKU contains text, ignoring case."""
        needle = text.lower()
        return [item for item in self.items() if needle in item.name.lower() or needle in item.sku.lower()]
`;

const INV_CLOSE_5 = String.raw`
    def close(self):
        """Closes the inventory: later changes raise InventoryClosedError."""
        self.closed = True
        self.history.append(("close", None, 0))
`;
const INV_CATEGORY_9 = String.raw`
    def value_by_category(self):
        """Total value per category, categories in alphabetical order."""
        totals = {}
        for item in self.items():
            totals[item.category] = totals.get(item.category, 0) + item.total_value()
        return dict(sorted(totals.items()))
`;

function inventory(p: InventoryParts): string {
  return p.header + p.sortKeys + p.init + p.check + p.add + p.remove + INV_COMMON + p.lowStock + p.search + p.extra;
}

const INV_V0: InventoryParts = {
  header: INV_HEADER_0,
  sortKeys: INV_SORT_0,
  init: INV_INIT_0,
  check: '',
  add: INV_ADD_0,
  remove: INV_REMOVE_0,
  lowStock: INV_LOW_0,
  search: INV_SEARCH_0,
  extra: '',
};
const INV_V1 = { ...INV_V0, lowStock: INV_LOW_1 };
const INV_V2 = { ...INV_V1, search: INV_SEARCH_2 };
const INV_V5 = { ...INV_V2, header: INV_HEADER_5, init: INV_INIT_5, check: INV_CHECK_5, add: INV_ADD_5, remove: INV_REMOVE_5, extra: INV_CLOSE_5 };
const INV_V6 = { ...INV_V5, remove: INV_REMOVE_6 };
const INV_V9 = { ...INV_V6, sortKeys: INV_SORT_9, extra: INV_CLOSE_5 + INV_CATEGORY_9 };

const UNITS_0 = trim(String.raw`
"""Counting units and conversion between them."""

UNITS = {
    "each": 1,
    "pair": 2,
    "dozen": 12,
}


def convert(quantity, from_unit, to_unit):
    """Converts quantity counted in from_unit into to_unit."""
    return quantity * UNITS[from_unit] // UNITS[to_unit]
`);

const UNITS_3 = trim(String.raw`
"""Counting units and conversion between them."""

UNITS = {
    "each": 1,
    "pair": 2,
    "pack": 6,
    "dozen": 12,
    "case": 24,
    "gross": 144,
}


def convert(quantity, from_unit, to_unit):
    """Converts quantity counted in from_unit into to_unit; refuses partial results."""
    for unit in (from_unit, to_unit):
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r}; known units: {', '.join(UNITS)}")
    each = quantity * UNITS[from_unit]
    whole, rest = divmod(each, UNITS[to_unit])
    if rest:
        raise ValueError(f"{quantity} {from_unit} is not a whole number of {to_unit}")
    return whole
`);

const MONEY_0 = trim(String.raw`
"""Prices are kept in integer cents; these helpers turn them into text."""


def format_price(cents):
    """Formats cents as dollars, e.g. 1999 -> "$19.99"."""
    return "$%d.%02d" % (cents // 100, cents % 100)
`);

const MONEY_7 = trim(String.raw`
"""Prices are kept in integer cents; these helpers turn them into text and back."""
import re

_PRICE = re.compile(r"^(-)?\$(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})$")


def format_price(cents):
    """Formats cents as dollars, e.g. 123456 -> "$1,234.56" and -150 -> "-$1.50"."""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return "%s$%s.%02d" % (sign, format(dollars, ","), rest)


def parse_price(text):
    """The inverse of format_price: "$1,234.56" -> 123456."""
    match = _PRICE.match(text.strip())
    if match is None:
        raise ValueError(f"not a price: {text!r}")
    sign, dollars, cents = match.groups()
    value = int(dollars.replace(",", "")) * 100 + int(cents)
    return -value if sign else value
`);

const CSVIO_4 = trim(String.raw`
"""Reading and writing inventories as CSV."""
import csv
import io

from .inventory import Inventory
from .item import Item

FIELDS = ["sku", "name", "quantity", "unit_price"]


def dump(inventory):
    """The inventory as CSV text with a header line, items in SKU order."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for item in inventory.items():
        writer.writerow({field: getattr(item, field) for field in FIELDS})
    return out.getvalue()


def load(text):
    """An inventory from CSV text; errors name the line."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [field for field in FIELDS if field not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"missing columns: {', '.join(missing)}")
    inventory = Inventory()
    for row in reader:
        try:
            inventory.add(Item(row["sku"], row["name"], int(row["quantity"]), int(row["unit_price"])))
        except ValueError as error:
            raise ValueError(f"line {reader.line_num}: {error}") from None
    return inventory
`);

const CSVIO_9 = trim(String.raw`
"""Reading and writing inventories as CSV."""
import csv
import io

from .inventory import Inventory
from .item import Item

FIELDS = ["sku", "name", "quantity", "unit_price", "category"]
REQUIRED = FIELDS[:4]


def dump(inventory):
    """The inventory as CSV text with a header line, items in SKU order."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for item in inventory.items():
        writer.writerow({field: getattr(item, field) for field in FIELDS})
    return out.getvalue()


def load(text):
    """An inventory from CSV text; errors name the line. The category column is optional."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [field for field in REQUIRED if field not in (reader.fieldnames or [])]
    if missing:
        raise ValueError(f"missing columns: {', '.join(missing)}")
    inventory = Inventory()
    for row in reader:
        try:
            item = Item(
                row["sku"],
                row["name"],
                int(row["quantity"]),
                int(row["unit_price"]),
                category=row.get("category") or "general",
            )
            inventory.add(item)
        except ValueError as error:
            raise ValueError(f"line {reader.line_num}: {error}") from None
    return inventory
`);

const REORDER_8 = trim(String.raw`
"""Suggest what to order to bring stock back up to a target level."""
from .units import UNITS


def suggest(inventory, target_level, pack_unit="each"):
    """Quantities (in single items) to order per SKU, rounded up to whole packs of pack_unit."""
    if pack_unit not in UNITS:
        raise ValueError(f"unknown unit {pack_unit!r}")
    size = UNITS[pack_unit]
    orders = {}
    for item in inventory.items():
        short = target_level - item.quantity
        if short > 0:
            packs = -(-short // size)
            orders[item.sku] = packs * size
    return orders
`);

// ---------------------------------------------------------------------------------------------
// Tests.

const CONFTEST_0 = trim(String.raw`
import pytest

from tinyinventory import Inventory, Item


@pytest.fixture
def stocked():
    inv = Inventory()
    inv.add(Item("APL-1", "Apple", 30, 50))
    inv.add(Item("BAN-2", "Banana", 5, 25))
    inv.add(Item("CHR-3", "Cherry box", 12, 450))
    inv.add(Item("DAT-4", "Dates", 0, 900))
    return inv
`);

const CONFTEST_ROUNDTRIP = String.raw`

@pytest.fixture
def roundtrip(stocked):
    """The stocked inventory after a trip through CSV."""
    from tinyinventory import csvio

    return csvio.load(csvio.dump(stocked))
`;

const CONFTEST_AUDITED = String.raw`

@pytest.fixture
def audited(stocked):
    """A stocked inventory that is closed after the test, as the shop does every night."""
    yield stocked
    stocked.close()
    assert stocked.history[-1] == ("close", None, 0)
`;

const TEST_INVENTORY_0 = trim(String.raw`
import pytest

from tinyinventory import Inventory, Item


def test_add_new_item():
    inv = Inventory()
    inv.add(Item("X-1", "Widget", 3, 100))
    assert "X-1" in inv
    assert len(inv) == 1


def test_add_existing_item_increases_quantity(stocked):
    stocked.add(Item("APL-1", "Apple", 10, 50))
    assert stocked.get("APL-1").quantity == 40


def test_remove_decreases_quantity(stocked):
    stocked.remove("BAN-2", 2)
    assert stocked.get("BAN-2").quantity == 3


def test_total_value(stocked):
    assert stocked.total_value() == 30 * 50 + 5 * 25 + 12 * 450


def test_items_sorted_by_sku(stocked):
    assert [item.sku for item in stocked.items()] == ["APL-1", "BAN-2", "CHR-3", "DAT-4"]


def test_unknown_sort_key(stocked):
    with pytest.raises(ValueError, match="unknown sort key"):
        stocked.items(sort_by="colour")


def test_low_stock(stocked):
    assert stocked.low_stock(10) == ["BAN-2", "DAT-4"]


def test_search_by_name(stocked):
    assert [item.sku for item in stocked.search("Banana")] == ["BAN-2"]
`);

const TEST_INVENTORY_1 = String.raw`

def test_low_stock_includes_items_at_the_threshold(stocked):
    assert stocked.low_stock(5) == ["BAN-2", "DAT-4"]


def test_low_stock_with_zero_threshold(stocked):
    assert stocked.low_stock(0) == ["DAT-4"]
`;

const TEST_INVENTORY_2 = String.raw`

def test_search_ignores_case(stocked):
    assert [item.sku for item in stocked.search("cherry")] == ["CHR-3"]


def test_search_matches_sku(stocked):
    assert [item.sku for item in stocked.search("dat-")] == ["DAT-4"]
`;

const TEST_INVENTORY_9 = String.raw`

@pytest.mark.parametrize("key", sorted(Inventory.SORT_KEYS))
def test_every_sort_key_lists_all_items(stocked, key):
    assert sorted(item.sku for item in stocked.items(sort_by=key)) == ["APL-1", "BAN-2", "CHR-3", "DAT-4"]


def test_sort_by_value(stocked):
    assert [item.sku for item in stocked.items(sort_by="value")] == ["DAT-4", "BAN-2", "APL-1", "CHR-3"]


def test_value_by_category():
    inv = Inventory()
    inv.add(Item("A-1", "Apple", 2, 50, category="fruit"))
    inv.add(Item("P-1", "Pen", 3, 120, category="office"))
    inv.add(Item("B-1", "Banana", 4, 25, category="fruit"))
    assert inv.value_by_category() == {"fruit": 200, "office": 360}
`;

const TEST_UNITS_0 = trim(String.raw`
import pytest

from tinyinventory.units import UNITS, convert


@pytest.mark.parametrize("unit", sorted(UNITS))
def test_unit_roundtrip(unit):
    assert convert(1, unit, "each") == UNITS[unit]
    assert convert(UNITS[unit], "each", unit) == 1


def test_convert_dozen_to_each():
    assert convert(2, "dozen", "each") == 24
`);

const TEST_UNITS_3 = String.raw`

def test_convert_each_to_case():
    assert convert(48, "each", "case") == 2


def test_partial_conversion_is_refused():
    with pytest.raises(ValueError, match="not a whole number"):
        convert(5, "each", "dozen")


def test_unknown_unit_is_refused():
    with pytest.raises(ValueError, match="unknown unit 'crate'"):
        convert(1, "crate", "each")
`;

const TEST_MONEY_0 = trim(String.raw`
import pytest

from tinyinventory.money import format_price


@pytest.mark.parametrize(
    "cents, text",
    [(1999, "$19.99"), (5, "$0.05"), (100, "$1.00")],
    ids=["plain", "cents-only", "whole-dollar"],
)
def test_format_price(cents, text):
    assert format_price(cents) == text
`);

const TEST_MONEY_7 = trim(String.raw`
import pytest

from tinyinventory.money import format_price


@pytest.mark.parametrize(
    "cents, text",
    [
        (1999, "$19.99"),
        (5, "$0.05"),
        (100, "$1.00"),
        (123456, "$1,234.56"),
        (100000000, "$1,000,000.00"),
        (-150, "-$1.50"),
    ],
    ids=["plain", "cents-only", "whole-dollar", "thousands", "millions", "negative"],
)
def test_format_price(cents, text):
    assert format_price(cents) == text


@pytest.mark.parametrize(
    "text",
    ["$0.05", "$19.99", "$1,234.56", "-$1.50"],
    ids=["cents-only", "plain", "thousands", "negative"],
)
def test_parse_price_inverts_format_price(text):
    from tinyinventory.money import parse_price

    assert format_price(parse_price(text)) == text


def test_parse_price_refuses_other_text():
    from tinyinventory.money import parse_price

    with pytest.raises(ValueError, match="not a price"):
        parse_price("12 dollars")
`);

const TEST_CSVIO_4 = (header: string, extra: string): string =>
  trim(String.raw`
import pytest


def test_roundtrip_keeps_every_item(roundtrip, stocked):
    assert [item.sku for item in roundtrip.items()] == [item.sku for item in stocked.items()]


def test_roundtrip_keeps_quantities(roundtrip):
    assert roundtrip.get("BAN-2").quantity == 5


def test_roundtrip_keeps_the_value(roundtrip, stocked):
    assert roundtrip.total_value() == stocked.total_value()


def test_dump_starts_with_a_header(roundtrip):
    from tinyinventory import csvio

    assert csvio.dump(roundtrip).splitlines()[0] == "HEADER"


def test_load_names_the_bad_line():
    from tinyinventory import csvio

    with pytest.raises(ValueError, match="line 3"):
        csvio.load("sku,name,quantity,unit_price\nA-1,Apple,1,10\nB-2,Bad,many,10\n")


def test_load_requires_the_columns():
    from tinyinventory import csvio

    with pytest.raises(ValueError, match="missing columns: unit_price"):
        csvio.load("sku,name,quantity\nA-1,Apple,1\n")
`).replace('HEADER', header) + extra;

const TEST_CSVIO_9_EXTRA = String.raw`

def test_load_without_a_category_column():
    from tinyinventory import csvio

    inv = csvio.load("sku,name,quantity,unit_price\nA-1,Apple,1,10\n")
    assert inv.get("A-1").category == "general"
`;

const TEST_HISTORY_5 = trim(String.raw`
import pytest

from tinyinventory import Item


def test_audited_value(audited):
    assert audited.total_value() == 30 * 50 + 5 * 25 + 12 * 450


def test_audited_lookup(audited):
    assert audited.get("APL-1").name == "Apple"


def test_audited_count(audited):
    assert len(audited) == 4


def test_history_records_adds_and_removes(stocked):
    stocked.remove("APL-1", 3)
    assert stocked.history[-1] == ("remove", "APL-1", 3)
    assert [event[0] for event in stocked.history[:4]] == ["add"] * 4


def test_closed_inventory_refuses_changes(stocked):
    from tinyinventory import InventoryClosedError

    stocked.close()
    with pytest.raises(InventoryClosedError):
        stocked.add(Item("X-1", "Widget", 1, 1))
`);

const TEST_VALIDATION_6 = trim(String.raw`
import pytest

from tinyinventory import Item


def test_negative_quantity_is_refused():
    with pytest.raises(ValueError, match="must not be negative"):
        Item("X-1", "Widget", -1, 100)


def test_fractional_quantity_is_refused():
    with pytest.raises(TypeError, match="must be an int"):
        Item("X-1", "Widget", 1.5, 100)


def test_negative_price_is_refused():
    with pytest.raises(ValueError, match="price"):
        Item("X-1", "Widget", 1, -5)


def test_cannot_remove_more_than_in_stock(stocked):
    with pytest.raises(ValueError, match="only 5 in stock"):
        stocked.remove("BAN-2", 6)
    assert stocked.get("BAN-2").quantity == 5


def test_valid_item_is_accepted():
    assert Item("X-1", "Widget", 2, 100).total_value() == 200
`);

const TEST_REORDER_8 = trim(String.raw`
def test_suggest_tops_up_to_the_target(stocked):
    from tinyinventory.reorder import suggest

    assert suggest(stocked, 10) == {"BAN-2": 5, "DAT-4": 10}


def test_suggest_rounds_up_to_whole_packs(stocked):
    from tinyinventory.reorder import suggest

    assert suggest(stocked, 10, pack_unit="pack") == {"BAN-2": 6, "DAT-4": 12}
`);

const TEST_PACKAGE_10 = trim(String.raw`
import tinyinventory


def test_version():
    assert tinyinventory.__version__ == "1.0.0"


def test_public_api():
    assert set(tinyinventory.__all__) >= {
        "Inventory",
        "InventoryClosedError",
        "Item",
        "UNITS",
        "convert",
        "format_price",
        "parse_price",
    }
`);

const PKG = 'src/tinyinventory';
const HEADER_4 = 'sku,name,quantity,unit_price';
const HEADER_9 = 'sku,name,quantity,unit_price,category';

// ---------------------------------------------------------------------------------------------

export const DEMO_HISTORY: DemoCommit[] = [
  {
    message: 'tinyinventory 0.3.0: items, inventory, counting units and prices',
    author: MARA,
    date: '2024-03-04T09:12:00+01:00',
    files: {
      'README.md': README_0,
      'CHANGELOG.md': changelog(0),
      'pyproject.toml': PYPROJECT('0.3.0'),
      '.gitignore': GITIGNORE,
      '.github/workflows/tests.yml': CI_WORKFLOW,
      [`${PKG}/__init__.py`]: INIT_0,
      [`${PKG}/item.py`]: ITEM_0,
      [`${PKG}/inventory.py`]: inventory(INV_V0),
      [`${PKG}/units.py`]: UNITS_0,
      [`${PKG}/money.py`]: MONEY_0,
      'tests/__init__.py': '',
      'tests/conftest.py': CONFTEST_0,
      'tests/test_inventory.py': TEST_INVENTORY_0,
      'tests/test_units.py': TEST_UNITS_0,
      'tests/test_money.py': TEST_MONEY_0,
    },
  },
  {
    message: 'Include items at the threshold in low_stock()\n\nThe docstring promised "at or below"; the comparison said "below".',
    author: THEO,
    date: '2024-03-06T14:40:00+01:00',
    files: {
      [`${PKG}/inventory.py`]: inventory(INV_V1),
      'tests/test_inventory.py': TEST_INVENTORY_0 + TEST_INVENTORY_1,
      'CHANGELOG.md': changelog(1),
    },
  },
  {
    message: 'Make search() ignore case and match SKUs',
    author: MARA,
    date: '2024-03-08T10:05:00+01:00',
    files: {
      [`${PKG}/inventory.py`]: inventory(INV_V2),
      'tests/test_inventory.py': TEST_INVENTORY_0 + TEST_INVENTORY_1 + TEST_INVENTORY_2,
      'CHANGELOG.md': changelog(2),
    },
  },
  {
    message: 'Add pack, case and gross units; refuse partial conversions\n\nconvert() used to round down silently and raised KeyError for unknown units.',
    author: THEO,
    date: '2024-03-12T16:22:00+01:00',
    files: {
      [`${PKG}/units.py`]: UNITS_3,
      'tests/test_units.py': TEST_UNITS_0 + TEST_UNITS_3,
      'CHANGELOG.md': changelog(3),
    },
  },
  {
    message: 'Add CSV import and export',
    author: MARA,
    date: '2024-03-15T11:30:00+01:00',
    files: {
      [`${PKG}/csvio.py`]: CSVIO_4,
      'tests/conftest.py': CONFTEST_0 + CONFTEST_ROUNDTRIP,
      'tests/test_csvio.py': TEST_CSVIO_4(HEADER_4, ''),
      'CHANGELOG.md': changelog(4),
    },
  },
  {
    message: 'Keep a change history and allow closing an inventory',
    author: THEO,
    date: '2024-03-19T09:48:00+01:00',
    files: {
      [`${PKG}/__init__.py`]: INIT_5,
      [`${PKG}/inventory.py`]: inventory(INV_V5),
      'tests/conftest.py': CONFTEST_0 + CONFTEST_ROUNDTRIP + CONFTEST_AUDITED,
      'tests/test_history.py': TEST_HISTORY_5,
      'CHANGELOG.md': changelog(5),
    },
  },
  {
    message: 'Validate quantities and prices',
    author: MARA,
    date: '2024-03-22T15:10:00+01:00',
    files: {
      [`${PKG}/item.py`]: ITEM_6,
      [`${PKG}/inventory.py`]: inventory(INV_V6),
      'tests/test_validation.py': TEST_VALIDATION_6,
      'CHANGELOG.md': changelog(6),
    },
  },
  {
    message: 'Format prices with thousands separators; add parse_price()',
    author: THEO,
    date: '2024-03-27T13:55:00+01:00',
    files: {
      [`${PKG}/__init__.py`]: INIT_7,
      [`${PKG}/money.py`]: MONEY_7,
      'tests/test_money.py': TEST_MONEY_7,
      'CHANGELOG.md': changelog(7),
    },
  },
  {
    message: 'Suggest reorder quantities in whole packs',
    author: MARA,
    date: '2024-04-02T10:20:00+02:00',
    files: {
      [`${PKG}/reorder.py`]: REORDER_8,
      'tests/test_reorder.py': TEST_REORDER_8,
      'CHANGELOG.md': changelog(8),
    },
  },
  {
    message: 'Add item categories, value by category, and sorting by quantity and value',
    author: THEO,
    date: '2024-04-05T17:03:00+02:00',
    files: {
      [`${PKG}/item.py`]: ITEM_9,
      [`${PKG}/inventory.py`]: inventory(INV_V9),
      [`${PKG}/csvio.py`]: CSVIO_9,
      'tests/test_inventory.py': TEST_INVENTORY_0 + TEST_INVENTORY_1 + TEST_INVENTORY_2 + TEST_INVENTORY_9,
      'tests/test_csvio.py': TEST_CSVIO_4(HEADER_9, TEST_CSVIO_9_EXTRA),
      'CHANGELOG.md': changelog(9),
    },
  },
  {
    message: 'Release 1.0.0',
    author: MARA,
    date: '2024-04-09T12:00:00+02:00',
    files: {
      [`${PKG}/__init__.py`]: INIT_10,
      'pyproject.toml': PYPROJECT('1.0.0'),
      'README.md': README_1,
      'CHANGELOG.md': changelog(9, true),
      'tests/test_package.py': TEST_PACKAGE_10,
    },
  },
];
