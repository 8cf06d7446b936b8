"""Environments for learning agents: a fixed discrete action space, observations of what
one seat may see, a PettingZoo AEC environment (every seat an agent) and a Gymnasium
environment (one seat against the project's bots). Every episode can be written out as a
``.cascadia`` log. Needs the ``agents`` extra (``pip install 'cascadia[agents]'``);
docs/AGENTS.md."""
