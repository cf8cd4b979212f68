"""What plays batches of games to answer a question: ability values, the self-check, best
responses and tuning, tournaments, the balance search, the benchmark and traces."""
