"""catnip's laptop side: mirror, session log, replay and verification, deploy, virtual table."""
