"""The agent architecture of Generative Agents, free of web, queue and database frameworks.

Everything here is plain Python: domain values (`types`), the paper's retrieval (`retrieval`),
the Mind and Embedder interfaces with their adapters, and the cognitive loops that use them
through the small store protocol in `store`.
"""
