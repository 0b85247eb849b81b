"""The catalog: benchmarks (versions, tasks, splits), teams and their systems, published results, and their import.

The bottom app of the site (README "Layout"): it imports only the Django-free core, and every other app reads
it.
"""
