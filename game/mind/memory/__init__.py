"""A resident's memory: the stream of every observation, conversation, plan and reflection
(``stream.py``, ``MemoryStream``) and its retrieval after Park et al. 2023 (recency, importance and
relevance, ``scoring.py``), with the parts it owns: the records' columns in numpy arrays
(``columns.py``), the prefilter that picks candidates on a large stream (``prefilter.py``), the image
a save takes of it (``image.py``), the embeddings cache (``embeddings.py``) and the readers of a
record's text, who told the resident what and whom it talked with (``records.py``).  It imports no
other part of the mind."""
