"""A study's games played chunk by chunk into a run folder (manifest, atomic writes, resume,
the folder lock), locally or as Ray tasks; experiments and adaptive precision."""
