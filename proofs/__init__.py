"""lethal's library of properties of the combat damage assignment rules.

Each module holds properties of one rule family; `lethal prove` with no path proves them all.
"""
