"""Trainer integrations: verigym envs and rewards in the RL trainers people use.

One module per trainer, each importable without the trainer installed
(the trainer's own classes are only imported where they are subclassed):

* :mod:`verigym.integrations.verl`: ``compute_score`` for verl's reward
  loop and ``rows`` in verl's parquet layout; the multi-turn agent loop
  ``verigym`` lives in :mod:`verigym.integrations.verl_agent` (imports verl).
* :mod:`verigym.integrations.trl`: ``rows``, ``reward_function`` for
  ``GRPOTrainer(reward_funcs=...)`` and ``environment`` for
  ``GRPOTrainer(environment_factory=...)``.
* :mod:`verigym.integrations.openrlhf`: ``reward_func`` (also a file for
  ``--reward.remote_url``), ``rows`` and the agent for ``--train.agent_func_path``
  in :mod:`verigym.integrations.openrlhf_agent`.

Env protocols (each imports its package, pinned in
``python/protocols-requirements.txt``):

* :mod:`verigym.integrations.gymnasium`: every one-player env registered
  with Gymnasium as ``verigym/<family>-<name>-v<N>`` (``gym_id``).
* :mod:`verigym.integrations.pettingzoo`: ``env(game_id)``, an AEC env per
  game; each agent observes only its own seat.
* :mod:`verigym.integrations.skyrl`: the SkyRL-Gym env class ``verigym``
  and ``rows`` with ``env_class`` and ``reward_spec``.

Every route plays one seat of an env (:class:`verigym.SeatEnv`) against a
built-in opponent where the env is a game, so what reaches the model is only
that seat's own view: never the task card, the task id, another seat's view
or another seat's score.
"""
