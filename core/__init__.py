"""The Django-free core: the evaluation engine, the sandboxes, grading and report building.

Nothing here imports Django or any app of the site; the apps above (catalog, submissions, evaluation,
leaderboard) call into it (README "Layout").
"""
