"""Flows: the use cases of Hearth, each a function that reads and writes through `db.queries`
and thinks through `cognition`, in the caller's transaction.

The edges translate and flows decide: a route turns HTTP into ids and values, calls one flow,
commits and answers; a task turns its arguments into ids, calls one flow inside one
transaction, and sends the follow-up jobs the flow returns (`Outcome.follow_ups`) once that
transaction has committed. A flow never commits (the edge owns the transaction), never sends
a job (it names them, `db.jobs`), and never imports the edges. Nothing else in `db` imports a
flow (an import-linter contract).
"""
