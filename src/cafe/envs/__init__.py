"""Research interfaces: fixed action and observation encodings, and adapters for RL frameworks."""
