"""The project's documents (``RULES.md``, ``SCALING.md``), installed with the package as
``cascadia.docs`` so that the command line can print them from any installation."""
